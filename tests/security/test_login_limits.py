"""Login limits that cannot lock out the owner of the right password from a device
they use, an X-Forwarded-For nobody believes unless told (issue 15, item 10), and
registrations limited before anything is created, with one answer for a taken name
and a bad code (item 12)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from typer.testing import CliRunner

from lazaretto.api.app import create_app
from lazaretto.cli.app import build
from lazaretto.core.ruleset import Role
from lazaretto.service import accounts as accounts_module
from lazaretto.service.accounts import AccountService, TooManyAttempts, Unauthenticated
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN, seed
from lazaretto.service.login_limits import (
    DEVICE_COOKIE,
    LOGIN_CLIENT_FAILURES_ALLOWED,
    LOGIN_FAILURES_ALLOWED,
    REGISTRATIONS_ALLOWED,
)
from lazaretto.store.db import Database
from lazaretto.store.models import InviteRow, UserRow

TABLET, PHONE, STRANGER = "10.0.0.20", "10.0.0.7", "10.0.0.66"


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database(database_url)
    seed(CampaignService(database), AccountService(database))
    yield database
    database.close()


@pytest.fixture
def app(db: Database) -> FastAPI:
    return create_app(db, ticker=False)


def device(app: FastAPI, address: str) -> TestClient:
    """A browser on a device at ``address``, with its own cookies."""
    return TestClient(app, client=(address, 50000))


def log_in(client: TestClient, user: str, password: str | None = None) -> int:
    body = {"username": user, "password": password or f"{user}-demo"}
    return int(client.post("/api/login", json=body).status_code)


def test_strangers_guessing_a_name_do_not_lock_its_owner_out_of_a_known_device(
    app: FastAPI,
) -> None:
    with device(app, PHONE) as phone, device(app, STRANGER) as stranger:
        assert log_in(phone, "master") == 200  # the phone is known for master from now on
        assert phone.cookies.get(DEVICE_COOKIE)
        guesses = [log_in(stranger, "master", "guess-guess") for _ in range(10)]
        assert guesses == [401] * LOGIN_FAILURES_ALLOWED + [429] * (10 - LOGIN_FAILURES_ALLOWED)
        assert log_in(stranger, "master") == 429  # a stranger stays locked out
        assert log_in(phone, "master") == 200  # the owner is not


def test_twenty_failures_from_a_shared_tablet_do_not_block_its_users(app: FastAPI) -> None:
    with device(app, TABLET) as tablet, device(app, TABLET) as other_browser:
        assert log_in(tablet, "healer") == 200
        assert log_in(tablet, "player") == 200  # one browser, known for both
        for i in range(LOGIN_CLIENT_FAILURES_ALLOWED + 2):  # someone tries many names
            other_browser.post("/api/login", json={"username": f"x{i}", "password": "guess-it"})
        assert log_in(other_browser, "master") == 429  # the address is locked for strangers
        assert log_in(tablet, "healer") == 200 and log_in(tablet, "player") == 200


def test_a_known_device_is_still_limited_for_its_own_guesses(db: Database) -> None:
    accounts = AccountService(db)
    token = accounts.login("healer", "healer-demo", client=TABLET).device
    for _ in range(LOGIN_FAILURES_ALLOWED):
        with pytest.raises(Unauthenticated):
            accounts.login("healer", "guess-guess", client=TABLET, device=token)
    with pytest.raises(TooManyAttempts):
        accounts.login("healer", "healer-demo", client=TABLET, device=token)
    assert accounts.login("player", "player-demo", client=TABLET, device=token).user


def test_a_device_token_we_never_issued_is_replaced_and_known_for_nobody(db: Database) -> None:
    accounts = AccountService(db)
    planted = "a-token-of-my-choosing"
    issued = accounts.login("healer", "healer-demo", client=PHONE, device=planted).device
    assert issued and issued != planted
    for _ in range(LOGIN_FAILURES_ALLOWED):
        with pytest.raises(Unauthenticated):
            accounts.login("healer", "guess-guess", client=STRANGER)
    with pytest.raises(TooManyAttempts):  # the planted token is a stranger's
        accounts.login("healer", "healer-demo", client=PHONE, device=planted)
    assert accounts.login("healer", "healer-demo", client=PHONE, device=issued).user


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What ``uvicorn.run`` was asked to serve (it is not started)."""
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append(options))
    return calls


