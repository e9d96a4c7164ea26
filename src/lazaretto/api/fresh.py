"""Campaign versions for the event loop, read in a thread and shared (issue 25).

A card answered from the parsed state this process holds must first know that state
is current: the campaign's version, read after the request came. Read on the event
loop, that one indexed read waited for the interpreter lock behind the writer thread
at every step (connect, execute, fetch, roll back), under every request the loop was
serving: in a rehearsal profile over a third of the loop's time went there while a
hundred open pages fetched their cards after each change.

So the read is made in a thread, and the requests that come while one is being made
share the next one, as changes share a group commit: each request still gets a
version read after it arrived, however many pages ask at once.

Such short reads (this one, a session or a membership not in memory) run in threads
of their own, :data:`QUICK_READS`, not in the pool the routes share: there a tap's
session look-up would queue behind up to forty cards waiting for one state to be
parsed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

QUICK_READS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="lazaretto-quick-read")
"""The threads of short reads made for the event loop (threads start when first needed)."""


async def read_aside(fn: Callable[..., T], *args: object) -> T:
    """``fn(*args)``, a short read, in one of :data:`QUICK_READS`."""
    return await asyncio.get_running_loop().run_in_executor(QUICK_READS, fn, *args)


class FreshVersions:
    """Each campaign's version as read after the asking request arrived."""

    def __init__(self, read: Callable[[str], int | None]) -> None:
        self._read = read
        self._next: dict[str, asyncio.Future[int | None]] = {}
        """The read each campaign's newcomers wait for: not started yet."""
        self._readers: dict[str, asyncio.Task[None]] = {}

    async def of(self, campaign: str) -> int | None:
        """``campaign``'s version (None: no such campaign), read after this call began."""
        waiting = self._next.get(campaign)
        if waiting is None:
            waiting = self._next[campaign] = asyncio.get_running_loop().create_future()
            if campaign not in self._readers:
                self._readers[campaign] = asyncio.create_task(self._reads(campaign))
        return await asyncio.shield(waiting)

    async def _reads(self, campaign: str) -> None:
        """One read at a time per campaign, while anyone waits for one."""
        try:
            while (waiting := self._next.pop(campaign, None)) is not None:
                try:
                    version = await read_aside(self._read, campaign)
                except Exception as exc:  # each waiter hears it, as if it had read itself
                    waiting.set_exception(exc)
                else:
                    waiting.set_result(version)
        finally:
            del self._readers[campaign]
