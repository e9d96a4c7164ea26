"""Worked examples E-I-01..12 of checklist-004 §5 and the three examples of rules/004
("day on the road", "stress after a fight", "disease in town"), as scenarios."""

from __future__ import annotations

from datetime import timedelta

import pytest

from lazaretto.core.errors import RuleViolation
from tests.unit.ide4_survival.conftest import Ide, make_sick, when


def meal_rerolls(g: Ide, cid: str = "a") -> list[object]:
    return [r for r in g.sv(cid).rerolls if r.kind == "meal"]


def sleep(g: Ide, cid: str, rolled: list[int], hours: int, camp: str, at: str = "22:00") -> None:
    g.do("make-camp", at=at, characters=[cid], camp=camp)
    g.do("plan-sleep", at=at, characters=[cid], rolled=rolled)
    g.do("go-to-sleep", at=at, characters=[cid], hours=hours)


def test_e_i_01_meal_reroll_burning(g: Ide) -> None:
    g.do("eat-meal", at="07:30", characters=["a"])
    assert meal_rerolls(g)[0].expires == when("13:00")  # type: ignore[attr-defined]
    g.to("13:00")
    assert meal_rerolls(g) == []  # I-MEAL-11: burned at 13:00
    g.do("d100-check", at="13:10", character="a", skill="Attention", outcome="failure")
    with pytest.raises(RuleViolation):
        g.do("use-reroll", at="13:10", character="a", kind="meal", outcome="success")
    g.do("eat-meal", at="13:20", characters=["a"])
    assert len(meal_rerolls(g)) == 1  # I-MEAL-12: held 1, never 2
    with pytest.raises(RuleViolation) as err:
        g.do("use-reroll", at="13:25", character="a", kind="meal", outcome="success")
    assert "I-MEAL-10" in err.value.rule_ids  # the 13:10 check was during lunch
    # A-I-04 alternative: the breakfast reroll lasts until the next meal is finished
    n = Ide(params={"meal_reroll_expiry": "next_meal_completed"})
    n.add("a")
    n.add("b")
    n.do("morning")
    n.do("eat-meal", at="07:30")
    n.do("d100-check", at="13:10", character="a", skill="Attention", outcome="failure")
    n.do("use-reroll", at="13:10", character="a", kind="meal", outcome="success")
    assert n.last_check("a").outcome == "success"  # I-MEAL-09, A-I-04: still usable at 13:10
    old = meal_rerolls(n, "b")
    n.do("eat-meal", at="13:20")
    new = meal_rerolls(n, "b")
    assert len(new) == 1 and new != old  # I-MEAL-11, A-I-04: it burns at 13:20


def test_e_i_02_bonus_food_and_meal_conditions() -> None:
    g = Ide(params={"mode": "extended"})
    for cid in ("a", "b", "c", "d", "e"):
        g.add(cid)
    g.do("morning", at="18:00")
    water = [{"kind": "clean_water", "ml": 500}]
    g.do("eat-meal", at="19:30", characters=["a"], drinks=water, bonus_food=True)
    assert len(meal_rerolls(g, "a")) == 2  # I-MEAL-13
    assert {r.expires for r in g.sv("a").rerolls} == {when("2/07:00")}  # A-I-05
    g.do("eat-meal", at="19:30", characters=["b"], drinks=water, combat_or_chase=True)
    g.do(
        "poison-risk",
        at="19:30",
        characters=["c"],
        source="spoiled_food",
        difficulty=2,
        outcome="failure",
    )
    g.do("eat-meal", at="19:30", characters=["c"], drinks=water)
    g.do("eat-meal", at="19:30", characters=["d"], drinks=[{"kind": "weak_alcohol", "ml": 500}])
    g.do("eat-meal", at="19:30", characters=["e"], drinks=water, food_units=1000)
    assert not meal_rerolls(g, "b") and not meal_rerolls(g, "c")  # I-MEAL-07, I-MEAL-06
    assert not meal_rerolls(g, "d")  # I-MEAL-04, I-MEAL-19: 500 ml of ale = 400 ml
    assert len(meal_rerolls(g, "e")) == 1  # I-MEAL-04, I-MEAL-05: water + 1000 units
    g.to("2/07:00")
    skipped = {
        cid for cid in "abcde" if g.sv(cid).meals.get(when("19:00").isoformat()) == "skipped"
    }
    assert skipped == {"b", "c", "d"}  # I-MEAL-03: not normal = skipped
    assert not meal_rerolls(g, "a")  # burned at 07:00


