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
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from fastapi.concurrency import run_in_threadpool


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
                    version = await run_in_threadpool(self._read, campaign)
                except Exception as exc:  # each waiter hears it, as if it had read itself
                    waiting.set_exception(exc)
                else:
                    waiting.set_result(version)
        finally:
            del self._readers[campaign]
