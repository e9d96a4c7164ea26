"""The web side of issue 26: a JoinRPG roster imported from the roster page (a check
first, every character's outcome in the caller's language, the project's fields in
selects to map, the CLI's filters as checkboxes, all or nothing) and the characters'
outcomes downloaded from the master's campaign page (masters only)."""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape
from pathlib import Path

from fastapi.testclient import TestClient
from httpx import Response
from tests.e2e.webtools import C, Login, hidden

from lazaretto.core.character import Character
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN
from lazaretto.store.db import Database

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "joinrpg-roster.json"
ROW = re.compile(r'data-row="([^"]*)" data-status="([a-z]+)"')


def example(shift: int = 4000, values: dict[str, dict[int, str]] | None = None) -> str:
    """The documented example, its CharacterIds moved clear of the demo's 1001-1006
    (1001 -> 5001) unless ``shift`` is 0; ``values`` gives characters more field
    values (``{"5002": {2: "много"}}``: by CharacterId, then ProjectFieldId)."""
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    for ch in doc["characters"]:
        ch["CharacterId"] += shift
        for fid, value in (values or {}).get(str(ch["CharacterId"]), {}).items():
            ch["Fields"].append({"ProjectFieldId": fid, "Value": value, "DisplayString": value})
    return json.dumps(doc, ensure_ascii=False)


def csrf_of(client: TestClient) -> str:
    return hidden(client.get(f"{C}/roster").text, "csrf")


def check(client: TestClient, text: str, lang: str = "en", **form: str) -> Response:
    """The first step: the JoinRPG format picked, the file uploaded, nothing imported."""
    return client.post(
        f"{C}/roster/import?lang={lang}",
        data={"csrf": csrf_of(client), "format": "joinrpg", "step": "preview", **form},
        files={"file": ("roster.json", text.encode(), "application/json")},
    )


def again(client: TestClient, page: Response, step: str, **form: str) -> Response:
    """The preview's own form sent back (its hidden JSON and the options it was made
    with), with ``form``'s selects and checkboxes, by its Check or its Import button."""
    html = page.text
    text = re.search(r'<textarea name="text" hidden>(.*?)</textarea>', html, re.S)
    assert text, "the preview carries no roster"
    data = {
        "csrf": hidden(html, "csrf"),
        "format": "joinrpg",
        "previewed": hidden(html, "previewed"),
        "text": unescape(text.group(1)),
        "step": step,
        **form,
    }
    return client.post(f"{C}/roster/import", data=data)


def statuses(html: str) -> dict[str, str]:
    return dict(ROW.findall(html))


def note(html: str, cid: str) -> str:
    row = re.search(rf'data-row="{cid}".*?</tr>', html, re.S)
    assert row, cid
    found = re.search(r"<small[^>]*data-note>(.*?)</small>", row.group(0), re.S)
    return unescape(found.group(1)) if found else ""


def option(html: str, select: str, label: str) -> str:
    """The value of the choice of select ``select`` that reads ``label``."""
    body = re.search(rf'<select name="{select}">(.*?)</select>', html, re.S)
    assert body, select
    found = re.search(rf'<option value="([^"]*)"[^>]*>{re.escape(label)}', body.group(1))
    assert found, (select, label)
    return found.group(1)


def characters(db: Database) -> dict[str, Character]:
    return dict(CampaignService(db).load(CAMPAIGN)[1].characters)


def test_the_example_shows_each_characters_outcome_in_english_and_in_russian(
    login: Login, db: Database
) -> None:
    client = login("master")
    before = CampaignService(db).version(CAMPAIGN)
    en = check(client, example(shift=0))  # 1001 and 1002 are the demo's already
    assert en.status_code == 200
    assert statuses(en.text) == {
        "1001": "changed", "1002": "changed", "1003": "skipped", "1004": "skipped"
    }  # fmt: skip
    assert "changed in JoinRPG, kept" in en.text
    assert note(en.text, "1001").startswith("differs in JoinRPG: name, race")
    assert note(en.text, "1003") == "an NPC"
    assert note(en.text, "1004") == "inactive (deleted in JoinRPG)"
    assert "data-import" not in en.text  # nobody new: nothing to import
    ru = check(client, example(), lang="ru")
    assert statuses(ru.text) == {
        "5001": "added", "5002": "added", "5003": "skipped", "5004": "skipped"
    }  # fmt: skip
    assert "Прочитано персонажей JoinRPG: 4" in ru.text
    assert '<b class="st">новый</b>' in ru.text and '<b class="st">пропущен</b>' in ru.text
    assert '<span data-count="added">новый: <b>2</b>' in ru.text  # a check adds nobody yet
    assert note(ru.text, "5003") == "NPC (игротехнический персонаж)"
    assert note(ru.text, "5004") == "неактивен (удалён в JoinRPG)"
    assert "Импортировать новых: 2" in ru.text
    assert "Хиты: 12" in ru.text and "Раса: человек" in ru.text
    assert "Возраст (число)" in ru.text  # the project's field in a select, its type in Russian
    assert CampaignService(db).version(CAMPAIGN) == before  # a check changes nothing
    assert characters(db)["1001"].name != "Вера Травница"  # "changed" is kept as it was


