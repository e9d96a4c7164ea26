"""Recording a change: in order on the working state, or late, by a re-run.

A record that comes after everything already derived (the common case: a tap on a
phone that is online) runs on the writer's working state like any change. One placed
before something already derived — before a later record, or before a countdown that
has fired — is placed at its own time and the history is run again from the nearest
checkpoint before it (:func:`lazaretto.core.history.rerun`); what that changes of what
was shown becomes corrections. A void (an undo) is a record that re-runs the history
without the record it takes back.

What decides (the record made of a draft, whether it is in order, running it and
the checkpoint after it) is pure, in :mod:`lazaretto.service.placing`, shared with
the CLI's SQLite write path (``cli/fastwrite.py``), which records in-order records
only.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from sqlalchemy.orm import Session

from lazaretto.core import history
from lazaretto.core.clock import wall_now
from lazaretto.core.errors import Conflict, Forbidden, NotFound
from lazaretto.core.history import Record
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.service import history_store as store
from lazaretto.service.placing import (
    Answer,
    Draft,
    Head,
    Recorded,
    check_window,
    in_order,
    new_record,
    run_in_order,
)

__all__ = [
    "Answer", "Draft", "Head", "Recorded", "before_kept_history", "check_void", "place",
    "prepare", "read_head", "record", "run_again", "store_outcome",
]


def read_head(s: Session, campaign: str) -> Head:
    """Where ``campaign``'s history ends, as stored."""
    return Head(store.next_no(s, campaign), store.last_key(s, campaign))


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
    return place(s, campaign, rs, state, prepare(s, campaign, state, draft, head), flush, head)


def prepare(s: Session, campaign: str, state: CampaignState, draft: Draft, head: Head) -> Record:
    """The record ``draft`` makes (numbered next), once it passed the checks that need
    no re-run: an undo that can be, a time within the window. Raises the refusal."""
    wall = wall_now()
    if draft.make_input is not None:
        draft = replace(draft, input=draft.make_input(state), make_input=None)
    params = history.history_params(state.params)
    if draft.kind == "void":  # under the lock: two undos of one record cannot both pass
        assert draft.voids is not None
        check_void(s, campaign, draft.voids, draft.user, draft.role, wall, params)
    rec = new_record(draft, state, head.next_no, wall)
    check_window(state, rec, params, wall, moves_clock=draft.moves_clock)
    if rec.kind == "clock" and "to" in rec.input:
        assert state.clock is not None
        state.clock.set(rec.at, wall)  # the clock itself never goes backwards
    return rec


def place(
    s: Session,
    campaign: str,
    rs: Ruleset,
    state: CampaignState,
    rec: Record,
    flush: Callable[[], None],
    head: Head,
) -> Recorded:
    """Store the prepared ``rec``: in order on ``state``, or late by a re-run."""
    params = history.history_params(state.params)
    if in_order(rs, state, rec, head.last):
        events, cp = run_in_order(rs, state, rec, params)
        store.store_record(s, campaign, rec)
        if cp is not None:
            store.store_checkpoint(s, campaign, cp)
        head.took(rec)
        return Recorded(state, events, rec.no)
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
        raise before_kept_history(s, campaign, rec.at)
    flush()  # the batch's earlier changes, so the re-run finds their records and events
    with s.begin_nested():  # a refusal of the late record takes back all of this
        store.store_record(s, campaign, rec)
        records = store.records_after(s, campaign, start)
        old = store.events_after(s, campaign, start.last_seq)
        outcome = run_again(campaign, rs, start, records, rec.wall, params, placing=1)
        refused = outcome.refused.get(rec.no)
        if refused is not None:
            raise refused
        store_outcome(s, campaign, start, records, outcome)
        store.store_corrections(
            s,
            campaign,
            rec.no,
            rec.wall,
            history.corrections(old, outcome.events, outcome.by_record.get(rec.no, [])),
        )
    # the state itself is stored by the batch, as the parts that changed
    told = history.news(history.fired_before(old), outcome.by_record.get(rec.no, []))
    return Recorded(outcome.state, told, rec.no, rewritten=True)


SLOW_RERUN = 1.0
"""A re-run longer than this many seconds is told in the server's log (issue 25)."""
log = logging.getLogger("lazaretto.history")


def run_again(
    campaign: str,
    rs: Ruleset,
    start: history.Checkpoint,
    records: list[Record],
    wall: datetime,
    params: history.HistoryParams,
    *,
    placing: int,
    renumber_from: int | None = None,
) -> history.Outcome:
    """:func:`lazaretto.core.history.rerun`, timed: a slow one says so in the log, with
    how many records it ran and how many late ones it placed."""
    began = time.perf_counter()
    outcome = history.rerun(
        rs, start, records, wall, every=params.checkpoint_every, renumber_from=renumber_from
    )
    took = time.perf_counter() - began
    if took > SLOW_RERUN:
        log.warning(
            "campaign %s: re-ran %d records from %s to place %d late record(s) in %.1f s",
            campaign, len(records), f"{start.at:%Y-%m-%d %H:%M:%S}", placing, took,
        )
    return outcome


def before_kept_history(s: Session, campaign: str, at: datetime) -> Conflict:
    """The refusal of a record placed before the campaign's first checkpoint."""
    floor = store.first_checkpoint(s, campaign)
    return Conflict(
        f"{at:%Y-%m-%d %H:%M:%S} is before this campaign's kept history"
        + (f" (it starts at {floor:%Y-%m-%d %H:%M:%S})" if floor else ""),
        ru=f"{at:%Y-%m-%d %H:%M:%S} — раньше начала сохранённой истории кампании"
        + (f" (она начинается в {floor:%Y-%m-%d %H:%M:%S})" if floor else ""),
    )


def store_outcome(
    s: Session,
    campaign: str,
    start: history.Checkpoint,
    records: list[Record],
    outcome: history.Outcome,
) -> None:
    """Store what a re-run from ``start`` derived in place of what was derived after
    it: the events, each record's status, the checkpoints."""
    from lazaretto.service.event_log import store_events

    store.drop_events_after(s, campaign, start.last_seq)
    owner = {e.seq: no for no, events in outcome.by_record.items() for e in events}
    store_events(s, campaign, outcome.events, owner)
    store.mark_statuses(s, campaign, [r for r in records if r.kind != "void"], outcome.refused)
    store.drop_checkpoints_after(s, campaign, start)
    for cp in outcome.checkpoints:
        store.store_checkpoint(s, campaign, cp)


def check_void(
    s: Session, campaign: str, no: int, user: int | None, role: Role, wall: datetime,
    params: history.HistoryParams,
) -> None:
    """Refuse an undo that cannot be: no such record, an undo itself, already undone,
    or (not a master) one older than the undo window. To anyone but a master another's
    record is answered word for word as a missing one, before anything else is said of
    it (issue 28 L5: what others recorded, and whether it was undone, is not theirs)."""
    target = store.get_record(s, campaign, no)
    mine = target is not None and target.user_id is not None and target.user_id == user
    if target is None or (role is not Role.MASTER and not mine):
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
    if wall - datetime.fromisoformat(target.wall) > params.undo_window:
        raise Forbidden(
            f"Record {no} is more than {params.undo_minutes} minutes old; ask a master to undo it",
            ru=f"Записи {no} больше {params.undo_minutes} мин; отменить её может мастер",
        )
