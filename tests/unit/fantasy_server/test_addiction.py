"""Alchemical addiction and withdrawal (checklist-002 §2.19; E-S-11)."""

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


def drink(g: FGame, heals: int, when: datetime | None = None, **kw: Any) -> dict[str, Any]:
    kw.setdefault("mutation_roll", 5)  # self-healing past the window always rolls (S-MUT-02)
    if when is None:
        g.act("drink-potion", character="P", heals=heals, **kw)
    else:
        g.act_at(when, "drink-potion", character="P", heals=heals, **kw)
    return g.last("addiction.potion_counted")


def stage(g: FGame) -> str:
    return g.state.addiction("P").stage


@pytest.fixture
def addict(g: FGame) -> FGame:
    """E-S-11: max HP 40; potions heal 15 + 15 + 10 → stage 1; 20 more → stage 2."""
    g.pc("P", hp=40, WIL=10, END=10)
    g.act("lose-hp", character="P", amount=40)
    for heals in (15, 15, 10):
        drink(g, heals)
    assert stage(g) == "stage1"  # S-ADD-03
    g.act("lose-hp", character="P", amount=20)
    drink(g, 20)
    assert stage(g) == "stage2"  # S-ADD-06
    return g


def test_healing_potions_in_large_amounts_cause_addiction(g: FGame) -> None:
    g.pc("P", hp=40)
    g.act("lose-hp", character="P", amount=30)
    drink(g, 30)
    assert stage(g) == "none" and g.last("addiction.potion_counted")["potion_hp"] == 30
    assert "S-ADD-01" in g.rules("hp.healed")  # S-ADD-01
    g.act("lose-hp", character="P", amount=10)
    drink(g, 10)
    assert stage(g) == "stage1"  # S-ADD-03: potion HP equal to max HP
    card = g.card("P")["addiction"]
    assert card["behaviour"] == "uses healing potions in every fight; needs at least 1 a day"
    assert "S-ADD-04" in g.rules("addiction.stage_reached")  # S-ADD-04


def test_only_hp_actually_restored_by_potions_counts(g: FGame) -> None:
    g.pc("P", hp=40)
    drink(g, 50)  # at full HP nothing is restored (A-S-26)
    assert stage(g) == "none" and g.last("addiction.potion_counted")["potion_hp"] == 0
    g.act("lose-hp", character="P", amount=40)
    g.act("heal-magically", patient="P", amount=40)  # a spell is not a potion
    assert stage(g) == "none"


def test_e_s_11_the_stages_and_their_daily_needs(addict: FGame) -> None:
    assert "S-ADD-06" in addict.rules("addiction.stage_reached")  # S-ADD-06
    status = run_query(addict.rs, addict.state, "addiction-status", {"character": "P"})
    assert status["behaviour"] == "uses healing potions even outside combat; needs 2 a day"
    assert "S-ADD-07" in addict.rules("addiction.stage_reached")  # S-ADD-07
    addict.act("lose-hp", character="P", amount=20)
    out = drink(addict, 10)
    assert stage(addict) == "heavy"  # S-ADD-09: any potion in stage 2
    assert out["restored"] == 10  # the potion that tipped it still healed
    assert "S-ADD-10" in addict.rules("addiction.stage_reached")
    assert addict.state.addiction("P").stage == "heavy"
    addict.act("lose-hp", character="P", amount=10)
    assert drink(addict, 10)["restored"] == 0  # S-ADD-10, S-ADD-02: potions stop working
    assert {"S-ADD-02", "S-ADD-10"} <= set(addict.rules("hp.healed"))
    status = run_query(addict.rs, addict.state, "addiction-status", {"character": "P"})
    assert "more than 2 a day" in status["behaviour"]  # S-ADD-10


def test_the_gm_declares_the_heavy_addiction_in_the_gm_reading() -> None:
    g = FGame(params={"addiction_heavy_trigger": "gm"})  # A-S-26 alternative
    g.pc("P", hp=10)
    g.act("lose-hp", character="P", amount=10)
    drink(g, 10)
    g.act("lose-hp", character="P", amount=5)
    drink(g, 5)
    drink(g, 0)
    assert stage(g) == "stage2"
    g.act("escalate-addiction", character="P")
    assert stage(g) == "heavy"  # S-ADD-09
    with pytest.raises(RuleViolation):
        g.act("escalate-addiction", character="P")


def test_e_s_11_withdrawal_grows_1_a_day_to_6_then_wil_22_decides(addict: FGame) -> None:
    addict.advance_at(day(1, "00:00"))  # day 0: four potions, the need met
    assert addict.state.addiction("P").withdrawal == 0
    for n in range(1, 7):  # then six days without a potion
        addict.advance_at(day(n + 1, "00:00"))
        assert addict.state.addiction("P").withdrawal == -n
    assert "S-ADD-12" in addict.rules("addiction.day_evaluated")  # S-ADD-12
    rec = addict.state.addiction("P")
    assert rec.withdrawal_state == "check_due"  # S-ADD-14
    addict.act_at(day(7), "roll-check", character="P", stat="WIL", threshold=10, roll=10)
    assert addict.checks()[-1]["modifiers"] == {"withdrawal": -6}  # S-ADD-13: all rolls
    addict.act_at(day(7), "withdrawal-check", character="P", roll=18)  # 10 + 18 - 6 = 22
    assert addict.state.addiction("P").withdrawal_state == "improving"
    assert "S-ADD-15" in addict.rules("addiction.withdrawal_checked")  # S-ADD-15
    addict.advance_at(day(9, "00:00"))
    assert addict.state.addiction("P").withdrawal == -6


