"""Dodge and Equal Exchange (checklist-003 §2.5: D-DEF-01..04; A-D-10, A-D-11;
worked examples E-D-09, E-D-10)."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import RuleViolation
from tests.game import Game
from tests.unit.dnd5e_injuries.conftest import game, injuries, last_injury, payloads, pc, pending


def crit(g: Game, damage: int = 10, damage_type: str = "slashing") -> None:
    g.act("take-damage", character="a", damage=damage, damage_type=damage_type, critical=True)


# --- Dodge (E-D-10) ----------------------------------------------------------------------


def test_e_d_10_dodge_avoids_the_injury_but_not_the_damage(g: Game) -> None:
    crit(g, 12)
    g.act("dodge", character="a")
    assert pending(g, "a") is None and not injuries(g, "a")  # D-DEF-01: no injury at all
    assert g.ch("a").hits == 28  # A-D-10: the damage still applies
    assert g.ch("a").has("reaction_spent")  # A-D-10: it costs the reaction
    assert payloads(g, "injury.dodged")
    with pytest.raises(RuleViolation) as nothing:
        g.act("roll-injury", character="a")
    assert "D-COND-05" in nothing.value.rule_ids  # nothing left to roll


def test_e_d_10_a_second_dodge_in_the_same_round_is_refused(g: Game) -> None:
    crit(g)
    g.act("dodge", character="a")
    crit(g)
    with pytest.raises(RuleViolation) as err:
        g.act("dodge", character="a")
    assert "A-D-10" in err.value.rule_ids  # the reaction is spent
    assert pending(g, "a") is not None
    g.act("start-turn", character="a")  # the reaction comes back on the creature's turn
    g.act("dodge", character="a")
    assert pending(g, "a") is None  # D-DEF-01


def test_e_d_10_dodge_against_a_death_save_injury_is_refused(g: Game) -> None:
    g.act("take-damage", character="a", damage=40, damage_type="fire")
    g.act("roll-injury", character="a", location_roll=4)
    g.act("death-save", character="a", natural=1)
    with pytest.raises(RuleViolation) as err:
        g.act("dodge", character="a")
    assert {"D-DEF-01", "A-D-10"} <= set(err.value.rule_ids)  # only "from an attack"
    g.act("fail-save", character="a", effect="Ice Storm", harmful=True, damage_type="cold")
    with pytest.raises(RuleViolation):  # nor a failed save
        g.act("dodge", character="a")


def test_a_d_10_alternative_dodge_against_any_injury() -> None:
    g = game(dodge_applies_to="any")
    pc(g, "a")
    g.act(
        "fail-save", character="a", effect="Ice Storm", harmful=True, damage=4, damage_type="cold"
    )
    g.act("dodge", character="a")
    assert pending(g, "a") is None  # D-DEF-01 with A-D-10 "any"


def test_a_d_10_alternative_dodge_costs_nothing() -> None:
    g = game(dodge_cost="none")
    pc(g, "a", hp=100)
    for _ in range(3):
        crit(g)
        g.act("dodge", character="a")  # D-DEF-01, A-D-10: no reaction needed
    assert not g.ch("a").has("reaction_spent") and not injuries(g, "a")


def test_a_d_10_alternative_dodge_needs_a_roll() -> None:
    g = game(dodge_requires_roll=True)
    pc(g, "a", hp=100)
    crit(g)
    with pytest.raises(RuleViolation) as err:
        g.act("dodge", character="a")
    assert "A-D-10" in err.value.rule_ids
    g.act("dodge", character="a", success=False)
    assert pending(g, "a") is not None and payloads(g, "dodge.failed")  # still injured
    g.act("start-turn", character="a")
    evs = g.act("dodge", character="a", roll="1d20 + 30 >= 10")
    assert any(e.dice for e in evs)  # the roll is recorded
    assert pending(g, "a") is None  # D-DEF-01


def test_dodge_with_nothing_pending_is_refused(g: Game) -> None:
    with pytest.raises(RuleViolation) as err:
        g.act("dodge", character="a")
    assert "D-DEF-01" in err.value.rule_ids


# --- Equal Exchange (E-D-09) -------------------------------------------------------------------


def test_e_d_09_equal_exchange_moves_the_blow_and_softens_a_heavy_injury(g: Game) -> None:
    crit(g, 40)  # 40 >= 2 x 19: heavy
    g.act("equal-exchange", character="a", location="legs", side="left")
    evs = g.act("roll-injury", character="a")
    assert not [e for e in evs if e.kind == "injury.located"]  # no 1d4: the part is chosen
    rec = last_injury(g, "a")
    assert (rec["location"], rec["side"]) == ("legs", "left")  # D-DEF-04: guaranteed
    assert (rec["severity_rolled"], rec["severity"]) == ("heavy", "medium")  # D-DEF-03
    assert rec["row"] == "D-TAB-35" and rec["name_ru"] == "Артерия"  # not D-TAB-36
    received = next(e for e in evs if e.kind == "injury.received")
    assert {"D-DEF-03", "D-DEF-04", "A-D-11"} <= set(received.rule_ids)


def test_e_d_09_equal_exchange_after_the_result_is_announced_is_refused(g: Game) -> None:
    crit(g, 40)
    g.act("roll-injury", character="a", location_roll=3)
    with pytest.raises(RuleViolation) as err:
        g.act("equal-exchange", character="a", location="arms")
    assert "D-DEF-02" in err.value.rule_ids  # before the result is announced, not after


def test_equal_exchange_after_the_location_was_rolled_is_too_late(g: Game) -> None:
    crit(g, 40, "necrotic")
    g.act("roll-injury", character="a", location_roll=4)  # asks the GM for a sub-table
    with pytest.raises(RuleViolation) as err:
        g.act("equal-exchange", character="a", location="arms")
    assert "D-DEF-02" in err.value.rule_ids


@pytest.mark.parametrize(("damage", "severity"), [(10, "light"), (20, "medium")])
def test_equal_exchange_leaves_light_and_medium_injuries_as_they_are(
    damage: int, severity: str
) -> None:
    g = game()
    pc(g, "a")
    crit(g, damage)
    g.act("equal-exchange", character="a", location="torso")
    g.act("roll-injury", character="a")
    assert last_injury(g, "a")["severity"] == severity  # D-DEF-03, A-D-11: heavy only
    assert last_injury(g, "a")["location"] == "torso"  # D-DEF-04


def test_a_d_11_alternative_equal_exchange_without_softening() -> None:
    g = game(equal_exchange_severity_effect="none")
    pc(g, "a")
    crit(g, 40)
    g.act("equal-exchange", character="a", location="legs")
    g.act("roll-injury", character="a")
    assert last_injury(g, "a")["row"] == "D-TAB-36"  # A-D-11 "none": still heavy


def test_a_d_11_alternative_the_gm_sets_the_exchanged_severity() -> None:
    g = game(equal_exchange_severity_effect="gm")
    pc(g, "a")
    crit(g, 40)
    g.act("equal-exchange", character="a", location="legs")
    with pytest.raises(RuleViolation):
        g.act("roll-injury", character="a")  # A-D-11 "gm": needs --severity
    g.act("roll-injury", character="a", severity="light")
    assert last_injury(g, "a")["row"] == "D-TAB-34"


def test_a_d_11_the_choices_are_a_parameter_limbs_only() -> None:
    g = game(equal_exchange_choices=["arms", "legs"])
    pc(g, "a")
    crit(g)
    with pytest.raises(RuleViolation) as err:
        g.act("equal-exchange", character="a", location="head")
    assert {"D-DEF-02", "A-D-11"} <= set(err.value.rule_ids)  # "конечность": a limb
    g.act("equal-exchange", character="a", location="arms")


def test_equal_exchange_and_dodge_exclude_each_other(g: Game) -> None:
    crit(g)
    g.act("equal-exchange", character="a", location="arms")
    with pytest.raises(RuleViolation) as err:
        g.act("dodge", character="a")
    assert "A-D-11" in err.value.rule_ids
    with pytest.raises(RuleViolation):  # and only once
        g.act("equal-exchange", character="a", location="legs")
    crit(g)
    g.act("roll-injury", character="a")
    g.act("dodge", character="a")  # the second injury: dodged
    with pytest.raises(RuleViolation) as late:
        g.act("equal-exchange", character="a", location="legs")
    assert "D-DEF-02" in late.value.rule_ids
    assert len(injuries(g, "a")) == 1
    assert g.replayed() == g.state
