"""Bad input over HTTP: oversized, malformed or out-of-range requests are refused with a
clear error in the API's JSON shape (or the error page), and change nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from lazaretto.api.app import MAX_BODY_BYTES, create_app
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN, seed
from lazaretto.store.db import Database


@pytest.fixture(scope="module")
def db(module_database_url: str) -> Iterator[Database]:
    """The demo, shared: no test here may change it (or their checks say so)."""
    database = Database(module_database_url)
    seed(CampaignService(database), AccountService(database))
    yield database
    database.close()


@pytest.fixture
def client(db: Database) -> Iterator[TestClient]:
    with TestClient(create_app(db, ticker=False), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture
def master(db: Database) -> dict[str, str]:
    return {"Authorization": f"Bearer {AccountService(db).login('master', 'master-demo').token}"}


def version(db: Database) -> int | None:
    return CampaignService(db).version(CAMPAIGN)


def test_a_body_over_the_limit_is_refused_before_it_is_read(
    client: TestClient, master: dict[str, str], db: Database
) -> None:
    huge = {"id": "x" * (MAX_BODY_BYTES + 1), "name": "Giant"}
    r = client.post(f"/api/campaigns/{CAMPAIGN}/characters", json=huge, headers=master)
    assert (r.status_code, r.json()["error"]) == (413, "TooLarge")
    in_russian = {**master, "Accept-Language": "ru"}
    ru = client.post(f"/api/campaigns/{CAMPAIGN}/characters", json=huge, headers=in_russian)
    assert "Тело запроса больше 1 000 000 байт" in ru.json()["message"]
    page = client.post(
        "/login", data={"username": "u" * (MAX_BODY_BYTES + 1)}, headers={"Accept": "text/html"}
    )
    assert page.status_code == 413
    assert "text/html" in page.headers["content-type"]
    assert "x" * 100 not in client.get(f"/api/campaigns/{CAMPAIGN}/characters",
                                       headers=master).text


def test_a_body_sent_in_chunks_is_refused_once_it_passes_the_limit(
    client: TestClient, master: dict[str, str], db: Database
) -> None:
    """No Content-Length (chunked): the body is counted as it arrives."""
    before = version(db)

    def chunks() -> Iterator[bytes]:
        yield b'{"id": "giant", "name": "'
        for _ in range(MAX_BODY_BYTES // 50_000 + 1):
            yield b"x" * 50_000
        yield b'"}'

    r = client.post(f"/api/campaigns/{CAMPAIGN}/characters", content=chunks(), headers=master)
    assert (r.status_code, r.json()["error"]) == (413, "TooLarge")
    assert version(db) == before


def test_unknown_paths_and_methods_answer_in_the_error_shape(
    client: TestClient, master: dict[str, str]
) -> None:
    missing = client.get("/api/no-such-thing", headers=master)
    wrong = client.delete("/api/campaigns", headers=master)
    assert (missing.status_code, missing.json()["error"]) == (404, "NotFound")
    assert (wrong.status_code, wrong.json()["error"]) == (405, "MethodNotAllowed")


@pytest.mark.parametrize(
    ("content", "content_type"),
    [
        (b'{"username": "master", "password": ', "application/json"),  # cut short
        (b'{"username": "master", "password": "master-demo"}', "text/plain"),  # a form's
        (b"\xff\xfe\x00{", "application/json"),  # not UTF-8
        (b"[" * 100_000, "application/json"),  # nested past any parser's stack
    ],
)
def test_malformed_json_is_refused_with_a_message(
    client: TestClient, content: bytes, content_type: str
) -> None:
    r = client.post("/api/login", content=content, headers={"content-type": content_type})
    assert r.status_code in (400, 422)
    assert r.json()["error"] == "InvalidInput" and r.json()["message"]


def test_moving_the_clock_past_the_calendar_is_refused_and_changes_nothing(
    client: TestClient, master: dict[str, str], db: Database
) -> None:
    before = version(db)
    api = client.post(
        f"/api/campaigns/{CAMPAIGN}/clock?op=advance", json={"by": "99999999d"}, headers=master
    )
    assert (api.status_code, api.json()["error"]) == (422, "InvalidInput")
    assert "out of range" in api.json()["message"]
    csrf = client.post("/api/login", json={"username": "master", "password": "master-demo"})
    page = client.post(
        f"/c/{CAMPAIGN}/clock",
        data={"op": "advance", "by": "9999999d", "csrf": csrf.json()["csrf"]},
        headers={"Accept": "text/html"},
    )
    assert page.status_code == 422 and "out of range" in page.text
    assert "Traceback" not in page.text
    assert version(db) == before


def test_setting_the_clock_near_the_calendars_end_is_refused_and_changes_nothing(
    client: TestClient, master: dict[str, str], db: Database
) -> None:
    before = version(db)
    r = client.post(
        f"/api/campaigns/{CAMPAIGN}/clock?op=set", json={"to": "9999-12-30T00:00"}, headers=master
    )
    assert (r.status_code, r.json()["error"]) == (422, "InvalidInput")
    assert "out of range" in r.json()["message"]
    assert version(db) == before


def test_an_action_dated_past_the_calendar_is_refused_and_changes_nothing(
    client: TestClient, master: dict[str, str], db: Database
) -> None:
    before = version(db)
    r = client.post(
        f"/api/campaigns/{CAMPAIGN}/actions/lose-hits",
        params={"at": "9999-12-31T23:59:59"},
        json={"character": "1006", "hits": 1},
        headers=master,
    )
    assert (r.status_code, r.json()["error"]) == (422, "InvalidInput")
    assert version(db) == before


def test_campaign_parameters_beyond_any_game_are_refused_when_the_campaign_is_made(
    client: TestClient, master: dict[str, str]
) -> None:
    """A wound that turns heavy after 10**15 minutes would overflow every countdown it
    starts; the campaign must be refused, not made unusable (W-WND-08's parameter)."""
    r = client.post(
        "/api/campaigns",
        json={
            "name": "endless",
            "ruleset": "warhammer-larp",
            "params": {"light_to_heavy_unbandaged_minutes": 10**15},
        },
        headers=master,
    )
    assert r.status_code == 422, r.text
    assert "light_to_heavy_unbandaged_minutes" in r.json()["message"]
