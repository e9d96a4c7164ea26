"""A countdown of days reads with its date (``reading/lines.hhmm``): a D&D injury that
heals in one day read "since 19:00:00 → 19:00:00" in ``character show``, "at 19:00:00"
in ``timers`` and the log, as if it ended the moment it began; a clock moved past
midnight printed what it fired with the time of day only; the log had no days."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.e2e.clitools import Run, cli_runner, ok

from lazaretto.reading.lines import hhmm


def test_a_time_has_its_date_when_it_falls_on_another_day() -> None:
    assert hhmm("2026-06-14T19:00:00", "2026-06-13T19:00:00") == "2026-06-14 19:00:00"
    assert hhmm("2026-06-13T23:59:59", "2026-06-13T00:00:00") == "23:59:59"  # the same day
    assert hhmm("2026-06-12T08:00:00", "2026-06-13T08:00:00") == "2026-06-12 08:00:00"
    assert hhmm("2026-06-14T19:00:00") == "19:00:00"  # nothing to read it against


@pytest.fixture
def run(tmp_path: Path) -> Run:
    """Thorin, a D&D character, with a tendon injury that heals by itself in one day."""
    run = cli_runner(tmp_path / "d.db")
    for args in (
        ("campaign", "create", "table", "--ruleset", "dnd5e-injuries", "--clock", "manual",
         "--start", "2026-06-13T19:00"),
        ("character", "add", "thor", "--name", "Thorin"),
        ("act", "set-dnd-stats", "--character", "thor", "--con", "14", "--proficiency", "2",
         "--level", "3", "--hp-max", "28", "--hp", "28", "--ac", "16"),
        ("act", "take-damage", "--character", "thor", "--damage", "12", "--damage-type",
         "slashing", "--critical"),
    ):  # fmt: skip
        ok(run(*args))
    rolled = ok(run("act", "roll-injury", "--character", "thor", "--location-roll", "3"))
    assert "Tendon" in rolled and "2026-06-14 19:00:00" in rolled  # D-TAB-34: one day
    return run


def test_a_day_long_countdown_shows_its_date_on_the_card_and_in_timers(run: Run) -> None:
    card = ok(run("character", "show", "thor")).splitlines()
    assert "since 19:00:00 → 2026-06-14 19:00:00" in card[1], card
    assert "с 19:00:00 → 2026-06-14 19:00:00" in ok(run("character", "show", "thor", lang="ru"))
    assert "│ 2026-06-14 19:00:00 │ 24h00m00s │" in ok(run("timers"))
    assert "2026-06-14 19:00:00" in ok(run("character", "list"))


def test_a_clock_moved_past_midnight_dates_what_it_fired_and_the_log_has_days(
    run: Run,
) -> None:
    moved = ok(run("clock", "advance", "25h")).splitlines()
    assert moved[0].startswith("2026-06-14 19:00:00  Thorin: Tendon healed"), moved
    log = ok(run("log")).splitlines()
    assert log[0] == "— 2026-06-13 —" and log.count("— 2026-06-14 —") == 1
    after = log[log.index("— 2026-06-14 —") + 1 :]
    assert after and all("2026-06-13" not in line for line in after)
    assert "19:00:00  Thorin" in after[0]  # within a day, the time of day


def test_records_and_the_journal_date_what_is_not_of_today(run: Run, tmp_path: Path) -> None:
    """A LARP runs over days too: Saturday's admission read on Sunday has its date."""
    ok(run("clock", "advance", "25h"))
    records = ok(run("records")).splitlines()
    assert records[0].startswith("r1     2026-06-13 19:00:00  character")
    assert records[-1].startswith("r5     20:00:00             clock")  # today: time only
    from tests.e2e.test_cli_history import field_day

    larp = cli_runner(tmp_path / "larp.db")
    field_day(larp)  # warhammer-larp, 2026-06-13 11:50
    ok(larp("act", "register-hospital", "--id", "h1", "--name", "Shallya", "--number", "7",
            "--tables", "id=t1", "--beds", "id=b1", "--beds", "id=b2"))  # fmt: skip
    ok(larp("act", "lose-hits", "--character", "B", "--hits", "1"))
    ok(larp("act", "admit", "--hospital", "h1", "--patient", "B", "--healer", "A"))
    assert "│ 11:50:00 │" in ok(larp("journal", env={"COLUMNS": "200"}))
    ok(larp("clock", "advance", "1d"))
    assert "│ 2026-06-13 11:50:00 │" in ok(larp("journal", env={"COLUMNS": "200"}))
