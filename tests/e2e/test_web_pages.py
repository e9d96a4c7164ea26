"""The web pages through a real app on a real SQLite file (demo campaign): login,
languages, hidden disease penalties per role, CSRF, generated action forms with
idempotent submits, page weight and speed, and the error page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.e2e.webtools import C, Login, hidden, submitted

from lazaretto.api.app import create_app
from lazaretto.core.character import Character
from lazaretto.core.clock import ClockMode
from lazaretto.core.registry import get_ruleset, rulesets
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN
from lazaretto.store.db import Database
from lazaretto.web import cards, i18n

PENALTY = "cannot run"  # the demo disease GF-1's hidden penalties: "cannot run; -1 hit..."
FOLDED = ("-1 hit in combat", "because of Grey fever")  # as the card shows them (folded)


def form_of(html: str) -> tuple[str, dict[str, str]]:
    """The action form's URL and what a browser would send from it untouched."""
    form = re.search(r'<form method="post" action="([^"]+)" class="stack">', html)
    assert form, "no action form"
    return form.group(1), dict(submitted(html))


def error_line(html: str) -> str:
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', html, re.S)
    assert found, "no error message"
    return found.group(1)


def hits_lost_events(client: TestClient, character: str) -> int:
    token = client.post("/api/login", json={"username": "master", "password": "master-demo"})
    head = {"Authorization": f"Bearer {token.json()['token']}"}
    events = client.get(f"/api/campaigns/{CAMPAIGN}/events", headers=head).json()
    return sum(
        1
        for e in events
        if e["kind"] == "wound.hits_lost" and e["payload"]["character"] == character
    )


def pages_of(role: str) -> list[str]:
    common = [
        "/",
        C,
        f"{C}/find?q=ri",
        f"{C}/ch/1002",
        f"{C}/ch/1002/passport",
        f"{C}/actions",
        f"{C}/act/lose-hits?character=1002",
        "/join",
    ]
    staff = [  # and another's card: a LARP player sees only their own (player_sight)
        f"{C}/ch/1003",
        f"{C}/timers",
        f"{C}/journal",
        f"{C}/journal?hospital=h1",
        f"{C}/hospital/h1",
        f"{C}/act/apply-bandage?character=1002",
        f"{C}/act/finish-operation?character=1003",
    ]
    return common + (staff if role != "player" else [])


