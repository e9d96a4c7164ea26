"""The rows a change writes to the log and the history, as plain values.

An event becomes a row of ``events`` and one row of ``event_subjects`` per name it
mentions; a record a row of ``records``; a checkpoint a row of ``checkpoints``; the
campaign's row gets ``next_due_wall``. The service stores these with SQLAlchemy
(``event_log.py``, ``history_store.py``) and the CLI's SQLite write path with the
standard library (``cli/fastwrite.py``, issue 17): the same values from the same
functions, so the two paths write the same rows. The columns named in
:data:`JSON_COLUMNS` hold JSON (``store/models.py``: SQLAlchemy encodes them with
``json.dumps``, ``None`` as ``null``). Imports no database library;
tests/unit/test_codebase.py checks these copies agree with the models.
"""

from __future__ import annotations

from typing import Any

from lazaretto.core.clock import ClockMode
from lazaretto.core.events import Event, named_in
from lazaretto.core.history import Checkpoint, Record
from lazaretto.core.state import CampaignState

SUBJECT_MAX = 80
"""The longest name the subject index keeps (``store.models.SUBJECT_MAX``)."""

JSON_COLUMNS: dict[str, tuple[str, ...]] = {
    "events": ("payload", "dice", "rule_ids"),
    "event_subjects": (),
    "records": ("input", "refusal"),
    "checkpoints": (),
}
"""The JSON columns of each table these rows go to."""

Row = dict[str, Any]


def next_due_wall(state: CampaignState) -> str | None:
    """When (UTC) a running realtime clock reaches the next pending countdown."""
    clock = state.clock
    first = state.next_timer()
    if clock is None or first is None or clock.mode is not ClockMode.REALTIME or clock.paused:
        return None
    assert clock.anchor_wall is not None
    return (clock.anchor_wall + (first.deadline - clock.anchor)).isoformat()


def event_rows(
    campaign: str, events: list[Event], owner: dict[int, int] | None = None
) -> list[Row]:
    """The ``events`` rows of ``events``; ``owner`` maps an event's seq to the record
    that produced it."""
    return [
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
    ]


def subject_rows(campaign: str, events: list[Event]) -> list[Row]:
    """The ``event_subjects`` rows: what each event names (the index behind one
    character's history)."""
    return [
        {"campaign_id": campaign, "subject": name, "seq": ev.seq}
        for ev in events
        for name in sorted(named_in(ev.payload) or ())
        if len(name) <= SUBJECT_MAX
    ]


def record_row(campaign: str, record: Record) -> Row:
    """The ``records`` row of a record just accepted (status ``ok``)."""
    return {
        "campaign_id": campaign,
        "no": record.no,
        "kind": record.kind,
        "at": record.at.isoformat(),
        "wall": record.wall.isoformat(),
        "actor": record.actor,
        "role": record.role.value,
        "user_id": record.user,
        "action": record.action,
        "input": record.input,
        "voids": record.voids,
        "reason": record.reason,
        "status": "ok",
        "refusal": None,
    }


def checkpoint_row(campaign: str, cp: Checkpoint) -> Row:
    """The ``checkpoints`` row of ``cp``."""
    return {
        "campaign_id": campaign,
        "no": cp.no,
        "at": cp.at.isoformat(),
        "last_seq": cp.last_seq,
        "state": cp.state,
    }