def test_e_s_11_a_failed_wil_check_brings_the_grave_condition_and_a_daily_end_check(
    addict: FGame,
) -> None:
    addict.advance_at(day(7, "00:00"))
    with pytest.raises(RuleViolation):
        addict.act_at(day(7, "09:00"), "grave-check", character="P", roll=20)  # not grave yet
    addict.act_at(day(7), "withdrawal-check", character="P", roll=17)  # 21 < 22
    assert addict.ch("P").has("grave_condition")  # S-ADD-14
    assert addict.card("P")["state"] == "grave"
    addict.act_at(day(7, "11:00"), "grave-check", character="P", roll=20)  # survives today
    assert addict.checks()[-1]["threshold_label"] == "heavy (24)"  # A-S-02
    with pytest.raises(RuleViolation) as err:
        addict.act_at(day(7, "12:00"), "grave-check", character="P", roll=20)
    assert err.value.rule_ids == ("S-ADD-16", "A-S-26")  # once a day
    addict.act_at(day(8), "grave-check", character="P", roll=19)  # 10 + 19 - 6 = 23 < 24
    assert not addict.ch("P").alive  # S-ADD-16: death


def test_a_gm_ends_the_grave_condition(addict: FGame) -> None:
    addict.advance_at(day(7, "00:00"))
    addict.act_at(day(7), "withdrawal-check", character="P", roll=2)
    addict.act_at(day(7, "11:00"), "end-grave-condition", character="P")
    assert not addict.ch("P").has("grave_condition")  # S-ADD-16, A-S-26
    assert addict.state.addiction("P").withdrawal_state == "improving"


def test_a_day_with_enough_potions_adds_no_withdrawal(g: FGame) -> None:
    g.pc("P", hp=10)
    g.act("lose-hp", character="P", amount=10)
    drink(g, 10, when=day(0))
    drink(g, 0, when=day(1, "12:00"))  # one potion on day 1: stage 1 needs 1
    g.advance_at(day(2, "00:00"))
    assert g.state.addiction("P").withdrawal == 0  # S-ADD-04
    g.advance_at(day(3, "00:00"))  # none on day 2
    assert g.state.addiction("P").withdrawal == -1  # S-ADD-13


def test_stage_1_is_treated_by_a_week_of_isolation_without_potions(g: FGame) -> None:
    g.pc("P", hp=10)
    g.act("lose-hp", character="P", amount=10)
    drink(g, 10, when=day(0))
    g.act_at(day(0, "12:00"), "start-addiction-treatment", character="P")
    until = g.state.addiction("P").course_until
    assert until == day(7, "12:00")  # S-ADD-05: a week
    g.advance_at(day(7, "12:00"))
    rec = g.state.addiction("P")
    assert rec.stage == "none" and rec.withdrawal == 0  # S-ADD-05, A-S-26
    assert not g.ch("P").has("addiction")


def test_drinking_during_the_course_interrupts_it(g: FGame) -> None:
    g.pc("P", hp=10)
    g.act("lose-hp", character="P", amount=10)
    drink(g, 10, when=day(0))
    g.act_at(day(0, "12:00"), "start-addiction-treatment", character="P")
    drink(g, 0, when=day(1))
    assert g.state.addiction("P").course_until is None  # S-ADD-05
    g.advance_at(day(8))
    assert stage(g) == "stage1"


def test_stage_2_needs_four_days_with_spiritual_healing(addict: FGame) -> None:
    addict.act_at(day(0, "12:00"), "start-addiction-treatment", character="P")
    addict.advance_at(day(4, "12:00"))
    assert stage(addict) == "stage2"  # S-ADD-08: no spiritual healing, no cure
    assert addict.last("addiction.treatment_interrupted")["reason"] == "no spiritual healing"
    addict.act_at(day(4, "13:00"), "start-addiction-treatment", character="P")
    addict.act_at(day(5), "heal-spiritually", patient="P", how="talk")
    addict.advance_at(day(8, "13:00"))
    assert stage(addict) == "none"  # S-ADD-08


def test_heavy_addiction_needs_a_long_course_then_a_week_without_potions(addict: FGame) -> None:
    drink(addict, 0)
    assert stage(addict) == "heavy"
    addict.act_at(day(0, "12:00"), "start-addiction-treatment", character="P")
    assert addict.state.addiction("P").course_until == day(14, "12:00")
    addict.act_at(day(1), "heal-spiritually", patient="P", how="meditation")
    addict.advance_at(day(14, "12:00"))
    rec = addict.state.addiction("P")
    assert rec.stage == "none" and rec.ban_until == day(21, "12:00")  # S-ADD-11
    drink(addict, 0, when=day(15))
    assert addict.last("addiction.ban_broken")["character"] == "P"  # S-ADD-11
    addict.advance_at(day(21, "12:00"))
    assert addict.state.addiction("P").ban_until is None
    assert addict.replayed() == addict.state


def test_stage_2_needs_a_full_half_of_max_hp_regenerated_in_stage_1(g: FGame) -> None:
    g.pc("P", hp=40, WIL=10, END=10)
    g.act("lose-hp", character="P", amount=40)
    drink(g, 40)
    assert stage(g) == "stage1"  # S-ADD-03
    g.act("lose-hp", character="P", amount=30)
    drink(g, 19)
    assert stage(g) == "stage1"  # S-ADD-06: 19 of 40 is less than half
    assert g.state.addiction("P").stage1_hp == 19
    drink(g, 1)
    assert stage(g) == "stage2"  # S-ADD-06: 20 of 40 is half
