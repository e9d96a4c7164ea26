"""Benchmark exact odds against `icepool` and batch rolling against plain NumPy.

Run from the repository root::

    .venv/bin/python bench/bench_odds.py

Prints three tables in one run (about a minute on a 2-core box):

1. exact odds of dice expressions: ours (``parse(text).distribution()``, plus the chance
   of success for a comparison) against icepool building the same die and reading its
   probabilities. "cold" is the first computation in a fresh interpreter (imports not
   counted, parsing counted): no cache of ours can help. "warm" is the median in this
   process (ours then answers from its distribution cache), and "no cache" is ours with
   every cache cleared — the algorithm itself, compared with icepool warm;
2. the rulesets' odds (:mod:`lazaretto.odds`: a check, a theft, a torture, an injury, a
   night's sleep...) against an icepool program computing the same numbers (the same
   outcomes and events), cold, warm, and ours with the dice caches cleared (the odds
   themselves are never cached);
3. batch rolling: ``core.dice.batch.roll_many`` against the plain NumPy one would write
   by hand (``rng.integers(1, 7, size=(n, 4)).sum(1)`` for 4d6, a sort for keep-highest),
   in millions of rolls per second; the ratio is the median of alternating runs.

Targets: ratios (icepool / ours) ≥ 1 in tables 1 and 2; roll_many ≥ 0.5 × NumPy.
"""

from __future__ import annotations

import platform
import statistics
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from importlib.metadata import version
from typing import Any

import icepool
import numpy as np

from lazaretto.core.dice import parse
from lazaretto.core.dice.batch import roll_many
from lazaretto.core.dice.exact import distribution_of, success_probability

COLD_REPEATS = 5
WARM_REPEATS = 51

# expression, the icepool die it equals
EXPRESSIONS = [
    ("4d6kh3", "icepool.d6.highest(4, 3)"),
    ("3d10kh1", "icepool.d10.highest(3, 1)"),
    ("2d10kh1", "icepool.d10.highest(2, 1)"),
    ("2d20kh1", "icepool.d20.highest(2, 1)"),
    ("8d6kh3", "icepool.d6.highest(8, 3)"),
    ("1d100", "icepool.d100"),
    ("2d6+3", "2 @ icepool.d6 + 3"),
    ("4d10+5", "4 @ icepool.d10 + 5"),
    ("3d6+1d4-2", "3 @ icepool.d6 + icepool.d4 - 2"),
    ("10d10", "10 @ icepool.d10"),
    ("20d6", "20 @ icepool.d6"),
    ("1d20+5 >= 15", "icepool.d20 + 5 >= 15"),
]

OURS_DICE = """
import time
from lazaretto.core.dice import parse
start = time.perf_counter()
expression = parse({text!r})
expression.distribution()
if {compares}:
    expression.probability_of_success()
print(time.perf_counter() - start)
"""
ICEPOOL_DICE = """
import time
import icepool
start = time.perf_counter()
({build}).probabilities()
print(time.perf_counter() - start)
"""

