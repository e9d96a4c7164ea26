"""Disease-creation laboratories, ЛСБ (checklist-000 §6.1–§6.5; A-W-30..32)."""

from __future__ import annotations

from datetime import datetime

import pytest

from lazaretto.core.engine import run_action
from lazaretto.core.errors import InvalidInput, RuleViolation
from tests.game import Game
from tests.unit.warhammer.diseases_kit import LETHAL_RECIPE, RECIPE, define, game, q

NEXT_DAY = datetime(2026, 6, 14, 9, 0)


def lab(**params: object) -> Game:
    g = game(**params)
    define(g)
    define(g, code="RP", lethal=True, minutes_to_death=60, recipe=LETHAL_RECIPE)
    g.act("register-lab", id="L1", name="Rat lab", owner="K")
    return g


def points(g: Game) -> int:
    return g.state.labs["L1"].points


def test_stickers_outbreaks_and_epidemics_are_made_in_a_lab() -> None:
    g = lab()
    g.act("make-stickers", at="09:00", lab="L1", disease="GF", components=RECIPE)
    g.act("make-certificate", lab="L1", kind="outbreak", disease="GF", holder="K", stickers=10)
    made = [s for s in g.state.stickers.values() if s.lab == "L1"]
    assert len(made) == 10 and made[0].history[0].what == "made"  # W-LAB-01
    cert = g.state.certificates["out-1"]
    assert (cert["lab"], cert["holder"], len(cert["stickers"])) == ("L1", "K", 10)  # W-LAB-01


def test_a_lab_must_be_fitted_out_as_an_alchemical_lab() -> None:
    g = game()
    with pytest.raises(RuleViolation) as err:
        g.act("register-lab", id="L2", name="Shed", equipped=False)
    assert err.value.rule_ids == ("W-LAB-02",)  # W-LAB-02
    props = {i.rule for i in g.rs.params.props_checklists["register-lab"]}  # type: ignore[attr-defined]
    assert props == {"W-LAB-02"}


def test_productivity_points_pay_for_everything_and_start_at_ten() -> None:
    g = lab()
    assert points(g) == 10 and g.state.labs["L1"].capacity == 10  # W-LAB-04
    g.act("make-certificate", at="09:00", lab="L1", kind="epidemic", disease="GF")
    assert points(g) == 2  # W-LAB-03, W-LAB-15
    with pytest.raises(RuleViolation) as err:
        g.act("make-certificate", lab="L1", kind="outbreak", disease="GF")
    assert "W-LAB-03" in err.value.rule_ids  # W-LAB-03: 4 > 2


def test_quests_come_three_at_a_time_at_random_and_may_repeat() -> None:
    g = lab()
    g.act("draw-lab-quests", lab="L1")
    quests = g.state.labs["L1"].quests
    assert [x.no for x in quests] == [1, 2, 3]  # W-LAB-06
    titles = {x.title for x in g.rs.params.lab_quests}  # type: ignore[attr-defined]
    assert {x.title for x in quests} <= titles
    drawn = next(e for e in g.events if e.kind == "lab.quests_drawn")
    assert len(drawn.dice) == 3  # W-LAB-06: random, rolled and recorded (repeats allowed)
    for seed in range(40):  # some seed repeats a quest within one draw
        other = Game(start="08:00")
        other.state.seed = seed
        other.act("register-lab", id="L1", name="Rat lab")
        other.act("draw-lab-quests", lab="L1")
        if len({x.title for x in other.state.labs["L1"].quests}) < 3:
            break
    else:
        pytest.fail("no repeated quest in 40 seeds")  # W-LAB-06: "могут повторяться"


def test_the_next_three_quests_only_after_all_are_done() -> None:
    g = lab()
    g.act("draw-lab-quests", lab="L1")
    g.act("complete-lab-quest", lab="L1", quest=1)
    g.act("complete-lab-quest", lab="L1", quest=2)
    with pytest.raises(RuleViolation) as err:
        g.act("draw-lab-quests", lab="L1")
    assert err.value.rule_ids == ("W-LAB-07",)  # W-LAB-07
    g.act("complete-lab-quest", lab="L1", quest=3)
    g.act("draw-lab-quests", lab="L1")
    assert g.state.labs["L1"].quest_rounds == 2


