"""Exclusion from the game and sudden states: checklist-001 Z-DISC, Z-SUD, Z-CMB;
A-Z-30, A-Z-33."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import Forbidden, RuleViolation
from lazaretto.core.ruleset import Role
from tests.game import Game, t
from tests.unit.zone_larp.conftest import card, event, params, state_of, zone_game


def test_a_responsible_adult_may_exclude_a_player(g: Game) -> None:
    evs = g.act("exclude", at="19:00", character="C", reason="struck at the neck")
    assert "Z-DISC-01" in event(evs, "character.excluded").rule_ids  # Z-DISC-01
    assert params(g).exclusion_roles == ["master"]  # A-Z-33: an organiser role
    with pytest.raises(Forbidden) as err:
        g.act("exclude", character="D", reason="x", role=Role.HEALER)
    assert "A-Z-33" in err.value.rule_ids


def test_who_may_exclude_is_a_parameter() -> None:
    g = zone_game({"exclusion_roles": ["master", "healer"]})  # A-Z-33
    g.act("exclude", character="D", reason="x", role=Role.HEALER)
    assert state_of(g, "D") == "excluded"


def test_an_exclusion_is_final_and_cannot_be_appealed(g: Game) -> None:
    g.act("exclude", at="19:00", character="C", reason="discipline")
    with pytest.raises(RuleViolation) as err:
        g.act("appeal-exclusion", character="C")
    assert "Z-DISC-02" in err.value.rule_ids  # Z-DISC-02
    with pytest.raises(RuleViolation) as again:
        g.act("issue-charsheet", character="C")
    assert "Z-DISC-02" in again.value.rule_ids  # cannot be undone by a new sheet


def test_an_exclusion_is_the_characters_death_and_ends_their_game(g: Game) -> None:
    g.act("strike", at="18:55", character="C")
    g.act("exclude", at="19:00", character="C", reason="discipline")
    c = g.ch("C")
    assert not c.alive and state_of(g, "C") == "excluded"  # Z-DISC-03
    assert not g.state.timers_for("C") and card(g, "C")["allowed"] == []
    for action, kw in (
        ("strike", {"character": "C"}),
        ("kill", {"character": "C"}),
        ("interact", {"actor": "D", "target": "C"}),
    ):
        with pytest.raises(RuleViolation) as err:
            g.act(action, at="19:01", **kw)
        assert "Z-DISC-03" in err.value.rule_ids  # Z-DISC-03: no further part


def test_a_master_describes_a_sudden_state_that_takes_effect_at_once(g: Game) -> None:
    evs = g.act(
        "sudden-state",
        at="18:10",
        character="C",
        description="psychosis: hears voices",
        minutes=20,
    )
    declared = event(evs, "sudden_state.declared")
    assert {"Z-SUD-01", "Z-SUD-02"} <= set(declared.rule_ids)  # Z-SUD-01, Z-SUD-02
    cond = g.ch("C").condition("sudden_state")
    assert cond.started == t("18:10") and cond.data["description"].startswith("psychosis")
    assert cond.visibility.value == "owner"
    g.advance("18:30")
    assert not g.ch("C").has("sudden_state")  # A-Z-30: optional duration
    g.act("sudden-state", at="18:31", character="C", description="nervous breakdown")
    g.advance("23:00")
    assert g.ch("C").has("sudden_state")  # A-Z-30: no duration, until a master ends it
    with pytest.raises(Forbidden):
        g.act("sudden-state", character="D", description="x", role=Role.PLAYER)  # Z-SUD-01


def test_players_are_reminded_that_sudden_states_come_often(g: Game) -> None:
    rules = [p["rule"] for p in card(g, "C")["props"]]
    assert "Z-SUD-03" in rules  # Z-SUD-03 (props)
