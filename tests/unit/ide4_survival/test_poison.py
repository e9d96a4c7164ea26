"""Food and water poisoning (checklist-004 §2.5)."""

from __future__ import annotations

from typing import get_args

import pytest

from lazaretto.core.errors import InvalidInput, RuleViolation
from lazaretto.rulesets.ide4_survival.poison import Method, Source
from tests.unit.ide4_survival.conftest import Ide


def test_risk_check_outcome_treatment_and_never_a_disease(q: Ide) -> None:
    q.do(
        "poison-risk",
        at="08:00",
        characters=["a"],
        source="disease_in_food",
        difficulty=2,
        outcome="failure",
    )
    rec = q.last_check("a")
    assert rec.skill == "Immunity" and rec.purpose == "poison"  # I-POIS-01: risk → Immunity
    assert q.has("a", "poisoned")  # I-POIS-01: → outcome
    assert not q.st.cases  # I-POIS-01: not mixed with diseases (even "disease in food")
    q.do("treat-poisoning", at="09:00", character="a", method="antidote", outcome="success")
    assert not q.has("a", "poisoned")  # I-POIS-01: → treatment


def test_the_dangerous_things_one_may_eat_or_drink(q: Ide) -> None:
    assert set(get_args(Source)) == {  # I-POIS-02
        "spoiled_food",
        "dirty_water",
        "poison",
        "disease_in_food",
        "unfamiliar_mushrooms",
        "infected_meat",
        "alchemical",
    }
    for source in get_args(Source):
        q.do(
            "poison-risk",
            at="08:00",
            characters=["a"],
            source=source,
            difficulty=1,
            outcome="success",
        )
    assert len(q.checks("a")) == 7 and not q.has("a", "poisoned")  # I-POIS-02
    with pytest.raises(InvalidInput):
        q.do("poison-risk", at="08:00", characters=["a"], source="fresh_bread", difficulty=1)


def test_immunity_with_a_suitable_skill_or_without(q: Ide) -> None:
    q.do(
        "poison-risk",
        at="08:00",
        characters=["a"],
        source="unfamiliar_mushrooms",
        difficulty=2,
        skill="Herbalism",
        outcome="success",
    )
    q.do(
        "poison-risk",
        at="08:00",
        characters=["b"],
        source="unfamiliar_mushrooms",
        difficulty=2,
        outcome="success",
    )
    assert q.last_check("a").payload["skill"] == "Herbalism"  # I-POIS-03: Immunity + a skill
    assert q.last_check("b").payload["skill"] is None  # I-POIS-03: Immunity without a skill
    assert q.last_check("b").skill == "Immunity"  # I-POIS-03


def test_the_difficulty_follows_the_danger(q: Ide) -> None:
    q.do(
        "poison-risk",
        at="08:00",
        characters=["a"],
        source="poison",
        difficulty=4,
        outcome="success",
    )
    q.do(
        "poison-risk",
        at="08:00",
        characters=["b"],
        source="spoiled_food",
        difficulty=1,
        outcome="success",
    )
    assert (q.last_check("a").difficulty, q.last_check("b").difficulty) == (4, 1)  # I-POIS-04


@pytest.mark.parametrize(
    ("outcome", "poisoned", "escalation"),
    [
        ("triumph", False, False),
        ("success", False, False),
        ("medium", False, False),
        ("failure", True, False),
        ("tragedy", True, True),
    ],
)
def test_the_outcome_follows_the_default_map(
    q: Ide, outcome: str, poisoned: bool, escalation: bool
) -> None:
    evs = q.do(
        "poison-risk",
        at="08:00",
        characters=["a"],
        source="dirty_water",
        difficulty=3,
        outcome=outcome,
    )
    assert q.has("a", "poisoned") is poisoned  # I-POIS-05, A-I-12
    assert any(e.kind == "poison.escalation" for e in evs) is escalation  # I-POIS-05, A-I-12


def test_every_treatment_method_is_recorded(q: Ide) -> None:
    assert set(get_args(Method)) == {  # I-POIS-06
        "rest",
        "vomiting",
        "water",
        "sorbents",
        "antidote",
        "medicine",
        "magic_or_technology",
    }
    q.do(
        "poison-risk",
        at="08:00",
        characters=["a"],
        source="infected_meat",
        difficulty=2,
        outcome="failure",
    )
    q.do("treat-poisoning", at="08:30", character="a", method="rest", outcome="failure")
    assert q.has("a", "poisoned")  # I-POIS-06: a failed treatment check changes nothing
    q.do(
        "treat-poisoning", at="09:00", character="a", method="water", healer="b", outcome="success"
    )
    assert not q.has("a", "poisoned")  # I-POIS-06
    assert q.last_check("b").payload == {"patient": "a", "method": "water"}  # I-POIS-06


def test_extended_mode_keeps_the_old_point_rule() -> None:
    g = Ide(params={"mode": "extended", "meal_mode": "quick"})
    g.add("a")
    g.add("b")
    g.do(
        "poison-risk",
        at="08:00",
        characters=["a", "b"],
        source="alchemical",
        difficulty=2,
        outcome="failure",
        points=3,
    )
    assert g.sv("a").poison_points == 3
    g.to("10:00")
    assert g.sv("a").poison_points == 2  # I-POIS-07: −1 point per 2 game hours
    g.do("vomit", at="10:10", characters=["b"], acts=1)
    assert g.sv("b").poison_points == 2  # one act is not enough
    g.do("vomit", at="10:20", characters=["b"], acts=1)
    assert g.sv("b").poison_points == 1  # I-POIS-07: −1 point per 2 acts of vomiting
    g.to("14:00")
    assert not g.has("a", "poisoned")  # I-POIS-07: at 0 points it is over


def test_the_basic_game_needs_only_the_state_and_a_treatment_check(q: Ide) -> None:
    q.do(
        "poison-risk",
        at="08:00",
        characters=["a"],
        source="dirty_water",
        difficulty=2,
        outcome="failure",
    )
    assert q.sv("a").poison_points == 0  # I-POIS-08: no points in the basic game
    q.to("20:00")
    assert q.has("a", "poisoned")  # I-POIS-08: it does not wear off by itself
    with pytest.raises(RuleViolation) as err:
        q.do("vomit", at="20:10", characters=["a"])
    assert "I-POIS-08" in err.value.rule_ids
    q.do("treat-poisoning", at="20:30", character="a", method="vomiting", outcome="success")
    assert not q.has("a", "poisoned")  # I-POIS-08


def test_a_rerolled_poisoning_check_gives_the_lost_reroll_back(g: Ide) -> None:
    g.do("eat-meal", at="07:30", characters=["a"], bonus_food=True)
    g.do(
        "poison-risk",
        at="08:00",
        characters=["a"],
        source="dirty_water",
        difficulty=2,
        outcome="failure",
    )
    assert g.has("a", "poisoned") and len(g.sv("a").rerolls) == 1  # A-I-23: one meal reroll lost
    g.do("use-reroll", at="08:01", character="a", kind="meal", outcome="success")
    assert not g.has("a", "poisoned")  # A-I-01: the reroll undoes the poisoning
    assert len(g.sv("a").rerolls) == 1  # the lost one is back, the used one is gone
