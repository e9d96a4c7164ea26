"""The web app in a real browser: Playwright drives Debian's Chromium against the real
server (uvicorn in a thread, the demo campaign on a temporary SQLite file, the ticker
running). A healer on a phone-sized screen finds a character, wounds, bandages, admits
and treats him and watches the countdown; a master moves the clock through the API and
the healer's page turns to "healthy" by itself (server-sent events, no reload). A player
never sees another character's disease penalties. Screenshots go to ``artifacts/``."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from playwright.sync_api import Browser, Page, expect, sync_playwright

from lazaretto.api.app import create_app
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN, seed
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real app on 127.0.0.1 with the demo seeded; its base URL."""
    db = Database(f"sqlite:///{tmp_path_factory.mktemp('web') / 'browser.db'}")
    seed(CampaignService(db), AccountService(db))
    port = _free_port()
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
        pytest.fail(
            f"{CHROMIUM} is missing: install Debian's chromium package "
            "(apt-get install chromium) to run the browser tests"
        )
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


def _master_api(base: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=10)
    r = client.post("/api/login", json={"username": "master", "password": "master-demo"})
    r.raise_for_status()
    client.headers["Authorization"] = f"Bearer {r.json()['token']}"
    return client


def _phone(browser: Browser, base: str, user: str) -> tuple[Page, list[str]]:
    """A logged-in phone-sized page and the list its script errors are collected in."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, base_url=base)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto("/")
    expect(page).to_have_url(f"{base}/login?next=%2F")
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", f"{user}-demo")
    page.click("button.primary")
    if user == "player":  # one character in their only campaign: they land on its card
        expect(page).to_have_url(f"{base}/c/{CAMPAIGN}/ch/1002")
    else:
        expect(page.locator("h1")).to_have_text("Campaigns")
    return page, errors


def _shot(page: Page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _fits_the_screen(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_healer_treats_a_wound_and_the_page_follows_the_clock(
    server: str, browser: Browser
) -> None:
    page, errors = _phone(browser, server, "healer")
    page.click(f"text={CAMPAIGN}")
    page.fill("input[name=q]", "1006")  # Karl's passport number
    page.click("form.find button")
    expect(page).to_have_url(f"{server}/c/{CAMPAIGN}/ch/1006")
    expect(page.locator(".state")).to_have_text("healthy")
    assert _fits_the_screen(page)
    _shot(page, "1-card-healthy")

    # Three taps from the card: −1 hit, Bandage, Record.
    page.click("[data-action=lose-hits]")
    expect(page.locator(".state")).to_have_text("light wound")
    page.click("[data-action=apply-bandage]")
    expect(page.locator("[name=patient]")).to_have_value("1006")
    _shot(page, "2-bandage-form")
    page.click("[data-submit]")
    expect(page).to_have_url(f"{server}/c/{CAMPAIGN}/ch/1006")
    expect(page.locator(".cond .tag")).to_have_text("bandaged")

    page.click("[data-action=admit]")
    page.click("[data-submit]")
    expect(page.locator(".ok").first).to_contain_text("W-HOSP-04")

    page.click("[data-action=treat-light-wound]")
    expect(page.locator("[name=place]")).to_have_value("h1")  # where he was admitted
    page.click("[data-submit]")
    countdown = page.locator(".cond-treatment .cd")
    expect(countdown).to_be_visible()
    first = countdown.inner_text()
    assert first.startswith("9:") or first == "10:00", first
    page.wait_for_function(
        "t => document.querySelector('.cond-treatment .cd').textContent !== t", arg=first
    )  # it counts down by itself
    _shot(page, "3-treatment-countdown")
    page.evaluate("window.stillTheSamePage = true")

    _master_api(server).post(
        f"/api/campaigns/{CAMPAIGN}/clock", params={"op": "advance"}, json={"by": "11m"}
    ).raise_for_status()
    expect(page.locator(".state")).to_have_text("healthy", timeout=10_000)
    expect(page.locator(".cond-treatment")).to_have_count(0)
    assert page.evaluate("window.stillTheSamePage === true")  # swapped in place, no reload
    _shot(page, "4-cured-by-the-clock")

    page.goto(f"/c/{CAMPAIGN}/journal")
    expect(page.locator("table.journal")).to_contain_text("Karl")
    assert _fits_the_screen(page)
    _shot(page, "5-journal")
    page.goto(f"/c/{CAMPAIGN}/hospital/h1")
    expect(page.locator("table.board")).to_contain_text("Dmitri")
    assert _fits_the_screen(page)
    _shot(page, "6-hospital-board")
    assert errors == []


def test_a_player_sees_only_their_own_disease_penalties(server: str, browser: Browser) -> None:
    gm = _master_api(server)
    gm.post(
        f"/api/campaigns/{CAMPAIGN}/actions/infect", json={"character": "1001", "disease": "GF-1"}
    ).raise_for_status()
    page, errors = _phone(browser, server, "player")
    page.goto(f"/c/{CAMPAIGN}/ch/1002")
    # Boris is theirs: "cannot run" is folded into "may not", the rest stays a penalty
    expect(page.locator(".secret")).to_contain_text("-1 hit in combat")
    expect(page.locator(".maynot")).to_contain_text("run (because of Grey fever)")
    page.goto(f"/c/{CAMPAIGN}/ch/1001")  # a LARP player sees no other card at all
    expect(page.locator(".error")).to_contain_text("No character")
    assert "Rustam" not in page.content()
    assert "cannot run" not in page.content()
    assert "Grey fever" not in page.content()
    _shot(page, "7-player-sees-no-foreign-penalties")
    assert errors == []


def test_the_card_says_when_it_is_offline_and_catches_up_when_back(
    server: str, browser: Browser
) -> None:
    """A healer's card loses Wi-Fi: it says since when it is out of date and marks its
    countdowns; back online it says nothing more and shows a change made meanwhile."""
    page, errors = _phone(browser, server, "healer")
    page.goto(f"/c/{CAMPAIGN}/ch/1002")
    expect(page.locator("h1")).to_contain_text("Boris")
    banner = page.locator("#net")
    page.context.set_offline(True)
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("offline — last updated")
    assert page.evaluate("document.body.classList.contains('stale')")
    _shot(page, "card-offline")
    api = _master_api(server)  # meanwhile, the master records a wound
    r = api.post(f"/api/campaigns/{CAMPAIGN}/actions/lose-hits",
                 json={"character": "1002", "hits": 1, "location": "elbow"})
    api.close()
    assert r.status_code == 200, r.text
    page.context.set_offline(False)
    expect(banner).to_be_hidden(timeout=15_000)
    expect(page.locator("main")).to_contain_text("elbow", timeout=15_000)
    assert not errors


def test_a_healer_undoes_a_mistap_from_the_confirmation(server: str, browser: Browser) -> None:
    """The −1 hit tapped on the wrong card is taken back with the Undo under its
    confirmation: the hit is back, the countdown gone, and the card says so."""
    page, errors = _phone(browser, server, "healer")
    page.goto(f"/c/{CAMPAIGN}/ch/1006")
    hits = page.locator("p.big").inner_text()
    page.locator("button[data-action=lose-hits]").click()
    expect(page.locator("p.ok").first).to_contain_text("lost 1 hit")
    page.locator("button[data-undo]").click()
    expect(page.locator("p.ok")).to_contain_text("undone")
    expect(page.locator(".corrections")).to_contain_text("UNDONE")
    assert page.locator("p.big").inner_text() == hits
    _shot(page, "card-undone")
    assert not errors


def test_a_tap_without_wifi_waits_in_the_outbox_and_arrives_once_at_its_tap_time(
    server: str, browser: Browser
) -> None:
    """The healer taps −1 hit with no Wi-Fi: the phone keeps it ("1 waiting to send"),
    the tab is closed; back online, the next page sends it — once, at the campaign time
    of the tap, not of its arrival."""
    page, errors = _phone(browser, server, "healer")
    api = _master_api(server)

    def wounds() -> list[dict[str, Any]]:
        r = api.get(f"/api/campaigns/{CAMPAIGN}/events", params={"about": "1005"})
        return [e for e in r.json() if e["kind"] == "wound.hits_lost"]

    before = len(wounds())
    page.goto(f"/c/{CAMPAIGN}/ch/1005")
    page.context.set_offline(True)
    tapped = page.locator("main").get_attribute("data-now")
    page.locator("button[data-action=lose-hits]").click()
    expect(page.locator("#outbox")).to_contain_text("1 waiting to send")
    page.close()
    time.sleep(3)  # the campaign clock runs on while the phone is offline
    page.context.set_offline(False)
    again = page.context.new_page()
    again.goto(f"/c/{CAMPAIGN}/ch/1005")
    expect(again.locator("#outbox")).to_contain_text("sent", timeout=15_000)
    found = wounds()
    assert len(found) == before + 1, "recorded once"
    assert tapped is not None and found[-1]["at"][:16] == tapped[:16]
    assert found[-1]["at"] < api.get(f"/api/campaigns/{CAMPAIGN}/timers").json()["now"]
    again.goto(f"/c/{CAMPAIGN}/ch/1005")
    assert len(wounds()) == before + 1, "a reload sends nothing again"
    api.close()
    assert not errors
