"""Issue 15, item 16: no page can be framed by another site; a storage error answers
in our shape and the caller's language without the driver's internals (which go to
the log); a damaged database says to restore a backup (API, web, CLI); a NUL
character is refused with a clear 422 wherever text comes in, and nothing is stored."""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from lazaretto.api.app import create_app
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN, seed
from lazaretto.store.db import Database
from tests.e2e.clitools import cli_runner, refused
from tests.e2e.webtools import C, hidden

DAMAGED = {
    "en": "The database is damaged: restore a backup (lazaretto restore FILE)",
    "ru": "База данных повреждена: восстановите резервную копию (lazaretto restore ФАЙЛ)",
}


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database(database_url)
    seed(CampaignService(database), AccountService(database))
    yield database
    database.close()


@pytest.fixture
def client(db: Database) -> Iterator[TestClient]:
    app = create_app(db, ticker=False)

    @app.get("/api/test-only/boom")
    def boom() -> None:
        raise RuntimeError("boom")

    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def bearer(client: TestClient, user: str = "master") -> dict[str, str]:
    r = client.post("/api/login", json={"username": user, "password": f"{user}-demo"})
    client.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


def test_every_answer_forbids_framing(client: TestClient) -> None:
    answers = [
        client.get("/login", headers={"Accept": "text/html"}),
        client.get("/api/campaigns"),  # 401
        client.get("/api/no-such-thing"),  # 404
        client.get("/static/app.css"),
        client.get("/docs"),
        client.post("/api/login", content=b"x" * 1_000_001),  # 413
        client.get("/api/test-only/boom"),  # 500
        client.get(f"{C}/journal", headers={**bearer(client), "Accept": "text/html"}),
    ]
    for r in answers:
        assert r.headers.get("x-frame-options") == "DENY", (r.request.url, r.status_code)
        assert r.headers.get("content-security-policy") == "frame-ancestors 'none'"


def test_only_an_answer_over_https_says_strict_transport_security(client: TestClient) -> None:
    """Issue 28 L9: HTTPS answers said no Strict-Transport-Security, so a phone could be
    led back to plain HTTP on the field Wi-Fi; over plain HTTP it must not be said (a
    browser ignores it there, and a proxy in front may speak HTTPS for us)."""
    plain = client.get("/login", headers={"Accept": "text/html"})
    assert "strict-transport-security" not in plain.headers
    safe = client.get("https://testserver/login", headers={"Accept": "text/html"})
    assert safe.status_code == 200
    assert safe.headers["strict-transport-security"] == "max-age=31536000"


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_storage_error_answers_generic_words_and_logs_the_details(
    client: TestClient, db: Database, caplog: pytest.LogCaptureFixture, language: str
) -> None:
    head = bearer(client)
    with db.engine.begin() as conn:  # the schema broken under the running server
        conn.execute(text("DROP TABLE invites"))
    caplog.set_level(logging.ERROR, logger="lazaretto")
    api = client.post(
        f"/api/campaigns/{CAMPAIGN}/invites",
        json={"role": "player"},
        headers={**head, "Accept-Language": language},
    )
    assert api.status_code == 503
    body = api.json()
    assert body["error"] == "StorageError" and set(body) == {"error", "message", "rule_ids"}
    for internal in ("invites", "sqlalchemy", "sqlite", "psycopg", "INSERT", "Error:"):
        assert internal.lower() not in body["message"].lower(), body
    assert ("базу данных" in body["message"]) is (language == "ru")
    assert "invites" in caplog.text  # the operator finds the cause in the log
    page = client.get(
        "/api/test-only/boom", headers={"Accept": "text/html", "Accept-Language": language}
    )
    assert page.status_code == 500  # the unexpected stays unexpected
    form = client.get(f"/join?lang={language}", headers={**head, "Accept": "text/html"})
    joined = client.post(
        f"/join?lang={language}",
        data={"code": "anything", "csrf": hidden(form.text, "csrf")},
        headers={**head, "Accept": "text/html"},
    )
    assert joined.status_code == 503 and "invites" not in joined.text.lower()
    assert ("базу данных" in joined.text) is (language == "ru")


