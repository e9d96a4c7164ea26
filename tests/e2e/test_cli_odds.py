"""``lazaretto odds`` through the real command line: ``odds EXPRESSION`` and the ruleset
subcommands print exact fractions and percentages, ``--json`` for scripts, ``--plot`` a
PNG or SVG chart, Russian on request, and one error line for bad input."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from tests.e2e.clitools import Run, ok, ok_json, refused

from lazaretto.core.errors import DiceSyntaxError, InvalidInput


def exact(data: dict[str, Any]) -> dict[Any, Fraction]:
    """The distribution of an odds JSON: outcome → exact probability."""
    axis = data["axis"]
    return {row[axis]: Fraction(row["probability"]) for row in data["distribution"]}


def test_odds_of_an_expression_is_short_for_odds_dice(run: Run) -> None:
    short = ok_json(run("odds", "4d6kh3", "--json"))
    assert short == ok_json(run("odds", "dice", "4d6kh3", "--json"))
    assert ok_json(run("odds", "--json", "4d6kh3")) == short  # options may come first
    assert exact(short)[18] == Fraction(21, 1296)
    assert sum(exact(short).values()) == 1


def test_an_expression_may_be_typed_in_several_words(run: Run) -> None:
    data = ok_json(run("odds", "3d6", "+", "2", "--json"))
    assert data["expression"] == "3d6 + 2" and data["mean"] == 12.5


def test_the_table_shows_fractions_percentages_and_the_mean(run: Run) -> None:
    out = ok(run("odds", "3d6"))
    row = next(line for line in out.splitlines() if line.startswith("│ 10 "))
    assert "1/8" in row and "12.50" in row
    assert "mean 10.500" in out


def test_a_comparison_reports_its_chance_of_success(run: Run) -> None:
    data = ok_json(run("odds", "1d20+5 >= 15", "--json"))
    assert data["success"]["probability"] == "11/20"
    assert data["events"]["success"]["percent"] == 55.0
    assert "success: 11/20 = 55.00%" in ok(run("odds", "1d20+5 >= 15"))


def test_a_fantasy_check_with_criticals(run: Run) -> None:
    args = ("odds", "check", "--ruleset", "fantasy-server", "--bonus", "5", "--threshold")
    data = ok_json(run(*args, "medium", "--json"))
    assert exact(data) == {
        "critical_success": Fraction(1, 20),  # S-CRIT-02: a natural 20
        "success": Fraction(7, 20),  # 13..19 + 5 reach medium (18)
        "failure": Fraction(11, 20),
        "critical_failure": Fraction(1, 20),  # S-CRIT-03: a natural 1
    }
    assert data["question"] == "1d20 +5 vs medium (18)"
    again = ok_json(run(*args, "100", "--param", "crit_success_naturals=[19, 20]", "--json"))
    assert again["events"]["success"]["probability"] == "1/10"  # only the criticals


def test_an_opposed_fantasy_roll(run: Run) -> None:
    data = ok_json(
        run("odds", "check", "--ruleset", "fantasy-server", "--bonus", "5", "--against", "3",
            "--json")
    )  # fmt: skip
    assert exact(data) == {"active": Fraction(227, 400), "defender": Fraction(173, 400)}


def test_an_ide4_check_on_the_band_table(run: Run) -> None:
    data = ok_json(
        run("odds", "check", "--ruleset", "ide4-survival", "--difficulty", "3", "--json")
    )
    assert exact(data)["triumph"] == Fraction(3, 100)
    assert data["events"]["success"]["probability"] == "7/20"
    assert any("placeholder" in note for note in data["notes"])


def test_injury_odds_for_a_damage_expression_and_a_character(run: Run) -> None:
    data = ok_json(
        run("odds", "injury", "--damage", "2d6+3", "--con", "6", "--proficiency", "2",
            "--character-level", "4", "--critical", "--json")
    )  # fmt: skip
    assert exact(data) == {
        "none": 0,
        "light": Fraction(5, 12),
        "medium": Fraction(7, 12),  # 2d6 + 3 >= combat caution 10
        "heavy": 0,
    }
    assert "D-SEV-03" in data["rule_ids"]


def test_sleep_and_interrupted_sleep(run: Run) -> None:
    night = ok_json(run("odds", "sleep", "--json"))
    assert exact(night)[10] == Fraction(271, 1000)  # 1 - (9/10)**3
    assert night["events"]["rested"]["probability"] == "657/1000"
    woken = ok_json(run("odds", "interrupted-sleep", "--planned", "6", "--camp", "bad", "--json"))
    assert exact(woken)[6] == Fraction(3, 4)  # the highest of 2d10 is 6 or more
    assert woken["events"]["deprived"]["probability"] == "1"  # a bad camp


def test_theft_lockpick_and_torture(run: Run) -> None:
    theft = ok_json(run("odds", "theft", "--thief", "5", "--victim", "3", "--json"))
    assert sum(exact(theft).values()) == 1
    assert exact(theft)["stolen"] == Fraction(173, 400)
    lock = ok_json(run("odds", "lockpick", "--stat", "6", "--json"))
    assert lock["events"]["success"]["probability"] == "3/20"  # 18..20 + 6 reach 24
    assert lock["events"]["tool_wears"]["probability"] == "1/20"
    torture = ok_json(run("odds", "torture", "--torturer", "5", "--victim", "3", "--json"))
    assert list(exact(torture)) == [0, 1, 2, 3, 4]
    assert torture["events"]["round_4"]["label"] == "round 4 won (victim +9)"


@pytest.mark.parametrize(("name", "magic"), [("chart.png", b"\x89PNG"), ("chart.svg", b"<?xml")])
def test_plot_writes_a_chart(run: Run, tmp_path: Path, name: str, magic: bytes) -> None:
    path = tmp_path / name
    out = ok(run("odds", "theft", "--thief", "5", "--victim", "3", "--plot", str(path)))
    assert path.read_bytes().startswith(magic)
    assert f"chart: {path}" in out
    data = ok_json(run("odds", "3d6", "--plot", str(path), "--json"))
    assert data["plot"] == str(path)


def test_a_russian_run(run: Run, tmp_path: Path) -> None:
    out = ok(run("--lang", "ru", "odds", "theft", "--thief", "5", "--victim", "3"))
    assert out.startswith("кража: REF +5 против PER +3 +3")
    assert "вероятность" in out and "украдено" in out and "правила: S-CRIME-02" in out
    data = ok_json(run("odds", "sleep", "--json", lang="ru"))
    assert data["events"]["deprived"]["label"] == "Не выспался"
    chart = tmp_path / "сон.svg"
    ok(run("odds", "sleep", "--plot", str(chart), lang="ru"))
    assert "<!-- часов сна -->" in chart.read_text(encoding="utf-8")
    line = refused(run("odds", "3d6+", lang="ru"), DiceSyntaxError.exit_code)
    assert line.startswith("ошибка: ")


def test_bad_input_is_one_line_and_a_non_zero_exit(run: Run, tmp_path: Path) -> None:
    assert "position 4" in refused(run("odds", "3d6+"), DiceSyntaxError.exit_code)
    line = refused(run("odds", "3d6", "--plot", str(tmp_path / "x.gif")), InvalidInput.exit_code)
    assert ".png or .svg" in line
    line = refused(
        run("odds", "check", "--ruleset", "ide4-survival", "--bonus", "3"), InvalidInput.exit_code
    )
    assert "--difficulty" in line
    line = refused(
        run("odds", "theft", "--thief", "1", "--victim", "1", "--param", "nope=1"),
        InvalidInput.exit_code,
    )
    assert "'nope'" in line
    refused(run("odds", "interrupted-sleep", "--planned", "12"), InvalidInput.exit_code)
    line = refused(
        run("odds", "torture", "--torturer", "1", "--victim", "1", "--rounds", "9"),
        InvalidInput.exit_code,
    )
    assert "S-TORT-05" in line


def test_an_error_asked_for_as_json_is_json(run: Run) -> None:
    result = run("odds", "check", "--ruleset", "fantasy-server", "--bonus", "1", "--json")
    assert result.exit_code == InvalidInput.exit_code
    assert json.loads(result.stdout)["error"] == "InvalidInput"
