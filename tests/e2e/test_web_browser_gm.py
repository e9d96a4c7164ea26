"""A tabletop GM on a phone, from nothing: registers, creates a dnd5e campaign, imports
four characters from CSV and runs a fight from the GM screen (damage, the injury it
triggers, the dice roller's odds) — Debian's Chromium at 390x844 against the real
server. Each step checks what the GM sees. Screenshots go to ``artifacts/``."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, expect
from tests.e2e.browsertools import Phone, browser, server  # noqa: F401  (fixtures)

PARTY = """id,name,hits,race,age,skills
t1,Thorin,12,dwarf,150,smithing;axes
t2,Lia,9,elf,90,
t3,Bram,8,human,30,medicine
t4,Wren,9,halfling,25,
"""


def test_a_tabletop_gm_starts_from_the_web_and_runs_a_fight(
    server: str,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    phone = Phone(browser, server)
    page = phone.page
    page.goto("/register")
    page.fill("input[name=username]", "gm-anna")
    page.fill("input[name=password]", "a-long-password")
    page.click("button.primary")
    expect(page.locator("h1")).to_have_text("Campaigns")

    page.click("[data-new-campaign]")
    page.select_option("select[name=ruleset]", "dnd5e-injuries")
    page.click("form[action='/new'] button")
    expect(page.locator("input[name=name]")).to_be_visible()
    page.fill("input[name=name]", "friday-table")
    page.fill("input[name=start]", "2026-06-13T18:00")
    phone.shot("gm-1-new-campaign")
    page.click("[data-submit]")
    expect(page).to_have_url(f"{server}/c/friday-table/roster")

    page.fill("textarea[name=text]", PARTY)
    page.click("[data-preview]")
    expect(page.locator("table.preview tbody tr")).to_have_count(4)
    assert phone.fits()
    phone.shot("gm-2-import-preview")
    page.click("[data-import]")
    expect(page.locator(".ok")).to_have_text("Characters imported: 4")

    page.click("nav.tabs >> text=GM screen")
    expect(page.locator(".member")).to_have_count(4)
    expect(page.locator("[data-day]")).to_contain_text("Saturday 13.06.2026 18:00")
    thorin = page.locator(".member[data-character=t1]")
    expect(thorin.locator("dd").first).to_have_text("12/12")
    assert phone.fits()
    phone.shot("gm-3-party")

    thorin.locator("[data-action=set-dnd-stats]").click()  # his sheet: CON, level...
    page.fill("input[name=con]", "14")
    page.fill("input[name=proficiency]", "2")
    page.fill("input[name=level]", "3")
    page.click("[data-submit]")
    expect(page).to_have_url(f"{server}/c/friday-table/ch/t1")
    page.goto("/c/friday-table/gm")
    thorin.locator("[data-action=take-damage]").click()  # one tap from the character
    expect(page.locator("[name=character]")).to_have_value("t1")
    page.fill("input[name=damage]", "12")
    page.select_option("select[name=damage_type]", "slashing")
    page.click("[data-submit]")
    expect(page.locator(".ok").first).to_contain_text("12")
    page.goto("/c/friday-table/gm")
    expect(thorin.locator("dd").first).to_have_text("0/12")

    expect(thorin).to_contain_text("injury to be rolled")
    thorin.locator("[data-action=roll-injury]").click()
    page.click("[data-submit]")
    expect(page).to_have_url(f"{server}/c/friday-table/ch/t1")  # recorded, not refused
    page.goto("/c/friday-table/gm")
    injuries = thorin.locator("dt:has-text('Injuries') + dd")
    expect(injuries).not_to_have_text("—")
    expect(injuries).not_to_contain_text("injury to be rolled")
    phone.shot("gm-4-after-the-fight")

    page.fill("input[name=dice]", "1d20+5 >= 15")
    page.click("[data-roll]")
    expect(page.locator("[data-odds]")).to_contain_text("11/20 = 55.00%")
    expect(page.locator(".bars li")).to_have_count(20)
    assert phone.fits()
    phone.shot("gm-5-dice")
    assert phone.errors == [] and phone.outside == []


def test_every_main_page_is_under_20_kb_as_sent(server: str) -> None:  # noqa: F811
    """Page weight on a crowded Wi-Fi: what travels (gzip), per page, under 20 KB."""
    client = httpx.Client(base_url=server, headers={"Accept": "text/html"}, timeout=10)
    token = client.post("/api/login", json={"username": "master", "password": "master-demo"})
    client.headers["Authorization"] = f"Bearer {token.json()['token']}"
    pages = [
        "/",
        "/c/demo-larp",
        "/c/demo-larp/ch/1001",
        "/c/demo-larp/actions",
        "/c/demo-larp/act/apply-bandage?character=1001",
        "/c/demo-larp/act/start-outbreak",
        "/c/demo-larp/print",
        "/c/demo-larp/roster",
        "/c/demo-larp/journal",
        "/new?ruleset=warhammer-larp",
    ]
    sizes = {}
    for url in pages:
        with client.stream("GET", url, headers={"Accept-Encoding": "gzip"}) as r:
            assert r.status_code == 200, url
            r.read()
            sizes[url] = r.num_bytes_downloaded
    print(sizes)
    assert max(sizes.values()) < 20_000, sizes
