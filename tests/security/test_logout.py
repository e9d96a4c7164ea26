"""Logout (issue 15, item 11): it ends the session the request authenticated with —
whatever the spacing after ``Bearer``, and never the cookie's session when the request
authenticated with a token (or the other way round)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from lazaretto.api.app import create_app
from lazaretto.api.context import COOKIE
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import seed
from lazaretto.store.db import Database
from tests.e2e.webtools import hidden


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    db = Database(database_url)
    seed(CampaignService(db), AccountService(db))
    with TestClient(create_app(db, ticker=False)) as c:
        yield c
    db.close()


def token(client: TestClient, user: str = "master") -> str:
    r = client.post("/api/login", json={"username": user, "password": f"{user}-demo"})
    client.cookies.clear()
    return str(r.json()["token"])


def alive(client: TestClient, tok: str) -> bool:
    """Whether ``tok`` still authenticates (asked without the client's cookies)."""
    kept = dict(client.cookies)
    client.cookies.clear()
    r = client.get("/api/campaigns", headers={"Authorization": f"Bearer {tok}"})
    client.cookies.update(kept)
    return r.status_code == 200


@pytest.mark.parametrize("header", ["Bearer  {}", "bearer {}", "Bearer {} ", "BEARER\t{}"])
def test_a_logout_ends_the_token_it_authenticated_with_whatever_the_spacing(
    client: TestClient, header: str
) -> None:
    tok = token(client)
    r = client.post("/api/logout", headers={"Authorization": header.format(tok)})
    if r.status_code == 204:
        assert not alive(client, tok), "204 but the session still works"
    else:  # a header we do not read is not a login at all
        assert r.status_code == 401 and alive(client, tok)


def test_with_a_token_and_a_cookie_the_token_logging_out_ends_the_token(
    client: TestClient,
) -> None:
    cookie_session, bearer = token(client, "master"), token(client, "healer")
    client.cookies.set(COOKIE, cookie_session)
    r = client.post("/api/logout", headers={"Authorization": f"Bearer {bearer}"})
    assert r.status_code == 204
    assert not alive(client, bearer)  # the session it authenticated as is over
    assert alive(client, cookie_session)  # the other one is not ended behind its back


def test_a_web_logout_with_a_token_header_ends_that_session_not_the_cookies(
    client: TestClient,
) -> None:
    client.headers["Accept"] = "text/html"
    form = client.get("/login")
    data = {"username": "master", "password": "master-demo", "pre": hidden(form.text, "pre")}
    assert client.post("/login", data=data, follow_redirects=False).status_code == 303
    cookie_session = client.cookies[COOKIE]
    bearer = token(client, "healer")
    client.cookies.set(COOKIE, cookie_session)
    head = {"Authorization": f"Bearer {bearer}"}
    csrf = hidden(client.get("/", headers=head).text, "csrf")  # the healer's page and token
    r = client.post("/logout", data={"csrf": csrf}, headers=head, follow_redirects=False)
    assert r.status_code == 303
    assert not alive(client, bearer) and alive(client, cookie_session)
