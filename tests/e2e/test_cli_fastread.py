"""The SQLite read path of ``timers`` and ``character show`` (``cli/fastread.py``,
issue 17): it prints exactly what the service's path prints, fires what a running clock
brought due first, and leaves every other case to the service (a database to migrate,
a damaged part)."""

from __future__ import annotations

import json
import shlex
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from click.testing import Result
from tests.e2e.cli_scenarios import SCENARIOS, play
from tests.e2e.clitools import Run, cli_runner, ok, ok_json
from tests.integration.test_store import downgrade

from lazaretto.cli import fastread
from lazaretto.service import state_layout
from lazaretto.service.campaigns import CampaignService
from lazaretto.store.db import HEAD_REVISION, Database


def both_paths(run: Run, monkeypatch: pytest.MonkeyPatch, command: str, lang: str) -> (
    tuple[Result, Result]
):
    """``command`` through the read path, then through the service (LAZARETTO_FASTREAD=0)."""
    fast = run(*shlex.split(command), lang=lang)
    with monkeypatch.context() as m:
        m.setenv("LAZARETTO_FASTREAD", "0")
        slow = run(*shlex.split(command), lang=lang)
    return fast, slow


def same(fast: Result, slow: Result) -> tuple[int, str, str]:
    assert (fast.exit_code, fast.stdout, fast.stderr) == (slow.exit_code, slow.stdout, slow.stderr)
    return fast.exit_code, fast.stdout, fast.stderr


def service(db: Path) -> CampaignService:
    return CampaignService(Database(f"sqlite:///{db}"))


