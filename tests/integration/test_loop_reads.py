"""What the event loop asks of a server's campaigns and accounts, it asks without a
database read (issue 25): on the loop a read waits for the interpreter lock behind the
writer thread at every step, under every request the loop is serving. The card's
version is read in a thread (tests/unit/test_fresh_versions.py); a session not in
memory is looked up in a thread, and so is a membership."""

from __future__ import annotations

import threading

from fastapi.testclient import TestClient
from sqlalchemy import event
from tests.integration.test_warm_up import played

from lazaretto.api.app import create_app
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import Membership, User
from lazaretto.service.campaigns import CampaignService
from lazaretto.store.db import Database


def test_once_a_version_is_read_the_card_path_asks_the_database_nothing(db: Database) -> None:
    # the event loop asks this with a version read in a thread (api/fresh.py): a
    # query here would wait for the interpreter lock behind the writer (issue 25)
    played(db, ["field"])
    svc = CampaignService(db)
    svc.warm_up()
    version = svc.version("field")
    assert version is not None
    queries: list[str] = []
    listen = lambda *args: queries.append(args[2])  # noqa: E731
    event.listen(db.engine, "before_cursor_execute", listen)
    try:
        held = svc.parsed_since("field", version)
        assert held is not None and held[2] == version
        assert svc.parsed_since("field", version + 1) is None  # newer than held: parse
        assert svc.ruleset("field").id == "warhammer-larp"
        assert queries == []
    finally:
        event.remove(db.engine, "before_cursor_execute", listen)
    svc.act("field", "lose-hits", {"character": "a", "hits": 1, "location": "arm"})
    assert svc.parsed_since("field", version + 1) is None  # readers have not caught up
    svc.load("field")
    newer = svc.parsed_since("field", version)  # a state newer than asked for will do
    assert newer is not None and newer[2] == version + 1
    assert newer[1].characters["a"].hits == 2


def test_a_session_not_in_memory_is_looked_up_off_the_event_loop(db: Database) -> None:
    played(db, ["field"])
    app = create_app(db, ticker=False)
    accounts = app.state.services.accounts
    accounts.create_user("olga", "long-enough")
    token = accounts.login("olga", "long-enough").token
    looked_up: list[str] = []
    real = accounts.session

    def session(token: str | None) -> tuple[object, str] | None:
        looked_up.append(threading.current_thread().name)
        return real(token)

    accounts.session = session
    with TestClient(app) as client:
        auth = {"Authorization": f"Bearer {token}"}
        loop = client.portal.call(threading.current_thread)  # type: ignore[union-attr]
        assert client.get("/api/campaigns", headers=auth).status_code == 200
        assert client.get("/api/campaigns", headers=auth).status_code == 200
        bad = {"Authorization": "Bearer not-a-session"}
        assert client.get("/api/campaigns", headers=bad).status_code == 401
    # the first and the unknown one read the database, in a thread; the second one
    # found it in memory
    assert [name == loop.name for name in looked_up] == [False, True, False]


def test_a_membership_not_in_memory_is_looked_up_off_the_event_loop(db: Database) -> None:
    played(db, ["field"])
    app = create_app(db, ticker=False)
    accounts = app.state.services.accounts
    olga = accounts.create_user("olga", "long-enough")
    accounts.add_member(olga, "field", Role.MASTER)
    token = accounts.login("olga", "long-enough").token
    asked: list[tuple[str, bool]] = []  # (thread, answered from memory)
    real = accounts.membership

    def membership(user: User, campaign: str) -> Membership:
        asked.append((threading.current_thread().name, accounts.membership_cached(user, campaign)))
        return real(user, campaign)

    accounts.membership = membership
    with TestClient(app) as client:
        auth = {"Authorization": f"Bearer {token}"}
        loop = client.portal.call(threading.current_thread)  # type: ignore[union-attr]
        for _ in range(2):
            card = client.get("/api/campaigns/field/characters/a", headers=auth)
            assert card.status_code == 200 and card.json()["hits"] == 3
    read = [thread for thread, cached in asked if not cached]
    assert read and loop.name not in read  # the database was read, never on the loop
    assert (loop.name, True) in asked  # once in memory, the loop answers from it
