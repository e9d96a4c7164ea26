"""Live updates: the due-timer ticker and the server-sent event stream.

The ticker fires due countdowns of running realtime campaigns about once a second
(found with one indexed query; the campaign's version check makes each fire exactly
once even with several server processes). Pages subscribe to
``/api/campaigns/{campaign}/stream`` and get a ``changed`` event whenever the
campaign's version moves, whichever process made the change: one poller per watched
campaign per process reads the version once a second and wakes every stream watching
it, so a hundred open phones cost one cheap query a second, not a hundred.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from lazaretto.api.context import CallerDep, Services, ServicesDep
from lazaretto.core.errors import LazarettoError

log = logging.getLogger("lazaretto.live")
router = APIRouter(prefix="/api")
POLL_SECONDS = 1.0
HEARTBEAT_SECONDS = 15.0
SPREAD_PER_PAGE = 0.005
"""Seconds over which the pages watching a campaign hear of a change, per page watching
(at most ``MAX_SPREAD``): three pages hear within 15 ms, a hundred within half a second."""
MAX_SPREAD = 0.5


def spread(pages: int) -> float:
    """How long notifying ``pages`` watchers of one change may take."""
    return min(MAX_SPREAD, SPREAD_PER_PAGE * pages)


async def ticker(svc: Services, stop: asyncio.Event) -> None:
    """Fire due countdowns until ``stop`` is set."""
    while not stop.is_set():
        try:
            due = await asyncio.to_thread(svc.campaigns.due_campaigns)
            for campaign in due:
                await asyncio.to_thread(svc.campaigns.catch_up, campaign)
        except LazarettoError as err:  # a busy database: try again on the next tick
            log.warning("ticker: %s", err.text())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=POLL_SECONDS)


@dataclass
class Watch:
    """The last version seen of one campaign, and an event set when it moves."""

    version: int | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    subscribers: int = 0
    task: asyncio.Task[None] | None = None


class VersionWatcher:
    """Shared pollers of campaign versions for the streams of one process."""

    def __init__(self, version_of: Callable[[str], int | None]) -> None:
        self._version_of = version_of
        self._watches: dict[str, Watch] = {}

    @contextlib.asynccontextmanager
    async def watch(self, campaign: str) -> AsyncIterator[Watch]:
        """Follow ``campaign`` while inside the block."""
        w = self._watches.setdefault(campaign, Watch())
        w.subscribers += 1
        if w.task is None:
            w.task = asyncio.create_task(self._poll(campaign, w))
        try:
            yield w
        finally:
            w.subscribers -= 1
            if w.subscribers == 0:
                w.task.cancel()
                del self._watches[campaign]

    @property
    def pollers(self) -> int:
        """How many campaigns are being polled (one poller each)."""
        return len(self._watches)

    async def _poll(self, campaign: str, w: Watch) -> None:
        while True:
            try:
                version = await asyncio.to_thread(self._version_of, campaign)
            except LazarettoError as err:  # a busy database: keep the last version
                log.warning("stream: %s", err.text())
                version = w.version
            if version != w.version:
                w.version = version
                woken, w.changed = w.changed, asyncio.Event()
                woken.set()
            await asyncio.sleep(POLL_SECONDS)


@router.get("/campaigns/{campaign}/stream", tags=["play"])
async def stream(
    campaign: str, request: Request, svc: ServicesDep, who: CallerDep
) -> StreamingResponse:
    """Server-sent events: ``changed`` whenever the campaign changes (with the clock)."""
    await asyncio.to_thread(svc.play.member, who.user, campaign)

    watcher: VersionWatcher = request.app.state.watcher

    async def events() -> AsyncIterator[str]:
        async with watcher.watch(campaign) as w:
            yield "retry: 2000\n\n"
            last: int | None = None
            while not await request.is_disconnected():
                if w.version is not None and w.version != last:
                    last = w.version
                    yield f"event: changed\ndata: {json.dumps({'version': last})}\n\n"
                    continue
                try:
                    await asyncio.wait_for(w.changed.wait(), timeout=HEARTBEAT_SECONDS)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                # every page refetches when told: tell them at staggered moments, not
                # all in the same millisecond (a herd of a hundred fetches in one queue)
                await asyncio.sleep(random.uniform(0, spread(w.subscribers)))

    return StreamingResponse(
        events(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
