"""A Wi-Fi storm against the real ``lazaretto serve`` (issue 25), on each backend
(SQLite, one process; PostgreSQL, two worker processes): twelve phones that lost the
Wi-Fi reconnect at once and send their outboxes (each in order, one tap at a time, with
its Idempotency-Key and the campaign time it was made, as ``static/outbox.js`` does)
while a phone that never lost it keeps tapping.

What a master checks afterwards: every tap answered and recorded once, each late one
at the time it was made; a resend with the same key is answered with the same record;
the online phone was answered all along; the stored state is what the event log
replays to. And bad input in the storm is refused for that tap alone, in the caller's
language: a tap made beyond the late window (a healer's phone, its 30 minutes), a key
longer than a key may be, a body too large; the others go through."""

from __future__ import annotations

import asyncio
import uuid
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from lazaretto.core.character import Character
from lazaretto.core.clock import ClockMode, wall_now
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.repair import repair
from lazaretto.store.db import Database
from tests.process.server import Server

CAMPAIGN = "storm"
START = datetime(2026, 6, 13, 10, 0)
PHONES = 12
OUTBOX = 5
PASSWORD = "storm-test-password"


def seed(db_url: str) -> tuple[list[str], str, datetime]:
    """A realtime campaign two hours into the game (a late window of 30 minutes), a
    character per outbox tap and a few for the online phone, a master per phone and a
    healer; returns the masters' tokens, the healer's and the campaign time now."""
    db = Database(db_url)
    try:
        svc, accounts = CampaignService(db), AccountService(db)
        svc.create_campaign(CAMPAIGN, "warhammer-larp", clock=ClockMode.REALTIME, start=START,
                            seed=9, params={"late_record_minutes": 30})
        ids = [f"p{i}-{k}" for i in range(PHONES) for k in range(OUTBOX)]
        for cid in [*ids, *(f"on{k}" for k in range(20)), "healer-own"]:
            svc.add_character(CAMPAIGN, Character(id=cid, name=cid, hits_max=3, hits=3))
        svc.set_clock(CAMPAIGN, lambda c: c.model_copy(
            update={"anchor": c.now() + timedelta(hours=2), "anchor_wall": wall_now()}))
        tokens = []
        for i in range(PHONES + 1):
            user = accounts.create_user(f"gm{i}", PASSWORD)
            accounts.add_member(user, CAMPAIGN, Role.MASTER)
            tokens.append(accounts.login(f"gm{i}", PASSWORD).token)
        healer = accounts.create_user("healer", PASSWORD)
        accounts.add_member(healer, CAMPAIGN, Role.HEALER, ("healer-own",))
        return tokens, accounts.login("healer", PASSWORD).token, svc.clock(CAMPAIGN).now()
    finally:
        db.close()


async def send(client: httpx.AsyncClient, token: str, body: dict[str, Any], key: str,
               lang: str = "en") -> httpx.Response:
    return await client.post(
        f"/api/campaigns/{CAMPAIGN}/actions/lose-hits", json=body,
        headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key,
                 "Accept-Language": lang},
    )


async def storm(url: str, tokens: list[str], healer: str, now: datetime) -> dict[str, Any]:
    outboxes = [
        [({"character": f"p{i}-{k}", "hits": 1, "location": "arm",
           "at": (now - timedelta(minutes=20 - 3 * k, seconds=i)).isoformat()},
          str(uuid.uuid4())) for k in range(OUTBOX)]
        for i in range(PHONES)
    ]
    answers: dict[str, httpx.Response] = {}
    online: list[int] = []
    done = asyncio.Event()

    async def reconnect(i: int) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=60) as c:
            for body, key in outboxes[i]:  # in order: the next after the answer
                answers[key] = await send(c, tokens[i], body, key)

    async def stays_online() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=60) as c:
            k = 0
            while not done.is_set():
                r = await send(c, tokens[PHONES], {"character": f"on{k % 20}", "hits": 1},
                               str(uuid.uuid4()))
                online.append(r.status_code)
                k += 1
                await asyncio.sleep(0.05)

    async with httpx.AsyncClient(base_url=url, timeout=60) as c:
        watcher = asyncio.create_task(stays_online())
        results = await asyncio.gather(
            send(c, healer, {"character": "healer-own", "hits": 1,
                             "at": (now - timedelta(minutes=45)).isoformat()},
                 str(uuid.uuid4()), "ru"),
            send(c, tokens[0], {"character": "on0", "hits": 1}, "k" * 101),
            c.post(f"/api/campaigns/{CAMPAIGN}/actions/lose-hits",
                   content=b'{"character": "on1", "location": "' + b"x" * 1_100_000 + b'"}',
                   headers={"Authorization": f"Bearer {tokens[0]}",
                            "Content-Type": "application/json"}),
            *(reconnect(i) for i in range(PHONES)),
        )
        done.set()
        await watcher
        bad = results[:3]
        again = await send(c, tokens[0], outboxes[0][0][0], outboxes[0][0][1])
    return {"outboxes": outboxes, "answers": answers, "online": online, "bad": bad,
            "again": again}


def test_a_wifi_storm_places_every_outbox_once_and_refuses_bad_taps_alone(
    database_url: str, tmp_path: Path
) -> None:
    tokens, healer, now = seed(database_url)
    workers = 1 if database_url.startswith("sqlite") else 2
    server = Server(database_url, tmp_path / "serve.log", workers=workers)
    try:
        server.start()
        out = asyncio.run(storm(server.url, tokens, healer, now))
        server.stop()
    finally:
        server.kill()

    beyond, long_key, too_large = out["bad"]
    assert beyond.status_code == 403, beyond.text
    assert "больше 30 мин назад" in beyond.json()["message"], beyond.text
    assert long_key.status_code == 422, long_key.text
    assert too_large.status_code == 413, too_large.text
    answers: dict[str, httpx.Response] = out["answers"]
    assert len(answers) == PHONES * OUTBOX
    assert {r.status_code for r in answers.values()} == {200}
    first = out["outboxes"][0][0][1]
    assert out["again"].json()["record"] == answers[first].json()["record"]
    assert out["online"] and set(out["online"]) == {200}  # answered all along

    db = Database(database_url)
    try:
        svc = CampaignService(db)
        listed = {r["record"]: r for r in svc.records(CAMPAIGN, limit=100_000)}
        for box in out["outboxes"]:
            for body, key in box:
                rec = listed[answers[key].json()["record"]]
                assert rec["input"]["character"] == body["character"]
                assert datetime.fromisoformat(rec["at"]) == datetime.fromisoformat(body["at"])
                assert rec["status"] == "ok", rec
        late = [r for r in listed.values() if str(r["input"].get("character", "")).startswith("p")]
        assert len(late) == PHONES * OUTBOX  # 0 lost, 0 doubled
        assert not [r for r in listed.values() if r["input"].get("character") == "healer-own"]
        _, state, _ = svc.load(CAMPAIGN)
        assert all(state.characters[f"p{i}-{k}"].hits == 2
                   for i in range(PHONES) for k in range(OUTBOX))
        assert repair(svc, CAMPAIGN, write=False).differences == []
    finally:
        db.close()
