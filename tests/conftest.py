"""Shared fixtures: the database backends every storage test runs against.

SQLite always; PostgreSQL too when ``LAZARETTO_TEST_PG`` holds a server URL (CI starts a
throw-away cluster with ``scripts/pg-test-cluster.sh``). Each PostgreSQL test starts from
an empty schema.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from lazaretto.store.db import Database

PG_URL = os.environ.get("LAZARETTO_TEST_PG")
BACKENDS = ["sqlite", "postgresql"] if PG_URL else ["sqlite"]


def empty_postgres(url: str) -> str:
    """Drop everything in the public schema of ``url``; returns the URL."""
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return url


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database of each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.db'}"
    assert PG_URL is not None
    return empty_postgres(PG_URL)


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    """An open :class:`Database` over a fresh database of each backend, closed after
    the test (a test file that seeds it defines its own)."""
    database = Database(database_url)
    yield database
    database.close()
