"""A realtime clock that runs into the end of campaign time (issue 15, item 16) stops
there: the campaign stays readable, its clock can be paused and set, changes are still
recorded, and moving past the end is refused with a clear message."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta

import pytest

from lazaretto.core.character import Character
from lazaretto.core.clock import LATEST, Clock, ClockMode
from lazaretto.core.errors import InvalidInput
from lazaretto.service.campaigns import CampaignService
from lazaretto.store.db import Database


@pytest.fixture
def campaigns(database_url: str) -> Iterator[CampaignService]:
    db = Database(database_url)
    svc = CampaignService(db)
    svc.create_campaign(
        "far", "warhammer-larp", clock=ClockMode.REALTIME, start=LATEST - timedelta(seconds=1)
    )
    svc.add_character("far", Character(id="R", name="Rustam", hits_max=3, hits=3))
    time.sleep(1.3)  # the wall clock carries campaign time past the end
    yield svc
    db.close()


def test_a_realtime_clock_past_the_end_of_time_stays_usable(campaigns: CampaignService) -> None:
    assert campaigns.info("far").now == LATEST  # readable, stopped at the end
    campaigns.catch_up("far")
    campaigns.act("far", "lose-hits", {"character": "R", "hits": 1, "location": "arm"})
    campaigns.set_clock("far", lambda c: c.pause())
    assert campaigns.clock("far").paused and campaigns.info("far").now == LATEST
    campaigns.set_clock("far", lambda c: c.set(LATEST))
    with pytest.raises(InvalidInput) as refused:
        campaigns.set_clock("far", lambda c: c.set(LATEST + timedelta(minutes=1)))
    assert "9000-01-01" in refused.value.text("en") and "9000-01-01" in refused.value.text("ru")


def test_a_clock_stops_at_the_end_of_time_and_never_reads_past_it() -> None:
    wall = Clock(mode=ClockMode.REALTIME, anchor=LATEST, paused=True).resume().anchor_wall
    assert wall is not None
    clock = Clock(mode=ClockMode.REALTIME, anchor=LATEST - timedelta(hours=1), anchor_wall=wall)
    assert clock.now(wall + timedelta(days=400)) == LATEST
    assert clock.now(wall + timedelta(minutes=30)) == LATEST - timedelta(minutes=30)
