"""What the CLI's SQLite write path (``cli/fastwrite.py``, issue 17) leaves to the
service, which then answers as it always did: PostgreSQL, a record placed in the past
(the history runs again), a database to migrate, a damaged part. And what it takes: an
action at the campaign's present or ahead of it."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest
from click.testing import Result
from tests.e2e.clitools import Run, cli_runner, ok, ok_json
from tests.integration.test_store import downgrade
from typer.testing import CliRunner

from lazaretto.cli import fastwrite
from lazaretto.cli.app import build
from lazaretto.store.db import HEAD_REVISION, Database

KIT = [x for item in ("hourglass_10min", "needle", "thread", "plaster", "bandages", "mask",
                      "gloves", "mat_materials") for x in ("--items", item)]
"""A healer's complete kit (W-DEF-08)."""
WOUND = ("act", "lose-hits", "--character", "R", "--hits", "1", "--location", "arm")
WOUNDED = [
    "08:00:00  Rustam lost 1 hit(s), 2 left  [W-DEF-02, W-DEF-06]",
    "08:00:00  countdown: light wound turns heavy — Rustam at 08:30:00  [W-WND-08, W-DEF-07]",
    "08:00:00  Rustam: light wound, turns heavy at 08:30:00 without a bandage  "
    "[W-DEF-06, W-WND-07]",
    "record 2 (undo: lazaretto undo 2)",
]
"""What a first light wound of Rustam's prints (W-DEF-02, W-WND-08), whichever path."""


@pytest.fixture
def commits(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The campaigns whose action the write path committed."""
    done: list[str] = []
    real = fastwrite.Change.commit

    def counted(self: fastwrite.Change) -> None:
        real(self)
        done.append(self.campaign)

    monkeypatch.setattr(fastwrite.Change, "commit", counted)
    yield done


def runner_on(url: str) -> Run:
    """The CLI on a database URL (or file)."""
    app, runner = build(), CliRunner()

    def invoke(*args: str, lang: str = "en") -> Result:
        env = {"LAZARETTO_DB": url, "LAZARETTO_LANG": lang, "LAZARETTO_CAMPAIGN": None}
        return cast(Result, runner.invoke(app, list(args), env=env))

    return invoke


def start(run: Run) -> None:
    ok(run("campaign", "create", "w", "--ruleset", "warhammer-larp", "--start",
           "2026-06-13T08:00", "--seed", "1"))
    ok(run("character", "add", "R", "--name", "Rustam", "--hits", "3"))


def records(run: Run) -> list[int]:
    return [r["record"] for r in ok_json(run("records", "--json"))]


def test_an_action_is_written_directly_on_sqlite_and_by_the_service_on_postgresql(
    database_url: str, commits: list[str]
) -> None:
    """The same wound on each backend prints the same lines; on SQLite the write path
    recorded it, on PostgreSQL the service did (the write path knows SQLite only)."""
    run = runner_on(database_url)
    start(run)
    assert ok(run(*WOUND)).splitlines() == WOUNDED
    on_sqlite = database_url.startswith("sqlite")
    assert commits == (["w"] if on_sqlite else [])
    card = ok_json(run("character", "show", "R", "--json"))
    assert card["hits"] == 2 and records(run) == [1, 2]
    assert "match" in ok(run("replay"))


def test_a_record_placed_in_the_past_goes_to_the_service_which_runs_the_history_again(
    tmp_path: Path, commits: list[str]
) -> None:
    """A wound at 08:00, the clock moved to 08:40 (the wound turned heavy at 08:30,
    W-WND-08), then the bandage typed in late at 08:10: the write path leaves it to the
    service, which places it at 08:10, runs the history again (the wound never turned
    heavy) and prints the correction; an action ahead of the clock (``--at +5m``) is
    in order, and the write path records it."""
    run = cli_runner(tmp_path / "c.db")
    start(run)
    ok(run("character", "add", "H", "--name", "Hilda", "--skill", "Healer"))
    ok(run("act", "check-kit", "--healer", "H", *KIT))
    ok(run("act", "register-mat", "--id", "mat", "--healer", "H", "--length-cm", "180",
           "--width-cm", "60"))
    ok(run(*WOUND))
    ok(run("clock", "advance", "40m"))
    assert ok_json(run("character", "show", "R", "--json"))["state"] == "heavy_unbandaged"
    before = len(commits)
    late = ok(run("act", "apply-bandage", "--healer", "H", "--patient", "R", "--bandages",
                  "1", "--mat", "mat", "--at", "08:10", "--move-clock"))
    assert len(commits) == before  # the service's work
    assert "UNDONE: " in late and "record 7 (undo: lazaretto undo 7)" in late
    assert ok_json(run("character", "show", "R", "--json"))["state"] != "heavy_unbandaged"
    ahead = ok(run("act", "lose-hits", "--character", "H", "--hits", "1",
                   "--at", "+5m", "--move-clock"))
    assert len(commits) == before + 1 and ahead.startswith("08:45:00  Hilda lost 1 hit(s)")
    assert records(run) == list(range(1, 9))
    assert "match" in ok(run("replay"))


def test_a_database_to_migrate_is_written_by_the_service_which_migrates_it(
    tmp_path: Path, commits: list[str]
) -> None:
    """A database one migration behind (0008: the state one document): the write path
    does not touch it; the service migrates it and records the wound, which prints
    what it prints on a database at the newest schema."""
    db = tmp_path / "c.db"
    run = cli_runner(db)
    start(run)
    old = Database(f"sqlite:///{db}")
    downgrade(old, "0008")
    old.close()
    assert ok(run(*WOUND)).splitlines() == WOUNDED
    assert commits == []
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == (
            HEAD_REVISION,
        )
    ok(run("act", "lose-hits", "--character", "R", "--hits", "1", "--location", "leg"))
    assert commits == ["w"] and records(run) == [1, 2, 3]


def test_a_damaged_part_gets_the_services_answer_and_nothing_is_written(
    tmp_path: Path, commits: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A campaign whose stored state cannot be parsed: the write path does not guess,
    the service refuses in one line, with the same words and code either way, and the
    campaign's version is where it was."""
    db = tmp_path / "c.db"
    run = cli_runner(db)
    start(run)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE state_parts SET body = '{\"clock\": 7' WHERE field = ''")
    fast = run(*WOUND)
    monkeypatch.setenv("LAZARETTO_FASTWRITE", "0")
    slow = run(*WOUND)
    assert (fast.exit_code, fast.stderr) == (slow.exit_code, slow.stderr)
    assert fast.exit_code != 0 and len(fast.stderr.strip().splitlines()) == 1
    assert commits == []
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT version FROM campaigns").fetchone() == (2,)
