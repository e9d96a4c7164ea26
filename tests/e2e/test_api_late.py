"""The campaign time of a change in the API's request body (issue 14, item 7): a
record typed in late is placed at the time its body says, a time that cannot be is
refused in the caller's language and changes nothing, and the OpenAPI schema says so.
Through the real app on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lazaretto.api.app import create_app
from lazaretto.core.character import Character
from lazaretto.core.clock import ClockMode, wall_now
from lazaretto.core.registry import rulesets
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.store.db import Database

PAPER, FIELD = "paper-log", "field-day"
START = datetime(2026, 6, 13, 11, 50)
KIT = [
    "hourglass_10min",
    "needle",
    "thread",
    "plaster",
    "bandages",
    "mask",
    "gloves",
    "mat_materials",
]
BANDAGE = {"healer": "A", "patient": "B", "bandages": 2, "mat": "mat-A"}


def _people(svc: CampaignService, name: str) -> None:
    for cid, who, hits, skills in (("B", "Boris", 3, []), ("A", "Anna", 2, ["Healer"])):
        svc.add_character(
            name, Character(id=cid, name=who, hits_max=hits, hits=hits, skills=skills)
        )
    svc.act(name, "check-kit", {"healer": "A", "items": KIT})
    svc.act(name, "register-mat", {"id": "mat-A", "healer": "A", "length_cm": 180, "width_cm": 60})


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    """A manual-clock campaign (a paper log typed in after the battle) and a realtime
    one two hours into the game; a master of both and Anna's healer in the second."""
    database = Database(database_url)
    svc, accounts = CampaignService(database), AccountService(database)
    svc.create_campaign(PAPER, "warhammer-larp", start=START, seed=1)
    _people(svc, PAPER)
    svc.create_campaign(
        FIELD,
        "warhammer-larp",
        clock=ClockMode.REALTIME,
        start=START,
        seed=1,
        params={"late_record_minutes": 30},
    )
    _people(svc, FIELD)
    svc.set_clock(
        FIELD,
        lambda c: c.model_copy(
            update={"anchor": c.now() + timedelta(hours=2), "anchor_wall": wall_now()}
        ),
    )
    gm = accounts.create_user("gm", "gm-password-1")
    for name in (PAPER, FIELD):
        accounts.add_member(gm, name, Role.MASTER)
    anna = accounts.create_user("anna", "anna-password-1")
    accounts.add_member(anna, FIELD, Role.HEALER, ("A",))
    yield database
    database.close()


@pytest.fixture
def client(db: Database) -> Iterator[TestClient]:
    with TestClient(create_app(db, ticker=False)) as c:
        yield c


def login(client: TestClient, user: str, lang: str = "en") -> dict[str, str]:
    r = client.post("/api/login", json={"username": user, "password": f"{user}-password-1"})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}", "Accept-Language": lang}


def act(client: TestClient, who: dict[str, str], campaign: str, action: str, **body: Any) -> Any:
    return client.post(f"/api/campaigns/{campaign}/actions/{action}", json=body, headers=who)


def records(client: TestClient, who: dict[str, str], campaign: str) -> list[dict[str, Any]]:
    r = client.get(f"/api/campaigns/{campaign}/records", headers=who)
    assert r.status_code == 200, r.text
    return list(r.json())


def conditions(client: TestClient, who: dict[str, str], campaign: str, cid: str) -> list[str]:
    r = client.get(f"/api/campaigns/{campaign}/characters/{cid}", headers=who)
    assert r.status_code == 200, r.text
    return [c["kind"] for c in r.json()["conditions"]]


def test_a_bandage_sent_late_with_its_time_in_the_body_undoes_the_heavy_wound(
    client: TestClient,
) -> None:
    """W-WND-08 from a script typing in a paper log: the wound at 12:00, the clock moved
    to 12:35 (the wound turned heavy at 12:30), then the bandage of 12:29 with
    ``"at": "12:29"`` in its body: placed at 12:29, and the heavy wound never was."""
    gm = login(client, "gm")
    wound = act(client, gm, PAPER, "lose-hits", character="B", hits=2, location="leg", at="12:00",
                move_clock=True)  # the manual clock reads 11:50: the master moves it
    assert wound.status_code == 200, wound.text
    r = client.post(f"/api/campaigns/{PAPER}/clock?op=set", json={"to": "12:35"}, headers=gm)
    assert r.status_code == 200, r.text
    assert "heavy_wound" in conditions(client, gm, PAPER, "B")
    bandage = act(client, gm, PAPER, "apply-bandage", **BANDAGE, at="12:29")
    assert bandage.status_code == 200, bandage.text
    no = bandage.json()["record"]
    assert [e["at"] for e in bandage.json()["events"] if e["kind"] == "wound.bandaged"] == [
        "2026-06-13T12:29:00"
    ]
    placed = {r["record"]: r for r in records(client, gm, PAPER)}
    assert placed[no]["at"] == "2026-06-13T12:29:00" and "at" not in placed[no]["input"]
    assert placed[wound.json()["record"]]["at"] == "2026-06-13T12:00:00"
    assert conditions(client, gm, PAPER, "B") == ["light_wound"]
    undone = client.get(f"/api/campaigns/{PAPER}/corrections", headers=gm).json()
    assert [(c["change"], c["event"]["kind"], c["event"]["at"]) for c in undone] == [
        ("undone", "wound.became_heavy", "2026-06-13T12:30:00")
    ]


