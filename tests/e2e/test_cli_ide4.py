"""A GM runs three IDE4 game days for a party of four from the ``lazaretto`` command, a few
commands a day, and ``character show`` explains every active state: where it came from
and the rule IDs that produced it (issue 6)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from lazaretto.cli.app import build

Run = Callable[..., Result]
PARTY = ("anna", "boris", "vera", "gleb")


@pytest.fixture
def run(tmp_path: Path) -> Run:
    app = build()
    runner = CliRunner()

    def invoke(*args: str, lang: str = "en") -> Result:
        env = {
            "LAZARETTO_DB": str(tmp_path / "trek.db"),
            "LAZARETTO_LANG": lang,
            "LAZARETTO_CAMPAIGN": "trek",
        }
        result = runner.invoke(app, list(args), env=env)
        assert result.exit_code == 0, (args, result.output, result.exception)
        return result

    return invoke


def day(run: Run, d: int, *extra: tuple[str, ...], pace: str = "fast") -> None:
    """One game day in seven commands (plus the day's events)."""
    date = f"2026-06-{12 + d}"
    run("act", "morning", "--at", f"{date}T06:30", "--move-clock")
    run("act", "eat-meal", "--at", f"{date}T07:30", "--move-clock")
    run("act", "eat-meal", "--at", f"{date}T13:20", "--move-clock")
    for args in extra:
        run("act", *args)
    run("act", "end-march", "--pace", pace, "--check", "--at", f"{date}T18:00", "--move-clock")
    run("act", "eat-meal", "--at", f"{date}T19:30", "--move-clock")
    run("act", "go-to-sleep", "--camp", "normal", "--pick", "highest",
        "--at", f"{date}T21:00", "--move-clock")
    run("act", "end-day", "--at", f"2026-06-{13 + d}T06:20", "--move-clock")


def test_three_game_days_for_a_party_of_four(run: Run) -> None:
    run(
        "campaign",
        "create",
        "trek",
        "--ruleset",
        "ide4-survival",
        "--start",
        "2026-06-13T06:00",
        "--seed",
        "11",
        "--param",
        "check_resolver=band_table",
    )
    for cid in PARTY:
        run("character", "add", cid, "--name", cid.capitalize(), "--hits", "10")
    run(
        "act", "survival-sheet", "--character", "vera", "--sex", "female", "--body-food-norm", "800"
    )
    day(run, 1)
    day(
        run,
        2,
        (
            "poison-risk",
            "--characters",
            "boris",
            "--source",
            "dirty_water",
            "--difficulty",
            "3",
            "--outcome",
            "failure",
            "--at",
            "2026-06-14T15:00",
            "--move-clock",
        ),
        ("calm-event", "--events", "ambush", "--events", "outnumbered",
         "--at", "2026-06-14T16:00", "--move-clock"),
        pace="normal",
    )
    day(
        run,
        3,
        (
            "expose",
            "--characters",
            "gleb",
            "--disease",
            "basic",
            "--difficulty",
            "3",
            "--outcome",
            "failure",
            "--at",
            "2026-06-15T15:00",
            "--move-clock",
        ),
        ("set-load", "--characters", "anna", "--load", "overloaded",
         "--at", "2026-06-15T15:30", "--move-clock"),
        pace="forced",
    )

    cards = {cid: json.loads(run("character", "show", cid, "--json").stdout) for cid in PARTY}
    assert all(c["alive"] for c in cards.values())
    kinds = {cid: {c["kind"] for c in card["conditions"]} for cid, card in cards.items()}
    assert "poisoned" in kinds["boris"] and "sick" in kinds["gleb"]
    assert "overloaded" in kinds["anna"]
    assert {"very_tired", "exhausted"} & kinds["anna"]  # a forced day
    for card in cards.values():
        for c in card["conditions"]:
            assert c["rules"] and c["source"], c  # every state has its source and rules
    for cid in PARTY:  # each active state: "Name (shift) — source [rule IDs] since HH:MM"
        text = run("character", "show", cid).stdout
        bullets = [line for line in text.splitlines() if line.strip().startswith("•")]
        assert len(bullets) == len(cards[cid]["conditions"]), text
        assert all(re.search(r" — .+ \[(I|A)-[A-Z]+-\d\d.*\] since ", b) for b in bullets), text
    shown = run("character", "show", "boris").stdout
    lines = [line for line in shown.splitlines() if line.strip().startswith("•")]
    assert lines and all(re.search(r" — .+ \[(I|A)-[A-Z]+-\d\d", line) for line in lines), shown
    assert "Poisoned (+1 to related checks; loss of a reroll) — dirty water" in shown
    assert "I-COND-09" in shown
    ru = run("character", "show", "gleb", lang="ru").stdout
    assert "Болен (" in ru and "Болезнь (базовая схема), стадия" in ru and "I-COND-08" in ru

    due = run("query", "day").stdout
    assert "Day 3" in due and "Gleb" in due
    timeline = run("log").stdout
    assert timeline.count("game day") >= 6  # three starts and three ends
    assert "3d10" in timeline and "Endurance" in timeline
    assert "replay matches" in run("replay").stdout
    data: Any = json.loads(run("query", "run-through", "--json").stdout)
    assert data["states_from_one_table"] is True
