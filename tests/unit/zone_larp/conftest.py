"""Fixtures for the zone-larp rule tests: a campaign with two healers and three fighters
of 2 hits each (the base hits, A-Z-03)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from lazaretto.core.engine import run_query
from lazaretto.core.events import Event
from lazaretto.rulesets.zone_larp.checks import wound_state
from lazaretto.rulesets.zone_larp.params import ZoneParams
from tests.game import Game, t


def zone_game(params: dict[str, Any] | None = None, start: str = "09:00") -> Game:
    """A zone-larp campaign with fighters C, D, E (2 hits) and healers H, H2."""
    g = Game(ruleset="zone-larp", start=start, params=params)
    for cid in ("C", "D", "E"):
        g.add(cid, hits=2)
    g.add("H", hits=2, skills=("Healer",))
    g.add("H2", hits=2, skills=("Healer",))
    return g


@pytest.fixture
def g() -> Game:
    return zone_game()


def params(g: Game) -> ZoneParams:
    p = g.rs.campaign_params(g.state.params)
    assert isinstance(p, ZoneParams)
    return p


def state_of(g: Game, cid: str) -> str:
    """The character's health state (checks.wound_state)."""
    return wound_state(g.ch(cid), params(g))


def card(g: Game, cid: str, lang: str = "en") -> dict[str, Any]:
    assert g.rs.describe is not None
    return g.rs.describe(g.state, cid, lang)


def ask(g: Game, name: str, lang: str = "en", **kw: Any) -> dict[str, Any]:
    """A read-only query; checks that it changes nothing."""
    before = g.state.model_copy(deep=True)
    answer = run_query(g.rs, g.state, name, kw, lang=lang)
    assert g.state == before
    return answer


def may(g: Game, cid: str, activity: str) -> bool:
    return bool(ask(g, "may-do", character=cid, activity=activity)["allowed"])


def why(g: Game, cid: str, activity: str) -> list[str]:
    return list(ask(g, "may-do", character=cid, activity=activity)["rule_ids"])


def to_hospital(
    g: Game, cids: str | list[str], at: str, weapon: str = "red_ribbon", **strike: Any
) -> None:
    """``cids`` are heavy-wounded at ``at`` and arrive at the Hospital 5 minutes later."""
    who = [cids] if isinstance(cids, str) else cids
    for cid in who:
        g.act("strike", at=at, character=cid, weapon=weapon, **strike)
    later = (t(at) + timedelta(minutes=5)).strftime("%H:%M:%S")
    for cid in who:
        g.act("arrive-hospital", at=later, patient=cid)


def event(evs: list[Event], kind: str) -> Event:
    """The first event of ``kind`` among ``evs``."""
    found = [e for e in evs if e.kind == kind]
    assert found, (kind, [e.kind for e in evs])
    return found[0]


def kinds(evs: list[Event]) -> list[str]:
    """Event kinds without the clock and timer bookkeeping."""
    return [e.kind for e in evs if not e.kind.startswith(("clock.", "timer."))]
