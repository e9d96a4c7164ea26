"""The game day procedure, the combat stamina pool, modes and time (checklist-004 §2.1–2.2)."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import InvalidInput, RuleViolation
from lazaretto.rulesets.ide4_survival.params import IdeParams
from lazaretto.rulesets.ide4_survival.tables import catalogue
from tests.unit.ide4_survival.conftest import Ide, when


def test_the_day_procedure_runs_when_hours_and_days_pass(g: Ide) -> None:
    assert g.st.day == 1 and g.st.day_started == when("06:00")  # I-DAY-01
    g.do("end-day", at="23:00")
    g.do("morning", at="2/06:00")
    assert g.st.day == 2 and g.st.day_steps == ["morning"]  # I-DAY-01


def test_morning_marks_hunger_thirst_sleep_fatigue_disease(g: Ide) -> None:
    g.to("13:00")  # breakfast skipped
    g.do("end-fight", at="13:10", characters=["a"], heavy=True)
    g.do("expose", at="13:20", characters=["b"], disease="basic", outcome="failure")
    g.do("end-day", at="23:00", no_water=["a"])
    evs = g.do("morning", at="2/06:00")
    marks = next(e for e in evs if e.kind == "day.reminder").payload["marks"]
    assert marks["a"] == {
        "hunger": "hungry",
        "thirst": "dehydrated",
        "sleep": "sleep_deprived",
        "fatigue": "exhausted",
        "disease": "-",
    }  # I-DAY-02
    assert marks["b"]["disease"] == "basic:1"  # I-DAY-02


def test_breakfast_from_seven_is_the_reroll_due_and_is_there_food(g: Ide) -> None:
    g.to("07:05")
    assert "breakfast not eaten yet" in g.ask("day")["a (Anna)"]  # I-DAY-03
    g.do("eat-meal", at="07:30", characters=["a"])
    assert "1 meal reroll(s) → 13:00" in g.ask("day")["a (Anna)"]  # I-DAY-03


def test_the_day_scenes_march_combat_with_the_stamina_pool_apart(g: Ide) -> None:
    g.do("start-march", at="08:00", pace="normal")
    g.do("start-fight", at="10:00", characters=["a"], tokens=7)
    assert g.sv("a").stamina == 7 and g.sv("a").calm == 2  # I-DAY-04: kept separately
    assert "march" in g.st.day_steps  # I-DAY-04


def test_lunch_from_thirteen_and_water(g: Ide) -> None:
    g.to("13:05")
    assert "lunch not eaten yet" in g.ask("day")["a (Anna)"]  # I-DAY-05
    g.do("eat-meal", at="13:30", characters=["a"], liquid_ml=400)
    assert not [r for r in g.sv("a").rerolls if r.kind == "meal"]  # I-DAY-05: water counts


def test_dinner_from_nineteen(g: Ide) -> None:
    g.to("19:05")
    assert "dinner not eaten yet (window until 07:00)" in g.ask("day")["a (Anna)"]  # I-DAY-06
    g.do("eat-meal", at="19:30", characters=["a"])
    assert g.sv("a").rerolls[-1].expires == when("2/07:00")  # I-DAY-06


def test_camp_weather_damp_and_stress_change_calm(g: Ide) -> None:
    g.do("make-camp", at="20:00", camp="normal", damp=True, weather="rain", events=["oppressive"])
    assert g.sv("a").camp == "bad" and g.sv("a").calm == 2  # I-DAY-07
    assert "camp" in g.st.day_steps  # I-DAY-07


def test_sleep_3d10_hours_then_the_states_go(g: Ide) -> None:
    g.do("end-fight", at="19:00", characters=["a"], heavy=True)
    g.do("make-camp", at="20:00", characters=["a"], camp="normal")
    g.do("plan-sleep", at="21:00", characters=["a"], rolled=[3, 9, 5])
    g.do("go-to-sleep", at="21:00", characters=["a"], hours=9)
    g.to("2/06:00")
    assert not g.has("a", "tired") and g.sv("a").last_sleep.hours == 9  # type: ignore[union-attr]  # I-DAY-08


def test_the_end_of_the_day_disease_recovery_experience(g: Ide) -> None:
    g.do("expose", at="08:00", characters=["b"], disease="basic", outcome="failure")
    g.do("gain-xp", at="09:00", characters=["a"], points=4)
    g.do("make-camp", at="20:00", characters=["a"], camp="normal")
    g.do("plan-sleep", at="21:00", characters=["a"], rolled=[8, 8, 8])
    g.do("go-to-sleep", at="21:00", characters=["a"], hours=8)
    evs = g.do("end-day", at="2/06:00")
    assert any(e.kind == "check.pending" and e.payload["character"] == "b" for e in evs)  # I-DAY-09
    notes = {e.payload["character"]: e.payload for e in evs if e.kind == "recovery.noted"}
    assert set(notes) == {"a", "b"} and notes["a"]["xp_banked"] == 4  # I-DAY-09
    assert "disease_active" in notes["b"]["worse"]  # I-DAY-09


def test_what_is_due_reads_as_words_a_check_by_its_skill_and_the_sleep_dice_joined(
    g: Ide,
) -> None:
    """I-DAY-01 (the day query), A-I-01 (a check waiting for the GM's outcome), I-SLEEP-02
    (three dice, the player picks one): no ids, no Python lists, in both languages."""
    g.do("eat-meal", at="07:30")  # breakfast: a meal reroll each (I-MEAL-03)
    g.do("d100-check", at="08:00", character="a", skill="Attention", difficulty=2)
    en, ru = g.ask("day")["a (Anna)"], g.ask("day", lang="ru")["a (Anna)"]
    check = g.last_check("a")
    assert "Anna's Attention check [2] awaits its outcome (resolve-check)" in en
    assert "Anna: проверка «Внимательность» [2] ждёт исхода" in ru
    assert check.id not in en + ru  # A-I-01: named by its character and skill, not its id
    assert "1 meal reroll(s) → 13:00" in en and "перебросов (еда): 1 → 13:00" in ru
    g.do("make-camp", at="20:00", characters=["b"], camp="normal")
    g.do("plan-sleep", at="21:00", characters=["b"], rolled=[4, 3, 4])
    en, ru = g.ask("day")["b (Boris)"], g.ask("day", lang="ru")["b (Boris)"]
    assert "pick the hours of sleep: 4, 3 or 4 (go-to-sleep)" in en  # I-SLEEP-02
    assert "выбрать часы сна: 4, 3 или 4 (go-to-sleep)" in ru  # I-SLEEP-02
    assert "[4, 3, 4]" not in en + ru


def test_the_combat_stamina_pool(q: Ide) -> None:
    with pytest.raises(RuleViolation) as err:
        q.do("start-fight", at="10:00", characters=["a"], tokens=9)
    assert "I-DAY-10" in err.value.rule_ids  # I-DAY-10: 6–8 tokens
    q.do("start-fight", at="10:00", tokens=6)
    q.do("spend-stamina", at="10:01", character="a", move="attack", times=2)
    q.do("spend-stamina", at="10:02", character="a", move="plate_stance")
    assert q.sv("a").stamina == 3  # I-DAY-10: attack 1, plate stance 1
    with pytest.raises(RuleViolation):
        q.do("spend-stamina", at="10:03", character="a", move="attack", times=4)
    q.do("end-fight", at="10:10")
    assert q.sv("a").stamina is None  # I-DAY-10: reset after the fight


def test_hunger_march_and_sleep_loss_are_not_taken_from_the_stamina_pool(q: Ide) -> None:
    q.do("mark-food-day", at="08:00", characters=["a"], mark="skipped")
    q.do("end-march", at="09:00", characters=["a"], pace="forced")
    q.do("start-fight", at="10:00", characters=["a"], tokens=8)
    assert q.sv("a").stamina == 8  # I-DAY-11: hungry and very tired, the pool is whole
    q.do(
        "d100-check",
        at="10:01",
        character="a",
        skill="Athletics",
        tags=["long_physical"],
        outcome="success",
    )
    assert {s.source for s in q.last_check("a").shifts} == {"hungry", "very_tired"}  # I-DAY-11


def test_the_extended_trek_checklist() -> None:
    g = Ide(params={"mode": "extended"})
    g.add("a")
    g.do("morning")
    trek = g.ask("day")["trek"].split(" | ")
    assert len(trek) == 8 and trek[0].startswith("morning states")  # I-DAY-12
    assert trek[6].startswith("sleep 3d10") and "HP" in trek[7]  # I-DAY-12
    assert "trek" not in Ide().ask("day")  # I-DAY-12: only when survival is the centre


def test_survival_covers_everything_but_the_sword_blow(q: Ide) -> None:
    areas = {
        "hunger": "eat-meal",
        "thirst": "drink",
        "fatigue": "end-march",
        "sleep": "go-to-sleep",
        "cold and heat": "start-exposure",
        "poisoning": "poison-risk",
        "diseases": "expose",
        "stress": "calm-event",
        "journeys": "quick-travel",
        "recovery": "rest",
    }
    assert set(areas.values()) <= set(q.rs.actions)  # I-GEN-01
    assert "recovery" in q.rs.queries  # I-GEN-01


def test_states_shift_checks_through_the_character_state_group(q: Ide) -> None:
    assert q.rs.params.state_group == "character_state"  # type: ignore[attr-defined]  # I-GEN-02
    q.do("mark-food-day", at="08:00", characters=["a"], mark="skipped")
    q.do(
        "d100-check",
        at="08:10",
        character="a",
        skill="Athletics",
        tags=["long_physical"],
        outcome="success",
    )
    assert "I-GEN-02" in q.last_check("a").shifts[0].rules  # I-GEN-02


def test_the_classic_mechanics_are_the_core_not_a_module(g: Ide) -> None:
    g.do("eat-meal", at="07:30", characters=["a"])
    assert g.sv("a").rerolls and g.sv("a").calm == 3  # I-GEN-03: meal rerolls, calm points
    assert g.rs.params.sleep_plan_dice == "3d10"  # type: ignore[attr-defined]  # I-GEN-03
    assert len([d for d in catalogue().diseases.values() if d.canonical]) == 8  # I-GEN-03
    toggles = [f for f in IdeParams.model_fields if f.endswith("_enabled")]
    assert toggles == []  # I-GEN-03: nothing to switch them off


def test_the_simplified_mode_only_when_announced_in_advance(q: Ide) -> None:
    with pytest.raises(RuleViolation) as err:
        q.do("set-stress", character="a", level="tense")
    assert "I-GEN-04" in err.value.rule_ids  # I-GEN-04
    light = Ide(params={"mode": "simplified"})
    light.add("a")
    light.do("mark-food-day", at="20:00", mark="ate")
    assert light.has("a", "fed")  # I-GEN-04: announced at the campaign's creation
    with pytest.raises(InvalidInput):
        light.rs.campaign_params({"mode": "light"})


def test_game_hours_and_days_are_time_inside_the_world(q: Ide) -> None:
    q.do("make-camp", at="22:00", characters=["a"], camp="normal")
    q.do("plan-sleep", at="22:00", characters=["a"], rolled=[8, 8, 8])
    q.do("go-to-sleep", at="22:00", characters=["a"], hours=8)
    wake = next(t for t in q.st.timers.values() if t.kind == "sleep_ends")
    assert wake.deadline == when("2/06:00")  # I-GEN-05: 8 game hours on the campaign clock
    assert q.sv("a").asleep  # I-GEN-05: no real time passes on a manual clock


def test_the_time_units_scene_turn_hour_day_week(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["ill_wishers"], scene="market")
    q.do("calm-event", at="08:30", characters=["a"], events=["ill_wishers"], scene="market")
    assert q.sv("a").calm == 2  # I-GEN-06: scene
    q.do("calm-event", at="09:00", characters=["b"], events=["monster", "ambush"], turn="r1")
    assert q.sv("b").calm == 1  # I-GEN-06: turn
    q.do("rest", at="12:00", characters=["a"], hours=3, quiet=True)
    assert q.sv("a").calm == 3  # I-GEN-06: hour
    q.do("end-day", at="23:00")
    assert q.st.day_ended  # I-GEN-06: day
    assert catalogue().diseases["widows_kiss"].death_unit == "weeks"  # I-GEN-06: week


def test_minutes_are_counted_only_where_they_change_decisions(g: Ide) -> None:
    g.do("eat-meal", at="07:30")  # a meal has no duration to count
    assert "minutes" not in g.rs.actions["eat-meal"].input.model_fields  # I-GEN-07
    assert g.rs.params.immunity_intervals_min["wet"] == 10  # type: ignore[attr-defined]  # I-GEN-07


def test_the_basic_mode_by_default(q: Ide) -> None:
    p = q.rs.params
    assert p.mode == "basic" and p.calm_points_max == 3  # type: ignore[attr-defined]  # I-GEN-08
    assert p.meal_windows == ["07:00", "13:00", "19:00"]  # type: ignore[attr-defined]  # I-GEN-08
    assert p.sleep_plan_dice == "3d10"  # type: ignore[attr-defined]  # I-GEN-08


def test_the_basic_game_counts_no_grams_or_millilitres(g: Ide) -> None:
    g.do("eat-meal", at="07:30")
    g.do("end-day", at="23:00")
    assert not g.has("a", "dehydrated")  # I-GEN-09: water is not counted in the basic game
    assert g.rs.params.resolved("water") == "off"  # type: ignore[attr-defined]  # I-GEN-09


def test_the_extended_mode_for_treks_and_shortage(q: Ide) -> None:
    e = Ide(params={"mode": "extended"})
    assert e.rs.campaign_params(e.st.params).resolved("water") == "on"  # type: ignore[attr-defined]  # I-GEN-10
    e.add("a")
    e.do("morning")
    e.do("end-day", at="23:00")
    assert e.has("a", "dehydrated")  # I-GEN-10: in extended mode water is counted


def test_the_extended_mode_tracks_each_thing_apart() -> None:
    e = Ide(params={"mode": "extended"})
    e.add("a")
    e.do("morning")
    e.do("eat-meal", at="07:30", liquid_ml=600, food_units=500)  # quality: too little food
    e.do("poison-risk", at="08:00", source="dirty_water", difficulty=2, outcome="failure")
    e.do("set-load", at="08:10", load="loaded", slot_weight=14)
    s = e.sv("a")
    assert s.liquid_today_ml == 600  # I-GEN-11: water volume
    assert list(s.meals.values()) == ["poor"]  # I-GEN-11: food quality
    assert s.poison_points == 2  # I-GEN-11: poisoning
    assert s.slots == {"weight": 14}  # I-GEN-11: weight and volume


def test_poisons_climate_and_transport_belong_to_the_setting() -> None:
    g = Ide(
        params={
            "meal_mode": "quick",
            "poison_outcome_map": {
                "triumph": "none",
                "success": "none",
                "medium": "poisoned",
                "failure": "poisoned",
                "tragedy": "poisoned_gm_escalation",
            },
            "immunity_intervals_min": {
                "cold_no_clothes": 15,
                "cold_warm_clothes": 30,
                "wet": 10,
                "sick_contact": 10,
            },
        }
    )
    g.add("a")
    g.do("poison-risk", at="08:00", source="poison", difficulty=5, outcome="medium")
    assert g.has("a", "poisoned")  # I-GEN-12: the setting's poison rules
    g.do("start-exposure", at="09:00", kind="cold_no_clothes", disease="basic")
    g.to("09:30")
    assert len([k for k in g.checks("a") if k.purpose == "infection"]) == 2  # I-GEN-12: climate


def test_the_run_through_after_two_or_three_days(g: Ide) -> None:
    for day in (1, 2):
        if day == 2:
            g.do("morning", at="2/06:00")
        g.do("eat-meal", at=f"{day}/07:30")
        g.do("end-march", at=f"{day}/18:00", pace="fast")
        g.do("make-camp", at=f"{day}/20:00", camp="normal")
        g.do("plan-sleep", at=f"{day}/21:00", characters=["a"], rolled=[5, 9, 7])
        g.do("plan-sleep", at=f"{day}/21:00", characters=["b"], rolled=[6, 2, 8])
        g.do("go-to-sleep", at=f"{day}/21:00", pick="highest")
        g.do("end-day", at=f"{day + 1}/06:00")
    r = g.ask("run-through")
    assert r["states_from_one_table"] is True  # I-GEN-13: states come from the one table
    assert "normal" in r["meals"] and "skipped" in r["meals"]  # I-GEN-13: meals are felt
    assert r["sleep_spread"] == "hours slept: 8–9"  # I-GEN-13: 3d10 gives spread
    assert "tired" in r["fast_march"] and "optional" in r["fast_march"]  # I-GEN-13
    assert "separate" in r["calm_vs_stamina"]  # I-GEN-13
    assert "[2]/[3]" in r["provisional"] and "6 h / 8 h" in r["provisional"]  # I-GEN-13, A-I-27
