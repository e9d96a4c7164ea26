"""What one simulated part counted, and how parts add up to one run.

A run of most scenarios is one part; a weekend's run is one part per location. Parts
add up: counts are summed, curves are summed point by point; each scenario kind then
turns the run's tally into its metrics (a share, a mean wait...).
"""

from __future__ import annotations

from pydantic import BaseModel, Field


class Tally(BaseModel):
    """Raw counts and curves of one part (or of a whole run, once merged)."""

    counts: dict[str, float] = Field(default_factory=dict)
    series: dict[str, list[float]] = Field(default_factory=dict)
    refused: dict[str, int] = Field(default_factory=dict)
    events: int = 0

    def add(self, name: str, amount: float = 1.0) -> None:
        """Add ``amount`` to the count ``name``."""
        self.counts[name] = self.counts.get(name, 0.0) + amount

    def get(self, name: str) -> float:
        """The count ``name`` (0 if never counted)."""
        return self.counts.get(name, 0.0)


def merge(tallies: list[Tally]) -> Tally:
    """The sum of the parts of one run."""
    out = Tally()
    for t in tallies:
        for k, v in t.counts.items():
            out.add(k, v)
        for k, curve in t.series.items():
            have = out.series.setdefault(k, [0.0] * len(curve))
            out.series[k] = [a + b for a, b in zip(have, curve, strict=True)]
        for k, n in t.refused.items():
            out.refused[k] = out.refused.get(k, 0) + n
        out.events += t.events
    return out


class RunResult(BaseModel):
    """One replicate run: its seed, its metrics and its curves (JSON-able)."""

    index: int
    seed: int
    metrics: dict[str, float]
    series: dict[str, list[float]]
    refused: dict[str, int] = Field(default_factory=dict)
    events: int = 0
