"""The one state table (checklist-004 §2.3): how each state is gained, its shift, how it
is removed, and how states stack."""

from __future__ import annotations

from typing import Any

from lazaretto.rulesets.ide4_survival.tables import condition_table
from tests.unit.ide4_survival.conftest import Ide


def difficulty(g: Ide, cid: str, skill: str, *tags: str, **kw: Any) -> int:
    """The difficulty of a check made now at base [0]."""
    g.do("d100-check", character=cid, skill=skill, tags=list(tags), outcome="success", **kw)
    return int(g.last_check(cid).difficulty)


def skip_lunch(g: Ide) -> None:
    g.do("eat-meal", at="07:30")
    g.to("19:00")  # the lunch window ends without a meal


def test_one_state_does_not_stack_with_itself(g: Ide) -> None:
    skip_lunch(g)
    g.to("2/07:00")  # dinner skipped too: "hungry" again
    assert [c.kind for c in g.ch("a").conditions].count("hungry") == 1
    assert difficulty(g, "b", "Athletics", "long_physical") >= 1
    # I-STATE-01: hungry gained twice still gives +1 (exhausted adds its own +2 here)
    shifts = {s.source: s.amount for s in g.last_check("b").shifts}
    assert shifts["hungry"] == 1  # I-STATE-01


def test_different_states_add_up(g: Ide) -> None:
    skip_lunch(g)
    g.do("end-fight", at="19:10", characters=["a"], heavy=True)  # tired
    # I-STATE-02: hungry +1 and tired +1 on a march check = +2
    assert difficulty(g, "a", "Athletics", "long_physical") == 2  # I-STATE-02


def test_long_physical_actions_take_the_hunger_penalty_others_do_not(g: Ide) -> None:
    skip_lunch(g)
    # I-STATE-03: march, load, digging, swimming, climbing a long way are long physical actions
    assert difficulty(g, "a", "Swimming", "long_physical", "swim") == 1  # I-STATE-03
    assert difficulty(g, "a", "Attention") == 0  # I-STATE-03: not a long physical action


def test_short_combat_actions_get_the_long_action_penalty_only_when_declared(q: Ide) -> None:
    q.do("end-fight", at="07:00", characters=["a"], heavy=True)
    # I-STATE-04: a short sword attack while tired: +0 …
    assert difficulty(q, "a", "Melee", "physical") == 0  # I-STATE-04
    # … unless the GM declared fatigue critical (a forced run)
    assert difficulty(q, "a", "Melee", "physical", fatigue_critical=True) == 1  # I-STATE-04


def test_every_state_effect_comes_from_the_table(g: Ide) -> None:
    table = condition_table()
    # I-STATE-05 / I-GEN-13: ten rows, each with how gained / shift / how removed
    assert [r.rule for r in table.states.values()] == [f"I-COND-{i:02d}" for i in range(1, 11)]
    assert table.states["hungry"].shifts[0].target == "long_physical"  # I-STATE-05
    assert {s.target for s in table.states["dehydrated"].shifts} == {
        "skill:Endurance",
        "skill:Attention",
    }  # I-STATE-05
    skip_lunch(g)
    shifts = g.ask("d100-odds", character="a", skill="Athletics", tags=["long_physical"])["shifts"]
    assert shifts == ["hungry +1"]  # I-STATE-05: the shift is the table's, nothing else


def test_visible_hunger_adds_one_to_negotiations_at_the_gms_discretion(g: Ide) -> None:
    skip_lunch(g)
    assert difficulty(g, "a", "Negotiations") == 0  # I-STATE-06: not unless the GM applies it
    assert difficulty(g, "a", "Negotiations", visible_hunger=True) == 1  # I-STATE-06


def test_fed_after_three_normal_meals_and_lapses_with_a_skip(g: Ide) -> None:
    g.do("eat-meal", at="07:30")
    g.do("eat-meal", at="13:20")
    assert not g.has("a", "fed")
    g.do("eat-meal", at="19:30")
    assert g.has("a", "fed")  # I-COND-01: three normal meals in a day
    assert difficulty(g, "a", "Athletics", "long_physical") == 0  # I-COND-01: shift 0
    g.to("2/13:00")  # breakfast of day 2 skipped
    assert not g.has("a", "fed") and g.has("a", "hungry")  # I-COND-01, A-I-31


