"""Campaign state: the current state every ruleset extends, and the core reducers.

The state is what the events fold into. A ruleset subclasses :class:`CampaignState`
to add its own collections (hospitals, stickers...), and registers reducers for its
own event kinds on a child of :data:`CORE_REDUCERS`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from lazaretto.core.character import Character
from lazaretto.core.clock import Clock
from lazaretto.core.events import Event, ReducerRegistry
from lazaretto.core.timers import Timer


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

    def pending_timers(self) -> list[Timer]:
        """Pending timers, soonest first."""
        return sorted(self.timers.values(), key=Timer.sort_key)

    def timers_for(self, subject: str, kind: str | None = None) -> list[Timer]:
        """Pending timers about ``subject`` (optionally of one ``kind``)."""
        return [
            t
            for t in self.pending_timers()
            if t.subject == subject and (kind is None or t.kind == kind)
        ]


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
    state.timers[t.id] = t
    state.timer_count = max(state.timer_count, t.seq)


@CORE_REDUCERS.on("timer.cancelled")
def _timer_cancelled(state: CampaignState, ev: Event) -> None:
    state.timers.pop(ev.payload["id"], None)


@CORE_REDUCERS.on("timer.fired")
def _timer_fired(state: CampaignState, ev: Event) -> None:
    state.timers.pop(ev.payload["id"], None)
