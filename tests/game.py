"""An in-memory campaign for rule tests: the real engine and ruleset, no database."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from lazaretto.core.character import Character
from lazaretto.core.clock import Clock
from lazaretto.core.engine import add_character, advance_to, new_state, replay, run_action
from lazaretto.core.events import Event
from lazaretto.core.registry import get_ruleset
from lazaretto.core.ruleset import Role

DAY = "2026-06-13"


def t(hhmm: str) -> datetime:
    """Campaign time ``HH:MM[:SS]`` on the test day."""
    return datetime.fromisoformat(f"{DAY}T{hhmm}")


class Game:
    """A campaign on a manual clock starting at ``start``."""

    def __init__(
        self,
        ruleset: str = "warhammer-larp",
        start: str = "09:00",
        params: dict[str, Any] | None = None,
    ) -> None:
        self.rs = get_ruleset(ruleset)
        self.state, self.events = new_state(
            self.rs, "test", Clock(anchor=t(start)), seed=42, params=params
        )

    def add(
        self,
        cid: str,
        name: str | None = None,
        hits: int = 3,
        skills: tuple[str, ...] = (),
        race: str = "human",
        age: int = 30,
    ) -> Character:
        ch = Character(
            id=cid,
            name=name or cid,
            hits_max=hits,
            hits=hits,
            skills=list(skills),
            race=race,
            age=age,
        )
        self.events += add_character(self.rs, self.state, ch)
        return self.state.characters[cid]

    def healer(self, cid: str, **kw: Any) -> Character:
        self.add(cid, skills=("Healer",), **kw)
        self.act("check-kit", healer=cid, items=list(self.rs.params.healer_kit))  # type: ignore[attr-defined]
        return self.state.characters[cid]

    def act(
        self, action: str, at: str | None = None, role: Role = Role.MASTER, **kw: Any
    ) -> list[Event]:
        evs = run_action(self.rs, self.state, action, kw, role=role, at=t(at) if at else None)
        self.events += evs
        return evs

    def advance(self, to: str) -> list[Event]:
        evs = advance_to(self.rs, self.state, t(to))
        self.events += evs
        return evs

    def ch(self, cid: str) -> Character:
        return self.state.characters[cid]

    def kinds(self, events: list[Event] | None = None) -> list[str]:
        return [e.kind for e in (self.events if events is None else events)]

    def replayed(self) -> Any:
        return replay(self.rs, self.events)

    def journal(self, hospital: str | None = None) -> list[dict[str, Any]]:
        return [
            e.payload
            for e in self.events
            if e.kind == "journal.entry_added"
            and (hospital is None or e.payload["hospital"] == hospital)
        ]
