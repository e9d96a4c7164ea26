"""Fixtures for the fantasy-server rule tests: a campaign on a manual clock and a way to
add characters with their stats (Character.stats) and sheet facts."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

import pytest

from lazaretto.core.character import Character
from lazaretto.core.engine import advance_to, run_action
from lazaretto.core.events import Event
from lazaretto.rulesets.fantasy_server.params import FantasyParams
from lazaretto.rulesets.fantasy_server.state import FantasyState
from tests.game import Game


class FGame(Game):
    """A fantasy-server campaign."""

    state: FantasyState

    def __init__(self, params: dict[str, Any] | None = None, start: str = "09:00") -> None:
        super().__init__(ruleset="fantasy-server", start=start, params=params)

    @property
    def p(self) -> FantasyParams:
        """The campaign's parameters."""
        return cast(FantasyParams, self.rs.campaign_params(self.state.params))

    def card(self, cid: str, lang: str = "en") -> dict[str, Any]:
        """The character card."""
        assert self.rs.describe is not None
        return self.rs.describe(self.state, cid, lang)

    def pc(
        self,
        cid: str,
        hp: int = 30,
        skills: tuple[str, ...] = (),
        **stats_and_sheet: Any,
    ) -> Character:
        """Add a character; upper-case keywords are stats, the rest sheet facts."""
        self.add(cid, hits=hp, skills=skills)
        stats = [f"{k}={v}" for k, v in stats_and_sheet.items() if k.isupper()]
        sheet = {k: v for k, v in stats_and_sheet.items() if not k.isupper()}
        if stats or sheet:
            self.act("set-sheet", character=cid, stats=stats, **sheet)
        return self.ch(cid)

    def advance_at(self, when: datetime) -> list[Event]:
        """Move the clock to a campaign time on any day."""
        evs = advance_to(self.rs, self.state, when)
        self.events += evs
        return evs

    def act_at(self, when: datetime, action: str, **kw: Any) -> list[Event]:
        """Run an action at a campaign time on any day."""
        evs = run_action(self.rs, self.state, action, kw, at=when)
        self.events += evs
        return evs

    def last(self, kind: str, events: list[Event] | None = None) -> dict[str, Any]:
        """The payload of the last event of ``kind``."""
        found = [e for e in (self.events if events is None else events) if e.kind == kind]
        assert found, f"no {kind} event"
        return found[-1].payload

    def rules(self, kind: str) -> tuple[str, ...]:
        """The rule IDs of the last event of ``kind``."""
        return next(e.rule_ids for e in reversed(self.events) if e.kind == kind)

    def checks(self) -> list[dict[str, Any]]:
        """Every check rolled, in order."""
        return [e.payload for e in self.events if e.kind == "check.rolled"]


@pytest.fixture
def g() -> FGame:
    return FGame()
