"""One campaign with a damaged stored state, next to a healthy one, under a real
``lazaretto serve``: the ticker logs the damaged one (name and traceback), backs off
from it and keeps firing the healthy one's countdowns; the campaign list and the home
page still answer, naming the damaged one and how to repair it; ``lazaretto repair``
rebuilds it from its event log while the server runs, and ``replay`` then matches."""

from __future__ import annotations

import os
import subprocess
import time
from datetime import timedelta
from pathlib import Path

import httpx
from sqlalchemy import text

from lazaretto.core.clock import ClockMode
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.store.db import Database
from tests.process.server import LAZARETTO, Server, seed_campaign

DAMAGED = "a-damaged"  # listed (and due) first: the old ticker died before the healthy one
HEALTHY = "b-healthy"
LATER = 12
"""Seconds after the first countdown that the healthy campaign's second one comes due:
well after the damaged campaign was first tried."""


def lazaretto(db_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The real console script, as an operator runs it next to the server."""
    env = {**os.environ, "LAZARETTO_DB": db_url, "LAZARETTO_LANG": "en"}
    return subprocess.run(
        [LAZARETTO, *args], env=env, capture_output=True, text=True, timeout=60, check=False
    )


def _seed(db_url: str) -> tuple[str, list[str]]:
    """Both campaigns, countdowns due soon in each; the damaged one's state is garbage.
    Returns the healthy master's token (a member of both) and the healthy timers."""
    token = seed_campaign(db_url, HEALTHY, {"w0": 3, "w1": 3}, clock=ClockMode.REALTIME)
    seed_campaign(db_url, DAMAGED, {"d0": 3}, clock=ClockMode.REALTIME)
    db = Database(db_url)
    try:
        svc, accounts = CampaignService(db), AccountService(db)
        found = accounts.session(token)
        assert found is not None
        accounts.add_member(found[0], DAMAGED, Role.MASTER)
        svc.act(HEALTHY, "lose-hits", {"character": "w0", "hits": 1})
        svc.advance_to(HEALTHY, svc.clock(HEALTHY).now() + timedelta(seconds=LATER))
        svc.act(HEALTHY, "lose-hits", {"character": "w1", "hits": 1})
        first = min(t.deadline for t in svc.load(HEALTHY)[1].pending_timers())
        svc.advance_to(HEALTHY, first - timedelta(seconds=3))
        svc.act(DAMAGED, "lose-hits", {"character": "d0", "hits": 1})
        svc.advance_to(DAMAGED, svc.load(DAMAGED)[1].pending_timers()[0].deadline)
        timers = [t.id for t in svc.load(HEALTHY)[1].pending_timers()]
        with db.transaction() as s:  # damaged from outside: a bad disk, a careless edit
            s.execute(
                text("UPDATE campaigns SET next_due_wall = :due WHERE id = :id"),
                {"due": "2000-01-01T00:00:00", "id": DAMAGED},
            )
            s.execute(
                text("UPDATE state_parts SET body = :garbage WHERE campaign_id = :id "
                     "AND field = 'characters'"),
                {"garbage": '{"hits": [garbage', "id": DAMAGED},
            )
        return token, timers
    finally:
        db.close()


def test_a_damaged_campaign_is_logged_and_skipped_and_repaired_from_its_log(
    database_url: str, tmp_path: Path
) -> None:
    token, timers = _seed(database_url)
    assert len(timers) == 2
    log = tmp_path / "serve.log"
    server = Server(database_url, log)
    db = Database(database_url)
    svc = CampaignService(db)
    auth = {"Authorization": f"Bearer {token}"}
    try:
        server.start()
        deadline = time.monotonic() + LATER + 45
        fired: list[str] = []
        while time.monotonic() < deadline and len(fired) < len(timers):
            fired = [e.payload["id"] for e in svc.events(HEALTHY, ("timer.fired",))]
            time.sleep(0.3)
        assert sorted(fired) == sorted(timers), log.read_text()[-3000:]

        logged = log.read_text()
        # one line naming the repair, not a traceback (issue 28 L7)
        assert f"campaign {DAMAGED!r}" in logged, logged[-3000:]
        assert f"lazaretto repair {DAMAGED}" in logged and "Traceback" not in logged
        assert f"campaign {HEALTHY!r}" not in logged
        assert logged.count(f"campaign {DAMAGED!r} failed") < LATER  # backed off, not 1/s

        listed = httpx.get(f"{server.url}/api/campaigns", headers=auth, timeout=10)
        assert listed.status_code == 200, listed.text
        by_id = {c["id"]: c for c in listed.json()}
        assert by_id[HEALTHY]["damaged"] is None
        assert f"lazaretto repair {DAMAGED}" in by_id[DAMAGED]["damaged"]
        home = httpx.get(f"{server.url}/", headers={**auth, "Accept": "text/html"}, timeout=10)
        assert home.status_code == 200 and f"lazaretto repair {DAMAGED}" in home.text
        cli_list = lazaretto(database_url, "campaign", "list")
        assert cli_list.returncode == 0, cli_list.stderr
        assert f"{DAMAGED}: damaged: repair it with `lazaretto repair {DAMAGED}`" in cli_list.stdout

        dry = lazaretto(database_url, "repair", DAMAGED, "--dry-run")
        assert dry.returncode == 9 and "cannot be read" in dry.stdout, dry.stdout + dry.stderr
        done = lazaretto(database_url, "repair", DAMAGED)
        assert done.returncode == 0 and "rebuilt from" in done.stdout, done.stdout + done.stderr
        replay = lazaretto(database_url, "--campaign", DAMAGED, "replay")
        assert replay.returncode == 0 and "matches" in replay.stdout, replay.stdout + replay.stderr
        again = lazaretto(database_url, "repair", DAMAGED)
        assert again.returncode == 0 and "nothing to do" in again.stdout

        listed = httpx.get(f"{server.url}/api/campaigns", headers=auth, timeout=10)
        assert {c["id"]: c["damaged"] for c in listed.json()} == {DAMAGED: None, HEALTHY: None}
        assert svc.replay_matches(DAMAGED) and svc.replay_matches(HEALTHY)
    finally:
        server.stop()
        db.close()
