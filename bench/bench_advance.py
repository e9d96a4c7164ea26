"""Benchmark one big clock move: a day's advance over many wounded characters.

Run from the repository root::

    .venv/bin/python bench/bench_advance.py

A warhammer-larp campaign on a manual clock gets N characters, each with a light wound
(a countdown to a heavy wound, then to death); the clock is then moved a day, which
fires 2N countdowns and N deaths in one change. Measured in the engine (no database),
at N = 1,000 and 4,000, each the median of 3. The cost per character at 4,000 against
that at 1,000 says whether firing and deaths are linear (issue 15, item 9: 31 s at
4,000 against 1.6 s at 1,000 before). Target: at most 1.5x per character.
"""

from __future__ import annotations

import statistics
import time
from datetime import datetime, timedelta

from lazaretto.core import engine
from lazaretto.core.character import Character
from lazaretto.core.clock import Clock, ClockMode
from lazaretto.core.registry import get_ruleset

SIZES = (1000, 4000)
TARGET = 1.5
START = datetime(2026, 6, 13, 10, 0)


def one_day(n: int) -> float:
    """Seconds to advance a day over ``n`` light-wounded characters."""
    rs = get_ruleset("warhammer-larp")
    state, _ = engine.new_state(rs, "big", Clock(mode=ClockMode.MANUAL, anchor=START), 1)
    for i in range(n):
        engine.add_character(rs, state, Character(id=f"c{i}", name=f"C{i}", hits_max=3, hits=3))
        engine.run_action(rs, state, "lose-hits", {"character": f"c{i}", "hits": 1})
    t0 = time.perf_counter()
    events = engine.advance_to(rs, state, START + timedelta(days=1))
    took = time.perf_counter() - t0
    dead = sum(not c.alive for c in state.characters.values())
    assert dead == n, f"{dead} of {n} died"
    assert len(events) > 3 * n
    return took


def main() -> None:
    per_char = {}
    for n in SIZES:
        took = statistics.median(one_day(n) for _ in range(3))
        per_char[n] = took / n
        print(f"{n:>6,} wounded: a day's advance takes {took * 1000:8.1f} ms "
              f"({per_char[n] * 1e6:.0f} us per character)")
    ratio = per_char[SIZES[-1]] / per_char[SIZES[0]]
    verdict = "MET" if ratio <= TARGET else "NOT MET"
    print(f"cost per character at {SIZES[-1]:,} vs {SIZES[0]:,}: {ratio:.2f}x "
          f"(target <= {TARGET}x): {verdict}")


if __name__ == "__main__":
    main()
