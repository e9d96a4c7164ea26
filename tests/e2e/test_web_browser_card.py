"""A card on a phone in Debian's Chromium (issue 16, item 5): a live refresh keeps
the sections a healer opened and the place they scrolled to, and the confirmation of
what they just recorded (with its Undo) stays until they leave the page."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, expect
from tests.e2e.browsertools import Phone, browser, server  # noqa: F401  (fixtures)

from lazaretto.service.demo import CAMPAIGN


def _master_api(base: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=10)
    r = client.post("/api/login", json={"username": "master", "password": "master-demo"})
    r.raise_for_status()
    client.headers["Authorization"] = f"Bearer {r.json()['token']}"
    return client


def test_a_live_refresh_keeps_open_sections_the_scroll_and_the_confirmation(
    server: str,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    phone = Phone(browser, server)
    phone.login("master", "master-demo")
    page = phone.page
    page.goto(f"/c/{CAMPAIGN}/ch/1006?lang=en")  # Karl, unhurt
    page.locator("button[data-action=lose-hits]").click()  # one tap: −1 hit
    expect(page.locator("p.ok").first).to_contain_text("Karl lost 1 hit")
    page.locator("details.more summary").click()  # "All actions": a long list
    page.evaluate("window.scrollTo(0, 1200)")
    before = page.evaluate("window.scrollY")
    assert before > 1000
    version = page.locator("main").get_attribute("data-version")

    # someone else records a change to Karl: the page refreshes itself
    _master_api(server).post(
        f"/api/campaigns/{CAMPAIGN}/actions/lose-hits", json={"character": "1006", "hits": 1}
    ).raise_for_status()
    page.wait_for_function(
        "v => document.querySelector('main').dataset.version !== v", arg=version, timeout=15_000
    )
    expect(page.locator(".big .hits")).to_contain_text("1/3")
    assert page.locator("details.more").get_attribute("open") is not None
    assert abs(page.evaluate("window.scrollY") - before) < 5
    expect(page.locator("p.ok").first).to_contain_text("Karl lost 1 hit")  # still confirmed
    expect(page.locator("form.undo button")).to_be_visible()
    assert phone.errors == []
    page.context.close()