def test_a_quest_gives_one_or_two_points_usable_at_once() -> None:
    g = lab()
    g.act("draw-lab-quests", at="09:00", lab="L1")
    g.act("complete-lab-quest", lab="L1", quest=1, reward=2)
    assert points(g) == 12  # W-LAB-05, W-LAB-08: at once
    with pytest.raises(InvalidInput):
        g.act("complete-lab-quest", lab="L1", quest=2, reward=3)  # W-LAB-05: 1 or 2
    assert g.state.labs["L1"].capacity == 12  # W-LAB-08; A-W-30: written into the certificate


def test_points_come_back_every_day_and_unspent_ones_are_lost() -> None:
    g = lab()
    g.act("make-stickers", at="09:00", lab="L1", disease="GF", batches=8, components=RECIPE)
    g.act("draw-lab-quests", at="23:59", lab="L1")
    g.act("complete-lab-quest", at="23:59:30", lab="L1", quest=1, reward=1)
    assert points(g) == 3  # still the same game day
    evs = run_action(g.rs, g.state, "complete-lab-quest", {"lab": "L1", "quest": 2}, at=NEXT_DAY)
    restored = next(e for e in evs if e.kind == "lab.points_restored")
    # W-LAB-09: spent points are back; W-LAB-10: the 3 unspent were not carried over
    assert restored.payload["points"] == 11 and restored.payload["lost"] == 3
    assert restored.rule_ids[:2] == ("W-LAB-09", "W-LAB-10")


def test_quest_points_can_be_for_the_day_only() -> None:
    g = lab(lab_quest_points_permanent=False)
    g.act("draw-lab-quests", at="09:00", lab="L1")
    g.act("complete-lab-quest", lab="L1", quest=1, reward=2)
    assert points(g) == 12 and g.state.labs["L1"].capacity == 10  # A-W-30 alternative
    run_action(g.rs, g.state, "complete-lab-quest", {"lab": "L1", "quest": 2}, at=NEXT_DAY)
    assert g.state.labs["L1"].capacity == 10


def test_a_batch_costs_one_point_ten_non_lethal_or_five_lethal() -> None:
    g = lab()
    g.act("make-stickers", at="09:00", lab="L1", disease="GF", components=RECIPE)
    g.act("make-stickers", lab="L1", disease="RP", components=LETHAL_RECIPE)
    stock = q(g, "lab-status", lab="L1")["stock"]
    assert stock == {"GF": 10, "RP": 5} and points(g) == 8  # W-LAB-11
    batches = {s.batch for s in g.state.stickers.values()}
    assert batches == {"L1-B1", "L1-B2"}


def test_stickers_are_made_from_the_diseases_recipe_partly_by_sacrifices() -> None:
    g = lab()
    with pytest.raises(RuleViolation) as err:
        g.act("make-stickers", lab="L1", disease="GF", components=[*RECIPE[:4], "sugar"])
    assert "W-LAB-12" in err.value.rule_ids  # W-LAB-12: its own recipe
    g.act("make-stickers", lab="L1", disease="GF", components=RECIPE[:3], sacrifices=2)
    assert points(g) == 9  # W-LAB-12: components partly replaced by sacrifices
    with pytest.raises(RuleViolation):  # "partly": at least one real component (A-W-32)
        g.act("make-stickers", lab="L1", disease="GF", components=[], sacrifices=5)


def test_the_number_of_sacrifices_can_be_capped() -> None:
    g = lab(recipe_max_sacrifice_substitutions=1)
    with pytest.raises(RuleViolation) as err:
        g.act("make-stickers", lab="L1", disease="GF", components=RECIPE[:3], sacrifices=2)
    assert "A-W-32" in err.value.rule_ids  # A-W-32
    g.act("make-stickers", lab="L1", disease="GF", components=RECIPE[:4], sacrifices=1)


def test_an_outbreak_certificate_costs_four_and_carries_at_most_ten_stickers() -> None:
    g = lab()
    g.act("make-stickers", at="09:00", lab="L1", disease="GF", batches=2, components=RECIPE)
    g.act("make-certificate", lab="L1", kind="outbreak", disease="GF", holder="K")
    assert points(g) == 4  # W-LAB-13: 2 + 4 spent, no material resources needed
    with pytest.raises(RuleViolation) as err:
        g.act("attach-stickers", certificate="out-1", count=11)
    assert "W-LAB-14" in err.value.rule_ids  # W-LAB-14
    g.act("attach-stickers", certificate="out-1", count=10)
    assert len(g.state.certificates["out-1"]["stickers"]) == 10