# The icepool programs of table 2: each computes the outcomes and the events that
# lazaretto.odds reports, from the rule text (S-CRIT, S-CRIME, S-TORT, D-SEV, I-SLEEP).
ICEPOOL_RULES = """
import icepool

def verdict(n, total, threshold):
    if n == 20:
        return "critical_success"
    if n == 1:
        return "critical_failure"
    return "success" if total >= threshold else "failure"

def active_wins(a, at, d, dt):
    kind = {20: "s", 1: "f"}
    x, y = kind.get(a), kind.get(d)
    if x is not None and x == y:
        return at > dt
    if x == "s" or y == "f":
        return True
    if y == "s" or x == "f":
        return False
    return at > dt

def theft(t, v):
    if active_wins(t, t + 5, v, v + 6):
        return "stolen"
    return "fell" if t == 1 or v == 20 else "caught"

def injury(damage):
    if damage < 25:
        return "none"
    return "heavy" if damage >= 38 else "medium" if damage >= 19 else "light"

def band(roll):
    for name, bound in (("triumph", 3), ("success", 35), ("medium", 50), ("failure", 94)):
        if roll <= bound:
            return name
    return "tragedy"

def night(hours):
    events = (lambda h: h < 6, lambda h: h >= 8, lambda h: h >= 6)
    return [hours.probabilities(), *(hours.map(event).probabilities() for event in events)]
"""
OURS_RULES = """
from lazaretto.odds import checks, crime, injury, sleep
import lazaretto.rulesets.dnd5e_injuries, lazaretto.rulesets.fantasy_server
import lazaretto.rulesets.ide4_survival
"""
# label, ours, icepool
RULES = [
    (
        "check d20+5 vs 18",
        "checks.fantasy_check_odds(5, 18)",
        "icepool.d20.map(lambda n: verdict(n, n + 5, 18)).probabilities()",
    ),
    (
        "opposed +5 vs +3",
        "checks.fantasy_contest_odds(5, 3)",
        "icepool.map(lambda a, d: active_wins(a, a + 5, d, d + 3), icepool.d20, icepool.d20)"
        ".probabilities()",
    ),
    (
        "ide4 d100 [3]",
        "checks.ide4_check_odds(3)",
        "icepool.d100.map(band).probabilities()",
    ),
    (
        "theft +5 vs +3",
        "crime.theft_odds(5, 3)",
        "icepool.map(theft, icepool.d20, icepool.d20).probabilities()",
    ),
    (
        "lockpick +6",
        "crime.lockpick_odds(6)",
        "icepool.d20.map(lambda n: verdict(n, n + 6, 24)).probabilities()",
    ),
    (
        "torture 4 rounds",
        "crime.torture_odds(5, 3)",
        "sum(icepool.map(lambda a, d, k=k: active_wins(a, a + 5, d, d + 3 + 3 * k), icepool.d20,"
        " icepool.d20) for k in range(4)).probabilities()",
    ),
    (
        "injury 4d10+5",
        "injury.injury_odds('4d10+5', con=14, proficiency=3, level=5, hp=25)",
        "(4 @ icepool.d10 + 5).map(injury).probabilities()",
    ),
    (
        "sleep 3d10 pick",
        "sleep.sleep_odds()",
        "night(icepool.d10.highest(3, 1))",
    ),
    (
        "interrupted 2d10",
        "sleep.interrupted_sleep_odds(8)",
        "night(icepool.d10.highest(2, 1).map(lambda h: min(h, 8)))",
    ),
]
COLD_TEMPLATE = """
{setup}
import time
start = time.perf_counter()
{call}
print(time.perf_counter() - start)
"""

# expression, plain NumPy for n rolls
BATCH: list[tuple[str, Callable[[np.random.Generator, int], Any]]] = [
    ("1d20+5", lambda rng, n: rng.integers(1, 21, size=n) + 5),
    ("1d100", lambda rng, n: rng.integers(1, 101, size=n)),
    ("3d6", lambda rng, n: rng.integers(1, 7, size=(n, 3)).sum(1)),
    ("4d6kh3", lambda rng, n: np.sort(rng.integers(1, 7, size=(n, 4)), axis=1)[:, 1:].sum(1)),
    ("2d20kh1", lambda rng, n: rng.integers(1, 21, size=(n, 2)).max(1)),
    ("3d10kh1", lambda rng, n: rng.integers(1, 11, size=(n, 3)).max(1)),
    ("5d10kh3", lambda rng, n: np.sort(rng.integers(1, 11, size=(n, 5)), axis=1)[:, 2:].sum(1)),
    ("10d10", lambda rng, n: rng.integers(1, 11, size=(n, 10)).sum(1)),
    ("20d6", lambda rng, n: rng.integers(1, 7, size=(n, 20)).sum(1)),
    ("1d20+5 >= 15", lambda rng, n: rng.integers(1, 21, size=n) + 5 >= 15),
    (
        "2d6*2+1d4",
        lambda rng, n: rng.integers(1, 7, size=(n, 2)).sum(1) * 2 + rng.integers(1, 5, n),
    ),
]
BATCH_ROLLS = 1_000_000
BATCH_PAIRS = 9


