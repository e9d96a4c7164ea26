"""From replicate runs to estimates: means and confidence intervals, pooled shares, bands.

* every metric: its mean over runs with a Student t interval;
* a share metric (deaths among the wounded): also pooled over all runs, with a Wilson
  interval on the total counts — the estimate of the underlying probability when the
  trials are independent (one wounded's fate does not change another's), as in the
  exact-odds checks; otherwise the interval over runs is the one to trust;
* every curve: its mean at each time point with a t interval (a band).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lazaretto.sim.kind import Kind
from lazaretto.sim.kinds import kind_of
from lazaretto.sim.scenario import Scenario
from lazaretto.sim.stats import Estimate, mean_ci, proportion_ci
from lazaretto.sim.tally import RunResult


@dataclass(frozen=True)
class Band:
    """A curve's mean and interval at each time point."""

    mean: list[float]
    low: list[float]
    high: list[float]


@dataclass
class Summary:
    """The estimates of one scenario (or one sweep point) from its runs."""

    scenario: Scenario
    runs: list[RunResult]
    seed: int
    level: float = 0.95
    metrics: dict[str, Estimate] = field(default_factory=dict)
    shares: dict[str, Estimate] = field(default_factory=dict)
    series: dict[str, Band] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)

    @property
    def kind(self) -> Kind:
        """The scenario kind's declaration."""
        return kind_of(self.scenario.kind)

    @property
    def step(self) -> int:
        """Minutes between two points of a curve."""
        return self.scenario.sample_minutes

    def values(self, metric: str) -> list[float]:
        """``metric`` in every run, in run order."""
        return [r.metrics[metric] for r in self.runs]

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        """Everything, JSON-able, labels in ``lang``."""
        kind = self.kind
        tr = 1 if lang == "ru" else 0
        return {
            "scenario": {
                "kind": self.scenario.kind,
                "name": self.scenario.name,
                "description": kind.describe(self.scenario, lang),
            },
            "runs": len(self.runs),
            "seed": self.seed,
            "level": self.level,
            "metrics": {
                m.name: {"label": (m.en, m.ru)[tr], **self.metrics[m.name].to_dict()}
                for m in kind.table
            },
            "shares": {
                name: {"label": (kind.metric(name).en, kind.metric(name).ru)[tr], **e.to_dict()}
                for name, e in self.shares.items()
            },
            "series": {
                "step_minutes": self.step,
                **{
                    name: {
                        "label": kind.series[name][tr],
                        "mean": band.mean,
                        "low": [_null(x) for x in band.low],
                        "high": [_null(x) for x in band.high],
                    }
                    for name, band in self.series.items()
                },
            },
            "policy": [p[tr] for p in kind.policy],
            "refused": self.refused,
            "per_run": [
                {
                    "index": r.index,
                    "seed": r.seed,
                    "metrics": {k: _null(v) for k, v in r.metrics.items()},
                }
                for r in self.runs
            ],
        }


def _null(x: float) -> float | None:
    return None if x != x else x  # NaN -> null


def summarize(scenario: Scenario, runs: list[RunResult], seed: int, level: float = 0.95) -> Summary:
    """The estimates of ``scenario`` from its ``runs``."""
    kind = kind_of(scenario.kind)
    out = Summary(scenario, runs, seed, level)
    for m in kind.table:
        out.metrics[m.name] = mean_ci([r.metrics[m.name] for r in runs], level)
        if m.share is not None:
            num, den = m.share
            k = sum(r.metrics[num] for r in runs)
            n = sum(r.metrics[den] for r in runs)
            out.shares[m.name] = proportion_ci(k, n, level)
    for name in kind.series:
        curves = [r.series[name] for r in runs if name in r.series]
        if not curves:
            continue
        points = [mean_ci([c[i] for c in curves], level) for i in range(len(curves[0]))]
        out.series[name] = Band(
            [p.mean for p in points], [p.low for p in points], [p.high for p in points]
        )
    for r in runs:
        for action, n in r.refused.items():
            out.refused[action] = out.refused.get(action, 0) + n
    return out
