"""Carriers, contagious patients, finishing-off and protection (checklist-000 §4.5.2–§4.5.3,
§5.1, §6.6–§6.7; A-W-20, A-W-26..29)."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import RuleViolation
from tests.game import Game
from tests.unit.warhammer.diseases_kit import (
    COURSE_N,
    cure_in_hospital,
    define,
    game,
    held_codes,
    ill,
)


def carrier_with(g: Game, n: int = 3, code: str = "GF") -> list[str]:
    g.act("hand-stickers", to="K", disease=code, count=n)
    return held_codes(g, "K", code)


def test_a_carrier_passes_up_to_three_stickers_of_a_contagious_disease_by_touch() -> None:
    g = game()
    define(g)
    carrier_with(g, 6)
    evs = g.act("carrier-touch", at="14:00", carrier="K", victim="p0", disease="GF", count=3)
    assert ill(g, "p0")  # W-CARR-01: by touch
    # W-INF-02, W-CARR-03: three stickers to one victim; W-CARR-04: one stuck, two held
    assert len(held_codes(g, "p0")) == 2 and len(held_codes(g, "K")) == 3
    contact = next(e for e in evs if e.kind == "infection.contact")
    assert (len(contact.payload["stuck"]), len(contact.payload["held"])) == (1, 2)
    with pytest.raises(RuleViolation) as err:
        g.act("carrier-touch", carrier="K", victim="p1", disease="GF", count=4)
    assert "W-CARR-03" in err.value.rule_ids and "W-INF-02" in err.value.rule_ids


def test_a_non_contagious_disease_passes_one_sticker_per_touch() -> None:
    g = game()
    define(g, contagious=False)
    carrier_with(g, 3)
    with pytest.raises(RuleViolation) as err:
        g.act("carrier-touch", carrier="K", victim="p0", disease="GF", count=2)
    assert "A-W-26" in err.value.rule_ids  # A-W-26: one sticker of a non-contagious disease
    g.act("carrier-touch", carrier="K", victim="p0", disease="GF")
    assert ill(g, "p0") and held_codes(g, "p0") == []


def test_the_sticker_comes_from_the_carriers_hand_or_a_master_who_saw_the_touch() -> None:
    g = game()
    define(g)
    with pytest.raises(RuleViolation) as err:
        g.act("carrier-touch", carrier="K", victim="p0", disease="GF")
    assert "W-CARR-02" in err.value.rule_ids  # nothing in hand, nothing to give
    carrier_with(g, 1)
    g.act("carrier-touch", at="10:00", carrier="K", victim="p0", disease="GF", via="master")
    contact = next(e for e in g.events if e.kind == "infection.contact")
    assert contact.payload["via"] == "master" and ill(g, "p0")  # W-CARR-02


def test_mask_and_gloves_block_a_touch_and_the_sticker_stays_with_the_carrier() -> None:
    g = game()
    define(g)
    codes = carrier_with(g, 1)
    g.act("wear", character="p0", items=["cloth_mask", "gloves"])
    g.act("carrier-touch", at="10:00", carrier="K", victim="p0", disease="GF")
    assert not ill(g, "p0")  # W-PROT-03: mask and gloves block touch
    assert held_codes(g, "K") == codes  # W-CARR-07: the sticker stays with the carrier
    assert g.state.stickers[codes[0]].history[-1].what == "kept"


def test_a_contagious_patient_holds_at_most_two_stickers_of_a_disease() -> None:
    g = game()
    define(g)
    carrier_with(g, 6)
    g.act("carrier-touch", at="10:00", carrier="K", victim="p0", disease="GF", count=3)
    g.act("carrier-touch", at="10:01", carrier="K", victim="p0", disease="GF", count=3)
    assert len(held_codes(g, "p0")) == 2  # W-CARR-05: at most two for passing on
    assert len(held_codes(g, "K")) == 3  # W-CARR-07, A-W-27: at the limit: they stay


def test_a_contagious_patient_passes_held_stickers_on_one_per_touch() -> None:
    g = game()
    define(g)
    carrier_with(g, 3)
    g.act("carrier-touch", at="10:00", carrier="K", victim="p0", disease="GF", count=3)
    g.act("pass-sticker", at="10:05", actor="p0", victim="p1", disease="GF")
    assert ill(g, "p1") and len(held_codes(g, "p0")) == 1  # W-CARR-04: one per touch
    assert g.ch("p1").condition("disease").source == "contagious:p0"
    with pytest.raises(RuleViolation):  # p1 holds nothing to pass
        g.act("pass-sticker", actor="p1", victim="p2", disease="GF")


def test_cure_makes_the_held_stickers_of_that_disease_vanish() -> None:
    g = game()
    define(g)
    carrier_with(g, 3)
    g.act("carrier-touch", at="10:00", carrier="K", victim="p0", disease="GF", count=3)
    spare = held_codes(g, "p0")
    cure_in_hospital(g, "p0", ["GF"])
    g.advance("11:00")
    assert not ill(g, "p0") and held_codes(g, "p0") == []
    assert {g.state.stickers[c].status for c in spare} == {"vanished"}  # W-CARR-06


def test_an_immunity_keeps_the_sticker_with_the_giver() -> None:
    g = game()
    define(g)
    define(g, code="RX", recipe=[])
    carrier_with(g, 2)
    g.act("grant-protection", character="p0", kind="immunity", diseases=["GF"])
    g.act("grant-protection", character="p1", kind="immunity", diseases=["RX"])
    g.act("carrier-touch", at="10:00", carrier="K", victim="p0", disease="GF")
    assert not ill(g, "p0") and len(held_codes(g, "K")) == 2  # W-CARR-07: immune
    g.act("carrier-touch", at="10:00", carrier="K", victim="p1", disease="GF")
    assert ill(g, "p1")  # W-PROT-04: an immunity to another disease does not help


def test_a_second_sticker_of_a_disease_one_already_has_is_kept_for_others() -> None:
    g = game()
    define(g)
    carrier_with(g, 2)
    g.act("carrier-touch", at="10:00", carrier="K", victim="p0", disease="GF")
    g.act("carrier-touch", at="10:01", carrier="K", victim="p0", disease="GF")
    assert len(held_codes(g, "p0")) == 1  # W-CARR-08: used to infect others
    assert sum(c.kind == "disease" for c in g.ch("p0").conditions) == 1


def test_only_one_disease_passes_in_one_touch() -> None:
    g = game()
    define(g)
    define(g, code="ZZ", recipe=[])
    x = carrier_with(g, 1)
    z = carrier_with(g, 1, "ZZ")
    evs = g.act("carrier-touch", at="10:00", carrier="K", victim="p0", stickers=[x[0], z[0]])
    assert ill(g, "p0", "GF") and not ill(g, "p0", "ZZ")  # W-CARR-09
    contact = next(e for e in evs if e.kind == "infection.contact")
    assert contact.payload["not_passed"] == z and "W-CARR-09" in contact.rule_ids
    assert held_codes(g, "K", "ZZ") == z


def test_finishing_off_a_carrier_in_melee_infects_an_unprotected_attacker() -> None:
    g = game()
    define(g)
    carrier_with(g, 3)
    g.act("finish-off", at="14:30", attacker="p0", carrier="K", weapon="melee")
    assert ill(g, "p0")  # W-INF-03: one sticker
    assert not g.ch("K").alive  # the finishing-off kills (W-DEF-01)
    assert len(held_codes(g, "K")) == 2 and held_codes(g, "p0") == []


@pytest.mark.parametrize("weapon", ["spear", "ranged_weapon", "ranged_magic"])
def test_spears_and_ranged_attacks_do_not_infect(weapon: str) -> None:
    g = game()
    define(g)
    carrier_with(g, 3)
    evs = g.act("finish-off", at="14:30", attacker="p0", carrier="K", weapon=weapon)
    assert not ill(g, "p0")  # W-INF-04
    rec = next(e for e in evs if e.kind == "finish_off.recorded")
    assert rec.rule_ids == ("W-INF-04",) and not rec.payload["infected"]


def test_finishing_off_needs_the_attacker_unprotected_and_stickers_in_hand() -> None:
    g = game()
    define(g)
    g.add("K2", skills=("Carrier",))
    carrier_with(g, 1)
    g.act("wear", character="p0", items=["medical_mask", "gloves"])
    g.act("finish-off", at="14:30", attacker="p0", carrier="K", kills=False)
    assert not ill(g, "p0") and len(held_codes(g, "K")) == 1  # W-INF-03, W-PROT-03
    evs = g.act("finish-off", at="14:31", attacker="p1", carrier="K2")
    rec = next(e for e in evs if e.kind == "finish_off.recorded")
    assert rec.payload["reason"] == "no stickers on hand" and not ill(g, "p1")  # W-INF-03


def test_finishing_off_a_contagious_patient_infects_only_if_configured() -> None:
    for flag, expected in ((False, False), (True, True)):
        g = game(finish_off_infects_from_contagious=flag)
        define(g)
        carrier_with(g, 3)
        g.act("carrier-touch", at="10:00", carrier="K", victim="p0", disease="GF", count=3)
        g.act("finish-off", at="10:10", attacker="p1", carrier="p0")
        assert ill(g, "p1") is expected  # A-W-29: only carriers by default


def test_a_cooldown_between_touches_is_configurable() -> None:
    g = game(contact_cooldown_seconds=60)
    define(g)
    carrier_with(g, 3)
    g.act("carrier-touch", at="10:00:00", carrier="K", victim="p0", disease="GF")
    with pytest.raises(RuleViolation) as err:
        g.act("carrier-touch", at="10:00:30", carrier="K", victim="p0", disease="GF")
    assert err.value.rule_ids == ("A-W-28",)  # A-W-28
    g.act("carrier-touch", at="10:01:00", carrier="K", victim="p0", disease="GF")
    assert len(held_codes(g, "p0")) == 1


def test_full_plague_outfit_protects_and_its_mask_must_cover_the_face() -> None:
    g = game()
    define(g)
    carrier_with(g, 2)
    with pytest.raises(RuleViolation) as err:
        g.act(
            "wear",
            character="p0",
            items=["hooded_robe", "gloves", "plague_mask"],
            mask_covers_face=False,
        )
    assert err.value.rule_ids == ("W-PROT-02",)  # W-PROT-02
    g.act("wear", character="p0", items=["hooded_robe", "gloves", "plague_mask"])
    g.act("carrier-touch", at="10:00", carrier="K", victim="p0", disease="GF")
    assert not ill(g, "p0")  # W-PROT-01: full protection
    g.act("wear", character="p0", items=["hooded_robe", "plague_mask"])  # no gloves
    g.act("carrier-touch", at="10:01", carrier="K", victim="p0", disease="GF")
    assert ill(g, "p0")


def test_alchemy_or_magic_may_protect_partly_and_for_a_time() -> None:
    g = game()
    define(g)
    carrier_with(g, 3)
    g.act(
        "grant-protection", at="10:00", character="p0", kind="magic", routes=["touch"], minutes=30
    )
    g.act("carrier-touch", at="10:10", carrier="K", victim="p0", disease="GF")
    assert not ill(g, "p0")  # W-PROT-04: magic against touch
    g.act("carrier-touch", at="10:31", carrier="K", victim="p0", disease="GF")
    assert ill(g, "p0")  # W-PROT-04: it wore off
    g.act("grant-protection", character="p1", kind="alchemy", routes=["epidemic"])
    g.act("carrier-touch", at="10:32", carrier="K", victim="p1", disease="GF")
    assert ill(g, "p1")  # W-PROT-04: partial: this potion guards against epidemics only


def test_nobody_can_pass_a_disease_when_dead_or_to_themself() -> None:
    g = game()
    define(g)
    carrier_with(g, 2)
    with pytest.raises(RuleViolation):
        g.act("carrier-touch", carrier="K", victim="K", disease="GF")
    g.act("kill", character="p0")
    with pytest.raises(RuleViolation) as err:
        g.act("carrier-touch", carrier="K", victim="p0", disease="GF")
    assert "W-DEF-01" in err.value.rule_ids
    assert COURSE_N  # (the catalogue of the other tests stays importable)


def test_the_hand_limit_is_a_parameter() -> None:
    g = game(held_stickers_per_disease_max=1)
    define(g)
    carrier_with(g, 3)
    g.act("carrier-touch", at="10:00", carrier="K", victim="p0", disease="GF", count=3)
    assert len(held_codes(g, "p0")) == 1 and len(held_codes(g, "K")) == 1  # A-W-27
