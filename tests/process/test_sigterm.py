"""A graceful stop (issue 16, item 8): ``lazaretto serve`` gets SIGTERM while phones
have live pages open (their server-sent event streams never end by themselves), exits
within 5 s, and the open pages reconnect to the next server on the same port by
themselves: a change made there shows on the page with nobody touching it."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import httpx
from playwright.sync_api import Browser

from lazaretto.core.clock import ClockMode
from tests.e2e.browsertools import Phone, browser  # noqa: F401  (the fixture)
from tests.process.server import Server, seed_campaign

CAMPAIGN = "sigterm"
STOP_SECONDS = 5.0


def _sigterm(server: Server) -> float:
    """SIGTERM the server's process group; seconds until its main process exited."""
    assert server.proc is not None
    start = time.monotonic()
    os.killpg(server.proc.pid, signal.SIGTERM)
    try:
        server.proc.wait(timeout=30)
    finally:
        server.kill()  # whatever is left (nothing, when the stop worked)
    return time.monotonic() - start


def _still_running(pids: set[int], within: float) -> list[str]:
    """Those of ``pids`` still running (not gone, not a zombie) after ``within`` s."""
    deadline = time.monotonic() + within
    while True:
        left = []
        for pid in pids:
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            if stat.rsplit(")", 1)[1].split()[0] != "Z":
                left.append(f"{pid}: {cmd.decode(errors='replace')[:120]}")
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


def _open_stream(server: Server, token: str) -> tuple[httpx.Client, httpx.Response]:
    """A raw live stream held open, as a phone's EventSource holds it."""
    client = httpx.Client(base_url=server.url, timeout=httpx.Timeout(5, read=60))
    response = client.send(
        client.build_request(
            "GET",
            f"/api/campaigns/{CAMPAIGN}/stream",
            headers={"Authorization": f"Bearer {token}", "Accept": "text/event-stream"},
        ),
        stream=True,
    )
    assert response.status_code == 200
    assert next(response.iter_lines()).startswith("retry:")
    return client, response


def test_sigterm_with_live_pages_open_exits_within_5s_and_pages_reconnect(
    tmp_path: Path,
    browser: Browser,  # noqa: F811
) -> None:
    url = f"sqlite:///{tmp_path / 'stop.db'}"
    token = seed_campaign(url, CAMPAIGN, {"a": 3}, clock=ClockMode.REALTIME)
    server = Server(url, tmp_path / "serve.log")
    server.start()
    phone = Phone(browser, server.url)
    streams = []
    try:
        phone.login(f"gm-{CAMPAIGN}", "process-test-password")
        page = phone.page
        with page.expect_response(lambda r: "/stream" in r.url):
            page.goto(f"/c/{CAMPAIGN}/ch/a")
        assert "3/3" in page.inner_text(".big")
        streams = [_open_stream(server, token) for _ in range(3)]

        took = _sigterm(server)
        print(f"SIGTERM to exit with 4 live streams open: {took:.2f} s")
        assert took < STOP_SECONDS, f"the server took {took:.1f} s to stop"
        assert "Traceback" not in server.log.read_text()

        server.start()  # the next server, on the same port and database
        r = httpx.post(
            f"{server.url}/api/campaigns/{CAMPAIGN}/actions/lose-hits",
            json={"character": "a", "hits": 1},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert r.status_code == 200, r.text
        # the page was never reloaded by hand: its stream reconnected and it refreshed
        page.wait_for_function(
            "document.querySelector('.big').textContent.includes('2/3')", timeout=20_000
        )
        assert page.locator("#net").is_hidden()  # and it no longer says it is offline
        assert not phone.errors
    finally:
        for client, response in streams:
            response.close()
            client.close()
        phone.page.context.close()
        server.stop()


def test_sigterm_stops_every_worker_of_a_two_process_server_within_5s(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'stop2.db'}"
    token = seed_campaign(url, CAMPAIGN, {"a": 3}, clock=ClockMode.REALTIME)
    server = Server(url, tmp_path / "serve.log", workers=2)
    server.start()
    streams = []
    try:
        streams = [_open_stream(server, token) for _ in range(6)]  # spread over the workers
        workers = server.worker_pids()
        assert len(workers) >= 2  # the two workers (and multiprocessing's helper, if any)
        took = _sigterm(server)
        print(f"SIGTERM to exit, 2 workers, 6 live streams: {took:.2f} s")
        assert took < STOP_SECONDS, f"the server took {took:.1f} s to stop"
        assert not _still_running(workers, within=2.0)
        assert "Traceback" not in server.log.read_text()
    finally:
        for client, response in streams:
            response.close()
            client.close()
        server.stop()
