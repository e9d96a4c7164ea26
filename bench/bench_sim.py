"""Benchmark the simulator: a 3-day LARP weekend on the real warhammer-larp ruleset.

Run from the repository root::

    .venv/bin/python bench/bench_sim.py              # 500 / 1,000 / 2,000 characters
    .venv/bin/python bench/bench_sim.py --profile    # and where one location's time goes

``scenarios/weekend.yaml`` (2,000 characters in locations of 100, about 10.5 wounds per
character, 3 epidemics) is run once at 500, 1,000 and 2,000 characters, every action
through the engine on a manual clock. The locations are independent campaigns (a wound
is treated where it happens and an epidemic infects one location, W-EPI-01), so they run
in a process pool over this machine's cores. Printed: wall time (process pool start
included, imports not), wounds, epidemics, deaths, ruleset events, and the cost per
character relative to the smallest run (1.00 = perfectly linear) — in wall time and in
CPU time (this process and the pool's workers), which a busy machine disturbs less.
Target: under 60 s for 2,000 characters on a 2-core machine.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import platform
import pstats
import resource
import time
from pathlib import Path

from lazaretto.sim.files import load_scenario
from lazaretto.sim.kinds.weekend import simulate
from lazaretto.sim.runner import Backend, machine_cores, run_scenario
from lazaretto.sim.scenario import WeekendScenario

SIZES = (500, 1000, 2000)
TARGET_SECONDS = 60.0
SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "weekend.yaml"


def weekend(characters: int) -> WeekendScenario:
    """The bundled weekend with ``characters`` characters."""
    s = load_scenario(SCENARIO)
    assert isinstance(s, WeekendScenario)
    return s.model_copy(update={"characters": characters})


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's workers)."""
    own, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def measure(characters: int, workers: int) -> dict[str, float]:
    """One run of the weekend: wall and CPU time, and what it simulated."""
    s = weekend(characters)
    c0, t0 = cpu_seconds(), time.perf_counter()
    [run] = run_scenario(s, runs=1, seed=s.seed, backend=Backend(workers=workers))
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    m = run.metrics
    return {
        "characters": characters,
        "locations": s.locations,
        "wall": wall,
        "cpu": cpu,
        "wounds": m["wounds"],
        "epidemics": m["epidemics"],
        "deaths": m["deaths"],
        "events": float(run.events),
        "refusals": m["refusals"],
    }


def profile_location() -> str:
    """cProfile of one epidemic location: the functions that take the most time."""
    s = weekend(SIZES[0])
    prof = cProfile.Profile()
    prof.enable()
    simulate(s, 1, 0)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(18)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", action="store_true", help="profile one location too")
    parser.add_argument("--workers", type=int, default=0, help="processes (0: every core)")
    args = parser.parse_args()
    workers = args.workers or machine_cores()
    print(f"# LARP weekend on warhammer-larp — {platform.python_version()}, {workers} workers")
    print(
        f"{'characters':>10} {'locations':>9} {'wall s':>7} {'cpu s':>6} {'wounds':>7} "
        f"{'epidemics':>9} {'deaths':>6} {'events':>7} {'wall/char':>9} {'cpu/char':>8}"
    )
    rows = []
    for n in SIZES:
        r = measure(n, workers)
        rows.append(r)
        wall_ms, cpu_ms = r["wall"] / n * 1000, r["cpu"] / n * 1000
        print(
            f"{n:>10} {r['locations']:>9.0f} {r['wall']:>7.1f} {r['cpu']:>6.1f} "
            f"{r['wounds']:>7.0f} {r['epidemics']:>9.0f} {r['deaths']:>6.0f} "
            f"{r['events']:>7.0f} {wall_ms:>7.2f}ms {cpu_ms:>6.2f}ms"
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
    verdict = "met" if big["wall"] < TARGET_SECONDS else "MISSED"
    print(
        f"target: 2,000 characters under {TARGET_SECONDS:.0f} s — {verdict} "
        f"({big['wall']:.1f} s; {big['wounds']:.0f} wounds ≥ 20,000: "
        f"{'yes' if big['wounds'] >= 20_000 else 'NO'}; epidemics {big['epidemics']:.0f}; "
        f"refused actions {big['refusals']:.0f})"
    )
    if args.profile:
        print("\n# one location (100 characters, with an epidemic), by own time")
        print(profile_location())


if __name__ == "__main__":
    main()
