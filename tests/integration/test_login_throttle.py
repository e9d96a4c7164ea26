"""Failed logins are counted in the database: every server process sees the same
count, by username and by client address, and they expire after the window."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from lazaretto.service import accounts as accounts_module
from lazaretto.service.accounts import (
    LOGIN_CLIENT_FAILURES_ALLOWED,
    LOGIN_FAILURES_ALLOWED,
    LOGIN_WINDOW_SECONDS,
    AccountService,
    TooManyAttempts,
    Unauthenticated,
)
from lazaretto.store.db import Database
from lazaretto.store.models import LoginFailureRow

PHONE, LAPTOP = "10.0.0.7", "10.0.0.9"


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    d = Database(database_url)
    AccountService(d).create_user("anna", "anna-secret")
    AccountService(d).create_user("boris", "boris-secret")
    yield d
    d.close()


def fail(svc: AccountService, name: str, client: str = PHONE) -> None:
    with pytest.raises(Unauthenticated):
        svc.login(name, "wrong-guess", client=client)


def stored_failures(db: Database) -> int:
    with db.transaction(readonly=True) as s:
        return int(s.scalar(select(func.count()).select_from(LoginFailureRow)) or 0)


def test_two_server_processes_count_the_same_failures(db: Database) -> None:
    worker_1, worker_2 = AccountService(db), AccountService(db)  # as `serve --workers 2`
    for i in range(LOGIN_FAILURES_ALLOWED):
        fail(worker_1 if i % 2 else worker_2, "anna")
    with pytest.raises(TooManyAttempts):
        worker_1.login("anna", "anna-secret", client=PHONE)  # even the right password
    with pytest.raises(TooManyAttempts):
        worker_2.login("anna", "anna-secret", client=LAPTOP)  # from anywhere
    assert worker_2.login("boris", "boris-secret", client=PHONE).user.username == "boris"


def test_one_device_guessing_across_many_names_is_stopped(db: Database) -> None:
    svc = AccountService(db)
    for i in range(LOGIN_CLIENT_FAILURES_ALLOWED):
        fail(svc, f"guess{i}", client=PHONE)  # one try per name: no name is locked
    with pytest.raises(TooManyAttempts) as refused:
        svc.login("anna", "anna-secret", client=PHONE)
    assert "устройства" in refused.value.text("ru")
    assert svc.login("anna", "anna-secret", client=LAPTOP).user.username == "anna"


def test_a_successful_login_clears_the_names_failures(db: Database) -> None:
    svc = AccountService(db)
    for _ in range(LOGIN_FAILURES_ALLOWED - 1):
        fail(svc, "anna")
    svc.login("anna", "anna-secret", client=PHONE)
    for _ in range(LOGIN_FAILURES_ALLOWED - 1):
        fail(svc, "anna")  # four more are allowed again
    assert svc.login("anna", "anna-secret", client=PHONE).user.username == "anna"


def test_failures_expire_after_the_window_and_are_pruned(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = AccountService(db)
    for _ in range(LOGIN_FAILURES_ALLOWED):
        fail(svc, "anna")
    with pytest.raises(TooManyAttempts):
        svc.login("anna", "anna-secret", client=PHONE)
    later = datetime.now(UTC) + timedelta(seconds=LOGIN_WINDOW_SECONDS + 1)
    monkeypatch.setattr(accounts_module, "_now", lambda: later)
    fail(svc, "boris")  # a new failure prunes the expired ones
    assert stored_failures(db) == 1
    assert svc.login("anna", "anna-secret", client=PHONE).user.username == "anna"


def test_guesses_sent_at_the_same_moment_count_each_other(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten wrong passwords for one name sent at once: at most the limit get their
    password checked (fewer when they all count each other before any check); the
    others are refused before the check, and leave no failure behind."""
    real = accounts_module.verify_password
    checking: list[str] = []
    release = threading.Event()

    def slow_check(password: str, stored: str) -> bool:
        checking.append(password)
        release.wait(timeout=30)  # every guess is in flight before any is answered
        return real(password, stored)

    monkeypatch.setattr(accounts_module, "verify_password", slow_check)
    answers: list[str] = []

    def guess(i: int) -> None:
        try:
            AccountService(db).login("anna", f"guess-{i}", client=f"10.0.0.{i}")
        except (Unauthenticated, TooManyAttempts) as err:
            answers.append(type(err).__name__)

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(10)]
    for th in threads:
        th.start()
    deadline = time.monotonic() + 30
    while len(checking) + len(answers) < 10 and time.monotonic() < deadline:
        time.sleep(0.01)
    release.set()
    for th in threads:
        th.join(timeout=30)
    checked = len(checking)
    assert checked <= LOGIN_FAILURES_ALLOWED
    assert sorted(answers) == ["TooManyAttempts"] * (10 - checked) + ["Unauthenticated"] * checked
    assert stored_failures(db) == checked
