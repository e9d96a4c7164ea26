"""Benchmark the simulator: a 3-day LARP weekend on the real warhammer-larp ruleset.

Run from the repository root::

    .venv/bin/python bench/bench_sim.py                 # one campaign, then split, 500/1,000/2,000
    .venv/bin/python bench/bench_sim.py --layout one    # only the one big campaign
    .venv/bin/python bench/bench_sim.py --profile       # and where the big campaign's time goes
    .venv/bin/python bench/bench_sim.py --scans 500     # who iterates a whole state mapping

``scenarios/weekend.yaml`` (2,000 characters in locations of 100, about 10.5 wounds per
character, 3 epidemics) is run once at 500, 1,000 and 2,000 characters, every action
through the engine on a manual clock, in two layouts:

* ``one``: every location in ONE campaign, as a big LARP runs one medical system (the
  issue's target: 2,000 characters under 60 s on a 2-core machine, linear per
  character). One campaign is one part, so it runs in this process.
* ``split``: each location its own campaign (a wound is treated where it happens and an
  epidemic infects one location, W-EPI-01), in a process pool over this machine's cores.

Printed per run: wall time (process pool start included, imports not), CPU time (this
process and the pool's workers, which a busy machine disturbs less), wounds, epidemics,
deaths, ruleset events, seconds per character, and the cost per character relative to
the smallest run (1.00 = perfectly linear). The machine is shared: the load average is
printed before and after.

``--scans N`` runs the one-campaign weekend of N characters with the state's mappings
watched as the parts store watches a change (``service/state_store.py``, ``Tracked``):
every place that iterates over a whole mapping's values or items — which makes the
store look at every entry of it — is counted with the action or timer it ran in.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import platform
import pstats
import resource
import sys
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lazaretto.sim.files import load_scenario
from lazaretto.sim.kinds.weekend import simulate
from lazaretto.sim.runner import Backend, machine_cores, run_scenario
from lazaretto.sim.scenario import WeekendScenario

SIZES = (500, 1000, 2000)
TARGET_SECONDS = 60.0
QUIET = ": about the wall time of one process on a quiet machine"
SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "weekend.yaml"


def weekend(characters: int, *, one: bool) -> WeekendScenario:
    """The bundled weekend with ``characters`` characters, in one campaign or split."""
    s = load_scenario(SCENARIO)
    assert isinstance(s, WeekendScenario)
    return s.model_copy(update={"characters": characters, "one_campaign": one})


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's workers)."""
    own, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def load() -> str:
    """The machine's load average (1, 5, 15 minutes)."""
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def measure(characters: int, workers: int, *, one: bool) -> dict[str, float]:
    """One run of the weekend: wall and CPU time, and what it simulated. The one-campaign
    run goes to a fresh process of its own, so that no earlier run's heap weighs on it."""
    if one:
        with ProcessPoolExecutor(1) as pool:
            return pool.submit(_measure, characters, workers, one=True).result()
    return _measure(characters, workers, one=False)


def _measure(characters: int, workers: int, *, one: bool) -> dict[str, float]:
    s = weekend(characters, one=one)
    c0, t0 = cpu_seconds(), time.perf_counter()
    [run] = run_scenario(s, runs=1, seed=s.seed, backend=Backend(workers=1 if one else workers))
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    m = run.metrics
    return {
        "characters": characters,
        "campaigns": 1 if one else s.locations,
        "wall": wall,
        "cpu": cpu,
        "wounds": m["wounds"],
        "epidemics": m["epidemics"],
        "deaths": m["deaths"],
        "events": float(run.events),
        "refusals": m["refusals"],
    }


