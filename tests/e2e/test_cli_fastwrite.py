"""The SQLite write path of ``lazaretto act`` (``cli/fastwrite.py``, issue 17): it writes
exactly the rows the service writes and prints what the service's path prints, and
leaves every other case to the service (a record placed in the past, a database to
migrate, PostgreSQL).

Each session is played twice on fresh databases, once with the write path turned off
(``LAZARETTO_FASTWRITE=0``: every action through ``CampaignService``) and once on,
and every table is compared row by row. Only the wall-clock values differ between two
runs and are left out of the comparison (:data:`WALL_CLOCK`).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from tests.e2e.cli_scenarios import SCENARIOS, play
from tests.e2e.clitools import Run, cli_runner

from lazaretto.cli import fastwrite

KIT = [x for item in ("hourglass_10min", "needle", "thread", "plaster", "bandages", "mask",
                      "gloves", "mat_materials") for x in ("--items", item)]
"""A healer's complete kit (W-DEF-08)."""

WALL_CLOCK: dict[str, tuple[str, ...]] = {
    "campaigns": ("created_wall",),
    "records": ("wall",),
    "events": ("wall",),
    "corrections": ("wall", "event.wall"),  # the corrected event's own arrival time
}
"""The columns (``column.key``: a key of a JSON column) that hold wall-clock times:
when a campaign was made, a record arrived, an event happened, a correction was made.
Nothing else may differ between the two paths."""

WALL_CLOCK_SHOWN = re.compile(r"(\(entered|внесено в|, at|, в) \d\d:\d\d(?=[,)])")
"""Where printed output shows a wall-clock time: when the record a correction names was
entered (``cmd_history.cause_text``: "entered 10:08," / "внесено в 10:08,", and for an
undo "at 10:08)" / "в 10:08)")."""


def tables(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows, wall-clock values blanked, in a stable order."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    with sqlite3.connect(db) as conn:
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )]
        for name in sorted(names):
            cur = conn.execute(f'SELECT * FROM "{name}"')
            cols = [d[0] for d in cur.description]
            wall = WALL_CLOCK.get(name, ())
            rows = []
            for row in cur:
                values = list(row)
                for i, col in enumerate(cols):
                    if col in wall:
                        values[i] = "<wall>"
                    keys = [w.split(".", 1)[1] for w in wall if w.startswith(col + ".")]
                    if keys and values[i] is not None:
                        doc = json.loads(values[i])
                        for key in keys:
                            doc[key] = "<wall>"
                        values[i] = json.dumps(doc)
                rows.append(tuple(values))
            out[name] = sorted(rows, key=repr)
    return out