def test_hungry_from_a_skip_or_too_little_food_and_gone_after_a_normal_meal(g: Ide) -> None:
    g.do("eat-meal", at="07:30", characters=["a"], food_units=300)
    assert g.has("a", "hungry")  # I-COND-02: too little food
    g.to("13:00")
    assert g.has("b", "hungry")  # I-COND-02: one meal skipped
    assert difficulty(g, "b", "Athletics", "long_physical") == 1  # I-COND-02: +1
    g.do("eat-meal", at="13:30")
    assert not g.has("a", "hungry") and not g.has("b", "hungry")  # I-COND-02: a normal meal


def test_dehydrated_without_the_daily_water_norm_until_water_and_rest(q: Ide) -> None:
    q.do("end-day", at="23:00", no_water=["a"])
    assert q.has("a", "dehydrated") and not q.has("b", "dehydrated")  # I-COND-03
    assert difficulty(q, "a", "Endurance") == 1  # I-COND-03: +1 Endurance
    assert difficulty(q, "a", "Attention") == 1  # I-COND-03: +1 Attention
    q.do("drink", at="23:10", characters=["a"], ml=500)
    assert q.has("a", "dehydrated")  # I-COND-03: water alone is not enough
    q.do("rest", at="23:20", characters=["a"], hours=1)
    assert not q.has("a", "dehydrated")  # I-COND-03: 500 ml clean water + 1 hour of rest


def test_exhausted_from_two_days_without_food_or_a_forced_march_and_its_cure() -> None:
    g = Ide(params={"meal_mode": "quick"})
    g.add("a")
    g.do("morning")
    g.do("mark-food-day", at="20:00", mark="starved")
    assert not g.has("a", "exhausted")
    g.do("end-day", at="23:00")
    g.do("morning", at="2/06:00")
    g.do("mark-food-day", at="2/20:00", mark="starved")
    assert g.has("a", "exhausted")  # I-COND-04: 2+ days without food
    difficulty(g, "a", "Athletics", "physical")
    assert {s.source: s.amount for s in g.last_check("a").shifts}["exhausted"] == 2  # I-COND-04
    f = Ide(params={"forced_march_state": "exhausted"})  # the state table's reading (A-I-21)
    f.add("a")
    f.do("morning")
    f.do("end-march", at="18:00", pace="forced")
    assert f.has("a", "exhausted")  # I-COND-04: a forced march


def test_exhausted_goes_after_a_day_of_food_water_and_sleep(g: Ide) -> None:
    g.to("2/07:00")  # breakfast (joined at 06:00 day 1), lunch, dinner skipped
    assert g.has("a", "exhausted")
    g.do("end-day", at="2/07:05")
    g.do("morning", at="2/07:10")
    for hhmm in ("2/07:30", "2/13:30", "2/19:30"):
        g.do("eat-meal", at=hhmm)
    g.do("make-camp", at="2/21:00", camp="normal")
    g.do("plan-sleep", at="2/21:00")
    g.do("go-to-sleep", at="2/21:00", pick="highest")
    hours = g.sv("a").sleep_planned
    g.to("3/08:00")
    g.do("end-day", at="3/08:00")
    gone = not g.has("a", "exhausted")
    assert gone == (hours is not None and hours >= 8)  # I-COND-04: a day of food, water, sleep
    recovery = g.ask("recovery", character="b")
    if g.has("b", "exhausted"):
        assert "exhausted: healing is worse" in recovery["worse"]  # I-COND-04


def test_tired_from_a_fast_day_or_heavy_fight_gone_after_an_hour_of_rest(q: Ide) -> None:
    q.do("end-march", at="18:00", characters=["a"], pace="fast")
    q.do("end-fight", at="18:00", characters=["b"], heavy=True)
    assert q.has("a", "tired") and q.has("b", "tired")  # I-COND-05
    assert difficulty(q, "a", "Athletics", "long_physical") == 1  # I-COND-05: +1
    q.do("rest", at="19:00", characters=["a"], hours=1)
    assert not q.has("a", "tired")  # I-COND-05: an hour of rest
    q.do("make-camp", at="21:00", characters=["b"], camp="normal")
    q.do("plan-sleep", at="21:00", characters=["b"])
    q.do("go-to-sleep", at="21:00", characters=["b"], pick="lowest")
    q.to("2/08:00")
    assert not q.has("b", "tired")  # I-COND-05: or normal sleep


