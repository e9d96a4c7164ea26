"""The memory a re-run borrowed goes back to the system (issue 25): on glibc, the
freed blocks that malloc would keep in its heaps are returned by ``give_back``."""

from __future__ import annotations

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
