"""The history over HTTP: records, undo, corrections (see docs/late-records.md)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.concurrency import run_in_threadpool

from lazaretto.api.context import CallerDep, ServicesDep
from lazaretto.api.routes import ChangerDep, event_public
from lazaretto.api.schemas import VoidRequest, VoidResult

router = APIRouter(prefix="/api/campaigns/{campaign}", tags=["history"])


@router.post("/records/{record}/void", response_model=VoidResult)
async def void(
    campaign: str, record: int, body: VoidRequest, svc: ServicesDep, who: ChangerDep
) -> VoidResult:
    """Undo a record: the one who made it within the campaign's ``undo_minutes``, a
    master at any time. The undo is itself a record; the history runs again without
    the record, and what that changes of what was shown becomes corrections."""
    done = await asyncio.shield(
        asyncio.ensure_future(
            run_in_threadpool(svc.play.void, who.user, campaign, record, body.reason)
        )
    )
    return VoidResult(
        record=getattr(done, "record", None),
        voids=record,
        events=[event_public(e) for e in done],
    )


@router.get("/records")
def records(
    campaign: str,
    svc: ServicesDep,
    who: CallerDep,
    after: Annotated[int, Query(ge=0, description="only records after this one")] = 0,
    limit: Annotated[int, Query(ge=1, le=10_000)] = 1000,
) -> list[dict[str, Any]]:
    """The records in arrival order with what the history made of each (``ok``,
    ``refused`` on re-run with the reason, ``undone``): a master sees all, others their
    own."""
    return svc.play.records(who.user, campaign, after, limit)


@router.get("/corrections")
def corrections(
    campaign: str,
    svc: ServicesDep,
    who: CallerDep,
    about: Annotated[
        str | None, Query(max_length=80, description="only those about this character")
    ] = None,
) -> list[dict[str, Any]]:
    """What late records and undos changed of what had been shown, oldest first
    (masters all; healers and players about a character, what everyone may see)."""
    return svc.play.corrections(who.user, campaign, about)
