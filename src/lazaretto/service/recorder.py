"""Recording a change: in order on the working state, or late, by a re-run.

A record that comes after everything already derived (the common case: a tap on a
phone that is online) runs on the writer's working state like any change. One placed
before something already derived — before a later record, or before a countdown that
has fired — is placed at its own time and the history is run again from the nearest
checkpoint before it (:func:`lazaretto.core.history.rerun`); what that changes of what
was shown becomes corrections. A void (an undo) is a record that re-runs the history
without the record it takes back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from lazaretto.core import history
from lazaretto.core.clock import ClockMode, wall_now
from lazaretto.core.errors import Conflict, Forbidden, InvalidInput, NotFound
from lazaretto.core.events import Event
from lazaretto.core.history import Checkpoint, Record, RecordKind
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.service import history_store as store


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

    @staticmethod
    def read(s: Session, campaign: str) -> Head:
        return Head(store.next_no(s, campaign), store.last_key(s, campaign))

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


def _when(draft: Draft, state: CampaignState, wall: datetime) -> datetime:
    assert state.clock is not None
    if draft.kind == "clock" and "to" in draft.input:
        return datetime.fromisoformat(draft.input["to"])
    return draft.at if draft.at is not None else state.clock.now(wall)


def _strict(rs: Ruleset, state: CampaignState) -> bool:
    params = rs.campaign_params(state.params)
    return bool(getattr(params, "timer_boundary_inclusive", False))


def _in_order(
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


def _check_window(
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


def record(
    s: Session,
    campaign: str,
    rs: Ruleset,
    state: CampaignState,
    draft: Draft,
    flush: Callable[[], None],
    head: Head,
) -> Recorded:
    """Record ``draft`` in ``campaign``: in order on ``state`` (changed in place), or
    late by a re-run (``state`` is then left as it was and the re-run's is returned).
    Raises the refusal; a late record's refusal leaves nothing stored. ``head`` is
    moved on when the record is stored."""
    wall = wall_now()
    if draft.make_input is not None:
        draft = replace(draft, input=draft.make_input(state), make_input=None)
    params = history.history_params(state.params)
    if draft.kind == "void":  # under the lock: two undos of one record cannot both pass
        assert draft.voids is not None
        check_void(s, campaign, draft.voids, draft.user, draft.role, wall, params)
    no = head.next_no
    rec = Record(
        no=no,
        kind=draft.kind,
        at=_when(draft, state, wall),
        wall=wall,
        actor=draft.actor,
        role=draft.role,
        user=draft.user,
        action=draft.action,
        input=draft.input,
        voids=draft.voids,
        reason=draft.reason,
    )
    _check_window(state, rec, params, wall)
    if rec.kind == "clock" and "to" in rec.input:
        assert state.clock is not None
        state.clock.set(rec.at, wall)  # the clock itself never goes backwards
    if _in_order(rs, state, rec, head.last):
        events = history.apply(rs, state, rec)
        store.store_record(s, campaign, rec)
        if no % params.checkpoint_every == 0:
            store.store_checkpoint(
                s, campaign, Checkpoint(no, rec.at, state.last_seq, state.model_dump_json())
            )
        head.took(rec)
        return Recorded(state, events, no)
    done = _rerun(s, campaign, rs, rec, params, flush)
    head.took(rec)
    return done


def _rerun(
    s: Session,
    campaign: str,
    rs: Ruleset,
    rec: Record,
    params: history.HistoryParams,
    flush: Callable[[], None],
) -> Recorded:
    place = rec.key()
    if rec.kind == "void":
        assert rec.voids is not None
        target = store.get_record(s, campaign, rec.voids)
        assert target is not None
        place = store.record_of(target).key()
    start = store.checkpoint_before(s, campaign, place)
    if start is None:
        floor = store.first_checkpoint(s, campaign)
        raise Conflict(
            f"{rec.at:%Y-%m-%d %H:%M:%S} is before this campaign's kept history"
            + (f" (it starts at {floor:%Y-%m-%d %H:%M:%S})" if floor else ""),
            ru=f"{rec.at:%Y-%m-%d %H:%M:%S} — раньше начала сохранённой истории кампании"
            + (f" (она начинается в {floor:%Y-%m-%d %H:%M:%S})" if floor else ""),
        )
    flush()  # the batch's earlier changes, so the re-run finds their records and events
    with s.begin_nested():  # a refusal of the late record takes back all of this
        store.store_record(s, campaign, rec)
        records = store.records_after(s, campaign, start)
        old = store.events_after(s, campaign, start.last_seq)
        outcome = history.rerun(rs, start, records, rec.wall, every=params.checkpoint_every)
        refused = outcome.refused.get(rec.no)
        if refused is not None:
            raise refused
        store.drop_events_after(s, campaign, start.last_seq)
        _store(s, campaign, outcome)
        store.mark_statuses(s, campaign, [r for r in records if r.kind != "void"],
                            outcome.refused)
        store.drop_checkpoints_after(s, campaign, start)
        for cp in outcome.checkpoints:
            store.store_checkpoint(s, campaign, cp)
        store.store_corrections(
            s,
            campaign,
            rec.no,
            rec.wall,
            history.corrections(old, outcome.events, outcome.by_record.get(rec.no, [])),
        )
    # the state itself is stored by the batch, as the parts that changed
    return Recorded(outcome.state, outcome.by_record.get(rec.no, []), rec.no, rewritten=True)


def _store(s: Session, campaign: str, outcome: history.Outcome) -> None:
    from lazaretto.service.event_log import store_events

    owner = {e.seq: no for no, events in outcome.by_record.items() for e in events}
    store_events(s, campaign, outcome.events, owner)


def check_void(
    s: Session, campaign: str, no: int, user: int | None, role: Role, wall: datetime,
    params: history.HistoryParams,
) -> None:
    """Refuse an undo that cannot be: no such record, an undo itself, already undone,
    or (not a master) another's record or one older than the undo window."""
    target = store.get_record(s, campaign, no)
    if target is None:
        raise NotFound(f"No record {no} in {campaign}", ru=f"Нет записи {no} в {campaign}")
    if target.kind == "void":
        raise Conflict(
            f"Record {no} is itself an undo; record the change again instead",
            ru=f"Запись {no} сама отменяет другую; запишите действие заново",
        )
    if no in store.voided(s, campaign):
        raise Conflict(f"Record {no} is already undone", ru=f"Запись {no} уже отменена")
    if role is Role.MASTER:
        return
    if target.user_id is None or target.user_id != user:
        raise Forbidden(
            f"Only a master or the one who made it may undo record {no}",
            ru=f"Отменить запись {no} может только мастер или тот, кто её сделал",
        )
    if wall - datetime.fromisoformat(target.wall) > params.undo_window:
        raise Forbidden(
            f"Record {no} is more than {params.undo_minutes} minutes old; ask a master to undo it",
            ru=f"Записи {no} больше {params.undo_minutes} мин; отменить её может мастер",
        )
