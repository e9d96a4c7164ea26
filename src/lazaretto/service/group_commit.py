"""Group commit: a campaign's changes are written by one writer thread at a time, in
batches, each batch one transaction with one durable commit.

The writer keeps its working state (and the parts stored of it, ``state_store``)
between batches; what a batch touched is written as parts, with an optimistic version
check against other processes (:class:`_StaleState`: the batch runs again).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from sqlalchemy import CursorResult, select, update
from sqlalchemy.orm import Session

from lazaretto.core import history, memtrim
from lazaretto.core.clock import Clock, wall_now
from lazaretto.core.errors import Conflict, LazarettoError
from lazaretto.core.events import Event
from lazaretto.core.gcpause import gc_paused
from lazaretto.core.history import Record
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.service import late_group, recorder, state_layout, state_store
from lazaretto.service.event_log import Idempotency, event_of, next_due_wall, reused, store_events
from lazaretto.service.placing import in_order
from lazaretto.service.recorder import Answer, Draft
from lazaretto.store.db import Database
from lazaretto.store.models import CampaignRow, EventRow, IdempotencyRow

RETRIES = 5
BATCH_LIMIT = 64
"""Changes committed together at most (a bound on one transaction's size and wait)."""
LINGER = 60.0
"""Seconds a server's writer thread waits idle for the next change before it ends.
Starting a thread waits for it to run, and with the history re-running on another
thread that wait fell on the event loop, under every request it served: a rehearsal
profile found 10 % of the loop's time in the slowest minutes there (issue 25)."""
TOMBSTONE_SWEEP = state_layout.TOMBSTONE_SWEEP
"""Every this many versions a campaign's old tombstones are dropped (state_store)."""

Working = tuple[int, Ruleset, CampaignState, state_store.Written]
"""A writer's working copy: its version, ruleset, state and the parts stored of it."""


class _StaleState(Exception):
    """The campaign changed under us; the transaction is rolled back and retried."""


@dataclass(eq=False)
class _Change:
    """A change waiting for (or done by) a group commit."""

    fn: Callable[[Ruleset, CampaignState], list[Event]] | None
    idempotency: Idempotency | None
    draft: Draft | None = None
    future: Future[list[Event]] = field(default_factory=Future)
    events: list[Event] = field(default_factory=list)
    record: int | None = None
    error: BaseException | None = None
    prepared: Record | None = None
    """A late record held back from its batch (:meth:`GroupCommit._commit_batch`)."""


class GroupCommit:
    """The writing half of :class:`~lazaretto.service.campaigns.CampaignService`."""

    db: Database
    _queues: dict[str, list[_Change]]
    _writers: set[str]
    _placing: dict[str, list[_Change]]
    _queue_lock: threading.Lock
    _more: threading.Condition
    linger: float
    _stopping: bool
    _cache_lock: threading.Lock
    _working: dict[str, Working]
    _heads: dict[str, tuple[int, recorder.Head]]
    _writable: Callable[[str, Session], tuple[Ruleset, CampaignState, state_store.Written, int]]
    _parse_parts: Callable[
        [str, Session], tuple[Ruleset, CampaignState, state_store.Written, int]
    ]
    _remember_clock: Callable[[str, int, Clock], None]

    def _change(
        self,
        name: str,
        fn: Callable[[Ruleset, CampaignState], list[Event]],
        idempotency: Idempotency | None = None,
    ) -> list[Event]:
        """Run ``fn`` on the state and store its events; returns once committed."""
        return self.submit(name, fn, idempotency).result()

    def submit(
        self,
        name: str,
        fn: Callable[[Ruleset, CampaignState], list[Event]] | None,
        idempotency: Idempotency | None = None,
        *,
        draft: Draft | None = None,
    ) -> Future[list[Event]]:
        """Queue ``fn`` as a change of campaign ``name``; the future holds its events
        once they are committed (or the reason it was refused).

        Group commit: the campaign's writer thread takes every change queued while it
        wrote the previous batch and runs them, in arrival order, in one transaction.
        Each change still sees the state the ones before it left, fails alone (its
        partial work is undone), and gets its own events; the batch shares one state
        write and one durable commit. The writer exists while there is work: the
        first change after a quiet spell starts it, and it ends when the queue has
        been empty for :attr:`linger` seconds. An async caller waits on the future
        without holding a thread.
        """
        change = _Change(fn, idempotency, draft)
        with self._queue_lock:
            self._queues.setdefault(name, []).append(change)
            start = name not in self._writers
            self._writers.add(name)
            if not start:
                self._more.notify_all()
        if start:
            writer = threading.Thread(
                target=self._write, args=(name,), name=f"lazaretto-writer:{name}"
            )
            try:
                writer.start()
            except BaseException:  # no thread: nobody would run the queue
                with self._queue_lock:
                    self._writers.discard(name)
                    queued = self._queues.get(name, [])
                    if change in queued:
                        queued.remove(change)
                raise
        return change.future

    def late_waiting(self, name: str, now: datetime) -> tuple[int, datetime | None]:
        """How many records of campaign ``name`` dated before ``now`` (late: a phone's
        outbox, a paper log) wait for their writer or are being placed, and the
        campaign time the oldest of them reaches back to (issue 25: the master's board
        during a Wi-Fi storm)."""
        with self._queue_lock:
            changes = [*self._queues.get(name, ()), *self._placing.get(name, ())]
        times = [
            c.draft.at
            for c in changes
            if c.draft is not None and c.draft.at is not None and c.draft.at < now
            and not c.future.done()
        ]
        return len(times), min(times, default=None)

    def warm_writer(self, name: str) -> None:
        """Parse campaign ``name``'s state as its writer's working copy, and find the
        end of its history, before the first change asks (a server's start: the first
        taps after a restart mid-battle need not wait for the parse). Nothing is taken
        if a writer is already running or a copy is held."""
        with self._queue_lock:
            if name in self._writers or name in self._working:
                return
        with self.db.transaction(readonly=True) as s:
            rs, state, written, version = self._parse_parts(name, s)
            head = recorder.read_head(s, name)
        state_store.layout(rs.state_model).track(state)
        with self._queue_lock:  # a writer that started meanwhile parsed its own
            if name not in self._writers and name not in self._working:
                self._working[name] = (version, rs, state, written)
                self._heads[name] = (version, head)

    def stop_writers(self) -> None:
        """Idle writers end now and busy ones once their queue is empty (a server
        shutting down: the process waits for its writers)."""
        with self._queue_lock:
            self._stopping = True
            self._more.notify_all()

    def _write(self, name: str) -> None:
        """The writer of campaign ``name``: batches until its queue has been empty
        for :attr:`linger` seconds."""
        while True:
            with self._queue_lock:
                self._more.wait_for(
                    lambda: self._queues.get(name) or self._stopping, timeout=self.linger
                )
                if not self._queues.get(name):
                    self._writers.discard(name)
                    return
            with self.db.write_lock:
                with self._queue_lock:  # only this writer takes from its queue
                    waiting = self._queues.pop(name)
                    batch, later = waiting[:BATCH_LIMIT], waiting[BATCH_LIMIT:]
                    if later:
                        self._queues[name] = later
                    self._placing[name] = batch
                # a caller that gave up before its change started: not run
                batch = [c for c in batch if c.future.set_running_or_notify_cancel()]
                try:
                    if batch:
                        self._run_batch(name, batch)
                finally:
                    with self._queue_lock:
                        self._placing.pop(name, None)

    def _run_batch(self, name: str, batch: list[_Change]) -> None:
        held: list[_Change] = []  # late records placed right after, by their own re-run
        reran = False
        try:
            for _ in range(RETRIES):
                try:
                    held, reran = self._commit_batch(name, batch)
                    break
                except _StaleState:  # another process wrote first: run them all again
                    self._working.pop(name, None)
                    for change in batch:
                        change.events, change.error = [], None
            else:
                busy = Conflict(
                    f"Campaign {name!r} is too busy; try again",
                    ru=f"Кампания {name!r} занята; повторите",
                )
                for change in batch:
                    change.error = busy
        except BaseException as exc:  # storage failed: nothing of the batch is stored
            self._working.pop(name, None)
            held = []
            for change in batch:
                change.events, change.error = [], exc
        finally:
            for change in batch:
                if change in held:
                    continue
                if isinstance(change.error, LazarettoError):  # an answer: no frames kept
                    change.future.set_exception(change.error.kept())
                elif change.error is not None:
                    change.future.set_exception(change.error)
                else:
                    change.future.set_result(Answer.of(change.events, change.record))
        if reran:  # what the re-run borrowed, back to the system (issue 25)
            memtrim.give_back()
        if held:
            self._run_batch(name, held)

    def _commit_batch(self, name: str, batch: list[_Change]) -> tuple[list[_Change], bool]:
        """One transaction for every change of ``batch``, but the late records at its
        end when others came with them: those are held back (returned, to be placed by
        the next transaction), so the in-order taps of a Wi-Fi storm are answered
        without waiting for the late ones' re-run (issue 25). They are numbered after
        the batch's other records either way. Also says whether the history re-ran."""
        with self.db.transaction() as s:
            # lock first, then look for earlier answers: a concurrent retry waits here
            rs, state, written, version = self._writable(name, s)
            lay = state_store.layout(rs.state_model)
            known = self._heads.pop(name, None)  # back only once the batch commits
            head = known[1] if known is not None and known[0] == version else None
            new: list[Event] = []
            owner: dict[int, int] = {}  # event seq -> its record
            rewritten = False
            answered: dict[tuple[int, str], tuple[str, list[Event]]] = {}
            keyed: list[_Change] = []  # changes run here whose answer is to be kept

            def flush() -> None:  # store what the batch made so far (before a re-run)
                store_events(s, name, new, owner)
                new.clear()

            def done_ok(change: _Change, stored: bool) -> None:  # its answer is kept
                if not stored:
                    new.extend(change.events)
                if change.record is not None:
                    owner.update((e.seq, change.record) for e in change.events)
                idem = change.idempotency
                if idem is not None and change.events:
                    answered[(idem.user, idem.key)] = (
                        idem.fingerprint,
                        Answer.of(change.events, change.record),
                    )
                    keyed.append(change)

            def rewrote(now: CampaignState) -> CampaignState:
                # stored now: a later refusal reads it back (a new state, untracked:
                # all of it is compared)
                nonlocal rewritten
                state_store.write(s, name, version + 1, lay.changes(now, written))
                rewritten = True
                return now

            late: list[tuple[_Change, Record]] = []  # late records placed together
            waiting_keys: dict[tuple[int, str], _Change] = {}
            twins: list[tuple[_Change, _Change]] = []  # a retry of a waiting late tap

            def place_late() -> None:
                nonlocal state
                if not late:
                    return
                assert head is not None
                params = history.history_params(state.params)
                with gc_paused():
                    placed = late_group.place_together(
                        s, name, rs, [rec for _, rec in late], params, flush, head
                    )
                for (change, _), one in zip(late, placed, strict=True):
                    if one.recorded is None:
                        change.error = one.refused
                        continue
                    change.events, change.record = one.recorded.events, one.recorded.no
                    state = one.recorded.state
                    done_ok(change, stored=True)
                if any(one.recorded for one in placed):
                    state = rewrote(state)
                late.clear()
                waiting_keys.clear()

            for change in batch:
                idem = change.idempotency
                if idem is not None:
                    if (idem.user, idem.key) in waiting_keys:  # answered with its twin
                        twins.append((change, waiting_keys[(idem.user, idem.key)]))
                        continue
                    earlier = answered.get((idem.user, idem.key))
                    if earlier is None:
                        earlier = self._answered_before(s, name, idem)
                    if earlier is not None:  # a retried request: answer as the first time
                        change.error = reused(idem, earlier[0])
                        change.events = earlier[1] if change.error is None else []
                        change.record = getattr(earlier[1], "record", None)
                        continue
                before = state.last_seq
                try:
                    with gc_paused():
                        if change.draft is not None:
                            head = head or recorder.read_head(s, name)
                            rec = (
                                change.prepared.model_copy(update={"no": head.next_no})
                                if change.prepared is not None
                                else recorder.prepare(s, name, state, change.draft, head)
                            )
                            if rec.kind in late_group.GROUPED and not in_order(
                                rs, state, rec, head.last
                            ):  # placed with the other late records of the batch
                                late.append((change, rec))
                                if idem is not None:
                                    waiting_keys[(idem.user, idem.key)] = change
                                continue
                            if not in_order(rs, state, rec, head.last):
                                place_late()  # an undo or a clock move: placed alone, after
                            done = recorder.place(s, name, rs, state, rec, flush, head)
                            state, change.events, change.record = done.state, done.events, done.no
                            if done.rewritten:
                                state = rewrote(state)
                        else:
                            place_late()  # what the late records do comes before it
                            assert change.fn is not None
                            change.events = change.fn(rs, state)
                except Exception as exc:  # a refusal: undo its partial work, only its own
                    change.error = exc
                    if state.last_seq != before:  # most refusals change nothing first
                        state, written = self._rebuild(name, s, new)
                    continue
                done_ok(change, stored=change.draft is not None and done.rewritten)
            held = [change for change, _ in late]  # and the retries that came with them
            held += [twin for twin, first in twins if first in held]
            if held and len(held) < len(batch):  # placed next, alone: the others need not wait
                for change, rec in late:
                    change.prepared = rec
                twins = [(twin, first) for twin, first in twins if twin not in held]
                late.clear()
            else:
                held = []
            try:
                place_late()
            except Exception as exc:  # the storage failed under the re-run
                for change, _ in late:
                    change.error = exc
                raise
            for twin, first in twins:
                _answer_like(twin, first)
            if not new and not rewritten and not any(c.record for c in batch):
                self._working[name] = (version, rs, state, written)
                if head is not None:
                    self._heads[name] = (version, head)
                return held, rewritten
            done_row = cast(
                CursorResult[Any],
                s.execute(
                    update(CampaignRow)
                    .where(CampaignRow.id == name, CampaignRow.version == version)
                    .values(version=version + 1, next_due_wall=next_due_wall(state))
                ),
            )
            if done_row.rowcount != 1:  # another process changed it first: start again
                raise _StaleState
            with gc_paused():
                state_store.write(s, name, version + 1, lay.changes(state, written))
            floor = state_layout.tombstone_floor(
                version + 1, every=TOMBSTONE_SWEEP, kept=state_store.TOMBSTONES_KEPT
            )
            if floor is not None:
                state_store.drop_tombstones(s, name, floor)
            store_events(s, name, new, owner)
            wall = wall_now().isoformat()
            for change in keyed:
                assert change.idempotency is not None
                s.add(
                    IdempotencyRow(
                        campaign_id=name,
                        user_id=change.idempotency.user,
                        key=change.idempotency.key,
                        fingerprint=change.idempotency.fingerprint,
                        response={
                            "seqs": [e.seq for e in change.events],
                            "record": change.record,
                        },
                        created_wall=wall,
                    )
                )
        # committed: keep working on the state; readers catch up from the parts
        self._working[name] = (version + 1, rs, state, written)
        if head is not None:
            self._heads[name] = (version + 1, head)
        if state.clock is not None:
            with self._cache_lock:
                self._remember_clock(name, version + 1, state.clock)
        return held, rewritten

    @staticmethod
    def _answered_before(
        s: Session, name: str, idem: Idempotency
    ) -> tuple[str, list[Event]] | None:
        """The fingerprint and events of the user's earlier request with this key."""
        done_before = s.get(IdempotencyRow, (name, idem.user, idem.key))
        if done_before is None:
            return None
        response = done_before.response
        no = response.get("record")
        if isinstance(no, int):  # the record's events as the history now has them
            q = select(EventRow).where(EventRow.campaign_id == name, EventRow.record_no == no)
        else:
            seqs = list(response.get("seqs", []))  # type: ignore[call-overload]
            q = select(EventRow).where(EventRow.campaign_id == name, EventRow.seq.in_(seqs))
        rows = s.scalars(q.order_by(EventRow.seq))
        events = [event_of(r) for r in rows]
        return done_before.fingerprint, Answer.of(events, no if isinstance(no, int) else None)

    def _rebuild(
        self, name: str, s: Session, events: list[Event]
    ) -> tuple[CampaignState, state_store.Written]:
        """The stored state with ``events`` (the batch's changes so far) applied again,
        and the stored parts."""
        rs, state, written, _ = self._parse_parts(name, s)
        state_store.layout(rs.state_model).track(state)
        with gc_paused():
            for ev in events:
                rs.reducers.apply(state, ev)
                state.last_seq = ev.seq
        return state, written


def _answer_like(twin: _Change, first: _Change) -> None:
    """A retried tap that came while its first sending waited to be placed: answered
    as that one was (or refused, if its key was used for another request)."""
    assert twin.idempotency is not None and first.idempotency is not None
    twin.error = reused(twin.idempotency, first.idempotency.fingerprint) or first.error
    twin.events, twin.record = ([], None) if twin.error else (first.events, first.record)
