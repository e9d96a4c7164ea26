"""Where a record goes: the record made of a draft, and whether it comes after
everything already derived (in order) or must be placed by a re-run of the history.

Pure (no database): the service's recorder (``recorder.py``) and the CLI's SQLite
write path (``cli/fastwrite.py``, issue 17) decide with these same functions; the CLI
path records only what :func:`in_order` accepts and leaves the rest to the service.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from lazaretto.core import history
from lazaretto.core.clock import ClockMode
from lazaretto.core.errors import Forbidden, InvalidInput
from lazaretto.core.events import Event
from lazaretto.core.history import Checkpoint, Record, RecordKind
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.core.state import CampaignState


class Answer(list[Event]):
    """The events a change produced, and the number of its record (None for work that
    is not a record, such as countdowns firing on a running clock)."""

    record: int | None = None

    @staticmethod
    def of(events: list[Event], record: int | None) -> Answer:
        answer = Answer(events)
        answer.record = record
        return answer


@dataclass(frozen=True)
class Draft:
    """A record as asked, before it has a number and a place.

    ``at`` None: now. ``make_input`` computes the input from the state at the moment
    the record is made (a clock change relative to the clock as it then is).
    """

    kind: RecordKind
    action: str = ""
    input: dict[str, Any] = field(default_factory=dict)
    actor: str = "master"
    role: Role = Role.MASTER
    user: int | None = None
    at: datetime | None = None
    voids: int | None = None
    reason: str = ""
    make_input: Callable[[CampaignState], dict[str, Any]] | None = None


@dataclass
class Head:
    """Where a campaign's history ends: the next record's number and the place of the
    latest one. The writer keeps it between changes (like its working state), so an
    in-order record costs no query to find its place."""

    next_no: int
    last: tuple[datetime, int] | None

    def took(self, record: Record) -> None:
        """``record`` was stored."""
        self.next_no = max(self.next_no, record.no + 1)
        if record.kind != "void" and (self.last is None or record.key() > self.last):
            self.last = record.key()


@dataclass
class Recorded:
    """What recording did: the state now, the record's events, its number, and
    whether the stored history after some point was derived again."""

    state: CampaignState
    events: list[Event]
    no: int
    rewritten: bool = False


def when(draft: Draft, state: CampaignState, wall: datetime) -> datetime:
    assert state.clock is not None
    if draft.kind == "clock" and "to" in draft.input:
        return datetime.fromisoformat(draft.input["to"])
    return draft.at if draft.at is not None else state.clock.now(wall)


def _strict(rs: Ruleset, state: CampaignState) -> bool:
    params = rs.campaign_params(state.params)
    return bool(getattr(params, "timer_boundary_inclusive", False))


def in_order(
    rs: Ruleset, state: CampaignState, record: Record, last: tuple[datetime, int] | None
) -> bool:
    """Whether ``record`` comes after everything the state already holds."""
    assert state.clock is not None
    if record.kind == "void" or (last is not None and record.key() < last):
        return False
    fired = state.fired_until
    if fired is not None and (record.at < fired or (record.at == fired and _strict(rs, state))):
        return False
    manual = state.clock.mode is ClockMode.MANUAL or state.clock.paused
    return not (manual and record.at < state.clock.now(record.wall))


def check_window(
    state: CampaignState, record: Record, params: history.HistoryParams, wall: datetime
) -> None:
    """A healer or a player places a record at most ``late_record_minutes`` back on a
    running clock, never ahead of it; masters and manual clocks have no limit."""
    clock = state.clock
    assert clock is not None
    if record.role is Role.MASTER or clock.mode is ClockMode.MANUAL or record.kind == "void":
        return
    now = clock.now(wall)
    if record.at > now + timedelta(seconds=5):
        raise InvalidInput(
            f"{record.at:%H:%M:%S} is ahead of the campaign clock ({now:%H:%M:%S})",
            ru=f"{record.at:%H:%M:%S} — позже, чем на часах кампании ({now:%H:%M:%S})",
        )
    if now - record.at > params.late_window:
        raise Forbidden(
            f"{record.at:%H:%M:%S} is more than {params.late_record_minutes} minutes back "
            f"(the clock reads {now:%H:%M:%S}); a master can record it",
            ru=f"{record.at:%H:%M:%S} — больше {params.late_record_minutes} мин назад "
            f"(на часах {now:%H:%M:%S}); записать это может мастер",
        )


def new_record(draft: Draft, state: CampaignState, no: int, wall: datetime) -> Record:
    """The record ``draft`` makes as number ``no``, arriving at wall time ``wall``
    (its input already made: ``make_input`` is applied by the caller)."""
    return Record(
        no=no,
        kind=draft.kind,
        at=when(draft, state, wall),
        wall=wall,
        actor=draft.actor,
        role=draft.role,
        user=draft.user,
        action=draft.action,
        input=draft.input,
        voids=draft.voids,
        reason=draft.reason,
    )


def run_in_order(
    rs: Ruleset, state: CampaignState, record: Record, params: history.HistoryParams
) -> tuple[list[Event], Checkpoint | None]:
    """Run the in-order ``record`` on ``state`` (in place): its events, and the
    checkpoint to store after it (every ``checkpoint_every`` records) or None. Raises
    the rules' refusal (``state`` may then be part changed: drop it)."""
    events = history.apply(rs, state, record)
    if record.no % params.checkpoint_every != 0:
        return events, None
    return events, Checkpoint(record.no, record.at, state.last_seq, state.model_dump_json())