def test_an_import_adds_the_new_characters_under_their_character_id_in_one_change(
    login: Login, db: Database
) -> None:
    client = login("master")
    before = CampaignService(db).version(CAMPAIGN) or 0
    done = again(client, check(client, example()), "import")
    assert done.status_code == 201, done.text
    assert "Characters imported: 2 (" in done.text
    assert '<span data-count="added">added: <b>2</b>' in done.text
    assert CampaignService(db).version(CAMPAIGN) == before + 1  # ONE record, all or none
    found = characters(db)
    vera, boris = found["5001"], found["5002"]
    assert (vera.name, vera.hits_max, vera.hits, vera.race) == ("Вера Травница", 12, 12, "человек")
    assert vera.skills == ["медицина", "травничество"]
    assert vera.data["joinrpg"] == {"groups": ["Госпиталь Ордена"], "player": "Анна К."}
    assert vera.data["nickname"] == "Травница" and vera.data["healer"] is True
    assert boris.race == "гном" and boris.age is None  # Возраст has no ProgrammaticValue
    assert "5003" not in found and "5004" not in found  # the NPC and the inactive one


def test_a_field_picked_in_a_select_is_what_is_imported(login: Login, db: Database) -> None:
    client = login("master")
    first = check(client, example())
    assert "— not read —" in first.text  # age: no field says lazaretto:age
    assert ">Хиты — by ProgrammaticValue<" in first.text  # hits: as the field says
    age = option(first.text, "field_age", "Возраст (Number)")
    nickname = option(first.text, "field_race", "Прозвище (String)")
    mapped = again(client, first, "preview", field_age=age, field_race=nickname)
    assert mapped.status_code == 200
    assert "Age: 34" in mapped.text and "Age: 120" in mapped.text
    assert "Race: Травница" in mapped.text and "Race: человек" not in mapped.text
    assert f'<option value="{age}" selected>' in mapped.text  # the choice stays chosen
    done = again(client, mapped, "import", field_age=age, field_race=nickname)
    assert done.status_code == 201, done.text
    found = characters(db)
    assert (found["5001"].age, found["5002"].age) == (34, 120)
    assert found["5001"].race == "Травница"  # the picked field wins over ProgrammaticValue
    assert found["5002"].race == ""  # Борис has no nickname: nothing else goes to race


def test_an_import_after_the_selects_changed_shows_the_rows_again_and_imports_nothing(
    login: Login, db: Database
) -> None:
    client = login("master")
    first = check(client, example())
    age = option(first.text, "field_age", "Возраст (Number)")
    r = again(client, first, "import", field_age=age)  # changed, then Import unchecked
    assert r.status_code == 200 and "The choices changed since the check" in r.text
    assert "Age: 34" in r.text and "5001" not in characters(db)
    done = again(client, r, "import", field_age=age)  # now it is what was shown
    assert done.status_code == 201 and characters(db)["5001"].age == 34


def test_a_second_import_of_the_same_file_reports_unchanged_and_adds_nobody(
    login: Login, db: Database
) -> None:
    client = login("master")
    assert again(client, check(client, example()), "import").status_code == 201
    count, version = len(characters(db)), CampaignService(db).version(CAMPAIGN)
    second = check(client, example())
    assert statuses(second.text) == {
        "5001": "unchanged", "5002": "unchanged", "5003": "skipped", "5004": "skipped"
    }  # fmt: skip
    assert "data-import" not in second.text
    r = again(client, second, "import")
    assert r.status_code == 200 and "Nothing to add" in r.text
    assert len(characters(db)) == count and CampaignService(db).version(CAMPAIGN) == version
    ru = check(client, example(), lang="ru")
    assert '<b class="st">без изменений</b>' in ru.text


