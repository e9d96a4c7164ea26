"""The ambiguity defaults of checklist-004 §3 against their alternative readings (the
parameters of ``params.yaml``)."""

from __future__ import annotations

from typing import Any

import pytest

from lazaretto.core.errors import InvalidInput, RuleViolation
from tests.unit.ide4_survival.conftest import Ide, make_sick


def game(**params: Any) -> Ide:
    g = Ide(params={"meal_mode": "quick", **params})
    g.add("a")
    g.add("b")
    return g


def test_a_i_05_rerolls_carry_over_only_in_the_alternative_reading() -> None:
    g = Ide(params={"meal_reroll_carryover": True})
    g.add("a")
    g.do("morning")
    g.do("eat-meal", at="07:30")
    g.to("13:00")
    assert len(g.sv("a").rerolls) == 1  # A-I-05 alternative: not burned at the window
    g.do("eat-meal", at="13:30", bonus_food=True)
    g.do("eat-meal", at="19:30")
    assert len(g.sv("a").rerolls) == 2  # capped at one meal's worth plus bonus food


def test_a_i_11_an_interrupted_night_may_count_as_a_bad_camp() -> None:
    for bad, deprived in ((False, False), (True, True)):
        g = game(interrupted_sleep_is_bad_camp=bad)
        g.do("make-camp", at="22:00", characters=["a"], camp="normal")
        g.do("plan-sleep", at="22:00", characters=["a"], rolled=[9, 1, 1])
        g.do("go-to-sleep", at="22:00", characters=["a"], hours=9)
        g.do("interrupt-sleep", at="2/01:00", characters=["a"], rolled=[8, 2])
        g.to("2/07:00")
        assert g.has("a", "sleep_deprived") is deprived  # A-I-11


def test_a_i_14_adrenaline_doses_top_up_or_add_up_and_go_at_full_calm() -> None:
    top = game()
    top.do("calm-event", at="08:00", characters=["a"], events=["oppressive"])
    top.do("calm-event", at="08:01", characters=["a"], events=["oppressive"])
    assert top.sv("a").adrenaline == 2  # A-I-14: topped up to the level's dose
    add = game(adrenaline_grant="on_enter_level_cumulative")
    add.do("calm-event", at="08:00", characters=["a"], events=["oppressive"])
    add.do("calm-event", at="08:01", characters=["a"], events=["oppressive"])
    assert add.sv("a").adrenaline == 3  # A-I-14 alternative: 1 + 2
    top.do("calm-recover", at="09:00", characters=["a"], reason="medicine", points=2)
    assert top.sv("a").calm == 3 and top.sv("a").adrenaline == 0  # A-I-14: gone at 3
    keep = game(adrenaline_expires_at_full_calm=False)
    keep.do("calm-event", at="08:00", characters=["a"], events=["oppressive"])
    keep.do("calm-recover", at="09:00", characters=["a"], reason="medicine", points=1)
    assert keep.sv("a").adrenaline == 1


def test_a_i_15_the_zero_calm_penalty_target() -> None:
    g = game(zero_calm_penalty_target="hp")
    g.do("calm-event", at="08:00", characters=["a"], events=["monster"], turn="1")
    g.do("calm-event", at="08:01", characters=["a"], events=["monster"], turn="2")
    g.to("09:30")
    cond = g.ch("a").condition("health_penalty")
    assert cond is not None and cond.data["target"] == "hp"  # A-I-15 alternative


def test_a_i_17_stage_two_may_be_plus_two_and_death_may_count_from_exposure() -> None:
    g = game(stage2_shift=2)
    make_sick(g, "a", "basic")
    g.do("end-day", at="23:00")
    g.do("resolve-check", at="23:01", check=g.last_check("a").id, outcome="failure")
    g.do("d100-check", at="23:05", character="a", skill="Athletics", outcome="success")
    assert {s.source: s.amount for s in g.last_check("a").shifts}["stage:2"] == 2  # A-I-17
    e = game(death_timer_start="on_exposure")
    e.do("expose", at="08:00", characters=["a"], disease="black_torpor", difficulty=2)
    case = next(iter(e.st.cases.values()))
    assert case.status == "incubating" and case.death_at is not None  # A-I-17 alternative


