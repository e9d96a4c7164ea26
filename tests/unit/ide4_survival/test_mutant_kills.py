"""Boundaries of ide4-survival rules that a one-step change of their data or code would move
unnoticed (issue 19, ``bench/mutate.py``): each test pins the value on both sides."""

from __future__ import annotations

from typing import Any

from lazaretto.rulesets.ide4_survival.state import Reroll
from tests.unit.ide4_survival.conftest import Ide, make_sick


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