def table(title: str, workers: int, *, one: bool) -> list[dict[str, float]]:
    """Run every size in one layout and print its rows and its cost per character."""
    print(f"\n# {title} — {load()}")
    print(
        f"{'characters':>10} {'campaigns':>9} {'wall s':>7} {'cpu s':>6} {'wounds':>7} "
        f"{'epidemics':>9} {'deaths':>6} {'events':>7} {'wall s/char':>11} {'cpu s/char':>10}"
    )
    rows = []
    for n in SIZES:
        r = measure(n, workers, one=one)
        rows.append(r)
        print(
            f"{n:>10} {r['campaigns']:>9.0f} {r['wall']:>7.1f} {r['cpu']:>6.1f} "
            f"{r['wounds']:>7.0f} {r['epidemics']:>9.0f} {r['deaths']:>6.0f} "
            f"{r['events']:>7.0f} {r['wall'] / n:>11.4f} {r['cpu'] / n:>10.4f}"
        )
    first = rows[0]

    def ratio(r: dict[str, float], what: str) -> float:
        return (r[what] / r["characters"]) / (first[what] / first["characters"])

    ratios = ", ".join(
        f"{r['characters']:.0f}: wall {ratio(r, 'wall'):.2f} cpu {ratio(r, 'cpu'):.2f}"
        for r in rows
    )
    print(f"cost per character relative to {first['characters']:.0f} (1.00 = linear): {ratios}")
    big = rows[-1]

    def verdict(seconds: float) -> str:
        return "MET" if seconds < TARGET_SECONDS else "NOT MET"

    print(
        f"target: {big['characters']:,.0f} characters under {TARGET_SECONDS:.0f} s — "
        f"{verdict(big['wall'])} in wall time ({big['wall']:.1f} s), {verdict(big['cpu'])} "
        f"in CPU time ({big['cpu']:.1f} s{QUIET if one else ', all workers'}); "
        f"{big['wounds']:.0f} wounds ≥ 20,000: {'yes' if big['wounds'] >= 20_000 else 'NO'}; "
        f"epidemics {big['epidemics']:.0f}; refused actions {big['refusals']:.0f} — {load()}"
    )
    return rows


def profile_one(characters: int) -> str:
    """cProfile of the one-campaign weekend: the functions that take the most time."""
    s = weekend(characters, one=True)
    prof = cProfile.Profile()
    prof.enable()
    simulate(s, s.seed, 0)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(25)
    return out.getvalue()


@contextmanager
def watched() -> Iterator[Counter[tuple[str, str]]]:
    """While open, every iteration over a whole mapping of a simulated campaign's state
    is counted by the package's line that did it and the action or timer it ran in."""
    from lazaretto.core.engine import ActionContext
    from lazaretto.service.state_store import Tracked, layout
    from lazaretto.sim.world import World

    found: Counter[tuple[str, str]] = Counter()

    def note() -> None:
        frame: Any = sys._getframe(2)
        site, during = "", "(the simulation)"
        while frame is not None:
            path = frame.f_code.co_filename
            if not site and "lazaretto" in path and "state_store" not in path:
                site = f"{path.split('lazaretto/', 1)[-1]}:{frame.f_lineno} {frame.f_code.co_name}"
            ctx = frame.f_locals.get("ctx")
            if isinstance(ctx, ActionContext):
                during = ctx.action
                break
            frame = frame.f_back
        found[(site, during)] += 1

    saved = {name: getattr(Tracked, name) for name in ("values", "items")}
    world_init = World.__init__

    def spy(name: str) -> Any:
        def wrapper(self: Tracked) -> Any:
            note()
            return saved[name](self)

        return wrapper

    def tracked_init(self: World, *args: Any, **kwargs: Any) -> None:
        world_init(self, *args, **kwargs)
        layout(type(self.state)).track(self.state)

    for name in saved:
        setattr(Tracked, name, spy(name))
    World.__init__ = tracked_init  # type: ignore[method-assign]
    try:
        yield found
    finally:
        for name, method in saved.items():
            setattr(Tracked, name, method)
        World.__init__ = world_init  # type: ignore[method-assign]


def scans(characters: int) -> None:
    """Print who iterates a whole state mapping during a one-campaign weekend."""
    s = weekend(characters, one=True)
    with watched() as found:
        simulate(s, s.seed, 0)
    print(f"\n# whole-mapping iterations in a one-campaign weekend of {characters} characters")
    print(f"{'times':>8}  where  [during]")
    for (site, during), n in found.most_common():
        print(f"{n:>8}  {site}  [{during}]")
    if not found:
        print("none")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--layout", choices=("one", "split", "both"), default="both", help="which runs"
    )
    parser.add_argument("--profile", action="store_true", help="profile the big campaign too")
    parser.add_argument(
        "--profile-characters", type=int, default=1000, help="its size (default 1,000)"
    )
    parser.add_argument(
        "--scans", type=int, default=0, metavar="N", help="only list the whole-mapping scans"
    )
    parser.add_argument("--workers", type=int, default=0, help="processes (0: every core)")
    args = parser.parse_args()
    if args.scans:
        scans(args.scans)
        return
    workers = args.workers or machine_cores()
    print(f"# LARP weekend on warhammer-larp — {platform.python_version()}, {workers} cores")
    if args.layout in ("one", "both"):
        table("every location in ONE campaign (one part, this process)", workers, one=True)
    if args.layout in ("split", "both"):
        table(f"one campaign per location ({workers} workers)", workers, one=False)
    if args.profile:
        print(f"\n# one campaign of {args.profile_characters} characters, by own time")
        print(profile_one(args.profile_characters))


if __name__ == "__main__":
    main()
