"""A LARP master on a phone runs an outbreak by picking the people around from a list
(with their distances), sees who got a sticker, and downloads a sticker sheet to print —
Debian's Chromium at 390x844 against the real server. Screenshots go to ``artifacts/``."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

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


def test_a_master_starts_an_epidemic_and_runs_a_wave_from_the_epidemics_screen(
    server: str,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    """W-EPI-01/06/07: a carrier hands an epidemic certificate (30 stickers, W-LAB-16) to
    the regional master; the screen shows the epidemic by its disease and place, its
    next wave counting down and the stickers left; a wave hands stickers to the people
    met and the counts follow."""
    api = httpx.Client(base_url=server, timeout=10)
    token = api.post("/api/login", json={"username": "master", "password": "master-demo"})
    api.headers["Authorization"] = f"Bearer {token.json()['token']}"
    c = f"/api/campaigns/{CAMPAIGN}"
    body = {"id": "1101", "name": "Мира", "hits": 3, "skills": ["Carrier"]}
    api.post(f"{c}/characters", json=body).raise_for_status()
    place = {"id": "mill", "name": "Старая мельница"}
    api.post(f"{c}/actions/register-location", json=place).raise_for_status()
    issued = api.post(
        f"{c}/actions/issue-certificate",
        json={"kind": "epidemic", "disease": "GF-1", "holder": "1101"},
    )
    cert = issued.raise_for_status().json()["events"][0]["payload"]["id"]
    api.post(
        f"{c}/actions/attach-stickers", json={"certificate": cert, "count": 30, "source": "master"}
    ).raise_for_status()

    phone = Phone(browser, server)
    page = phone.page
    phone.login("master", "master-demo")
    page.goto(f"/c/{CAMPAIGN}")
    page.click("nav.tabs >> text=Epidemics")
    expect(page.locator("[data-epidemic]")).to_have_count(0)
    expect(page.locator("main")).to_contain_text("No epidemics")
    page.click("text=Start an epidemic")
    expect(page.locator("label:has(select[name=location]) span")).to_have_text("Location *")
    page.select_option("select[name=carrier]", "1101")
    page.select_option("select[name=certificate]", cert)
    page.select_option("select[name=location]", "mill")
    page.select_option("select[name=regional_master]", "1004")
    page.fill("input[name=interval_minutes]", "30")
    page.fill("input[name=wave_stickers]", "3")
    assert phone.fits()
    phone.shot("master-4-start-epidemic")
    page.click("[data-submit]")
    expect(page).to_have_url(f"{server}/c/{CAMPAIGN}/epidemics")  # back where it began
    expect(page.locator(".ok").first).to_contain_text("handed to the regional master")
    epidemic = page.locator("[data-epidemic]")
    expect(epidemic).to_have_count(1)
    expect(epidemic).to_contain_text("Grey fever")  # by name, not by code
    expect(epidemic).to_contain_text("Старая мельница")
    expect(epidemic.locator("dt:text-is('Next wave') + dd .cd")).to_have_count(1)
    expect(epidemic.locator("[data-left]")).to_have_text("30")
    expect(epidemic.locator("[data-infected]")).to_have_text("0")
    phone.shot("master-5-epidemic")

    epidemic.locator("text=Run the wave").click()
    expect(page.locator("h1")).to_have_text("Run the wave № 1")
    expect(page.locator("[data-wave-of]")).to_contain_text("Grey fever · Старая мельница")
    expect(page.locator("[data-wave-of]")).to_contain_text("Stickers per wave: 3")
    expect(page.locator("textarea")).to_have_count(0)  # nobody types an id
    rows = page.locator("tr[data-person]")
    expect(rows.filter(has_text="Dmitri")).to_contain_text("№ 1003")  # by name and number
    for who in ("1003", "1002"):  # the two met in the mill, Dmitri first, then Boris
        page.locator(f"tr[data-person='{who}'] input[name=met]").check()
    expect(page.locator("tr[data-person='1003'] [data-order]")).to_have_text("1")
    expect(page.locator("tr[data-person='1002'] [data-order]")).to_have_text("2")
    assert phone.fits()
    phone.shot("master-6-wave-form")
    page.click("[data-submit]")
    expect(page).to_have_url(f"{server}/c/{CAMPAIGN}/epidemics")
    outcome = page.locator(".ok")
    expect(outcome.filter(has_text="Dmitri infected: GF-1")).to_have_count(1)
    expect(outcome.filter(has_text="wave 1: 1 infected")).to_have_count(1)
    expect(outcome.filter(has_text="→ Boris")).to_have_count(1)  # held: he is already ill
    expect(epidemic.locator("[data-infected]")).to_have_text("1")
    expect(epidemic.locator("[data-left]")).to_have_text("28")  # two stickers handed out
    waves = epidemic.locator("dt:text-is('Waves') + dd")
    expect(waves).to_contain_text("№ 1")
    expect(waves).to_contain_text("infected 1")
    # W-EPI-02: the next wave is the 30-minute interval ahead at once, not the deadline
    # that has just passed ("0:00")
    countdown = epidemic.locator("dt:text-is('Next wave') + dd .cd")
    expect(countdown).to_have_text(re.compile(r"^(29|30):\d\d$"))
    now = datetime.fromisoformat(str(page.locator("main").get_attribute("data-now")))
    due = datetime.fromisoformat(str(countdown.get_attribute("data-deadline")))
    assert timedelta(minutes=29) < due - now <= timedelta(minutes=30)
    expect(epidemic.locator("dt:text-is('Next wave') + dd small")).to_have_text(
        f"at {due:%H:%M:%S}"
    )
    assert phone.fits()
    phone.shot("master-7-after-the-wave")
    page.goto(f"/c/{CAMPAIGN}/epidemics?lang=ru")
    expect(epidemic.locator("dt:text-is('Осталось наклеек') + dd")).to_have_text("28")
    page.click("nav.langs >> text=RU")  # the language stays for the pages after
    epidemic.locator("text=Провести волну").click()
    expect(page.locator("h1")).to_have_text("Провести волну № 2")
    expect(page.locator("[data-wave-of]")).to_contain_text(  # W-EPI-02: not yet
        re.compile(rf"Следующая волна: (29|30):\d\d в {due:%H:%M:%S}")
    )
    expect(page.locator("table.people th")).to_have_text(["Встречен", "Кто", "Полная защита"])
    assert phone.fits()
    phone.shot("master-8-wave-form-ru")
    assert phone.errors == [] and phone.outside == []
