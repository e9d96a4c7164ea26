"""The GM screen of the tabletop rulesets and the grouped action list, through the real
app: the party with each ruleset's columns, the common actions one tap from each
character, the dice roller's exact odds, the game day with its date."""

from __future__ import annotations

from datetime import datetime

import pytest
from tests.e2e.webtools import C, Login

from lazaretto.core.character import Character
from lazaretto.core.clock import ClockMode
from lazaretto.core.registry import get_ruleset
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.menus import COMMON
from lazaretto.store.db import Database
from lazaretto.web.gm import list_field


def _table(db: Database, ruleset: str) -> str:
    campaigns, accounts = CampaignService(db), AccountService(db)
    name = f"gm-{ruleset}"
    campaigns.create_campaign(
        name, ruleset, clock=ClockMode.MANUAL, start=datetime(2026, 6, 13, 18, 0), seed=1
    )
    campaigns.add_character(name, Character(id="v", name="Vera", hits_max=12, hits=12))
    accounts.add_member(accounts.login("master", "master-demo").user, name, Role.MASTER)
    return name


@pytest.mark.parametrize("ruleset", sorted(COMMON))
def test_the_gm_screen_shows_the_party_its_actions_and_the_day(
    db: Database, login: Login, ruleset: str
) -> None:
    name = _table(db, ruleset)
    page = login("master").get(f"/c/{name}/gm")
    assert page.status_code == 200
    assert "Vera" in page.text and "Saturday 13.06.2026 18:00" in page.text
    rs = get_ruleset(ruleset)
    for action in COMMON[ruleset]:  # a list of characters names this one: not everyone
        who = "characters" if list_field(rs, action) else "character"
        assert f'href="/c/{name}/act/{action}?{who}=v&amp;back=gm"' in page.text
    ru = login("master").get(f"/c/{name}/gm?lang=ru").text
    assert "суббота 13.06.2026" in ru and "Экран ведущего" in ru


def test_the_dnd_party_shows_hp_and_an_injurys_effect_in_words(db: Database, login: Login) -> None:
    name = _table(db, "dnd5e-injuries")
    campaigns = CampaignService(db)
    campaigns.act(
        name,
        "set-dnd-stats",
        {"character": "v", "con": 14, "level": 4, "proficiency": 2, "hp_max": 30},
    )
    page = login("master").get(f"/c/{name}/gm").text
    assert "<dd>30/30</dd>" in page and ">Damage</a>" in page


def test_the_dice_roller_shows_a_roll_and_its_exact_odds(db: Database, login: Login) -> None:
    name = _table(db, "fantasy-server")
    page = login("master").get(f"/c/{name}/gm", params={"dice": "1d20+5 >= 15"}).text
    assert "chance of success" in page and "11/20 = 55.00%" in page
    assert "mean 15.50" in page and page.count("<li><span>") == 20  # one bar per total
    bad = login("master").get(f"/c/{name}/gm", params={"dice": "1d20+"})
    assert bad.status_code == 422 and 'class="error"' in bad.text


def test_a_larp_campaign_has_no_gm_screen(login: Login) -> None:
    assert login("master").get(f"{C}/gm").status_code == 404


def test_the_masters_actions_come_in_groups_with_a_search(login: Login) -> None:
    client = login("master")
    page = client.get(f"{C}/actions").text
    for group in ("Wounds", "Hospital and journal", "Laboratories and stickers", "Outbreaks"):
        assert group in page
    found = client.get(f"{C}/actions", params={"q": "sticker"}).text
    assert "make-stickers" in found and "lose-hits" not in found
    assert "Действия" in client.get(f"{C}/actions?lang=ru").text
