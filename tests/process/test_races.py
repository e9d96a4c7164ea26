"""Concurrency through real parallel HTTP requests to two server processes
(``lazaretto serve --workers 2``) on one database, on every backend: many healers and
masters acting at the same moment can never put two patients on one operating table,
pass one sticker to two people, or act on a character after their death."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from lazaretto.core.character import Character
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.store.db import Database
from tests.process.server import Server

CAMPAIGN = "rush"
RIVALS = 6


def seed(db_url: str) -> str:
    """Six healers with six heavy-wounded, bandaged, admitted patients and one table;
    a carrier holding one sticker; a dying man. Returns a master's token."""
    db = Database(db_url)
    try:
        svc, accounts = CampaignService(db), AccountService(db)
        svc.create_campaign(CAMPAIGN, "warhammer-larp", seed=11)
        rs, _, _ = svc.load(CAMPAIGN)
        kit = list(rs.params.model_dump()["healer_kit"])
        people = [Character(id=f"h{i}", name=f"Healer {i}", hits_max=3, hits=3,
                            skills=["Healer"]) for i in range(RIVALS)]
        people += [Character(id=f"p{i}", name=f"Patient {i}", hits_max=3, hits=3)
                   for i in range(RIVALS)]
        people += [Character(id=f"v{i}", name=f"Victim {i}", hits_max=3, hits=3)
                   for i in range(RIVALS)]
        people += [Character(id="k", name="Karl", hits_max=3, hits=3, skills=["Carrier"]),
                   Character(id="d", name="Dying", hits_max=3, hits=3)]
        for ch in people:
            svc.add_character(CAMPAIGN, ch)

        def act(action: str, **kw: Any) -> None:
            svc.act(CAMPAIGN, action, kw)

        act("register-hospital", id="h", name="Tent", number="1", tables=[{"id": "t1"}],
            beds=[{"id": "b1"}, {"id": "b2"}])
        for i in range(RIVALS):
            act("check-kit", healer=f"h{i}", items=kit)
            act("register-mat", id=f"mat{i}", healer=f"h{i}", length_cm=180, width_cm=60)
            act("lose-hits", character=f"p{i}", hits=3)
            act("apply-bandage", healer=f"h{i}", patient=f"p{i}", bandages=3, mat=f"mat{i}")
            act("admit", hospital="h", patient=f"p{i}", healer=f"h{i}")
        act("define-disease", code="GF", name="Grey fever", symptoms="cough",
            penalties="cannot run", contagious=True)
        act("hand-stickers", to="k", disease="GF", count=1)
        act("lose-hits", character="d", hits=3)
        user = accounts.create_user("rush-gm", "rush-password")
        accounts.add_member(user, CAMPAIGN, Role.MASTER)
        return accounts.login("rush-gm", "rush-password").token
    finally:
        db.close()


@pytest.fixture
def rush(database_url: str, tmp_path: Path) -> Iterator[tuple[Server, str, str]]:
    """Two server processes over a seeded campaign: (server, token, database URL)."""
    token = seed(database_url)
    server = Server(database_url, tmp_path / "serve.log", workers=2)
    server.start()
    try:
        yield server, token, database_url
    finally:
        server.stop()


def race(server: Server, token: str, requests: list[tuple[str, dict[str, Any]]]) -> list[int]:
    """Send every (action, body) at the same moment, each from its own phone; returns
    the status codes in order."""
    start = threading.Barrier(len(requests))
    codes: list[int] = [0] * len(requests)

    def phone(i: int, action: str, body: dict[str, Any]) -> None:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            url = f"/api/campaigns/{CAMPAIGN}/actions/{action}"
            headers = {"Authorization": f"Bearer {token}"}
            client.get(f"/api/campaigns/{CAMPAIGN}", headers=headers)  # connection is open
            start.wait()
            codes[i] = client.post(url, json=body, headers=headers).status_code

    phones = [threading.Thread(target=phone, args=(i, *r)) for i, r in enumerate(requests)]
    for p in phones:
        p.start()
    for p in phones:
        p.join(60)
    return codes


def stored(db_url: str) -> tuple[Any, list[Any]]:
    db = Database(db_url)
    try:
        svc = CampaignService(db)
        assert svc.replay_matches(CAMPAIGN)
        return svc.load(CAMPAIGN)[1], svc.events(CAMPAIGN)
    finally:
        db.close()


def test_six_healers_rushing_one_table_put_exactly_one_patient_on_it(
    rush: tuple[Server, str, str],
) -> None:
    server, token, db_url = rush
    codes = race(server, token, [
        ("start-operation", {"healer": f"h{i}", "patient": f"p{i}", "hospital": "h",
                             "table": "t1"})
        for i in range(RIVALS)
    ])
    assert sorted(codes) == [200] + [409] * (RIVALS - 1), codes
    state, _ = stored(db_url)
    winner = f"p{codes.index(200)}"
    assert state.hospitals["h"].tables["t1"].occupant == winner
    on_table = [c for c in state.characters.values() if c.has("on_table")]
    assert [c.id for c in on_table] == [winner]


def test_one_sticker_touched_onto_six_victims_at_once_infects_one(
    rush: tuple[Server, str, str],
) -> None:
    server, token, db_url = rush
    state, _ = stored(db_url)
    (code,) = [s.code for s in state.stickers.values() if s.holder == "k"]
    codes = race(server, token, [
        ("carrier-touch", {"carrier": "k", "victim": f"v{i}", "stickers": [code]})
        for i in range(RIVALS)
    ])
    assert codes.count(200) == 1, codes
    assert all(c in (200, 404, 409) for c in codes), codes
    state, _ = stored(db_url)
    infected = [v for v in (f"v{i}" for i in range(RIVALS))
                if state.characters[v].has("disease")]
    assert infected == [f"v{codes.index(200)}"]
    assert state.stickers[code].holder == infected[0]


def test_nothing_is_done_to_a_character_after_the_death_that_won_the_race(
    rush: tuple[Server, str, str],
) -> None:
    server, token, db_url = rush
    requests: list[tuple[str, dict[str, Any]]] = [("kill", {"character": "d"})]
    requests += [("apply-bandage", {"healer": f"h{i}", "patient": "d", "bandages": 3,
                                    "mat": f"mat{i}"}) for i in range(3)]
    requests += [("lose-hits", {"character": "d", "hits": 1})] * 2
    codes = race(server, token, requests)
    assert codes[0] == 200, codes
    state, events = stored(db_url)
    assert not state.characters["d"].alive
    died = next(e.seq for e in events if e.kind == "character.died")
    after = [e for e in events if e.seq > died and "d" in (
        e.payload.get("character"), e.payload.get("patient"))]
    assert after == [], [e.kind for e in after]