def test_e_i_03_two_skipped_meals() -> None:
    g = Ide()
    g.add("a")
    g.do("morning")
    g.do("eat-meal", at="07:30")
    g.to("19:00")
    assert g.has("a", "hungry") and not g.has("a", "exhausted")  # I-MEAL-14
    g.to("2/07:00")
    assert g.has("a", "exhausted") and g.has("a", "hungry")  # I-MEAL-15, A-I-08
    g.do(
        "d100-check",
        at="2/07:05",
        character="a",
        skill="Athletics",
        tags=["long_physical"],
        outcome="success",
    )
    assert g.last_check("a").difficulty == 3  # I-STATE-02: +1 hungry +2 exhausted
    g.do("eat-meal", at="2/07:30")
    assert not g.has("a", "hungry") and g.has("a", "exhausted")  # I-COND-02, I-COND-04
    q = Ide(params={"meal_mode": "quick"})
    q.add("a")
    q.do("mark-food-day", at="20:00", mark="skipped")
    assert q.has("a", "hungry") and not q.sv("a").rerolls  # I-MEAL-16, I-MEAL-17


def test_e_i_04_state_stacking(q: Ide) -> None:
    q.do("mark-food-day", at="07:00", characters=["a"], mark="skipped")
    q.do("mark-food-day", at="07:00", characters=["a"], mark="skipped")  # hungry again
    q.do("end-fight", at="08:00", characters=["a"], heavy=True)
    assert q.shifts("a", "Athletics", ("long_physical",)) == 2  # I-STATE-01/02: +1 +1, not +3
    q.do("end-march", at="18:00", characters=["a"], pace="forced")  # tired → very tired
    assert not q.has("a", "tired") and q.has("a", "very_tired")  # A-I-30
    assert q.shifts("a", "Athletics", ("physical",)) == 1  # a jump: +1 (very tired)
    q.do("end-day", at="23:00", no_water=["b"])
    q.do("mark-food-day", at="23:10", characters=["b"], mark="skipped")
    assert q.shifts("b", "Endurance") == 1  # I-COND-03: dehydrated +1
    assert q.shifts("b", "Endurance", ("long_physical",)) == 2  # + hungry on a long action
    q.do("end-fight", at="23:20", characters=["b"], heavy=True)
    q.do(
        "d100-check", at="23:30", character="b", skill="Melee", tags=["physical"], outcome="success"
    )
    assert q.last_check("b").difficulty == 0  # I-STATE-04: a short attack while tired


def test_e_i_05_normal_versus_bad_camp() -> None:
    g = Ide(params={"meal_mode": "quick"})
    for cid in ("a", "b", "c"):
        g.add(cid)
    g.do("end-day", at="21:00")  # nobody slept: sleep-deprived
    g.do("calm-event", at="21:10", characters=["a", "b"], events=["monster"])
    g.do("make-camp", at="21:30", characters=["a"], camp="normal")
    g.do("plan-sleep", at="21:30", characters=["a"], rolled=[4, 8, 9])
    with pytest.raises(RuleViolation):
        g.do("go-to-sleep", at="21:31", characters=["a"], hours=7)  # only rolled values
    g.do("go-to-sleep", at="22:00", characters=["a"], hours=9)
    sleep(g, "b", [4, 8, 9], 9, "bad")
    sleep(g, "c", [2, 3, 5], 5, "normal")
    g.to("2/07:00")
    assert not g.has("a", "sleep_deprived") and g.sv("a").calm == 3  # I-SLEEP-09, I-CALM-16
    assert g.has("b", "sleep_deprived") and g.sv("b").calm == 3  # I-COND-07, I-CALM-16
    assert g.card("b")["energy_limit"] == 2  # I-SLEEP-12
    assert g.has("c", "sleep_deprived")  # I-COND-07: at most 5 h
    x = Ide(params={"mode": "extended", "meal_mode": "quick"})
    x.add("b")
    sleep(x, "b", [4, 8, 9], 9, "bad")
    x.to("2/07:00")
    assert x.card("b")["energy_limit"] == 1  # I-SLEEP-13, never below 1


