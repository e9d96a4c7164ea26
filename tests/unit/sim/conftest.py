"""Small scenarios for the simulator tests (a few runs each, so the suite stays quick)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lazaretto.sim.files import validate_scenario
from lazaretto.sim.scenario import Scenario

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios"


def scenario(kind: str, **fields: Any) -> Scenario:
    """A validated scenario of ``kind`` with ``fields`` over the defaults."""
    return validate_scenario({"kind": kind, **fields}, source="test.yaml")


def small_battle(**fields: Any) -> Scenario:
    """12 wounded over 10 minutes, 2 field healers, 1 hospital: a run takes milliseconds."""
    spec: dict[str, Any] = {
        "wounded": 12,
        "window_minutes": 10,
        "horizon_minutes": 150,
        "field": {"healers": 2},
        "hospitals": {"count": 1, "tables": 1, "beds": 3, "healers": 1},
    }
    spec.update(fields)
    return scenario("battle", **spec)