def test_without_a_time_in_the_body_a_change_happens_now(client: TestClient) -> None:
    gm = login(client, "gm")
    client.post(f"/api/campaigns/{PAPER}/clock?op=set", json={"to": "12:35"}, headers=gm)
    r = act(client, gm, PAPER, "lose-hits", character="B", hits=1)
    assert r.status_code == 200, r.text
    assert records(client, gm, PAPER)[-1]["at"] == "2026-06-13T12:35:00"


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "Cannot read the time '25:99'"), ("ru", "Не удалось прочитать время '25:99'")],
)
def test_a_time_that_cannot_be_read_is_refused_in_the_callers_language_and_stores_nothing(
    client: TestClient, lang: str, words: str
) -> None:
    gm = login(client, "gm", lang)
    before = records(client, gm, PAPER)
    r = act(client, gm, PAPER, "lose-hits", character="B", hits=1, at="25:99")
    assert (r.status_code, r.json()["error"]) == (422, "InvalidInput")
    assert words in r.json()["message"]
    assert records(client, gm, PAPER) == before


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "is more than 30 minutes back"), ("ru", "больше 30 мин назад")],
)
def test_a_healers_record_beyond_the_late_window_is_refused_in_their_language(
    client: TestClient, lang: str, words: str
) -> None:
    """late_record_minutes (30 here): Anna's phone may place a wound 20 minutes back,
    not 31; the refusal says a master can record it."""
    anna = login(client, "anna", lang)
    (listed,) = [c for c in client.get("/api/campaigns", headers=anna).json() if c["id"] == FIELD]
    now = datetime.fromisoformat(listed["now"])
    wound = {"character": "B", "hits": 1, "location": "arm"}
    before = records(client, anna, FIELD)
    far = act(
        client,
        anna,
        FIELD,
        "lose-hits",
        **wound,
        at=(now - timedelta(minutes=31)).isoformat(timespec="seconds"),
    )
    assert (far.status_code, far.json()["error"]) == (403, "Forbidden")
    assert words in far.json()["message"]
    assert records(client, anna, FIELD) == before
    near_at = (now - timedelta(minutes=20)).replace(microsecond=0)
    near = act(client, anna, FIELD, "lose-hits", **wound, at=near_at.isoformat())
    assert near.status_code == 200, near.text
    assert records(client, anna, FIELD)[-1]["at"] == near_at.isoformat()


@pytest.mark.parametrize(("lang", "words"), [("en", "given twice"), ("ru", "указано дважды")])
def test_a_time_in_both_the_body_and_the_query_is_refused_not_guessed(
    client: TestClient, lang: str, words: str
) -> None:
    gm = login(client, "gm", lang)
    before = records(client, gm, PAPER)
    r = client.post(
        f"/api/campaigns/{PAPER}/actions/lose-hits",
        params={"at": "12:10"},
        json={"character": "B", "hits": 1, "at": "12:05"},
        headers=gm,
    )
    assert (r.status_code, r.json()["error"]) == (422, "InvalidInput")
    assert words in r.json()["message"]
    assert records(client, gm, PAPER) == before


def test_the_query_time_of_older_scripts_still_places_a_record(client: TestClient) -> None:
    gm = login(client, "gm")
    client.post(f"/api/campaigns/{PAPER}/clock?op=set", json={"to": "12:35"}, headers=gm)
    r = client.post(
        f"/api/campaigns/{PAPER}/actions/lose-hits",
        params={"at": "12:10"},
        json={"character": "B", "hits": 1},
        headers=gm,
    )
    assert r.status_code == 200, r.text
    assert records(client, gm, PAPER)[-1]["at"] == "2026-06-13T12:10:00"


def test_the_openapi_schema_documents_the_body_time_of_every_action(
    client: TestClient,
) -> None:
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    for name, path in spec["paths"].items():
        if "/actions/" not in name:
            continue
        post = path["post"]
        body = post["requestBody"]["content"]["application/json"]["schema"]
        refs = [b["$ref"] for b in body.get("anyOf", [body])]
        for ref in refs:
            at = schemas[ref.rsplit("/", 1)[1]]["properties"]["at"]
            assert "campaign time it happened" in at["description"], name
            assert "late_record_minutes" in at["description"]
            assert at["examples"] == ["12:29", "2026-06-13T12:29:00"]
        (query,) = [p for p in post["parameters"] if p["name"] == "at"]
        assert query["deprecated"] is True and query["in"] == "query"
    lose = schemas["LoseHitsRequest"]
    assert "at" not in lose.get("required", []) and "character" in lose["required"]


def test_no_action_has_an_input_of_its_own_called_at() -> None:
    """The body's ``at`` would hide it (api/actions.py)."""
    clash = [
        (rs.id, name)
        for rs in rulesets().values()
        for name, spec in rs.actions.items()
        if "at" in spec.input.model_fields
    ]
    assert clash == []
