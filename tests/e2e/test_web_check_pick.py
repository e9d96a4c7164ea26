"""An ide4 check is picked on a form by whose and which skill it was (A-I-01): the
reroll, energy and Tragedy forms and resolve-check offer the latest checks as "Olga:
Attention [0] · 06:00" — the id only travels as the value, since the log and the GM
screen no longer show it."""

from __future__ import annotations

import re
from datetime import datetime

from tests.e2e.webtools import Login

from lazaretto.core.character import Character
from lazaretto.core.clock import ClockMode
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.store.db import Database

TREK = "trek"


def _trek(db: Database) -> None:
    campaigns, accounts = CampaignService(db), AccountService(db)
    campaigns.create_campaign(
        TREK, "ide4-survival", clock=ClockMode.MANUAL, start=datetime(2026, 6, 13, 6), seed=3
    )
    for cid, name in (("olga", "Olga"), ("ivan", "Ivan")):
        campaigns.add_character(TREK, Character(id=cid, name=name, hits_max=10, hits=10))
    campaigns.act(TREK, "d100-check", {"character": "olga", "skill": "Attention", "roll": 40})
    campaigns.act(TREK, "d100-check", {"character": "ivan", "skill": "Endurance", "difficulty": 2})
    accounts.add_member(accounts.login("master", "master-demo").user, TREK, Role.MASTER)


def _options(html: str, name: str) -> list[tuple[str, str, bool]]:
    select = re.search(rf'<select name="{name}".*?</select>', html, re.S)
    assert select, html
    return [
        (value, label, bool(chosen))
        for value, chosen, label in re.findall(
            r'<option value="([^"]*)"( selected)?>([^<]*)</option>', select[0]
        )
        if value
    ]


def test_a_reroll_picks_the_check_by_whose_and_which_skill_in_both_languages(
    db: Database, login: Login
) -> None:
    _trek(db)
    master = login("master")
    en = master.get(f"/c/{TREK}/act/use-reroll", params={"lang": "en"})
    assert en.status_code == 200
    assert _options(en.text, "check") == [  # the newest first; a pending one marked
        ("k2", "Ivan: Endurance [2] · 06:00 …", False),
        ("k1", "Olga: Attention [0] · 06:00", False),
    ]
    ru = master.get(f"/c/{TREK}/act/use-reroll", params={"lang": "ru"})
    labels = [label for _, label, _ in _options(ru.text, "check")]
    assert labels == ["Ivan: Выносливость [2] · 06:00 …", "Olga: Внимательность [0] · 06:00"]


def test_the_pending_checks_resolve_form_has_it_chosen(db: Database, login: Login) -> None:
    _trek(db)
    master = login("master")
    form = master.get(f"/c/{TREK}/act/resolve-check", params={"check": "k2", "lang": "en"})
    assert ("k2", "Ivan: Endurance [2] · 06:00 …", True) in _options(form.text, "check")
