"""Issue 17, fast start: what the read-side commands import, in fresh processes (the
heavy libraries are kept out by tests/unit/test_codebase.py; these keep out what made
the rest slow). ``roll`` and ``odds`` import no Pydantic (Typer checks a text option
without it, ``cli/app.py``) and no Rich; ``timers``, ``character show`` and
``character list`` on SQLite draw their table and lines without Rich (``Env.table``,
``Env.show``); a table too wide for the terminal is still Rich's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_COMMAND = """
import sys
from lazaretto.cli.app import main
sys.argv = ["lazaretto", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
"""
_IMPORTS = _COMMAND + 'print("MODULES", " ".join(sorted(sys.modules)))\n'
"""A command run in a fresh process, then the modules it imported."""


def _run(db: Path, *args: str, **extra_env: str) -> tuple[str, set[str]]:
    """What a fresh ``lazaretto ARGS`` printed, and the modules it imported."""
    env = {**os.environ, "LAZARETTO_DB": str(db), "LAZARETTO_LANG": "en"}
    env.pop("LAZARETTO_CAMPAIGN", None)
    env.pop("COLUMNS", None)
    env.update(extra_env)
    done = subprocess.run(
        [sys.executable, "-c", _IMPORTS, *args],
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        check=True,
    )
    out, _, modules = done.stdout.rpartition("MODULES ")
    return out, set(modules.split())


def _has(modules: set[str], package: str) -> bool:
    return any(m == package or m.startswith(package + ".") for m in modules)


def test_roll_and_odds_import_neither_pydantic_nor_rich(tmp_path: Path) -> None:
    db = tmp_path / "i.db"
    for args in (["roll", "4d6kh3", "--seed", "1"], ["roll", "1d20"], ["odds", "2d6 >= 7"]):
        out, modules = _run(db, *args)
        assert out.strip(), args
        assert [p for p in ("pydantic", "rich") if _has(modules, p)] == [], args


def test_the_read_commands_draw_without_rich_and_as_rich_did(tmp_path: Path) -> None:
    db = tmp_path / "i.db"
    for args in (
        ["campaign", "create", "z", "--ruleset", "warhammer-larp", "--clock", "manual",
         "--start", "2026-06-13T11:50"],
        ["character", "add", "R", "--name", "Rustam"],
        ["act", "lose-hits", "--character", "R", "--hits", "1", "--location", "arm"],
    ):  # fmt: skip
        _run(db, *args)
    out, modules = _run(db, "timers")
    assert not _has(modules, "rich") and "lazaretto.cli.fastread" in modules
    assert out.splitlines() == [
        "Countdowns at 11:50:00",
        "┏━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┓",
        "┃ at       ┃ in     ┃ what                    ┃ who        ┃",
        "┡━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━┩",
        "│ 12:20:00 │ 30m00s │ light wound turns heavy │ Rustam (R) │",
        "└──────────┴────────┴─────────────────────────┴────────────┘",
    ]
    out, modules = _run(db, "character", "show", "R")
    assert not _has(modules, "rich")
    assert out.splitlines()[:2] == [
        "Rustam (R) — light wound, hits 2/3",
        "  • light wound since 11:50:00 → 12:20:00",
    ]
    _, modules = _run(db, "character", "list")
    assert not _has(modules, "rich")
    narrow, modules = _run(db, "timers", COLUMNS="40")  # Rich fits it to 40 columns
    assert _has(modules, "rich")
    assert max(map(len, narrow.splitlines())) <= 40 and "Rustam" in narrow


_DECLARED = _COMMAND + """
from lazaretto.core.registry import get_ruleset
rs = get_ruleset("warhammer-larp")
print("DECLARED", len(rs.actions._items), "PENDING", len(rs._pending))
"""
"""A command run in a fresh process, then how far its ruleset's declarations ran."""


def test_reading_a_character_declares_no_action_and_one_action_its_own(tmp_path: Path) -> None:
    """The ruleset's declaring functions run when an action is asked for
    (``Ruleset.declare_later``): reading a character or the countdowns needs none, an
    action needs the one that declares it (lose-hits: warhammer's first, wounds)."""
    db = tmp_path / "d.db"
    for args in (
        ["campaign", "create", "z", "--ruleset", "warhammer-larp", "--clock", "manual",
         "--start", "2026-06-13T11:50"],
        ["character", "add", "R", "--name", "Rustam"],
    ):  # fmt: skip
        _run(db, *args)
    env = {**os.environ, "LAZARETTO_DB": str(db), "LAZARETTO_LANG": "en"}

    def declared(*args: str) -> tuple[str, int, int]:
        done = subprocess.run(
            [sys.executable, "-c", _DECLARED, *args],
            env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL, check=True,
        )  # fmt: skip
        out, _, counts = done.stdout.rpartition("DECLARED ")
        actions, _, pending = counts.split()
        return out, int(actions), int(pending)

    out, actions, pending = declared("character", "show", "R")
    assert out.startswith("Rustam (R)") and actions == 0 and pending == 17
    out, actions, pending = declared("timers")
    assert actions == 0 and pending == 17
    out, actions, pending = declared(
        "act", "lose-hits", "--character", "R", "--hits", "1", "--location", "arm"
    )
    assert "Rustam lost 1 hit" in out and 0 < actions < 20 and pending == 16
    out, actions, pending = declared("act", "--help")  # the list: every function
    assert "register-hospital" in out and actions > 50 and pending == 0