def test_e_i_06_interrupted_sleep(q: Ide) -> None:
    q.do("end-day", at="21:00")  # sleep-deprived already
    sleep(q, "a", [9, 1, 1], 9, "normal")
    sleep(q, "b", [9, 1, 1], 9, "normal")
    q.do("interrupt-sleep", at="2/01:00", characters=["a"], reason="attack", rolled=[3, 7])
    assert q.sv("a").calm == 1  # I-CALM-11
    q.do("interrupt-sleep", at="2/01:00", characters=["b"], reason="attack", rolled=[10, 2])
    q.to("2/08:00")
    assert q.sv("a").last_sleep.hours == 7 and q.sv("a").calm == 1  # type: ignore[union-attr]  # I-SLEEP-04
    assert q.has("a", "sleep_deprived")  # 7 ≥ 6: not gained, the old one not removed (A-I-10)
    assert q.sv("b").last_sleep.hours == 9 and q.sv("b").calm == 3  # type: ignore[union-attr]  # I-CALM-16
    c = Ide(params={"meal_mode": "quick"})
    c.add("a")
    sleep(c, "a", [5, 1, 1], 5, "normal")
    c.do("interrupt-sleep", at="2/00:00", characters=["a"], rolled=[9, 9])
    c.to("2/08:00")
    assert c.sv("a").last_sleep.hours == 5 and c.has("a", "sleep_deprived")  # type: ignore[union-attr]  # I-SLEEP-04


def test_e_i_07_the_calm_loss_cap_per_turn(q: Ide) -> None:
    q.do("calm-event", at="08:00", events=["fight_breaks_out", "outnumbered", "ambush"], turn="t1")
    for cid in ("a", "b"):
        assert q.sv(cid).calm == 1 and q.has(cid, "stressed")  # I-CALM-02, I-COND-10
        assert q.sv(cid).adrenaline == 2  # I-CALM-22
    q.do("calm-event", at="08:01", characters=["a"], events=["monster"], turn="t2")
    q.do(
        "calm-event",
        at="08:01",
        characters=["b"],
        events=["monster"],
        turn="t2",
        courage=[{"character": "b", "against": "monster", "outcome": "success"}],
    )
    assert q.sv("a").calm == 0 and 2 <= q.sv("a").replacements <= 5  # I-CALM-25: 1 + d4
    assert q.sv("b").calm == 1  # I-CALM-14
    c = Ide(params={"meal_mode": "quick", "calm_loss_overflow": "carry_over"})
    c.add("a")
    c.do("calm-event", at="08:00", events=["fight_breaks_out", "outnumbered", "ambush"], turn="t1")
    c.do("calm-event", at="08:01", events=["monster"], turn="t2")
    assert (c.sv("a").calm, c.sv("a").carry) == (0, 2)  # A-I-13


