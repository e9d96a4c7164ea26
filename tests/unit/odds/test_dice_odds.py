"""``dice_odds``: every total of a dice expression, checked face by face."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from lazaretto.core.errors import DiceBudgetError, DiceSyntaxError
from lazaretto.odds.dice import dice_odds
from tests.unit.odds.oracle import enumerate_dice, odds_of

CASES = [
    ("3d6", (6, 6, 6), lambda f: sum(f)),
    ("4d6kh3", (6, 6, 6, 6), lambda f: sum(f) - min(f)),
    ("4d6kl3", (6, 6, 6, 6), lambda f: sum(f) - max(f)),
    ("2d20kh1 + 3", (20, 20), lambda f: max(f) + 3),
    ("3d10kl1", (10, 10, 10), lambda f: min(f)),
    ("5d4dh2", (4,) * 5, lambda f: sum(sorted(f)[:3])),
    ("1d8 - 1d4", (8, 4), lambda f: f[0] - f[1]),
    ("2d4 * 1d3 + 1", (4, 4, 3), lambda f: (f[0] + f[1]) * f[2] + 1),
    ("-1d6 + 10", (6,), lambda f: 10 - f[0]),
]


@pytest.mark.parametrize(("expression", "dice", "total"), CASES, ids=[c[0] for c in CASES])
def test_every_total_matches_brute_force(
    expression: str, dice: tuple[int, ...], total: Callable[[tuple[int, ...]], int]
) -> None:
    odds = dice_odds(expression)
    want = odds_of(enumerate_dice(*dice), total)
    assert odds.as_dict() == dict(sorted(want.items()))
    assert sum(odds.as_dict().values()) == 1
    assert odds.mean == sum(k * v for k, v in want.items())


def test_a_comparison_gives_the_chance_of_success() -> None:
    odds = dice_odds("2d20kh1 + 3 >= 15")
    want = odds_of(enumerate_dice(20, 20), lambda f: max(f) + 3 >= 15)
    assert odds.event("success") == want[True] == Fraction(279, 400)
    assert odds.outcomes[0].key == 4  # the totals are those of the left side


def test_the_json_carries_exact_fractions_and_percentages() -> None:
    data = dice_odds("1d4 + 1").to_dict()
    assert data["distribution"][0] == {
        "total": 2,
        "label": "2",
        "probability": "1/4",
        "percent": 25.0,
    }
    assert data["mean"] == 3.5 and data["mean_exact"] == "7/2"
    assert data["events"] == {}


def test_bad_or_oversized_expressions_raise_the_dice_errors() -> None:
    with pytest.raises(DiceSyntaxError):
        dice_odds("3d6+")
    with pytest.raises(DiceBudgetError):
        dice_odds("1000d1000")
