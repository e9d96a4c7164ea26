"""One master seed, the same results: serially, in a process pool and on a Dask cluster
(a small LocalCluster: two worker processes), for runs and for sweeps."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from distributed import LocalCluster

from lazaretto.sim.runner import Backend, run_scenario
from lazaretto.sim.scenario import Scenario
from lazaretto.sim.seeds import part_seed, run_seed
from lazaretto.sim.sweep import load_sweep, run_sweep
from lazaretto.sim.tally import RunResult
from tests.unit.sim.conftest import scenario, small_battle


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A Dask cluster already running, as a team would share one: its address."""
    with LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    ) as c:
        yield str(c.scheduler_address)


def dumped(runs: list[RunResult]) -> list[str]:
    return [r.model_dump_json() for r in runs]


def weekend_of_three_locations() -> Scenario:
    return scenario(
        "weekend",
        characters=45,
        location_size=15,
        days=1,
        wounds_per_character=2,
        epidemics=1,
        field={"healers": 2},
        hospitals={"count": 1, "tables": 1, "beds": 3, "healers": 1},
        waves={"interval_minutes": 60, "stickers": 5, "met": "8"},
    )


def test_seeds_depend_only_on_the_master_seed_the_point_and_the_run() -> None:
    assert run_seed(7, 3) == run_seed(7, 3)
    assert len({run_seed(7, r) for r in range(100)}) == 100
    assert run_seed(7, 0) != run_seed(8, 0) != run_seed(7, 0, point=1)
    assert part_seed(run_seed(7, 0), 1) != part_seed(run_seed(7, 0), 2)


def test_the_same_seed_gives_the_same_runs_serially_and_in_a_process_pool() -> None:
    s = small_battle()
    serial = run_scenario(s, runs=6, seed=11)
    pooled = run_scenario(s, runs=6, seed=11, backend=Backend(workers=2))
    assert dumped(serial) == dumped(pooled)
    assert [r.index for r in pooled] == list(range(6))


def test_another_seed_gives_other_runs_and_more_runs_keep_the_first_ones() -> None:
    s = small_battle()
    six = run_scenario(s, runs=6, seed=11)
    assert dumped(run_scenario(s, runs=3, seed=11)) == dumped(six[:3])  # runs are independent
    assert dumped(run_scenario(s, runs=6, seed=12)) != dumped(six)


def test_a_weekend_run_is_the_same_whatever_runs_its_locations(cluster: str) -> None:
    s = weekend_of_three_locations()
    serial = run_scenario(s, runs=2, seed=5)
    pooled = run_scenario(s, runs=2, seed=5, backend=Backend(workers=2))
    on_dask = run_scenario(s, runs=2, seed=5, backend=Backend(dask=True, scheduler=cluster))
    assert dumped(serial) == dumped(pooled) == dumped(on_dask)
    assert serial[0].metrics["characters"] == 45  # three locations of 15, merged
    assert serial[0].metrics["epidemics"] == 1


def test_a_sweep_on_dask_gives_what_it_gives_serially(tmp_path: Path, cluster: str) -> None:
    (tmp_path / "b.yaml").write_text("kind: battle\nwounded: 8\nwindow_minutes: 5\n")
    (tmp_path / "sweep.yaml").write_text(
        "scenario: b.yaml\nruns: 3\nseed: 9\nvary:\n  field.healers: [1, 3]\n"
    )
    sw = load_sweep(tmp_path / "sweep.yaml")
    serial = run_sweep(sw, backend=Backend())
    on_dask = run_sweep(sw, backend=Backend(dask=True, scheduler=cluster))
    assert [dumped(s.runs) for s in serial] == [dumped(s.runs) for s in on_dask]
    assert serial[0].runs[0].seed == run_seed(9, 0, point=0)
    assert serial[1].runs[0].seed == run_seed(9, 0, point=1)
    one, three = (s.metrics["field_wait"].mean for s in serial)
    assert three < one  # more field healers, shorter waits
