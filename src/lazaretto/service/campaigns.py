"""The campaign service: every change runs in one database transaction.

Load the campaign's state, let the engine run the action (firing due timers first),
append the events and store the new state with an optimistic version check, commit.
Nothing is reported as done before the commit.

The state is stored as parts, one row per entity (``service/state_store.py``): a
change writes what it touched, not the whole campaign. Parsing a campaign's stored
state is the most expensive step of a change, so the process that writes a campaign
keeps its working copy between changes: under the row lock it reads only the stored
version, and reuses the copy when nobody else (another process) changed the campaign
since. A change that fails drops the copy, since the engine may have applied part of
it. Readers never see the working copy: they keep their own parsed state and bring it
up to date from the parts written since (copy on write).
"""

from __future__ import annotations

import hashlib
import heapq
import json
import random
import re
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from sqlalchemy import CursorResult, Row, func, insert, select, update
from sqlalchemy.orm import Session

from lazaretto.core import engine
from lazaretto.core.character import Character
from lazaretto.core.clock import Clock, ClockMode, check_in_range, wall_now
from lazaretto.core.errors import Conflict, InvalidInput, NotFound
from lazaretto.core.events import Event, named_in
from lazaretto.core.gcpause import gc_paused
from lazaretto.core.history import Checkpoint
from lazaretto.core.registry import get_ruleset
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.service import history_store, recorder, state_store
from lazaretto.service.recorder import Answer, Draft
from lazaretto.store.db import Database
from lazaretto.store.models import (
    SUBJECT_MAX,
    CampaignRow,
    CorrectionRow,
    EventRow,
    EventSubjectRow,
    IdempotencyRow,
)


def next_due_wall(state: CampaignState) -> str | None:
    """When (UTC) a running realtime clock reaches the next pending countdown."""
    clock = state.clock
    first = state.next_timer()
    if clock is None or first is None or clock.mode is not ClockMode.REALTIME or clock.paused:
        return None
    assert clock.anchor_wall is not None
    return (clock.anchor_wall + (first.deadline - clock.anchor)).isoformat()


class _StaleState(Exception):
    """The campaign changed under us; the transaction is rolled back and retried."""


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


NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$")
RETRIES = 5
BATCH_LIMIT = 64
TOMBSTONE_SWEEP = 100
"""Every this many versions a campaign's old tombstones are dropped (state_store)."""
"""Changes committed together at most (a bound on one transaction's size and wait)."""


@dataclass(frozen=True)
class CampaignInfo:
    """A campaign as listed."""

    id: str
    ruleset: str
    clock: Clock
    now: datetime
    characters: int
    pending_timers: int
    events: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "ruleset": self.ruleset,
            "clock": self.clock.mode.value,
            "paused": self.clock.paused,
            "now": self.now.isoformat(),
            "characters": self.characters,
            "pending_timers": self.pending_timers,
            "events": self.events,
        }


def _reused(idem: Idempotency, fingerprint: str) -> Conflict | None:
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
        insert(EventRow),
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
        s.execute(insert(EventSubjectRow), subjects)


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


