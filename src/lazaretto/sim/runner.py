"""Running replicate runs: serially, in a process pool, or on a Dask cluster.

The unit of work is one *part* of one run of one sweep point, with its own seed
(:mod:`lazaretto.sim.seeds`). Parts are grouped into chunks for the workers; the
results are put back in order and merged per run, so the outcome does not depend on
the backend, the number of workers or the order the chunks finish in.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from lazaretto.sim.kinds import kind_of
from lazaretto.sim.scenario import Scenario
from lazaretto.sim.seeds import part_seed, run_seed
from lazaretto.sim.tally import RunResult, Tally, merge

Progress = Callable[[int], None]
"""Called with the number of parts just finished."""


@dataclass(frozen=True)
class Backend:
    """Where the work runs.

    Attributes:
        workers: processes (1 = in this process); for Dask, the local cluster's workers.
        dask: run on Dask — a local cluster, or the one at ``scheduler``.
        scheduler: the address of an existing Dask scheduler (``tcp://host:8786``).
    """

    workers: int = 1
    dask: bool = False
    scheduler: str | None = None


@dataclass(frozen=True)
class Task:
    """One part of one run of one point."""

    point: int
    run: int
    part: int
    seed: int
    run_seed: int


def machine_cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def tasks_for(scenario: Scenario, runs: int, master: int, point: int = 0) -> list[Task]:
    """Every part of every run, with its seed."""
    parts = kind_of(scenario.kind).parts(scenario)
    out = []
    for r in range(runs):
        rs = run_seed(master, r, point)
        out += [Task(point, r, p, part_seed(rs, p), rs) for p in range(parts)]
    return out


def run_chunk(scenarios: dict[int, Scenario], chunk: list[Task]) -> list[tuple[Task, Tally]]:
    """Simulate a chunk of parts (in a worker)."""
    out = []
    for t in chunk:
        s = scenarios[t.point]
        out.append((t, kind_of(s.kind).simulate(s, t.seed, t.part)))
    return out


def _chunks(tasks: list[Task], workers: int) -> list[list[Task]]:
    size = max(1, min(64, len(tasks) // (workers * 8) or 1))
    return [tasks[i : i + size] for i in range(0, len(tasks), size)]


def execute(
    scenarios: dict[int, Scenario],
    tasks: list[Task],
    backend: Backend,
    progress: Progress | None = None,
) -> dict[Task, Tally]:
    """Run ``tasks`` on ``backend``; the tallies by task."""
    tick = progress or (lambda n: None)
    results: dict[Task, Tally] = {}
    if backend.dask:
        for t, tally in _on_dask(scenarios, tasks, backend, tick):
            results[t] = tally
    elif backend.workers <= 1:
        for task in tasks:
            [(t, tally)] = run_chunk(scenarios, [task])
            results[t] = tally
            tick(1)
    else:
        with ProcessPoolExecutor(max_workers=backend.workers) as pool:
            futures = [
                pool.submit(run_chunk, scenarios, c) for c in _chunks(tasks, backend.workers)
            ]
            for f in as_completed(futures):
                done = f.result()
                for t, tally in done:
                    results[t] = tally
                tick(len(done))
    return results


def _on_dask(
    scenarios: dict[int, Scenario], tasks: list[Task], backend: Backend, tick: Progress
) -> Iterable[tuple[Task, Tally]]:
    import distributed

    from lazaretto.core.errors import InvalidInput

    dask: Any = distributed  # untyped library: its calls are checked at run time

    cluster = None
    try:
        if backend.scheduler:
            client = dask.Client(backend.scheduler, timeout="10s")
        else:
            cluster = dask.LocalCluster(
                n_workers=max(1, backend.workers),
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
            client = dask.Client(cluster)
    except OSError as exc:
        raise InvalidInput(
            f"Cannot reach the Dask scheduler {backend.scheduler}: {exc}",
            ru=f"Не удалось подключиться к планировщику Dask {backend.scheduler}: {exc}",
        ) from exc
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        shared = client.scatter(scenarios, broadcast=True)
        futures = [client.submit(run_chunk, shared, c, pure=False) for c in _chunks(tasks, workers)]
        for f in dask.as_completed(futures):
            done: list[tuple[Task, Tally]] = f.result()
            yield from done
            tick(len(done))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def collect(scenario: Scenario, tasks: list[Task], tallies: dict[Task, Tally]) -> list[RunResult]:
    """Merge each run's parts (in part order) and compute its metrics."""
    kind = kind_of(scenario.kind)
    by_run: dict[int, list[Task]] = {}
    for t in tasks:
        by_run.setdefault(t.run, []).append(t)
    out = []
    for r in sorted(by_run):
        parts = sorted(by_run[r], key=lambda t: t.part)
        tally = merge([tallies[t] for t in parts])
        out.append(
            RunResult(
                index=r,
                seed=parts[0].run_seed,
                metrics=kind.metrics(scenario, tally),
                series=tally.series,
                refused=tally.refused,
                events=tally.events,
            )
        )
    return out


def run_scenario(
    scenario: Scenario,
    *,
    runs: int | None = None,
    seed: int | None = None,
    backend: Backend | None = None,
    progress: Progress | None = None,
) -> list[RunResult]:
    """All the replicate runs of ``scenario`` (defaults from the scenario file)."""
    runs = scenario.runs if runs is None else runs
    master = scenario.seed if seed is None else seed
    tasks = tasks_for(scenario, runs, master)
    tallies = execute({0: scenario}, tasks, backend or Backend(), progress)
    return collect(scenario, tasks, tallies)


def describe_backend(backend: Backend) -> dict[str, Any]:
    """What ran the work (for the JSON output; never part of the results)."""
    if backend.dask:
        return {"backend": "dask", "scheduler": backend.scheduler or "local"}
    if backend.workers > 1:
        return {"backend": "processes", "workers": backend.workers}
    return {"backend": "serial"}
