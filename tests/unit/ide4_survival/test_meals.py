"""Meals, the meal reroll, skipped meals, the quick food mode and useful liquid
(checklist-004 §2.4)."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import RuleViolation
from lazaretto.rulesets.ide4_survival.state import Reroll
from tests.unit.ide4_survival.conftest import Ide, when


def meal_rerolls(g: Ide, cid: str) -> list[Reroll]:
    return [r for r in g.sv(cid).rerolls if r.kind == "meal"]


def test_food_is_not_counted_bite_by_bite_in_the_basic_game(g: Ide) -> None:
    g.do("eat-meal", at="07:30")  # no grams, no millilitres: the GM just says "they ate"
    assert g.sv("a").meals[when("07:00").isoformat()] == "normal"  # I-MEAL-01, I-GEN-09
    assert len(meal_rerolls(g, "a")) == 1  # I-MEAL-01


def test_the_quick_food_procedure_window_check_reroll_update(g: Ide) -> None:
    # I-MEAL-02: 1 a window opens (from 7:00) …
    assert [t.deadline for t in g.st.timers.values() if t.kind == "meal_window"] == [when("07:00")]
    g.to("07:00")
    g.do("eat-meal", at="07:40", characters=["a"], liquid_ml=500, food_units=1000)
    # … 2 the meal is normal, 3 +1 meal reroll, 4 hunger / fed updated
    assert len(meal_rerolls(g, "a")) == 1 and not g.has("a", "hungry")  # I-MEAL-02


def test_a_normal_meal_counts_once_per_window(g: Ide) -> None:
    g.do("eat-meal", at="07:30", characters=["a"])
    evs = g.do("eat-meal", at="08:30", characters=["a"], bonus_food=True)
    eaten = next(e for e in evs if e.kind == "meal.eaten")
    assert eaten.payload["counted"] is False  # I-MEAL-03: once in each window
    assert len(meal_rerolls(g, "a")) == 1  # I-MEAL-03


def test_a_normal_meal_needs_500_ml_of_useful_liquid(g: Ide) -> None:
    g.do("eat-meal", at="07:30", characters=["a"], liquid_ml=450, food_units=1000)
    g.do("eat-meal", at="07:30", characters=["b"], liquid_ml=500, food_units=1000)
    assert not meal_rerolls(g, "a")  # I-MEAL-04
    assert len(meal_rerolls(g, "b")) == 1  # I-MEAL-04


def test_the_solid_food_norm_depends_on_the_body_on_the_sheet(g: Ide) -> None:
    g.do("survival-sheet", character="b", body_food_norm=800)
    g.do("eat-meal", at="07:30", liquid_ml=500, food_grams=400)  # 400 g = 800 units
    assert not meal_rerolls(g, "a")  # I-MEAL-05: body norm 1000 units
    assert len(meal_rerolls(g, "b")) == 1  # I-MEAL-05, A-I-07: norm 800 units
    assert g.has("a", "hungry")  # I-COND-02: too little food


def test_a_poisoned_character_has_no_normal_meal(g: Ide) -> None:
    g.do(
        "poison-risk",
        at="07:10",
        characters=["a"],
        source="dirty_water",
        difficulty=2,
        outcome="failure",
    )
    evs = g.do("eat-meal", at="07:30", characters=["a"])
    eaten = next(e for e in evs if e.kind == "meal.eaten")
    assert "poisoned" in eaten.payload["reasons"]  # I-MEAL-06
    assert not meal_rerolls(g, "a")  # I-MEAL-06


def test_a_meal_during_combat_or_a_chase_is_not_normal(g: Ide) -> None:
    g.do("eat-meal", at="07:30", characters=["a"], combat_or_chase=True)
    assert not meal_rerolls(g, "a")  # I-MEAL-07


def test_the_meal_reroll_works_on_any_d100_check_including_insight(g: Ide) -> None:
    g.do("eat-meal", at="07:30", characters=["a"])
    g.do("d100-check", at="09:00", character="a", skill="Insight", outcome="failure")
    g.do("use-reroll", at="09:01", character="a", kind="meal", outcome="success")
    assert g.last_check("a").outcome == "success"  # I-MEAL-08: any d100 check, Insight too
    assert g.last_check("a").history == ["failure"]  # I-MEAL-08
    assert not meal_rerolls(g, "a")


def test_the_meal_reroll_runs_from_the_end_of_the_meal_to_the_next_window(g: Ide) -> None:
    g.do("eat-meal", at="07:30", characters=["a"])
    assert meal_rerolls(g, "a")[0].expires == when("13:00")  # I-MEAL-09: breakfast → lunch
    g.to("13:00")
    g.do("eat-meal", at="13:20", characters=["a"])
    assert meal_rerolls(g, "a")[0].expires == when("19:00")  # I-MEAL-09: lunch → dinner
    g.to("19:00")
    g.do("eat-meal", at="19:30", characters=["a"])
    assert meal_rerolls(g, "a")[0].expires == when("2/07:00")  # I-MEAL-09: dinner → breakfast


def test_the_meal_reroll_is_not_for_checks_during_or_before_the_meal(g: Ide) -> None:
    g.do("d100-check", at="07:10", character="a", skill="Attention", outcome="failure")
    g.do("eat-meal", at="07:30", characters=["a"])
    with pytest.raises(RuleViolation) as err:
        g.do("use-reroll", at="07:35", character="a", kind="meal", outcome="success")
    assert "I-MEAL-10" in err.value.rule_ids  # I-MEAL-10: the check came before the meal ended


def test_an_unused_meal_reroll_burns(g: Ide) -> None:
    g.do("eat-meal", at="07:30", characters=["a"])
    evs = g.to("13:00")
    assert not meal_rerolls(g, "a")  # I-MEAL-11
    assert any(e.kind == "reroll.burned" and e.payload["character"] == "a" for e in evs)


def test_meal_rerolls_never_accumulate(g: Ide) -> None:
    p = Ide(params={"meal_reroll_expiry": "next_meal_completed"})
    p.add("a")
    p.do("morning")
    p.do("eat-meal", at="07:30")
    p.do("eat-meal", at="13:30")
    assert len(meal_rerolls(p, "a")) == 1  # I-MEAL-12: never two meals' worth


def test_bonus_food_gives_one_more_reroll(g: Ide) -> None:
    g.do("eat-meal", at="07:30", characters=["a"], bonus_food=True)
    assert len(meal_rerolls(g, "a")) == 2  # I-MEAL-13, A-I-05
    g.do("eat-meal", at="07:30", characters=["b"], bonus_food=True, food_units=100)
    assert not meal_rerolls(g, "b")  # I-MEAL-13: only with a full meal


def test_one_skipped_meal_makes_hungry_until_the_next_normal_meal(g: Ide) -> None:
    g.do("eat-meal", at="07:30")
    g.to("19:00")
    assert g.has("a", "hungry")  # I-MEAL-14
    g.do("eat-meal", at="19:30", characters=["a"], food_units=200)
    assert g.has("a", "hungry")  # I-MEAL-14: not a normal meal
    g.do("eat-meal", at="19:40", characters=["a"])
    assert not g.has("a", "hungry")  # I-MEAL-14


def test_two_skipped_meals_in_a_row_exhaust() -> None:
    g = Ide()
    g.add("a")
    g.do("morning")
    g.to("13:00")
    assert g.has("a", "hungry") and not g.has("a", "exhausted")
    g.to("19:00")
    assert g.has("a", "exhausted") and g.has("a", "hungry")  # I-MEAL-15, A-I-08
    e = Ide(params={"exhausted_skip_exception": "full_meal_in_period"})
    e.add("a")
    e.do("morning", at="18:00")
    e.do("eat-meal", at="19:30")  # a full dinner, then breakfast and lunch skipped
    e.to("2/19:00")
    assert not e.has("a", "exhausted")  # I-MEAL-15: "unless a full dinner/breakfast" reading


def test_the_quick_mode_keeps_one_mark_a_day_and_gives_no_rerolls(q: Ide) -> None:
    q.do("mark-food-day", at="20:00", characters=["a"], mark="ate")
    q.do("mark-food-day", at="20:00", characters=["b"], mark="skipped")
    assert q.has("a", "fed") and q.has("b", "hungry")  # I-MEAL-16
    assert not q.sv("a").rerolls  # I-MEAL-17: no rerolls in the quick mode
    with pytest.raises(RuleViolation) as err:
        q.do("eat-meal", at="20:10")
    assert "I-MEAL-16" in err.value.rule_ids


def test_extended_mode_counts_useful_liquid_by_kind() -> None:
    g = Ide(params={"mode": "extended"})
    g.add("a")
    g.add("b")
    g.do("morning")
    with pytest.raises(RuleViolation):
        g.do("eat-meal", at="07:30")  # I-MEAL-18: extended mode wants the liquid
    g.do("eat-meal", at="07:30", characters=["a"], drinks=[{"kind": "weak_alcohol", "ml": 500}])
    g.do("eat-meal", at="07:30", characters=["b"], drinks=[{"kind": "clean_water", "ml": 500}])
    assert g.sv("a").liquid_today_ml == 400  # I-MEAL-19: 500 ml of ale = 400 ml
    assert g.sv("b").liquid_today_ml == 500  # I-MEAL-19: 500 ml of clean water = 500 ml
    assert not meal_rerolls(g, "a") and meal_rerolls(g, "b")  # I-MEAL-18
    g.do("drink", at="12:00", characters=["b"], drinks=[{"kind": "broth", "ml": 1000}])
    g.do("end-day", at="23:00")
    assert g.has("a", "dehydrated") and not g.has("b", "dehydrated")  # I-MEAL-18, A-I-09


def test_the_basic_game_counts_all_liquid_alike(g: Ide) -> None:
    g.do("eat-meal", at="07:30", characters=["a"], drinks=[{"kind": "weak_alcohol", "ml": 500}])
    assert len(meal_rerolls(g, "a")) == 1  # I-MEAL-18: the accounting is extended-only


@pytest.mark.parametrize(
    ("kind", "counted"),
    [("strong_alcohol", 0), ("broth", 1000), ("medicinal", 1000), ("contaminated_water", 1000)],
)
def test_the_gms_liquid_ratios_count_what_a_drink_is_worth(kind: str, counted: int) -> None:
    g = Ide(params={"mode": "extended"})  # I-MEAL-19: the ratios of params.yaml, GM numbers
    g.add("a")
    g.do("morning")
    g.do("drink", at="12:00", characters=["a"], drinks=[{"kind": kind, "ml": 1000}])
    assert g.sv("a").liquid_today_ml == counted  # I-MEAL-18/19: useful liquid of 1 l
