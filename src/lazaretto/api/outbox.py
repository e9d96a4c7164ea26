"""``POST /api/campaigns/{campaign}/outbox``: a phone's waiting taps in one request.

When the Wi-Fi comes back, a phone that sends its outbox one tap at a time makes the
server place its late records one group commit after another: thirty phones with ten
taps each are ten rounds of re-runs of the battle (issue 25). Sent together, a phone's
taps are queued in their order at once and placed by one re-run with everyone else's.

Each tap is answered as its own request to ``…/actions/{action}`` would be (its status,
its record and events, or its refusal in the caller's language), with its own
idempotency key: a retried outbox records nothing twice. A tap the rules refuse is
refused alone; the taps after it go on, as they do one at a time. Only when a tap
cannot even be queued (429: the caller has too many changes waiting) are the taps
after it not sent either, and say so: the outbox keeps them, in order, for later.
"""

from __future__ import annotations

from concurrent.futures import Future
from functools import partial
from typing import Any

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, ConfigDict, Field

from lazaretto.api.actions import parsed_at
from lazaretto.api.context import LangDep, ServicesDep, committed
from lazaretto.api.routes import ChangerDep, event_public
from lazaretto.api.schemas import EventPublic
from lazaretto.core.errors import LazarettoError
from lazaretto.core.events import Event
from lazaretto.service.play import OUTBOX_MAX, queue_in_order

router = APIRouter(prefix="/api/campaigns/{campaign}", tags=["actions"])


class OutboxTap(BaseModel):
    """One waiting tap: the action, its input, when it was made, its key."""

    model_config = ConfigDict(extra="forbid")

    action: str = Field(max_length=80, description="the action, as in …/actions/{action}")
    input: dict[str, Any] = Field(default_factory=dict, description="the action's input")
    at: str | None = Field(
        None, max_length=40,
        description="the campaign time the tap was made (as the action's `at`); left out: now",
    )  # fmt: skip
    key: str = Field(
        min_length=1, max_length=100,
        description="the tap's Idempotency-Key: the same key is recorded once",
    )  # fmt: skip


class OutboxRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    taps: list[OutboxTap] = Field(
        min_length=1, max_length=OUTBOX_MAX,
        description=f"the taps in the order they were made (at most {OUTBOX_MAX})",
    )  # fmt: skip


class TapAnswer(BaseModel):
    """What one tap of the outbox was answered: as its own request would have been."""

    key: str
    status: int = Field(description="200 recorded; else the refusal's HTTP status")
    record: int | None = None
    events: list[EventPublic] = Field(default_factory=list)
    error: str | None = Field(None, description="the refusal's kind (as an error body's)")
    message: str | None = Field(None, description="the refusal, in the caller's language")
    rule_ids: list[str] = Field(default_factory=list)


class OutboxResult(BaseModel):
    answers: list[TapAnswer] = Field(description="one per tap, in the order sent")
    now: str


def _refused(key: str, err: LazarettoError, lang: str) -> TapAnswer:
    body = err.to_dict(lang)
    return TapAnswer(key=key, status=err.http_status, error=str(body["error"]),
                     message=str(body["message"]), rule_ids=list(err.rule_ids))  # fmt: skip


@router.post("/outbox", response_model=OutboxResult, summary="Send a phone's waiting taps")
async def send_outbox(
    campaign: str, body: OutboxRequest, svc: ServicesDep, who: ChangerDep, lang: LangDep
) -> OutboxResult:
    """A phone's waiting taps, in the order they were made, in one request (at most
    ``OUTBOX_MAX``): each recorded once at its own time, or refused alone, and answered
    as its own request to the action's endpoint would be. / Ожидающие отправки нажатия
    телефона одним запросом: каждое записывается один раз в своё время или получает
    свой отказ."""
    await run_in_threadpool(svc.play.member, who.user, campaign)  # not theirs: refused whole
    now = None
    if any(t.at for t in body.taps):
        now = (await run_in_threadpool(svc.campaigns.clock, campaign)).now()

    def submit(tap: OutboxTap) -> Future[list[Event]]:
        when = parsed_at(tap.at, now) if tap.at and now is not None else None
        return svc.play.submit_act(
            who.user, campaign, tap.action, tap.input, at=when, idempotency_key=tap.key
        )

    sent = queue_in_order([partial(submit, tap) for tap in body.taps])
    answers: list[TapAnswer] = []
    for tap, one in zip(body.taps, sent, strict=True):
        events = await committed(one)
        if isinstance(events, LazarettoError):
            answers.append(_refused(tap.key, events, lang))
        else:
            record = getattr(events, "record", None)
            answers.append(TapAnswer(key=tap.key, status=200, record=record,
                                     events=[event_public(e) for e in events]))  # fmt: skip
    clock = svc.campaigns.clock(campaign, just_changed=True)
    return OutboxResult(answers=answers, now=clock.now().isoformat())