def cold_seconds(code: str) -> float:
    """Median time a fresh interpreter reports for its first computation."""
    times = []
    for _ in range(COLD_REPEATS):
        output = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
        times.append(float(output.split()[-1]))
    return statistics.median(times)


def warm_seconds(call: Callable[[], object], repeats: int = WARM_REPEATS) -> float:
    call()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def clear_caches() -> None:
    parse.cache_clear()
    distribution_of.cache_clear()
    success_probability.cache_clear()


def verdict(*ratios: float, target: float = 1.0) -> str:
    return "ok" if min(ratios) >= target else "SLOWER"


def bench_expressions(ratios: list[float]) -> None:
    print(
        f"\n1. Exact odds of expressions, ms; cold = first call in a fresh process (median of "
        f"{COLD_REPEATS}), warm = median of {WARM_REPEATS}; ratio = icepool / ours\n"
    )
    header = ("expression", "ours cold", "icepool", "ratio", "ours warm", "icepool", "ratio",
              "no cache", "ratio")  # fmt: skip
    print("{:<14} {:>9} {:>9} {:>7} {:>9} {:>9} {:>7} {:>9} {:>7}".format(*header))
    for text, build in EXPRESSIONS:
        compares = any(op in text for op in "<>=")
        expression = parse(text)
        die = eval(build, {"icepool": icepool})
        theirs_dist = dict(zip(die.outcomes(), die.probabilities(), strict=True))
        if compares:
            assert expression.probability_of_success() == theirs_dist[True], text
        else:
            assert expression.distribution() == theirs_dist, text
        ours_cold = cold_seconds(OURS_DICE.format(text=text, compares=compares))
        theirs_cold = cold_seconds(ICEPOOL_DICE.format(build=build))

        def ours(text: str = text, compares: bool = compares) -> None:
            e = parse(text)
            e.distribution()
            if compares:
                e.probability_of_success()

        def uncached() -> None:
            clear_caches()
            ours()

        ours_warm = warm_seconds(ours)
        theirs_warm = warm_seconds(lambda build=build: eval(build, {"icepool": icepool})
                                   .probabilities())  # fmt: skip
        ours_fresh = warm_seconds(uncached)
        row = (theirs_cold / ours_cold, theirs_warm / ours_warm, theirs_warm / ours_fresh)
        ratios.extend(row)
        print(
            f"{text:<14} {ours_cold * 1e3:>9.3f} {theirs_cold * 1e3:>9.3f} {row[0]:>6.1f}x "
            f"{ours_warm * 1e3:>9.4f} {theirs_warm * 1e3:>9.4f} {row[1]:>6.0f}x "
            f"{ours_fresh * 1e3:>9.4f} {row[2]:>6.1f}x  {verdict(*row)}"
        )


