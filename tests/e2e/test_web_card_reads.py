"""Cards that read (issue 16, item 5), through the real app on a real SQLite file:
each countdown says what happens and when, the quick buttons are the ones that can
work in the character's state, details name people and places (never ``1005`` or
``h1``), and the journal reads in Russian."""

from __future__ import annotations

import html
import re
from datetime import datetime

from fastapi.testclient import TestClient
from tests.e2e.webtools import C, Login

from lazaretto.core.character import Character
from lazaretto.core.clock import ClockMode
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.showcase import seed_tables
from lazaretto.store.db import Database


def _text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def due_lines(page: str) -> list[str]:
    """The countdown lines of a card, as a reader sees them."""
    return [_text(m) for m in re.findall(r'<span class="due-line">(.*?)</span>', page, re.S)]


def quick(page: str) -> list[str]:
    """The actions of the card's quick buttons, in order."""
    block = re.search(r'<div class="quick">(.*?)</div>', page, re.S)
    return re.findall(r'data-action="([^"]+)"', block.group(1)) if block else []


def _campaign(db: Database, name: str, ruleset: str, people: dict[str, int]) -> None:
    """A manual-clock campaign at 12:00 of 13 June with the demo master in it."""
    campaigns, accounts = CampaignService(db), AccountService(db)
    start = datetime(2026, 6, 13, 12, 0)
    campaigns.create_campaign(name, ruleset, clock=ClockMode.MANUAL, start=start, seed=2)
    for cid, hits in people.items():
        campaigns.add_character(name, Character(id=cid, name=cid.title(), hits_max=hits, hits=hits))
    accounts.add_member(accounts.login("master", "master-demo").user, name, Role.MASTER)


def _card(client: TestClient, campaign: str, cid: str, lang: str) -> str:
    r = client.get(f"/c/{campaign}/ch/{cid}?lang={lang}")
    assert r.status_code == 200
    return r.text


def test_a_light_wound_says_it_turns_heavy_in_30_minutes_and_at_what_time(
    db: Database, login: Login
) -> None:
    """W-WND-07/08: unbandaged, a light wound turns heavy after 30 minutes."""
    _campaign(db, "cd-wh", "warhammer-larp", {"olaf": 3})
    CampaignService(db).act("cd-wh", "lose-hits", {"character": "olaf", "hits": 1})
    client = login("master")
    assert due_lines(_card(client, "cd-wh", "olaf", "en")) == ["turns heavy in 30:00 (at 12:30)"]
    assert due_lines(_card(client, "cd-wh", "olaf", "ru")) == [
        "станет тяжёлым через 30:00 (в 12:30)"
    ]
    listed = _text(client.get("/c/cd-wh?lang=en").text)  # the list says it too
    assert "light wound turns heavy in 30:00 (at 12:30)" in listed
    assert "Game time 13.06.2026 12:00:00" in listed  # a manual clock says its day


def test_a_heavy_wound_says_death_and_when(db: Database, login: Login) -> None:
    _campaign(db, "cd-heavy", "warhammer-larp", {"olaf": 3})
    campaigns = CampaignService(db)
    campaigns.act("cd-heavy", "lose-hits", {"character": "olaf", "hits": 3})
    _, state, _ = campaigns.load("cd-heavy")
    (death,) = state.timers_for("olaf", "heavy_wound_death")
    at = death.deadline.strftime("%H:%M")
    left = int((death.deadline - datetime(2026, 6, 13, 12)).total_seconds()) // 60
    client = login("master")
    assert due_lines(_card(client, "cd-heavy", "olaf", "en")) == [
        f"death from heavy wound in {left}:00 (at {at})"
    ]
    assert due_lines(_card(client, "cd-heavy", "olaf", "ru")) == [
        f"смерть от тяжёлого ранения через {left}:00 (в {at})"
    ]


def test_countdowns_of_other_rulesets_say_what_and_when_with_the_day_when_not_today(
    db: Database, login: Login
) -> None:
    campaigns, accounts = CampaignService(db), AccountService(db)
    seed_tables(campaigns, accounts, accounts.login("master", "master-demo").user)
    client = login("master")
    # zone-larp: a pyrotechnic hit puts Lena at 0 hits, dying in 15 minutes (Z-HW-02)
    assert due_lines(_card(client, "show-zone", "z2", "ru")) == [
        "смерть без медицины через 15:00 (в 18:15)"
    ]
    assert due_lines(_card(client, "show-zone", "z3", "en")) == ["comes round in 1:00 (at 18:01)"]
    # ide4: an incubation ends tomorrow: the day is said (a tabletop clock spans days)
    (line,) = due_lines(_card(client, "show-ide4", "i2", "ru"))
    assert line.endswith("через 24:00:00 (в 14.06 18:00)") and "Иммунитета" in line


