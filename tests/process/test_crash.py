"""Durability: ``lazaretto serve`` is killed with SIGKILL at random points of a scripted
workload of hundreds of wounds recorded by several concurrent phones, and restarted.

The phones behave as real ones over flaky Wi-Fi: an action whose answer never came is
sent again, with the same Idempotency-Key, once the server is back. Afterwards:
every acknowledged action is in the log exactly once (and so is every retried one),
each character's hits agree with the wounds recorded against them, the countdowns the
wounds started are all pending and fire at their deadlines, and replaying the event
log rebuilds the stored state.
"""

from __future__ import annotations

import json
import random
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

import httpx
from sqlalchemy import select

from lazaretto.service.campaigns import CampaignService
from lazaretto.store.db import Database
from lazaretto.store.models import IdempotencyRow
from tests.process.server import Server, seed_campaign

CAMPAIGN = "crash"
CHARACTERS = {f"p{i}": 1000 for i in range(40)}
ACTIONS = 360
PHONES = 8
KILLS = 6
ARTIFACTS = Path(__file__).resolve().parents[1] / "e2e" / "artifacts"


class Phones:
    """Concurrent clients that remember what the server acknowledged."""

    def __init__(self, server: Server, token: str, plan: list[tuple[str, str]]) -> None:
        self.server = server
        self.headers = {"Authorization": f"Bearer {token}"}
        self.todo = list(plan)  # (idempotency key, character), sent in order
        self.acknowledged: dict[str, list[int]] = {}  # key → seqs of the answer
        self.resent = 0  # requests in flight when the server died, sent again
        self.lock = threading.Lock()

    def _next(self) -> tuple[str, str] | None:
        with self.lock:
            return self.todo.pop(0) if self.todo else None

    def _phone(self) -> None:
        with httpx.Client(base_url=self.server.url, timeout=10) as client:
            while (job := self._next()) is not None:
                key, who = job
                try:
                    r = client.post(
                        f"/api/campaigns/{CAMPAIGN}/actions/lose-hits",
                        json={"character": who, "hits": 1},
                        headers={**self.headers, "Idempotency-Key": key},
                    )
                except httpx.HTTPError:  # the server died under us: retry after restart
                    with self.lock:
                        self.todo.append(job)
                        self.resent += 1
                    return
                assert r.status_code == 200, r.text
                with self.lock:
                    self.acknowledged[key] = [e["seq"] for e in r.json()["events"]]

    def run_until_killed(self, kill_at: int | None) -> None:
        """All phones send until the plan is done, or until ``kill_at`` actions are
        acknowledged, when the server is killed with requests in flight."""
        with ThreadPoolExecutor(PHONES) as pool:
            jobs = [pool.submit(self._phone) for _ in range(PHONES)]
            while kill_at is not None and not all(j.done() for j in jobs):
                if len(self.acknowledged) >= kill_at:
                    self.server.kill()
                    break
                time.sleep(0.002)
        for j in jobs:
            j.result()


def test_sigkill_at_random_points_loses_and_duplicates_nothing(
    database_url: str, tmp_path: Path
) -> None:
    rng = random.Random(20261130)
    token = seed_campaign(database_url, CAMPAIGN, CHARACTERS)
    plan = [
        (str(uuid.UUID(int=rng.getrandbits(128))), rng.choice(list(CHARACTERS)))
        for _ in range(ACTIONS)
    ]
    server = Server(database_url, tmp_path / "serve.log")
    phones = Phones(server, token, plan)
    kills = 0
    try:
        server.start()
        while phones.todo:
            if kills < KILLS:  # kill somewhere in the next sixth of the workload
                target = len(phones.acknowledged) + rng.randrange(5, ACTIONS // (KILLS + 1))
                phones.run_until_killed(kill_at=target)
                kills += 1
                server.start()
            else:
                phones.run_until_killed(kill_at=None)
        server.stop()
    finally:
        server.kill()

    db = Database(database_url)
    try:
        svc = CampaignService(db)
        events = svc.events(CAMPAIGN)
        with db.transaction(readonly=True) as s:
            rows = s.scalars(select(IdempotencyRow).where(IdempotencyRow.campaign_id == CAMPAIGN))
            answers = {r.key: list(r.response["seqs"]) for r in rows}  # type: ignore[call-overload]
        wounds = [e for e in events if e.kind == "wound.hits_lost"]
        wound_of_seq = {e.seq: e for e in wounds}
        sent = {key for key, _ in plan}

        lost = [k for k in sent if k not in answers]
        wounds_per_key = {k: [s for s in seqs if s in wound_of_seq] for k, seqs in answers.items()}
        duplicated = [k for k, w in wounds_per_key.items() if len(w) != 1]
        mismatched = [k for k, seqs in phones.acknowledged.items() if answers.get(k) != seqs]
        report = {
            "backend": database_url.split(":", 1)[0].split("+")[0],
            "kills": kills,
            "actions": ACTIONS,
            "acknowledged": len(phones.acknowledged),
            "in_flight_at_kill_resent": phones.resent,
            "lost": len(lost),
            "duplicated": len(duplicated) + len(wounds) - len(sent),
            "answers_changed_after_restart": len(mismatched),
        }
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"crash-{report['backend']}.json").write_text(json.dumps(report))

        assert kills == KILLS
        assert not lost and not duplicated and len(wounds) == ACTIONS, report
        assert not mismatched, "a retried request must get the first answer"
        assert [e.seq for e in events] == list(range(1, len(events) + 1))

        _, state, _ = svc.load(CAMPAIGN)
        hits_lost = Counter(e.payload["character"] for e in wounds)
        for cid, hits in CHARACTERS.items():
            assert state.characters[cid].hits == hits - hits_lost[cid]
        assert svc.replay_matches(CAMPAIGN)

        # every wounded character's countdown survived the crashes and fires on time
        pending = {t.subject: t for t in state.pending_timers()}
        assert set(pending) == set(hits_lost)
        latest = max(t.deadline for t in pending.values())
        svc.advance_to(CAMPAIGN, latest + timedelta(seconds=1))
        fired = svc.events(CAMPAIGN, ("timer.fired",))
        fired_at = {e.payload["id"]: e.at for e in fired}
        once_each = Counter({t.id: 1 for t in pending.values()})
        assert Counter(e.payload["id"] for e in fired) == once_each
        assert all(fired_at[t.id] == t.deadline for t in pending.values())
    finally:
        db.close()