def bench_rules(ratios: list[float]) -> None:
    print(
        "\n2. The rulesets' odds (lazaretto.odds) vs an icepool program computing the same "
        "numbers, ms; ratio = icepool / ours; no cache = ours with the dice caches cleared\n"
    )
    header = ("question", "ours cold", "icepool", "ratio", "ours warm", "icepool", "ratio",
              "no cache", "ratio")  # fmt: skip
    print("{:<18} {:>9} {:>9} {:>7} {:>9} {:>9} {:>7} {:>9} {:>7}".format(*header))
    ours_ns: dict[str, Any] = {}
    exec(OURS_RULES, ours_ns)
    theirs_ns: dict[str, Any] = {}
    exec(ICEPOOL_RULES, theirs_ns)
    for label, ours_call, theirs_call in RULES:
        ours_cold = cold_seconds(COLD_TEMPLATE.format(setup=OURS_RULES, call=ours_call))
        theirs_cold = cold_seconds(COLD_TEMPLATE.format(setup=ICEPOOL_RULES, call=theirs_call))
        ours_code = compile(ours_call, "<ours>", "eval")
        theirs_code = compile(theirs_call, "<icepool>", "eval")

        def uncached(code: Any = ours_code) -> object:
            clear_caches()
            return eval(code, ours_ns)

        ours_warm = warm_seconds(lambda code=ours_code: eval(code, ours_ns))
        theirs_warm = warm_seconds(lambda code=theirs_code: eval(code, theirs_ns))
        ours_fresh = warm_seconds(uncached)
        row = (theirs_cold / ours_cold, theirs_warm / ours_warm, theirs_warm / ours_fresh)
        ratios.extend(row)
        print(
            f"{label:<18} {ours_cold * 1e3:>9.3f} {theirs_cold * 1e3:>9.3f} {row[0]:>6.1f}x "
            f"{ours_warm * 1e3:>9.3f} {theirs_warm * 1e3:>9.3f} {row[1]:>6.1f}x "
            f"{ours_fresh * 1e3:>9.3f} {row[2]:>6.1f}x  {verdict(*row)}"
        )


def bench_batch(ratios: list[float]) -> None:
    print(
        f"\n3. Batch rolling, millions of rolls/s ({BATCH_ROLLS:,} per call, median of "
        f"{BATCH_PAIRS} alternating runs); ratio = roll_many / plain NumPy, target >= 0.5\n"
    )
    header = ("expression", "roll_many", "NumPy", "ratio", "dice/s")
    print("{:<14} {:>10} {:>10} {:>7} {:>12}".format(*header))
    rng = np.random.default_rng(2024)
    for text, plain in BATCH:
        roll_many(text, 1000, rng)
        plain(rng, 1000)
        pair_ratios, ours_rates, theirs_rates = [], [], []
        for _ in range(BATCH_PAIRS):
            start = time.perf_counter()
            roll_many(text, BATCH_ROLLS, rng)
            ours = time.perf_counter() - start
            start = time.perf_counter()
            plain(rng, BATCH_ROLLS)
            theirs = time.perf_counter() - start
            pair_ratios.append(theirs / ours)
            ours_rates.append(BATCH_ROLLS / ours)
            theirs_rates.append(BATCH_ROLLS / theirs)
        ratio = statistics.median(pair_ratios)
        ratios.append(ratio)
        dice = sum(d.count for d in _dice_of(text))
        rate = statistics.median(ours_rates)
        print(
            f"{text:<14} {rate / 1e6:>10.1f} {statistics.median(theirs_rates) / 1e6:>10.1f} "
            f"{ratio:>6.2f}x {rate * dice / 1e6:>10.0f} M  {verdict(ratio, target=0.5)}"
        )


def _dice_of(text: str) -> list[Any]:
    from lazaretto.core.dice.ast import dice_terms

    return list(dice_terms(parse(text).tree))


def main() -> None:
    started = time.perf_counter()
    print(
        f"Python {platform.python_version()} on {platform.machine()}, icepool "
        f"{version('icepool')}, NumPy {np.__version__}"
    )
    exact: list[float] = []
    batch: list[float] = []
    bench_expressions(exact)
    bench_rules(exact)
    bench_batch(batch)
    print(
        textwrap.dedent(f"""
        Lowest exact-odds ratio (icepool / ours): {min(exact):.2f}x  {verdict(*exact)}
        Lowest batch ratio (roll_many / NumPy):   {min(batch):.2f}x  {verdict(*batch, target=0.5)}
        Total {time.perf_counter() - started:.1f} s""")
    )


if __name__ == "__main__":
    main()
