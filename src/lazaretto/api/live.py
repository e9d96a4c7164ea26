"""Live updates: the due-timer ticker and the server-sent event stream.

The ticker fires due countdowns of running realtime campaigns about once a second
(found with one indexed query; the campaign's version check makes each fire exactly
once even with several server processes). Pages subscribe to
``/api/campaigns/{campaign}/stream`` and get a ``changed`` event whenever the
campaign's version moves, whichever process made the change.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from lazaretto.api.context import CallerDep, Services, ServicesDep
from lazaretto.core.errors import LazarettoError

log = logging.getLogger("lazaretto.live")
router = APIRouter(prefix="/api")
POLL_SECONDS = 1.0
HEARTBEAT_SECONDS = 15.0


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


@router.get("/campaigns/{campaign}/stream", tags=["play"])
async def stream(
    campaign: str, request: Request, svc: ServicesDep, who: CallerDep
) -> StreamingResponse:
    """Server-sent events: ``changed`` whenever the campaign changes (with the clock)."""
    await asyncio.to_thread(svc.play.member, who.user, campaign)

    async def events() -> AsyncIterator[str]:
        last: int | None = None
        idle = 0.0
        yield "retry: 2000\n\n"
        while not await request.is_disconnected():
            version = await asyncio.to_thread(svc.campaigns.version, campaign)
            if version != last:
                last = version
                idle = 0.0
                yield f"event: changed\ndata: {json.dumps({'version': version})}\n\n"
            elif idle >= HEARTBEAT_SECONDS:
                idle = 0.0
                yield ": keep-alive\n\n"
            await asyncio.sleep(POLL_SECONDS)
            idle += POLL_SECONDS

    return StreamingResponse(
        events(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
