"""NumPy batch rolling (``core.dice.batch.roll_many``): its totals follow the exact
distribution. Fixed seeds make every check deterministic; the bounds are wide (chi-square
and per-total deviations far beyond chance) so they test the shape, not the luck."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from lazaretto.core.dice import parse
from lazaretto.core.dice.batch import CHUNK_DICE, roll_many
from lazaretto.core.errors import InvalidInput

N = 120_000
EXPRESSIONS = [
    "1d20 + 5",
    "3d6",
    "4d6kh3",
    "4d6kl3",
    "2d20kh1",
    "3d10kl1",
    "5d10kh3",
    "5d10kl2",
    "6d6dh2",
    "20d6kh10",
    "2d4 * 1d3 - 1",
    "-1d8 + 2d6",
    "2d6kh0 + 1",
    "1d1000",
]


def assert_follows(expression: str, samples: NDArray[Any]) -> None:
    """Chi-square far below its 1-in-a-million tail, each total within 5.5 sigma, and
    nothing impossible."""
    exact = parse(expression).distribution()
    seen = Counter(samples.tolist())
    assert set(seen) <= set(exact), set(seen) - set(exact)
    n = len(samples)
    chi2 = sum((seen.get(k, 0) - n * float(p)) ** 2 / (n * float(p)) for k, p in exact.items())
    df = max(1, len(exact) - 1)
    assert chi2 < df + 7 * math.sqrt(2 * df) + 15, (expression, chi2, df)
    for total, p in exact.items():
        mean, sd = n * float(p), math.sqrt(n * float(p) * (1 - float(p)))
        assert abs(seen.get(total, 0) - mean) <= 5.5 * sd + 1, (expression, total)


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_the_totals_follow_the_exact_distribution(expression: str) -> None:
    samples = roll_many(expression, N, np.random.default_rng(2024))
    assert samples.shape == (N,) and samples.dtype == np.int64
    assert_follows(expression, samples)


def test_a_comparison_gives_booleans_at_the_exact_rate() -> None:
    expression = "1d20 + 5 >= 15"
    hits = roll_many(expression, N, np.random.default_rng(7))
    assert hits.dtype == np.bool_
    p = float(parse(expression).probability_of_success())
    assert abs(hits.mean() - p) <= 5.5 * math.sqrt(p * (1 - p) / N)


def test_dice_on_both_sides_of_a_comparison() -> None:
    hits = roll_many("1d6 > 1d6", N, np.random.default_rng(8))
    assert abs(hits.mean() - 15 / 36) <= 5.5 * math.sqrt(15 / 36 * 21 / 36 / N)


def test_many_chunks_still_follow_the_distribution() -> None:
    rows = CHUNK_DICE // 20
    samples = roll_many("20d6", 3 * rows + 17, np.random.default_rng(9))  # 4 chunks
    assert len(samples) == 3 * rows + 17
    assert_follows("20d6", samples)


def test_the_same_seed_gives_the_same_rolls() -> None:
    first = roll_many("4d6kh3 + 1d4", 1000, np.random.default_rng(3))
    again = roll_many("4d6kh3 + 1d4", 1000, np.random.default_rng(3))
    assert (first == again).all()


def test_totals_beyond_int64_fall_back_to_the_scalar_roller() -> None:
    expression = "1d6 * 999999999999 * 999999999"
    samples = roll_many(expression, 50, np.random.default_rng(1))
    assert samples.dtype == object
    factor = 999999999999 * 999999999
    assert {int(s) // factor for s in samples} <= set(range(1, 7))
    assert all(int(s) % factor == 0 for s in samples)
    flags = roll_many(expression + " >= 1", 10, np.random.default_rng(1))
    assert flags.tolist() == [True] * 10


def test_no_rolls_and_a_negative_count() -> None:
    assert roll_many("3d6", 0, np.random.default_rng(1)).shape == (0,)
    with pytest.raises(InvalidInput):
        roll_many("3d6", -1, np.random.default_rng(1))