def test_a_i_21_the_travel_check_may_always_or_never_be_rolled() -> None:
    always = game(travel_check_mode="always")
    always.do("end-march", at="18:00", characters=["a"], pace="fast")
    assert always.last_check("a").skill == "Endurance"  # A-I-21: always
    never = game(travel_check_mode="never")
    never.do("end-march", at="18:00", characters=["a"], pace="fast", check=True)
    assert not never.checks("a") and never.has("a", "tired")  # A-I-21: never


def test_a_i_23_without_a_meal_reroll_the_pacified_one_is_lost(q: Ide) -> None:
    q.do(
        "poison-risk",
        at="08:00",
        characters=["a"],
        source="poison",
        difficulty=3,
        outcome="failure",
    )
    q.do("d100-check", at="08:10", character="a", skill="Attention", outcome="failure")
    with pytest.raises(RuleViolation) as err:
        q.do("use-reroll", at="08:11", character="a", kind="pacified", outcome="success")
    assert "I-CALM-18" in err.value.rule_ids  # A-I-23: the day's pacified reroll is gone


def test_a_i_30_fatigue_degrees_may_stack_in_the_alternative_reading() -> None:
    g = game(fatigue_degrees_exclusive=False)
    g.do("end-fight", at="08:00", characters=["a"], heavy=True)
    g.do("end-march", at="18:00", characters=["a"], pace="forced")
    assert g.has("a", "tired") and g.has("a", "very_tired")  # A-I-30 alternative
    g.do(
        "d100-check",
        at="18:10",
        character="a",
        skill="Athletics",
        tags=["long_physical"],
        outcome="success",
    )
    assert g.last_check("a").difficulty == 2  # tired +1, very tired +1


def test_the_consecutive_day_counts_are_parameters() -> None:
    g = game(fast_days_for_very_tired=3)
    for d in (1, 2):
        if d > 1:
            g.do("morning", at=f"{d}/06:00")
        g.do("end-march", at=f"{d}/18:00", characters=["a"], pace="fast")
        g.do("make-camp", at=f"{d}/19:00", characters=["a"], camp="bad")
        g.do("rest", at=f"{d}/20:00", characters=["a"], hours=1)
    assert not g.has("a", "very_tired")  # I-TRAVEL-07 with 3 days: not yet
    g.do("morning", at="3/06:00")
    g.do("end-march", at="3/18:00", characters=["a"], pace="fast")
    assert g.has("a", "very_tired")  # A-I-27: the provisional numbers are parameters


def test_a_campaign_may_narrow_the_prices_of_the_road() -> None:
    g = Ide(params={"mode": "simplified", "quick_travel_costs": ["lost_time"]})
    g.add("a")
    with pytest.raises(RuleViolation) as err:
        g.do(
            "quick-travel",
            at="08:00",
            character="a",
            route="r",
            outcome="failure",
            costs=["fatigue"],
        )
    assert "I-TRAVEL-12" in err.value.rule_ids


def test_replacements_per_check_and_recovery_modifiers_are_parameters() -> None:
    g = game(tragedy_replacements_per_check=2, recovery_modifiers={"hungry": -1, "safe": 1})
    g.do("calm-event", at="08:00", characters=["a"], events=["monster"], turn="1")
    g.do("calm-event", at="08:01", characters=["a"], events=["monster"], turn="2")
    g.do("d100-check", at="08:02", character="a", skill="Melee", outcome="tragedy")
    g.do("replace-tragedy", at="08:03", character="a")
    assert g.last_check("a").replacements == 1
    g.do("mark-food-day", at="20:00", characters=["b"], mark="skipped")
    r = g.ask("recovery", character="b", safe=True)
    assert r["modifier"] == 0  # A-I-25: +1 safe −1 hungry


def test_an_unknown_attribute_group_is_refused(q: Ide) -> None:
    with pytest.raises(InvalidInput):
        q.do("d100-check", at="08:00", character="a", skill="Juggling", group="circus")
