"""``POST /api/campaigns/{campaign}/characters/import``: a roster in one record (masters
only), every bad row refused with its number, dry runs, on a real app and database."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from httpx import Response

from lazaretto.api.app import create_app
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN, seed
from lazaretto.store.db import Database

URL = f"/api/campaigns/{CAMPAIGN}/characters/import"
HEADER = "id,name,hits,race,age,skills\n"


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database(database_url)
    seed(CampaignService(database), AccountService(database))  # characters 1001-1006
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


def roster_csv(n: int) -> str:
    rows = (f"P{i:04d},Name {i},{'' if i % 2 else 5},human,30,medicine\n" for i in range(1, n + 1))
    return HEADER + "".join(rows)


def send(client: TestClient, who: dict[str, str], **body: Any) -> Response:
    return client.post(URL, json=body, headers=who)


def names(client: TestClient, who: dict[str, str]) -> set[str]:
    r = client.get(f"/api/campaigns/{CAMPAIGN}/names", headers=who)
    return {n["id"] for n in r.json()}


def records(client: TestClient, who: dict[str, str]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = client.get(
        f"/api/campaigns/{CAMPAIGN}/records", headers=who
    ).json()
    return found


def test_a_master_imports_3000_characters_as_one_record(client: TestClient) -> None:
    gm = bearer(client, "master")
    before = records(client, gm)
    began = time.perf_counter()
    r = send(client, gm, format="csv", text=roster_csv(3000))
    took = time.perf_counter() - began
    print(f"\nAPI import of 3,000 characters: {took:.2f} s")
    assert r.status_code == 201, r.text
    answer = r.json()
    assert answer["imported"] == 3000 and answer["checked"] == 3000 and not answer["dry_run"]
    after = records(client, gm)
    (new,) = after[len(before) :]  # one record for all of them
    assert new["record"] == answer["record"] and new["kind"] == "character"
    assert len(names(client, gm)) == 6 + 3000
    card = client.get(f"/api/campaigns/{CAMPAIGN}/characters/P3000", headers=gm).json()
    assert card["hits_max"] == 5
    default = client.get(f"/api/campaigns/{CAMPAIGN}/characters/P2999", headers=gm).json()
    assert default["hits_max"] == 3  # hits left empty: the ruleset's starting hits


def test_a_json_roster_is_imported(client: TestClient) -> None:
    gm = bearer(client, "master")
    party = [
        {"id": "J1", "name": "Vera", "hits": 6, "skills": ["Healer"]},
        {"id": "J2", "name": "B"},
    ]
    r = send(client, gm, format="json", text=json.dumps(party))
    assert r.status_code == 201 and r.json()["imported"] == 2
    assert {"J1", "J2"} <= names(client, gm)


@pytest.mark.parametrize("user", ["player", "healer"])
def test_only_masters_import_rosters(client: TestClient, user: str) -> None:
    who = bearer(client, user)
    r = send(client, who, format="csv", text=roster_csv(3))
    assert r.status_code == 403 and r.json()["error"] == "Forbidden"
    dry = send(client, who, format="csv", text=roster_csv(3), dry_run=True)
    assert dry.status_code == 403
    assert "P0001" not in names(client, bearer(client, "master"))


def test_bad_rows_are_refused_with_their_numbers_in_the_callers_language(
    client: TestClient,
) -> None:
    text = HEADER + "N1,Vera,5,,,\nN2,Boris,many,,,\n1001,Rustam again,,,,\nN3,Karl,,,,\n"
    gm = bearer(client, "master")
    r = send(client, gm, format="csv", text=text)
    assert r.status_code == 422
    body = r.json()
    assert body["error"] == "InvalidInput" and body["imported"] == 0 and body["record"] is None
    assert body["message"] == (
        "2 of 4 rows have errors: nothing was imported. Fix the rows and send the roster again."
    )
    assert body["errors"] == [
        {
            "line": 2,
            "id": "N2",
            "message": "hits: Input should be a valid integer, unable to parse string as an "
            "integer",
        },
        {"line": 3, "id": "1001", "message": "id '1001' is taken in the campaign"},
    ]
    ru = send(client, bearer(client, "master", "ru"), format="csv", text=text).json()
    assert ru["message"].startswith("Строк с ошибками: 2 из 4 — ничего не добавлено")
    assert ru["errors"][1] == {"line": 3, "id": "1001", "message": "id '1001' уже есть в кампании"}
    assert not {"N1", "N3"} & names(client, gm)  # all or none


def test_a_dry_run_checks_and_stores_nothing(client: TestClient) -> None:
    gm = bearer(client, "master")
    before = records(client, gm)
    r = send(client, gm, format="csv", text=roster_csv(50), dry_run=True)
    assert r.status_code == 200
    assert r.json() == {"imported": 0, "record": None, "checked": 50, "dry_run": True}
    assert records(client, gm) == before and "P0001" not in names(client, gm)
    bad = send(client, gm, format="csv", text=HEADER + "1002,Boris,,,,\n", dry_run=True)
    assert bad.status_code == 422 and bad.json()["errors"][0]["line"] == 1
    assert send(client, gm, format="csv", text=roster_csv(50)).status_code == 201
    assert "P0050" in names(client, gm)


def test_a_text_that_is_not_its_format_is_refused(client: TestClient) -> None:
    gm = bearer(client, "master")
    r = send(client, gm, format="json", text=roster_csv(2))
    assert r.status_code == 422 and "errors" not in r.json()  # the text, not a row
    assert r.json()["message"].startswith("format is json but the text is not a JSON list")
    csv_said = send(client, gm, format="csv", text='[{"id": "X1", "name": "Vera"}]')
    assert csv_said.status_code == 422
    assert csv_said.json()["message"] == "format is csv but the text holds JSON: send format json"
    broken = send(client, gm, format="json", text='[{"id": "X1"')
    assert broken.status_code == 422 and "not valid JSON" in broken.json()["message"]
    empty = send(client, gm, format="csv", text=HEADER)
    assert empty.status_code == 422 and empty.json()["message"] == "The roster has no characters"
    assert send(client, gm, format="xml", text="<x/>").status_code == 422
    assert "X1" not in names(client, gm)


def test_cookie_sessions_need_the_csrf_token(client: TestClient) -> None:
    login = client.post("/api/login", json={"username": "master", "password": "master-demo"})
    assert client.post(URL, json={"format": "csv", "text": roster_csv(1)}).status_code == 403
    r = client.post(
        URL,
        json={"format": "csv", "text": roster_csv(1)},
        headers={"X-CSRF-Token": login.json()["csrf"]},
    )
    assert r.status_code == 201


def test_the_import_is_documented_in_openapi(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    post = spec["paths"]["/api/campaigns/{campaign}/characters/import"]["post"]
    assert post["summary"] == "Import a roster of characters (CSV or JSON) in one change"
    examples = post["requestBody"]["content"]["application/json"]["examples"]
    assert examples["csv"]["value"]["format"] == "csv"
    assert set(post["responses"]) >= {"201", "200", "403", "422"}
    rejected = post["responses"]["422"]["content"]["application/json"]
    assert rejected["example"]["errors"][0]["line"] == 2
    schema = spec["components"]["schemas"]["RosterImport"]
    assert schema["properties"]["format"]["enum"] == ["csv", "json", "joinrpg"]


def _made_by(db: Database, no: int) -> tuple[str, str, int | None]:
    """Who a stored record names: actor, role and the account."""
    from sqlalchemy import select

    from lazaretto.store.models import RecordRow

    with db.transaction(readonly=True) as s:
        row = s.scalars(
            select(RecordRow).where(RecordRow.campaign_id == CAMPAIGN, RecordRow.no == no)
        ).one()
        return row.actor, row.role, row.user_id


def test_the_import_and_a_character_added_name_the_master_who_made_them(
    client: TestClient, db: Database
) -> None:
    """Like every action's record, the roster's and a character's name who made them
    (issue 18's leftover): a second master, Olga, imports and adds; the records say
    'olga:master' with her account, not the anonymous 'master' of a script."""
    accounts = AccountService(db)
    olga = accounts.create_user("olga", "olga-demo")
    accounts.add_member(olga, CAMPAIGN, Role.MASTER)
    gm = bearer(client, "olga")
    r = send(client, gm, format="csv", text=roster_csv(2))
    assert r.status_code == 201, r.text
    imported = r.json()["record"]
    added = client.post(
        f"/api/campaigns/{CAMPAIGN}/characters",
        json={"id": "A1", "name": "Ada", "hits": 3},
        headers=gm,
    )
    assert added.status_code == 201, added.text
    listed = {r["record"]: r for r in records(client, gm)}
    (character,) = [
        r
        for r in listed.values()
        if r["kind"] == "character" and r["input"].get("character", {}).get("id") == "A1"
    ]
    for no in (imported, character["record"]):
        assert listed[no]["actor"] == "olga:master" and listed[no]["role"] == "master"
        assert _made_by(db, no) == ("olga:master", "master", olga.id)