def test_warhammer_quick_buttons_follow_the_wound(db: Database, login: Login) -> None:
    """A light wound: bandage, treat, admit, never operate; a heavy one: bandage and
    operate, never the light-wound rest; bandaged: no second bandage; on the table:
    finish the operation (W-WND-02, W-TRT, W-HOSP)."""
    _campaign(db, "q-wh", "warhammer-larp", {"light": 3, "heavy": 3, "fine": 3})
    campaigns = CampaignService(db)
    campaigns.act("q-wh", "lose-hits", {"character": "light", "hits": 1})
    campaigns.act("q-wh", "lose-hits", {"character": "heavy", "hits": 3})
    client = login("master")
    assert quick(_card(client, "q-wh", "fine", "en")) == ["lose-hits"]
    light = quick(_card(client, "q-wh", "light", "en"))
    assert light == ["lose-hits", "apply-bandage", "treat-light-wound", "admit"]
    heavy = quick(_card(client, "q-wh", "heavy", "en"))
    assert heavy == ["lose-hits", "apply-bandage", "start-operation", "admit"]
    # the demo's Boris is bandaged already; Dmitri was operated on and lies in a bed
    boris = quick(_card(client, "demo-larp", "1002", "en"))
    assert "apply-bandage" not in boris and "treat-light-wound" in boris
    dmitri = quick(_card(client, "demo-larp", "1003", "en"))
    assert "start-operation" not in dmitri and "admit" not in dmitri  # admitted, operated


def test_warhammer_a_patient_on_the_table_gets_finish_operation_only(
    db: Database, login: Login
) -> None:
    act = CampaignService(db).act
    act(C[3:], "lose-hits", {"character": "1006", "hits": 3})
    act(
        C[3:],
        "apply-bandage",
        {"healer": "1004", "patient": "1006", "bandages": 3, "mat": "mat-anna"},
    )
    act(C[3:], "admit", {"hospital": "h1", "patient": "1006", "healer": "1005"})
    act(
        C[3:],
        "start-operation",
        {"healer": "1005", "patient": "1006", "hospital": "h1", "table": "t2"},
    )
    karl = quick(_card(login("master"), C[3:], "1006", "en"))
    assert karl == ["lose-hits", "finish-operation"]


def test_zone_larp_quick_buttons_follow_the_wound(db: Database, login: Login) -> None:
    """Z-LW-10: a kit on a light wound, once; Z-HW: a heavy wound is operated on, not
    struck again (a strike at 0 hits changes nothing) nor treated by a kit."""
    _campaign(db, "q-zone", "zone-larp", {"light": 3, "heavy": 3})
    campaigns = CampaignService(db)
    campaigns.act("q-zone", "strike", {"character": "light"})
    campaigns.act("q-zone", "strike", {"character": "heavy", "weapon": "pyrotechnics"})
    client = login("master")
    assert quick(_card(client, "q-zone", "light", "en")) == ["strike", "apply-kit", "treat-wounds"]
    assert quick(_card(client, "q-zone", "heavy", "en")) == ["start-operation"]
    campaigns.act("q-zone", "apply-kit", {"character": "light"})
    assert "apply-kit" not in quick(_card(client, "q-zone", "light", "en"))


def test_a_one_tap_strike_records_one_hit_on_a_zone_larp_card(db: Database, login: Login) -> None:
    _campaign(db, "tap-zone", "zone-larp", {"vika": 3})
    client = login("master")
    page = _card(client, "tap-zone", "vika", "en")
    form = re.search(r'<form method="post" action="([^"]+/act/strike)">(.*?)</form>', page, re.S)
    assert form is not None
    values = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(2)))
    assert client.post(form.group(1), data=values).status_code == 200
    _, state, _ = CampaignService(db).load("tap-zone")
    assert state.characters["vika"].hits == 2


def test_details_name_the_healer_and_the_hospital_not_their_ids(login: Login) -> None:
    client = login("master")
    ru = _text(_card(client, "demo-larp", "1003", "ru"))
    assert "лекарь: Sigrun" in ru and "госпиталь: Shallya's House" in ru and "лежак: b1" in ru
    assert "вид: после операции" in ru
    assert "1005" not in ru.replace("№ 1005", "") and "post_op" not in ru
    en = _text(_card(client, "demo-larp", "1001", "en"))
    ru = _text(_card(client, "demo-larp", "1001", "ru"))
    assert "human, 34" in en and "человек, 34" in ru
    assert "Wounds: left arm" in en and "Ранения: левая рука" in ru


def test_the_journal_reads_in_russian(login: Login) -> None:
    page = _text(login("master").get(f"{C}/journal?lang=ru").text)
    assert "раса: человек" in page and "лекарь: Sigrun" in page and "ранения: грудь" in page
    assert "состояние: тяжёлое ранение, перевязан" in page
    assert re.search(r"поступил в: \d\d:\d\d", page)
    assert not {"admitted_at", "race:", "heavy_bandaged", "healer:"} & set(page.split())


def test_a_change_about_no_one_is_confirmed_where_it_lands_not_on_the_next_card(
    login: Login,
) -> None:
    """Issue 16: "raining: False" used to show up later on Anna's card."""
    client = login("master")
    form = client.get(f"{C}/act/set-weather?lang=en").text
    values = dict(re.findall(r'name="(csrf|idem)" value="([^"]*)"', form))
    landed = client.post(f"{C}/act/set-weather", data={**values, "raining": "1"})
    assert landed.status_code == 200 and landed.url.path == C
    confirmed = re.findall(r'<p class="ok" role="status">(.*?)</p>', landed.text)
    assert len(confirmed) == 1 and "W-HOSP-16" in confirmed[0]
    assert 'data-undo="' in landed.text  # and it can be taken back from there
    anna = client.get(f"{C}/ch/1004").text
    assert not re.findall(r"<p class=\"ok\" role=\"status\">", anna)
