"""The wound model and its alternatives (A-Z-01): unified, hits_only, light_heavy_only."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import RuleViolation
from tests.game import Game
from tests.unit.zone_larp.conftest import may, params, state_of, zone_game


def test_the_unified_model_offers_both_routes(g: Game) -> None:
    assert params(g).wound_model == "unified"  # A-Z-01
    g.act("strike", at="12:00", character="C")
    g.act("apply-kit", at="12:01", character="C")  # Model B: a kit
    g.act("treat-wounds", at="12:02", healer="H", patient="C")  # Model A: a healer
    g.advance("12:17")
    assert state_of(g, "C") == "healthy"


def test_hits_only_has_no_kit_countdown_no_second_hit_rule_and_no_kits() -> None:
    g = zone_game({"wound_model": "hits_only"})  # A-Z-01 alternative (L16-L31)
    g.add("T", hits=3)
    g.act("strike", at="12:00", character="T")
    assert state_of(g, "T") == "wounded" and not g.state.timers_for("T")
    assert not may(g, "T", "run") and may(g, "T", "walk")  # L19 only: cannot run
    g.advance("13:00")
    assert state_of(g, "T") == "wounded"
    g.act("strike", at="13:00", character="T")
    assert state_of(g, "T") == "wounded" and g.ch("T").hits == 1  # no second-hit rule
    with pytest.raises(RuleViolation) as err:
        g.act("apply-kit", at="13:01", character="T")
    assert err.value.rule_ids == ("A-Z-01",)
    g.act("strike", at="13:02", character="T")
    assert state_of(g, "T") == "dying" and not g.state.timers_for("T", "heavy_wait_over")
    with pytest.raises(RuleViolation):
        g.act("arrive-hospital", at="13:03", patient="T")  # no Hospital for wounds
    g.act("start-operation", at="13:05", healer="H", patient="T", measure="ordinary")


def test_light_heavy_only_counts_hits_taken_and_has_no_healer_treatment() -> None:
    g = zone_game({"wound_model": "light_heavy_only"})  # A-Z-01 alternative (L34-L55)
    g.add("T", hits=5)
    g.act("strike", at="12:00", character="T", weapon="red_ribbon")
    assert state_of(g, "T") == "heavy_waiting"  # two hits at once, whatever the hits
    g.act("strike", at="12:00", character="C")
    with pytest.raises(RuleViolation) as err:
        g.act("treat-wounds", at="12:01", healer="H", patient="C")
    assert "A-Z-01" in err.value.rule_ids
    with pytest.raises(RuleViolation):
        g.act("start-operation", at="12:01", healer="H", patient="T", measure="ordinary")
    g.act("apply-kit", at="12:02", character="C")
