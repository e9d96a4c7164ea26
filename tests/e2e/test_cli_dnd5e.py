"""The dnd5e-injuries ruleset from the ``lazaretto`` command: ``act`` rolls an injury
and prints location, type, severity, effect and treatment with the rule IDs; ``query
injury-odds`` prints the exact odds (checklist-003)."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from tests.e2e.clitools import Run, ok


@pytest.fixture
def table(run: Run) -> Run:
    """A tabletop campaign with Aria: CON 14, proficiency +3, level 5 (combat caution 19)."""
    ok(
        run(
            "campaign",
            "create",
            "crypt",
            "--ruleset",
            "dnd5e-injuries",
            "--start",
            "2026-06-13T20:00",
            "--seed",
            "7",
        )
    )
    ok(run("character", "add", "a", "--name", "Aria", "--hits", "40"))
    ok(
        run(
            "act",
            "set-dnd-stats",
            "--character",
            "a",
            "--con",
            "14",
            "--proficiency",
            "3",
            "--level",
            "5",
            "--hp-max",
            "40",
            "--ac",
            "16",
        )
    )
    return run


def test_act_rolls_an_injury_and_prints_where_what_how_bad_effect_and_treatment(
    table: Run,
) -> None:
    out = ok(
        table(
            "act",
            "take-damage",
            "--character",
            "a",
            "--damage",
            "20",
            "--damage-type",
            "piercing",
            "--critical",
        )
    )
    assert "Aria takes 20 piercing damage: HP 40 → 20" in out
    assert "Aria receives an injury" in out and "D-COND-01" in out  # a critical hit
    out = ok(table("act", "roll-injury", "--character", "a", "--location-roll", "3"))
    assert "the injury lands on the legs (1d4 = 3)" in out  # D-ROLL-01
    line = next(x for x in out.splitlines() if "Deep puncture" in x)
    assert "medium injury, legs (" in line  # location, side, severity (D-SEV-03)
    assert "piercing (damage 20 vs combat caution 19)" in line  # type and why medium
    assert "bleeding 1d6 a turn" in line and "treatment: Medicine 13" in line  # E-D-05
    assert "D-ROLL-02" in line and "D-SEV-03" in line and "D-TAB-38" in line
    shown = ok(table("character", "show", "a"))
    assert "Deep puncture (legs" in shown


def test_act_rolls_an_injury_directly_with_the_die_rolled_by_the_engine(table: Run) -> None:
    data = json.loads(
        ok(
            table(
                "act",
                "roll-injury",
                "--character",
                "a",
                "--trigger",
                "zero_hp",
                "--damage",
                "40",
                "--damage-type",
                "fire",
                "--json",
            )
        )
    )
    events = {e["kind"]: e for e in data["events"]}
    located = events["injury.located"]
    assert located["dice"][0]["dice"][0]["notation"] == "1d4"  # recorded roll
    received = events["injury.received"]
    assert received["payload"]["severity"] == "heavy"  # 40 >= 38: D-SEV-04
    assert "D-SEV-04" in received["rule_ids"]


def test_act_in_russian(table: Run) -> None:
    out = ok(
        table(
            "act",
            "roll-injury",
            "--character",
            "a",
            "--trigger",
            "critical_hit",
            "--damage",
            "40",
            "--damage-type",
            "radiant",
            "--location-roll",
            "1",
            lang="ru",
        )
    )
    assert "тяжёлая травма, голова" in out and "Потеря глаза" in out  # D-TAB-09
    assert "лечение: Регенерация" in out
    assert "обезображивание" in out and "D-DISF-01" in out


def test_a_refusal_is_one_line_with_the_rule(table: Run) -> None:
    result = table(
        "act", "roll-injury", "--character", "a", "--damage", "5", "--damage-type", "fire"
    )
    assert result.exit_code == 3  # RuleViolation
    lines = [x for x in result.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "D-COND-05" in lines[0]


def oracle(expression_dice: tuple[int, int], bonus: int, caution: int) -> dict[str, Fraction]:
    """Brute force over every face of ``count``d``sides`` + ``bonus`` (a critical hit)."""
    import itertools

    count, sides = expression_dice
    out = dict.fromkeys(("none", "light", "medium", "heavy"), Fraction(0))
    faces = list(itertools.product(range(1, sides + 1), repeat=count))
    for roll in faces:
        damage = sum(roll) + bonus
        key = "heavy" if damage >= 2 * caution else "medium" if damage >= caution else "light"
        out[key] += Fraction(1, len(faces))
    return out


def test_query_injury_odds_shows_the_exact_probabilities(table: Run) -> None:
    data: dict[str, Any] = json.loads(
        ok(
            table(
                "query",
                "injury-odds",
                "--character",
                "a",
                "--damage",
                "4d10+5",
                "--critical",
                "--json",
            )
        )
    )
    assert {k: Fraction(v) for k, v in data["exact"].items()} == oracle((4, 10), 5, 19)
    assert data["caution"] == "19" and "D-SEV-04" in data["rule_ids"]
    out = ok(table("query", "injury-odds", "--character", "a", "--damage", "2d6+3"))
    first = out.splitlines()[0]
    assert first.startswith("Aria (combat caution 19, HP 40) hit by 2d6+3: no injury 100%")
    assert "[D-COND-01" in out