def test_e_i_08_recovery_and_stress_after_battle(q: Ide) -> None:
    q.do("start-fight", at="08:00", characters=["a"], tokens=7)
    assert q.sv("a").calm == 2 and q.sv("a").adrenaline == 1  # I-CALM-06, I-CALM-20
    q.do("d100-check", at="08:05", character="a", skill="Negotiations", outcome="failure")
    with pytest.raises(RuleViolation):
        q.do("spend-energy", at="08:06", character="a", adrenaline=1, outcome="success")
    q.do("calm-event", at="08:10", characters=["a"], events=["oppressive"], scene="fight")
    assert q.sv("a").calm == 1 and q.sv("a").adrenaline == 2  # I-CALM-08, I-CALM-22
    q.do("end-fight", at="08:20", characters=["a"])
    q.do("rest", at="11:20", characters=["a"], hours=3, quiet=True)
    assert q.sv("a").calm == 2  # I-CALM-15
    q.do("rest", at="14:20", characters=["a"], hours=3, quiet=True)
    assert q.sv("a").calm == 3 and q.card("a")["pacified_reroll"]  # I-CALM-18
    q.do("calm-event", at="15:00", characters=["b"], events=["monster"], turn="r1")
    q.do("calm-recover", at="15:01", characters=["b"], reason="turn_end", points=3, turn="r1")
    assert q.sv("b").calm == 2  # I-CALM-03: at most +1 at the end of a combat turn


def test_e_i_09_zero_calm_replacement_limits(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["monster"], turn="t1")
    q.do("calm-event", at="08:01", characters=["a"], events=["monster"], turn="t2")
    left = q.sv("a").replacements
    q.do("intimate-act", at="08:02", character="a", partner="npc")
    q.do("d100-check", at="08:03", character="a", skill="Melee", outcome="tragedy")
    q.do("replace-tragedy", at="08:04", character="a")
    assert q.last_check("a").outcome == "failure" and q.sv("a").replacements == left - 1
    with pytest.raises(RuleViolation):
        q.do("spend-energy", at="08:05", character="a", dice=3, die=6, outcome="triumph")
    q.do("spend-energy", at="08:05", character="a", dice=3, die=6, outcome="medium")
    assert q.last_check("a").outcome == "medium"  # I-CALM-27
    q.do("use-reroll", at="08:06", character="a", kind="hot", outcome="tragedy")
    with pytest.raises(RuleViolation):
        q.do("replace-tragedy", at="08:07", character="a")  # I-CALM-29
    q.to("09:01")
    assert q.has("a", "health_penalty")  # I-CALM-30


def test_e_i_10_the_end_of_a_travel_day(q: Ide) -> None:
    for cid in ("c", "d", "e", "f"):
        q.add(cid)
    q.do("set-load", at="07:00", characters=["b"], load="overloaded")
    q.do("end-march", at="18:00", characters=["a"], pace="cautious")
    q.do("end-march", at="18:00", characters=["b"], pace="normal")
    q.do("end-march", at="18:00", characters=["c"], pace="fast")
    q.do("end-march", at="18:00", characters=["d"], pace="fast", outcome="failure")
    q.do("end-march", at="18:00", characters=["e"], pace="forced")
    q.do("end-march", at="18:00", characters=["f"], pace="forced", outcome="failure")
    kinds = {
        cid: sorted(
            c.kind for c in q.ch(cid).conditions if c.kind in ("tired", "very_tired", "exhausted")
        )
        for cid in "abcdef"
    }
    assert kinds == {
        "a": [],
        "b": ["tired"],
        "c": ["tired"],
        "d": ["very_tired"],
        "e": ["very_tired"],
        "f": ["exhausted"],
    }  # I-TRAVEL-03..06
    q.do("start-march", at="2/07:00", characters=["c"], pace="fast")
    assert q.shifts("c", "Attention") == 1  # I-TRAVEL-16
    q.do("set-load", at="2/07:00", characters=["a"], load="loaded")
    assert q.shifts("a", "Stealth", ("stealth",)) == 1  # I-LOAD-04
    assert q.shifts("b", "Athletics", ("movement",)) == 2  # I-LOAD-05