def damage(path: Path) -> None:
    """Overwrite the file with what no database reads, as a failing card would."""
    size = path.stat().st_size
    with path.open("r+b") as f:
        f.write(os.urandom(size))
    for extra in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        extra.unlink(missing_ok=True)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_damaged_database_says_to_restore_a_backup_on_the_api_and_the_web(
    tmp_path: Path, language: str
) -> None:
    file = tmp_path / "field.db"
    database = Database(f"sqlite:///{file}")
    seed(CampaignService(database), AccountService(database))
    with TestClient(create_app(database, ticker=False)) as client:
        head = {**bearer(client), "Accept-Language": language}
        database.engine.dispose()  # the next request opens the file afresh
        damage(file)
        api = client.get(f"/api/campaigns/{CAMPAIGN}/characters", headers=head)
        page = client.get(f"{C}?lang={language}", headers={**head, "Accept": "text/html"})
    database.close()
    assert api.status_code == 503 and api.json()["message"] == DAMAGED[language]
    assert api.json()["error"] == "DamagedDatabase"
    assert page.status_code == 503 and DAMAGED[language].split(":")[0] in page.text


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_damaged_database_says_to_restore_a_backup_on_the_cli(
    tmp_path: Path, language: str
) -> None:
    run = cli_runner(tmp_path / "c.db")
    assert run("campaign", "create", "fd", "--clock", "manual").exit_code == 0
    damage(tmp_path / "c.db")
    line = refused(run("campaign", "list", lang=language), 9)
    assert line.endswith(DAMAGED[language])


def test_a_malformed_page_is_damage_too(tmp_path: Path) -> None:
    run = cli_runner(tmp_path / "c.db")
    assert run("campaign", "create", "fd", "--clock", "manual").exit_code == 0
    assert run("character", "add", "c1", "--name", "Rustam").exit_code == 0
    file = tmp_path / "c.db"
    with sqlite3.connect(file) as conn:  # everything into the main file
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = file.stat().st_size
    with file.open("r+b") as f:  # the header and the schema intact, the tables not
        f.seek(4096)
        f.write(os.urandom(size - 4096))
    line = refused(run("character", "list"), 9)
    assert line.endswith(DAMAGED["en"])


def nul_requests(client: TestClient) -> list[tuple[str, int]]:
    head = bearer(client)
    api = f"/api/campaigns/{CAMPAIGN}"
    answers = [
        client.post("/api/users", json={"username": "eve\u0000", "password": "long-password"}),
        client.post(f"{api}/characters", json={"id": "N1", "name": "Ru\u0000stam"}, headers=head),
        client.post(
            f"{api}/actions/lose-hits",
            json={"character": "1001", "hits": 1, "location": "arm\u0000"},
            headers=head,
        ),
        client.post(
            f"{api}/actions/lose-hits",
            content=b'{"character": "1001", "hits": 1, "location": "arm\\u0000"}',
            headers={**head, "Content-Type": "application/json"},
        ),
        client.get(f"{api}/journal?hospital=h1%00", headers=head),
    ]
    form = client.get(f"{C}/act/lose-hits?character=1001", headers={**head, "Accept": "text/html"})
    answers.append(
        client.post(
            f"{C}/act/lose-hits",
            data={"character": "1001", "hits": "1", "location": "arm\x00", "csrf": "x"},
            headers={**head, "Accept": "text/html"},
        )
    )
    assert form.status_code == 200
    return [(str(r.request.url), r.status_code) for r in answers]


def test_a_nul_character_is_refused_everywhere_with_a_clear_422(
    client: TestClient, db: Database
) -> None:
    before = len(CampaignService(db).events(CAMPAIGN))
    answers = nul_requests(client)
    assert [code for _, code in answers] == [422] * len(answers), answers
    assert len(CampaignService(db).events(CAMPAIGN)) == before
    ru = client.post(
        "/api/users",
        json={"username": "eve", "password": "long-pass\u0000word"},
        headers={"Accept-Language": "ru"},
    )
    assert ru.status_code == 422 and "NUL" in ru.json()["message"]
    assert "символ" in ru.json()["message"]


def test_an_escaped_backslash_before_u0000_is_ordinary_text(client: TestClient) -> None:
    head = bearer(client)
    r = client.post(
        f"/api/campaigns/{CAMPAIGN}/actions/lose-hits",
        content=b'{"character": "1001", "hits": 1, "location": "C:\\\\u0000"}',
        headers={**head, "Content-Type": "application/json"},
    )
    assert r.status_code == 200, r.text