def test_a_page_needs_a_login_and_the_login_form_comes_back(db: Database) -> None:
    with TestClient(create_app(db, ticker=False)) as client:
        r = client.get(f"{C}/ch/1002", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"].startswith("/login?next=")
        form = client.get(r.headers["location"])
        assert 'name="next" value="/c/demo-larp/ch/1002"' in form.text
        r = client.post(
            "/login",
            data={
                "username": "healer",
                "password": "healer-demo",
                "pre": hidden(form.text, "pre"),
                "next": "/c/demo-larp/ch/1002",
            },
            follow_redirects=False,
        )
        assert r.status_code == 303 and r.headers["location"] == "/c/demo-larp/ch/1002"
        cookie = r.headers["set-cookie"].lower()
        assert "lazaretto_session=" in cookie and "httponly" in cookie and "samesite=lax" in cookie
        assert "Boris" in client.get("/c/demo-larp/ch/1002").text


def test_a_wrong_password_or_a_forged_login_form_is_refused(db: Database) -> None:
    with TestClient(create_app(db, ticker=False)) as client:
        form = client.get("/login")
        wrong = {"username": "healer", "password": "nope-nope", "pre": hidden(form.text, "pre")}
        r = client.post("/login", data=wrong)
        assert r.status_code == 401 and "Wrong username or password" in error_line(r.text)
        forged = client.post("/login", data={**wrong, "password": "healer-demo", "pre": "x"})
        assert forged.status_code == 403 and "lazaretto_session" not in forged.headers.get(
            "set-cookie", ""
        )


@pytest.mark.parametrize("role", ["master", "healer", "player"])
def test_every_page_renders_in_english_and_in_russian(login: Login, role: str) -> None:
    client = login(role)
    for url in pages_of(role):
        sep = "&" if "?" in url else "?"
        en = client.get(f"{url}{sep}lang=en")
        ru = client.get(f"{url}{sep}lang=ru")
        assert en.status_code == ru.status_code == 200, (url, en.text[-300:])
        assert '<html lang="en">' in en.text and '<html lang="ru">' in ru.text, url
        assert "Выйти" in ru.text and "Log out" in en.text, url


def test_the_language_switch_is_remembered_in_a_cookie(login: Login) -> None:
    client = login("healer")
    r = client.get(f"/lang/ru?next={C}/ch/1002", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"{C}/ch/1002"
    assert "lang=ru" in r.headers["set-cookie"]
    page = client.get(f"{C}/ch/1002").text
    assert "лёгкое ранение" in page and "Перевязать" in page
    away = client.get("/lang/en?next=https://evil.example/", follow_redirects=False)
    assert away.headers["location"] == "/"


def test_a_masters_card_shows_the_characters_own_history_newest_first(
    login: Login, db: Database
) -> None:
    """The history comes from the subject index: only events naming the character,
    the newest first, at most a dozen, however long the log has grown."""
    campaigns = CampaignService(db)
    for i in range(30):  # a long log about others
        campaigns.add_character(CAMPAIGN, Character(id=f"x{i}", name=f"Karl {i}", hits_max=3))
    page = login("master").get(f"{C}/ch/1002").text
    history = page.split('<ul class="log">')[1].split("</ul>")[0]
    lines = re.findall(r"<li>(.*?)</li>", history)
    assert 0 < len(lines) <= 12
    assert all("Karl" not in ln and "Dmitri" not in ln for ln in lines)
    assert any("Boris lost 1 hit" in ln for ln in lines)
    assert any("bandaged" in ln for ln in lines)
    assert lines.index(next(ln for ln in lines if "bandaged" in ln)) < lines.index(
        next(ln for ln in lines if "Boris lost 1 hit" in ln)
    ), "newest first"


def test_a_character_of_many_hits_shows_numbers_not_a_pip_per_hit(
    login: Login, db: Database
) -> None:
    """Pips while they fit a phone's line; a 1,000-hit troll is just 1000/1000."""
    CampaignService(db).add_character(
        CAMPAIGN, Character(id="troll", name="Troll", hits_max=1000, hits=1000)
    )
    client = login("master")
    troll = client.get(f"{C}/ch/troll").text
    assert "1000/1000" in troll and '<i class="on">' not in troll
    boris = client.get(f"{C}/ch/1002").text
    assert boris.count('<i class="on">') + boris.count('<i class="off">') == 3
    overview = client.get(C).text
    assert overview.count('<i class="on">') < 50


def test_a_player_sees_their_own_disease_penalties_on_the_card(login: Login) -> None:
    """W-DIS-05: the sticker's reader (the infected player) knows the penalties."""
    page = login("player").get(f"{C}/ch/1002?lang=en").text
    may_not = page.split('class="maynot"')[1].split("</ul>")[0]
    assert "Grey fever" in page and "Penalties: -1 hit in combat" in page
    assert "run (because of Grey fever)" in may_not  # "cannot run" is not left in "may"
    assert "<li>run</li>" not in page.split('class="may"')[1].split("</ul>")[0]


def test_a_healer_never_sees_a_disease_penalty_on_any_page_or_api(login: Login) -> None:
    client = login("healer")
    urls = pages_of("healer") + [f"{C}/ch/{n}" for n in range(1001, 1007)]
    urls += [f"{C}/act/{a}?character=1002" for a in ("admit", "record-disease-case", "add-to-book")]
    api = f"/api/campaigns/{CAMPAIGN}"
    urls += ["/api/campaigns", f"{api}/characters", f"{api}/characters/1002", f"{api}/timers"]
    urls += [f"{api}/journal", f"{api}/actions", f"{C}/journal.csv"]
    for url in urls:
        r = client.get(url)
        assert r.status_code == 200, url
        assert PENALTY not in r.text, url
        assert not [f for f in FOLDED if f in r.text], url


def test_a_form_without_the_csrf_token_changes_nothing(login: Login) -> None:
    client = login("healer")
    url, values = form_of(client.get(f"{C}/act/lose-hits?character=1006").text)
    for bad in ({k: v for k, v in values.items() if k != "csrf"}, {**values, "csrf": "guess"}):
        r = client.post(url, data=bad)
        assert r.status_code == 403 and "CSRF" in error_line(r.text)
    assert client.post("/logout", data={}).status_code == 403
    assert hits_lost_events(client, "1006") == 0


def test_a_generated_form_records_a_wound_once_however_often_it_is_sent(login: Login) -> None:
    client = login("healer")
    url, values = form_of(client.get(f"{C}/act/lose-hits?character=1006").text)
    assert url == f"{C}/act/lose-hits"
    assert values["character"] == "1006" and values["hits"] == ""  # default: 1
    first = client.post(url, data=values, follow_redirects=False)
    again = client.post(url, data=values, follow_redirects=False)  # a double tap / a retry
    assert first.status_code == again.status_code == 303
    assert first.headers["location"] == f"{C}/ch/1006"
    card = client.get(f"{C}/ch/1006").text
    assert "2/3" in card and "light wound" in card
    assert hits_lost_events(client, "1006") == 1


def test_a_wound_and_its_bandage_take_three_taps_from_the_card(login: Login) -> None:
    client = login("healer")
    card = client.get(f"{C}/ch/1006").text
    quick = re.search(r'<div class="quick">(.*?)</div>', card, re.S)
    assert quick is not None
    tap1 = re.search(r'<form method="post" action="([^"]+)">(.*?)</form>', quick.group(1), re.S)
    assert tap1 is not None and tap1.group(1).endswith("/act/lose-hits")
    r = client.post(
        tap1.group(1), data=dict(re.findall(r'name="([^"]+)" value="([^"]*)"', tap1.group(2)))
    )
    assert r.status_code == 200 and "Karl lost 1 hit" in r.text  # followed to the card
    tap2 = re.search(r'data-action="apply-bandage" href="([^"]+)"', r.text)
    assert tap2 is not None
    url, values = form_of(client.get(tap2.group(1).replace("&amp;", "&")).text)
    assert values["patient"] == "1006" and values["healer"] == "1004" and values["bandages"] == "1"
    done = client.post(url, data=values)  # tap 3: submit the prefilled form
    assert done.status_code == 200 and "bandaged" in done.text and "W-WND-02" in done.text


def test_a_refused_action_shows_the_form_again_with_the_rule(login: Login) -> None:
    client = login("healer")
    url, values = form_of(client.get(f"{C}/act/apply-bandage?character=1006").text)
    r = client.post(url, data={**values, "bandages": "1"})  # Karl is not wounded
    assert r.status_code == 409 and "(W-DEF-06)" in error_line(r.text)
    assert 'value="1006"' in r.text  # what was typed stays
    url, values = form_of(client.get(f"{C}/act/lose-hits?character=1006").text)
    r = client.post(url, data={**values, "hits": "0"})
    assert r.status_code == 422 and "hits" in error_line(r.text)
    url, values = form_of(client.get(f"{C}/act/apply-bandage?character=1006&lang=ru").text)
    ru = client.post(f"{url}?lang=ru", data={**values, "bandages": "1"})
    assert ru.status_code == 409 and "нет ранения (W-DEF-06)" in error_line(ru.text)


def test_a_list_of_objects_is_typed_one_per_line(login: Login) -> None:
    client = login("master")
    url, values = form_of(client.get(f"{C}/act/register-hospital").text)
    values.update(id="h9", name="Field tent", number="9")
    values["tables"] = "t9"
    values["beds"] = "id=b8, height_cm=40\n" + '{"id": "g9", "on_ground": true, "height_cm": 0}'
    r = client.post(url, data=values)
    assert r.status_code == 200, error_line(r.text)
    board = client.get(f"{C}/hospital/h9").text
    assert all(place in board for place in ("t9", "b8", "g9"))


def test_the_journal_filters_exports_csv_and_prints(login: Login) -> None:
    client = login("healer")
    page = client.get(f"{C}/journal?hospital=h1").text
    assert "Dmitri" in page and "W-HOSP-04" in page
    css = client.get("/static/app.css").text
    assert "@media print" in css
    csv = client.get(f"{C}/journal.csv?hospital=h1")
    assert csv.headers["content-type"].startswith("text/csv")
    assert "attachment" in csv.headers["content-disposition"]
    lines = csv.text.lstrip("\ufeff").splitlines()
    assert lines[0].startswith("no,time,hospital") and "Dmitri" in lines[1]
    assert login("player").get(f"{C}/journal").status_code == 403


def test_a_hidden_countdown_stays_off_the_healers_board(login: Login) -> None:
    master = login("master")
    lethal = {"code": "RD-2", "name": "Red death", "lethal": "1", "minutes_to_death": "90"}
    for action, fields in (
        ("define-disease", lethal),
        ("infect", {"character": "1001", "disease": "RD-2"}),
    ):
        url, values = form_of(master.get(f"{C}/act/{action}").text)
        values.update(fields)
        r = master.post(url, data=values)
        assert r.status_code == 200, error_line(r.text)
    label = get_ruleset("warhammer-larp").text("timer:disease_death", "en")
    assert label and label in master.get(f"{C}/timers").text
    assert label not in login("healer").get(f"{C}/timers").text


def test_find_by_passport_number_opens_the_card_and_by_name_lists(login: Login) -> None:
    client = login("healer")
    r = client.get(f"{C}/find?q=1003", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"{C}/ch/1003"
    one = client.get(f"{C}/find?q=bor", follow_redirects=False)
    assert one.status_code == 303 and one.headers["location"] == f"{C}/ch/1002"
    listed = client.get(f"{C}/find?q=ri").text  # Boris, Dmitri
    assert "Boris" in listed and "Dmitri" in listed and "Karl" not in listed


def test_a_master_moves_the_clock_and_invites_a_new_player(login: Login, db: Database) -> None:
    master = login("master")
    page = master.get(C).text
    before = re.search(r"data-clock>([0-9:]+)<", page)
    r = master.post(f"{C}/clock", data={"csrf": hidden(page, "csrf"), "op": "pause"})
    assert r.status_code == 200 and "paused" in r.text
    r = master.post(f"{C}/clock", data={"csrf": hidden(page, "csrf"), "op": "advance", "by": "1h"})
    after = re.search(r"data-clock>([0-9:]+)<", r.text)
    assert before and after and before.group(1) != after.group(1)
    r = master.post(
        f"{C}/invite", data={"csrf": hidden(page, "csrf"), "role": "player", "character": "1006"}
    )
    code = re.search(r'<b class="code">([^<]+)</b>', r.text)
    assert r.status_code == 201 and code
    with TestClient(create_app(db, ticker=False)) as newcomer:
        form = newcomer.get(f"/register?code={code.group(1)}")
        assert f'value="{code.group(1)}"' in form.text
        data = {"username": "karl", "password": "karl-player", "code": code.group(1)}
        r = newcomer.post("/register", data={**data, "pre": hidden(form.text, "pre")})
        assert r.status_code == 200 and "Karl" in r.text
        assert "your character" in newcomer.get(f"{C}/ch/1006").text


def test_an_unknown_character_is_a_one_line_error_page(login: Login) -> None:
    client = login("healer")
    for language, words in (("en", "No character '9999'"), ("ru", "Нет персонажа '9999'")):
        r = client.get(f"{C}/ch/9999?lang={language}")
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
        line = error_line(r.text).replace("&#39;", "'")
        assert words in line and "\n" not in line


def test_each_page_with_its_css_and_script_is_under_100_kb(login: Login) -> None:
    client = login("master")
    assets = sum(len(client.get(f"/static/{f}").content) for f in ("app.css", "live.js"))
    sizes = {url: len(client.get(url).content) + assets for url in pages_of("master")}
    assert max(sizes.values()) < 100_000, sizes


def test_every_action_of_the_ruleset_has_a_generated_form(login: Login) -> None:
    client = login("master")
    for name in get_ruleset("warhammer-larp").actions:
        page = client.get(f"{C}/act/{name}")
        assert page.status_code == 200, name
        form_of(page.text)


def test_a_passport_prints_a_qr_code_that_opens_the_card(login: Login) -> None:
    page = login("player").get(f"{C}/ch/1002/passport").text
    assert "http://testserver/c/demo-larp/ch/1002" in page and "Boris" in page
    try:
        import segno  # noqa: F401  (optional: without it the page says how to get the code)
    except ImportError:
        assert "segno" in page
    else:
        assert "<svg" in page


@pytest.mark.parametrize("ruleset", sorted(rulesets()))
def test_a_campaign_of_every_installed_ruleset_has_its_pages(
    db: Database, login: Login, ruleset: str
) -> None:
    campaigns, accounts = CampaignService(db), AccountService(db)
    name = f"web-{ruleset}"
    campaigns.create_campaign(name, ruleset, seed=1)
    campaigns.add_character(name, Character(id="7", name="Vera", hits_max=3, hits=3))
    accounts.add_member(accounts.login("master", "master-demo").user, name, Role.MASTER)
    client = login("master")
    pages = ["", "/ch/7", "/ch/7/passport", "/actions", "/timers", "/journal", "/find?q=ver"]
    pages += [f"/act/{a}?character=7" for a in get_ruleset(ruleset).actions]
    for page in pages:
        r = client.get(f"/c/{name}{page}")
        assert r.status_code == 200 and "Vera" in client.get(f"/c/{name}/ch/7").text, page


def test_every_page_word_exists_in_both_languages() -> None:
    used = {q.label for qs in cards.QUICK.values() for q in qs}
    used |= {"one_per_line", "error", "paused"}
    used |= {f"role_{r.value}" for r in Role} | {f"clock_{m.value}" for m in ClockMode}
    used |= {"place_bed", "place_table", "alive", "dead"}
    for template in (Path(i18n.__file__).parent / "templates").glob("*.html"):
        used |= set(re.findall(r"t\('([a-z_]+)'\)", template.read_text()))
    assert used <= set(i18n.UI), sorted(used - set(i18n.UI))
    assert all(en and ru for en, ru in i18n.UI.values())


def test_the_journal_prints_as_a_pdf_with_every_entry(login: Login) -> None:
    import pypdfium2 as pdfium

    client = login("master")
    r = client.get(f"{C}/journal.pdf?lang=ru")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    doc = pdfium.PdfDocument(r.content)
    text = "".join(page.get_textpage().get_text_range() for page in doc)
    assert "Журнал госпиталя" in text
    assert "Dmitri" in text and "поступление" in text  # W-HOSP-05: the admission entry
    assert login("player").get(f"{C}/journal.pdf").status_code == 403


def test_a_card_listens_only_for_changes_about_its_character(login: Login) -> None:
    """The card's live stream names its character (api/live.py filters on it); the
    hospital board listens to every change."""
    healer = login("healer")
    card = healer.get(f"{C}/ch/1002").text
    assert f'data-stream="/api/campaigns/{CAMPAIGN}/stream?character=1002"' in card
    board = healer.get(f"{C}/hospital/h1").text
    assert f'data-stream="/api/campaigns/{CAMPAIGN}/stream"' in board
