"""Light wounds (лёгкое ранение): checklist-001 Z-LW; A-Z-05, A-Z-06, A-Z-23, A-Z-24."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import RuleViolation
from tests.game import Game, t
from tests.unit.zone_larp.conftest import card, event, may, state_of, why, zone_game


@pytest.mark.parametrize("source", ["shot", "melee", "mutant_touch"])
def test_a_single_hit_by_shot_blade_or_mutant_is_a_light_wound(g: Game, source: str) -> None:
    evs = g.act("strike", at="12:00", character="C", source=source)
    assert "Z-LW-02" in event(evs, "wound.hits_lost").rule_ids  # Z-LW-02: force on the body
    light = event(evs, "wound.light_started")
    assert "Z-LW-03" in light.rule_ids  # Z-LW-03: from a single hit
    assert "Z-LW-01" in light.rule_ids and state_of(g, "C") == "light"  # Z-LW-01


def test_a_light_wounded_player_lies_or_sits_and_cannot_move(g: Game) -> None:
    g.act("strike", at="12:00", character="C")
    assert card(g, "C")["posture"] == "lying_or_sitting"  # Z-LW-04, A-Z-24: lying or sitting
    for act in ("walk", "run", "crawl", "stand_up"):
        assert not may(g, "C", act)  # Z-LW-05: stays where hit, cannot move alone
    assert "Z-LW-05" in why(g, "C", "walk") and "Z-LW-04" in why(g, "C", "stand_up")
    rules = [p["rule"] for p in card(g, "C")["props"]]
    assert "Z-LW-04" in rules and "Z-LW-14" in rules  # Z-LW-14: roleplay it (props)


def test_a_second_hit_turns_a_light_wound_heavy(g: Game) -> None:
    g.add("T", hits=4)
    g.act("strike", at="12:00", character="T")
    evs = g.act("strike", at="12:05", character="T")
    heavy = event(evs, "wound.became_heavy")
    assert "Z-LW-06" in heavy.rule_ids and heavy.payload["source"] == "second_hit"  # Z-LW-06
    assert g.ch("T").hits == 0 and state_of(g, "T") == "heavy_waiting"


def test_a_light_wounded_player_may_use_melee_and_radio_but_nothing_else(g: Game) -> None:
    g.act("strike", at="12:00", character="C")
    assert may(g, "C", "melee")  # Z-LW-07: melee weapons from sitting or lying
    assert may(g, "C", "radio")  # Z-LW-08 exception: the radio; A-Z-23
    assert may(g, "C", "first_aid_kit")  # A-Z-23: the kit (L50)
    for act in ("shoot", "other_items"):
        assert not may(g, "C", act)  # Z-LW-08: no other game items
    assert "Z-LW-08" in why(g, "C", "other_items")


def test_a_light_wounded_player_may_not_commit_suicide(g: Game) -> None:
    g.act("strike", at="12:00", character="C")
    assert not may(g, "C", "suicide") and why(g, "C", "suicide") == ["Z-LW-09"]  # Z-LW-09
    g.act("apply-kit", at="12:01", character="C")
    assert not may(g, "C", "suicide")  # Z-LW-09: still light-wounded after the kit


def test_a_light_wound_allows_ten_minutes_for_a_first_aid_kit(g: Game) -> None:
    g.act("strike", at="12:00", character="C")
    assert g.ch("C").condition("light_wound").deadline == t("12:10")  # Z-LW-10
    g.act("apply-kit", at="12:09:59", character="C")
    g.advance("13:00")
    assert state_of(g, "C") == "light_kit"  # Z-LW-10: the kit in time holds


def test_with_a_kit_the_player_may_return_to_combat_but_not_run(g: Game) -> None:
    g.act("strike", at="12:00", character="C")
    evs = g.act("apply-kit", at="12:09", character="C")
    assert "Z-LW-11" in event(evs, "wound.kit_applied").rule_ids
    for act in ("walk", "melee", "shoot", "other_items"):
        assert may(g, "C", act)  # Z-LW-11: back in the fight
    assert not may(g, "C", "run")  # A-Z-05: still cannot run (L19)


def test_after_a_kit_the_player_roleplays_the_wound_until_treatment(g: Game) -> None:
    g.act("strike", at="12:00", character="C")
    g.act("apply-kit", at="12:02", character="C")
    assert [p["rule"] for p in card(g, "C")["props"]][-1] == "Z-LW-12"  # Z-LW-12
    g.advance("18:00")
    assert g.ch("C").hits == 1  # Z-LW-12, Z-TRT-02: hits only come back with medical help
    g.act("treat-wounds", at="18:00", healer="H", patient="C")
    g.advance("18:15")
    assert state_of(g, "C") == "healthy"  # the medical intervention ends it (A-Z-06)


def test_after_a_kit_running_is_a_parameter() -> None:
    g = zone_game({"light_after_kit_can_run": True})  # A-Z-05 alternative
    g.act("strike", at="12:00", character="C")
    g.act("apply-kit", at="12:01", character="C")
    assert may(g, "C", "run")


def test_without_a_kit_a_light_wound_turns_heavy_after_ten_minutes(g: Game) -> None:
    g.act("strike", at="12:00", character="C")
    g.advance("12:09:59")
    assert state_of(g, "C") == "light"
    evs = g.advance("12:10")
    heavy = event(evs, "wound.became_heavy")
    assert "Z-LW-13" in heavy.rule_ids and heavy.payload["source"] == "no_kit"  # Z-LW-13
    assert state_of(g, "C") == "heavy_waiting" and g.ch("C").hits == 0


def test_a_kit_logged_at_the_deadline_second_is_too_late(g: Game) -> None:
    g.act("strike", at="12:00", character="C")
    with pytest.raises(RuleViolation) as err:
        g.act("apply-kit", at="12:10", character="C")
    assert "A-Z-06" in err.value.rule_ids  # A-Z-06: kit_boundary_inclusive = false
    assert state_of(g, "C") == "heavy_waiting"


def test_an_inclusive_boundary_lets_a_kit_at_the_deadline_count() -> None:
    g = zone_game({"timer_boundary_inclusive": True})  # A-Z-06 alternative
    g.act("strike", at="12:00", character="C")
    g.act("apply-kit", at="12:10", character="C")
    assert state_of(g, "C") == "light_kit"


def test_the_kit_window_is_a_parameter() -> None:
    g = zone_game({"light_kit_window_minutes": 5})  # A-Z-06
    g.act("strike", at="12:00", character="C")
    g.advance("12:05")
    assert state_of(g, "C") == "heavy_waiting"


def test_a_kit_helps_only_a_light_wound(g: Game) -> None:
    with pytest.raises(RuleViolation):
        g.act("apply-kit", at="12:00", character="C")  # Z-LW-10: no wound
    g.act("strike", at="12:00", character="C", weapon="red_ribbon")
    with pytest.raises(RuleViolation) as err:
        g.act("apply-kit", at="12:01", character="C")
    assert "Z-LW-13" in err.value.rule_ids


def test_a_healer_treating_a_light_wound_stops_the_kit_countdown(g: Game) -> None:
    g.act("strike", at="12:00", character="C")
    g.act("treat-wounds", at="12:05", healer="H", patient="C")
    assert not g.state.timers_for("C", "kit_window_expires")  # A-Z-06: medical intervention
    g.act("get-up", at="12:12", patient="C")
    assert state_of(g, "C") == "light_kit"  # not healed, but no longer counting down
