"""Events: the append-only record of everything that happened in a campaign.

Every change is an event (DESIGN.md, principle 2). An event is immutable and carries
who did it, the campaign time and wall time, the action or timer that produced it,
the dice rolled and the rule IDs applied. Current state is a fold of events with the
reducers registered here and by rulesets; replaying a campaign's events rebuilds it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from lazaretto.core.errors import DataFileError


class Event(BaseModel):
    """One immutable fact.

    Attributes:
        kind: dotted past-tense name, e.g. ``"wound.hits_lost"``, ``"timer.fired"``.
        payload: the facts, JSON-able.
        at: campaign time it happened.
        wall: wall time (UTC) it was recorded.
        actor: who performed the action (user/character id, ``"system"`` for timers).
        action: the action name or ``"timer:<kind>"`` that produced it.
        dice: every roll made for it (``RollResult.to_dict()`` items).
        rule_ids: the rule IDs that produced it.
        seq: position in the campaign's log (assigned when appended).
        record: the record that produced it (see :mod:`lazaretto.core.history`).
    """

    model_config = ConfigDict(frozen=True)

    kind: str
    payload: dict[str, Any] = Field(default_factory=dict)
    at: datetime
    wall: datetime | None = None
    actor: str = "system"
    action: str = ""
    dice: tuple[dict[str, Any], ...] = ()
    rule_ids: tuple[str, ...] = ()
    seq: int = 0
    record: int | None = Field(default=None, exclude=True)
    """The record whose action produced it, when read from the log (not part of the
    event itself: a re-run derives the same event again)."""


def named_in(payload: dict[str, Any]) -> frozenset[str] | None:
    """What an event is about: the strings its payload names at the top level (and in
    top-level lists), plus the subject of a timer it carries — ``None`` when it names
    nothing, i.e. it is about the campaign as a whole (a clock move, the weather)."""
    found: set[str] = set()
    for value in payload.values():
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, list):
            found.update(v for v in value if isinstance(v, str))
    timer = payload.get("timer")
    if isinstance(timer, dict) and isinstance(timer.get("subject"), str):
        found.add(timer["subject"])
    return frozenset(found) if found else None


S = TypeVar("S")
Reducer = Callable[[Any, Event], None]


class ReducerRegistry:
    """Maps an event kind to the function that applies it to a state (in place)."""

    def __init__(self, parent: ReducerRegistry | None = None) -> None:
        self._reducers: dict[str, Reducer] = {}
        self._parent = parent

    def on(self, kind: str) -> Callable[[Reducer], Reducer]:
        """Decorator: register the reducer for ``kind``."""

        def register(fn: Reducer) -> Reducer:
            if kind in self._reducers:
                raise DataFileError(fn.__module__, kind, "two reducers for one event kind")
            self._reducers[kind] = fn
            return fn

        return register

    def kinds(self) -> set[str]:
        """Every event kind this registry (and its parent) can apply."""
        own = set(self._reducers)
        return own | (self._parent.kinds() if self._parent else set())

    def apply(self, state: Any, event: Event) -> None:
        """Apply ``event`` to ``state`` in place."""
        fn = self._reducers.get(event.kind)
        if fn is None and self._parent is not None:
            self._parent.apply(state, event)
            return
        if fn is None:
            raise KeyError(f"no reducer for event kind {event.kind!r}")
        fn(state, event)