def test_serve_believes_no_forwarded_for_unless_told(
    database_url: str, served: list[dict[str, Any]]
) -> None:
    for args in ([], ["--workers", "2"], ["--forwarded-allow-ips", "10.0.0.1"]):
        result = CliRunner().invoke(build(), ["--db", database_url, "serve", *args])
        assert result.exit_code == 0, result.output
    default, workers, proxied = served
    for options in (default, workers):
        assert options["proxy_headers"] is False and options["forwarded_allow_ips"] == ""
        config = uvicorn.Config(FastAPI(), **{k: options[k] for k in ("proxy_headers",)})
        assert config.proxy_headers is False
    assert proxied["proxy_headers"] is True and proxied["forwarded_allow_ips"] == "10.0.0.1"


def users(db: Database) -> int:
    with db.transaction(readonly=True) as s:
        return int(s.scalar(select(func.count()).select_from(UserRow)) or 0)


def test_registration_is_limited_per_address_before_it_creates_anything(
    app: FastAPI, db: Database
) -> None:
    code = AccountService(db).invite(CAMPAIGN, Role.PLAYER, "1006")
    with device(app, TABLET) as tablet:
        for i in range(REGISTRATIONS_ALLOWED):
            body = {"username": f"newcomer{i}", "password": "long-enough"}
            assert tablet.post("/api/users", json=body).status_code == 201
        before = users(db)
        body = {"username": "one-too-many", "password": "long-enough", "invite": code}
        refused = tablet.post("/api/users", json=body, headers={"Accept-Language": "ru"})
    assert refused.status_code == 429 and "регистраций" in refused.json()["message"]
    assert users(db) == before  # no account made
    with db.transaction(readonly=True) as s:
        assert s.get(InviteRow, code).used_by is None  # and the code is still unused
    with device(app, PHONE) as phone:  # another device registers as usual
        assert phone.post("/api/users", json=body).status_code == 201


def test_failed_logins_from_an_address_never_leave_a_half_made_registration(
    app: FastAPI, db: Database
) -> None:
    """The old registration created the account, used the invite, then logged in
    through the failed-login limit and could answer 429."""
    code = AccountService(db).invite(CAMPAIGN, Role.PLAYER, "1006")
    with device(app, TABLET) as tablet:
        for i in range(LOGIN_CLIENT_FAILURES_ALLOWED + 1):
            tablet.post("/api/login", json={"username": f"x{i}", "password": "guess-it"})
        body = {"username": "dima", "password": "long-enough", "invite": code}
        r = tablet.post("/api/users", json=body)
    assert r.status_code == 201, r.text
    assert r.json()["username"] == "dima"


def test_a_taken_name_and_a_bad_invite_get_one_answer_after_one_password_hash(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    hashed: list[str] = []
    real = accounts_module.hash_password

    def counting(password: str) -> str:
        hashed.append(password)
        return real(password)

    monkeypatch.setattr(accounts_module, "hash_password", counting)
    answers = []
    with device(app, PHONE) as phone:
        for body in (
            {"username": "master", "password": "long-enough"},  # a name that exists
            {"username": "free-name", "password": "long-enough", "invite": "no-such-code"},
        ):
            r = phone.post("/api/users", json=body, headers={"Accept-Language": "ru"})
            answers.append((r.status_code, r.json()))
    assert answers[0] == answers[1], answers
    assert answers[0][0] == 409 and "master" not in answers[0][1]["message"]
    assert len(hashed) == 2  # a taken name costs the password hash a free one does
