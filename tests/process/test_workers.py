"""``lazaretto serve --workers 2``: two server processes on one database. Each
countdown fires exactly once whichever process's ticker sees it first, and live
streams hear the change whichever process they are connected to."""

from __future__ import annotations

import threading
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

import httpx

from lazaretto.core.clock import Clock, ClockMode
from lazaretto.service.campaigns import CampaignService
from lazaretto.store.db import Database
from tests.process.server import Server, seed_campaign

CAMPAIGN = "two-tents"
WOUNDED = [f"w{i}" for i in range(6)]


def listen(url: str, token: str, versions: list[int], stop: threading.Event) -> None:
    """A phone watching the campaign's live stream."""
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(timeout=httpx.Timeout(5, read=30)) as client, client.stream(
        "GET", f"{url}/api/campaigns/{CAMPAIGN}/stream", headers=headers
    ) as r:
        for line in r.iter_lines():
            if line.startswith("data:"):
                versions.append(int(line.split('"version": ')[1].rstrip("}")))
            if stop.is_set():
                return


def test_two_processes_fire_each_countdown_once_and_every_stream_hears_it(
    database_url: str, tmp_path: Path
) -> None:
    token = seed_campaign(
        database_url, CAMPAIGN, {c: 3 for c in WOUNDED}, clock=ClockMode.REALTIME
    )
    db = Database(database_url)
    svc = CampaignService(db)
    # light wounds one campaign second apart, then the clock moved to two seconds
    # before the first worsens: the countdowns come due while both processes tick.
    # The clock is paused meanwhile: on a busy machine more than a second of wall
    # time may pass between reading the clock and moving it a second on.
    svc.set_clock(CAMPAIGN, Clock.pause)
    for cid in WOUNDED:
        svc.act(CAMPAIGN, "lose-hits", {"character": cid, "hits": 1})
        svc.advance_to(CAMPAIGN, svc.clock(CAMPAIGN).now() + timedelta(seconds=1))
    _, state, _ = svc.load(CAMPAIGN)
    timers = {t.id: t for t in state.pending_timers()}
    assert len(timers) == len(WOUNDED)
    first = min(t.deadline for t in timers.values())
    svc.advance_to(CAMPAIGN, first - timedelta(seconds=2))
    svc.set_clock(CAMPAIGN, Clock.resume)
    db.close()

    server = Server(database_url, tmp_path / "serve.log", workers=2)
    stop = threading.Event()
    heard: list[list[int]] = [[] for _ in range(4)]
    try:
        server.start()
        assert len(server.worker_pids()) >= 2
        phones = [
            threading.Thread(target=listen, args=(server.url, token, heard[i], stop), daemon=True)
            for i in range(4)
        ]
        for p in phones:
            p.start()
        db = Database(database_url)
        svc = CampaignService(db)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            fired = svc.events(CAMPAIGN, ("timer.fired",))
            if len(fired) >= len(timers):
                break
            time.sleep(0.2)
        time.sleep(2.5)  # a second chance for a double fire, and for streams to hear
        final = svc.version(CAMPAIGN)
        fired = svc.events(CAMPAIGN, ("timer.fired",))
        assert Counter(e.payload["id"] for e in fired) == Counter(dict.fromkeys(timers, 1))
        assert all(e.at >= timers[e.payload["id"]].deadline for e in fired)
        assert svc.replay_matches(CAMPAIGN)
        db.close()
        assert all(h and h[-1] == final for h in heard), (heard, final)
    finally:
        stop.set()
        server.stop()
