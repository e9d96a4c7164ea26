"""Campaign state: the current state every ruleset extends, and the core reducers.

The state is what the events fold into. A ruleset subclasses :class:`CampaignState`
to add its own collections (hospitals, stickers...), and registers reducers for its
own event kinds on a child of :data:`CORE_REDUCERS`.
"""

from __future__ import annotations

import heapq
import weakref
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field, PrivateAttr

from lazaretto.core.character import Character
from lazaretto.core.clock import Clock
from lazaretto.core.events import Event, ReducerRegistry
from lazaretto.core.timers import Timer


class _TimerIndex:
    """Pending timers by deadline (a heap, cancelled ones dropped lazily) and by
    subject: the next one due and one character's cost log n and their own count, not
    a scan of every timer of the campaign."""

    def __init__(self, timers: dict[str, Timer]) -> None:
        # dict.values: reading the timers is not touching them (service/state_store.py)
        self.heap = [(t.deadline, t.seq, t.id) for t in dict.values(timers)]
        heapq.heapify(self.heap)
        self.by_subject: dict[str, set[str]] = {}
        for t in dict.values(timers):
            self.by_subject.setdefault(t.subject, set()).add(t.id)

    def add(self, t: Timer) -> None:
        heapq.heappush(self.heap, (t.deadline, t.seq, t.id))
        self.by_subject.setdefault(t.subject, set()).add(t.id)

    def remove(self, t: Timer) -> None:
        ids = self.by_subject.get(t.subject)
        if ids is not None:
            ids.discard(t.id)
            if not ids:
                del self.by_subject[t.subject]


class CampaignState(BaseModel):
    """What a campaign is now: clock, characters, pending timers."""

    campaign: str = ""
    ruleset: str = ""
    seed: int = 0
    clock: Clock | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    characters: dict[str, Character] = Field(default_factory=dict)
    timers: dict[str, Timer] = Field(default_factory=dict)
    last_seq: int = 0
    timer_count: int = 0
    fired_until: datetime | None = None
    """The latest deadline of a timer that fired: a record placed before it changes
    what has already happened, and the history re-runs from before it."""
    # built on first use, for this very object (a copy builds its own)
    _index: tuple[weakref.ref[CampaignState], _TimerIndex] | None = PrivateAttr(default=None)

    def __getstate__(self) -> dict[Any, Any]:
        """Pickled without the private attributes: they are indexes, derived per object
        (a weak reference does not pickle; the copy builds its own)."""
        out = super().__getstate__()
        private = out.get("__pydantic_private__")
        if private:
            out["__pydantic_private__"] = dict.fromkeys(private)
        return out

    def __eq__(self, other: object) -> bool:
        """Equal states hold the same values (indexes are not part of a state)."""
        return type(self) is type(other) and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]

    def _timer_index(self) -> _TimerIndex:
        # read past pydantic's __getattr__ (this is on every countdown's path); a copy
        # carries its original's index, so the index names the object it was built for
        private = self.__pydantic_private__
        known = private.get("_index") if private is not None else None
        if known is None or known[0]() is not self:
            known = (weakref.ref(self), _TimerIndex(self.timers))
            self._index = known
        return known[1]

    def add_timer(self, timer: Timer) -> None:
        """A countdown starts (the reducers' one way in)."""
        self.timers[timer.id] = timer
        self._timer_index().add(timer)

    def remove_timer(self, timer_id: str) -> Timer | None:
        """A countdown fired or was cancelled (the reducers' one way out)."""
        timer = self.timers.pop(timer_id, None)
        if timer is not None:
            self._timer_index().remove(timer)
        return timer

    def next_timer(self) -> Timer | None:
        """The pending timer due first (deadline, then creation order)."""
        heap = self._timer_index().heap
        while heap:
            timer = dict.get(self.timers, heap[0][2])
            if timer is not None:
                return timer
            heapq.heappop(heap)  # cancelled or fired since it was pushed
        return None

    def pending_timers(self) -> list[Timer]:
        """Pending timers, soonest first."""
        return sorted(self.timers.values(), key=Timer.sort_key)

    def timers_for(self, subject: str, kind: str | None = None) -> list[Timer]:
        """Pending timers about ``subject`` (optionally of one ``kind``), soonest first."""
        ids = self._timer_index().by_subject.get(subject, ())
        mine = [self.timers[i] for i in ids if kind is None or self.timers[i].kind == kind]
        return sorted(mine, key=Timer.sort_key)


CORE_REDUCERS = ReducerRegistry()


@CORE_REDUCERS.on("campaign.created")
def _campaign_created(state: CampaignState, ev: Event) -> None:
    p = ev.payload
    state.campaign = p["campaign"]
    state.ruleset = p["ruleset"]
    state.seed = p["seed"]
    state.clock = Clock.model_validate(p["clock"])
    state.params = dict(p.get("params", {}))


@CORE_REDUCERS.on("clock.changed")
def _clock_changed(state: CampaignState, ev: Event) -> None:
    state.clock = Clock.model_validate(ev.payload["clock"])


@CORE_REDUCERS.on("character.added")
def _character_added(state: CampaignState, ev: Event) -> None:
    ch = Character.model_validate(ev.payload["character"])
    state.characters[ch.id] = ch


@CORE_REDUCERS.on("timer.scheduled")
def _timer_scheduled(state: CampaignState, ev: Event) -> None:
    t = Timer.model_validate(ev.payload["timer"])
    state.add_timer(t)
    state.timer_count = max(state.timer_count, t.seq)


@CORE_REDUCERS.on("timer.cancelled")
def _timer_cancelled(state: CampaignState, ev: Event) -> None:
    state.remove_timer(ev.payload["id"])


@CORE_REDUCERS.on("timer.fired")
def _timer_fired(state: CampaignState, ev: Event) -> None:
    state.remove_timer(ev.payload["id"])
    if state.fired_until is None or ev.at > state.fired_until:
        state.fired_until = ev.at
