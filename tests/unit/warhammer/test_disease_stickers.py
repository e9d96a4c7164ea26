"""Diseases as tracked stickers (checklist-000 §4.1–§4.5.1): codes, history, lethal and
non-lethal diseases, several at once, a master's punishment, and who sees what."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import NotFound, RuleViolation
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import Membership
from lazaretto.service.play import card_for
from tests.game import t
from tests.unit.warhammer.diseases_kit import (
    LETHAL_RECIPE,
    define,
    game,
    held_codes,
    ill,
    q,
    sticker_of,
)


def test_every_sticker_has_a_unique_code_and_shows_symptoms_and_penalties() -> None:
    g = game()
    define(g)
    for p in ("p0", "p1", "p2"):
        g.act("infect", at="10:00", character=p, disease="GF")
    codes = [sticker_of(g, p) for p in ("p0", "p1", "p2")]
    assert len(set(codes)) == 3  # W-DIS-01: each sticker is a tracked object with its code
    shown = q(g, "sticker", code=codes[0])
    # W-DIS-01: the sticker carries the symptoms and the penalties
    assert (shown["symptoms"], shown["penalties"]) == ("cough loudly", "cannot run")
    assert q(g, "sticker", code=codes[0].lower())["code"] == codes[0]  # typed in lower case
    with pytest.raises(NotFound):
        q(g, "sticker", code="NOPE-0001")


def test_the_symptoms_are_what_the_player_roleplays() -> None:
    g = game()
    define(g, symptoms="shiver and sneeze")
    g.act("infect", at="10:00", character="p0", disease="GF")
    shown = q(g, "sticker", role=Role.PLAYER, code=sticker_of(g, "p0"), character="p0")
    assert shown["symptoms"] == "shiver and sneeze"  # W-DIS-02: what must be roleplayed
    props = {i.rule for i in g.rs.params.props_checklists["sticker"]}  # type: ignore[attr-defined]
    assert {"W-DIS-02", "W-DIS-06"} <= props  # W-DIS-02, W-DIS-06: shown as a checklist


def test_the_penalties_field_holds_penalties_lethality_and_races_for_masters_only() -> None:
    g = game()
    define(g, code="RP", lethal=True, minutes_to_death=60, races=["human"], recipe=LETHAL_RECIPE)
    g.act("infect", at="10:00", character="p0", disease="RP")
    code = sticker_of(g, "p0", "RP")
    master = q(g, "sticker", code=code)
    # W-DIS-03: penalties, lethal or not, and the races affected
    assert (master["penalties"], master["lethal"], master["races"]) == (
        "cannot run",
        True,
        ["human"],
    )
    for role in (Role.PLAYER, Role.HEALER):
        seen = q(g, "sticker", role=role, code=code, character="p0")
        assert not {"penalties", "lethal", "races", "history"} & set(seen)  # W-DIS-05


def test_penalties_reach_only_the_infected_player_and_masters_on_cards() -> None:
    g = game()
    define(g)
    g.act("infect", at="10:00", character="p0", disease="GF")

    def disease_cards(member: Membership) -> list[dict[str, object]]:
        card = card_for(g.rs, g.state, "p0", member, "en")
        return [c["disease"] for c in card["conditions"] if c["kind"] == "disease"]

    owner = Membership("test", Role.PLAYER, ("p0",))
    assert disease_cards(owner)[0]["penalties"] == "cannot run"  # W-DIS-05: their own sticker
    other = Membership("test", Role.PLAYER, ("p1",))
    with pytest.raises(NotFound):  # the LARP's default sight: another's card is not there
        disease_cards(other)
    g.state.params["player_sight"] = "party"  # a campaign whose players see each other
    assert disease_cards(other) == []  # W-DIS-05: nobody else sees it even so
    healer = Membership("test", Role.HEALER, ("H",))
    assert all("penalties" not in d for d in disease_cards(healer))  # W-DIS-05


def test_no_races_listed_means_everyone_otherwise_others_keep_it_without_effect() -> None:
    g = game()
    g.add("E", race="elf")
    define(g, code="RP", lethal=True, minutes_to_death=60, races=["human"], recipe=LETHAL_RECIPE)
    define(g)
    g.act("infect", at="10:00", character="E", disease="GF")
    assert g.ch("E").condition("disease").data["affected"]  # W-DIS-04: affects everyone
    g.act("infect", at="10:00", character="E", disease="RP")
    cond = next(c for c in g.ch("E").conditions if c.data.get("code") == "RP")
    assert cond.data["affected"] is False and cond.deadline is None  # W-DIS-04; A-W-25
    g.advance("12:00")
    assert g.ch("E").alive  # the elf keeps the sticker without effect


def test_the_sticker_goes_into_the_back_of_the_passport_the_moment_it_is_received() -> None:
    g = game()
    define(g)
    g.act("infect", at="10:00", character="p0", disease="GF")
    s = g.state.stickers[sticker_of(g, "p0")]
    assert s.status == "stuck" and s.infected == "p0"
    assert s.history[-1].note == "back of the game passport"  # W-DIS-06
    cond = g.ch("p0").condition("disease")
    assert cond.started == t("10:00")  # W-DIS-10: in effect from the moment of receiving


def test_every_disease_is_lethal_or_not_and_a_lethal_one_needs_its_time() -> None:
    g = game()
    with pytest.raises(RuleViolation) as err:
        define(g, code="RP", lethal=True, recipe=LETHAL_RECIPE)
    assert "W-DIS-09" in err.value.rule_ids
    define(g, code="RP", lethal=True, minutes_to_death=60, recipe=LETHAL_RECIPE)
    define(g)
    # W-DIS-07: lethal or non-lethal, nothing else
    assert (g.state.diseases["RP"]["lethal"], g.state.diseases["GF"]["lethal"]) == (True, False)


def test_a_non_lethal_disease_never_wears_off() -> None:
    g = game()
    define(g)
    g.act("infect", at="10:00", character="p0", disease="GF")
    assert not g.state.timers_for("p0")
    g.advance("23:59")
    assert ill(g, "p0") and g.ch("p0").alive  # W-DIS-08: lasts until cured


def test_a_lethal_disease_kills_on_its_time_counted_from_infection() -> None:
    g = game()
    define(g, code="RP", lethal=True, minutes_to_death=45, recipe=LETHAL_RECIPE)
    g.act("infect", at="10:00", character="p0", disease="RP")
    g.advance("10:44:59")
    assert g.ch("p0").alive
    g.advance("10:45")
    assert not g.ch("p0").alive  # W-DIS-09: 45 minutes from infection
    assert g.replayed() == g.state


def test_curing_a_wound_does_not_stop_a_lethal_disease() -> None:
    g = game()
    define(g, code="RP", lethal=True, minutes_to_death=45, recipe=LETHAL_RECIPE)
    g.act("infect", at="10:00", character="p0", disease="RP")
    g.act("lose-hits", at="10:05", character="p0", hits=1)
    g.act("cure-by-other-means", at="10:06", patient="p0", means="spell")
    g.advance("10:45")
    assert not g.ch("p0").alive  # W-DIS-09: only curing the disease stops its countdown


def test_several_diseases_at_once() -> None:
    g = game()
    define(g)
    define(g, code="RP", lethal=True, minutes_to_death=60, recipe=LETHAL_RECIPE)
    g.act("infect", at="10:00", character="p0", disease="GF")
    g.act("infect", at="10:01", character="p0", disease="RP")
    assert ill(g, "p0", "GF") and ill(g, "p0", "RP")  # W-DIS-11


def test_a_master_hands_a_sticker_as_a_punishment() -> None:
    g = game()
    define(g)
    g.act("infect", at="10:00", character="p0", disease="GF")
    s = g.state.stickers[sticker_of(g, "p0")]
    assert s.history[0].what == "made" and s.history[0].by == "master"
    assert g.ch("p0").condition("disease").source == "master"  # W-INF-01
    g.act("hand-stickers", to="K", disease="GF", count=2)
    chosen = held_codes(g, "K")[0]
    g.act("infect", at="10:01", character="p1", disease="GF", sticker=chosen)
    assert sticker_of(g, "p1") == chosen  # W-INF-01: this very sticker
    with pytest.raises(RuleViolation):  # a stuck sticker cannot be handed again
        g.act("infect", character="p2", disease="GF", sticker=chosen)


def test_a_master_cannot_give_a_second_sticker_of_a_non_contagious_disease() -> None:
    g = game()
    define(g, contagious=False)
    g.act("infect", at="10:00", character="p0", disease="GF")
    with pytest.raises(RuleViolation) as err:
        g.act("infect", at="10:01", character="p0", disease="GF")
    assert "W-CARR-07" in err.value.rule_ids


def test_listing_stickers_by_holder() -> None:
    g = game()
    define(g)
    g.act("hand-stickers", to="K", disease="GF", count=3)
    rows = q(g, "stickers", holder="K")["stickers"]
    assert len(rows) == 3 and {r["status"] for r in rows} == {"held"}
    g.act("hand-stickers", to="p0", disease="GF", count=1, source="K")
    assert len(held_codes(g, "K")) == 2 and len(held_codes(g, "p0")) == 1
    with pytest.raises(RuleViolation):
        g.act("hand-stickers", to="p0", disease="GF", count=5, source="K")


def test_every_event_and_countdown_reads_in_english_and_russian() -> None:
    from lazaretto.core.state import CORE_REDUCERS

    g = game()
    for kind in sorted(g.rs.reducers.kinds() - CORE_REDUCERS.kinds()):
        en, ru = g.rs.texts[f"event:{kind}"]
        assert en and ru and en != ru, kind
    for kind in g.rs.timer_handlers:
        en, ru = g.rs.texts[f"timer:{kind}"]
        assert en and ru and en != ru, kind
