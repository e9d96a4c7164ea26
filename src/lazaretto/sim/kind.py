"""What each scenario kind declares: how to simulate a part, its metrics, curves and policy.

The runner, the report and the plots are generic; a kind tells them which numbers it
produces and how to name them in English and Russian.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lazaretto.sim.tally import Tally


@dataclass(frozen=True)
class Metric:
    """One number per run, e.g. deaths.

    Attributes:
        share: ``(numerator, denominator)`` metric names when this metric is a share of
            events; the summary then also pools the runs for an exact-count interval.
    """

    name: str
    en: str
    ru: str
    share: tuple[str, str] | None = None


@dataclass(frozen=True)
class Kind:
    """A scenario kind: the simulation of one part and the words around its numbers."""

    simulate: Callable[[Any, int, int], Tally]
    parts: Callable[[Any], int]
    metrics: Callable[[Any, Tally], dict[str, float]]
    table: tuple[Metric, ...]
    series: dict[str, tuple[str, str]]
    headline: str
    curves: tuple[str, ...]
    policy: tuple[tuple[str, str], ...]
    describe: Callable[[Any, str], str]

    def metric(self, name: str) -> Metric:
        """The declared metric ``name``."""
        return next(m for m in self.table if m.name == name)


def ratio(num: float, den: float) -> float:
    """``num / den``, NaN when there is nothing to divide by (no data, not zero)."""
    return num / den if den else math.nan


def peak(curve: list[float]) -> float:
    """The highest point of a curve (0 for an empty one)."""
    return max(curve, default=0.0)


def one_part(_scenario: Any) -> int:
    """Most scenarios run as one part."""
    return 1
