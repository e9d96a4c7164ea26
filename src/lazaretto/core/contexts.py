"""What a ruleset's handlers see: the contexts an action, a countdown or a query runs in.

The ruleset protocol (:mod:`lazaretto.core.ruleset`) declares handlers that take these
contexts, and the engine (:mod:`lazaretto.core.engine`) makes them and runs the
handlers: they are the words both speak in, so they live below both. A context knows
of its ruleset only what a handler reads of it (:class:`RulesetLike`; a
:class:`~lazaretto.core.ruleset.Ruleset` is one), so this module needs nothing above it.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from lazaretto.core.character import Character
from lazaretto.core.errors import NotFound
from lazaretto.core.events import Event, ReducerRegistry
from lazaretto.core.roles import Role
from lazaretto.core.state import CampaignState
from lazaretto.core.timers import Timer


class RulesetLike(Protocol):
    """What a context holds of its ruleset: the reducers its events go through, and
    the texts a handler words its answers with (:class:`lazaretto.core.ruleset.Ruleset`
    has both)."""

    @property
    def reducers(self) -> ReducerRegistry: ...

    def text(self, key: str, lang: str) -> str | None:
        """The template ``key`` in ``lang``, if the ruleset has one."""
        ...


@dataclass
class ActionContext:
    """What a handler sees: the working state, the time, the actor, dice and parameters.

    Handlers change nothing directly: they call :meth:`emit`, which applies the event to
    the working state at once (so later checks see it) and records it.
    """

    ruleset: RulesetLike
    state: CampaignState
    params: Any
    now: datetime
    wall: datetime
    actor: str
    role: Role
    action: str
    events: list[Event] = field(default_factory=list)
    key: str | None = None
    """What the dice and the countdowns of this work are named by (a record, a timer):
    with a key, a record rolls the same dice and names its countdowns the same however
    many records come before it (see :mod:`lazaretto.core.history`)."""
    _dice: list[dict[str, Any]] = field(default_factory=list)
    _rolls: int = 0
    _timers: int = 0

    def emit(
        self, kind: str, payload: dict[str, Any] | None = None, rule_ids: tuple[str, ...] = ()
    ) -> Event:
        """Record an event and apply it to the working state."""
        self.state.last_seq += 1
        ev = Event(
            kind=kind,
            payload=payload or {},
            at=self.now,
            wall=self.wall,
            actor=self.actor,
            action=self.action,
            dice=tuple(self._dice),
            rule_ids=rule_ids,
            seq=self.state.last_seq,
        )
        self._dice.clear()
        self.ruleset.reducers.apply(self.state, ev)
        self.events.append(ev)
        return ev

    def roll(self, expression: str) -> Any:
        """Roll dice on the campaign's seeded stream; the roll goes into the next event."""
        from lazaretto.core.dice import roll

        if self.key is not None:
            self._rolls += 1
            rng = random.Random(f"{self.state.seed}:{self.key}:{self._rolls}")
        else:
            rng = random.Random(f"{self.state.seed}:{self.state.last_seq}:{len(self._dice)}")
        result = roll(expression, rng)
        self._dice.append(result.to_dict())
        return result

    def schedule(
        self,
        kind: str,
        after: timedelta,
        subject: str = "",
        payload: dict[str, Any] | None = None,
        rule_ids: tuple[str, ...] = (),
    ) -> Timer:
        """Start a countdown of ``after`` from now."""
        seq = self.state.timer_count + 1
        self._timers += 1
        timer = Timer(
            id=f"t{seq}" if self.key is None else timer_id(self.key, self._timers),
            kind=kind,
            deadline=self.now + after,
            subject=subject,
            payload=payload or {},
            seq=seq,
        )
        self.emit("timer.scheduled", {"timer": timer.model_dump(mode="json")}, rule_ids)
        return timer

    def cancel(self, timer_id: str, rule_ids: tuple[str, ...] = ()) -> None:
        """Cancel a pending countdown (no-op if it already fired or was cancelled)."""
        timer = self.state.timers.get(timer_id)
        if timer is not None:
            self.emit(
                "timer.cancelled",
                {"id": timer_id, "kind": timer.kind, "subject": timer.subject},
                rule_ids,
            )

    def cancel_all(self, subject: str, *kinds: str, rule_ids: tuple[str, ...] = ()) -> None:
        """Cancel every pending timer about ``subject`` of the given kinds."""
        for t in self.state.timers_for(subject):
            if not kinds or t.kind in kinds:
                self.cancel(t.id, rule_ids)

    def character(self, char_id: str) -> Character:
        """The character ``char_id``; NotFound if there is none."""
        return find_character(self.state, char_id)


def timer_id(key: str, n: int) -> str:
    """The id of the ``n``-th countdown started by the work named ``key``: stable
    whatever came before, and short however long a chain of countdowns grows."""
    digest = hashlib.blake2b(f"{key}/{n}".encode(), digest_size=6).hexdigest()
    return f"t-{digest}"


@dataclass(frozen=True)
class QueryContext:
    """What a query sees: the state (read only), parameters, the time and the language."""

    ruleset: RulesetLike
    state: CampaignState
    params: Any
    now: datetime
    role: Role
    lang: str

    def character(self, char_id: str) -> Character:
        """The character ``char_id``; NotFound if there is none."""
        return find_character(self.state, char_id)

    def tr(self, en: str, ru: str) -> str:
        """Pick the text for the asked language."""
        return ru if self.lang == "ru" else en


def find_character(state: CampaignState, char_id: str) -> Character:
    """The character ``char_id`` in ``state``; NotFound names it."""
    try:
        return state.characters[char_id]
    except KeyError:
        raise NotFound(
            f"No character {char_id!r} in campaign {state.campaign!r}",
            ru=f"Нет персонажа {char_id!r} в кампании {state.campaign!r}",
            tip="See `lazaretto character list`.",
            tip_ru="Список: `lazaretto character list`.",
        ) from None
