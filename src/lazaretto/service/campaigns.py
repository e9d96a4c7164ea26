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

import heapq
import random
import re
import threading
from collections.abc import Callable
from concurrent.futures import Future
from datetime import datetime
from typing import Any

from sqlalchemy import Row, select
from sqlalchemy.orm import Session

from lazaretto.core import engine
from lazaretto.core.character import Character
from lazaretto.core.clock import Clock, ClockMode, check_in_range, wall_now
from lazaretto.core.errors import CampaignDamaged, Conflict, InvalidInput, NotFound
from lazaretto.core.events import Event
from lazaretto.core.gcpause import gc_paused
from lazaretto.core.history import Checkpoint
from lazaretto.core.registry import get_ruleset
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.service import history_store, recorder, state_store
from lazaretto.service.event_log import Idempotency, next_due_wall, store_events
from lazaretto.service.group_commit import GroupCommit, _Change
from lazaretto.service.history_reads import HistoryReads
from lazaretto.service.recorder import Answer, Draft
from lazaretto.service.stored import CampaignInfo as CampaignInfo  # listed as before
from lazaretto.service.stored import cause_of, damaged_info, read_state
from lazaretto.store.db import Database
from lazaretto.store.models import CampaignRow, EventRow

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$")
WARM_LIMIT = 4
"""A server's start parses at most this many campaigns ahead (:meth:`warm_up`)."""


