"""A simulated campaign: the real engine and ruleset on a manual clock, and an agenda.

:class:`World` is what ``tests/game.py`` is for rule tests: it creates a campaign state,
adds characters and runs actions through :func:`lazaretto.core.engine.run_action`, so
every countdown, refusal and event is the ruleset's own. Nothing is stored.

:class:`Agenda` is the simulation's own diary: the decisions players and masters would
take (a healer arrives, a wave starts), in time order. Driving a world means popping the
agenda and acting; the engine fires the ruleset's timers due before each action.
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from lazaretto.core.character import Character
from lazaretto.core.clock import Clock
from lazaretto.core.dice import parse
from lazaretto.core.engine import add_character, advance_to, new_state, run_action
from lazaretto.core.errors import LazarettoError
from lazaretto.core.registry import get_ruleset
from lazaretto.core.state import CampaignState


def draw(expression: str, rng: random.Random) -> int:
    """One total of a dice expression (parsed once and cached by the dice engine)."""
    return parse(expression).roll_many(rng, 1)[0]


class World:
    """One campaign of ``ruleset`` starting at ``start``; time is in minutes from it.

    Attributes:
        died: who died and when (minutes), in the order the ruleset killed them.
        refusals: actions the ruleset refused (the policies avoid them; a non-zero count
            means a policy asked for something the rules do not allow).
        events: how many events the ruleset recorded.
    """

    def __init__(
        self, ruleset: str, start: datetime, seed: int, params: dict[str, Any] | None = None
    ) -> None:
        self.rs = get_ruleset(ruleset)
        self.start = start
        self.state: CampaignState
        self.state, _ = new_state(
            self.rs, "sim", Clock(anchor=start), seed=seed, params=params, wall=start
        )
        # A-W-11 and the like: an action at a timer's very second may still come first
        self.strict = bool(
            getattr(self.rs.campaign_params(params or {}), "timer_boundary_inclusive", False)
        )
        self.refusals = 0
        self.refused: dict[str, int] = {}
        self.events = 1
        self.died: list[tuple[str, float]] = []

    def _record(self, events: list[Any]) -> None:
        self.events += len(events)
        for ev in events:
            if ev.kind == "character.died":
                self.died.append((ev.payload["character"], self.minute(ev.at)))

    def when(self, minute: float) -> datetime:
        """Campaign time ``minute`` minutes after the start (to the second)."""
        return self.start + timedelta(seconds=round(minute * 60))

    def minute(self, when: datetime) -> float:
        """Minutes from the start to campaign time ``when`` (the inverse of :meth:`when`)."""
        return (when - self.start).total_seconds() / 60

    def add(
        self,
        cid: str,
        *,
        hits: int = 3,
        skills: tuple[str, ...] = (),
        race: str = "human",
        name: str | None = None,
    ) -> Character:
        """Add a character with full hits."""
        ch = Character(
            id=cid, name=name or cid, hits_max=hits, hits=hits, skills=list(skills), race=race
        )
        self.events += len(add_character(self.rs, self.state, ch, wall=self.start))
        return self.state.characters[cid]

    def act(self, action: str, minute: float, **fields: Any) -> list[Any]:
        """Run ``action`` at ``minute``; the ruleset's refusal propagates.

        The due timers fire first, on their own, so that what they did (a death) is
        recorded even when the action is then refused."""
        self.advance(minute)
        evs = run_action(self.rs, self.state, action, fields, at=self.when(minute), wall=self.start)
        self._record(evs)
        return evs

    def try_act(self, action: str, minute: float, **fields: Any) -> list[Any] | None:
        """Run ``action``; a refusal is counted (by action) and gives None."""
        try:
            return self.act(action, minute, **fields)
        except LazarettoError:
            self.refusals += 1
            self.refused[action] = self.refused.get(action, 0) + 1
            return None

    def advance(self, minute: float, *, final: bool = False) -> None:
        """Move the clock to ``minute``, firing the ruleset's due timers (those due at that
        very second too when ``final``, or when the ruleset does not let actions first)."""
        when = self.when(minute)
        assert self.state.clock is not None
        strict = self.strict and not final
        if not final:  # nothing due: the next action moves the clock itself
            first = self.state.next_timer()  # the state's heap, not a scan of every timer
            due = None if first is None else first.deadline
            if due is None or due > when or (strict and due == when):
                return
        if when > self.state.clock.now() or final:
            self._record(advance_to(self.rs, self.state, when, wall=self.start, strict=strict))

    def character(self, cid: str) -> Character:
        """The character ``cid``."""
        return self.state.characters[cid]


Step = Callable[[float], None]


class Agenda:
    """What the players and masters will do next, soonest first (ties: first planned)."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, Step]] = []
        self._seq = itertools.count()

    def at(self, minute: float, step: Step) -> None:
        """Plan ``step`` for ``minute``."""
        heapq.heappush(self._heap, (minute, next(self._seq), step))

    def run(self, world: World, until: float) -> None:
        """Carry out every planned step up to ``until``, then move the clock there."""
        while self._heap and self._heap[0][0] <= until:
            minute, _, step = heapq.heappop(self._heap)
            world.advance(minute)
            step(minute)
        world.advance(until, final=True)


class Sampler:
    """Curves on a fixed time grid: every ``step`` minutes, each probe is read."""

    def __init__(self, step: int, horizon: int) -> None:
        self.step = step
        self.points = horizon // step + 1
        self.probes: dict[str, Callable[[], float]] = {}
        self.series: dict[str, list[float]] = {}

    def probe(self, name: str, fn: Callable[[], float]) -> None:
        """Read ``fn`` at every grid point as the curve ``name``."""
        self.probes[name] = fn
        self.series[name] = []

    def plan(self, agenda: Agenda) -> None:
        """Put the grid points on the agenda."""
        for i in range(self.points):
            agenda.at(i * self.step, self._read)

    def _read(self, minute: float) -> None:
        for name, fn in self.probes.items():
            self.series[name].append(float(fn()))
