"""Page weight and render time of the web pages with the demo data (in-process).

    .venv/bin/python bench/bench_pages.py

Prints, for each page a healer uses in play, its size (HTML + CSS + JS), the bytes
sent to a browser that accepts gzip, and the median server time of 30 requests
(targets: < 100 KB sent, < 200 ms); then the same for a master's pages of a campaign
of 600 characters after 20,000 wounds (a weekend's log of 21,000 events); then the
countdown board of that campaign as the service answers it (no page), a healer's
against a master's in the same run, and a healer's the way it was built before issue
18 (a card per character with a countdown), for the ratio.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient

from lazaretto.api.app import create_app
from lazaretto.core.character import Character
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN, seed
from lazaretto.service.play import PlayService, card_for
from lazaretto.store.db import Database

BIG = "big-larp"


def big_campaign(db: Database) -> None:
    """600 sturdy characters after 20,000 wounds, the demo master as its master too."""
    campaigns, accounts = CampaignService(db), AccountService(db)
    campaigns.create_campaign(BIG, "warhammer-larp", seed=3)
    for i in range(600):
        tough = Character(id=f"p{i}", name=f"Player {i}", hits_max=100, hits=100)
        campaigns.add_character(BIG, tough)
    wounds = [  # sent all at once: committed in groups, as under a battle's load
        campaigns.submit_act(BIG, "lose-hits", {"character": f"p{i % 600}", "hits": 1})
        for i in range(20_000)
    ]
    for wound in wounds:
        wound.result()
    master = accounts.login("master", "master-demo").user
    accounts.add_member(master, BIG, Role.MASTER)
    healer = accounts.login("healer", "healer-demo").user
    accounts.add_member(healer, BIG, Role.HEALER)


def _median_ms(call: Callable[[], object], runs: int = 30) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def board(db: Database) -> None:
    """The countdown board of the big campaign: a master's, a healer's, and a healer's
    derived from a card per character with a countdown (how it was built before)."""
    campaigns, accounts = CampaignService(db), AccountService(db)
    play = PlayService(campaigns, accounts)
    master = accounts.login("master", "master-demo").user
    healer = accounts.login("healer", "healer-demo").user

    def by_cards() -> list[object]:
        m = play.require(healer, BIG, Role.HEALER)
        rs, state, _ = campaigns.load(BIG)
        pending = state.pending_timers()
        shown = {
            (cid, c.get("deadline"))
            for cid in {t.subject for t in pending if t.subject in state.characters}
            for c in card_for(rs, state, cid, m, "en")["conditions"]
        }
        return [t for t in pending if (t.subject, t.deadline.isoformat()) in shown]

    count = len(play.timers(healer, BIG)[2])
    assert count == len(by_cards()), "the healer's board differs from the cards'"
    base = _median_ms(lambda: play.timers(master, BIG))
    print(f"\nThe countdown board, {count} countdowns (service, median ms):")
    for who, ms in (
        ("master", base),
        ("healer", _median_ms(lambda: play.timers(healer, BIG))),
        ("healer, a card per character (before)", _median_ms(by_cards)),
    ):
        print(f"  {who:40} {ms:8.2f}  {ms / base:6.1f}x the master's")


def measure(client: TestClient, pages: list[str], assets: tuple[int, int]) -> None:
    print(f"{'page':48} {'KB':>6} {'KB sent':>8} {'median ms':>10}")
    for url in pages:
        times = []
        for _ in range(30):
            t0 = time.perf_counter()
            resp = client.get(url)
            times.append(time.perf_counter() - t0)
        assert resp.status_code == 200, url
        size, sent = len(resp.content) + assets[0], resp.num_bytes_downloaded + assets[1]
        print(
            f"{url:48} {size / 1024:6.1f} {sent / 1024:8.1f} "
            f"{statistics.median(times) * 1000:10.1f}"
        )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite:///{Path(tmp) / 'pages.db'}")
        seed(CampaignService(db), AccountService(db))
        big_campaign(db)
        with TestClient(create_app(db, ticker=False)) as client:
            r = client.post("/api/login", json={"username": "healer", "password": "healer-demo"})
            assert r.status_code == 200
            static = [client.get(f"/static/{f}") for f in ("app.css", "live.js")]
            assets = (
                sum(len(a.content) for a in static),
                sum(a.num_bytes_downloaded for a in static),
            )
            measure(
                client,
                [
                    f"/c/{CAMPAIGN}",
                    f"/c/{CAMPAIGN}/ch/1002",
                    f"/c/{CAMPAIGN}/hospital/h1",
                    f"/c/{CAMPAIGN}/journal",
                    f"/c/{CAMPAIGN}/timers",
                    f"/c/{CAMPAIGN}/act/apply-bandage?character=1001",
                ],
                assets,
            )
            r = client.post("/api/login", json={"username": "master", "password": "master-demo"})
            assert r.status_code == 200
            print("\n600 characters, 21,000 events in the log, a master:")
            measure(
                client,
                [f"/c/{BIG}", f"/c/{BIG}/ch/p3", f"/c/{BIG}/timers", f"/c/{BIG}/journal"],
                assets,
            )
        board(db)
        db.close()


if __name__ == "__main__":
    main()
