"""Fixtures of the web page tests: a seeded demo database and logged-in clients."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.e2e.clitools import Run, cli_runner
from tests.e2e.webtools import Login, hidden

from lazaretto.api.app import create_app
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import seed
from lazaretto.store.db import Database


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database(f"sqlite:///{tmp_path / 'w.db'}")
    seed(CampaignService(database), AccountService(database))
    yield database
    database.close()


@pytest.fixture
def login(db: Database) -> Iterator[Login]:
    """A logged-in browser-like client per demo user (its own cookie jar)."""
    app = create_app(db, ticker=False)
    clients: list[TestClient] = []

    def make(user: str) -> TestClient:
        client = TestClient(app, headers={"Accept": "text/html"})
        client.__enter__()
        clients.append(client)
        form = client.get("/login")
        r = client.post(
            "/login",
            data={"username": user, "password": f"{user}-demo", "pre": hidden(form.text, "pre")},
            follow_redirects=False,
        )
        assert r.status_code == 303, r.text
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture
def run(tmp_path: Path) -> Run:
    """The CLI on a fresh database file; ``lang`` picks LAZARETTO_LANG."""
    return cli_runner(tmp_path / "c.db")
