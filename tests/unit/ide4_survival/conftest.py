"""Fixtures for the ide4-survival rule tests: a campaign on a manual clock over several
game days (times are ``HH:MM`` on day 1 or ``D/HH:MM`` on day D)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest

from lazaretto.core.engine import advance_to, run_action, run_query
from lazaretto.core.events import Event
from lazaretto.core.ruleset import Role
from lazaretto.rulesets.ide4_survival.state import Ide4State, Survivor, survivor
from tests.game import Game, t


def when(text: str) -> datetime:
    """``HH:MM`` on day 1 (2026-06-13) or ``D/HH:MM`` on game day D."""
    day, _, hhmm = text.rpartition("/")
    return t(hhmm) + timedelta(days=int(day or 1) - 1)


class Ide(Game):
    """An ide4-survival campaign on a manual clock."""

    def __init__(self, params: dict[str, Any] | None = None, start: str = "06:00") -> None:
        super().__init__("ide4-survival", start, params)

    def do(
        self, action: str, at: str | None = None, role: Role = Role.MASTER, **kw: Any
    ) -> list[Event]:
        """Run an action; a refused one leaves no trace (as the service's transaction)."""
        before = self.state.model_copy(deep=True)
        try:
            evs = run_action(
                self.rs, self.state, action, kw, role=role, at=when(at) if at else None
            )
        except Exception:
            self.state = before
            raise
        self.events += evs
        return evs

    def to_time(self, at: datetime) -> list[Event]:
        evs = advance_to(self.rs, self.state, at)
        self.events += evs
        return evs

    def do_at(self, at: datetime, action: str, **kw: Any) -> list[Event]:
        evs = run_action(self.rs, self.state, action, kw, at=at)
        self.events += evs
        return evs

    def to(self, at: str) -> list[Event]:
        evs = advance_to(self.rs, self.state, when(at))
        self.events += evs
        return evs

    def ask(self, name: str, lang: str = "en", **kw: Any) -> dict[str, Any]:
        return run_query(self.rs, self.state, name, kw, lang=lang)

    @property
    def st(self) -> Ide4State:
        assert isinstance(self.state, Ide4State)
        return self.state

    def sv(self, cid: str) -> Survivor:
        return survivor(self.st, cid)

    def has(self, cid: str, kind: str) -> bool:
        return self.ch(cid).has(kind)

    def checks(self, cid: str | None = None) -> list[Any]:
        return [c for c in self.st.checks.values() if cid is None or c.character == cid]

    def last_check(self, cid: str) -> Any:
        return max(self.checks(cid), key=lambda c: int(c.id[1:]))

    def card(self, cid: str, lang: str = "en") -> dict[str, Any]:
        assert self.rs.describe is not None
        return self.rs.describe(self.state, cid, lang)

    def shifts(self, cid: str, skill: str, tags: tuple[str, ...] = (), **kw: Any) -> int:
        """The difficulty a check of ``skill`` would have at [0] (from the odds query)."""
        return int(
            self.ask("d100-odds", character=cid, skill=skill, tags=list(tags), **kw)["difficulty"]
        )


@pytest.fixture
def g() -> Iterator[Ide]:
    """Day 1, 06:00: Anna (a), Boris (b), the morning done."""
    game = Ide()
    game.add("a", "Anna")
    game.add("b", "Boris")
    game.do("morning")
    yield game
    assert game.replayed() == game.state  # the log replays to the same state


@pytest.fixture
def q() -> Iterator[Ide]:
    """Like ``g`` but with the quick food mode (one mark a day), so that no meal window
    runs in the background of tests that are not about meals."""
    game = Ide(params={"meal_mode": "quick"})
    game.add("a", "Anna")
    game.add("b", "Boris")
    game.do("morning")
    yield game
    assert game.replayed() == game.state  # the log replays to the same state


def make_sick(
    game: Ide, who: str | list[str], code: str, at: str | None = None, outcome: str = "failure"
) -> Any:
    """Expose ``who`` to ``code`` (at ``at`` or now) and fail the Immunity checks, after
    the incubation if the disease has one; returns the (first) case."""
    cids = [who] if isinstance(who, str) else who
    game.do("expose", at=at, characters=cids, disease=code, difficulty=2, outcome=outcome)
    cases = [
        next(c for c in game.st.cases.values() if c.character == cid and c.disease == code)
        for cid in cids
    ]
    timers = sorted(
        (
            t
            for t in game.st.timers.values()
            if t.kind == "incubation_ends" and t.payload.get("case") in {c.id for c in cases}
        ),
        key=lambda t: t.deadline,
    )
    for timer in timers:
        game.to_time(timer.deadline)
        cid = timer.subject
        pending = [k for k in game.st.checks.values() if k.pending and k.character == cid]
        for k in pending:
            game.do_at(timer.deadline, "resolve-check", check=k.id, outcome=outcome)
    return game.st.cases[cases[0].id]


def day_of(game: Ide) -> int:
    """The calendar day number (1 = 2026-06-13) the clock is on."""
    assert game.state.clock is not None
    return (game.state.clock.now().date() - when("1/00:00").date()).days + 1