def test_npcs_and_inactive_characters_are_skipped_unless_their_box_is_ticked(
    login: Login, db: Database
) -> None:
    client = login("master")
    npc = check(client, example(), include_npc="on")
    assert statuses(npc.text)["5003"] == "added" and statuses(npc.text)["5004"] == "skipped"
    assert 'name="include_npc" checked' in npc.text
    both = check(client, example(), include_npc="on", include_inactive="on")
    assert statuses(both.text) == {
        "5001": "added", "5002": "added", "5003": "added", "5004": "added"
    }  # fmt: skip
    gate = check(client, example(), checked_in="on")
    assert statuses(gate.text) == {
        "5001": "added", "5002": "skipped", "5003": "skipped", "5004": "skipped"
    }  # fmt: skip
    assert note(gate.text, "5002") == "not checked in (InGame is false)"
    done = again(client, npc, "import", include_npc="on")
    assert done.status_code == 201
    found = characters(db)
    assert found["5003"].name == "Стражник у ворот" and "5004" not in found


def test_a_file_with_a_bad_row_imports_nothing(login: Login, db: Database) -> None:
    client = login("master")
    bad = example(values={"5002": {2: "много"}})  # Борис's hits: not a number
    en = check(client, bad)
    assert en.status_code == 422
    assert statuses(en.text)["5002"] == "error" and statuses(en.text)["5001"] == "added"
    assert note(en.text, "5002") == "Хиты (lazaretto:hits): 'много' is not a whole number"
    assert "data-import" not in en.text
    ru = check(client, bad, lang="ru")
    assert note(ru.text, "5002") == "Хиты (lazaretto:hits): 'много' — не целое число"
    forced = again(client, en, "import")  # the Import step sent anyway
    assert forced.status_code == 422
    assert "5001" not in characters(db) and "5002" not in characters(db)
    broken = check(client, "id,name\n1,Vera")
    assert broken.status_code == 422 and "is not valid JSON" in broken.text
    assert 'value="joinrpg" checked' in broken.text  # the format stays picked


def test_a_healer_is_refused_the_joinrpg_import(login: Login, db: Database) -> None:
    healer = login("healer")
    page = healer.get(C)
    r = healer.post(
        f"{C}/roster/import",
        data={"csrf": hidden(page.text, "csrf"), "format": "joinrpg", "step": "import",
              "text": example()},
    )  # fmt: skip
    assert r.status_code == 403
    assert "5001" not in characters(db)


def test_the_masters_campaign_page_downloads_the_outcomes_as_csv(login: Login) -> None:
    client = login("master")
    page = client.get(C)
    assert 'href="/c/demo-larp/outcomes.csv?lang=en" download data-outcomes>Outcomes (CSV)' in (
        page.text
    )
    assert "Исходы (CSV)</a>" in client.get(f"{C}?lang=ru").text
    en = client.get(f"{C}/outcomes.csv?lang=en")
    assert en.status_code == 200 and en.headers["content-type"] == "text/csv; charset=utf-8"
    assert 'filename="characters-demo-larp.csv"' in en.headers["content-disposition"]
    assert en.text.startswith("\ufeff")  # Excel reads the Cyrillic right
    table = list(csv.reader(io.StringIO(en.text.lstrip("\ufeff"))))
    assert table[0] == [
        "id", "name", "group", "state", "alive", "died at (campaign time)", "cause of death",
        "diseases had", "diseases cured", "days in hospital",
    ]  # fmt: skip
    assert [row[0] for row in table[1:]] == ["1001", "1002", "1003", "1004", "1005", "1006"]
    assert table[1][1] == "Rustam" and table[1][4] == "yes"
    ru = list(csv.reader(io.StringIO(client.get(f"{C}/outcomes.csv?lang=ru").text[1:])))
    assert ru[0][:5] == ["id", "имя", "группа", "состояние", "жив"]
    assert ru[1][4] == "да"


def test_a_healer_neither_sees_the_outcomes_link_nor_downloads_them(login: Login) -> None:
    for user in ("healer", "player"):
        client = login(user)
        assert "outcomes.csv" not in client.get(C).text, user
        r = client.get(f"{C}/outcomes.csv")
        assert r.status_code == 403 and "text/html" in r.headers["content-type"], user
        assert "diseases had" not in r.text, user