def test_e_i_11_disease_and_immunity(q: Ide) -> None:
    q.do(
        "expose",
        at="08:00",
        characters=["a"],
        disease="basic",
        difficulty=3,
        modifiers=[
            {"reason": "poor ventilation", "amount": 1},
            {"reason": "fed and rested", "amount": -1},
        ],
        outcome="failure",
    )
    assert q.last_check("a").difficulty == 3  # I-DIS-03
    assert next(iter(q.st.cases.values())).stage == 1  # A-I-18: Failure → stage 1
    q.do("expose", at="08:00", characters=["b"], disease="basic", difficulty=3, outcome="tragedy")
    assert next(c for c in q.st.cases.values() if c.character == "b").stage == 2  # A-I-18
    w = Ide(params={"meal_mode": "quick"})
    w.add("a")
    w.add("b")
    w.do("start-exposure", at="08:00", characters=["a"], kind="wet", disease="basic")
    w.do("start-exposure", at="08:00", characters=["a"], kind="cold_no_clothes", disease="basic")
    w.do("start-exposure", at="08:00", characters=["b"], kind="cold_warm_clothes", disease="basic")
    w.to("09:00")
    w.do("end-exposure", at="09:00", characters=["a"])
    assert len(w.checks("a")) == 9  # I-IMM-03, I-IMM-05, I-IMM-07
    w.to("14:00")
    assert [k.at for k in w.checks("b")] == [when("13:30"), when("14:00")]  # I-IMM-04
    t = Ide(params={"meal_mode": "quick"})
    t.add("a")
    case = make_sick(t, "a", "black_torpor")
    days = (case.death_at - case.sick_since).days
    assert 3 <= days <= 8  # I-CAT-06: 2 + d6 days from falling sick
    t.do("treat-disease", character="a", disease="black_torpor", treatment="I-CURE-22")
    t.do("treat-disease", character="a", disease="black_torpor", treatment="I-CURE-22")
    after = t.st.cases[case.id].death_at
    assert after == case.death_at + timedelta(days=2) and t.sv("a").burns == 1.0  # I-CURE-22


def test_e_i_12_hot_reroll(q: Ide) -> None:
    q.do("survival-sheet", character="a", sex="male")
    q.do("survival-sheet", character="b", sex="female")
    q.do("intimate-act", at="22:00", character="a", partner="Mira")
    q.do("intimate-act", at="22:00", character="b", partner="Oleg")
    hot = [r for r in q.sv("a").rerolls if r.kind == "hot"]
    assert len(hot) == 1 and hot[0].expires == when("3/22:00")  # I-HOT-02, I-HOT-03
    evs = q.do("intimate-act", at="22:20", character="a", partner="Mira")
    assert next(e for e in evs if e.kind == "intimacy.recorded").payload["gained"] == 0
    q.do("d100-check", at="22:21", character="b", skill="Insight", outcome="failure")
    q.do("use-reroll", at="22:22", character="b", kind="hot", outcome="success")
    q.do("intimate-act", at="2/01:00", character="b", partner="Oleg")
    assert not [r for r in q.sv("b").rerolls if r.kind == "hot"]  # I-HOT-04: 4 h
    q.do("intimate-act", at="2/02:00", character="b", partner="Oleg")
    assert len([r for r in q.sv("b").rerolls if r.kind == "hot"]) == 1  # I-HOT-04


# --- the examples of rules/004 -------------------------------------------------------------


