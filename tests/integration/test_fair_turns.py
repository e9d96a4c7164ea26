"""One client or one big clock move cannot hold up everyone else (issue 15, items 9
and 15): a long advance is several changes; one user's changes in flight are capped."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from lazaretto.core.character import Character
from lazaretto.core.errors import TooBusy
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.play import PlayService
from lazaretto.store.db import Database

START = datetime(2026, 6, 13, 10, 0)



def wounded(svc: CampaignService, name: str, n: int) -> None:
    svc.create_campaign(name, "warhammer-larp", start=START, seed=1)
    for i in range(n):
        svc.add_character(name, Character(id=f"c{i}", name=f"C{i}", hits_max=3, hits=3))
        svc.act(name, "lose-hits", {"character": f"c{i}", "hits": 1, "location": "arm"},
                at=START + timedelta(minutes=i))


def test_a_long_clock_move_is_committed_in_steps_with_the_same_outcome(db: Database) -> None:
    """W-WND-08/12: every light wound turns heavy, then kills — the same whether the
    day is one change or several; with a step of 4 countdowns, 12 wounded take steps."""
    steps = CampaignService(db)
    steps.ADVANCE_CHUNK = 4
    whole = CampaignService(db)
    whole.ADVANCE_CHUNK = 10_000
    wounded(steps, "steps", 12)
    wounded(whole, "whole", 12)
    before = len(steps.records("steps"))
    done = steps.advance_to("steps", START + timedelta(days=1))
    whole.advance_to("whole", START + timedelta(days=1))
    moves = [r for r in steps.records("steps")[before:] if r["kind"] == "clock"]
    assert len(moves) >= 24 // 4, "several changes, each firing about four countdowns"
    a, b = steps.load("steps")[1], whole.load("whole")[1]
    assert all(not c.alive for c in a.characters.values())
    assert {k: c.model_dump() for k, c in a.characters.items()} == {
        k: c.model_dump() for k, c in b.characters.items()
    }
    assert a.clock == b.clock and not a.timers
    assert sum(e.kind == "character.died" for e in done) == 12


def test_one_users_changes_in_flight_are_capped_and_the_rest_refused(db: Database) -> None:
    svc, accounts = CampaignService(db), AccountService(db)
    play = PlayService(svc, accounts)
    svc.create_campaign("busy", "warhammer-larp", start=START, seed=1)
    svc.add_character("busy", Character(id="tank", name="Tank", hits_max=100, hits=100))
    user = accounts.create_user("script", "script-password")
    accounts.add_member(user, "busy", Role.PLAYER, ("tank",))
    wound = {"character": "tank", "hits": 1, "location": "arm"}
    with db.write_lock:  # the campaign's writer waits: every change stays in flight
        queued = [play.submit_act(user, "busy", "lose-hits", wound)
                  for _ in range(PlayService.IN_FLIGHT)]
        with pytest.raises(TooBusy) as refused:
            play.submit_act(user, "busy", "lose-hits", wound)
    assert refused.value.http_status == 429
    assert all(f.result(timeout=30) for f in queued)
    assert play.submit_act(user, "busy", "lose-hits", wound).result(timeout=30)
    assert svc.load("busy")[1].characters["tank"].hits == 100 - PlayService.IN_FLIGHT - 1
