"""Benchmark the CLI's start-up: how long a command takes from exec to exit.

Run from the repository root::

    .venv/bin/python bench/bench_cli.py [--runs N]

Each command is a fresh process (what a GM typing ``lazaretto roll 1d20`` pays, and what
a script recording a paper log pays per line), timed wall-clock from spawn to exit. The
reference, measured in the same run and interleaved with the commands so that a busy
machine slows both alike, is ``python -c "import d20; d20.roll('1d20')"`` — the cost of
a small dice library in a fresh interpreter. Targets (issue 17): ``roll`` and ``odds``
≤ 1.5× the reference; ``timers``, ``character show`` and ``act lose-hits`` ≤ 2.5×;
``--help`` ≤ 2×. The database is a fresh SQLite file with one warhammer-larp campaign.

Bytecode: an installed package runs from cached bytecode, but a shell may say not to
write it (``PYTHONDONTWRITEBYTECODE``, set on some shared machines), and then every
command compiles Lazaretto's sources again (~0.4 s here). The benchmark lets the
warm-up write the bytecode into a temporary folder (``PYTHONPYCACHEPREFIX``: the
checkout is left alone) and times what a user with an installed package pays;
``--no-bytecode`` times the other case.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
LAZARETTO = str(BIN / "lazaretto")
REFERENCE = [sys.executable, "-c", "import d20; d20.roll('1d20')"]
COMMANDS: list[tuple[str, list[str], float]] = [
    ("roll 1d20", ["roll", "1d20"], 1.5),
    ("odds 1d20+5 >= 15", ["odds", "1d20+5 >= 15"], 1.5),
    ("timers", ["timers"], 2.5),
    ("character show R", ["character", "show", "R"], 2.5),
    ("act lose-hits", ["act", "lose-hits", "--character", "R", "--hits", "1",
                       "--location", "left arm"], 2.5),
    ("--help", ["--help"], 2.0),
]
LOAD_RULESET = "from lazaretto.core.registry import get_ruleset; get_ruleset('warhammer-larp')"
#: With ``--floors``: what some commands cannot go below, timed alike (no target): the
#: campaign's ruleset loaded as a command loads it (every command on a campaign parses
#: its state with it; through the registry, which builds its models on first use) and
#: SQLAlchemy's ORM (what a command that writes through the service pays).
FLOORS: list[tuple[str, list[str]]] = [
    ("(load the ruleset)", [sys.executable, "-c", LOAD_RULESET]),
    ("(import SQLAlchemy ORM)", [sys.executable, "-c", "import sqlalchemy.orm"]),
]


def timed(argv: list[str], env: dict[str, str]) -> float:
    """Seconds from spawn to exit of one process; a failure stops the benchmark."""
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()}")
    return elapsed


def prepare(env: dict[str, str]) -> None:
    """One campaign on a manual clock, a character with hits to lose on every run."""
    for args in (
        ["campaign", "create", "bench", "--ruleset", "warhammer-larp", "--clock", "manual",
         "--start", "2026-06-13T11:50", "--seed", "1"],
        ["character", "add", "R", "--name", "Rustam", "--hits", "1000"],
        ["character", "add", "A", "--name", "Anna", "--hits", "2", "--skill", "Healer"],
    ):
        timed([LAZARETTO, *args], env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="runs per command (median)")
    parser.add_argument(
        "--no-bytecode", action="store_true", help="compile the sources in every process"
    )
    parser.add_argument(
        "--floors", action="store_true", help="also time importing the ruleset and SQLAlchemy"
    )
    args = parser.parse_args()
    floors = FLOORS if args.floors else []
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "LAZARETTO_DB": str(Path(tmp) / "bench.db"), "LAZARETTO_LANG": "en"}
        env.pop("LAZARETTO_CAMPAIGN", None)
        if args.no_bytecode:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        else:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        prepare(env)
        timed(REFERENCE, env)  # warm the file cache and bytecode once
        for _, argv in floors:
            timed(argv, env)
        for _, argv, _ in COMMANDS:
            timed([LAZARETTO, *argv], env)
        times: dict[str, list[float]] = {"reference": []}
        for _ in range(args.runs):
            times["reference"].append(timed(REFERENCE, env))
            for name, argv, _ in COMMANDS:
                times.setdefault(name, []).append(timed([LAZARETTO, *argv], env))
            for name, argv in floors:
                times.setdefault(name, []).append(timed(argv, env))
    ref = statistics.median(times["reference"])
    cached = "no bytecode cache" if args.no_bytecode else "bytecode cached"
    print(
        f"CLI start-up, median of {args.runs} fresh processes each ({os.cpu_count()} cores, "
        f"{cached}, load average {load_before:.1f} -> {os.getloadavg()[0]:.1f})"
    )
    print(f"{'command':22} {'median':>9} {'× ref':>7} {'target':>7}  verdict")
    print(f"{'reference (d20 roll)':22} {ref * 1000:7.0f}ms {1:7.2f}")
    met_all = True
    for name, _, target in COMMANDS:
        med = statistics.median(times[name])
        ratio = med / ref
        met = ratio <= target
        met_all &= met
        verdict = "MET" if met else "NOT MET"
        print(f"{name:22} {med * 1000:7.0f}ms {ratio:7.2f} {'≤' + str(target):>7}  {verdict}")
    for name, _ in floors:
        med = statistics.median(times[name])
        print(f"{name:22} {med * 1000:7.0f}ms {med / ref:7.2f}")
    print("all targets MET" if met_all else "some targets NOT MET")


if __name__ == "__main__":
    main()