@pytest.mark.parametrize("ruleset", sorted(SCENARIOS))
def test_timers_and_every_card_read_the_same_on_both_paths(
    ruleset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each ruleset's CLI scenario played, then its countdowns and every character's
    card printed from SQLite directly and through the service: the same text and the
    same JSON, in English and Russian. The reader really answers here: it parses the
    state the service loads."""
    db = tmp_path / "c.db"
    run = cli_runner(db)
    play(run, ruleset, "en")
    reader = fastread.open_reader(str(db))
    assert reader is not None
    [name] = reader.campaign_ids()
    got = reader.load(name)
    assert got is not None
    rs, state, version = service(db).load(name)
    assert (got[0].id, got[1].model_dump(), got[2]) == (rs.id, state.model_dump(), version)
    for field in state_layout.split_fields(type(state)):  # entries in the same order too
        assert list(getattr(got[1], field)) == list(getattr(state, field)), field

    cards = [c["id"] for c in ok_json(run("character", "list", "--json"))]
    assert cards
    commands = ["timers", "timers --json"]
    commands += [f"character show {cid}{flag}" for cid in cards for flag in ("", " --json")]
    for lang in ("en", "ru"):
        for command in commands:
            code, out, _ = same(*both_paths(run, monkeypatch, command, lang))
            assert code == 0 and out.strip(), (command, lang)
    # an unknown character is the same refusal either way
    code, _, err = same(*both_paths(run, monkeypatch, "character show nobody", "en"))
    assert code != 0 and "nobody" in err


def test_the_read_path_lists_the_countdowns_soonest_first(tmp_path: Path) -> None:
    """What the read path prints is the campaign's: a wound's 30-minute countdown
    (W-WND-08) and a second one started ten minutes later, soonest first."""
    run = cli_runner(tmp_path / "c.db")
    ok(run("campaign", "create", "w", "--ruleset", "warhammer-larp", "--start",
           "2026-06-13T11:50", "--seed", "1"))
    for cid, name in (("R", "Rustam"), ("A", "Anna")):
        ok(run("character", "add", cid, "--name", name, "--hits", "3"))
    ok(run("act", "lose-hits", "--character", "R", "--hits", "1", "--location", "arm"))
    ok(run("clock", "advance", "10m"))
    ok(run("act", "lose-hits", "--character", "A", "--hits", "1", "--location", "leg"))
    shown = ok_json(run("timers", "--json"))
    assert shown["now"] == "2026-06-13T12:00:00"
    assert [(t["subject"], t["deadline"], t["remaining_seconds"]) for t in shown["timers"]] == [
        ("R", "2026-06-13T12:20:00", 1200),
        ("A", "2026-06-13T12:30:00", 1800),
    ]
    card = ok(run("character", "show", "A"))
    assert card.startswith("Anna (A) — ") and "hits 2/3" in card and "→ 12:30:00" in card


def _realtime_campaign(tmp_path: Path, minutes_ago: int) -> Path:
    """A realtime LARP with a light wound (its countdown: 30 minutes) whose clock
    started ``minutes_ago`` minutes ago, when the wound was recorded, and has run since
    with no command typed."""
    db = tmp_path / "c.db"
    run = cli_runner(db)
    ok(run("campaign", "create", "larp", "--ruleset", "warhammer-larp", "--clock", "realtime",
           "--seed", "1"))
    ok(run("character", "add", "R", "--name", "Rustam", "--hits", "3"))
    ok(run("act", "lose-hits", "--character", "R", "--hits", "1", "--location", "arm"))
    with sqlite3.connect(db) as conn:  # the clock's wall anchor, moved back
        [body] = conn.execute(
            "SELECT body FROM state_parts WHERE campaign_id = 'larp' AND field = ''"
        ).fetchone()
        top = json.loads(body)
        wall = datetime.fromisoformat(top["clock"]["anchor_wall"])
        top["clock"]["anchor_wall"] = (wall - timedelta(minutes=minutes_ago)).isoformat()
        conn.execute(
            "UPDATE state_parts SET body = ? WHERE campaign_id = 'larp' AND field = ''",
            (json.dumps(top),),
        )
    return db


def _version(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT version FROM campaigns").fetchone()[0])


def test_a_running_clock_fires_the_countdown_that_came_due_before_the_read(
    tmp_path: Path,
) -> None:
    """31 minutes after a light wound on a running realtime clock, ``timers`` first
    fires its countdown (the wound turns heavy, W-WND-08) — one write, as on the
    service's path — and shows what follows; 29 minutes after, nothing is due yet:
    nothing is written and the countdown has its last minute to go."""
    due = _realtime_campaign(tmp_path / "due", 31)
    before = _version(due)
    shown = ok_json(cli_runner(due)("timers", "--json"))
    assert _version(due) == before + 1
    assert "light_wound_worsens" not in [t["kind"] for t in shown["timers"]]
    card = ok_json(cli_runner(due)("character", "show", "R", "--json"))
    assert card["state"] == "heavy_unbandaged" and _version(due) == before + 1

    quiet = _realtime_campaign(tmp_path / "quiet", 29)
    before = _version(quiet)
    shown = ok_json(cli_runner(quiet)("timers", "--json"))
    [timer] = shown["timers"]
    assert timer["kind"] == "light_wound_worsens" and 0 < timer["remaining_seconds"] <= 60
    card = ok_json(cli_runner(quiet)("character", "show", "R", "--json"))
    assert card["state"] == "light" and _version(quiet) == before


def test_a_database_to_migrate_is_read_by_the_service_which_migrates_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database one migration behind (revision 0008, the state one JSON document) is
    not read directly: ``timers`` goes to the service, which migrates it, and prints
    what it printed before."""
    db = tmp_path / "c.db"
    run = cli_runner(db)
    ok(run("campaign", "create", "w", "--ruleset", "warhammer-larp", "--start",
           "2026-06-13T11:50", "--seed", "1"))
    ok(run("character", "add", "R", "--name", "Rustam", "--hits", "3"))
    ok(run("act", "lose-hits", "--character", "R", "--hits", "1", "--location", "arm"))
    before = ok(run("timers"))
    old = Database(f"sqlite:///{db}")
    downgrade(old, "0008")
    old.close()
    assert fastread.open_reader(str(db)) is None
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == ("0008",)
    assert ok(run("timers")) == before
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == (
            HEAD_REVISION,
        )
    reader = fastread.open_reader(str(db))
    assert reader is not None and reader.campaign_ids() == ["w"]


def test_a_damaged_part_gets_the_services_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A campaign whose stored state cannot be parsed: the read path does not guess,
    the service answers, so both paths print the same one-line error and exit code
    (and a healthy campaign of the same database still reads)."""
    db = tmp_path / "c.db"
    run = cli_runner(db)
    for name in ("bad", "good"):
        ok(run("campaign", "create", name, "--ruleset", "warhammer-larp", "--start",
               "2026-06-13T11:50", "--seed", "1"))
        ok(run("--campaign", name, "character", "add", "R", "--name", "Rustam"))
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE state_parts SET body = '{\"clock\": 7' WHERE campaign_id = 'bad' AND field = ''"
        )
    code, _, err = same(*both_paths(run, monkeypatch, "--campaign bad timers", "en"))
    assert code != 0 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    code, out, _ = same(*both_paths(run, monkeypatch, "--campaign good character show R", "en"))
    assert code == 0 and out.startswith("Rustam (R)")
    reader = fastread.open_reader(str(db))
    assert reader is not None and reader.load("good") is not None
    with pytest.raises(ValueError):  # pydantic's ValidationError: no state is made up
        reader.load("bad")


def test_a_file_that_is_not_a_database_gets_the_services_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``--db`` file that is no SQLite database (a copy cut short, a wrong path):
    no reader opens it, and both paths give the service's one-line refusal (restore
    a backup, exit 9)."""
    db = tmp_path / "c.db"
    db.write_bytes(b"these are not the pages of a database\n" * 200)
    assert fastread.open_reader(str(db)) is None
    code, _, err = same(*both_paths(cli_runner(db), monkeypatch, "timers", "en"))
    assert code == 9 and "backup" in err and len(err.strip().splitlines()) == 1
