"""Fixtures for the dnd5e-injuries rule tests: a campaign on a manual clock and
characters with D&D numbers (checklist-003)."""

from __future__ import annotations

from typing import Any

import pytest

from lazaretto.core.character import Condition
from tests.game import Game

RULESET = "dnd5e-injuries"


def game(**params: Any) -> Game:
    """A dnd5e-injuries campaign (parameter overrides as keywords)."""
    return Game(ruleset=RULESET, params=params or None)


def pc(
    g: Game,
    cid: str,
    *,
    con: int = 14,
    proficiency: int = 3,
    level: int = 5,
    hp: int = 40,
    **stats: Any,
) -> None:
    """A player character; the defaults give combat caution 14 + 3 + 2 = 19 (E-D-01)."""
    g.add(cid, cid.title(), hits=hp)
    g.act(
        "set-dnd-stats",
        character=cid,
        con=con,
        proficiency=proficiency,
        level=level,
        hp_max=hp,
        **stats,
    )


def cc10(g: Game, cid: str = "a", hp: int = 60) -> None:
    """A player character with combat caution 6 + 2 + 4/2 = 10."""
    pc(g, cid, con=6, proficiency=2, level=4, hp=hp)


def enemy(g: Game, cid: str, *, hp: int = 45, **stats: Any) -> None:
    """An enemy (injured only by attempts, D-INF-03) with combat caution 12 + 2 + 2 = 16."""
    g.add(cid, cid.title(), hits=hp)
    base: dict[str, Any] = {"con": 12, "proficiency": 2, "cr": 4, "ac": 15}
    g.act("set-dnd-stats", character=cid, hp_max=hp, enemy=True, **(base | stats))


def injuries(g: Game, cid: str) -> list[dict[str, Any]]:
    """The injury records of ``cid``, oldest first."""
    return [c.data for c in g.ch(cid).conditions if c.kind == "injury"]


def last_injury(g: Game, cid: str) -> dict[str, Any]:
    """The newest injury record of ``cid``."""
    found = injuries(g, cid)
    assert found, f"{cid} has no injury"
    return found[-1]


def pending(g: Game, cid: str) -> Condition | None:
    """The injury of ``cid`` waiting to be rolled, if any."""
    return g.ch(cid).condition("injury_pending")


def payloads(g: Game, kind: str) -> list[dict[str, Any]]:
    """Payloads of every event of ``kind`` so far."""
    return [e.payload for e in g.events if e.kind == kind]


@pytest.fixture
def g() -> Game:
    """A campaign with Aria (combat caution 19, 40 HP)."""
    game_ = game()
    pc(game_, "a")
    return game_
