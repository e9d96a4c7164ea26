"""A full disease day through the ``lazaretto`` CLI on a manual clock: a lab makes stickers
and an epidemic certificate, three waves infect people, a hospital cures some, the
epidemic ends by quarantine, and the journal, the sticker look-up and the epidemic
status tell the story with the rule IDs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer.main
import typer.testing
from click.testing import Result
from typer.testing import CliRunner

from lazaretto.cli.app import build

COURSE = ["drip", "enema", "herbal_drink", "inhalation", "psychotherapy", "sedative"]
RECIPE = ["salt", "rat tail", "mould", "ash", "bile"]
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
    def __init__(self, tmp: Path) -> None:
        self.app, self.runner, self.db = build(), CliRunner(), str(tmp / "day.db")

    def __call__(self, *args: str) -> str:
        env = {"LAZARETTO_DB": self.db, "LAZARETTO_LANG": "en", "LAZARETTO_CAMPAIGN": None}
        result: Result = self.runner.invoke(self.app, list(args), env=env)
        assert result.exit_code == 0, (args, result.output, result.exception)
        return result.stdout

    def json(self, *args: str) -> Any:
        return json.loads(self(*args, "--json"))

    def act(self, action: str, *args: str) -> Any:
        return self.json("act", action, *args)


def flags(name: str, values: list[str]) -> list[str]:
    return [part for v in values for part in (name, v)]


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cli:
    c = Cli(tmp_path)
    # Typer rebuilds the whole command tree (every action of every ruleset) on each
    # invoke; build it once so the ~70 commands of the day take seconds, not a minute.
    command = typer.main.get_command(c.app)
    monkeypatch.setattr(typer.testing, "_get_command", lambda app: command)
    return c


def cure(cli: Cli, patient: str, bed: str, at: str) -> None:
    cli.act("admit", "--hospital", "h1", "--patient", patient, "--healer", "H",
            "--at", at, "--move-clock")
    cli.act("record-anamnesis", "--hospital", "h1", "--patient", patient, "--healer", "H")
    cli.act(
        "diagnose", "--hospital", "h1", "--patient", patient, "--healer", "H", "--disease", "GF"
    )
    cli.act(
        "start-disease-course",
        "--hospital",
        "h1",
        "--patient",
        patient,
        "--healer",
        "H",
        "--bed",
        bed,
        "--diseases",
        "GF",
    )
    for item in COURSE:
        cli.act(
            "course-item", "--patient", patient, "--disease", "GF", "--item", item, "--minutes", "5"
        )


def test_a_master_runs_a_full_disease_day_through_the_cli(cli: Cli) -> None:
    cli("campaign", "create", "day", "--start", "2026-06-13T08:00", "--seed", "1")
    cli("character", "add", "K", "--name", "Karl", "--skill", "Carrier")
    cli("character", "add", "H", "--name", "Hilda", "--skill", "Healer")
    for n in range(1, 9):
        cli("character", "add", f"p{n}", "--name", f"Peasant {n}")
    cli.act("check-kit", "--healer", "H", *flags("--items", KIT))
    cli.act(
        "register-hospital",
        "--id",
        "h1",
        "--name",
        "Shallya's House",
        "--number",
        "7",
        "--tables",
        "id=t1",
        "--beds",
        "id=b1",
        "--beds",
        "id=b2",
        "--location",
        "town",
    )
    cli.act(
        "define-disease",
        "--code",
        "GF",
        "--name",
        "Grey fever",
        "--symptoms",
        "cough",
        "--penalties",
        "cannot run",
        "--contagious",
        *flags("--course", COURSE),
        *flags("--recipe", RECIPE),
    )
    cli.act("add-to-book", "--healer", "H", "--code", "GF", "--description", "cough; course")

    # the lab: 10 points + a quest point = 3 batches (3) and an epidemic certificate (8)
    cli.act("register-lab", "--id", "L1", "--name", "Rat lab", "--owner", "K")
    cli.act("draw-lab-quests", "--lab", "L1")
    cli.act("complete-lab-quest", "--lab", "L1", "--quest", "1", "--reward", "1")
    cli.act(
        "make-stickers",
        "--lab",
        "L1",
        "--disease",
        "GF",
        "--batches",
        "3",
        *flags("--components", RECIPE),
    )
    cli.act(
        "make-certificate",
        "--lab",
        "L1",
        "--kind",
        "epidemic",
        "--disease",
        "GF",
        "--holder",
        "K",
        "--stickers",
        "30",
    )
    assert cli.json("query", "lab-status", "--lab", "L1")["points"] == 0
    started = cli.act(
        "start-epidemic",
        "--carrier",
        "K",
        "--certificate",
        "epi-1",
        "--location",
        "town",
        "--regional-master",
        "Olga",
        "--interval-minutes",
        "30",
        "--wave-stickers",
        "10",
    )
    assert "W-EPI-07" in started["events"][-1]["rule_ids"]
    epidemic = started["events"][-1]["payload"]["epidemic"]["id"]
    assert f"epidemic {epidemic} started" in cli("log")  # its id, to name it later

    # three waves: 4, 2 and 1 infected
    cli.act("epidemic-wave", "--epidemic", "epi-1", *flags("--present", ["p1", "p2", "p3", "p4"]))
    cure(cli, "p1", "b1", "08:10")
    cure(cli, "p2", "b2", "08:10")
    cli("clock", "set", "08:30")
    cli.act("epidemic-wave", "--epidemic", "epi-1", *flags("--present", ["p5", "p6"]))
    cli("clock", "set", "09:00")
    cli.act("epidemic-wave", "--epidemic", "epi-1", "--present", "p7")
    ended = cli.json("clock", "advance", "10m")
    kinds = [e["kind"] for e in ended["events"]]
    assert "epidemic.ended" in kinds

    status = cli.json("query", "epidemic-status", "--epidemic", "epi-1")
    row = status["epidemics"][0]
    assert (row["status"], row["end_reason"]) == ("ended", "quarantine")  # 2 + 1 <= 3
    assert "W-EPI-10" in row["end_rule_ids"] and [w["infected"] for w in row["waves"]] == [4, 2, 1]
    assert (row["infected"], row["cured"]) == (7, 2)
    assert "quarantine" in cli("query", "epidemic-status")

    journal = cli.json("journal", "--hospital", "h1")
    types = [(r["patient"], r["type"]) for r in journal if r["patient"] == "p1"]
    assert types == [
        ("p1", "admission"),
        ("p1", "anamnesis"),
        ("p1", "diagnosis"),
        ("p1", "course"),
        ("p1", "outcome"),
    ]
    outcome = next(r for r in journal if r["patient"] == "p1" and r["type"] == "outcome")
    assert outcome["outcome"] == "recovered" and "W-DTRT-20" in outcome["rule_ids"]
    diagnosis = next(r for r in journal if r["type"] == "diagnosis")
    assert diagnosis["course"] == COURSE and "W-DTRT-04" in diagnosis["rule_ids"]

    [code] = [s["code"] for s in cli.json("query", "stickers", "--holder", "p1")["stickers"]]
    shown = cli.json("query", "sticker", "--code", code)
    assert shown["status"] == "cured" and shown["cure"]["hospital_number"] == "7"
    steps = [h.split(" ")[1] for h in shown["history"]]
    assert steps == ["made", "attached", "handed", "stuck", "cured"]
    assert "W-DTRT-20" in shown["history"][-1] and "W-EPI-03" in shown["history"][-2]
    human = cli("query", "sticker", "--code", code)
    assert f"Sticker {code}: Grey fever — cured" in human

    log = cli("log")
    assert "epidemic epi-1 ended: quarantine" in log and "[W-EPI-10, A-W-23]" in log
    assert "replay matches" in cli("replay")