def test_source_example_a_day_on_the_road() -> None:
    """«Пример: день в дороге» — a party crossing a swampy forest in the rain."""
    g = Ide()
    for cid in ("a", "b"):
        g.add(cid)
    g.do("set-load", at="06:00", characters=["b"], load="overloaded")
    g.do("morning", at="06:30")
    g.do("eat-meal", at="07:30")
    g.do("start-march", at="08:00", pace="normal")
    g.do(
        "poison-risk",
        at="12:00",
        characters=["a"],
        source="dirty_water",
        difficulty=3,
        outcome="failure",
    )
    g.do(
        "poison-risk",
        at="12:00",
        characters=["b"],
        source="dirty_water",
        difficulty=3,
        outcome="success",
    )
    g.do("eat-meal", at="13:30")
    g.do(
        "d100-check",
        at="15:00",
        character="a",
        skill="Sense of direction",
        difficulty=3,
        outcome="success",
    )
    g.do("end-march", at="18:00")
    assert not g.has("a", "tired")  # normal pace: no fatigue (I-TRAVEL-04)
    assert g.has("b", "tired")  # … an overloaded one is tired
    assert g.has("a", "poisoned") and not g.has("b", "poisoned")  # I-POIS-03, I-COND-09
    g.do("make-camp", at="19:00", camp="normal", damp=True, weather="rain")
    g.do("eat-meal", at="19:30")
    g.do("plan-sleep", at="21:00", characters=["a"], rolled=[5, 2, 3])
    g.do("plan-sleep", at="21:00", characters=["b"], rolled=[9, 2, 3])
    g.do("go-to-sleep", at="21:00", pick="highest")
    g.to("2/06:30")
    assert g.has("a", "sleep_deprived") and g.has("b", "sleep_deprived")  # damp camp, 5 h
    assert g.replayed() == g.state


def test_source_example_stress_after_a_fight(q: Ide) -> None:
    """«Пример: стресс после боя»."""
    q.do("start-fight", at="10:00", characters=["a"], tokens=7)
    q.do("calm-event", at="10:05", characters=["a"], events=["oppressive"], scene="fight")
    q.do("end-fight", at="10:10", characters=["a"])
    assert q.sv("a").calm == 1  # fight −1, an ally's death −1 (I-CALM-06, I-CALM-08)
    q.do("end-day", at="23:00")
    q.do("morning", at="2/07:00")
    assert q.sv("a").adrenaline == 2  # next day: the adrenaline dose, 2 d20 (I-CALM-22)
    q.do(
        "d100-check",
        at="2/08:00",
        character="a",
        skill="Negotiations",
        modifiers=[{"reason": "not rested", "amount": 1}],
        outcome="success",
    )
    assert q.last_check("a").difficulty == 1  # Negotiations +1 if not rested
    q.do("rest", at="2/11:00", characters=["a"], hours=3, quiet=True)
    assert q.sv("a").calm == 2  # +1 for 3 h of safety in a village (I-CALM-15)


def test_source_example_disease_in_town(q: Ide) -> None:
    """«Пример: болезнь в городе» — a night in a crowded barracks."""
    for cid in ("a", "b"):
        q.do(
            "expose",
            at="22:00",
            characters=[cid],
            disease="putrid_throat",
            difficulty=3,
            modifiers=[
                {"reason": "poor ventilation", "amount": 1},
                {"reason": "fed and rested", "amount": -1},
            ],
            source="barracks",
        )
    q.add("c")
    timers = sorted(
        (t for t in q.st.timers.values() if t.kind == "incubation_ends"), key=lambda t: t.deadline
    )
    for t in timers:
        q.to_time(t.deadline)
    pending = {k.character: k for k in q.st.checks.values() if k.pending}
    assert pending["a"].difficulty == 3 and pending["a"].skill == "Immunity"  # [3] + 1 − 1
    q.do_at(timers[-1].deadline, "resolve-check", check=pending["a"].id, outcome="failure")
    q.do_at(
        timers[-1].deadline,
        "resolve-check",
        check=pending["b"].id,
        outcome="tragedy",
        choice="infect_neighbour",
    )
    cases = {c.character: c for c in q.st.cases.values()}
    assert cases["a"].stage == 1  # Failure → stage 1 (malaise)
    assert cases["b"].stage == 2  # Tragedy → stage 2 (no neighbour named: stage 2)
    r = Ide(params={"meal_mode": "quick"})
    r.add("a")
    r.add("c")
    r.do(
        "expose",
        at="22:00",
        characters=["a"],
        disease="basic",
        difficulty=3,
        outcome="tragedy",
        tragedy="infect_neighbour",
        neighbour="c",
    )
    assert next(c for c in r.st.cases.values() if c.character == "a").stage == 1
    assert any(c.character == "c" for c in r.st.cases.values())  # or a neighbour is infected
