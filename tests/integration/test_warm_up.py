"""A server's start parses the campaigns played last, for readers and for their writer,
before it takes a request (issue 25: after a restart mid-battle the first taps and the
cards reopening must not wait for a 3,000-character state to be parsed)."""

from __future__ import annotations

import threading
import time
from datetime import datetime

import pytest
from fastapi.testclient import TestClient

from lazaretto.api.app import create_app
from lazaretto.core.character import Character
from lazaretto.service import campaigns as campaigns_module
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.group_commit import LINGER
from lazaretto.store.db import Database

START = datetime(2026, 6, 13, 10, 0)


def played(db: Database, names: list[str]) -> None:
    """Campaigns created, then played in the order given (the last one played last)."""
    svc = CampaignService(db)
    for name in names:
        svc.create_campaign(name, "warhammer-larp", start=START)
    for name in names:
        svc.add_character(name, Character(id="a", name="A", hits_max=3, hits=3))


def test_the_campaigns_played_last_are_parsed_at_the_start_at_most_a_few(
    db: Database,
) -> None:
    played(db, ["e", "a", "d", "b", "c"])
    svc = CampaignService(db)
    assert svc.warm_up(limit=3) == ["c", "b", "d"]  # latest first; "a" and "e" left
    assert all(svc.parsed(n) is not None for n in ("c", "b", "d"))
    assert svc.parsed("a") is None and svc.parsed("e") is None


def test_after_the_warm_up_the_first_change_parses_nothing(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    played(db, ["field"])
    svc = CampaignService(db)
    assert svc.warm_up() == ["field"]
    parses: list[str] = []
    real = campaigns_module.read_state

    def counted(session, row):  # type: ignore[no-untyped-def]
        parses.append(row.id)
        return real(session, row)

    monkeypatch.setattr(campaigns_module, "read_state", counted)
    svc.act("field", "lose-hits", {"character": "a", "hits": 1, "location": "arm"})
    assert svc.parsed("field") is None  # a new version: readers catch up from parts
    assert svc.load("field")[1].characters["a"].hits == 2
    assert parses == []  # neither the writer nor the reader parsed the whole state


def test_a_changed_campaign_is_not_taken_back_to_the_warmed_copy(db: Database) -> None:
    """The writer's copy warmed at version v, another process wrote v+1: the first
    change here catches up instead of working on the old copy."""
    played(db, ["field"])
    here, other = CampaignService(db), CampaignService(db)
    here.warm_up()
    other.act("field", "lose-hits", {"character": "a", "hits": 1, "location": "arm"})
    here.act("field", "lose-hits", {"character": "a", "hits": 1, "location": "leg"})
    assert CampaignService(db).load("field")[1].characters["a"].hits == 1


@pytest.mark.parametrize("warm", [True, False])
def test_the_server_warms_up_before_its_first_request_only_when_asked(
    db: Database, warm: bool
) -> None:
    played(db, ["field"])
    app = create_app(db, ticker=False, warm=warm)
    with TestClient(app):  # the lifespan has run: the server takes requests now
        svc = app.state.services.campaigns
        assert (svc.parsed("field") is not None) is warm


def test_the_server_keeps_its_writers_and_ends_them_when_it_stops(db: Database) -> None:
    """A serving app's writer waits idle for the next tap (no thread started under the
    event loop per burst); when the app shuts down the waiting writer ends with it."""
    played(db, ["field"])
    app = create_app(db, ticker=False, warm=True)
    with TestClient(app):
        svc = app.state.services.campaigns
        assert svc.linger == LINGER
        svc.act("field", "lose-hits", {"character": "a", "hits": 1, "location": "arm"})
        assert writers() == ["lazaretto-writer:field"]
    deadline = time.monotonic() + 5
    while writers() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert writers() == []
    assert create_app(db, ticker=False).state.services.campaigns.linger == 0


def writers() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("lazaretto-writer:")]
