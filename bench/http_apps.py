"""The two servers bench_http.py compares: Lazaretto itself, and a bare FastAPI endpoint
doing one durable SQLite insert (the ceiling on this machine)."""

from __future__ import annotations

import os
import sqlite3
import threading

from fastapi import FastAPI

from lazaretto.api.app import create_app, tune_gc
from lazaretto.store.db import Database


def lazaretto_app() -> FastAPI:
    """The real app over the benchmark's database (BENCH_DB), set up as `serve` does."""
    app = create_app(Database(f"sqlite:///{os.environ['BENCH_DB']}"))
    tune_gc()
    return app


def bare_app() -> FastAPI:
    """One SQLite insert per request, WAL + synchronous=FULL, one connection per process."""
    conn = sqlite3.connect(
        os.environ["BENCH_BARE_DB"], check_same_thread=False, isolation_level=None
    )
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE IF NOT EXISTS hits (id INTEGER PRIMARY KEY, who TEXT, n INT)")
    lock = threading.Lock()
    app = FastAPI()

    @app.post("/insert")
    async def insert(body: dict[str, object]) -> dict[str, bool]:
        with lock:
            conn.execute(
                "INSERT INTO hits (who, n) VALUES (?, ?)",
                (str(body.get("character")), int(str(body.get("hits", 1)))),
            )
        return {"ok": True}

    return app
