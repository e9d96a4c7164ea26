"""``injury-odds``: the exact probability of no injury / light / medium / heavy for a
damage expression against a creature, checked against brute-force enumeration of every
die face (D-COND-01, D-COND-02, D-INF-01, D-INF-02, D-SEV-01..04)."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from lazaretto.core.engine import run_query
from lazaretto.core.errors import DiceError
from tests.game import Game
from tests.unit.dnd5e_injuries.conftest import enemy, game, pc

TERM = re.compile(r"([+-]?)\s*(?:(\d+)d(\d+)|(\d+))")


def brute_force(expression: str) -> dict[int, Fraction]:
    """Every face of every die, enumerated: total -> probability (the oracle)."""
    dice: list[range] = []
    sign_of: list[int] = []
    constant = 0
    for sign, count, sides, number in TERM.findall(expression.replace(" ", "")):
        s = -1 if sign == "-" else 1
        if number:
            constant += s * int(number)
            continue
        for _ in range(int(count)):
            dice.append(range(1, int(sides) + 1))
            sign_of.append(s)
    totals: Counter[int] = Counter()
    for faces in itertools.product(*dice):
        totals[constant + sum(s * f for s, f in zip(sign_of, faces, strict=True))] += 1
    n = sum(totals.values())
    return {t: Fraction(c, n) for t, c in totals.items()}


def expected(
    expression: str, caution: Fraction, injured: Callable[[int], bool], exchange: bool = False
) -> dict[str, Fraction]:
    out = dict.fromkeys(("none", "light", "medium", "heavy"), Fraction(0))
    for total, prob in brute_force(expression).items():
        damage = max(0, total)
        if not injured(damage):
            out["none"] += prob
        elif damage >= 2 * caution:  # D-SEV-04
            out["medium" if exchange else "heavy"] += prob
        elif damage >= caution:  # D-SEV-03
            out["medium"] += prob
        else:  # D-SEV-02
            out["light"] += prob
    return out


def odds(g: Game, **kw: Any) -> dict[str, Any]:
    return run_query(g.rs, g.state, "injury-odds", kw)


def exact(answer: dict[str, Any]) -> dict[str, Fraction]:
    return {k: Fraction(v) for k, v in answer["exact"].items()}


EXPRESSIONS = ["2d6+3", "4d10+5", "1d12-2", "3d8 + 1d6 + 2", "6d6", "1d4", "2d20"]


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_odds_for_a_player_character_match_brute_force(expression: str) -> None:
    g = game()
    pc(g, "a", hp=25)  # CC 19
    answer = odds(g, character="a", damage=expression)
    # D-COND-02: a non-critical hit injures only by dropping to 0; D-SEV-02..04 grade it
    want = expected(expression, Fraction(19), lambda d: d >= 25)
    assert exact(answer) == want
    assert sum(exact(answer).values()) == 1
    assert answer["percent"] == {k: round(float(v * 100), 4) for k, v in want.items()}


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_odds_for_a_critical_hit_are_always_an_injury(expression: str) -> None:
    g = game()
    pc(g, "a")
    answer = odds(g, character="a", damage=expression, critical=True)
    assert exact(answer) == expected(expression, Fraction(19), lambda d: True)  # D-COND-01
    assert exact(answer)["none"] == 0
    assert answer["if_injured"] == {k: str(v) for k, v in exact(answer).items() if k != "none"}


@pytest.mark.parametrize("expression", ["2d6+3", "6d6", "1d20+10"])
def test_odds_for_an_enemy_are_those_of_an_allowed_attempt(expression: str) -> None:
    g = game()
    pc(g, "a")
    enemy(g, "o", hp=45)  # CC 16
    g.act("set-dnd-stats", character="o", hp=30)
    answer = odds(g, character="o", damage=expression)
    # D-INF-02, A-D-06: the hit leaves it at 22.5 or below, compared exactly
    want = expected(expression, Fraction(16), lambda d: 30 - d <= Fraction(45, 2))
    assert exact(answer) == want


def test_equal_exchange_and_an_hp_override_and_exact_caution() -> None:
    g = game(caution_level_rounding="exact")
    pc(g, "a", con=10, proficiency=2, level=1, hp=100)  # CC 12.5
    answer = odds(g, character="a", damage="5d6", hp=20, equal_exchange=True)
    want = expected("5d6", Fraction(25, 2), lambda d: d >= 20, exchange=True)
    assert exact(answer) == want  # D-DEF-03 (A-D-11), A-D-02b: thresholds 12.5 and 25
    assert exact(answer)["heavy"] == 0
    assert answer["thresholds"] == {"medium": "12.5", "heavy": "25"}
    assert answer["caution"] == "12.5" and answer["hp"] == 20


def test_a_worked_value_2d6_plus_3_against_caution_10() -> None:
    g = game()
    pc(g, "a", con=6, proficiency=2, level=4, hp=60)  # CC 10
    answer = odds(g, character="a", damage="2d6+3", critical=True)
    # 2d6+3 >= 10 means 2d6 >= 7: 21/36 = 7/12 medium; never >= 20
    assert answer["exact"] == {"none": "0", "light": "5/12", "medium": "7/12", "heavy": "0"}
    assert answer["percent"]["medium"] == 58.3333
    assert "58.3333%" in answer["summary"]


def test_a_broken_damage_expression_is_a_dice_error() -> None:
    g = game()
    pc(g, "a")
    with pytest.raises(DiceError):
        odds(g, character="a", damage="2d")


def test_the_russian_summary() -> None:
    g = game()
    pc(g, "a")
    answer = run_query(g.rs, g.state, "injury-odds", {"character": "a", "damage": "1d4"}, lang="ru")
    assert answer["summary"].startswith("A (боевая осторожность 19, хиты 40)")
    assert "без травмы 100%" in answer["summary"]


def test_the_table_query_finds_rows_and_flags_unmapped_types() -> None:
    g = game()
    answer = run_query(
        g.rs, g.state, "injury-table", {"damage_type": "lightning", "severity": "heavy"}
    )
    assert [r["id"] for r in answer["rows"]] == ["D-TAB-30", "D-TAB-45"]  # arms, legs
    assert answer["unmapped"] == ["head", "torso"]  # A-D-05
    ru = run_query(
        g.rs,
        g.state,
        "injury-table",
        {"location": "legs", "severity": "light", "damage_type": "piercing"},
        lang="ru",
    )
    assert ru["rows"][0]["effect"] == "−10 фт" and ru["rows"][0]["id"] == "D-TAB-37"
