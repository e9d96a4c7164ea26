"""The engine foundation's acceptance scenario, through the CLI only, on a manual clock:
a 3-hit character loses 2 hits at 12:00, is heavily wounded at 12:30 and dead at 12:45;
bandaged at 12:29 another lives; timers and journal show it all in English and Russian,
and --json gives the same facts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lazaretto.cli.app import build

KIT = [
    "hourglass_10min",
    "needle",
    "thread",
    "plaster",
    "bandages",
    "mask",
    "gloves",
    "mat_materials",
]


class Cli:
    def __init__(self, tmp_path: Path) -> None:
        self.app = build()
        self.runner = CliRunner()
        self.env = {
            "LAZARETTO_DB": str(tmp_path / "t.db"),
            "LAZARETTO_LANG": "en",
            "COLUMNS": "200",
        }

    def __call__(self, *args: str, lang: str = "en") -> str:
        result = self.runner.invoke(self.app, list(args), env={**self.env, "LAZARETTO_LANG": lang})
        assert result.exit_code == 0, result.output
        return result.stdout

    def json(self, *args: str) -> Any:
        return json.loads(self(*args, "--json"))


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    c = Cli(tmp_path)
    c("campaign", "create", "day", "--start", "2026-06-13T11:50", "--seed", "1")
    c("character", "add", "R", "--name", "Rustam", "--hits", "3", "--race", "human", "--age", "34")
    c("character", "add", "B", "--name", "Boris", "--hits", "3", "--race", "dwarf", "--age", "61")
    c("character", "add", "A", "--name", "Anna", "--hits", "2", "--skill", "Healer")
    c("act", "check-kit", "--healer", "A", *[x for item in KIT for x in ("--items", item)])
    c(
        "act",
        "register-mat",
        "--id",
        "mat",
        "--healer",
        "A",
        "--length-cm",
        "180",
        "--width-cm",
        "60",
    )
    c(
        "act",
        "register-hospital",
        "--id",
        "h1",
        "--name",
        "Shallya",
        "--number",
        "7",
        "--tables",
        "t1",
        "--beds",
        "b1",
        "--beds",
        "b2",
    )
    return c


def test_unbandaged_wound_kills_at_1245_and_a_bandage_at_1229_saves(cli: Cli) -> None:
    cli(
        "act",
        "lose-hits",
        "--character",
        "R",
        "--hits",
        "2",
        "--location",
        "left arm",
        "--at",
        "12:00",
        "--move-clock",
    )
    cli("act", "lose-hits", "--character", "B", "--hits", "2", "--location", "leg",
        "--at", "12:00", "--move-clock")
    cli("act", "admit", "--hospital", "h1", "--patient", "R", "--healer", "A",
        "--at", "12:05", "--move-clock")
    timers = cli.json("timers")["timers"]
    assert [(t["subject"], t["deadline"][11:16]) for t in timers] == [
        ("R", "12:30"),
        ("B", "12:30"),
    ]
    assert "12:30:00" in cli("timers") and "light wound turns heavy" in cli("timers")
    assert "лёгкое ранение станет тяжёлым" in cli("timers", lang="ru")

    out = cli(
        "act",
        "apply-bandage",
        "--healer",
        "A",
        "--patient",
        "B",
        "--bandages",
        "2",
        "--mat",
        "mat",
        "--at",
        "12:29",
        "--move-clock",
    )
    assert "countdown stopped" in out
    cli("clock", "set", "12:30")
    rustam = cli.json("character", "show", "R")
    assert rustam["state"] == "heavy_unbandaged"  # W-WND-08
    assert cli.json("timers")["timers"][0]["deadline"] == "2026-06-13T12:45:00"  # W-WND-12
    out = cli("clock", "set", "12:45")
    assert "Rustam died" in out
    assert cli.json("character", "show", "R")["alive"] is False
    boris = cli.json("character", "show", "B")
    assert boris["alive"] is True and boris["hits"] == 1 and boris["state"] == "light"
    assert cli.json("timers")["timers"] == []

    journal = cli.json("journal")
    assert [(e["type"], e.get("outcome")) for e in journal] == [
        ("admission", None),
        ("outcome", "died"),
    ]
    assert journal[0]["wounds"] == ["left arm"] and journal[0]["age"] == 34
    en, ru = cli("journal"), cli("journal", lang="ru")
    assert "died" in en and "Rustam" in en
    assert "умер" in ru and "поступление" in ru
    log = [e["kind"] for e in cli.json("log")]
    assert log.count("character.died") == 1 and "wound.bandaged" in log
    assert cli.json("replay") == {"replay_matches": True}


def test_a_character_is_added_with_ruleset_stats(tmp_path: Path) -> None:
    cli = Cli(tmp_path)
    cli("campaign", "create", "t", "--ruleset", "dnd5e-injuries")
    cli("character", "add", "F", "--name", "Fighter", "--stat", "con=14", "--stat", "level=5")
    added = [e for e in cli.json("log") if e["kind"] == "character.added"]
    assert added[0]["payload"]["character"]["stats"] == {"con": 14, "level": 5}
    result = cli.runner.invoke(
        cli.app, ["character", "add", "G", "--stat", "con=high"], env=cli.env
    )
    assert result.exit_code == 2 and "NAME=NUMBER" in result.stderr


def test_a_backup_taken_during_play_restores_every_event(cli: Cli, tmp_path: Path) -> None:
    cli("act", "lose-hits", "--character", "R", "--hits", "2", "--at", "12:00", "--move-clock")
    before = cli.json("log")
    copy = tmp_path / "copy.db"
    assert cli.json("backup", str(copy))["pages"] > 0
    cli("act", "lose-hits", "--character", "B", "--hits", "1", "--at", "12:10", "--move-clock")
    result = cli.runner.invoke(cli.app, ["restore", str(copy)], env=cli.env)
    assert result.exit_code != 0 and "--force" in result.stderr  # never silently replaced
    cli("restore", str(copy), "--force")
    assert cli.json("log") == before
    assert cli.json("replay") == {"replay_matches": True}
