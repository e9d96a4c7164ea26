"""Screenshot every main screen at 390x844 (a phone) in English and Russian.

    .venv/bin/python scripts/screens.py [OUT_DIR]     # default: screens/

Starts the real app on a temporary SQLite file with the demo LARP campaign, a small
dnd5e table and a showcase campaign of every other ruleset (service/showcase.py), logs
in as the demo master in Debian's Chromium (/usr/bin/chromium) and saves
``NN-name-LANG.png`` (full pages) for people to look at before a release: the main
screens (the demo has an epidemic going on, for the wave picker, and a disease course
in the journal, one of its entries struck out by an undo), then a card of each ruleset
in each telling state, then the demo player's own card (its disease penalties folded
into "may not").
"""

from __future__ import annotations

import socket
import sys
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import sync_playwright

from lazaretto.api.app import create_app
from lazaretto.core.character import Character
from lazaretto.core.clock import ClockMode
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN, seed
from lazaretto.service.showcase import TABLES, seed_tables
from lazaretto.store.db import Database

TABLE = "friday-table"
C = f"/c/{CAMPAIGN}"
SCREENS = (
    ("campaigns", "/"),
    ("characters", C),
    ("card", f"{C}/ch/1001"),
    ("bandage-form", f"{C}/act/apply-bandage?character=1001"),
    ("actions", f"{C}/actions"),
    ("timers", f"{C}/timers"),
    ("journal", f"{C}/journal"),
    ("hospital", f"{C}/hospital/h1"),
    ("outbreak", f"{C}/outbreak"),
    ("print", f"{C}/print"),
    ("epidemics", f"{C}/epidemics"),
    ("epidemic-wave", f"{C}/epidemics/wave"),
    ("new-campaign", "/new?ruleset=dnd5e-injuries"),
    ("roster", f"/c/{TABLE}/roster"),
    ("gm-screen", f"/c/{TABLE}/gm?dice=1d20%2B5+%3E%3D+15"),
    ("roll-injury-form", f"/c/{TABLE}/act/roll-injury?character=t1"),
    ("card-warhammer-bandaged-diseased", f"{C}/ch/1002"),
    ("card-warhammer-after-operation", f"{C}/ch/1003"),
    *(
        (f"card-{ruleset}-{cid}", f"/c/{name}/ch/{cid}")
        for ruleset, (name, people, _) in TABLES.items()
        for cid, _, _ in people
    ),
)
PLAYER_SCREENS = (
    ("player-campaign", C),
    ("player-own-card", f"{C}/ch/1002"),
)


def _epidemic_and_course(campaigns: CampaignService) -> None:
    """The demo LARP with an epidemic going on (the wave picker has one to run) and a
    disease course in the journal whose first record was undone and entered again (a
    struck entry beside its correction)."""

    def act(action: str, **kw: Any) -> None:
        campaigns.act(CAMPAIGN, action, kw)

    act("register-location", id="mill", name="Old mill")
    act("issue-certificate", kind="epidemic", disease="GF-1", holder="1006")
    act("attach-stickers", certificate="epi-1", count=30, source="master")
    act(
        "start-epidemic",
        carrier="1006",
        certificate="epi-1",
        location="mill",
        regional_master="1004",
        interval_minutes=30,
        wave_stickers=3,
    )
    campaigns.add_character(
        CAMPAIGN, Character(id="1007", name="Greta", hits_max=3, hits=3, race="human", age=33)
    )
    course = ["drip", "enema", "inhalation", "psychotherapy", "sedative", "operation"]
    act("define-disease", code="IF-1", name="Iron fever", symptoms="cough", course=course)
    act("add-to-book", healer="1005", code="IF-1", description="cough; six items")
    act("infect", character="1007", disease="IF-1")
    staff = {"hospital": "h1", "patient": "1007", "healer": "1005"}
    act("admit", **staff)
    act("record-anamnesis", **staff)
    act("diagnose", disease="IF-1", **staff)
    act("start-disease-course", bed="b3", diseases=["IF-1"], **staff)
    campaigns.void(CAMPAIGN, int(campaigns.records(CAMPAIGN)[-1]["record"]))
    act("start-disease-course", bed="b2", diseases=["IF-1"], **staff)


def _seed(db: Database) -> None:
    campaigns, accounts = CampaignService(db), AccountService(db)
    seed(campaigns, accounts)
    _epidemic_and_course(campaigns)
    campaigns.create_campaign(
        TABLE, "dnd5e-injuries", clock=ClockMode.MANUAL, start=datetime(2026, 6, 13, 18), seed=1
    )
    for cid, name, hp in (("t1", "Thorin", 12), ("t2", "Лия", 9), ("t3", "Bram", 8)):
        campaigns.add_character(TABLE, Character(id=cid, name=name, hits_max=hp, hits=hp))
        campaigns.act(
            TABLE, "set-dnd-stats", {"character": cid, "con": 14, "level": 3, "proficiency": 2}
        )
    campaigns.act(
        TABLE, "take-damage", {"character": "t1", "damage": 12, "damage_type": "slashing"}
    )
    campaigns.act(TABLE, "roll-injury", {"character": "t1"})
    master = accounts.login("master", "master-demo").user
    accounts.add_member(master, TABLE, Role.MASTER)
    seed_tables(campaigns, accounts, master)


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite:///{tmp}/screens.db")
        _seed(db)
        port = _port()
        server = uvicorn.Server(
            uvicorn.Config(create_app(db), host="127.0.0.1", port=port, log_level="warning")
        )
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        base = f"http://127.0.0.1:{port}"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            n = 0
            for user, screens in (("master", SCREENS), ("player", PLAYER_SCREENS)):
                context = browser.new_context(
                    viewport={"width": 390, "height": 844}, is_mobile=True, base_url=base
                )
                page = context.new_page()
                page.goto("/login")
                page.fill("input[name=username]", user)
                page.fill("input[name=password]", f"{user}-demo")
                page.click("button.primary")
                for lang in ("en", "ru"):
                    page.goto(f"/lang/{lang}?next=%2F")
                    for i, (name, url) in enumerate(screens, start=n + 1):
                        page.goto(url)
                        path = out / f"{i:02d}-{name}-{lang}.png"
                        page.screenshot(path=str(path), full_page=True)
                        wide = page.evaluate("document.documentElement.scrollWidth")
                        flag = "" if wide <= 390 else f"  WIDER THAN THE PHONE: {wide}px"
                        print(f"{path}{flag}")
                n += len(screens)
                context.close()
            browser.close()
        server.should_exit = True
        thread.join(timeout=10)
        db.close()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "screens"))
