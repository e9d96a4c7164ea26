"""The masters' task screens without Wi-Fi, in a real browser: an outbreak or an epidemic
wave tapped while the phone is offline waits in the outbox and is recorded, once, at the
campaign time of the tap — not of its arrival, which may be minutes later and would
change who was near whom when (W-INF, W-EPI). Debian's Chromium at 390x844 against the
real server; screenshots go to ``artifacts/``."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Any

import httpx
from playwright.sync_api import Browser, expect
from tests.e2e.browsertools import Phone, browser, server  # noqa: F401  (fixtures)

from lazaretto.service.demo import CAMPAIGN

API = f"/api/campaigns/{CAMPAIGN}"
SLACK = timedelta(seconds=2)  # the tap time has whole seconds; the page's clock is read late


def _master(base: str) -> httpx.Client:
    api = httpx.Client(base_url=base, timeout=10)
    token = api.post("/api/login", json={"username": "master", "password": "master-demo"})
    api.headers["Authorization"] = f"Bearer {token.raise_for_status().json()['token']}"
    return api


def _now(api: httpx.Client) -> datetime:
    return datetime.fromisoformat(api.get(f"{API}/timers").json()["now"])


def _records(api: httpx.Client, action: str) -> list[dict[str, Any]]:
    return [r for r in api.get(f"{API}/records").json() if r["action"] == action]


def _offline_tap(phone: Phone, api: httpx.Client, action: str) -> tuple[datetime, datetime]:
    """Tap the screen's button with no network, wait, come back: the span of campaign
    time the tap was made in, and the time its record arrived."""
    page = phone.page
    before = len(_records(api, action))
    page.context.set_offline(True)
    tapped_from = _now(api)
    page.click("[data-submit]")
    expect(page.locator("#outbox")).to_contain_text("1 waiting to send")
    tapped_to = _now(api)
    _seen_under_the_banner(phone)
    phone.shot(f"offline-{action}-waiting")
    time.sleep(4)  # the campaign clock runs on while the phone is offline
    assert len(_records(api, action)) == before, "nothing arrives without the network"
    page.context.set_offline(False)
    expect(page.locator("#outbox")).to_contain_text("sent", timeout=20_000)
    arrived = _now(api)
    records = _records(api, action)
    assert len(records) == before + 1, "recorded once"
    record = records[-1]
    assert record["status"] == "ok", record
    at = datetime.fromisoformat(record["at"])
    assert tapped_from - SLACK <= at <= tapped_to, (tapped_from, at, tapped_to)
    assert at < arrived - timedelta(seconds=3), "placed at the tap, not at the arrival"
    return at, arrived


def _seen_under_the_banner(phone: Phone) -> None:
    """The button is at the bottom of a long form: scrolled there, the badge saying the
    tap waits is on the screen, below the offline banner, not hidden under it."""
    page = phone.page
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    expect(page.locator("#net")).to_be_visible()
    net, badge = page.locator("#net").bounding_box(), page.locator("#outbox").bounding_box()
    assert net and badge
    assert net["y"] + net["height"] <= badge["y"] + 1 < 844, (net, badge)


def test_an_outbreak_tapped_offline_is_recorded_at_its_tap_time(
    server: str,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    """A master picks the carrier and the people around on the outbreak screen and taps
    Start with no Wi-Fi; back online four seconds later the outbreak is recorded at the
    tap, and its sticker went to the person ticked."""
    api = _master(server)
    body = {"id": "1120", "name": "Влад", "hits": 3, "skills": ["Carrier"]}
    api.post(f"{API}/characters", json=body).raise_for_status()
    for action, data in (
        ("issue-certificate", {"kind": "outbreak", "disease": "GF-1", "holder": "1120"}),
        ("attach-stickers", {"certificate": "out-1", "count": 3, "source": "master"}),
    ):
        api.post(f"{API}/actions/{action}", json=data).raise_for_status()
    phone = Phone(browser, server)
    page = phone.page
    phone.login("master", "master-demo")
    page.goto(f"/c/{CAMPAIGN}/outbreak")
    page.select_option("select[name=carrier]", "1120")
    page.select_option("select[name=place]", "building")
    page.select_option("select[name=certificate]", "out-1")
    page.fill("input[name=distance_from_entrance_m]", "3")
    row = page.locator("tr[data-person='1006']")
    row.locator("input[name=here]").check()
    row.locator("input[type=number]").fill("2")
    at, _ = _offline_tap(phone, api, "start-outbreak")
    events = api.get(f"{API}/events", params={"about": "1006"}).json()
    infected = [e for e in events if e["action"] == "start-outbreak" and "infect" in e["kind"]]
    assert infected and all(datetime.fromisoformat(e["at"]) == at for e in infected), events
    assert phone.errors == [] and phone.outside == []
    api.close()


def test_an_epidemic_wave_tapped_offline_is_recorded_at_its_tap_time(
    server: str,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    """The wave picker: the people met ticked, Run the wave tapped with no Wi-Fi; back
    online the wave is recorded at the tap."""
    api = _master(server)
    body = {"id": "1121", "name": "Мира", "hits": 3, "skills": ["Carrier"]}
    api.post(f"{API}/characters", json=body).raise_for_status()
    place = {"id": "mill", "name": "Старая мельница"}
    api.post(f"{API}/actions/register-location", json=place).raise_for_status()
    issued = api.post(
        f"{API}/actions/issue-certificate",
        json={"kind": "epidemic", "disease": "GF-1", "holder": "1121"},
    )
    cert = issued.raise_for_status().json()["events"][0]["payload"]["id"]
    api.post(
        f"{API}/actions/attach-stickers",
        json={"certificate": cert, "count": 30, "source": "master"},
    ).raise_for_status()
    api.post(
        f"{API}/actions/start-epidemic",
        json={
            "carrier": "1121",
            "certificate": cert,
            "location": "mill",
            "regional_master": "1004",
            "interval_minutes": 30,
            "wave_stickers": 3,
        },
    ).raise_for_status()
    phone = Phone(browser, server)
    page = phone.page
    phone.login("master", "master-demo")
    page.goto(f"/c/{CAMPAIGN}/epidemics/wave")  # the only epidemic going on
    expect(page.locator("h1")).to_contain_text("Run the wave")
    page.locator("tr[data-person='1003'] input[name=met]").check()
    _offline_tap(phone, api, "epidemic-wave")
    assert phone.errors == [] and phone.outside == []
    api.close()


def test_a_tap_refused_when_it_arrives_late_says_why_until_the_next_tap(
    server: str,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    """An outbreak tapped offline for a carrier with neither a certificate nor a disease
    is refused when the phone is back: the badge says so with the reason, and still
    does after the outbox's next look (it is not wiped by "nothing waits")."""
    phone = Phone(browser, server)
    page = phone.page
    phone.login("master", "master-demo")
    page.goto(f"/c/{CAMPAIGN}/outbreak")
    page.select_option("select[name=carrier]", "1001")
    page.select_option("select[name=place]", "outdoor")
    page.context.set_offline(True)
    page.click("[data-submit]")
    expect(page.locator("#outbox")).to_contain_text("1 waiting to send")
    page.context.set_offline(False)
    badge = page.locator("#outbox")
    expect(badge).to_contain_text("refused: Start the outbreak — ", timeout=20_000)
    said = badge.inner_text()
    assert len(said) > len("refused: Start the outbreak — ") + 10, said  # the reason
    page.evaluate("window.dispatchEvent(new Event('focus'))")  # the outbox looks again
    page.wait_for_timeout(500)
    expect(badge).to_have_text(said)
    phone.shot("offline-refused-late")
    assert phone.errors == [] and phone.outside == []