class CampaignService:
    """Campaigns, characters, actions, the clock and queries over one database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        # readers' shared states: (version, parsed state), never modified
        self._cache: dict[str, tuple[int, CampaignState]] = {}
        self._cache_lock = threading.Lock()
        # writers' working copies (version, ruleset, state, its stored parts); used
        # under db.write_lock
        self._working: dict[str, tuple[int, Ruleset, CampaignState, state_store.Written]] = {}
        # writers' ends of the history (version, head), kept like the working copies
        self._heads: dict[str, tuple[int, recorder.Head]] = {}
        self._parse_locks: dict[str, threading.Lock] = {}
        # the clock of each campaign's newest version seen here (clocks are frozen)
        self._clocks: dict[str, tuple[int, Clock]] = {}
        # changes waiting for their campaign's writer (group commit), and the
        # campaigns whose writer thread is running
        self._queues: dict[str, list[_Change]] = {}
        self._writers: set[str] = set()
        self._queue_lock = threading.Lock()
        # for live pages: the newest correction the news has told of, per campaign
        self._corrections_seen: dict[str, int] = {}

    # --- campaigns -------------------------------------------------------------
    def create_campaign(
        self,
        name: str,
        ruleset_id: str,
        *,
        clock: ClockMode = ClockMode.MANUAL,
        start: datetime | None = None,
        seed: int | None = None,
        params: dict[str, Any] | None = None,
    ) -> CampaignInfo:
        """Create a campaign; refuses a taken or malformed name."""
        if not NAME.match(name):
            raise InvalidInput(
                f"Campaign name {name!r}: use letters, digits, '-', '_' or '.' (up to 80)",
                ru=f"Имя кампании {name!r}: буквы, цифры, '-', '_' или '.' (до 80)",
            )
        rs = get_ruleset(ruleset_id)
        wall = wall_now()
        start = check_in_range(start or datetime.now().replace(microsecond=0))
        clk = Clock(
            mode=clock, anchor=start, anchor_wall=wall if clock is ClockMode.REALTIME else None
        )
        state, events = engine.new_state(
            rs,
            name,
            clk,
            seed if seed is not None else random.SystemRandom().randrange(2**31),
            params,
            wall,
        )
        with self.db.transaction() as s:
            if s.get(CampaignRow, name) is not None:
                raise Conflict(
                    f"Campaign {name!r} already exists", ru=f"Кампания {name!r} уже существует"
                )
            s.add(
                CampaignRow(
                    next_due_wall=next_due_wall(state),
                    id=name,
                    ruleset=rs.id,
                    created_wall=wall.isoformat(),
                    version=1,
                    state="",
                )
            )
            s.flush()
            state_store.write_whole(s, name, 1, state)
            store_events(s, name, events)
            # the history starts here: a late record re-runs from this state at the latest
            history_store.store_checkpoint(
                s, name, Checkpoint(0, clk.now(wall), state.last_seq, state.model_dump_json())
            )
        return self.info(name)

    def campaigns(self) -> list[CampaignInfo]:
        """Every campaign, by name."""
        with self.db.transaction(readonly=True) as s:
            names = list(s.scalars(select(CampaignRow.id).order_by(CampaignRow.id)))
        return [self.info(n) for n in names]

    def info(self, name: str) -> CampaignInfo:
        """One campaign's summary; a campaign whose stored state cannot be read is
        listed as damaged (``service/repair.py``) instead of failing every list."""
        try:
            rs, state, _ = self.load(name)
        except ValueError as exc:  # pydantic's ValidationError: the stored JSON is damaged
            from lazaretto.service.repair import damaged_info

            return damaged_info(self, name, exc)
        assert state.clock is not None
        return CampaignInfo(
            name,
            rs.id,
            state.clock,
            state.clock.now(),
            len(state.characters),
            len(state.timers),
            state.last_seq,
        )

    def load(self, name: str, session: Session | None = None) -> tuple[Ruleset, CampaignState, int]:
        """The campaign's ruleset, current state and version — for reading only.

        Outside a change, the parsed state is shared from a per-process cache while the
        campaign's version is unchanged: callers must not modify it.
        """
        if session is not None:
            return self._parse(name, session)
        head = self._head(name)
        ready = self._parsed_at(name, head)
        if ready is not None:
            return ready
        rs = get_ruleset(head.ruleset)
        # a change was just made: the pages watching it all ask at once; one of them
        # parses, the others wait for it instead of parsing the same state again
        with self._parsing(name):
            cached = self._cache.get(name)
            if cached is not None and cached[0] == head.version:
                return rs, cached[1], head.version
            with self.db.transaction(readonly=True) as s:
                if cached is not None and cached[0] < head.version:
                    caught_up = self._catch_up(name, rs, s, *cached)
                    if caught_up is not None:
                        self._remember(name, *caught_up)
                        return rs, caught_up[1], caught_up[0]
                rs, state, version = self._parse(name, s)
            self._remember(name, version, state)
            return rs, state, version

    @staticmethod
    def _catch_up(
        name: str, rs: Ruleset, s: Session, version: int, state: CampaignState
    ) -> tuple[int, CampaignState] | None:
        """``state`` (stored at ``version``) brought up to date from the parts written
        since; None when the tombstones it would need are gone (read it all again).

        The campaign's version is read before the parts: the parts may then be newer
        than it (read again later, harmlessly), never older."""
        row = s.execute(
            select(CampaignRow.version, CampaignRow.parts_floor).where(CampaignRow.id == name)
        ).first()
        if row is None or version < row.parts_floor:
            return None
        rows = state_store.read_since(s, name, version)
        floor = s.scalar(select(CampaignRow.parts_floor).where(CampaignRow.id == name))
        if floor is None or version < floor:  # tombstones were dropped meanwhile
            return None
        with gc_paused():
            return row.version, state_store.layout(rs.state_model).apply(state, rows)

    def parsed(self, name: str) -> tuple[Ruleset, CampaignState, int] | None:
        """:meth:`load` if this process holds the current version parsed, else None:
        one indexed read, no parsing, so an async caller may ask it in its event loop
        and turn to :meth:`load` in a thread only when it answers None."""
        return self._parsed_at(name, self._head(name))

    def _parsed_at(
        self, name: str, head: Row[tuple[int, str]]
    ) -> tuple[Ruleset, CampaignState, int] | None:
        """The shared parsed state, if this process holds it at ``head``'s version."""
        cached = self._cache.get(name)
        if cached is not None and cached[0] == head.version:
            return get_ruleset(head.ruleset), cached[1], head.version
        return None

    def ruleset(self, name: str) -> Ruleset:
        """The campaign's ruleset (one indexed read, no state parsed)."""
        return get_ruleset(self._head(name).ruleset)

    def _head(self, name: str) -> Row[tuple[int, str]]:
        """The campaign's version and ruleset."""
        head = self.db.read_first(
            select(CampaignRow.version, CampaignRow.ruleset).where(CampaignRow.id == name)
        )
        if head is None:
            raise self._no_campaign(name)
        return head

    def _parsing(self, name: str) -> threading.Lock:
        """The lock that lets one reader at a time parse ``name``'s state."""
        with self._cache_lock:
            return self._parse_locks.setdefault(name, threading.Lock())

    def clock(self, name: str, *, just_changed: bool = False) -> Clock:
        """The campaign's clock, cheaply: no state is parsed while this process knows
        the clock of the stored version. ``just_changed``: right after a change made by
        this process, skip even the version check (the clock that change left)."""
        known = self._clocks.get(name)
        if just_changed and known is not None:
            return known[1]
        head = self.db.read_first(select(CampaignRow.version).where(CampaignRow.id == name))
        version = None if head is None else head.version
        known = self._clocks.get(name)
        if known is not None and known[0] == version:
            return known[1]
        state = self.load(name)[1]
        assert state.clock is not None
        return state.clock

    def _parse(self, name: str, session: Session) -> tuple[Ruleset, CampaignState, int]:
        """A fresh, private copy of the stored state (a change may modify it)."""
        rs, state, _, version = self._parse_parts(name, session)
        return rs, state, version

    def _parse_parts(
        self, name: str, session: Session
    ) -> tuple[Ruleset, CampaignState, state_store.Written, int]:
        """The stored state, its parts and its version. A campaign with no parts (its
        state was damaged before they existed) is parsed from its old document, which
        raises for the damage (``lazaretto repair`` rebuilds it)."""
        row = session.get(CampaignRow, name)
        if row is None:
            raise self._no_campaign(name)
        rs = get_ruleset(row.ruleset)
        written = state_store.read_all(session, name)
        lay = state_store.layout(rs.state_model)
        with gc_paused():
            if state_store.GLOBAL not in written:
                state = rs.state_model.model_validate_json(row.state)
                written = lay.split_state(state)
            else:
                state = lay.assemble(written)
        return rs, state, written, row.version

    def _writable(
        self, name: str, session: Session
    ) -> tuple[Ruleset, CampaignState, state_store.Written, int]:
        """The state to change and its stored parts, under the campaign's row lock
        (PostgreSQL ``FOR UPDATE``: writers of one campaign in any process queue
        instead of racing; SQLite's BEGIN IMMEDIATE already serialises them): this
        process's working copy if the campaign is still at its version, else freshly
        parsed."""
        version = session.scalar(
            select(CampaignRow.version).where(CampaignRow.id == name).with_for_update()
        )
        if version is None:
            raise self._no_campaign(name)
        working = self._working.pop(name, None)  # back only once the change commits
        if working is not None and working[0] == version:
            return working[1], working[2], working[3], version
        if working is not None and working[0] < version:  # another process wrote since
            old, rs, state, written = working
            floor = session.scalar(select(CampaignRow.parts_floor).where(CampaignRow.id == name))
            if floor is not None and old >= floor:
                rows = state_store.read_since(session, name, old)
                with gc_paused():
                    state_store.layout(rs.state_model).apply_in_place(state, written, rows)
                return rs, state, written, version
        rs, state, written, _ = self._parse_parts(name, session)
        state_store.layout(rs.state_model).track(state)
        return rs, state, written, version

    def _remember(self, name: str, version: int, state: CampaignState) -> None:
        with self._cache_lock:
            if state.clock is not None:
                self._remember_clock(name, version, state.clock)
            cached = self._cache.get(name)
            if cached is None or cached[0] < version:
                self._cache[name] = (version, state)

    def _remember_clock(self, name: str, version: int, clock: Clock) -> None:
        known = self._clocks.get(name)
        if known is None or known[0] <= version:
            self._clocks[name] = (version, clock)

    @staticmethod
    def _no_campaign(name: str) -> NotFound:
        return NotFound(
            f"No campaign {name!r}",
            ru=f"Нет кампании {name!r}",
            tip="See `lazaretto campaign list`.",
            tip_ru="Список: `lazaretto campaign list`.",
        )

    # --- changes ---------------------------------------------------------------
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
        first change after a quiet spell starts it, and it ends when the queue is
        empty. An async caller waits on the future without holding a thread.
        """
        change = _Change(fn, idempotency, draft)
        with self._queue_lock:
            self._queues.setdefault(name, []).append(change)
            start = name not in self._writers
            self._writers.add(name)
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

    def _write(self, name: str) -> None:
        """The writer of campaign ``name``: batches until its queue is empty."""
        while True:
            with self.db.write_lock:
                with self._queue_lock:
                    waiting = self._queues.pop(name, [])
                    if not waiting:
                        self._writers.discard(name)
                        return
                    batch, later = waiting[:BATCH_LIMIT], waiting[BATCH_LIMIT:]
                    if later:
                        self._queues[name] = later
                # a caller that gave up before its change started: not run
                batch = [c for c in batch if c.future.set_running_or_notify_cancel()]
                if batch:
                    self._run_batch(name, batch)

    def _run_batch(self, name: str, batch: list[_Change]) -> None:
        try:
            for _ in range(RETRIES):
                try:
                    self._commit_batch(name, batch)
                    return
                except _StaleState:  # another process wrote first: run them all again
                    self._working.pop(name, None)
                    for change in batch:
                        change.events, change.error = [], None
            busy = Conflict(
                f"Campaign {name!r} is too busy; try again",
                ru=f"Кампания {name!r} занята; повторите",
            )
            for change in batch:
                change.error = busy
        except BaseException as exc:  # storage failed: nothing of the batch is stored
            self._working.pop(name, None)
            for change in batch:
                change.events, change.error = [], exc
        finally:
            for change in batch:
                if change.error is not None:
                    change.future.set_exception(change.error)
                else:
                    change.future.set_result(Answer.of(change.events, change.record))

    def _commit_batch(self, name: str, batch: list[_Change]) -> None:
        """One transaction for every change of ``batch``."""
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

            for change in batch:
                idem = change.idempotency
                if idem is not None:
                    earlier = answered.get((idem.user, idem.key))
                    if earlier is None:
                        earlier = self._answered_before(s, name, idem)
                    if earlier is not None:  # a retried request: answer as the first time
                        change.error = _reused(idem, earlier[0])
                        change.events = earlier[1] if change.error is None else []
                        change.record = getattr(earlier[1], "record", None)
                        continue
                before = state.last_seq
                try:
                    with gc_paused():
                        if change.draft is not None:
                            head = head or recorder.Head.read(s, name)
                            done = recorder.record(s, name, rs, state, change.draft, flush, head)
                            state, change.events, change.record = done.state, done.events, done.no
                            if done.rewritten:  # stored now: a later refusal reads it back
                                # (a new state, untracked: all of it is compared)
                                state_store.write(
                                    s, name, version + 1, lay.changes(state, written)
                                )
                                rewritten = True
                        else:
                            assert change.fn is not None
                            change.events = change.fn(rs, state)
                except Exception as exc:  # a refusal: undo its partial work, only its own
                    change.error = exc
                    if state.last_seq != before:  # most refusals change nothing first
                        state, written = self._rebuild(name, s, new)
                    continue
                if change.draft is None or not done.rewritten:
                    new += change.events
                if change.record is not None:
                    owner.update((e.seq, change.record) for e in change.events)
                if idem is not None and change.events:
                    answered[(idem.user, idem.key)] = (
                        idem.fingerprint,
                        Answer.of(change.events, change.record),
                    )
                    keyed.append(change)
            if not new and not rewritten and not any(c.record for c in batch):
                self._working[name] = (version, rs, state, written)
                if head is not None:
                    self._heads[name] = (version, head)
                return
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
            if (version + 1) % TOMBSTONE_SWEEP == 0:
                state_store.forget_tombstones(s, name, version + 1)
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

    def add_character(self, campaign: str, character: Character) -> list[Event]:
        """Add a character to a campaign (a record)."""
        draft = Draft("character", input={"character": character.model_dump(mode="json")})
        return self.submit(campaign, None, draft=draft).result()

    def act(
        self,
        campaign: str,
        action: str,
        raw: dict[str, Any],
        *,
        actor: str = "master",
        role: Role = Role.MASTER,
        at: datetime | None = None,
        idempotency: Idempotency | None = None,
        user: int | None = None,
    ) -> list[Event]:
        """Run a ruleset action; returns every event it caused (timers fired first).

        ``at`` in the past places it there (a late record: what follows is run again).
        ``idempotency``: a retry with the same key changes nothing and returns the
        first answer's events. The answer is an :class:`Answer` (its ``record``).
        """
        return self.submit_act(
            campaign, action, raw, actor=actor, role=role, at=at, idempotency=idempotency,
            user=user,
        ).result()

    def submit_act(
        self,
        campaign: str,
        action: str,
        raw: dict[str, Any],
        *,
        actor: str = "master",
        role: Role = Role.MASTER,
        at: datetime | None = None,
        idempotency: Idempotency | None = None,
        user: int | None = None,
    ) -> Future[list[Event]]:
        """:meth:`act` without waiting: the future holds the events once committed."""
        draft = Draft("act", action, raw, actor=actor, role=role, user=user, at=at)
        return self.submit(campaign, None, idempotency, draft=draft)

    def void(
        self,
        campaign: str,
        no: int,
        *,
        actor: str = "master",
        role: Role = Role.MASTER,
        user: int | None = None,
        reason: str = "",
    ) -> list[Event]:
        """Take back record ``no`` (an undo, itself a record): the history runs again
        without it. A master may at any time; the one who made it within the
        campaign's ``undo_minutes``."""

        draft = Draft("void", actor=actor, role=role, user=user, voids=no, reason=reason)
        return self.submit(campaign, None, draft=draft).result()

    def records(self, campaign: str, after: int = 0, limit: int = 1000) -> list[dict[str, Any]]:
        """The campaign's records in arrival order, with what the history made of
        each (ok, refused on re-run with the reason, or undone by a later record)."""
        self._head(campaign)
        with self.db.transaction(readonly=True) as s:
            rows = history_store.records(s, campaign, after, limit)
            undone = history_store.voided(s, campaign)
        return [
            {
                "record": r.no,
                "kind": r.kind,
                "action": r.action,
                "input": r.input,
                "at": r.at,
                "wall": r.wall,
                "actor": r.actor,
                "role": r.role,
                "status": "undone" if r.no in undone else r.status,
                "undone_by": undone[r.no].no if r.no in undone else None,
                "voids": r.voids,
                "reason": r.reason,
                "refusal": r.refusal,
            }
            for r in rows
        ]

    def corrections(self, campaign: str, about: str | None = None) -> list[dict[str, Any]]:
        """What late records and undos changed of what had been shown, oldest first:
        each with the event undone or now happened and the record that caused it."""
        self._head(campaign)
        with self.db.transaction(readonly=True) as s:
            rows = history_store.corrections(s, campaign, about)
            causes = {r.cause for r in rows}
            by_no = {no: history_store.get_record(s, campaign, no) for no in causes}
        out = []
        for r in rows:
            cause = by_no.get(r.cause)
            out.append(
                {
                    "id": r.id,
                    "change": r.change,
                    "event": r.event,
                    "wall": r.wall,
                    "subjects": r.subjects,
                    "cause": {
                        "record": r.cause,
                        "kind": cause.kind if cause else "",
                        "action": cause.action if cause else "",
                        "actor": cause.actor if cause else "",
                        "at": cause.at if cause else "",
                        "wall": cause.wall if cause else "",
                        "voids": cause.voids if cause else None,
                    },
                }
            )
        return out

    def query(
        self,
        campaign: str,
        name: str,
        raw: dict[str, Any],
        *,
        role: Role = Role.MASTER,
        lang: str = "en",
    ) -> dict[str, Any]:
        """Answer a ruleset's read-only query on the current state."""
        rs, state, _ = self.load(campaign)
        return engine.run_query(rs, state, name, raw, role=role, lang=lang)

    ADVANCE_CHUNK = 500
    """Countdowns fired by one change of a long clock move at most (about): a day's
    advance over thousands of wounded is several changes, so other campaigns' changes
    (and this one's phones) get their turn between them (issue 15, item 9)."""

    def advance_to(self, campaign: str, when: datetime) -> list[Event]:
        """Move the clock to ``when`` firing due timers on the way: a clock record, or
        several in steps when many countdowns come due on the way."""
        events: list[Event] = []
        while True:
            stop = self._step_end(self.load(campaign)[1], when)
            draft = Draft("clock", input={"to": stop.isoformat()})
            done = self.submit(campaign, None, draft=draft).result()
            events += done
            if stop >= when:
                return Answer.of(events, getattr(done, "record", None))

    def _step_end(self, state: CampaignState, when: datetime) -> datetime:
        """Where the next step of a clock move to ``when`` ends: ``when``, or sooner if
        more than :attr:`ADVANCE_CHUNK` countdowns come due before it."""
        due = heapq.nsmallest(
            self.ADVANCE_CHUNK,
            (t.deadline for t in state.timers.values() if t.deadline <= when),
        )
        if len(due) < self.ADVANCE_CHUNK or state.clock is None:
            return when
        return max(due[-1], state.clock.now())

    def set_clock(self, campaign: str, change: Callable[[Clock], Clock]) -> list[Event]:
        """Pause, resume or otherwise replace the clock (due timers fire first)."""

        def new_clock(st: CampaignState) -> dict[str, Any]:
            assert st.clock is not None
            return {"clock": change(st.clock).model_dump(mode="json")}

        draft = Draft("clock", make_input=new_clock)
        return self.submit(campaign, None, draft=draft).result()

    def catch_up(self, campaign: str) -> list[Event]:
        """Fire timers that came due on a running (realtime) clock (not a record: what
        the history produces as time passes)."""
        return self._change(campaign, lambda rs, st: engine.catch_up(rs, st, keyed=True))

    # --- queries ---------------------------------------------------------------
    def events(
        self,
        campaign: str,
        kinds: tuple[str, ...] = (),
        *,
        after: int = 0,
        limit: int | None = None,
        about: str | None = None,
        latest: bool = False,
    ) -> list[Event]:
        """The campaign's event log (optionally only some kinds), in order: the events
        after seq ``after``, at most ``limit`` of them (a page of a long log) — the
        last ``limit`` if ``latest`` — and only those naming ``about`` if given (see
        :func:`~lazaretto.core.events.named_in`; read through the subject index)."""
        self._head(campaign)  # NotFound for no such campaign
        q = select(EventRow).where(EventRow.campaign_id == campaign, EventRow.seq > after)
        if kinds:
            q = q.where(EventRow.kind.in_(kinds))
        if about is not None:
            q = q.where(
                EventRow.seq.in_(
                    select(EventSubjectRow.seq).where(
                        EventSubjectRow.campaign_id == campaign, EventSubjectRow.subject == about
                    )
                )
            )
        q = q.order_by(EventRow.seq.desc() if latest else EventRow.seq)
        if limit is not None:
            q = q.limit(limit)
        with self.db.transaction(readonly=True) as s:
            found = [event_of(r) for r in s.scalars(q)]
        return found[::-1] if latest else found

    def replay_matches(self, campaign: str) -> bool:
        """Whether replaying the event log rebuilds exactly the stored state."""
        rs, state, _ = self.load(campaign)
        return engine.replay(rs, self.events(campaign)) == state

    def journal(self, campaign: str, hospital: str | None = None) -> list[dict[str, Any]]:
        """Hospital journal entries (every field the rules require), in order.

        The journal is a book: an entry a late record or an undo took back stays, marked
        ``correction: "struck"`` with when and why (the record), and an entry that only
        a late record brought is marked ``correction: "added"`` — as a healer corrects
        a paper journal, never by tearing out a page."""
        _, state, _ = self.load(campaign)

        def key(ev: Event) -> str:
            return json.dumps([ev.at.isoformat(), ev.payload], sort_keys=True, default=str)

        book: list[tuple[Event, str, dict[str, Any] | None]] = [
            (ev, "", None) for ev in self.events(campaign, ("journal.entry_added",))
        ]
        added: dict[str, dict[str, Any]] = {}
        for c in self.corrections(campaign):
            if c["event"]["kind"] != "journal.entry_added":
                continue
            ev = Event.model_validate(c["event"])
            by = c["cause"] | {"wall": c["wall"]}
            if c["change"] == "undone":
                book.append((ev, "struck", by))
                added.pop(key(ev), None)
            else:
                added[key(ev)] = by
        rows = []
        for ev, mark, by in sorted(book, key=lambda entry: (entry[0].at, entry[0].seq)):
            p = ev.payload
            if hospital and p["hospital"] != hospital:
                continue
            patient = p.get("patient")
            name = p.get("name") or (
                state.characters[patient].name if patient in state.characters else None
            )
            row = {**p, "name": name, "time": ev.at.isoformat(), "rule_ids": list(ev.rule_ids)}
            if not mark and key(ev) in added:
                mark, by = "added", added[key(ev)]
            if mark:
                row["correction"], row["corrected_by"] = mark, by
            rows.append(row)
        return rows

    def due_campaigns(self, wall: datetime | None = None) -> list[str]:
        """Realtime campaigns whose next countdown is due by ``wall`` (for the ticker)."""
        now = (wall or wall_now()).isoformat()
        with self.db.transaction(readonly=True) as s:
            q = select(CampaignRow.id).where(CampaignRow.next_due_wall <= now)
            return list(s.scalars(q))

    NEWS_LIMIT = 500

    def news(
        self, campaign: str, after_seq: int | None
    ) -> tuple[int | None, int, frozenset[str] | None]:
        """For live pages: the campaign's version (None if it is gone), the seq of its
        last event, and what the events after ``after_seq`` name (see
        :func:`~lazaretto.core.events.named_in`); None when one of them is about the
        whole campaign, when there are too many to tell, or on the first look."""
        with self.db.transaction(readonly=True) as s:
            version = s.scalar(select(CampaignRow.version).where(CampaignRow.id == campaign))
            last = s.scalar(select(func.max(EventRow.seq)).where(EventRow.campaign_id == campaign))
            if version is None or after_seq is None or last is None or last < after_seq:
                return version, last or 0, None  # (a re-run may leave fewer events)
            # what late records and undos corrected since the last look: their cards too
            seen = self._corrections_seen.get(campaign, 0)
            corrected = list(
                s.execute(
                    select(CorrectionRow.id, CorrectionRow.subjects)
                    .where(CorrectionRow.campaign_id == campaign, CorrectionRow.id > seen)
                    .order_by(CorrectionRow.id)
                )
            )
            rows = list(
                s.execute(
                    select(EventRow.payload)
                    .where(EventRow.campaign_id == campaign, EventRow.seq > after_seq)
                    .order_by(EventRow.seq)
                    .limit(self.NEWS_LIMIT + 1)
                )
            )
        if corrected:
            self._corrections_seen[campaign] = corrected[-1].id
        if len(rows) > self.NEWS_LIMIT:
            return version, last, None
        named: set[str] = {n for row in corrected for n in row.subjects}
        for (payload,) in rows:
            these = named_in(payload)
            if these is None:
                return version, last, None
            named |= these
        return version, last, frozenset(named)

    def version(self, campaign: str) -> int | None:
        """The campaign's change counter (None if it does not exist): cheap to poll."""
        head = self.db.read_first(select(CampaignRow.version).where(CampaignRow.id == campaign))
        return None if head is None else int(head.version)
