"""Shared pieces of the browser tests: the real server in a thread (the demo campaign on
a temporary SQLite file), Debian's Chromium through Playwright, a phone-sized page.

Test modules import the fixtures they use (``server``, ``browser``)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, Request, sync_playwright

from lazaretto.api.app import create_app
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import seed
from lazaretto.store.db import Database

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).parent / "artifacts"
PHONE = {"width": 390, "height": 844}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real app on 127.0.0.1 with the demo seeded; its base URL."""
    db = Database(f"sqlite:///{tmp_path_factory.mktemp('web') / 'browser.db'}")
    seed(CampaignService(db), AccountService(db))
    port = free_port()
    config = uvicorn.Config(
        create_app(db),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        loop="asyncio",
        timeout_graceful_shutdown=1,
    )
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)
    db.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless. Missing Chromium fails the tests: CI installs it."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


class Phone:
    """A phone-sized page that records script errors and every request sent elsewhere."""

    def __init__(self, browser: Browser, base: str) -> None:
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, base_url=base)
        self.page: Page = context.new_page()
        self.errors: list[str] = []
        self.outside: list[str] = []
        self.received = 0  # bytes of answers (as sent, compressed)
        host = urlsplit(base).netloc
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

        def seen(request: Request) -> None:
            where = urlsplit(request.url)
            if where.scheme in ("http", "https", "ws", "wss") and where.netloc != host:
                self.outside.append(request.url)

        self.page.on("request", seen)

    def login(self, user: str, password: str) -> None:
        self.page.goto("/login")
        self.page.fill("input[name=username]", user)
        self.page.fill("input[name=password]", password)
        self.page.click("button.primary")

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    def fits(self) -> bool:
        return bool(self.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))