def test_very_tired_from_marching_without_camp_or_overload_and_its_cure(q: Ide) -> None:
    q.do("end-march", at="20:00", characters=["a"], pace="normal")  # no camp that night
    q.do("end-day", at="2/06:00")
    q.do("morning", at="2/06:00")
    q.do("end-march", at="2/20:00", characters=["a"], pace="normal")
    assert q.has("a", "very_tired")  # I-COND-06: 2 days of march in a row without camp
    q.do("set-load", at="2/20:00", characters=["b"], load="overloaded")
    q.do("end-day", at="2/21:00")
    assert q.has("b", "very_tired")  # I-COND-06, A-I-21: overloaded on a day without travel
    assert difficulty(q, "a", "Athletics", "physical") == 1  # I-COND-06: +1 physical
    assert difficulty(q, "a", "Insight", "concentration") == 1  # I-COND-06: +1 concentration
    q.do("make-camp", at="2/21:30", characters=["a"], camp="normal")
    q.do("plan-sleep", at="2/21:30", characters=["a"])
    options = q.sv("a").sleep_options
    pick = max(options)
    q.do("go-to-sleep", at="2/21:30", characters=["a"], hours=pick)
    q.to("3/08:00")
    assert q.has("a", "very_tired") == (pick < 6)  # I-COND-06: full camp + sleep ≥ 6 h


def test_sleep_deprived_lowers_the_energy_limit_or_concentration(q: Ide) -> None:
    q.do("make-camp", at="21:00", characters=["a"], camp="bad")
    q.do("plan-sleep", at="21:00", characters=["a"])
    q.do("go-to-sleep", at="21:00", characters=["a"], pick="highest")
    q.to("2/08:00")
    assert q.has("a", "sleep_deprived")  # I-COND-07: a bad camp
    assert q.card("a")["energy_limit"] == 2  # I-COND-07: 3 → 2
    assert difficulty(q, "a", "Insight", "concentration") == 0
    assert difficulty(q, "a", "Insight", "concentration", concentration=True) == 1  # I-COND-07
    assert q.last_check("a").energy_limit == 3  # I-COND-07: one or the other, per scene


def test_sick_from_a_failed_immunity_check_shift_by_stage_removed_by_treatment(q: Ide) -> None:
    q.do("expose", at="08:00", characters=["a"], disease="basic", difficulty=2, outcome="failure")
    assert q.has("a", "sick")  # I-COND-08: a failed Immunity check
    case = next(iter(q.st.cases.values()))
    assert case.stage == 1 and case.stage1_group == "body"
    assert difficulty(q, "a", "Athletics") == 1  # I-COND-08: by stage (stage 1: +1 one group)
    q.do(
        "treat-disease", at="09:00", character="a", disease="basic", effect="cure", kind="medicine"
    )
    assert not q.has("a", "sick")  # I-COND-08: treatment


def test_poisoned_shifts_related_checks_and_costs_a_reroll(g: Ide) -> None:
    g.do("eat-meal", at="07:30")
    g.do(
        "poison-risk",
        at="08:00",
        characters=["a"],
        source="spoiled_food",
        difficulty=1,
        outcome="failure",
    )
    assert g.has("a", "poisoned")  # I-COND-09: a failed check against poison/food
    assert not [r for r in g.sv("a").rerolls if r.kind == "meal"]  # I-COND-09: reroll lost
    assert difficulty(g, "a", "Endurance", "related") == 1  # I-COND-09: +1 related checks
    assert difficulty(g, "a", "Attention") == 0
    g.do("treat-poisoning", at="09:00", character="a", method="sorbents", outcome="success")
    assert not g.has("a", "poisoned")  # I-COND-09: treatment


def test_stressed_at_zero_or_one_calm_until_calm_returns(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["monster"])
    assert q.sv("a").calm == 1 and q.has("a", "stressed")  # I-COND-10: 0–1 calm points
    q.do("calm-recover", at="08:10", characters=["a"], reason="medicine", points=1)
    assert q.sv("a").calm == 2 and not q.has("a", "stressed")  # I-COND-10: calm restored


def test_exhausted_after_two_days_without_water(q: Ide) -> None:
    q.do("end-day", at="23:00", no_water=["a"])
    assert q.has("a", "dehydrated") and not q.has("a", "exhausted")
    q.do("end-day", at="2/23:00", no_water=["a"])
    assert q.has("a", "exhausted")  # I-COND-04: 2+ days without water
