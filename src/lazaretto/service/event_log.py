"""The event log's rows: storing events (with the subject index), reading them back,
idempotency keys, and when a running clock reaches the next countdown."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, insert
from sqlalchemy.orm import Session

from lazaretto.core.clock import ClockMode
from lazaretto.core.errors import Conflict
from lazaretto.core.events import Event, named_in
from lazaretto.core.state import CampaignState
from lazaretto.store.models import SUBJECT_MAX, EventRow, EventSubjectRow

# the tables themselves: events are inserted with Core (a re-run writes hundreds at once,
# the ORM's bulk path costs several times more per row)
_EVENTS = cast(Table, EventRow.__table__)
_SUBJECTS = cast(Table, EventSubjectRow.__table__)


def next_due_wall(state: CampaignState) -> str | None:
    """When (UTC) a running realtime clock reaches the next pending countdown."""
    clock = state.clock
    first = state.next_timer()
    if clock is None or first is None or clock.mode is not ClockMode.REALTIME or clock.paused:
        return None
    assert clock.anchor_wall is not None
    return (clock.anchor_wall + (first.deadline - clock.anchor)).isoformat()


@dataclass(frozen=True)
class Idempotency:
    """A request's idempotency key: one user's key, and a fingerprint of what the
    request asked (so the same key sent with another request is refused, 409)."""

    user: int
    key: str
    fingerprint: str = ""

    @staticmethod
    def of(user: int, key: str, *asked: Any) -> Idempotency:
        """The key of ``user``'s request asking ``asked`` (JSON-able values)."""
        blob = json.dumps(asked, sort_keys=True, default=str, separators=(",", ":"))
        return Idempotency(user, key, hashlib.sha256(blob.encode()).hexdigest())


def reused(idem: Idempotency, fingerprint: str) -> Conflict | None:
    """Conflict if ``idem``'s key already answered another request (rows from before
    fingerprints were kept have none, and are taken as the same request)."""
    if not fingerprint or not idem.fingerprint or fingerprint == idem.fingerprint:
        return None
    return Conflict(
        f"Idempotency-Key {idem.key!r} was already used for another request; "
        "send a new key for a new request",
        ru=f"Ключ Idempotency-Key {idem.key!r} уже использован для другого запроса; "
        "для нового запроса нужен новый ключ",
    )


def store_events(
    s: Session, campaign: str, events: list[Event], owner: dict[int, int] | None = None
) -> None:
    """Insert ``events`` and what each names (the subject index), in bulk; ``owner``
    maps an event's seq to the record that produced it."""
    if not events:
        return
    s.execute(
        insert(_EVENTS),
        [
            {
                "campaign_id": campaign,
                "seq": ev.seq,
                "kind": ev.kind,
                "at": ev.at.isoformat(),
                "wall": ev.wall.isoformat() if ev.wall else None,
                "actor": ev.actor,
                "action": ev.action,
                "payload": ev.payload,
                "dice": list(ev.dice),
                "rule_ids": list(ev.rule_ids),
                "record_no": (owner or {}).get(ev.seq),
            }
            for ev in events
        ],
    )
    subjects = [
        {"campaign_id": campaign, "subject": name, "seq": ev.seq}
        for ev in events
        for name in sorted(named_in(ev.payload) or ())
        if len(name) <= SUBJECT_MAX
    ]
    if subjects:
        s.execute(insert(_SUBJECTS), subjects)


def event_of(row: EventRow) -> Event:
    return Event(
        kind=row.kind,
        payload=row.payload,
        at=datetime.fromisoformat(row.at),
        wall=datetime.fromisoformat(row.wall) if row.wall else None,
        actor=row.actor,
        action=row.action,
        dice=tuple(row.dice),
        rule_ids=tuple(row.rule_ids),
        seq=row.seq,
        record=row.record_no,
    )