@pytest.fixture
def commits(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The campaigns whose action the write path committed (it did answer)."""
    done: list[str] = []
    real = fastwrite.Change.commit

    def counted(self: fastwrite.Change) -> None:
        real(self)
        done.append(self.campaign)

    monkeypatch.setattr(fastwrite.Change, "commit", counted)
    yield done


def played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fast: bool,
           session: Any) -> tuple[list[tuple[str, int, str, str]], dict[str, Any]]:
    """``session(run)`` on a fresh database with the write path on or off: what each
    command printed, and the tables after."""
    db = tmp_path / ("fast" if fast else "service") / "c.db"
    db.parent.mkdir()
    run = cli_runner(db)
    with monkeypatch.context() as m:
        m.setenv("LAZARETTO_FASTWRITE", "1" if fast else "0")
        m.setenv("LAZARETTO_FASTREAD", "1" if fast else "0")  # off: the service alone
        results: list[tuple[str, Result]] = session(run)
    def plain(text: str) -> str:
        return WALL_CLOCK_SHOWN.sub(r"\1 <wall>", text)

    shown = [(c, r.exit_code, plain(r.stdout), plain(r.stderr)) for c, r in results]
    return shown, tables(db)


def same_both_ways(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, commits: list[str],
                   session: Any) -> list[tuple[str, int, str, str]]:
    slow_shown, slow_tables = played(tmp_path, monkeypatch, False, session)
    assert commits == []
    fast_shown, fast_tables = played(tmp_path, monkeypatch, True, session)
    assert commits, "the write path never answered"
    for (command, *fast), (_, *slow) in zip(fast_shown, slow_shown, strict=True):
        assert fast == slow, command
    assert fast_tables.keys() == slow_tables.keys()
    for name in fast_tables:
        assert fast_tables[name] == slow_tables[name], name
    return fast_shown


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("ruleset", sorted(SCENARIOS))
def test_each_rulesets_session_writes_and_prints_the_same_on_both_paths(
    ruleset: str, lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    commits: list[str],
) -> None:
    """Each ruleset's CLI scenario (actions accepted and refused, clock moves, records
    placed in the past that re-run the history, queries, the log, the cards) played
    through the service only and with the write path: the same lines printed and
    every table the same row by row."""
    seeded = [  # a campaign made without a seed draws one: both runs get the same
        f"{line} --seed 5" if line.startswith("campaign create") and "--seed" not in line
        else line
        for line in SCENARIOS[ruleset].splitlines()
    ]
    monkeypatch.setitem(SCENARIOS, ruleset, "\n".join(seeded) + "\n")
    shown = same_both_ways(tmp_path, monkeypatch, commits, lambda run: play(run, ruleset, lang))
    acts = [c for c, code, _, _ in shown if c.startswith("act ") and code == 0]
    assert len(commits) <= len(acts) and len(commits) >= len(acts) // 2


def long_session(run: Run) -> list[tuple[str, Result]]:
    """A LARP evening of 650 records: wounds, cures, bandages, countdowns firing as the
    clock moves, some records typed in late. It crosses six checkpoints (every 100
    records) and the tombstone sweeps at versions 600 and beyond (every 100 versions,
    dropping tombstones older than 500 versions)."""
    out: list[tuple[str, Result]] = []

    def do(*args: str) -> None:
        out.append((" ".join(args), run(*args)))

    do("campaign", "create", "night", "--ruleset", "warhammer-larp", "--start",
       "2026-06-13T20:00", "--seed", "7")
    do("character", "add", "H", "--name", "Hilda", "--skill", "Healer")
    do("act", "check-kit", "--healer", "H", *KIT)
    do("act", "register-mat", "--id", "mat", "--healer", "H", "--length-cm", "180",
       "--width-cm", "60")
    people = [f"p{i}" for i in range(12)]
    for p in people:
        do("character", "add", p, "--name", f"Soldier {p}", "--hits", "1000")
    minute = 0
    step = 0
    while len([c for c, r in out if r.exit_code == 0 and not c.startswith("log")]) < 660:
        p = people[step % len(people)]
        kind = step % 9
        if kind in (0, 1, 2, 4, 7):
            do("act", "lose-hits", "--character", p, "--hits", "1", "--location", "arm")
        elif kind == 3:
            do("act", "apply-bandage", "--healer", "H", "--patient", p, "--bandages", "1",
               "--mat", "mat")
        elif kind == 5:
            do("act", "cure-by-other-means", "--patient", p, "--means", "spell")
        elif kind == 6:
            minute += 7
            do("clock", "advance", "7m")
        else:  # typed in late: placed before the last clock move, the history re-runs
            at = f"2026-06-13T{20 + (minute - 3) // 60:02d}:{(minute - 3) % 60:02d}"
            do("act", "lose-hits", "--character", p, "--hits", "1", "--at", at, "--move-clock")
        step += 1
    do("records")
    do("timers")
    do("log")
    do("replay")
    return out


def test_a_long_session_with_checkpoints_and_tombstone_sweeps_is_the_same_on_both_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, commits: list[str]
) -> None:
    """650 records on both paths: the same rows (checkpoints at 100, 200, ...; the
    tombstones older than 500 versions swept and the parts' floor raised), the same
    output, and the replay of the log matches the state."""
    shown = same_both_ways(tmp_path, monkeypatch, commits, long_session)
    assert shown[-1][1] == 0 and "match" in shown[-1][2]
    db = tmp_path / "fast" / "c.db"
    with sqlite3.connect(db) as conn:
        checkpoints = [r[0] for r in conn.execute("SELECT no FROM checkpoints ORDER BY no")]
        [(version, floor)] = conn.execute("SELECT version, parts_floor FROM campaigns")
    assert checkpoints[:1] == [0] and len(checkpoints) >= 7, checkpoints
    assert version >= 600 and floor == version // 100 * 100 - 500, (version, floor)
    assert len(commits) > 300
