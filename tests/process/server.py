"""A real ``lazaretto serve`` in a child process, for the tests that kill it, run
several of them, or load them: started through the installed console script, on a free
loopback port, in its own process group so SIGKILL takes its workers with it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from lazaretto.core.character import Character
from lazaretto.core.clock import ClockMode
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.store.db import Database

LAZARETTO = str(Path(sys.executable).with_name("lazaretto"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def seed_campaign(
    db_url: str,
    name: str,
    characters: dict[str, int],
    *,
    clock: ClockMode = ClockMode.MANUAL,
) -> str:
    """A warhammer-larp campaign with ``characters`` (id → hits) and a master; returns
    the master's Bearer token."""
    from datetime import datetime

    db = Database(db_url)
    try:
        campaigns, accounts = CampaignService(db), AccountService(db)
        campaigns.create_campaign(
            name, "warhammer-larp", clock=clock, start=datetime(2026, 6, 13, 12, 0), seed=5
        )
        for cid, hits in characters.items():
            campaigns.add_character(
                name, Character(id=cid, name=cid.upper(), hits_max=hits, hits=hits)
            )
        user = accounts.create_user(f"gm-{name}", "process-test-password")
        accounts.add_member(user, name, Role.MASTER)
        return accounts.login(f"gm-{name}", "process-test-password").token
    finally:
        db.close()


class Server:
    """``lazaretto serve`` over ``db_url``; start, kill (SIGKILL) and start again."""

    def __init__(self, db_url: str, log: Path, workers: int = 1) -> None:
        self.db_url = db_url
        self.log = log
        self.workers = workers
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [LAZARETTO, "serve", "--port", str(self.port), "--workers", str(self.workers)],
                env={**os.environ, "LAZARETTO_DB": self.db_url, "LAZARETTO_LANG": "en"},
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"serve exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/login", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.kill()
        raise AssertionError(f"serve did not answer: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL the server and every worker: no shutdown, no flush."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)
        self.proc = None

    def stop(self) -> None:
        """A graceful stop (SIGTERM), as an operator would."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None

    def worker_pids(self) -> set[int]:
        """The server's worker processes (children of the main process)."""
        assert self.proc is not None
        found = set()
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.proc.pid:
                found.add(int(stat.parent.name))
        return found
