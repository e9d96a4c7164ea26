"""Phones without Wi-Fi, in a real browser: the service worker (static/sw.js) keeps the
last copy of every page a healer opened, shows it offline marked with the time it was
fetched, and forgets them all at logout; taps made on those copies wait in the outbox
and arrive once, at their tap times, with the outcome an online healer gets. Debian's
Chromium at 390x844 against the real server on http://127.0.0.1 (a secure origin, so
the worker runs). Screenshots go to ``artifacts/``."""

from __future__ import annotations

import gzip
import re
import time
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from tests.e2e.browsertools import Phone, browser, server  # noqa: F401  (fixtures)

from lazaretto import __version__
from lazaretto.service.demo import CAMPAIGN
from lazaretto.service.play import OUTBOX_MAX
from lazaretto.web.views_offline import worker_version

CARD = f"/c/{CAMPAIGN}/ch/1006"  # Karl, unhurt in the demo
BOARD = f"/c/{CAMPAIGN}/hospital/h1"
CAMP = f"/c/{CAMPAIGN}"
COPY = re.compile(r"offline — copy from (\d\d:\d\d:\d\d)")


def _api(base: str, user: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=10)
    r = client.post("/api/login", json={"username": user, "password": f"{user}-demo"})
    r.raise_for_status()
    client.headers["Authorization"] = f"Bearer {r.json()['token']}"
    return client


def _healer(browser: Browser, base: str) -> Phone:  # noqa: F811
    """A healer logged in on a phone whose pages the service worker now controls."""
    phone = Phone(browser, base)
    phone.login("healer", "healer-demo")
    expect(phone.page.locator("h1")).to_have_text("Campaigns")
    phone.page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=15_000)
    return phone


def _clock(page: Page) -> datetime:
    """The phone's own clock, the one the copy's mark is written in."""
    ms = page.evaluate("Date.now() - new Date().getTimezoneOffset() * 60000")
    return datetime(1970, 1, 1) + timedelta(milliseconds=ms)


def _marked_at(page: Page) -> datetime:
    found = COPY.search(page.locator("#net").inner_text())
    assert found, page.locator("#net").inner_text()
    return datetime.combine(_clock(page).date(), datetime.strptime(found[1], "%H:%M:%S").time())


def _now(api: httpx.Client) -> datetime:
    return datetime.fromisoformat(api.get(f"/api/campaigns/{CAMPAIGN}/timers").json()["now"])


