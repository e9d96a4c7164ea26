"""Give back to the system the memory a re-run of the history borrowed.

A late record's re-run parses a whole campaign's state and holds the events after its
checkpoint twice over; on 3,000 characters that is tens of MiB for a second. Python
frees it, but glibc's malloc keeps freed pages inside its heaps for later, and after
freeing one large block it serves the next ones from those heaps too, so a server's
resident memory stayed at a Wi-Fi storm's high-water mark (issue 25: 152 MiB warm,
366 MiB after one storm, for good). Three calls, of the C library the interpreter runs
on (``ctypes``: no package for three lines):

* :func:`settle` (once per process): blocks of 1 MiB and more are always mapped on
  their own (``M_MMAP_THRESHOLD``), so a state's JSON goes back to the system when it
  is freed; and the threads share two heaps (``M_ARENA_MAX``) instead of making one
  each as they meet in malloc (the writer, the readers' pool, SQLite working without
  the GIL): freed pages spread over a dozen heaps kept the rehearsal's memory at
  1.5-1.9x its warm size after a day, 1.23-1.26x with two;
* :func:`give_back` (after a re-run): ``malloc_trim(0)`` returns the heaps' free pages
  (about 1.5 ms).

Elsewhere than glibc both do nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from typing import Any

M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameter number (malloc.h)."""
M_ARENA_MAX = -8
ARENAS = 2
"""Heaps the threads share at most (glibc makes up to eight per core, one per thread
that allocates while another holds a heap: freed pages then sit in each of them)."""
MAPPED_FROM = 1 << 20
"""Blocks of this many bytes and more are mapped on their own."""


def _libc() -> Any:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt") else None
    except OSError:
        return None


_LIBC = _libc()


def settle() -> None:
    """Large blocks mapped on their own, for this process's life."""
    if _LIBC is not None:
        _LIBC.mallopt(M_MMAP_THRESHOLD, MAPPED_FROM)
        _LIBC.mallopt(M_ARENA_MAX, ARENAS)


def give_back() -> None:
    """The C heaps' free pages back to the system."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)
