"""Records, checkpoints and corrections in the database (see :mod:`lazaretto.core.history`).

Everything here runs inside the change's transaction, under the campaign's row lock:
a late record's re-run is stored whole or not at all, and two processes never re-run
one campaign at once. The values of a new record's and a checkpoint's rows come from
:mod:`lazaretto.service.rows`, shared with the CLI's SQLite write path.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, and_, delete, func, insert, or_, select, update
from sqlalchemy.orm import Session

from lazaretto.core.errors import LazarettoError
from lazaretto.core.events import Event, named_in
from lazaretto.core.history import Checkpoint, Correction, Record
from lazaretto.core.ruleset import Role
from lazaretto.service.rows import checkpoint_row, record_row
from lazaretto.store.models import (
    CheckpointRow,
    CorrectionRow,
    EventRow,
    EventSubjectRow,
    RecordRow,
)


def record_of(row: RecordRow) -> Record:
    return Record(
        no=row.no,
        kind=row.kind,
        at=datetime.fromisoformat(row.at),
        wall=datetime.fromisoformat(row.wall),
        actor=row.actor,
        role=Role(row.role),
        user=row.user_id,
        action=row.action,
        input=dict(row.input),
        voids=row.voids,
        reason=row.reason,
    )


def next_no(s: Session, campaign: str) -> int:
    """The number the next record of ``campaign`` gets."""
    last = s.scalar(select(func.max(RecordRow.no)).where(RecordRow.campaign_id == campaign))
    return int(last or 0) + 1


def last_key(s: Session, campaign: str) -> tuple[datetime, int] | None:
    """The place of the latest record in the history (voids aside)."""
    row = s.execute(
        select(RecordRow.at, RecordRow.no)
        .where(RecordRow.campaign_id == campaign, RecordRow.kind != "void")
        .order_by(RecordRow.at.desc(), RecordRow.no.desc())
        .limit(1)
    ).first()
    return None if row is None else (datetime.fromisoformat(row.at), row.no)


_RECORDS = cast(Table, RecordRow.__table__)
"""The table itself: a record is inserted with Core (on every change's path)."""


def store_record(s: Session, campaign: str, record: Record) -> None:
    s.execute(insert(_RECORDS), [record_row(campaign, record)])


def get_record(s: Session, campaign: str, no: int) -> RecordRow | None:
    return s.get(RecordRow, (campaign, no))


def voided(s: Session, campaign: str) -> dict[int, RecordRow]:
    """The void records of ``campaign``, by the record each takes back."""
    rows = s.scalars(
        select(RecordRow).where(RecordRow.campaign_id == campaign, RecordRow.kind == "void")
    )
    return {int(r.voids): r for r in rows if r.voids is not None}


def checkpoint_before(s: Session, campaign: str, key: tuple[datetime, int]) -> Checkpoint | None:
    """The latest checkpoint strictly before ``key`` in the history."""
    at = key[0].isoformat()
    row = s.scalars(
        select(CheckpointRow)
        .where(
            CheckpointRow.campaign_id == campaign,
            or_(CheckpointRow.at < at, and_(CheckpointRow.at == at, CheckpointRow.no < key[1])),
        )
        .order_by(CheckpointRow.at.desc(), CheckpointRow.no.desc())
        .limit(1)
    ).first()
    if row is None:
        return None
    return Checkpoint(row.no, datetime.fromisoformat(row.at), row.last_seq, row.state)


def first_checkpoint(s: Session, campaign: str) -> datetime | None:
    """The campaign time before which no record can be placed."""
    at = s.scalar(select(func.min(CheckpointRow.at)).where(CheckpointRow.campaign_id == campaign))
    return None if at is None else datetime.fromisoformat(at)


def records_after(s: Session, campaign: str, start: Checkpoint) -> list[Record]:
    """Every record placed after ``start`` (voids included), as stored."""
    at = start.at.isoformat()
    rows = s.scalars(
        select(RecordRow).where(
            RecordRow.campaign_id == campaign,
            or_(
                RecordRow.kind == "void",
                RecordRow.at > at,
                and_(RecordRow.at == at, RecordRow.no > start.no),
            ),
        )
    )
    return [record_of(r) for r in rows]


def store_checkpoint(s: Session, campaign: str, cp: Checkpoint) -> None:
    s.execute(insert(CheckpointRow), [checkpoint_row(campaign, cp)])


def drop_checkpoints_after(s: Session, campaign: str, start: Checkpoint) -> None:
    at = start.at.isoformat()
    s.execute(
        delete(CheckpointRow).where(
            CheckpointRow.campaign_id == campaign,
            or_(
                CheckpointRow.at > at,
                and_(CheckpointRow.at == at, CheckpointRow.no > start.no),
            ),
        )
    )


def events_after(s: Session, campaign: str, seq: int) -> list[Event]:
    from lazaretto.service.event_log import event_of

    rows = s.scalars(
        select(EventRow)
        .where(EventRow.campaign_id == campaign, EventRow.seq > seq)
        .order_by(EventRow.seq)
    )
    return [event_of(r) for r in rows]


def drop_events_after(s: Session, campaign: str, seq: int) -> None:
    """Take out the events derived after ``seq`` (a re-run derives them again)."""
    s.execute(
        delete(EventSubjectRow).where(
            EventSubjectRow.campaign_id == campaign, EventSubjectRow.seq > seq
        )
    )
    s.execute(delete(EventRow).where(EventRow.campaign_id == campaign, EventRow.seq > seq))


def mark_statuses(
    s: Session, campaign: str, records: Sequence[Record], refused: dict[int, LazarettoError]
) -> None:
    """Store what the re-run made of each record: refused (with the reason) or ok —
    only where that changed (most re-runs change no record's status)."""
    not_ok = select(RecordRow.no).where(
        RecordRow.campaign_id == campaign, RecordRow.status != "ok"
    )
    was = set(s.scalars(not_ok))
    for record in records:
        error = refused.get(record.no)
        if error is None and record.no not in was:
            continue  # ok before, ok now
        values: dict[str, Any] = (
            {"status": "ok", "refusal": None}
            if error is None
            else {
                "status": "refused",
                "refusal": {
                    "en": error.text("en"),
                    "ru": error.text("ru"),
                    "rule_ids": list(error.rule_ids),
                },
            }
        )
        s.execute(
            update(RecordRow)
            .where(RecordRow.campaign_id == campaign, RecordRow.no == record.no)
            .values(**values)
        )


def store_corrections(
    s: Session, campaign: str, cause: int, wall: datetime, found: Sequence[Correction]
) -> None:
    if not found:
        return
    s.execute(
        insert(CorrectionRow),
        [
            {
                "campaign_id": campaign,
                "cause": cause,
                "wall": wall.isoformat(),
                "change": c.change,
                "event": c.event.model_dump(mode="json"),
                "subjects": sorted(named_in(c.event.payload) or ()),
            }
            for c in found
        ],
    )


def corrections(
    s: Session, campaign: str, about: str | None = None, after: int = 0
) -> list[CorrectionRow]:
    """The campaign's corrections, oldest first (only those naming ``about``)."""
    rows = list(
        s.scalars(
            select(CorrectionRow)
            .where(CorrectionRow.campaign_id == campaign, CorrectionRow.id > after)
            .order_by(CorrectionRow.id)
        )
    )
    return [r for r in rows if about is None or about in r.subjects]


def records(s: Session, campaign: str, after: int = 0, limit: int = 1000) -> list[RecordRow]:
    """The campaign's records in arrival order (a page of them)."""
    return list(
        s.scalars(
            select(RecordRow)
            .where(RecordRow.campaign_id == campaign, RecordRow.no > after)
            .order_by(RecordRow.no)
            .limit(limit)
        )
    )
