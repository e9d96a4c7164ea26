"""Sweeps: one scenario over a grid of parameter values, every point with its runs.

A sweep file names a base scenario (a file, or inline under ``base``) and the values to
vary, by dotted path into the scenario::

    scenario: battle.yaml
    runs: 40
    seed: 11
    vary:
      field.healers: [2, 4, 8]
      field.triage: [heavy_first, fifo]

Every combination (3 × 2 = 6 points, in the order written) is validated as a scenario
before anything runs. All the points' runs go to one executor — by default a Dask
cluster — and point ``i``'s run ``r`` always gets the same seed.
"""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError

from lazaretto.core.errors import DataFileError
from lazaretto.sim.files import read_yaml, validate_scenario
from lazaretto.sim.kinds import kind_of
from lazaretto.sim.runner import Backend, Progress, collect, execute, tasks_for
from lazaretto.sim.scenario import Scenario, Strict
from lazaretto.sim.summary import Summary, summarize

MAX_POINTS = 1000


class SweepSpec(Strict):
    """A sweep file."""

    name: str = Field("", max_length=200)
    scenario: str | None = Field(None, description="base scenario file, relative to this one")
    base: dict[str, Any] | None = Field(None, description="or the base scenario inline")
    runs: int | None = Field(None, ge=1, le=1_000_000, description="runs per point")
    seed: int | None = Field(None, ge=0, le=2**63 - 1)
    vary: dict[str, list[Any]] = Field(min_length=1, description="dotted path -> values")
    metrics: list[str] = Field(default_factory=list, description="columns of the table")


@dataclass(frozen=True)
class Point:
    """One combination of the varied values, as a validated scenario."""

    index: int
    values: dict[str, Any]
    scenario: Scenario

    @property
    def label(self) -> str:
        """``field.healers=2, field.triage=fifo``."""
        return ", ".join(f"{k}={v}" for k, v in self.values.items())


@dataclass(frozen=True)
class Sweep:
    """A loaded sweep: its spec, the points, and the defaults for runs and seed."""

    spec: SweepSpec
    points: list[Point]
    runs: int
    seed: int

    @property
    def metrics(self) -> list[str]:
        """The metrics shown per point (default: the headline and every share)."""
        if self.spec.metrics:
            return self.spec.metrics
        kind = kind_of(self.points[0].scenario.kind)
        shares = [m.name for m in kind.table if m.share is not None]
        return [kind.headline, *[m for m in shares if m != kind.headline]]


def _set(data: dict[str, Any], path: str, value: Any) -> None:
    keys = path.split(".")
    node = data
    for k in keys[:-1]:
        child = node.get(k)
        if child is None:
            child = node[k] = {}
        if not isinstance(child, dict):
            raise KeyError(k)
        node = child
    node[keys[-1]] = value


def load_sweep(path: Path) -> Sweep:
    """Read a sweep file and validate every point."""
    source = str(path)
    raw = read_yaml(path)
    try:
        spec = SweepSpec.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(map(str, err["loc"])) or "(top level)"
        raise DataFileError(source, where, err["msg"]) from exc
    if (spec.scenario is None) == (spec.base is None):
        raise DataFileError(source, "scenario", "give either 'scenario' (a file) or 'base'")
    if spec.scenario is not None:
        base_path = path.parent / spec.scenario
        base, base_source = read_yaml(base_path), str(base_path)
    else:
        base, base_source = spec.base, f"{source} (base)"
    base_scenario = validate_scenario(base, source=base_source)
    combos = list(itertools.product(*spec.vary.values()))
    if len(combos) > MAX_POINTS:
        raise DataFileError(source, "vary", f"{len(combos)} points; at most {MAX_POINTS}")
    points = []
    for i, combo in enumerate(combos):
        values = dict(zip(spec.vary, combo, strict=True))
        data = copy.deepcopy(base)
        for key, value in values.items():
            try:
                _set(data, key, value)
            except KeyError as exc:
                problem = f"{exc.args[0]!r} is not a section"
                raise DataFileError(source, f"vary.{key}", problem) from exc
        label = ", ".join(f"{k}={v}" for k, v in values.items())
        points.append(Point(i, values, validate_scenario(data, source=f"{source} [{label}]")))
    kind = kind_of(base_scenario.kind)
    for name in spec.metrics:
        if name not in {m.name for m in kind.table}:
            known = ", ".join(m.name for m in kind.table)
            raise DataFileError(source, "metrics", f"no metric {name!r}; known: {known}")
    return Sweep(
        spec,
        points,
        spec.runs if spec.runs is not None else base_scenario.runs,
        spec.seed if spec.seed is not None else base_scenario.seed,
    )


def count_parts(sweep: Sweep, runs: int) -> int:
    """How many parts the whole sweep simulates (for a progress bar)."""
    return sum(kind_of(p.scenario.kind).parts(p.scenario) * runs for p in sweep.points)


def run_sweep(
    sweep: Sweep,
    *,
    runs: int | None = None,
    seed: int | None = None,
    backend: Backend | None = None,
    progress: Progress | None = None,
    level: float = 0.95,
) -> list[Summary]:
    """Every point's summary, in point order."""
    runs = sweep.runs if runs is None else runs
    master = sweep.seed if seed is None else seed
    tasks = {p.index: tasks_for(p.scenario, runs, master, p.index) for p in sweep.points}
    scenarios = {p.index: p.scenario for p in sweep.points}
    everything = [t for ts in tasks.values() for t in ts]
    tallies = execute(scenarios, everything, backend or Backend(dask=True), progress)
    return [
        summarize(p.scenario, collect(p.scenario, tasks[p.index], tallies), master, level)
        for p in sweep.points
    ]
