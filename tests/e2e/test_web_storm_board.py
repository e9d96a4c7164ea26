"""Issue 25, what a master sees during a Wi-Fi storm: the master's board (the campaign
page) says how many late records wait to be placed and how far back the oldest
reaches, in both languages; healers are not shown it, and it goes once all are placed."""

from __future__ import annotations

import re
from datetime import timedelta

from fastapi.testclient import TestClient
from tests.e2e.webtools import C, Login

from lazaretto.core.clock import wall_now
from lazaretto.reading.lines import hhmm
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN


def _late_line(client: TestClient, lang: str) -> str | None:
    html = client.get(f"{C}?lang={lang}").text
    found = re.search(r'<p class="late" role="status" data-late-waiting="(\d+)">(.*?)</p>', html,
                      re.S)
    return f"{found.group(1)}|{found.group(2).strip()}" if found else None


def test_the_masters_board_counts_the_late_records_waiting_and_how_far_back(
    login: Login,
) -> None:
    master, healer = login("master"), login("healer")
    svc: CampaignService = master.app.state.services.campaigns  # type: ignore[attr-defined]
    # the game has run two hours (a realtime clock, moved on as a master would)
    svc.set_clock(
        CAMPAIGN,
        lambda c: c.model_copy(
            update={"anchor": c.now() + timedelta(hours=2), "anchor_wall": wall_now()}
        ),
    )
    now = svc.clock(CAMPAIGN).now()
    assert _late_line(master, "en") is None  # nothing waits: nothing said
    wound = {"character": "1002", "hits": 1, "location": "left arm"}
    # three outbox taps from a phone that lost the Wi-Fi; half a minute over whole
    # minutes, so the page (a moment after this line) reads the same "min ago"
    backs = [timedelta(minutes=m, seconds=30) for m in (5, 20, 12)]
    with svc.db.write_lock:  # the writer is busy: the taps queue up behind it
        futures = [
            svc.submit_act(CAMPAIGN, "lose-hits", wound, at=now - back) for back in backs
        ]
        oldest = hhmm((now - backs[1]).isoformat())  # as the pages write times
        assert _late_line(master, "en") == (
            f"3|Late records waiting to be placed: 3; the oldest reaches back to "
            f"{oldest} (20 min ago)"
        )
        assert _late_line(master, "ru") == (
            f"3|Поздних записей ждут размещения: 3; самая давняя — на {oldest} "
            f"(20 мин назад)"
        )
        assert _late_line(healer, "en") is None  # the board is the masters'
    for future in futures:
        future.result(timeout=30)
    assert _late_line(master, "en") is None
