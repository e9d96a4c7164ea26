"""A LARP master on a phone runs an outbreak by picking the people around from a list
(with their distances), sees who got a sticker, and downloads a sticker sheet to print —
Debian's Chromium at 390x844 against the real server. Screenshots go to ``artifacts/``."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, expect
from tests.e2e.browsertools import Phone, browser, server  # noqa: F401  (fixtures)

from lazaretto.service.demo import CAMPAIGN

RECIPE = ["salt", "ash", "bone", "moss", "wax"]


def _prepare(base: str) -> None:
    """Through the API: a carrier with an outbreak certificate, and a lab batch."""
    api = httpx.Client(base_url=base, timeout=10)
    token = api.post("/api/login", json={"username": "master", "password": "master-demo"})
    api.headers["Authorization"] = f"Bearer {token.json()['token']}"
    c = f"/api/campaigns/{CAMPAIGN}"
    body = {"id": "1100", "name": "Влад", "hits": 3, "skills": ["Carrier"]}
    api.post(f"{c}/characters", json=body).raise_for_status()
    for action, data in (
        ("issue-certificate", {"kind": "outbreak", "disease": "GF-1", "holder": "1100"}),
        ("attach-stickers", {"certificate": "out-1", "count": 3, "source": "master"}),
        ("define-disease", {"code": "BX-1", "name": "Чёрная хворь", "recipe": RECIPE}),
        ("register-lab", {"id": "L1", "name": "Лаборатория", "equipped": True}),
        ("make-stickers", {"lab": "L1", "disease": "BX-1", "components": RECIPE}),
    ):
        api.post(f"{c}/actions/{action}", json=data).raise_for_status()


def test_a_master_runs_an_outbreak_and_prints_a_sticker_sheet(
    server: str,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    _prepare(server)
    phone = Phone(browser, server)
    page = phone.page
    phone.login("master", "master-demo")
    page.goto(f"/c/{CAMPAIGN}")
    page.click("nav.tabs >> text=Outbreak")
    page.select_option("select[name=carrier]", "1100")
    page.select_option("select[name=place]", "building")
    page.select_option("select[name=certificate]", "out-1")
    page.fill("input[name=distance_from_entrance_m]", "3")
    for who, metres in (("1002", "2"), ("1006", "30")):
        row = page.locator(f"tr[data-person='{who}']")
        row.locator("input[name=here]").check()
        row.locator("input[type=number]").fill(metres)
    assert phone.fits()
    phone.shot("master-1-outbreak-form")
    page.click("[data-submit]")
    outcome = page.locator("[data-outcome]")
    expect(outcome).to_contain_text("Karl infected: GF-1")
    expect(outcome).to_contain_text("outbreak ob-1")
    phone.shot("master-2-outbreak-outcome")

    page.click("nav.tabs >> text=Print")
    batch = page.locator("[data-batch]").first
    expect(batch).to_contain_text("L1-B1")
    with page.expect_download() as got:
        batch.click()
    path = got.value.path()
    assert got.value.suggested_filename == f"stickers-{CAMPAIGN}-L1-B1.pdf"
    assert path is not None and path.read_bytes().startswith(b"%PDF")
    assert phone.fits()
    phone.shot("master-3-print")
    assert phone.errors == [] and phone.outside == []
