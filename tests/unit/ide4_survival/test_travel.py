"""Fatigue and travel, load, recovery (checklist-004 §2.7, §2.8, §2.12)."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import RuleViolation
from tests.unit.ide4_survival.conftest import Ide


def fatigue(g: Ide, cid: str) -> str:
    kinds = [c.kind for c in g.ch(cid).conditions if c.kind in ("tired", "very_tired", "exhausted")]
    return kinds[0] if kinds else "none"


def test_fatigue_outside_combat_comes_from_the_state_table(q: Ide) -> None:
    q.do("end-march", at="18:00", characters=["a"], pace="fast")
    cond = q.ch("a").condition("tired")
    assert cond is not None and "I-COND-05" not in cond.data["rules"]
    assert q.card("a")["conditions"][0]["label"].startswith("Tired (+1 to long physical")
    # I-TRAVEL-01: march, load, heat, cold, sleep, hunger, disease and stress all act through
    # states of the one table — the travel rule only chooses which
    assert "I-TRAVEL-02" in cond.data["rules"]  # I-TRAVEL-01


def test_the_state_is_marked_by_the_days_pace(q: Ide) -> None:
    q.do("start-march", at="07:00", pace="fast")
    assert q.sv("a").pace == "fast"
    q.do("end-march", at="18:00")
    assert fatigue(q, "a") == fatigue(q, "b") == "tired"  # I-TRAVEL-02
    assert q.sv("a").pace is None and q.sv("a").marches[-1].pace == "fast"  # I-TRAVEL-02


def test_cautious_pace_no_penalty_no_check(q: Ide) -> None:
    evs = q.do("end-march", at="18:00", characters=["a"], pace="cautious", check=True)
    assert fatigue(q, "a") == "none"  # I-TRAVEL-03
    assert not any(e.kind.startswith("check.") for e in evs)  # I-TRAVEL-03: no check


def test_normal_pace_no_penalty_but_overloaded_tired(q: Ide) -> None:
    q.do("set-load", at="07:00", characters=["b"], load="overloaded")
    q.do("end-march", at="18:00", pace="normal")
    assert fatigue(q, "a") == "none"  # I-TRAVEL-04
    assert fatigue(q, "b") == "tired"  # I-TRAVEL-04: overloaded → tired


def test_fast_pace_tired_and_a_failed_endurance_2_very_tired(q: Ide) -> None:
    q.do("end-march", at="18:00", characters=["a"], pace="fast", outcome="failure")
    q.do("end-march", at="18:00", characters=["b"], pace="fast", outcome="success")
    assert q.last_check("a").skill == "Endurance" and q.last_check("a").base == 2  # I-TRAVEL-05
    assert fatigue(q, "a") == "very_tired"  # I-TRAVEL-05
    assert fatigue(q, "b") == "tired"  # I-TRAVEL-05


def test_forced_pace_very_tired_and_a_failed_endurance_3_exhausted(q: Ide) -> None:
    q.do("end-march", at="18:00", characters=["a"], pace="forced", outcome="failure")
    q.do("end-march", at="18:00", characters=["b"], pace="forced")
    assert q.last_check("a").base == 3  # I-TRAVEL-06: Endurance [3]
    assert fatigue(q, "a") == "exhausted"  # I-TRAVEL-06
    assert fatigue(q, "b") == "very_tired"  # I-TRAVEL-06, A-I-21


def test_two_fast_days_without_a_full_camp_at_least_very_tired(q: Ide) -> None:
    for cid in ("a", "b"):
        q.do("end-march", at="20:00", characters=[cid], pace="fast", outcome="success")
    for cid, camp in (("a", "bad"), ("b", "normal")):
        q.do("make-camp", at="20:30", characters=[cid], camp=camp)
    q.do("end-day", at="2/06:00")
    q.do("morning", at="2/06:00")
    q.do("rest", at="2/07:00", hours=1)  # tired gone
    q.do("end-march", at="2/20:00", pace="fast", outcome="success")
    assert fatigue(q, "a") == "very_tired"  # I-TRAVEL-07: even with both checks passed
    assert fatigue(q, "b") == "tired"  # I-TRAVEL-07: a full camp between them


def test_fatigue_degrees_use_the_table_shifts(q: Ide) -> None:
    q.do("end-march", at="18:00", characters=["a"], pace="forced", outcome="failure")
    q.do(
        "d100-check",
        at="18:10",
        character="a",
        skill="Athletics",
        tags=["long_physical"],
        outcome="success",
    )
    assert {s.source: s.amount for s in q.last_check("a").shifts} == {"exhausted": 2}  # I-TRAVEL-08


def test_the_gm_declares_triumph_counts_as_success_before_the_roll(q: Ide) -> None:
    q.do(
        "d100-check",
        at="18:00",
        character="a",
        skill="Endurance",
        outcome="triumph",
        fatigue_critical=True,
        triumph_counts_as_success=True,
    )
    assert q.last_check("a").outcome == "success"  # I-TRAVEL-09


def test_a_journey_is_a_sequence_of_days(q: Ide) -> None:
    for day, pace in ((1, "normal"), (2, "cautious"), (3, "fast")):
        if day > 1:
            q.do("morning", at=f"{day}/06:00")
        q.do("start-march", at=f"{day}/07:00", characters=["a"], pace=pace)
        q.do("end-march", at=f"{day}/18:00", characters=["a"])
        q.do("make-camp", at=f"{day}/19:00", characters=["a"], camp="normal")
        q.do("end-day", at=f"{day}/23:00")
    assert [(m.day, m.pace, m.camp) for m in q.sv("a").marches] == [  # I-TRAVEL-10
        (1, "normal", "normal"),
        (2, "cautious", "normal"),
        (3, "fast", "normal"),
    ]


def test_quick_travel_one_key_check_sets_the_price() -> None:
    g = Ide(params={"mode": "simplified"})
    g.add("a")
    g.add("b")
    with pytest.raises(RuleViolation) as err:
        g.do("quick-travel", at="08:00", character="a", route="to the fort", outcome="failure")
    assert "I-TRAVEL-11" in err.value.rule_ids  # I-TRAVEL-11: the outcome sets a cost
    evs = g.do(
        "quick-travel",
        at="08:00",
        character="a",
        route="to the fort",
        pace="fast",
        outcome="failure",
        costs=["fatigue", "supplies"],
    )
    trip = next(e for e in evs if e.kind == "travel.quick")
    assert trip.payload["costs"] == ["fatigue", "supplies"]  # I-TRAVEL-11
    assert g.has("a", "tired") and g.has("b", "tired")  # I-TRAVEL-12: fatigue as the price
    with pytest.raises(RuleViolation):
        Ide().do("quick-travel", at="08:00", character="x", route="r", outcome="success")


def test_the_possible_prices_of_the_road(q: Ide) -> None:
    assert q.rs.params.quick_travel_costs == [  # type: ignore[attr-defined]  # I-TRAVEL-12
        "lost_time",
        "fatigue",
        "supplies",
        "random_encounter",
        "lost_trail",
        "worse_weather",
        "injured_animal_or_broken_gear",
    ]


def test_the_extended_travel_day_order() -> None:
    g = Ide(params={"mode": "extended"})
    g.add("a")
    g.do("morning")
    steps = g.ask("day")["travel_day"].split(" → ")
    assert steps == [
        "weather",
        "pace",
        "food and water use",
        "route check",
        "hazard check",
        "camp",
        "sleep and recovery",
    ]  # I-TRAVEL-13


def test_pace_descriptions_and_the_fast_pace_shift(q: Ide) -> None:
    paces = q.rs.params.paces  # type: ignore[attr-defined]
    assert "danger is easier to notice" in paces["cautious"].en  # I-TRAVEL-14
    assert (
        paces["normal"].skill_shifts == {} and "no modifiers" in paces["normal"].en
    )  # I-TRAVEL-15
    assert "risk of exhaustion" in paces["forced"].en  # I-TRAVEL-17
    q.do("start-march", at="07:00", characters=["a"], pace="fast")
    assert q.shifts("a", "Attention") == 1  # I-TRAVEL-16: +1 Attention
    assert q.shifts("a", "Endurance") == 1  # I-TRAVEL-16: +1 Endurance
    assert q.shifts("a", "Insight") == 0
    q.do("start-march", at="07:00", characters=["b"], pace="normal")
    assert q.shifts("b", "Attention") == 0  # I-TRAVEL-15


def test_forced_pace_worsens_sleep(q: Ide) -> None:
    q.do("end-march", at="20:00", characters=["a"], pace="forced")
    q.do("make-camp", at="20:30", characters=["a"], camp="normal")
    q.do("plan-sleep", at="21:00", characters=["a"], rolled=[9, 9, 9])
    q.do("go-to-sleep", at="21:00", characters=["a"], hours=9)
    q.to("2/07:00")
    assert q.has("a", "sleep_deprived")  # I-TRAVEL-17: worse sleep (a bad camp)


def test_load_states_basic_and_slots_only_in_extended(q: Ide) -> None:
    with pytest.raises(RuleViolation) as err:
        q.do("set-load", at="07:00", characters=["a"], load="loaded", slot_weight=12)
    assert "I-LOAD-01" in err.value.rule_ids  # I-LOAD-01: basic uses states only
    g = Ide(params={"mode": "extended", "meal_mode": "quick"})
    g.add("a")
    g.do("set-load", at="07:00", characters=["a"], load="loaded", slot_weight=12, slot_volume=4)
    assert g.sv("a").slots == {"weight": 12, "volume": 4}  # I-LOAD-01: extended may use slots


def test_light_and_equipped_have_no_penalties(q: Ide) -> None:
    q.do("set-load", at="07:00", characters=["a"], load="light")
    q.do("set-load", at="07:00", characters=["b"], load="equipped")
    assert q.shifts("a", "Athletics", ("run", "climb", "stealth")) == 0  # I-LOAD-02
    assert q.shifts("b", "Athletics", ("run", "movement")) == 0  # I-LOAD-03


def test_loaded_is_harder_to_run_climb_swim_and_sneak(q: Ide) -> None:
    q.do("set-load", at="07:00", characters=["a"], load="loaded")
    assert q.has("a", "loaded")
    for tag in ("run", "climb", "swim", "stealth"):
        assert q.shifts("a", "Athletics", (tag,)) == 1  # I-LOAD-04
    assert q.shifts("a", "Athletics", ("run", "stealth")) == 1  # I-LOAD-04: once per check
    assert q.shifts("a", "Insight") == 0  # I-LOAD-04


def test_overloaded_is_harder_to_move_and_cannot_fight_normally(q: Ide) -> None:
    q.do("set-load", at="07:00", characters=["a"], load="overloaded")
    assert q.shifts("a", "Athletics", ("movement",)) == 2  # I-LOAD-05
    q.do("d100-check", at="07:10", character="a", skill="Melee", outcome="success")
    assert "cannot fight normally" in q.last_check("a").notes[0]  # I-LOAD-05
    q.do("set-load", at="07:20", characters=["a"], load="equipped")
    assert not q.has("a", "overloaded")


def test_recovery_depends_on_sleep_food_water_safety_treatment_disease_stress(q: Ide) -> None:
    q.do("end-day", at="23:00", safe=True, cared_for=["a"], wounds_treated=["a"])
    note = next(e for e in q.events if e.kind == "recovery.noted" and e.payload["character"] == "a")
    assert "I-REC-01" in note.rule_ids  # I-REC-01
    assert {"safe", "cared_for", "wounds_treated", "no_active_stress"} <= set(
        note.payload["better"]
    )  # I-REC-02
    assert "not_sleeping" in note.payload["worse"]  # I-REC-03


def test_asleep_when_the_day_ends_past_midnight_is_not_recovering_worse_for_no_sleep(
    q: Ide,
) -> None:
    """I-REC-03 «не спит»: the day's end comes after the sleep (I-DAY-08, I-DAY-09); the
    party sleeps from 20:00 and the GM ends the day at 02:00 — Anna, asleep, is
    sleeping; Boris, who never lay down, is not."""
    q.do("make-camp", at="19:00", camp="normal")
    q.do("plan-sleep", at="20:00", characters=["a"], rolled=[9, 9, 9])
    q.do("go-to-sleep", at="20:00", characters=["a"], hours=9)
    evs = q.do("end-day", at="2/02:00")
    notes = {e.payload["character"]: e.payload for e in evs if e.kind == "recovery.noted"}
    assert q.sv("a").asleep
    assert "not_sleeping" not in notes["a"]["worse"]  # I-REC-03: asleep is sleeping
    assert "not sleeping" not in notes["a"]["worse_en"]
    assert "not_sleeping" in notes["b"]["worse"]  # I-REC-03: awake all day and night
    assert not q.has("a", "sleep_deprived") and q.has("b", "sleep_deprived")  # I-SLEEP-12
    q.to("2/05:00")  # Anna wakes after 9 hours: the night counts for the next day's end
    assert not q.sv("a").asleep and q.sv("a").slept_today
    assert "not sleeping" not in q.ask("recovery", character="a")["worse"]  # I-REC-03


def test_what_makes_recovery_better_or_worse(q: Ide) -> None:
    r = q.ask("recovery", character="a", safe=True, cared_for=True, wounds_treated=True)
    assert {
        "in safety",
        "cared for",
        "wounds treated",
        "no active stress",
        "gets food and water",
    } <= set(r["better"])  # I-REC-02
    q.do("mark-food-day", at="20:00", characters=["a"], mark="skipped")
    q.do("start-march", at="20:10", characters=["a"], pace="normal")
    q.do("start-exposure", at="20:10", characters=["a"], kind="cold_no_clothes", disease="basic")
    r = q.ask("recovery", character="a", dirty_wound=True)
    assert {"hungry", "in cold or heat", "still travelling", "a dirty wound"} <= set(
        r["worse"]
    )  # I-REC-03


@pytest.mark.parametrize(("load", "harder"), [("equipped", 0), ("loaded", 1), ("overloaded", 1)])
def test_a_loaded_character_tires_faster_on_the_march(q: Ide, load: str, harder: int) -> None:
    q.do("set-load", at="07:00", characters=["a"], load=load)
    q.do("end-march", at="18:00", characters=["a"], pace="fast", outcome="success")
    check = q.last_check("a")
    assert check.base == 2 and check.difficulty - 2 == harder  # I-LOAD-04: tires faster
    assert [s.amount for s in check.shifts if "I-LOAD-04" in s.source] == [harder] * harder
    card = q.card("a")
    if load == "loaded":  # I-LOAD-04: the card says so, with the number
        label = next(c["label"] for c in card["conditions"] if c["kind"] == "loaded")
        assert "tires faster (+1 to the march's Endurance check)" in label
        label_ru = next(
            c["label"] for c in q.card("a", "ru")["conditions"] if c["kind"] == "loaded"
        )
        assert "быстрее устаёт (+1 к проверке Выносливости на марше)" in label_ru


def test_how_much_faster_a_loaded_character_tires_is_a_parameter() -> None:
    g = Ide(params={"meal_mode": "quick", "loaded_fatigue_check_shift": 0})  # I-LOAD-04: GM
    g.add("a")
    g.do("set-load", at="07:00", characters=["a"], load="loaded")
    g.do("end-march", at="18:00", characters=["a"], pace="fast", outcome="success")
    assert g.last_check("a").difficulty == 2  # I-LOAD-04: left to the GM
