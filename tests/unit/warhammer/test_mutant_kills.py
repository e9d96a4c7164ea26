"""Boundaries of warhammer-larp rules that a one-step change of their data or code would
move unnoticed (issue 19, ``bench/mutate.py``): each test pins the value on both sides."""

from __future__ import annotations

from typing import Any

from tests.game import Game
from tests.unit.warhammer.diseases_kit import define, game, held_codes, ill


def epidemic(g: Game, stickers: int = 30) -> str:
    """Carrier K hands an epidemic certificate of Grey fever to master Olga in 'town'."""
    g.act("issue-certificate", kind="epidemic", disease="GF", holder="K")
    cid = next(reversed(g.state.certificates))
    g.act("attach-stickers", certificate=cid, count=stickers, source="master")
    g.act(
        "start-epidemic",
        at="08:00",
        carrier="K",
        certificate=cid,
        location="town",
        regional_master="Olga",
        interval_minutes=30,
        wave_stickers=10,
    )
    return next(reversed(g.state.epidemics))


def wave(g: Game, eid: str, at: str, who: list[str]) -> dict[str, Any]:
    evs = g.act("epidemic-wave", at=at, epidemic=eid, present=[{"character": c} for c in who])
    return dict(next(e for e in evs if e.kind == "epidemic.wave_started").payload)


def test_two_touches_of_the_same_pair_in_the_same_second_both_pass_by_default() -> None:
    g = game()
    define(g)
    g.act("hand-stickers", to="K", disease="GF", count=2)
    g.act("carrier-touch", at="10:00:00", carrier="K", victim="p0", disease="GF")
    g.act("carrier-touch", at="10:00:00", carrier="K", victim="p0", disease="GF")
    assert ill(g, "p0")  # W-CARR-01
    assert len(held_codes(g, "p0")) == 1  # A-W-28: no pause, the second touch counted too
    assert held_codes(g, "K") == []


def test_an_epidemic_takes_at_most_30_stickers_from_a_larger_certificate() -> None:
    g = game(epidemic_required_stickers=31)  # a campaign whose certificates carry 31
    define(g)
    eid = epidemic(g, stickers=31)
    assert len(g.state.epidemics[eid].stickers) == 30  # A-W-22: at most 30 over all waves


def test_quarantine_needs_at_most_three_infected_in_two_waves_four_is_too_many() -> None:
    g = game()
    define(g)
    eid = epidemic(g)
    assert wave(g, eid, "08:00", ["p0", "p1", "p2"])["infected"] == ["p0", "p1", "p2"]
    assert wave(g, eid, "08:30", ["p3"])["infected"] == ["p3"]
    g.advance("08:35")
    assert g.state.epidemics[eid].status == "active"  # W-EPI-10, A-W-23: 3 + 1 = 4 > 3
    assert len(wave(g, eid, "09:00", ["p4", "p5"])["infected"]) == 2
    g.advance("09:05")
    epi = g.state.epidemics[eid]
    assert (epi.status, epi.end_reason) == ("ended", "quarantine")  # W-EPI-10: 1 + 2 = 3
