"""The event log's rows: storing events (with the subject index), reading them back,
idempotency keys. The rows' values (and when a running clock reaches the next
countdown) come from :mod:`lazaretto.service.rows`, shared with the CLI's SQLite
write path."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, insert
from sqlalchemy.orm import Session

from lazaretto.core.errors import Conflict
from lazaretto.core.events import Event
from lazaretto.service.rows import event_rows, next_due_wall, subject_rows
from lazaretto.store.models import EventRow, EventSubjectRow

__all__ = ["Idempotency", "event_of", "next_due_wall", "reused", "store_events"]

# the tables themselves: events are inserted with Core (a re-run writes hundreds at once,
# the ORM's bulk path costs several times more per row)
_EVENTS = cast(Table, EventRow.__table__)
_SUBJECTS = cast(Table, EventSubjectRow.__table__)


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
    s.execute(insert(_EVENTS), event_rows(campaign, events, owner))
    subjects = subject_rows(campaign, events)
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