def test_an_epidemic_certificate_costs_eight_and_needs_thirty_stickers() -> None:
    g = lab()
    g.act("make-certificate", at="09:00", lab="L1", kind="epidemic", disease="GF", holder="K")
    assert points(g) == 2  # W-LAB-15
    with pytest.raises(RuleViolation) as err:
        g.act("attach-stickers", certificate="epi-1", count=31, source="master")
    assert "W-LAB-16" in err.value.rule_ids  # W-LAB-16: 30 of one disease
    g.act("make-stickers", lab="L1", disease="GF", batches=2, components=RECIPE)
    g.act("attach-stickers", certificate="epi-1", count=20)
    assert {g.state.stickers[c].disease for c in g.state.certificates["epi-1"]["stickers"]} == {
        "GF"
    }


def test_an_unknown_recipe_is_found_by_experiment_after_a_test_on_a_patient() -> None:
    g = lab()
    with pytest.raises(RuleViolation) as err:
        g.act("start-recipe-experiment", lab="L1", disease="GF", subject="p0")
    assert err.value.rule_ids == ("W-LAB-18",)  # W-LAB-18: the subject must be ill with it
    g.act("infect", at="09:00", character="p0", disease="GF")
    with pytest.raises(RuleViolation):
        g.act("try-recipe", lab="L1", disease="GF", components=RECIPE)  # no test yet
    g.act("start-recipe-experiment", lab="L1", disease="GF", subject="p0", hint="it smells of ash")
    assert g.state.labs["L1"].experiments["GF"]["hint"] == "it smells of ash"  # W-LAB-19
    evs = g.act("try-recipe", lab="L1", disease="GF", components=[*RECIPE[:4], "sugar"])
    assert next(e for e in evs if e.kind == "lab.recipe_tried").payload["correct"] is False
    points = g.state.labs["L1"].points
    g.act("try-recipe", lab="L1", disease="GF", components=list(reversed(RECIPE)))
    assert g.state.labs["L1"].known_recipes["GF"]  # W-LAB-17: found
    assert g.state.labs["L1"].points == points  # W-LAB-17: a try costs no points (none named)


def test_a_recipe_has_any_components_five_to_eight_or_eight_to_ten() -> None:
    g = game()
    define(g, code="ODD", recipe=["moonlight", "a lie", "an old boot", "tears", "snow"])
    assert g.state.diseases["ODD"]["recipe"][1] == "a lie"  # W-LAB-20: any components
    with pytest.raises(RuleViolation) as err:
        define(g, code="SHORT", recipe=RECIPE[:4])
    assert err.value.rule_ids == ("W-LAB-21",)  # W-LAB-21: 5-8 for a non-lethal one
    with pytest.raises(RuleViolation) as err:
        define(g, code="LSHORT", lethal=True, minutes_to_death=30, recipe=RECIPE)
    assert err.value.rule_ids == ("W-LAB-21",)  # W-LAB-21: 8-10 for a lethal one
    define(g, code="L10", lethal=True, minutes_to_death=30, recipe=[*LETHAL_RECIPE, "x", "y"])


def test_a_recipe_may_have_eight_components_or_ten_if_lethal_but_not_more() -> None:
    g = game()
    define(g, code="N8", recipe=[*LETHAL_RECIPE])  # W-LAB-21: 8 is the most for a non-lethal
    with pytest.raises(RuleViolation) as err:
        define(g, code="N9", recipe=[*LETHAL_RECIPE, "x"])
    assert err.value.rule_ids == ("W-LAB-21",)  # W-LAB-21: 9 is too many
    with pytest.raises(RuleViolation) as err:
        define(
            g, code="L11", lethal=True, minutes_to_death=30, recipe=[*LETHAL_RECIPE, "x", "y", "z"]
        )
    assert err.value.rule_ids == ("W-LAB-21",)  # W-LAB-21: 11 is too many for a lethal one
