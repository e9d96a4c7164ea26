"""Page weight and render time of the web pages with the demo data (in-process).

    .venv/bin/python bench/bench_pages.py

Prints, for each page a healer uses in play, the bytes sent (HTML + CSS + JS) and the
median server time of 30 requests (targets: < 100 KB, < 200 ms).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from lazaretto.api.app import create_app
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN, seed
from lazaretto.store.db import Database


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite:///{Path(tmp) / 'pages.db'}")
        seed(CampaignService(db), AccountService(db))
        with TestClient(create_app(db, ticker=False)) as client:
            r = client.post("/api/login", json={"username": "healer", "password": "healer-demo"})
            assert r.status_code == 200
            assets = sum(len(client.get(f"/static/{f}").content) for f in ("app.css", "live.js"))
            pages = [
                f"/c/{CAMPAIGN}",
                f"/c/{CAMPAIGN}/ch/1002",
                f"/c/{CAMPAIGN}/hospital/h1",
                f"/c/{CAMPAIGN}/journal",
                f"/c/{CAMPAIGN}/timers",
                f"/c/{CAMPAIGN}/act/apply-bandage?character=1001",
            ]
            print(f"{'page':48} {'KB':>6} {'median ms':>10}")
            for url in pages:
                times = []
                size = 0
                for _ in range(30):
                    t0 = time.perf_counter()
                    resp = client.get(url)
                    times.append(time.perf_counter() - t0)
                    size = len(resp.content)
                print(
                    f"{url:48} {(size + assets) / 1024:6.1f} "
                    f"{statistics.median(times) * 1000:10.1f}"
                )
        db.close()


if __name__ == "__main__":
    main()