def test_pages_opened_before_open_offline_from_their_copy_marked_with_its_time(
    server: str,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    """The card, the hospital board and the campaign, opened online, open again without
    the network: each from its last copy, saying so with the time it was fetched, its
    countdowns marked as possibly out of date; a page never opened says there is no
    copy. Back online, the card is live again and the mark goes."""
    phone = _healer(browser, server)
    page = phone.page
    opened = _clock(page) - timedelta(seconds=1)  # the mark has whole seconds
    for url, seen in ((CARD, "Karl"), (BOARD, "Dmitri"), (CAMP, "Boris")):
        page.goto(url)
        expect(page.locator("main")).to_contain_text(seen)
        expect(page.locator("#net")).to_be_hidden()
    page.context.set_offline(True)
    offline = _clock(page)
    for url, seen in ((BOARD, "Dmitri"), (CAMP, "Boris"), (CARD, "Karl")):
        page.goto(url)
        expect(page.locator("main")).to_contain_text(seen)
        banner = page.locator("#net")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("countdowns may be out of date")
        assert opened <= _marked_at(page) <= offline, (url, banner.inner_text())
        assert page.evaluate("document.body.classList.contains('stale')")
        if url == BOARD:
            phone.shot("offline-1-board-copy")
    page.reload()  # a reload is a reopen too
    expect(page.locator("h1")).to_contain_text("Karl")
    expect(page.locator("#net")).to_contain_text("offline — copy from")
    assert phone.fits()
    phone.shot("offline-2-card-copy")
    page.goto(f"/c/{CAMPAIGN}/ch/1004")  # Anna's card was never opened on this phone
    expect(page.locator("main")).to_contain_text("there is no copy of it")
    expect(page.locator("main")).not_to_contain_text("Anna")
    page.goto(CARD)
    page.context.set_offline(False)
    expect(page.locator("#net")).to_be_hidden(timeout=15_000)  # live again, by itself
    assert page.evaluate("document.body.dataset.copy === undefined")
    assert phone.errors == [] and phone.outside == []


def _records(api: httpx.Client, who: str) -> list[dict[str, Any]]:
    """The accepted records about one character, in campaign-time order."""
    rows = api.get(f"/api/campaigns/{CAMPAIGN}/records").json()
    mine = [
        r
        for r in rows
        if r["action"] in ("lose-hits", "apply-bandage")
        and who in (r["input"].get("character"), r["input"].get("patient"))
    ]
    return sorted(mine, key=lambda r: r["at"])


def _outcome(api: httpx.Client, who: str, taps: list[datetime]) -> dict[str, Any]:
    """What the records made of a character: conditions, hits, countdowns left, and
    the light wound's deadline counted from the first tap."""
    card = api.get(f"/api/campaigns/{CAMPAIGN}/characters/{who}").json()
    timers = api.get(f"/api/campaigns/{CAMPAIGN}/timers").json()
    events = api.get(f"/api/campaigns/{CAMPAIGN}/events", params={"about": who}).json()
    started = [e for e in events if e["kind"] == "wound.light_started"]
    return {
        "hits": card["hits"],
        "state": card.get("state"),
        "conditions": sorted((c["kind"], bool(c.get("bandaged"))) for c in card["conditions"]),
        "timers": [t for t in timers.get("timers", []) if t.get("subject") == who],
        "deadline_after_hit": [
            datetime.fromisoformat(e["payload"]["deadline"]) - taps[0] for e in started
        ],
    }


def test_taps_on_offline_copies_arrive_once_at_their_tap_times_with_the_online_outcome(
    server: str,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    """No Wi-Fi: the healer reopens Karl's card from its copy, taps −1 hit, opens the
    bandage form from its copy and records the bandage; closes the page, reopens it,
    goes online: each record arrives once, at the campaign time of its tap (not of its
    arrival), and Karl ends as Otto, whom a healer online hit and bandaged: a bandaged
    light wound, 2 of 3 hits, no countdown left."""
    master, online = _api(server, "master"), _api(server, "healer")
    master.post(
        f"/api/campaigns/{CAMPAIGN}/characters",
        json={"id": "1101", "name": "Otto", "hits": 3, "race": "human", "age": 40},
    ).raise_for_status()
    master.post(
        f"/api/campaigns/{CAMPAIGN}/actions/register-mat",
        json={"id": "mat-sigrun", "healer": "1005", "length_cm": 180, "width_cm": 60},
    ).raise_for_status()
    online.post(  # the healer online: hit, then bandage, a few seconds apart
        f"/api/campaigns/{CAMPAIGN}/actions/lose-hits", json={"character": "1101", "hits": 1}
    ).raise_for_status()
    time.sleep(2)
    online.post(
        f"/api/campaigns/{CAMPAIGN}/actions/apply-bandage",
        json={"healer": "1005", "patient": "1101", "bandages": 1, "mat": "mat-sigrun"},
    ).raise_for_status()
    otto = [datetime.fromisoformat(r["at"]) for r in _records(master, "1101")]
    online_outcome = _outcome(master, "1101", otto)

    phone = _healer(browser, server)
    page = phone.page
    form = f"/c/{CAMPAIGN}/act/apply-bandage?character=1006"
    for url in (CARD, BOARD, form):  # opened online earlier in the day
        page.goto(url)
        expect(page.locator("main")).to_be_visible()
    before = len(_records(master, "1006"))
    page.context.set_offline(True)

    page.goto(CARD)
    expect(page.locator("#net")).to_contain_text("offline — copy from")
    hit_from = _now(master)
    page.locator("button[data-action=lose-hits]").click()
    expect(page.locator("#outbox")).to_contain_text("1 waiting to send")
    hit_to = _now(master)
    time.sleep(2)
    page.goto(form)
    expect(page.locator("#net")).to_contain_text("offline — copy from")
    expect(page.locator("[name=patient]")).to_have_value("1006")
    page.fill("[name=bandages]", "1")  # the copy is from before the hit: no count prefilled
    bandage_from = _now(master)
    page.click("[data-submit]")
    expect(page.locator("#outbox")).to_contain_text("2 waiting to send")
    bandage_to = _now(master)
    phone.shot("offline-3-two-taps-waiting")
    page.close()
    time.sleep(3)  # the campaign clock runs on while the phone is offline

    again = phone.page = page.context.new_page()
    again.on("pageerror", lambda e: phone.errors.append(str(e)))
    again.goto(CARD)
    expect(again.locator("#outbox")).to_contain_text("2 waiting to send")
    assert len(_records(master, "1006")) == before, "nothing arrives without the network"
    posted: list[str] = []
    again.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    again.context.set_offline(False)
    expect(again.locator("#outbox")).to_contain_text("sent", timeout=20_000)
    # both waiting taps in one request (issue 25; sent again if the network was not
    # quite back), none on its own
    assert {u.split(server, 1)[1] for u in posted} == {f"/c/{CAMPAIGN}/outbox"}, posted
    expect(again.locator(".cond .tag")).to_have_text("bandaged", timeout=20_000)
    phone.shot("offline-4-sent-and-bandaged")
    arrived = _now(master)

    records = _records(master, "1006")[before:]
    assert [r["action"] for r in records] == ["lose-hits", "apply-bandage"], records
    assert all(r["status"] == "ok" for r in records), records
    hit_at, bandage_at = (datetime.fromisoformat(r["at"]) for r in records)
    # the tap time has whole seconds, and the copy's clock was read when its answer
    # came, a little after the server read the campaign clock for it
    slack = timedelta(seconds=2)
    assert hit_from - slack <= hit_at <= hit_to, (hit_from, hit_at, hit_to)
    assert bandage_from - slack <= bandage_at <= bandage_to, (bandage_from, bandage_at)
    assert bandage_at < arrived - timedelta(seconds=3)  # placed at the tap, not the arrival
    again.goto(CARD)  # a reload sends nothing again
    expect(again.locator("#outbox")).to_be_hidden()
    assert len(_records(master, "1006")) == before + 2, "each tap recorded once"

    offline_outcome = _outcome(master, "1006", [hit_at])
    assert offline_outcome == online_outcome, (offline_outcome, online_outcome)
    assert offline_outcome["conditions"] == [("light_wound", True)]
    assert offline_outcome["deadline_after_hit"] == [timedelta(minutes=30)]  # W-WND-08
    master.close()
    online.close()
    assert phone.errors == [] and phone.outside == []


def test_after_logout_the_phone_keeps_no_copy_of_the_previous_users_pages(
    server: str,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    """A healer reads Boris's card in Russian; offline its copy says so in Russian. A
    logout tapped offline is not sent, but the copies go at once; back online the
    healer logs out: offline, the same phone opens neither the card nor the campaign
    list — no copy of any of them is left for whoever picks up the phone next."""
    phone = _healer(browser, server)
    page = phone.page
    boris = f"/c/{CAMPAIGN}/ch/1002"
    page.goto(f"/lang/ru?next={boris}")
    expect(page.locator("h1")).to_contain_text("Boris")
    page.goto("/")
    page.context.set_offline(True)
    page.goto(boris)
    expect(page.locator("#net")).to_contain_text("нет связи — копия от")
    expect(page.locator("#net")).to_contain_text("отсчёты могут быть неточны")
    phone.shot("offline-5-copy-in-russian")
    page.locator("form[action='/logout'] button").click()  # no Wi-Fi: not sent, but...
    expect(page.locator("main")).to_contain_text("this form was not sent")
    page.goto(boris)  # ...the copies went with the tap
    expect(page.locator("main")).to_contain_text("there is no copy of it")
    page.context.set_offline(False)
    page.goto(boris)  # still logged in: the logout never reached the server
    expect(page.locator("#net")).to_be_hidden()
    expect(page.locator("h1")).to_contain_text("Boris")
    page.locator("form[action='/logout'] button").click()
    expect(page).to_have_url(re.compile(r"/login$"))
    page.context.set_offline(True)
    for url in (boris, "/", CAMP):
        page.goto(url)
        expect(page.locator("main")).to_contain_text("there is no copy of it")
        expect(page.locator("main")).to_contain_text("её копии нет")
        expect(page.locator("main")).not_to_contain_text("Boris")
        expect(page.locator("main")).not_to_contain_text(CAMPAIGN)
    phone.shot("offline-6-after-logout")
    page.context.set_offline(False)
    assert phone.errors == [] and phone.outside == []


def test_a_refused_tap_shows_its_answer_in_place_without_a_second_live_script(
    server: str,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    """A bandage for someone unhurt is refused: the form with the reason replaces the
    page's main part in place, and the page's timers are not started a second time
    (document.write would have run live.js and outbox.js again beside the old ones)."""
    phone = Phone(browser, server)
    page = phone.page
    page.add_init_script(
        "window.intervals = 0; var every = window.setInterval;"
        "window.setInterval = function () {"
        "  window.intervals++; return every.apply(window, arguments); };"
    )
    phone.login("healer", "healer-demo")
    page.goto(f"/c/{CAMPAIGN}/act/apply-bandage?character=1005")  # Sigrun is unhurt
    page.fill("[name=bandages]", "1")
    started = page.evaluate("window.intervals")
    assert started == 2  # live.js's ticker and outbox.js's retry
    page.evaluate("window.stillTheSamePage = true")
    page.click("[data-submit]")
    expect(page.locator("p.error")).to_contain_text("Sigrun")
    expect(page.locator("[name=bandages]")).to_have_value("1")  # what was typed stays
    assert page.evaluate("window.stillTheSamePage === true")
    assert page.evaluate("window.intervals") == started
    assert page.locator("main").count() == 1 and page.locator("header.top").count() == 1
    assert phone.errors == [] and phone.outside == []


def test_the_worker_is_served_from_the_root_never_cached_and_versioned(
    server: str,  # noqa: F811
) -> None:
    """/sw.js: JavaScript, asked for again on every check (no-cache), naming the static
    files the pages use; its version changes with the package or any static file."""
    r = httpx.get(f"{server}/sw.js")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "no-cache"
    api = _api(server, "healer")
    page = api.get(CARD, headers={"Accept": "text/html"}).text
    for name in ("app.css", "live.js", "outbox.js"):
        used = re.search(rf"/static/{re.escape(name)}\?v=\w+", page)
        assert used and f'"{used[0]}"' in r.text, name
    assert "нет связи — копия от {time}" in r.text
    assets = {"app.css": "a1", "live.js": "b2"}
    version = worker_version(__version__, assets)
    assert version == worker_version(__version__, dict(reversed(assets.items())))
    assert version != worker_version(__version__, {**assets, "live.js": "b3"})
    assert version != worker_version("9.9.9", assets)
    api.close()


def test_a_card_with_its_scripts_and_styles_is_under_20_kb_as_sent(
    server: str,  # noqa: F811
) -> None:
    """Page weight on a crowded Wi-Fi: the card's HTML, CSS and scripts, gzip as sent,
    under 20 KB (the worker is fetched once, not with each page)."""
    api = _api(server, "healer")
    page = api.get(CARD, headers={"Accept": "text/html"}).text
    total = len(gzip.compress(page.encode(), 6))
    for src in re.findall(r'(?:src|href)="(/static/[^"]+)"', page):
        total += len(gzip.compress(api.get(src).content, 6))
    api.close()
    assert total < 20_000, total


@pytest.mark.parametrize(("lang", "said"), [("en", "refused: −1 hit — No character"),
                                             ("ru", "отказ: −1 хит — Нет персонажа")])
def test_waiting_taps_go_in_one_request_and_a_refused_one_is_said_alone(
    server: str,  # noqa: F811
    browser: Browser,  # noqa: F811
    lang: str,
    said: str,
) -> None:
    """Three taps waiting in the outbox (the Wi-Fi is back): one request to the
    campaign's outbox carries them; the two hits of a fresh character are recorded, the
    one naming nobody is refused alone, and the badge says which and why in the page's
    language, also on the page reloaded to show the hits."""
    master = _api(server, "master")
    who = f"out-{lang}"
    master.post(f"/api/campaigns/{CAMPAIGN}/characters",
                json={"id": who, "name": f"Outbox {lang}", "hits": 3}).raise_for_status()
    phone = _healer(browser, server)
    page = phone.page
    page.goto(f"/lang/{lang}?next=/c/{CAMPAIGN}/ch/{who}")
    expect(page.locator("button[data-action=lose-hits]")).to_be_visible()
    page.evaluate("""(who) => {
      const form = document.querySelector("button[data-action=lose-hits]").form;
      const tap = (who, key) => {
        const data = new URLSearchParams(new FormData(form));
        data.set("character", who); data.set("idem", key);
        const what = form.querySelector("button").textContent.trim();
        return {url: form.action, body: data.toString(), what: what, at: ""};
      };
      localStorage.setItem("lazaretto-outbox", JSON.stringify(
        [tap(who, who + "-1"), tap("nobody", who + "-2"), tap(who, who + "-3")]));
    }""", who)
    posted: list[str] = []
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    page.reload()  # a page load sends what waits
    expect(page.locator("#outbox")).to_contain_text(said, timeout=20_000)
    expect(page.locator("text=1/3")).to_be_visible(timeout=20_000)  # reloaded: two hits
    expect(page.locator("#outbox")).to_contain_text(said)
    phone.shot(f"outbox-together-refused-{lang}")
    assert [u.split(server, 1)[1] for u in posted] == [f"/c/{CAMPAIGN}/outbox"], posted
    assert page.evaluate("localStorage.getItem('lazaretto-outbox')") == "[]"
    assert [r["action"] for r in _records(master, who)] == ["lose-hits"] * 2
    master.close()
    assert phone.errors == [] and phone.outside == []


def test_an_outbox_longer_than_one_request_goes_in_requests_of_the_servers_size(
    server: str,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    """A phone offline for a battle has more waiting than one request carries: the page
    sends them in order, OUTBOX_MAX in one request (the size the server writes into the
    page, not a number of the script's own), the one left over as its form would, and
    every one is recorded once."""
    master = _api(server, "master")
    who, many = "out-long", OUTBOX_MAX + 1
    master.post(f"/api/campaigns/{CAMPAIGN}/characters",
                json={"id": who, "name": "Outbox long", "hits": many + 2}).raise_for_status()
    phone = _healer(browser, server)
    page = phone.page
    page.goto(f"/c/{CAMPAIGN}/ch/{who}")
    expect(page.locator("button[data-action=lose-hits]")).to_be_visible()
    page.evaluate("""([who, many]) => {
      const form = document.querySelector("button[data-action=lose-hits]").form;
      const taps = [];
      for (let i = 0; i < many; i++) {
        const data = new URLSearchParams(new FormData(form));
        data.set("character", who); data.set("idem", who + "-" + i);
        taps.push({url: form.action, body: data.toString(), what: "hit", at: ""});
      }
      localStorage.setItem("lazaretto-outbox", JSON.stringify(taps));
    }""", [who, many])
    sent: list[tuple[str, int]] = []  # (where, how many taps)
    page.on("request", lambda r: sent.append(
        ("outbox", len(r.post_data_json["taps"])) if r.url.endswith("/outbox") else ("form", 1)
    ) if r.method == "POST" else None)
    page.reload()  # a page load sends what waits
    page.wait_for_function("localStorage.getItem('lazaretto-outbox') === '[]'", timeout=20_000)
    assert sent == [("outbox", OUTBOX_MAX), ("form", 1)], sent  # the last one alone, as a tap
    assert [r["action"] for r in _records(master, who)] == ["lose-hits"] * many
    master.close()
    assert phone.errors == [] and phone.outside == []


def test_two_taps_on_the_same_offline_copy_are_two_records(
    server: str,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    """No Wi-Fi, a character hit twice: the healer taps −1 hit twice on the same copy of
    the card. Each tap is its own change with its own key, so both are recorded when
    the Wi-Fi is back, and a resend of either records nothing again."""
    master = _api(server, "master")
    who = "twice"
    master.post(f"/api/campaigns/{CAMPAIGN}/characters",
                json={"id": who, "name": "Twice", "hits": 3}).raise_for_status()
    phone = _healer(browser, server)
    page = phone.page
    page.goto(f"/c/{CAMPAIGN}/ch/{who}")
    expect(page.locator("button[data-action=lose-hits]")).to_be_visible()
    page.context.set_offline(True)
    page.locator("button[data-action=lose-hits]").click()
    expect(page.locator("#outbox")).to_contain_text("1 waiting to send")
    page.locator("button[data-action=lose-hits]").click()
    expect(page.locator("#outbox")).to_contain_text("2 waiting to send")
    keys = page.evaluate(
        "JSON.parse(localStorage.getItem('lazaretto-outbox'))"
        ".map(t => new URLSearchParams(t.body).get('idem'))"
    )
    assert len(set(keys)) == 2, keys
    page.context.set_offline(False)
    expect(page.locator("#outbox")).to_contain_text("sent", timeout=20_000)
    expect(page.locator("text=1/3")).to_be_visible(timeout=20_000)
    records = _records(master, who)
    assert [(r["action"], r["status"]) for r in records] == [("lose-hits", "ok")] * 2, records
    master.close()
    assert phone.errors == [] and phone.outside == []
