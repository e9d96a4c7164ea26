"""Seeds: every run (and every part of a run) gets its own, derived from one master seed.

NumPy's :class:`~numpy.random.SeedSequence` spawns independent, well-mixed child seeds
from ``(master, sweep point, run, part)``. A seed depends only on those numbers — never
on which process, worker or machine runs the work, nor in what order — so a scenario
gives the same results serially, in a process pool or on a Dask cluster.
"""

from __future__ import annotations

import numpy as np


def _seed(entropy: int, key: tuple[int, ...]) -> int:
    ss = np.random.SeedSequence(entropy, spawn_key=key)
    return int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1))  # fits a signed int64


def run_seed(master: int, run: int, point: int = 0) -> int:
    """The seed of run ``run`` (of sweep point ``point``) under ``master``."""
    return _seed(master, (point, run))


def part_seed(run_seed_: int, part: int) -> int:
    """The seed of part ``part`` of a run (a weekend's location)."""
    return _seed(run_seed_, (part,))
