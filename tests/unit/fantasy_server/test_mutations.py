"""Magical mutations (checklist-002 §2.18; E-S-12)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from lazaretto.core.engine import run_query
from lazaretto.core.errors import RuleViolation
from tests.game import t
from tests.unit.fantasy_server.conftest import FGame


def day(n: int, hhmm: str = "10:00") -> datetime:
    return t(hhmm) + timedelta(days=n)


@pytest.fixture
def over(g: FGame) -> FGame:
    """E-S-12: max HP 30; 35 HP of magical healing received within 24 h; 12 HP missing."""
    g.pc("H", MAG=7)
    g.pc("P", hp=30, WIL=4)
    g.act("lose-hp", character="P", amount=20)
    g.act("heal-magically", patient="P", healer="H", amount=20)
    g.act("lose-hp", character="P", amount=15)
    g.act("heal-magically", patient="P", healer="H", amount=15)
    g.act("lose-hp", character="P", amount=12)
    assert not [e for e in g.events if e.kind.startswith("mutation.")]  # 20, then 35 > 30
    return g


def heal(g: FGame, face: int | None = None, **kw: Any) -> dict[str, Any]:
    kw.setdefault("healer", "H")
    kw.setdefault("healer_roll", 10)  # MAG 7 + 10 = 17
    kw.setdefault("patient_roll", 10)  # WIL 4 + 10 = 14
    g.act("heal-magically", patient="P", amount=12, mutation_roll=face, **kw)
    return g.last("hp.healed")


def test_after_more_than_max_hp_of_magic_each_healing_is_resisted_wil_vs_mag(over: FGame) -> None:
    heal(over, face=5)
    healer, patient = over.checks()[-2:]
    assert (healer["stat"], patient["stat"]) == ("MAG", "WIL")  # S-MUT-01
    assert over.last("mutation.rolled")["face"] == 5  # 17 beats 14
    assert "S-MUT-01" in over.rules("mutation.rolled")


def test_e_s_12_a_tie_resists_the_mutation(over: FGame) -> None:
    heal(over, healer_roll=10, patient_roll=13)  # 17 vs 17
    assert over.last("mutation.resisted")["character"] == "P"  # A-S-14
    assert not [e for e in over.events if e.kind == "mutation.rolled"]
    assert over.ch("P").hits == 30


def test_the_window_is_24_hours(over: FGame) -> None:
    answer = run_query(over.rs, over.state, "mutation-risk", {"patient": "P"})
    assert answer["at_risk"] and answer["window_total"] == 35  # A-S-25
    over.advance_at(day(1, "09:01"))
    answer = run_query(over.rs, over.state, "mutation-risk", {"patient": "P"})
    assert not answer["at_risk"]  # A-S-25: a rolling 24 game hours
    over.act_at(day(1, "09:02"), "heal-magically", patient="P", healer="H", amount=5)
    assert not [e for e in over.events if e.kind.startswith("mutation.")]


def test_self_healing_is_never_resisted(over: FGame) -> None:
    over.act("set-sheet", character="P", stats=["MAG=3"])
    over.act("heal-magically", patient="P", amount=4, mutation_roll=5)
    assert over.last("mutation.rolled")["face"] == 5  # S-MUT-02: no WIL vs MAG roll
    assert not over.checks()
    assert "S-MUT-02" in over.rules("mutation.rolled")


def test_the_always_resisted_reading_of_self_healing() -> None:
    g = FGame(params={"self_heal_mutation": "always_resisted"})  # A-S-25 alternative
    g.pc("P", hp=10)
    for _ in range(3):
        g.act("lose-hp", character="P", amount=8)
        g.act("heal-magically", patient="P", amount=8)
    assert g.last("mutation.resisted")["how"] == "self-healing"  # S-MUT-02


def test_the_d6_is_rolled_on_the_campaign_stream(over: FGame) -> None:
    over.act("set-sheet", character="P", stats=["MAG=3"])
    over.act("heal-magically", patient="P", amount=4)
    face = over.last("mutation.rolled")["face"]
    assert 1 <= face <= 6  # S-MUT-03
    assert over.events[-1].dice or any(e.dice for e in over.events if e.kind == "mutation.rolled")
    assert over.replayed() == over.state


def test_combat_healing_skills_count_towards_mutations(g: FGame) -> None:
    g.pc("H", MAG=7)
    g.pc("P", hp=10, WIL=1)
    for _ in range(2):  # 16 HP by a combat skill: more than max HP 10
        g.act("lose-hp", character="P", amount=8)
        g.act("heal-magically", patient="P", healer="H", amount=8, means="combat_skill")
    g.act("lose-hp", character="P", amount=8)
    g.act("heal-magically", patient="P", healer="H", amount=8, means="combat_skill",
          healer_roll=15, patient_roll=2, mutation_roll=5)  # fmt: skip
    assert g.last("mutation.rolled")["face"] == 5  # S-MUT-04: 16 > 10
    assert "S-MUT-04" in g.rules("hp.healed")


def test_e_s_12_mutation_1_the_healing_deals_its_amount_as_damage(over: FGame) -> None:
    out = heal(over, face=1)
    assert out["restored"] == -12 and over.ch("P").hits == 6  # S-MUTT-01


def test_e_s_12_mutation_2_half_healing_and_minus_2_on_the_next_roll(over: FGame) -> None:
    out = heal(over, face=2)
    assert out["restored"] == 6  # S-MUTT-02: half strength
    over.act("roll-check", character="P", stat="WIL", threshold=10, roll=10)
    assert over.checks()[-1]["modifiers"] == {"mutation_discomfort": -2}  # S-MUTT-02
    over.act("roll-check", character="P", stat="WIL", threshold=10, roll=10)
    assert over.checks()[-1]["modifiers"] == {}  # only the next roll


def test_mutation_3_extra_skin_is_removed_with_acid_or_festers_within_a_day(over: FGame) -> None:
    heal(over, face=3, at="10:00")
    keys = [c.data["key"] for c in over.ch("P").conditions if c.kind == "trauma"]
    assert keys == ["skin_layer"]  # S-MUTT-03
    with pytest.raises(RuleViolation) as err:
        over.act("heal-trauma", healer="H", patient="P", trauma="skin_layer")
    assert err.value.rule_ids == ("S-MUTT-03",)  # only acid
    over.advance_at(day(1, "10:00"))
    keys = [c.data["key"] for c in over.ch("P").conditions if c.kind == "trauma"]
    assert keys == ["festering_wound"]  # S-MUTT-03: not treated within a day


def test_acid_removes_the_extra_skin_in_time(over: FGame) -> None:
    heal(over, face=3, at="10:00")
    over.act("treat-skin-layer", at="12:00", healer="H", patient="P")
    over.advance_at(day(2))
    assert not [c for c in over.ch("P").conditions if c.kind == "trauma"]  # S-MUTT-03


def test_mutation_4_a_wrongly_knitted_trauma_needs_physical_int_28(g: FGame) -> None:
    g.pc("H", MAG=7, INT=10, healing_skill_level=2)
    g.pc("P", hp=10, WIL=1)
    for _ in range(2):
        g.act("lose-hp", character="P", amount=6)
        g.act("heal-magically", patient="P", healer="H", amount=6)
    g.act("give-trauma", character="P", trauma="lameness")
    g.act("heal-trauma", at="10:00", healer="H", patient="P", trauma="lameness", method="magical")
    g.act("heal-trauma", at="11:00", healer="H", patient="P", trauma="lameness", method="magical",
          roll=15, patient_roll=2, mutation_roll=4)  # fmt: skip
    traumas = [c.data for c in g.ch("P").conditions if c.kind == "trauma"]
    # S-MUTT-04: the trauma's effect remains as a wrongly knitted one
    assert [(d["key"], d["replaces"]) for d in traumas] == [("misknit", "lameness")]
    g.act("heal-trauma", at="11:30", healer="H", patient="P", trauma="misknit", roll=17)
    assert g.checks()[-1]["threshold"] == 28 and traumas  # 27 < 28
    g.act(
        "heal-trauma", at="12:30", healer="H", patient="P", trauma="misknit", roll=18, reroll=True
    )
    assert not [c for c in g.ch("P").conditions if c.kind == "trauma"]  # S-MUTT-04


def test_mutation_5_grows_a_rudimentary_limb(over: FGame) -> None:
    heal(over, face=5)
    assert over.ch("P").has("rudimentary_limb")  # S-MUTT-05
    assert over.ch("P").hits == 30  # S-HEAL-08: the full healing, and a mutation on top
    assert "S-HEAL-08" in over.rules("hp.healed")


def test_mutation_6_a_tumour_blocks_armour_above_light_until_removed_physically(
    over: FGame,
) -> None:
    heal(over, face=6)
    over.act("register-item", item="mail", name="Chain mail", kind="armor", owner="P",
             armor_weight="medium")  # fmt: skip
    over.act("register-item", item="coat", name="Leather coat", kind="armor", owner="P",
             armor_weight="light")  # fmt: skip
    with pytest.raises(RuleViolation) as err:
        over.act("equip-item", character="P", item="mail")
    assert err.value.rule_ids == ("S-MUTT-06",)  # S-MUTT-06
    over.act("equip-item", character="P", item="coat")
    with pytest.raises(RuleViolation) as err:
        over.act("heal-trauma", healer="H", patient="P", trauma="tumour", method="magical")
    assert err.value.rule_ids == ("A-S-24", "S-HEAL-05")  # S-MUTT-06: only physically
    over.act("set-sheet", character="H", stats=["INT=10"])
    over.act("heal-trauma", healer="H", patient="P", trauma="tumour", roll=14)
    over.act("unequip-item", character="P", item="coat")
    over.act("equip-item", character="P", item="mail")  # S-MUTT-06: removed
