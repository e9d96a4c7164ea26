"""The history: records are the source, state and events what they produce.

Every accepted change is a :class:`Record` (what, its input, who, the campaign time it
happened, the wall time it was recorded). The state, the events, the countdowns and the
journal are what the records produce when run in campaign-time order (DESIGN.md,
principle 2). The field delivers records late and sometimes wrong, so:

* a record arriving after later ones (a phone that was offline, a paper log typed in
  after the battle) is placed at its own time, and what follows it is run again from
  the nearest :class:`Checkpoint` before it (:func:`rerun`);
* a mistaken record is voided by another record (kind ``void``) and the history runs
  again without it;
* a record the corrected history no longer allows is kept, refused on re-run, with
  the reason; it is tried again whenever the history re-runs;
* what someone already saw and the re-run changed is a :class:`Correction`
  (:func:`corrections`), never a silent change.

Dice and countdown ids are named by the record (``r<no>``) and by the timer, so running
a record again after an insertion rolls the same dice (see ``ActionContext.key``).
Pure: no I/O; the service layer stores records, checkpoints and the outcome. The
history's settings (:class:`HistoryParams`) are :mod:`lazaretto.core.history_params`,
which the ruleset protocol reads too; they are importable from here, where they were
first.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from lazaretto.core import engine
from lazaretto.core.character import Character
from lazaretto.core.clock import Clock
from lazaretto.core.errors import LazarettoError
from lazaretto.core.events import Event
from lazaretto.core.history_params import HISTORY_PARAMS as HISTORY_PARAMS
from lazaretto.core.history_params import HistoryParams as HistoryParams
from lazaretto.core.history_params import history_params as history_params
from lazaretto.core.roles import Role
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.state import CampaignState

RecordKind = Literal["act", "clock", "character", "void"]


class Record(BaseModel):
    """One accepted change, as it was asked.

    Attributes:
        no: arrival order in the campaign (1, 2, ...); ties of time run in this order.
        kind: ``act`` (an action), ``clock`` (a clock move or change), ``character``
            (a character added) or ``void`` (another record taken back).
        at: the campaign time it happened.
        wall: the wall time (UTC) it was recorded.
        actor, role, user: who made it (the user's id, if a logged-in user).
        action, input: the action and its input (``act``); the clock or the character
            (``clock``: ``{"to": ISO}`` or ``{"clock": {...}}``; ``character``).
        voids: the record a ``void`` takes back; ``reason`` why (free text).
    """

    model_config = ConfigDict(frozen=True)

    no: int
    kind: RecordKind = "act"
    at: datetime
    wall: datetime
    actor: str = "master"
    role: Role = Role.MASTER
    user: int | None = None
    action: str = ""
    input: dict[str, Any] = Field(default_factory=dict)
    voids: int | None = None
    reason: str = ""

    def key(self) -> tuple[datetime, int]:
        """Its place in the history: campaign time, then arrival."""
        return (self.at, self.no)

    @property
    def dice_key(self) -> str:
        return f"r{self.no}"


@dataclass(frozen=True)
class Checkpoint:
    """The state right after record ``no`` (at ``at``): a re-run starts here."""

    no: int
    at: datetime
    last_seq: int
    state: str  # the state's JSON

    def key(self) -> tuple[datetime, int]:
        return (self.at, self.no)


@dataclass
class Outcome:
    """What running records produced.

    Attributes:
        state: the state after them (and after the countdowns due by ``until``).
        events: every event, in order.
        by_record: each record's events (countdowns that fired first included).
        refused: the records the history did not allow, with the reason.
        checkpoints: states taken every ``every`` records along the way.
        numbers: for records placed anew (``rerun(renumber_from=...)``), each kept
            one's number as given → its number in the history.
        turned_away: the records placed anew that the rules refused, by the number
            they were given, with the reason (nothing of them is in the history).
    """

    state: CampaignState
    events: list[Event] = field(default_factory=list)
    by_record: dict[int, list[Event]] = field(default_factory=dict)
    refused: dict[int, LazarettoError] = field(default_factory=dict)
    checkpoints: list[Checkpoint] = field(default_factory=list)
    numbers: dict[int, int] = field(default_factory=dict)
    turned_away: dict[int, LazarettoError] = field(default_factory=dict)


def apply(rs: Ruleset, state: CampaignState, record: Record) -> list[Event]:
    """Run one record on ``state`` (in place); raises if the rules refuse it."""
    wall = record.wall
    if record.kind == "act":
        return engine.run_action(
            rs,
            state,
            record.action,
            record.input,
            actor=record.actor,
            role=record.role,
            at=record.at,
            wall=wall,
            key=record.dice_key,
        )
    if record.kind == "clock":
        if "to" in record.input:
            when = datetime.fromisoformat(record.input["to"])
            return engine.advance_to(rs, state, when, wall, record.actor, keyed=True)
        clock = Clock.model_validate(record.input["clock"])
        return engine.change_clock(rs, state, clock, wall, record.actor, keyed=True)
    if record.kind == "character":  # one character, or a roster of them at once
        events: list[Event] = []
        for raw in record.input.get("characters") or [record.input["character"]]:
            character = Character.model_validate(raw)
            events += engine.add_character(rs, state, character, wall, record.actor)
        return events
    return []  # a void produces nothing itself: the record it takes back is left out


def rerun(
    rs: Ruleset,
    start: Checkpoint,
    records: Sequence[Record],
    wall: datetime,
    *,
    every: int = 100,
    renumber_from: int | None = None,
) -> Outcome:
    """Run ``records`` (those after ``start``, any order) from the checkpoint, in
    campaign-time order, leaving out the voided ones; then, on a running clock, fire
    what is due by wall time ``wall`` (the present). A record the rules refuse now is
    skipped and kept in ``refused``; its partial work is undone by replaying the events
    so far onto the checkpoint.

    With ``renumber_from``, the records numbered from it up are being placed now
    (late records arriving together, numbered in campaign-time order): one the rules
    refuse is turned away (``turned_away``) and gives up its number, and those after
    it take the numbers down by one (``numbers``) before they run, so their dice are
    those of delivering them one at a time — in one run, however many are refused."""
    state = rs.state_model.model_validate_json(start.state)
    out = Outcome(state)
    voided = {r.voids for r in records if r.kind == "void"}
    n = kept = 0
    for record in sorted(records, key=Record.key):
        if record.no in voided:  # left out; a ruleset may keep a trace of it
            out.events += _kept_after_undo(rs, state, record)
            continue
        given = record.no
        new = renumber_from is not None and given >= renumber_from
        if new:
            assert renumber_from is not None
            record = record.model_copy(update={"no": renumber_from + kept})
        n += 1
        before = state.last_seq
        try:
            events = apply(rs, state, record)
        except LazarettoError as exc:
            (out.turned_away if new else out.refused)[given] = exc.kept()
            if state.last_seq != before:  # it changed something before it was refused
                state = _replayed(rs, start, out.events)
            continue
        if new:
            out.numbers[given] = record.no
            kept += 1
        out.events += events
        out.by_record[record.no] = events
        if n % every == 0:
            out.checkpoints.append(
                Checkpoint(record.no, record.at, state.last_seq, state.model_dump_json())
            )
    out.events += engine.catch_up(rs, state, wall, keyed=True)
    out.state = state
    return out


def _kept_after_undo(rs: Ruleset, state: CampaignState, record: Record) -> list[Event]:
    """What an undone record leaves behind at its place (``Ruleset.kept_after_undo``):
    it is run on a copy, its events are shown to the ruleset, and what the ruleset
    keeps of them becomes one ``undo.kept`` event; the copy is dropped. A paper book
    keeps a struck entry's number, so the entries after it keep theirs."""
    if rs.kept_after_undo is None or record.kind != "act":
        return []
    try:
        would = apply(rs, state.model_copy(deep=True), record)
    except LazarettoError:
        return []  # refused at its place now: it leaves nothing
    own = [e for e in would if not _fired(e)]  # not the countdowns it fired first
    kept = rs.kept_after_undo(own)
    if not kept:
        return []
    return engine.emit_kept(rs, state, record.at, record.wall, record.actor, kept)


def _replayed(rs: Ruleset, start: Checkpoint, events: Iterable[Event]) -> CampaignState:
    state = rs.state_model.model_validate_json(start.state)
    for ev in events:
        rs.reducers.apply(state, ev)
        state.last_seq = ev.seq
    return state


# --- corrections -----------------------------------------------------------------------
@dataclass(frozen=True)
class Correction:
    """An outcome someone may have seen that the re-run changed.

    ``change`` is ``undone`` (it no longer happens) or ``happened`` (it now happens,
    and had not been recorded before); ``event`` is the event concerned.
    """

    change: Literal["undone", "happened"]
    event: Event


def _signature(ev: Event) -> str:
    return json.dumps([ev.kind, ev.at.isoformat(), ev.payload], sort_keys=True, default=str)


MECHANICS = ("timer.", "clock.", "undo.")
"""Event kinds no correction is about: a countdown's start or stop is told by what it
does, a clock move by the record that moved it, and what an undo leaves behind
(``undo.kept``) by the undo."""


def corrections(
    old: Sequence[Event], new: Sequence[Event], cause: Sequence[Event] = ()
) -> list[Correction]:
    """What differs between the events before and after a re-run (mechanics left out,
    and the causing record's own events: those are the news, not a correction): the
    outcomes that no longer happen, then those that now do, each in time order.

    The causing record's own events count as still happening: a late record placed
    before a clock move fires again, as its first events, the countdowns that the clock
    move had fired, and those were not undone."""
    own = {e.seq for e in cause}

    def told(events: Sequence[Event], skip: set[int]) -> dict[str, Event]:
        return {
            _signature(e): e
            for e in events
            if not e.kind.startswith(MECHANICS) and e.seq not in skip
        }

    before, after = told(old, set()), told(new, set())
    news = told(new, own)
    undone = [Correction("undone", e) for k, e in before.items() if k not in after]
    happened = [Correction("happened", e) for k, e in news.items() if k not in before]
    return sorted(undone, key=lambda c: c.event.at) + sorted(happened, key=lambda c: c.event.at)


def _fired(ev: Event) -> bool:
    return ev.action.startswith("timer:") or ev.kind.startswith(MECHANICS)


def fired_before(old: Iterable[Event]) -> frozenset[str]:
    """The countdowns that had fired among ``old`` (the events a re-run replaces), by
    signature: what :func:`news` leaves out. Taken once for a group of late records:
    a storm's thirty taps share it."""
    return frozenset(_signature(e) for e in old if _fired(e))


def news(told: frozenset[str], own: Sequence[Event]) -> list[Event]:
    """A late record's events that are news to whoever recorded it: its own, less the
    countdowns it fired again on the way to its time that had fired already (under the
    clock move that passed them; ``told``, :func:`fired_before`), which were told then."""
    return [e for e in own if not (_fired(e) and _signature(e) in told)]
