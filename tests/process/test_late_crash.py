"""Durability of a re-run: ``lazaretto serve --workers 2`` is killed with SIGKILL while
it re-runs a long history after a late record, again and again at varied moments.

Each round, five phones send at the same moment four records typed in late (placed at
the start of the day, before some 1,800 records, so the re-run is long; arriving
together, a worker places them in one batched re-run, issue 25) and a live one (placed
now), each with its own Idempotency-Key; the server is killed somewhere between "not
yet received" and "committed". After the restart every phone sends again with the
same keys. Then: each record is in the history exactly once (the late one committed
whole or not at all, and a retry is answered with the first answer's record), the
record numbers have no holes, and the stored state, countdowns and events are exactly
what running every stored record in campaign-time order from the campaign's first
state gives (the in-order history).
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from lazaretto.core import engine, history
from lazaretto.core.character import Character
from lazaretto.core.clock import wall_now
from lazaretto.core.history import Checkpoint, Record
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.repair import repair
from lazaretto.store.db import Database
from tests.process.server import Server

CAMPAIGN = "long-day"
START = datetime(2026, 6, 13, 8, 0)
PATIENTS = 50
CYCLES = 600  # wound, bandage, cure: 1,800 records after the late point
KILL_AT = (0.05, 2.0, 0.3, 1.4, 0.6, 0.9)
"""When each round's SIGKILL comes, as a share of the re-run's measured time: surely
before the late record's answer, surely after it, and in between (each round costs a
restart of two workers, the most of this test's time)."""
ROUNDS = len(KILL_AT)
BATCH = 4
"""Late records sent together each round (a Wi-Fi storm's outboxes, in small)."""
KIT = [
    "hourglass_10min",
    "needle",
    "thread",
    "plaster",
    "bandages",
    "mask",
    "gloves",
    "mat_materials",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "e2e" / "artifacts"


def seed(db_url: str) -> str:
    """A warhammer-larp day: a healer, 50 patients wounded, bandaged and cured every
    20 seconds from 08:10 (1,800 records), and one untouched character per round for
    the late record and for the live one. Returns a master's token."""
    db = Database(db_url)
    try:
        svc, accounts = CampaignService(db), AccountService(db)
        svc.create_campaign(CAMPAIGN, "warhammer-larp", start=START, seed=3)
        people = [Character(id="doc", name="Doc", hits_max=3, hits=3, skills=["Healer"])]
        people += [Character(id=f"c{i}", name=f"C{i}", hits_max=3, hits=3) for i in range(PATIENTS)]
        people += [
            Character(id=cid, name=cid, hits_max=3, hits=3)
            for r in range(ROUNDS + 1)
            for cid in (f"live{r}", *(f"late{r}-{k}" for k in range(BATCH)))
        ]
        for ch in people:
            svc.add_character(CAMPAIGN, ch)
        svc.act(CAMPAIGN, "check-kit", {"healer": "doc", "items": KIT})
        svc.act(
            CAMPAIGN, "register-mat", {"id": "m", "healer": "doc", "length_cm": 180, "width_cm": 60}
        )
        when, pending = START + timedelta(minutes=10), []
        for i in range(CYCLES):
            when += timedelta(seconds=20)
            cid = f"c{i % PATIENTS}"
            for action, raw, dt in (
                ("lose-hits", {"character": cid, "hits": 1, "location": "arm"}, 0),
                ("apply-bandage", {"healer": "doc", "patient": cid, "bandages": 1, "mat": "m"}, 5),
                ("cure-by-other-means", {"patient": cid, "means": "potion"}, 10),
            ):
                pending.append(
                    svc.submit_act(CAMPAIGN, action, raw, at=when + timedelta(seconds=dt))
                )
        for f in pending:
            f.result()
        user = accounts.create_user("late-gm", "late-crash-password")
        accounts.add_member(user, CAMPAIGN, Role.MASTER)
        return accounts.login("late-gm", "late-crash-password").token
    finally:
        db.close()


def in_order(svc: CampaignService) -> history.Outcome:
    """Every stored record run from the campaign's first state in campaign-time order:
    the history as it would be had every record arrived on time."""
    rs, _, _ = svc.load(CAMPAIGN)
    first = engine.replay(rs, svc.events(CAMPAIGN)[:1])  # campaign.created
    start = Checkpoint(0, START, first.last_seq, first.model_dump_json())
    records = [
        Record(
            no=r["record"],
            kind=r["kind"],
            at=datetime.fromisoformat(r["at"]),
            wall=datetime.fromisoformat(r["wall"]),
            actor=r["actor"],
            role=Role(r["role"]),
            action=r["action"],
            input=r["input"],
            voids=r["voids"],
            reason=r["reason"],
        )
        for r in svc.records(CAMPAIGN, limit=100_000)
    ]
    return history.rerun(rs, start, records, wall_now())


class Phone:
    """One request, sent on its own thread; remembers whether and what it was answered."""

    def __init__(self, server: Server, token: str, body: dict[str, Any]) -> None:
        self.server, self.body = server, body
        self.headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": str(uuid.uuid4())}
        self.answer: dict[str, Any] | None = None
        self.took = 0.0
        self.thread = threading.Thread(target=self.send)

    def send(self) -> None:
        t = time.monotonic()
        try:
            r = httpx.post(
                f"{self.server.url}/api/campaigns/{CAMPAIGN}/actions/lose-hits",
                json=self.body,
                headers=self.headers,
                timeout=60,
            )
        except httpx.HTTPError:  # killed under us: no answer
            return
        assert r.status_code == 200, r.text
        self.answer, self.took = r.json(), time.monotonic() - t

    def again(self) -> dict[str, Any]:
        """The retry after the restart, with the same key."""
        r = httpx.post(
            f"{self.server.url}/api/campaigns/{CAMPAIGN}/actions/lose-hits",
            json=self.body,
            headers=self.headers,
            timeout=60,
        )
        assert r.status_code == 200, r.text
        return dict(r.json())


def late_body(n: int, k: int) -> dict[str, Any]:
    at = START + timedelta(minutes=5, seconds=n * BATCH + k)  # before every one of the 1,800
    return {"character": f"late{n}-{k}", "hits": 1, "location": "leg", "at": at.isoformat()}


def live_body(n: int) -> dict[str, Any]:
    return {"character": f"live{n}", "hits": 1, "location": "arm"}


def phones_of(server: Server, token: str, n: int) -> list[Phone]:
    """Round ``n``'s phones: the batch of late records first, the live one last."""
    bodies = [*(late_body(n, k) for k in range(BATCH)), live_body(n)]
    return [Phone(server, token, body) for body in bodies]


def test_sigkill_during_re_runs_loses_doubles_and_changes_nothing(
    database_url: str, tmp_path: Path
) -> None:
    token = seed(database_url)
    server = Server(database_url, tmp_path / "serve.log", workers=2)
    rounds: list[dict[str, Any]] = []
    try:
        server.start()
        # round 0, not killed: how long a late record's re-run takes here
        phones = phones_of(server, token, 0)
        for p in phones:
            p.thread.start()
        for p in phones:
            p.thread.join(120)
        assert all(p.answer for p in phones)
        window = max(p.took for p in phones[:BATCH])
        for n in range(1, ROUNDS + 1):
            phones = phones_of(server, token, n)
            delay = KILL_AT[n - 1] * window
            for p in phones:
                p.thread.start()
            time.sleep(delay)
            server.kill()
            for p in phones:
                p.thread.join(60)
            t = time.monotonic()
            server.start()
            restart = time.monotonic() - t
            first = [p.answer for p in phones]
            retried = [p.again() for p in phones]
            twice = [p.again() for p in phones]
            for i, answered in enumerate(first):
                if answered is not None:  # acknowledged before the kill: the same record
                    assert retried[i]["record"] == answered["record"], (n, i)
                assert twice[i]["record"] == retried[i]["record"], (n, i)
                assert retried[i]["events"], (n, i)
            rounds.append(
                {
                    "kill_after_ms": round(delay * 1000),
                    "late_acknowledged": sum(a is not None for a in first[:BATCH]),
                    "live_acknowledged": first[BATCH] is not None,
                    "restart_s": round(restart, 1),
                }
            )
        server.stop()
    finally:
        server.kill()

    report = {
        "backend": database_url.split(":", 1)[0].split("+")[0],
        "rerun_ms": round(window * 1000),
        "rounds": rounds,
        "late_killed_in_flight": sum(BATCH - r["late_acknowledged"] for r in rounds),
        "live_killed_in_flight": sum(not r["live_acknowledged"] for r in rounds),
    }
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"late-crash-{report['backend']}.json").write_text(json.dumps(report))
    # the kills fell both before and after commits: some late records were lost in
    # flight (and recorded once by their retry), some were acknowledged first
    assert 0 < report["late_killed_in_flight"] < ROUNDS * BATCH, report

    db = Database(database_url)
    try:
        svc = CampaignService(db)
        listed = svc.records(CAMPAIGN, limit=100_000)
        nos = [r["record"] for r in listed]
        assert nos == list(range(1, len(nos) + 1)), "record numbers without holes or doubles"
        for n in range(ROUNDS + 1):
            for cid in (f"live{n}", *(f"late{n}-{k}" for k in range(BATCH))):
                mine = [r for r in listed if r["input"].get("character") == cid]
                assert [r["status"] for r in mine] == ["ok"], (cid, mine)
        _, state, _ = svc.load(CAMPAIGN)
        for n in range(ROUNDS + 1):
            # W-WND-08: a wound at 08:05 nobody bandaged turned heavy at 08:35 and killed
            # in the re-run; one recorded now has its countdown still running
            assert not any(state.characters[f"late{n}-{k}"].alive for k in range(BATCH)), n
            live = state.characters[f"live{n}"]
            assert live.alive and live.hits == 2 and state.timers_for(f"live{n}"), n
        expected = in_order(svc)
        assert not expected.refused
        assert state.model_dump(mode="json") == expected.state.model_dump(mode="json")
        stored = [(e.seq, e.kind, e.at, e.payload) for e in svc.events(CAMPAIGN)]
        assert stored[0][:2] == (1, "campaign.created")
        assert stored[1:] == [(e.seq, e.kind, e.at, e.payload) for e in expected.events]
        assert repair(svc, CAMPAIGN, write=False).differences == []
    finally:
        db.close()
