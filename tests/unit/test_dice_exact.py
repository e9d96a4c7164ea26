"""Exact distributions, checked against brute-force enumeration with exact equality."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from itertools import product

import pytest

from lazaretto.core.dice import DiceBudget, distribution, parse
from lazaretto.core.errors import DiceBudgetError, DiceError

Rolls = tuple[tuple[int, ...], ...]


def enumerate_outcomes(
    terms: list[tuple[int, int]], value: Callable[[Rolls], int]
) -> dict[int, Fraction]:
    """Brute force: every combination of faces of the ``(count, sides)`` terms."""
    per_term = [list(product(range(1, sides + 1), repeat=count)) for count, sides in terms]
    tally = Counter(value(rolls) for rolls in product(*per_term))
    ways = sum(tally.values())
    return {total: Fraction(n, ways) for total, n in sorted(tally.items())}


def highest(rolls: tuple[int, ...], keep: int) -> int:
    return sum(sorted(rolls, reverse=True)[:keep])


def lowest(rolls: tuple[int, ...], keep: int) -> int:
    return sum(sorted(rolls)[:keep])


ORACLES: list[tuple[str, list[tuple[int, int]], Callable[[Rolls], int]]] = [
    ("3d6", [(3, 6)], lambda r: sum(r[0])),
    ("1d1", [(1, 1)], lambda r: sum(r[0])),
    ("d%", [(1, 100)], lambda r: r[0][0]),
    ("4d6kh3", [(4, 6)], lambda r: highest(r[0], 3)),
    ("4d6dl1", [(4, 6)], lambda r: highest(r[0], 3)),
    ("4d6kl2", [(4, 6)], lambda r: lowest(r[0], 2)),
    ("4d6dh2", [(4, 6)], lambda r: lowest(r[0], 2)),
    ("5d4kh2", [(5, 4)], lambda r: highest(r[0], 2)),
    ("5d3kl3", [(5, 3)], lambda r: lowest(r[0], 3)),
    ("2d20kh", [(2, 20)], lambda r: max(r[0])),
    ("2d20kl1", [(2, 20)], lambda r: min(r[0])),
    ("3d10kh1", [(3, 10)], lambda r: max(r[0])),
    ("3d6kh0", [(3, 6)], lambda r: 0),
    ("3d6dl3", [(3, 6)], lambda r: 0),
    ("1d6 + 1d4", [(1, 6), (1, 4)], lambda r: r[0][0] + r[1][0]),
    ("2d6 - 3", [(2, 6)], lambda r: sum(r[0]) - 3),
    ("1d6 - 1d6", [(1, 6), (1, 6)], lambda r: r[0][0] - r[1][0]),
    ("-1d6 + 3", [(1, 6)], lambda r: 3 - r[0][0]),
    ("2d4 * 1d3", [(2, 4), (1, 3)], lambda r: sum(r[0]) * r[1][0]),
    ("(1d4 + 1) * 2", [(1, 4)], lambda r: (r[0][0] + 1) * 2),
    ("2 * (1d4 - 1d3)", [(1, 4), (1, 3)], lambda r: 2 * (r[0][0] - r[1][0])),
    ("1d4 * 1d4 * 1d2", [(1, 4), (1, 4), (1, 2)], lambda r: r[0][0] * r[1][0] * r[2][0]),
    ("1d6 * 0 + 1", [(1, 6)], lambda r: 1),
    (
        "-(3d4kh2 - 1d6) * -1d3",
        [(3, 4), (1, 6), (1, 3)],
        lambda r: -(highest(r[0], 2) - r[1][0]) * -r[2][0],
    ),
    ("1d8 - (1d4 - 1d4)", [(1, 8), (1, 4), (1, 4)], lambda r: r[0][0] - (r[1][0] - r[2][0])),
    ("7", [], lambda r: 7),
    ("1d20 + 5 >= 15", [(1, 20)], lambda r: r[0][0] + 5),
]


@pytest.mark.parametrize(("text", "terms", "value"), ORACLES, ids=[o[0] for o in ORACLES])
def test_distribution_equals_brute_force_enumeration(
    text: str, terms: list[tuple[int, int]], value: Callable[[Rolls], int]
) -> None:
    assert distribution(text) == enumerate_outcomes(terms, value)


COMPARISONS: list[tuple[str, list[tuple[int, int]], Callable[[Rolls], bool]]] = [
    ("1d20 + 5 >= 15", [(1, 20)], lambda r: r[0][0] + 5 >= 15),
    ("2d6 > 7", [(2, 6)], lambda r: sum(r[0]) > 7),
    ("4d6kh3 < 10", [(4, 6)], lambda r: highest(r[0], 3) < 10),
    ("1d4 = 2", [(1, 4)], lambda r: r[0][0] == 2),
    ("1d6 != 3", [(1, 6)], lambda r: r[0][0] != 3),
    ("1d6 == 1d6", [(1, 6), (1, 6)], lambda r: r[0][0] == r[1][0]),
    ("3d6 <= 1d20", [(3, 6), (1, 20)], lambda r: sum(r[0]) <= r[1][0]),
    (
        "2d20kh1 - 1d4 > 1d8 * 2",
        [(2, 20), (1, 4), (1, 8)],
        lambda r: max(r[0]) - r[1][0] > r[2][0] * 2,
    ),
    ("1d6 >= 2 * 3", [(1, 6)], lambda r: r[0][0] >= 6),
]


@pytest.mark.parametrize(("text", "terms", "holds"), COMPARISONS, ids=[c[0] for c in COMPARISONS])
def test_probability_of_success_equals_brute_force_enumeration(
    text: str, terms: list[tuple[int, int]], holds: Callable[[Rolls], bool]
) -> None:
    expected = enumerate_outcomes(terms, lambda rolls: int(holds(rolls))).get(1, Fraction(0))
    assert parse(text).probability_of_success() == expected


def test_distribution_is_sorted_and_sums_to_one() -> None:
    pmf = distribution("4d6kh3 + 1d8 * 2 - 3")
    assert list(pmf) == sorted(pmf)
    assert sum(pmf.values()) == 1
    assert all(p > 0 for p in pmf.values())


def test_known_values_of_common_rolls() -> None:
    assert distribution("3d6")[10] == Fraction(1, 8)
    assert distribution("4d6kh3")[18] == Fraction(21, 1296)
    assert distribution("2d20kh1")[20] == Fraction(39, 400)
    assert parse("1d20 + 5 >= 15").probability_of_success() == Fraction(11, 20)


def test_min_and_max_are_the_ends_of_the_distribution() -> None:
    for text in ("4d6kh3", "2d6 - 1d8 * 3", "-(1d4 * 1d4)", "1d20 + 5 >= 15", "3"):
        expression = parse(text)
        pmf = expression.distribution()
        assert (expression.min(), expression.max()) == (min(pmf), max(pmf)), text


def test_returned_distribution_is_a_fresh_copy() -> None:
    expression = parse("2d6")
    expression.distribution().clear()
    assert sum(expression.distribution().values()) == 1


@pytest.mark.parametrize("text", ["20d6", "10d10", "4d6kh3", "3d10kh1", "2d20kh1", "8d6kh3"])
def test_common_rolls_fit_the_default_budget(text: str) -> None:
    """Speed is measured in bench/bench_dice.py, not asserted here."""
    pmf = parse(text, DiceBudget(max_dice=999)).distribution()  # a fresh cache entry
    assert sum(pmf.values()) == 1


def test_large_plain_sums_match_the_closed_form() -> None:
    # 50d20 is summed a die at a time (not by one big power): check one count exactly.
    pmf = distribution("50d20")
    n, sides, total = 50, 20, 600
    ways = sum(
        (-1) ** k * _comb(n, k) * _comb(total - k * sides - 1, n - 1)
        for k in range((total - n) // sides + 1)
    )
    assert pmf[total] == Fraction(ways, sides**n)


def _comb(n: int, k: int) -> int:
    from math import comb

    return comb(n, k)


@pytest.mark.parametrize(
    ("text", "limit"),
    [
        ("1000d1000", "max_outcomes"),
        ("1d1000 * 1d1000", "max_outcomes"),
        ("50d100kh25", "max_exact_work"),
        ("30d1000kh15", "max_exact_work"),
        ("100d1000", "max_exact_work"),
    ],
)
def test_enumerations_too_large_are_refused_by_the_budget(text: str, limit: str) -> None:
    with pytest.raises(DiceBudgetError) as caught:
        distribution(text)
    assert f"DiceBudget.{limit}" in caught.value.message


def test_huge_constants_spread_totals_without_breaking_the_enumeration() -> None:
    huge = 10**300
    assert distribution(f"1d2 * {huge} + 1d2") == {
        huge + 1: Fraction(1, 4),
        huge + 2: Fraction(1, 4),
        2 * huge + 1: Fraction(1, 4),
        2 * huge + 2: Fraction(1, 4),
    }


def test_a_smaller_budget_refuses_sooner() -> None:
    with pytest.raises(DiceBudgetError, match="max_exact_work"):
        parse("20d6", DiceBudget(max_exact_work=10)).distribution()


def test_probability_of_success_needs_a_comparison() -> None:
    with pytest.raises(DiceError, match="no comparison"):
        parse("1d20 + 5").probability_of_success()
