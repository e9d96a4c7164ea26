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
from lazaretto.core.clock import ClockMode, check_in_range
from lazaretto.core.errors import Conflict, Forbidden
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
    moves_clock: bool = False
    """A master's record ahead of a manual clock: the master confirmed that it moves
    the clock there (and fires what falls due on the way)."""


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


AHEAD = timedelta(seconds=5)
"""How far ahead of a running clock a tap may say it was made (a phone's clock a
moment fast, a page that counted on while the answer travelled)."""


def check_window(
    state: CampaignState,
    record: Record,
    params: history.HistoryParams,
    wall: datetime,
    *,
    moves_clock: bool = False,
) -> None:
    """A record is never ahead of the clock: only a master moves campaign time, and
    only a manual clock's, by saying so (``moves_clock``; issue 28). A healer or a
    player places a record at most ``late_record_minutes`` back on a running clock;
    masters and manual clocks have no such limit."""
    clock = state.clock
    assert clock is not None
    if record.kind in ("void", "clock", "character"):  # made now, or a clock move itself
        return
    now = clock.now(wall)
    running = clock.mode is ClockMode.REALTIME and not clock.paused
    if record.at > now + (AHEAD if running else timedelta(0)):
        _check_ahead(state, record, now, running, moves_clock)
    if record.role is Role.MASTER or clock.mode is ClockMode.MANUAL:
        return
    if now - record.at > params.late_window:
        raise Forbidden(
            f"{record.at:%H:%M:%S} is more than {params.late_record_minutes} minutes back "
            f"(the clock reads {now:%H:%M:%S}); a master can record it",
            ru=f"{record.at:%H:%M:%S} — больше {params.late_record_minutes} мин назад "
            f"(на часах {now:%H:%M:%S}); записать это может мастер",
        )


def _check_ahead(
    state: CampaignState, record: Record, now: datetime, running: bool, moves_clock: bool
) -> None:
    """Refuse a record ahead of the clock, unless a master moves a manual clock there
    knowingly. A refusal to a master names what the move would fire."""
    at, shown = check_in_range(record.at), _stamp(record.at, now)
    if record.role is not Role.MASTER:
        raise Forbidden(
            f"{shown} is ahead of the campaign clock ({_stamp(now, now)}); only a master "
            "moves campaign time",
            ru=f"{shown} — позже, чем на часах кампании ({_stamp(now, now)}); время "
            "кампании переводит только мастер",
        )
    if moves_clock and not running:
        return
    due = [t for t in state.timers.values() if t.deadline <= at]
    whose = sorted({t.subject for t in due if t.subject})
    fires_en = f"; on the way {len(due)} countdown(s) fire ({', '.join(whose[:10]) or '-'})"
    fires_ru = f"; по пути сработают отсчёты: {len(due)} ({', '.join(whose[:10]) or '-'})"
    fires = (fires_en, fires_ru) if due else ("", "")
    yesterday = (at - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    if running:
        raise Conflict(
            f"{shown} is ahead of the running campaign clock ({_stamp(now, now)}){fires[0]}. "
            f"Move the clock first (clock set), or, for the day before, give the date "
            f"({yesterday})",
            ru=f"{shown} — позже, чем на идущих часах кампании ({_stamp(now, now)}){fires[1]}. "
            f"Сначала переведите часы (clock set) или, если это было накануне, укажите "
            f"дату ({yesterday})",
        )
    raise Conflict(
        f"{shown} is ahead of the campaign clock ({_stamp(now, now)}): recording it moves "
        f"the clock there{fires[0]}. Confirm the move (move_clock; CLI --move-clock), or "
        "move the clock first",
        ru=f"{shown} — позже, чем на часах кампании ({_stamp(now, now)}): запись переведёт "
        f"часы туда{fires[1]}. Подтвердите перевод (move_clock; в CLI --move-clock) или "
        "сначала переведите часы",
    )


def _stamp(when: datetime, now: datetime) -> str:
    """``when`` as HH:MM:SS, with its date when it is not today's."""
    return f"{when:%Y-%m-%d %H:%M:%S}" if when.date() != now.date() else f"{when:%H:%M:%S}"


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