class CampaignService(GroupCommit, HistoryReads):
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
        self._placing: dict[str, list[_Change]] = {}  # the batch each writer runs
        self._queue_lock = threading.Lock()
        self._more = threading.Condition(self._queue_lock)  # a queue's writer is wanted
        self.linger = 0.0
        """Seconds an idle writer waits for the next change before it ends (a server
        keeps its writers, :data:`~lazaretto.service.group_commit.LINGER`)."""
        self._stopping = False
        # for live pages: the newest correction the news has told of, per campaign
        self._corrections_seen: dict[str, int] = {}
        # each campaign's ruleset, once read (a campaign keeps its ruleset for life)
        self._rulesets: dict[str, str] = {}

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
        listed as damaged (``service/stored.py``) instead of failing every list."""
        try:
            rs, state, _ = self.load(name)
        except CampaignDamaged as exc:
            return damaged_info(self.db, name, cause_of(exc))
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

    def warm_up(self, limit: int = WARM_LIMIT) -> list[str]:
        """Parse the campaigns played most recently (by the wall time of their latest
        event), at most ``limit``, for readers and for their writer, before the server
        takes its first request: after a restart mid-battle the first taps and cards
        need not wait for a 3,000-character state to be parsed (issue 25). Returns the
        names warmed; a damaged campaign is left for ``lazaretto repair``."""
        latest = (
            select(EventRow.wall)
            .where(EventRow.campaign_id == CampaignRow.id)
            .order_by(EventRow.seq.desc())
            .limit(1)
            .scalar_subquery()
        )
        with self.db.transaction(readonly=True) as s:  # one round trip for them all
            last = {name: wall for name, wall in s.execute(select(CampaignRow.id, latest))
                    if wall is not None}  # fmt: skip
        names = sorted(last, key=lambda n: last[n], reverse=True)[:limit]
        warmed = []
        for name in names:
            try:
                self.load(name)
                self.warm_writer(name)
            except CampaignDamaged:
                continue
            warmed.append(name)
        return warmed

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
            return row.version, state_store.layout(rs.state_model).apply(state, version, rows)

    def parsed(self, name: str) -> tuple[Ruleset, CampaignState, int] | None:
        """:meth:`load` if this process holds the current version parsed, else None:
        one indexed read, no parsing."""
        return self._parsed_at(name, self._head(name))

    def parsed_since(self, name: str, version: int) -> tuple[Ruleset, CampaignState, int] | None:
        """:meth:`load` if this process holds the state parsed at ``version`` or newer
        (a version read after the caller asked), else None. No read at all, so an
        event loop may ask it: a read on the loop waited for the interpreter lock
        behind the writer at every step, under every request the loop served (a
        rehearsal profile: over a third of the loop's time, issue 25)."""
        cached, known = self._cache.get(name), self._rulesets.get(name)
        if cached is None or known is None or cached[0] < version:
            return None
        return get_ruleset(known), cached[1], cached[0]

    def _parsed_at(
        self, name: str, head: Row[tuple[int, str]]
    ) -> tuple[Ruleset, CampaignState, int] | None:
        """The shared parsed state, if this process holds it at ``head``'s version."""
        cached = self._cache.get(name)
        if cached is not None and cached[0] == head.version:
            return get_ruleset(head.ruleset), cached[1], head.version
        return None

    def ruleset(self, name: str) -> Ruleset:
        """The campaign's ruleset (read once, no state parsed)."""
        known = self._rulesets.get(name)
        return get_ruleset(known if known is not None else self._head(name).ruleset)

    def _head(self, name: str) -> Row[tuple[int, str]]:
        """The campaign's version and ruleset."""
        head = self._read_head(name)
        if head is None:
            raise self._no_campaign(name)
        return head

    def _read_head(self, name: str) -> Row[tuple[int, str]] | None:
        head = self.db.read_first(
            select(CampaignRow.version, CampaignRow.ruleset).where(CampaignRow.id == name)
        )
        if head is not None:
            self._rulesets.setdefault(name, head.ruleset)
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
        """The stored state, its parts and its version (``stored.read_state``: raises
        :class:`CampaignDamaged` for a damaged one, ``lazaretto repair`` rebuilds it)."""
        row = session.get(CampaignRow, name)
        if row is None:
            raise self._no_campaign(name)
        rs, state, written = read_state(session, row)
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
                    state_store.layout(rs.state_model).apply_in_place(state, written, old, rows)
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
    def add_character(
        self,
        campaign: str,
        character: Character,
        *,
        actor: str = "master",
        role: Role = Role.MASTER,
        user: int | None = None,
    ) -> list[Event]:
        """Add a character to a campaign (a record, naming who added it as :meth:`act`
        names who acted: ``actor``, ``role``, the ``user`` account)."""
        draft = Draft(
            "character",
            input={"character": character.model_dump(mode="json")},
            actor=actor,
            role=role,
            user=user,
        )
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
        moves_clock: bool = True,
    ) -> list[Event]:
        """Run a ruleset action; returns every event it caused (timers fired first).

        ``at`` in the past places it there (a late record: what follows is run again).
        ``at`` ahead of the clock is refused, but a master's on a manual clock, which
        moves the clock there: this programmatic interface (tests, the simulator, the
        demo) says so by default; the people's entry points (``play``, the CLI) pass on
        what the person confirmed.
        ``idempotency``: a retry with the same key changes nothing and returns the
        first answer's events. The answer is an :class:`Answer` (its ``record``).
        """
        return self.submit_act(
            campaign, action, raw, actor=actor, role=role, at=at, idempotency=idempotency,
            user=user, moves_clock=moves_clock,
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
        moves_clock: bool = True,
    ) -> Future[list[Event]]:
        """:meth:`act` without waiting: the future holds the events once committed."""
        draft = Draft(
            "act", action, raw, actor=actor, role=role, user=user, at=at, moves_clock=moves_clock
        )
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

    def due_campaigns(self, wall: datetime | None = None) -> list[str]:
        """Realtime campaigns whose next countdown is due by ``wall`` (for the ticker)."""
        now = (wall or wall_now()).isoformat()
        with self.db.transaction(readonly=True) as s:
            q = select(CampaignRow.id).where(CampaignRow.next_due_wall <= now)
            return list(s.scalars(q))

    def version(self, campaign: str) -> int | None:
        """The campaign's change counter (None if it does not exist): cheap to poll."""
        head = self._read_head(campaign)
        return None if head is None else int(head.version)
