"""A player sees what the game lets them see, on a phone (issue 16, item 6): Playwright
drives Debian's Chromium, 390x844, against the real server with the demo LARP.

At the LARP (warhammer-larp, ``player_sight: own``) the demo's player logs in and lands
on Boris's card: nobody else is named anywhere they can reach; another's passport number
typed into the search finds nobody; another's card opened by its address reads exactly
like a number nobody has; the support form (it names a patient) offers nobody else. At a
tabletop party (dnd5e-injuries, ``player_sight: party``) a player invited to one
character sees the party's list with their own card first and marked, and after logging
in lands on their card. Screenshots go to ``artifacts/``.
"""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Browser, expect
from tests.e2e.browsertools import Phone, browser, server  # noqa: F401  (fixtures)

from lazaretto.service.demo import CAMPAIGN

OTHERS = ("Rustam", "Dmitri", "Sigrun", "Karl")
"""Demo characters the player has never met on their own card's page."""


def master(base: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=10)
    r = client.post("/api/login", json={"username": "master", "password": "master-demo"})
    r.raise_for_status()
    client.headers["Authorization"] = f"Bearer {r.json()['token']}"
    return client


def main_text(phone: Phone) -> str:
    return phone.page.locator("main").inner_text()


def test_a_larp_player_sees_only_their_own_card(server: str, browser: Browser) -> None:  # noqa: F811
    phone = Phone(browser, server)
    phone.login("player", "player-demo")
    page = phone.page
    expect(page).to_have_url(f"{server}/c/{CAMPAIGN}/ch/1002")  # one character: their card
    expect(page.locator("h1")).to_contain_text("Boris")
    expect(page.locator(".meta")).to_contain_text("your character")
    assert not [n for n in OTHERS if n in page.content()]
    assert phone.fits()
    phone.shot("sight-1-player-lands-on-their-card")

    page.click("nav.tabs >> text=Characters")  # the list would hold Boris alone
    expect(page).to_have_url(f"{server}/c/{CAMPAIGN}/ch/1002")

    page.goto(f"/c/{CAMPAIGN}/find?q=1001")  # Rustam's passport number, typed in
    expect(page.locator("ul.list li")).to_have_count(1)
    expect(page.locator("ul.list li")).to_have_text("Nobody found")
    assert page.locator("a[href*='/ch/']").count() == 0
    phone.shot("sight-2-another-number-finds-nobody")

    page.goto(f"/c/{CAMPAIGN}/ch/1001")
    theirs = main_text(phone)
    page.goto(f"/c/{CAMPAIGN}/ch/9999")
    nobody = main_text(phone)
    assert "Rustam" not in theirs
    assert theirs.replace("1001", "N") == nobody.replace("9999", "N")
    assert "No character" in theirs
    phone.shot("sight-3-another-card-is-not-found")

    page.goto(f"/c/{CAMPAIGN}/act/support")
    form = page.locator("main form")
    expect(form).to_be_visible()
    assert not [n for n in OTHERS if n in main_text(phone)]
    patient = page.locator("[name=patient]")
    offered = page.locator("[name=patient] option, datalist option").all_text_contents()
    assert not [o for o in offered if any(n in o for n in OTHERS)], offered
    expect(patient).to_be_visible()
    assert phone.errors == [] and phone.outside == []


def test_a_tabletop_player_sees_the_party_with_their_own_card_first(
    server: str,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    gm = master(server)
    made = gm.post(
        "/api/campaigns",
        json={"name": "sight-party", "ruleset": "dnd5e-injuries", "clock": "manual"},
    )
    made.raise_for_status()
    party = made.json()["id"]
    for cid, name in (("p1", "Aster"), ("p2", "Bryn"), ("p3", "Cato")):
        gm.post(
            f"/api/campaigns/{party}/characters", json={"id": cid, "name": name, "hits": 12}
        ).raise_for_status()
    code = gm.post(
        f"/api/campaigns/{party}/invites", json={"role": "player", "character": "p3"}
    ).json()["code"]

    phone = Phone(browser, server)
    page = phone.page
    page.goto(f"/register?code={code}")
    page.fill("input[name=username]", "cato-player")
    page.fill("input[name=password]", "cato-player-pw")
    page.click("button.primary")
    expect(page).to_have_url(f"{server}/c/{party}")  # others to see: the party's list
    items = page.locator("main ul.list").first.locator("li")
    expect(items).to_have_count(3)
    expect(items.first).to_contain_text("Cato")
    expect(items.first).to_contain_text("your character")
    expect(page.locator("[data-mine]")).to_have_count(1)
    assert [re.sub(r"\s+", " ", t).split(" ")[0] for t in items.all_inner_texts()][1:] == [
        "Aster",
        "Bryn",
    ]
    assert phone.fits()
    phone.shot("sight-4-party-list-own-first")

    items.nth(1).click()  # the party's cards open
    expect(page.locator("h1")).to_contain_text("Aster")
    expect(page.locator("main")).not_to_contain_text("your character")

    page.click("header form button")  # log out, and back in: straight to their card
    phone.login("cato-player", "cato-player-pw")
    expect(page).to_have_url(f"{server}/c/{party}/ch/p3")
    expect(page.locator("h1")).to_contain_text("Cato")
    phone.shot("sight-5-party-player-lands-on-their-card")
    assert phone.errors == [] and phone.outside == []
