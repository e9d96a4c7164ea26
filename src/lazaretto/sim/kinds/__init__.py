"""The scenario kinds: ``battle``, ``epidemic``, ``travel``, ``weekend``."""

from __future__ import annotations

from lazaretto.sim.kind import Kind
from lazaretto.sim.kinds import battle, epidemic, travel, weekend

KINDS: dict[str, Kind] = {
    "battle": battle.KIND,
    "epidemic": epidemic.KIND,
    "travel": travel.KIND,
    "weekend": weekend.KIND,
}


def kind_of(name: str) -> Kind:
    """The declaration of scenario kind ``name``."""
    return KINDS[name]
