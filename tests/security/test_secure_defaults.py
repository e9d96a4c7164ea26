"""Secure defaults: ``lazaretto serve`` listens on localhost unless told otherwise, runs
without debug; an unexpected error
reaches nobody as a traceback; cookies are HttpOnly (Secure when asked); repeated failed
logins are slowed down on the form as in the API, and an unknown name costs as much
checking as a wrong password."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from lazaretto.api.app import create_app
from lazaretto.cli.app import build
from lazaretto.service import accounts as accounts_module
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import seed
from lazaretto.store.db import Database
from tests.e2e.webtools import hidden


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What ``uvicorn.run`` was asked to serve (it is not started)."""
    calls: list[dict[str, Any]] = []

    def run(app: FastAPI, **options: Any) -> None:
        calls.append({"app": app, **options})

    monkeypatch.setattr(uvicorn, "run", run)
    return calls


def serve(database_url: str, *args: str) -> None:
    result = CliRunner().invoke(build(), ["--db", database_url, "serve", *args])
    assert result.exit_code == 0, (result.output, result.exception)


def test_serve_listens_on_localhost_unless_told_otherwise(
    database_url: str, served: list[dict[str, Any]]
) -> None:
    serve(database_url)
    serve(database_url, "--host", "0.0.0.0", "--port", "8080")
    assert (served[0]["host"], served[0]["port"]) == ("127.0.0.1", 8000)
    assert (served[1]["host"], served[1]["port"]) == ("0.0.0.0", 8080)
    assert all(not call.get("reload") for call in served)


def test_the_served_app_runs_without_debug(
    database_url: str, served: list[dict[str, Any]]
) -> None:
    serve(database_url)
    app = served[0]["app"]
    assert isinstance(app, FastAPI) and app.debug is False


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database(database_url)
    seed(CampaignService(database), AccountService(database))
    yield database
    database.close()


def test_an_unexpected_error_is_a_json_500_without_a_traceback(db: Database) -> None:
    app = create_app(db, ticker=False)

    @app.get("/api/test-only/boom")
    def boom() -> None:
        raise RuntimeError("secret internals: /srv/lazaretto/db password=hunter2")

    with TestClient(app, raise_server_exceptions=False) as client:
        for accept in ("application/json", "text/html"):
            r = client.get("/api/test-only/boom", headers={"Accept": accept})
            assert r.status_code == 500
            assert r.json() == {
                "error": "InternalError",
                "message": "internal error; it has been logged",
                "rule_ids": [],
            }
            assert "Traceback" not in r.text and "hunter2" not in r.text


@pytest.mark.parametrize("secure", [False, True])
def test_session_cookies_are_http_only_and_secure_when_asked(db: Database, secure: bool) -> None:
    with TestClient(create_app(db, ticker=False, secure_cookies=secure)) as client:
        api = client.post("/api/login", json={"username": "master", "password": "master-demo"})
        client.cookies.clear()
        form = client.get("/login")
        page = client.post(
            "/login",
            data={"username": "healer", "password": "healer-demo", "pre": hidden(form.text, "pre")},
            follow_redirects=False,
        )
    for response in (api, page):
        cookie = response.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie
        assert ("; secure" in cookie) is secure


def test_repeated_failed_logins_on_the_form_are_slowed_down(db: Database) -> None:
    with TestClient(create_app(db, ticker=False)) as client:
        pre = hidden(client.get("/login").text, "pre")

        def attempt(password: str) -> int:
            data = {"username": "healer", "password": password, "pre": pre}
            return int(client.post("/login", data=data, follow_redirects=False).status_code)

        assert [attempt("guess-guess") for _ in range(5)] == [401] * 5
        assert attempt("healer-demo") == 429  # even the right password, for a while


def test_an_unknown_username_costs_a_password_check_like_a_known_one(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No quick "no such user": the time of an answer tells nothing about who exists."""
    checked: list[str] = []
    real = accounts_module.verify_password

    def counting(password: str, stored: str) -> bool:
        checked.append(password)
        return real(password, stored)

    monkeypatch.setattr(accounts_module, "verify_password", counting)
    accounts = AccountService(db)
    for name in ("healer", "nobody-at-all"):
        with pytest.raises(accounts_module.Unauthenticated):
            accounts.login(name, "wrong-password")
    assert checked == ["wrong-password", "wrong-password"]
