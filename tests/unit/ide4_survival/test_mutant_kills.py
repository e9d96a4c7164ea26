"""Boundaries of ide4-survival rules that a one-step change of their data or code would move
unnoticed (issue 19, ``bench/mutate.py``): each test pins the value on both sides."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from lazaretto.core.errors import RuleViolation
from lazaretto.rulesets.ide4_survival.state import Reroll
from tests.unit.ide4_survival.conftest import Ide, day_of, make_sick, when


def hot(g: Ide, cid: str) -> list[Reroll]:
    return [r for r in g.sv(cid).rerolls if r.kind == "hot"]


def meal_rerolls(g: Ide, cid: str) -> list[Reroll]:
    return [r for r in g.sv(cid).rerolls if r.kind == "meal"]


def recorded(evs: list[Any]) -> dict[str, Any]:
    return dict(next(e for e in evs if e.kind == "intimacy.recorded").payload)


def stage_of(g: Ide, cid: str, code: str = "basic") -> int:
    case = next(c for c in g.st.cases.values() if c.character == cid and c.disease == code)
    return case.stage if case.status == "sick" else 0


def test_a_sheet_set_back_to_1000_units_needs_exactly_1000_units_a_meal(g: Ide) -> None:
    g.do("survival-sheet", character="a", body_food_norm=800)
    g.do("survival-sheet", character="a", body_food_norm=1000)  # the GM corrects the sheet
    assert g.sv("a").body_food_norm == 1000  # I-MEAL-05, A-I-07: 1000 is one of the norms
    g.do("eat-meal", at="07:30", characters=["a"], liquid_ml=500, food_units=999)
    assert not meal_rerolls(g, "a")  # I-MEAL-05: 999 < 1000 units is too little
    g.do("eat-meal", at="07:40", characters=["a"], liquid_ml=500, food_units=1000)
    assert len(meal_rerolls(g, "a")) == 1  # I-MEAL-05: 1000 units is a normal meal


def test_a_body_of_800_units_eats_normally_at_800_not_799(g: Ide) -> None:
    g.do("survival-sheet", character="a", body_food_norm=800)
    g.do("survival-sheet", character="b", body_food_norm=800)
    g.do("eat-meal", at="07:30", characters=["a"], liquid_ml=500, food_units=799)
    g.do("eat-meal", at="07:30", characters=["b"], liquid_ml=500, food_units=800)
    assert not meal_rerolls(g, "a")  # I-MEAL-05, A-I-07: 799 < 800
    assert len(meal_rerolls(g, "b")) == 1  # I-MEAL-05, A-I-07: 800 is enough for this body


def test_six_hours_in_a_full_camp_end_very_tired_and_five_do_not(q: Ide) -> None:
    q.do("end-march", at="20:00", characters=["a", "b"], pace="normal")
    q.do("end-day", at="2/06:00")
    q.do("morning", at="2/06:00")
    q.do("end-march", at="2/20:00", characters=["a", "b"], pace="normal")
    assert q.has("a", "very_tired") and q.has("b", "very_tired")  # I-COND-06
    for cid, hours in (("a", 6), ("b", 5)):
        q.do("make-camp", at="2/21:30", characters=[cid], camp="normal")
        q.do("plan-sleep", at="2/21:30", characters=[cid], rolled=[5, 6, 9])
        q.do("go-to-sleep", at="2/21:30", characters=[cid], hours=hours)
    q.to("3/08:00")
    assert not q.has("a", "very_tired")  # I-COND-06: full camp + sleep ≥ 6 h
    assert q.has("b", "very_tired")  # I-COND-06: 5 h is not enough


def test_a_triumph_on_the_daily_immunity_check_lowers_the_stage(q: Ide) -> None:
    make_sick(q, "a", "basic")
    make_sick(q, "b", "basic")
    q.do("end-day", at="23:00")
    for cid in ("a", "b"):
        q.do("resolve-check", at="23:01", check=q.last_check(cid).id, outcome="failure")
    assert stage_of(q, "a") == stage_of(q, "b") == 2  # A-I-17: failure +1
    q.do("end-day", at="2/23:00")
    q.do("resolve-check", at="2/23:01", check=q.last_check("a").id, outcome="triumph")
    q.do("resolve-check", at="2/23:01", check=q.last_check("b").id, outcome="medium")
    assert stage_of(q, "a") == 1  # I-DIS-04, A-I-17: a triumph drops a stage
    assert stage_of(q, "b") == 2  # A-I-17: medium changes nothing
    q.do("end-day", at="3/23:00")
    q.do("resolve-check", at="3/23:01", check=q.last_check("a").id, outcome="triumph")
    assert stage_of(q, "a") == 0  # I-DIS-04, A-I-17: at stage 1 a triumph means it passes


def test_a_man_gains_a_hot_reroll_again_exactly_30_minutes_after_the_act(q: Ide) -> None:
    q.do("survival-sheet", character="a", sex="male")
    q.do("intimate-act", at="22:00", character="a", partner="Mira")
    q.do("d100-check", at="22:05", character="a", skill="Insight", outcome="failure")
    q.do("use-reroll", at="22:06", character="a", kind="hot", outcome="success")
    assert not recorded(q.do("intimate-act", at="22:29", character="a", partner="Mira"))[
        "counted"
    ]  # I-HOT-04: 29 minutes is too soon
    assert recorded(q.do("intimate-act", at="22:30", character="a", partner="Mira"))["gained"] == 1
    assert len(hot(q, "a")) == 1  # I-HOT-04: no sooner than 30 minutes, and at 30


def test_the_love_of_a_lifetime_holds_two_hot_rerolls_and_no_third(q: Ide) -> None:
    q.do("survival-sheet", character="a", life_partner="b", sex="male")
    q.do("intimate-act", at="22:00", character="a", partner="b")
    assert len(hot(q, "a")) == 2  # I-HOT-06, I-HOT-07
    evs = q.do("intimate-act", at="23:00", character="a", partner="b")
    assert recorded(evs)["gained"] == 0 and recorded(evs)["refreshed"] == 1  # A-I-24
    assert len(hot(q, "a")) == 2  # I-HOT-06: the limit is 2, not 3


# --- code mutants -------------------------------------------------------------------------


def test_a_further_loss_at_zero_calm_keeps_the_hour_running(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["monster"], turn="t1")
    q.do("calm-event", at="08:01", characters=["a"], events=["monster"], turn="t2")
    left, since = q.sv("a").replacements, q.sv("a").zero_since
    assert q.sv("a").calm == 0 and left > 0  # I-CALM-25
    q.do("calm-event", at="08:30", characters=["a"], events=["monster"], turn="t3")
    assert q.sv("a").calm == 0
    assert (q.sv("a").replacements, q.sv("a").zero_since) == (left, since)  # I-CALM-25/30
    q.to("09:02")
    assert q.has("a", "health_penalty")  # I-CALM-30, A-I-15: an hour from 08:01, not 08:30


def test_a_fourth_meal_window_is_named_by_its_number() -> None:
    from lazaretto.rulesets.ide4_survival.common import window_at
    from lazaretto.rulesets.ide4_survival.params import IdeParams

    g = Ide(params={"meal_windows": ["07:00", "12:00", "17:00", "21:00"]})
    p = g.rs.campaign_params(g.state.params)
    assert isinstance(p, IdeParams)
    assert window_at(p, when("18:00")).name == "dinner"  # A-I-06: the third window
    w = window_at(p, when("22:00"))
    assert (w.index, w.name) == (3, "meal4")  # A-I-06: windows are parameters


def test_the_illness_of_stage_4_is_noted_as_dying_once_and_not_before(q: Ide) -> None:
    make_sick(q, "a", "basic")
    q.do("end-day", at="23:00")
    evs = q.do("resolve-check", at="23:01", check=q.last_check("a").id, outcome="tragedy")
    whats = [e.payload["what"] for e in evs if e.kind == "risk.noted"]
    assert stage_of(q, "a") == 3 and "dying" not in whats  # I-DIS-08: dangerous, not dying
    q.do("end-day", at="2/23:00")
    evs = q.do("resolve-check", at="2/23:01", check=q.last_check("a").id, outcome="failure")
    whats = [e.payload["what"] for e in evs if e.kind == "risk.noted"]
    assert stage_of(q, "a") == 4 and whats == ["dying"]  # I-DIS-09: dying; I-DIS-08 once


def test_worsening_a_stage_4_illness_notes_no_second_dying(q: Ide) -> None:
    make_sick(q, "a", "putrid_throat")
    d = day_of(q)
    for n, outcome in ((d, "tragedy"), (d + 1, "failure")):
        q.do("end-day", at=f"{n}/23:00")
        q.do("resolve-check", at=f"{n}/23:01", check=q.last_check("a").id, outcome=outcome)
    assert stage_of(q, "a", "putrid_throat") == 4  # A-I-17: +2, then +1
    evs = q.do("treat-disease", at=f"{d + 2}/08:00", character="a", disease="putrid_throat",
               treatment="I-CURE-12")  # fmt: skip
    assert stage_of(q, "a", "putrid_throat") == 4  # I-CURE-12 worsens; I-DIS-09: the last stage
    assert not [e for e in evs if e.kind == "risk.noted"]  # I-DIS-09: noted once, on entry


def test_a_catalogue_penalty_of_1_names_the_stage_1_group(q: Ide) -> None:
    case = make_sick(q, "a", "blood_flower")  # +1 to Sociality (I-CAT-04)
    assert case.stage == 1 and case.stage1_group == "sociality"  # I-DIS-06, A-I-17
    q.do("d100-check", at="2/12:00", character="a", skill="Negotiations", outcome="success")
    assert {s.source: s.amount for s in q.last_check("a").shifts}["stage:1"] == 1  # I-DIS-06


def test_ending_one_condition_of_infection_keeps_the_others_checks(q: Ide) -> None:
    q.do("start-exposure", at="08:00", characters=["a"], kind="wet", disease="basic")
    q.do("start-exposure", at="08:00", characters=["a"], kind="cold_no_clothes", disease="basic")
    q.do("end-exposure", at="08:35", characters=["a"], kind="wet")
    before = len(q.checks("a"))
    q.to("09:00")
    # I-IMM-03: cold still checks every 20 minutes on its own schedule (08:40, 09:00);
    # I-IMM-05: none for wet once it ended; A-I-19: the schedules are independent
    assert len(q.checks("a")) - before == 2
    assert [e.kind for e in q.st.exposures.values()] == ["cold_no_clothes"]


def test_one_schedule_for_all_conditions_still_gives_the_warm_clothes_grace() -> None:
    g = Ide(params={"meal_mode": "quick", "immunity_conditions_stack": "difficulty"})
    g.add("a")
    g.do("start-exposure", at="08:00", characters=["a"], kind="cold_warm_clothes",
         disease="basic")  # fmt: skip
    g.to("13:29")
    assert not g.checks("a")  # I-IMM-04: warm clothes hold for 5 hours, then every 30 min
    g.to("13:30")
    assert len(g.checks("a")) == 1  # I-IMM-04, A-I-19


def test_a_prostitute_partner_means_an_immunity_check_for_a_first_check_too(q: Ide) -> None:
    assert not q.checks("a")
    q.do("intimate-act", at="22:00", character="a", partner="Lola", partner_prostitute=True,
         disease="worm_of_debauchery", outcome="success")  # fmt: skip
    assert [c.skill for c in q.checks("a")] == ["Immunity"]  # I-HOT-10: a prostitute
    q.do("intimate-act", at="2/22:00", character="a", partner="Mira")
    assert len(q.checks("a")) == 1  # I-HOT-10: no check otherwise


def test_bonus_food_cites_its_extra_reroll_and_a_plain_meal_does_not(g: Ide) -> None:
    evs = g.do("eat-meal", at="07:30", characters=["a"])
    assert "I-MEAL-13" not in next(e for e in evs if e.kind == "meal.eaten").rule_ids
    evs = g.do("eat-meal", at="07:30", characters=["b"], bonus_food=True)
    assert "I-MEAL-13" in next(e for e in evs if e.kind == "meal.eaten").rule_ids  # I-MEAL-13
    assert len(meal_rerolls(g, "b")) == 2  # I-MEAL-13: one more reroll


def test_food_poisoning_lasts_at_one_point_and_ends_at_zero() -> None:
    g = Ide(params={"mode": "extended", "meal_mode": "quick"})
    g.add("a")
    g.do("poison-risk", at="08:00", characters=["a"], source="alchemical", difficulty=2,
         outcome="failure", points=3)  # fmt: skip
    g.to("12:00")
    assert g.sv("a").poison_points == 1 and g.has("a", "poisoned")  # I-POIS-07: 1 point left
    g.to("14:00")
    assert g.sv("a").poison_points == 0 and not g.has("a", "poisoned")  # I-POIS-07


def test_black_torpors_daily_will_roll_uses_the_campaigns_target() -> None:
    g = Ide(params={"meal_mode": "quick", "black_torpor_will_target": 60})
    g.add("a")
    make_sick(g, "a", "black_torpor")
    g.do("end-day", at="3/23:00")
    will = [c for c in g.checks("a") if "target" in c.payload]
    assert will and {c.payload["target"] for c in will} == {60}  # I-CAT-06, A-I-20


def test_a_meal_reroll_is_usable_until_the_next_window_and_not_at_its_start(g: Ide) -> None:
    g.do("eat-meal", at="07:30", characters=["a", "b"])
    g.do("d100-check", at="12:50", character="a", skill="Attention", outcome="failure")
    g.do("d100-check", at="12:50", character="b", skill="Attention", outcome="failure")
    g.do("use-reroll", at="12:59", character="a", kind="meal", outcome="success")
    assert g.last_check("a").outcome == "success"  # I-MEAL-09: breakfast → lunch
    with pytest.raises(RuleViolation) as err:
        g.do("use-reroll", at="13:00", character="b", kind="meal", outcome="success")
    assert "I-MEAL-09" in err.value.rule_ids  # I-MEAL-11, A-I-04: burnt at 13:00


def test_an_immunity_reroll_from_treatment_serves_only_its_own_disease(q: Ide) -> None:
    make_sick(q, "a", "basic")
    make_sick(q, "a", "iron_fever")
    q.do("treat-disease", at="3/08:20", character="a", disease="basic", effect="immunity_reroll")
    q.do("end-day", at="3/23:00")
    cases = {c.id: c.disease for c in q.st.cases.values()}
    daily = {
        cases[c.payload["case"]]: c for c in q.checks("a") if c.pending and "case" in c.payload
    }
    for rec in daily.values():
        q.do("resolve-check", at="3/23:01", check=rec.id, outcome="failure")
    with pytest.raises(RuleViolation) as err:
        q.do("use-reroll", at="3/23:02", character="a", kind="immunity",
             check=daily["iron_fever"].id, outcome="success")  # fmt: skip
    assert "I-DIS-05" in err.value.rule_ids  # I-DIS-05: the reroll is basic's
    q.do("use-reroll", at="3/23:03", character="a", kind="immunity",
         check=daily["basic"].id, outcome="success")  # fmt: skip
    assert q.st.checks[daily["basic"].id].outcome == "success"  # I-DIS-05


def test_stacked_sleep_deprivation_counts_one_bad_night_as_one_day() -> None:
    g = Ide(params={"meal_mode": "quick", "sleep_deprivation_stacks": True})
    g.add("a")
    g.do("make-camp", at="21:00", characters=["a"], camp="bad")
    g.do("plan-sleep", at="21:00", characters=["a"], rolled=[9, 9, 9])
    g.do("go-to-sleep", at="21:00", characters=["a"], hours=9)
    g.to("2/07:00")
    assert g.has("a", "sleep_deprived") and g.sv("a").deprived_days == 1  # I-COND-07
    assert g.card("a")["energy_limit"] == 2  # I-SLEEP-12: 3 − 1 for one day


def test_exhaustion_without_water_names_the_days(q: Ide) -> None:
    q.do("end-day", at="23:00", no_water=["a"])
    q.do("end-day", at="2/23:00", no_water=["a"])
    cond = q.ch("a").condition("exhausted")
    assert cond is not None and cond.source == "2 days without water"  # I-COND-04, A-I-08
    gained = [e for e in q.events if e.kind == "condition.gained" and e.payload.get("why_ru")]
    assert any(e.payload["why_ru"] == "2 суток без воды" for e in gained)  # I-COND-04


def test_an_hour_at_one_calm_point_is_no_zero_and_costs_no_health(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["monster"])
    assert q.sv("a").calm == 1  # I-CALM-02: at most two points a turn
    assert q.sv("a").replacements == 0 and q.sv("a").zero_since is None  # I-CALM-25: not at 0
    q.to("10:00")
    assert not q.has("a", "health_penalty")  # I-CALM-30: only at 0 points


def test_the_morning_says_whether_the_day_before_was_ended() -> None:
    g = Ide(params={"meal_mode": "quick"})
    g.add("a")
    evs = g.do("morning")
    assert next(e for e in evs if e.kind == "day.started").payload["previous_ended"]  # I-DAY-01
    evs = g.do("morning", at="2/06:00")
    assert not next(e for e in evs if e.kind == "day.started").payload["previous_ended"]
    g.do("end-day", at="2/23:00")
    evs = g.do("morning", at="3/06:00")
    assert next(e for e in evs if e.kind == "day.started").payload["previous_ended"]  # I-DAY-02


def test_falling_ill_from_stage_1_to_2_takes_no_second_reroll(g: Ide) -> None:
    g.do("eat-meal", at="07:30", characters=["a"])
    make_sick(g, "a", "basic", at="08:00")
    assert not meal_rerolls(g, "a")  # I-DIS-06: stage 1 took the meal reroll
    g.do("eat-meal", at="19:30", characters=["a"])
    assert len(meal_rerolls(g, "a")) == 1  # I-MEAL-08: dinner gives a new one
    g.do("end-day", at="23:00")
    g.do("resolve-check", at="23:01", check=g.last_check("a").id, outcome="failure")
    assert stage_of(g, "a") == 2  # A-I-17
    assert len(meal_rerolls(g, "a")) == 1  # I-DIS-06: the loss is on entering stage 1 only


def test_exhaustion_ends_after_eight_hours_of_normal_sleep_not_seven(g: Ide) -> None:
    g.to("2/07:00")  # breakfast, lunch and dinner of day 1 skipped
    assert g.has("a", "exhausted") and g.has("b", "exhausted")  # I-COND-04
    g.do("end-day", at="2/07:05")
    g.do("morning", at="2/07:10")
    for hhmm in ("2/07:30", "2/13:30", "2/19:30"):
        g.do("eat-meal", at=hhmm)
    for cid, hours in (("a", 8), ("b", 7)):
        g.do("make-camp", at="2/21:00", characters=[cid], camp="normal")
        g.do("plan-sleep", at="2/21:00", characters=[cid], rolled=[7, 8, 2])
        g.do("go-to-sleep", at="2/21:00", characters=[cid], hours=hours)
    g.to("3/08:00")
    g.do("end-day", at="3/08:00")
    assert not g.has("a", "exhausted")  # I-COND-04, I-SLEEP-08: food, water and 8 h of sleep
    assert g.has("b", "exhausted")  # I-COND-04: 7 h is not a normal night


def test_a_campaign_without_the_loaded_fatigue_shift_adds_no_tiring_to_the_march() -> None:
    g = Ide(params={"meal_mode": "quick", "loaded_fatigue_check_shift": 0})
    g.add("a")
    g.do("morning")
    g.do("set-load", at="07:00", characters=["a"], load="loaded")
    evs = g.do("end-march", at="18:00", characters=["a"], pace="fast", outcome="success")
    check = g.last_check("a")
    assert check.difficulty == check.base == 2  # I-LOAD-04: shift 0, nothing added
    assert not [e for e in evs if "I-LOAD-04" in e.rule_ids]  # I-LOAD-04 is not cited


def test_dehydration_ends_saying_the_water_and_the_hours_of_rest(q: Ide) -> None:
    q.do("end-day", at="23:00", no_water=["a"])
    assert q.has("a", "dehydrated")  # I-COND-03
    q.do("drink", at="2/08:00", characters=["a"], drinks=[{"kind": "clean_water", "ml": 500}])
    q.do("rest", at="2/08:00", characters=["a"], hours=1.5)
    assert not q.has("a", "dehydrated")  # I-COND-03: 500 ml of clean water and an hour's rest
    gone = next(
        e.payload
        for e in q.events
        if e.kind == "condition.removed" and e.payload["kind"] == "dehydrated"
    )
    assert gone["why_en"] == "500 ml of clean water and 1.5 h of rest"  # I-COND-03
    assert gone["why_ru"] == "500 мл чистой воды и 1.5 ч отдыха"


def test_malaise_takes_todays_pacified_reroll_even_if_yesterdays_was_used(q: Ide) -> None:
    q.do("d100-check", at="09:00", character="a", skill="Attention", outcome="failure")
    q.do("use-reroll", at="09:01", character="a", kind="pacified", outcome="success")
    make_sick(q, "a", "basic", at="2/08:00")  # no meal reroll held (quick food mode)
    used = q.sv("a").pacified_used
    assert used is not None and used.date() == when("2/08:00").date()  # I-DIS-06, A-I-23
    q.do("d100-check", at="2/09:00", character="a", skill="Attention", outcome="failure")
    with pytest.raises(RuleViolation) as err:
        q.do("use-reroll", at="2/09:01", character="a", kind="pacified", outcome="success")
    assert "I-CALM-18" in err.value.rule_ids  # I-DIS-06: the malaise took it


def test_poison_points_decay_to_a_diseases_permanent_floor_and_then_stop() -> None:
    g = Ide(params={"mode": "extended", "meal_mode": "quick"})
    g.add("a")
    g.do("morning")
    make_sick(g, "a", "crimson_consumption")  # 2 poison units for good (I-CAT-01, A-I-20)
    d = day_of(g)
    g.do("poison-risk", at=f"{d}/12:00", characters=["a"], source="alchemical", difficulty=2,
         outcome="failure", points=4)  # fmt: skip
    g.to(f"{d}/16:00")
    assert g.sv("a").poison_points == 2  # I-POIS-07: −1 per 2 game hours, 4 → 2
    changes = len([e for e in g.events if e.kind == "poison.points_changed"])
    g.to(f"{d + 1}/20:00")
    assert g.sv("a").poison_points == 2 and g.has("a", "poisoned")  # I-CAT-01: the floor
    assert len([e for e in g.events if e.kind == "poison.points_changed"]) == changes  # no ticks


def test_quiet_hours_count_a_check_at_their_end_but_not_one_at_their_start(q: Ide) -> None:
    for cid in ("a", "b"):
        q.do("calm-event", at="07:00", characters=[cid], events=["monster"])
    assert q.sv("a").calm == q.sv("b").calm == 1
    q.do("d100-check", at="08:00", character="a", skill="Attention", outcome="success")
    q.do("d100-check", at="11:00", character="b", skill="Attention", outcome="success")
    q.do("rest", at="11:00", characters=["a"], hours=3, quiet=True)
    assert q.sv("a").calm == 2  # I-CALM-15: 08:00–11:00 had no check after 08:00
    with pytest.raises(RuleViolation) as err:
        q.do("rest", at="11:00", characters=["b"], hours=3, quiet=True)
    assert "I-CALM-15" in err.value.rule_ids  # I-CALM-15: the check at 11:00 was within them
    assert q.sv("b").calm == 1


def test_a_tired_character_falling_ill_stays_tired_from_the_march(q: Ide) -> None:
    make_sick(q, "a", "basic", at="08:00")
    q.do("end-march", at="18:00", characters=["a"], pace="fast", outcome="success")
    tired = q.ch("a").condition("tired")
    assert tired is not None  # I-TRAVEL-05: a fast pace tires
    q.do("end-day", at="23:00")
    q.do("resolve-check", at="23:01", check=q.last_check("a").id, outcome="failure")
    assert stage_of(q, "a") == 2  # I-DIS-07: fatigue, which she already has
    again = q.ch("a").condition("tired")
    assert again is not None and again.started == tired.started  # A-I-30: nothing changes
    assert not [
        e for e in q.events if e.kind == "condition.removed" and e.payload["kind"] == "tired"
    ]


def test_a_players_view_of_a_card_leaves_out_only_that_characters_unknown_cases(q: Ide) -> None:
    from lazaretto.core.ruleset import Role
    from lazaretto.core.visibility import Viewer, view_for

    make_sick(q, "b", "basic")
    q.do("expose", characters=["a"], disease="iron_fever", difficulty=2, outcome="failure")
    incubating = next(c for c in q.st.cases.values() if c.character == "a")
    assert incubating.status == "incubating"  # I-IMM-01: the GM's alone for now
    view = view_for(q.rs, q.st, "a", Viewer(Role.PLAYER, frozenset({"a"})))
    shown = view.cases  # type: ignore[attr-defined]
    assert incubating.id not in shown  # I-IMM-01: not shown until she falls sick
    assert {c.character for c in shown.values()} == {"b"}  # another's case is not this card's


# --- survivors of the seed-21 code sample (issue 19) -----------------------------------------


def _calm_loss(g: Ide) -> Any:
    g.do("calm-event", at="08:00", characters=["a"], turn="t1",
         events=["fight_breaks_out", "outnumbered", "ambush"])  # fmt: skip
    return next(e for e in reversed(g.events) if e.kind == "calm.changed").payload


def test_calm_lost_over_the_cap_is_reported_discarded_or_carried_as_the_campaign_says() -> None:
    g = Ide(params={"meal_mode": "quick"})
    g.add("a")
    ev = _calm_loss(g)  # 4 points in one turn, 2 count (I-CALM-02)
    assert (ev["after"], ev["discarded"], ev["carried"]) == (1, 2, 0)  # A-I-13: discarded
    c = Ide(params={"meal_mode": "quick", "calm_loss_overflow": "carry_over"})
    c.add("a")
    ev = _calm_loss(c)
    assert (ev["after"], ev["discarded"], ev["carried"]) == (1, 0, 2)  # A-I-13 alternative


def test_stress_follows_calm_from_1_down_to_0(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["fight_breaks_out"], turn="t1")
    q.do("calm-event", at="08:01", characters=["a"], events=["outnumbered"], turn="t2")
    stressed = q.ch("a").condition("stressed")
    assert q.sv("a").calm == 1 and stressed is not None and stressed.data["calm"] == 1
    q.do("calm-event", at="08:02", characters=["a"], events=["outnumbered"], turn="t3")
    stressed = q.ch("a").condition("stressed")
    assert q.sv("a").calm == 0 and stressed is not None
    assert stressed.data["calm"] == 0  # I-COND-10: «В стрессе» at 0–1, the card says 0 now


def test_removing_a_stage_at_stage_1_cures(q: Ide) -> None:
    make_sick(q, "a", "basic")
    assert stage_of(q, "a") == 1
    q.do("treat-disease", at="08:00", character="a", disease="basic", effect="lower_stage")
    assert stage_of(q, "a") == 0 and not q.has("a", "sick")  # I-DIS-05: the last stage removed


def test_a_poor_meal_in_a_later_window_burns_the_rerolls_when_the_next_meal_is_the_expiry() -> None:
    n = Ide(params={"meal_reroll_expiry": "next_meal_completed"})
    n.add("a")
    n.do("morning")
    n.do("eat-meal", at="13:00")  # lunch at its first minute: a reroll gained at 13:00
    assert len(meal_rerolls(n, "a")) == 1
    n.do("eat-meal", at="13:30", food_units=100)  # too little food, the same window
    assert len(meal_rerolls(n, "a")) == 1  # I-MEAL-03: not a next meal, nothing burns
    n.do("eat-meal", at="19:30", food_units=100)  # too little, but in the next window
    assert meal_rerolls(n, "a") == []  # I-MEAL-11, A-I-04: the next meal burns it


def test_the_day_marks_a_meal_done_open_or_missed_at_the_windows_end(g: Ide) -> None:
    def mark(step: str) -> str:
        steps = g.ask("day")["steps"].split(" | ")
        return next(s for s in steps if step in s)[0]

    g.do("eat-meal", at="07:30", characters=["a"])  # Boris skips breakfast
    g.to("12:59")
    assert mark("breakfast") == "·"  # I-DAY-03: still open
    g.to("13:00")
    assert mark("breakfast") == "✗"  # the window closed at 13:00 with a skip
    g.do("eat-meal", at="13:30")
    assert mark("lunch") == "✓"  # I-DAY-05: everyone ate normally


@pytest.mark.parametrize(("restricted_from", "refused"), [(20, True), (21, False)])
def test_adrenaline_d20_is_a_big_die_when_the_restriction_starts_at_d20(
    restricted_from: int, refused: bool
) -> None:
    g = Ide(params={"meal_mode": "quick", "energy_die_restricted_from": restricted_from})
    g.add("a")
    g.do("morning")
    g.do("calm-event", at="08:00", characters=["a"], events=["monster"])  # calm 1, 2 d20
    g.do("d100-check", at="08:01", character="a", skill="Attention", outcome="failure")
    if refused:
        with pytest.raises(RuleViolation) as err:
            g.do("spend-energy", at="08:02", character="a", adrenaline=1, outcome="success")
        assert "I-CALM-23" in err.value.rule_ids  # I-CALM-23: a d20 is "d20 and higher"
    else:
        g.do("spend-energy", at="08:02", character="a", adrenaline=1, outcome="success")
        assert g.last_check("a").outcome == "success"  # below the campaign's d21


# --- survivors of the fresh seed-33 code sample (issue 19) -----------------------------------


def test_leaving_zero_calm_takes_the_tragedy_replacements_away(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["monster"], turn="t1")
    q.do("calm-event", at="08:01", characters=["a"], events=["monster"], turn="t2")
    assert q.sv("a").calm == 0 and q.sv("a").replacements >= 2  # I-CALM-25: 1 + d4
    q.do("calm-recover", at="08:10", characters=["a"], reason="medicine", points=1)
    assert q.sv("a").calm == 1 and q.sv("a").replacements == 0  # I-CALM-25: at 0 points only
    assert q.sv("a").zero_since is None


def test_one_day_without_sleep_counts_one_day_of_deprivation() -> None:
    g = Ide(params={"meal_mode": "quick", "sleep_deprivation_stacks": True})
    g.add("a")
    g.do("end-day", at="23:00")
    assert g.sv("a").deprived_days == 1 and g.card("a")["energy_limit"] == 2  # I-SLEEP-12
    g.do("end-day", at="2/23:00")
    assert g.sv("a").deprived_days == 2 and g.card("a")["energy_limit"] == 1  # A-I-10 stacks


def test_the_day_reminder_names_only_the_marks_a_character_has(q: Ide) -> None:
    q.do("end-march", at="07:00", characters=["a"], pace="forced")  # very tired
    q.do("end-day", at="23:00")
    evs = q.do("morning", at="2/06:00")
    reminder = next(e for e in evs if e.kind == "day.reminder").payload
    anna = next(part for part in reminder["text_en"].split("; ") if part.startswith("Anna"))
    assert "-" not in anna.split(": ", 1)[1].split(", ")  # I-DAY-02: no empty marks listed
    assert "very tired" in anna.lower()


def test_the_pacified_reroll_is_due_once_a_day_at_3_calm(q: Ide) -> None:
    def due() -> str:
        return str(q.ask("day", character="a"))

    assert "pacified reroll available" in due()  # I-CALM-18: at 3 points
    q.do("d100-check", at="08:00", character="a", skill="Attention", outcome="failure")
    q.do("use-reroll", at="08:01", character="a", kind="pacified", outcome="success")
    assert "pacified reroll available" not in due()  # I-CALM-18: once per game day
    q.to("2/00:01")
    assert "pacified reroll available" in due()  # refreshed at 0:00


def test_recovery_counts_travelling_on_the_day_of_a_march_only(q: Ide) -> None:
    q.do("end-march", at="07:00", characters=["a"], pace="normal")
    assert "still travelling" in q.ask("recovery", character="a")["worse"]  # I-REC-03
    q.do("end-day", at="23:00")
    q.do("morning", at="2/06:00")
    assert "still travelling" not in q.ask("recovery", character="a")["worse"]


# --- survivors of the fresh seed-47 code sample (issue 19) -----------------------------------


def test_recovering_calm_at_full_calm_leaves_no_trace(q: Ide) -> None:
    evs = q.do("calm-recover", at="08:00", characters=["a"], reason="medicine", points=1)
    assert q.sv("a").calm == 3 and "calm.changed" not in q.kinds(evs)  # I-CALM-03: max 3


def test_the_first_check_of_a_campaign_is_k1(q: Ide) -> None:
    q.do("d100-check", at="08:00", character="a", skill="Attention", outcome="success")
    assert [k.id for k in q.checks()] == ["k1"]  # the GM types k1 to resolve or reroll it


def test_the_pregnancy_check_names_the_other_partner(q: Ide) -> None:
    q.do("survival-sheet", character="b", sex="female")
    evs = q.do("intimate-act", at="22:00", character="a", partner="b")
    checked = [e.payload for e in evs if e.kind == "pregnancy.checked"]
    assert checked == [{"character": "b", "partner": "a"}]  # I-HOT-09
    evs = q.do("intimate-act", at="2/22:00", character="b", partner="a")
    checked = [e.payload for e in evs if e.kind == "pregnancy.checked"]
    assert checked == [{"character": "b", "partner": "a"}]


def test_the_dice_a_player_picks_from_read_as_a_list() -> None:
    from lazaretto.rulesets.ide4_survival.queries import _one_of

    assert _one_of([4], "en") == "4"
    assert _one_of([4, 3], "en") == "4 or 3"
    assert _one_of([4, 3, 4], "ru") == "4, 3 или 4"


def test_the_run_through_counts_normal_and_skipped_meals(g: Ide) -> None:
    g.do("eat-meal", at="07:30")
    g.do("eat-meal", at="13:30", characters=["a"])  # Boris skips lunch
    g.to("19:00")
    meals = g.ask("run-through")["meals"]
    assert meals == "3 normal, 1 skipped meals recorded"  # I-GEN-13


def test_a_full_camp_after_a_fast_march_breaks_the_run_of_fast_days(q: Ide) -> None:
    q.do("end-march", at="18:00", characters=["a", "b"], pace="fast")
    for cid in ("a", "b"):
        q.do("plan-sleep", at="21:00", characters=[cid], rolled=[8, 8, 8])
    q.do("go-to-sleep", at="21:00", characters=["a"], hours=8, camp="normal")  # no make-camp
    q.do("go-to-sleep", at="21:00", characters=["b"], hours=8, camp="bad")
    q.do("end-day", at="23:00")
    q.do("morning", at="2/06:00")
    q.do("end-march", at="2/18:00", characters=["a", "b"], pace="fast")
    assert not q.has("a", "very_tired")  # I-TRAVEL-07: the first day had a full camp
    assert q.has("b", "very_tired")  # I-TRAVEL-07: two fast days without a full camp


def test_energy_that_turns_the_daily_immunity_check_reapplies_its_result(q: Ide) -> None:
    make_sick(q, "a", "basic")
    q.do("end-day", at="23:00")
    rec = q.last_check("a")
    q.do("resolve-check", at="23:01", check=rec.id, outcome="failure")
    assert stage_of(q, "a") == 2  # A-I-17: failure +1
    q.do("spend-energy", at="23:02", character="a", dice=1, die=6, outcome="medium")
    assert stage_of(q, "a") == 1  # A-I-03: medium now, so the stage is as before


def test_in_quick_food_mode_a_day_marked_ate_is_the_food_that_ends_exhaustion() -> None:
    g = Ide(params={"meal_mode": "quick"})
    g.add("a")
    g.add("b")
    g.do("morning")
    for d in (1, 2):
        if d > 1:
            g.do("morning", at=f"{d}/06:00")
        g.do("mark-food-day", at=f"{d}/20:00", mark="starved")
        g.do("end-day", at=f"{d}/23:00")
    assert g.has("a", "exhausted") and g.has("b", "exhausted")  # I-COND-04: 2 days
    g.do("morning", at="3/06:00")
    g.do("mark-food-day", at="3/20:00", characters=["a"], mark="ate")
    g.do("mark-food-day", at="3/20:00", characters=["b"], mark="skipped")
    g.do("make-camp", at="3/21:00", camp="normal")
    for cid in ("a", "b"):
        g.do("plan-sleep", at="3/21:00", characters=[cid], rolled=[9, 9, 9])
        g.do("go-to-sleep", at="3/21:00", characters=[cid], hours=9)
    g.to("4/08:00")
    g.do("end-day", at="4/08:00")
    assert not g.has("a", "exhausted")  # I-COND-04: a day of food, water and sleep
    assert g.has("b", "exhausted")  # no food that day


def test_cauterising_the_veins_moves_black_torpors_death_a_day_later(q: Ide) -> None:
    case = make_sick(q, "a", "black_torpor")
    assert case.death_at is not None and case.sick_since is not None
    before = case.death_at
    q.do_at(case.sick_since, "treat-disease", character="a", disease="black_torpor",
            treatment="I-CURE-22")  # fmt: skip
    after = q.st.cases[case.id].death_at
    assert after == before + timedelta(days=1)  # I-CURE-22: +1 day
    q.to_time(before)
    assert q.ch("a").alive  # the old countdown was stopped
    q.to_time(after)
    assert not q.ch("a").alive  # I-CAT-06: death, a day later


def test_the_roll_given_for_a_hot_night_is_the_actors_immunity_roll() -> None:
    g = Ide(params={"meal_mode": "quick", "check_resolver": "band_table"})
    g.add("a")
    g.add("b")
    g.do("morning")
    g.do("expose", at="08:00", characters=["a"], disease="blood_flower", difficulty=2,
         outcome="failure")  # fmt: skip
    g.do("intimate-act", at="22:00", character="b", partner="a", roll=3)
    rec = g.last_check("b")
    assert (rec.skill, rec.roll) == ("Immunity", 3)  # I-HOT-10: the roll the player gave


# --- survivors of the fresh seed-59 code sample (issue 19) -----------------------------------


def test_quiet_rest_counts_its_minutes_towards_the_next_calm_point(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["fight_breaks_out"], turn="t1")
    before = q.sv("a").calm
    q.do("rest", at="10:00", characters=["a"], hours=1, quiet=True)
    assert q.sv("a").quiet_minutes == 60 and q.sv("a").calm == before  # I-CALM-15: 1 h of 2


def test_calm_2_still_counts_as_no_active_stress_for_recovery(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["fight_breaks_out"], turn="t1")
    assert q.sv("a").calm == 2
    assert "no active stress" in q.ask("recovery", character="a")["better"]  # I-REC-02
    q.do("calm-event", at="08:01", characters=["a"], events=["outnumbered"], turn="t2")
    assert q.sv("a").calm == 1
    assert "no active stress" not in q.ask("recovery", character="a")["better"]


def test_what_is_due_lists_a_characters_own_exposures_only(q: Ide) -> None:
    q.do("start-exposure", at="08:00", characters=["a"], kind="wet", disease="basic")
    due = q.ask("day")
    assert "wet: next Immunity check 08:10" in due["a (Anna)"]  # I-IMM-05: every 10 minutes
    assert "wet" not in due["b (Boris)"]  # Anna's exposure only


def test_with_fatigue_on_worsening_a_worsening_that_changes_no_stage_tires_no_one() -> None:
    g = Ide(params={"meal_mode": "quick", "disease_fatigue_on_worsening": True})
    g.add("a")
    g.do("morning")
    make_sick(g, "a", "putrid_throat")
    d = day_of(g)
    for n, outcome in ((d, "tragedy"), (d + 1, "failure")):
        g.do("end-day", at=f"{n}/23:00")
        g.do("resolve-check", at=f"{n}/23:01", check=g.last_check("a").id, outcome=outcome)
    assert stage_of(g, "a", "putrid_throat") == 4
    g.do("rest", at=f"{d + 2}/07:00", characters=["a"], hours=1)
    assert not g.has("a", "tired")
    g.do("treat-disease", at=f"{d + 2}/08:00", character="a", disease="putrid_throat",
         treatment="I-CURE-12")  # fmt: skip
    assert stage_of(g, "a", "putrid_throat") == 4 and not g.has("a", "tired")  # still stage 4


# --- survivors of the fresh seed-71 code sample (issue 19) -----------------------------------


def test_a_hot_night_with_a_sick_npc_calls_for_an_immunity_check(q: Ide) -> None:
    q.do("intimate-act", at="22:00", character="a", partner="npc", partner_sick=True, roll=40)
    rec = q.last_check("a")
    assert (rec.skill, rec.payload.get("venereal")) == ("Immunity", "npc")  # I-HOT-10
    before = len(q.checks("b"))
    q.do("intimate-act", at="23:00", character="b", partner="npc2")  # a healthy NPC
    assert len(q.checks("b")) == before


def test_a_rerolled_infection_check_takes_back_its_own_death_countdown(q: Ide) -> None:
    q.do("intimate-act", at="08:00", character="a", partner="npc")  # a hot reroll to spend
    case = make_sick(q, "a", "widows_kiss", at="08:10")
    assert case.death_at is not None  # I-CAT-07: death after 1d4 days
    rec = q.last_check("a")
    q.do("use-reroll", at="08:20", character="a", kind="hot", check=rec.id, outcome="success")
    assert not q.has("a", "sick")  # A-I-01: the consequence taken back, the new one applied
    assert not [t for t in q.st.timers.values() if t.kind == "disease_death"]
    q.to_time(case.death_at)
    assert q.ch("a").alive


def test_what_is_due_names_the_tragedy_replacements_only_at_zero_calm(q: Ide) -> None:
    assert "Tragedy replacement" not in q.ask("day")["a (Anna)"]
    q.do("calm-event", at="08:00", characters=["a"], events=["monster"], turn="t1")
    q.do("calm-event", at="08:01", characters=["a"], events=["monster"], turn="t2")
    left = q.sv("a").replacements
    assert f"0 calm: {left} Tragedy replacement(s)" in q.ask("day")["a (Anna)"]  # I-CALM-25


def test_a_tragedy_replacement_tells_how_many_are_left(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["monster"], turn="t1")
    q.do("calm-event", at="08:01", characters=["a"], events=["monster"], turn="t2")
    left = q.sv("a").replacements
    q.do("d100-check", at="08:02", character="a", skill="Melee", outcome="tragedy")
    evs = q.do("replace-tragedy", at="08:03", character="a")
    used = next(e for e in evs if e.kind == "tragedy.replacement_used")
    assert used.payload["left"] == left - 1 == q.sv("a").replacements  # I-CALM-25
