"""The memory a re-run borrowed goes back to the system (issue 25): on glibc, the
freed blocks that malloc would keep in its heaps are returned by ``give_back``."""

from __future__ import annotations

import subprocess
import sys

import pytest

from lazaretto.core import memtrim


def _rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc and /proc: Linux")
def test_freed_heap_pages_are_given_back() -> None:
    assert memtrim._LIBC is not None  # found on this machine's C library: not a no-op
    memtrim.settle()
    blocks = [bytes(4000) for _ in range(40_000)]  # 160 MB in malloc's heap, not mapped
    kept = blocks[::500]  # a few stay, as a live state would, so the heap cannot shrink
    del blocks
    before = _rss_mib()
    memtrim.give_back()
    after = _rss_mib()
    assert before - after > 50, (before, after)
    assert len(kept) == 80


THREADS = """
import sqlite3, sys, threading
from lazaretto.core import memtrim
if sys.argv[1] == "settled":
    memtrim.settle()
def work():  # SQLite allocates without the GIL: the threads' mallocs meet
    c = sqlite3.connect(":memory:")
    c.execute("create table t(x)")
    for _ in range(100):
        c.executemany("insert into t values (?)", [("x" * 200,)] * 200)
        c.execute("select count(*), max(x) from t").fetchone()
threads = [threading.Thread(target=work) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
memtrim._LIBC.malloc_stats()  # one "Arena N:" paragraph per heap, on stderr
"""


def _heaps(mode: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", THREADS, mode], capture_output=True, text=True, check=True
    )
    return sum(line.startswith("Arena ") for line in done.stderr.splitlines())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc: Linux")
def test_the_threads_share_two_heaps_once_settled() -> None:
    """A server's threads (the writer, the readers' pool) freeing into a heap each
    left the freed pages spread over up to 16 heaps: the rehearsal's memory grew 1.5-1.9x
    over a day; with two heaps, 1.23-1.26x."""
    assert _heaps("plain") > memtrim.ARENAS  # without it, the threads make their own
    assert _heaps("settled") <= memtrim.ARENAS
