"""Properties over generated expressions: any text gives a result or our own error, and
grammar-following expressions roll inside their bounds and match brute force."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from itertools import product

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from lazaretto.core.dice import DiceBudget, parse
from lazaretto.core.dice.ast import (
    COMPARATORS,
    Arithmetic,
    Comparison,
    Constant,
    Dice,
    Negate,
    Product,
    Sum,
    dice_terms,
)
from lazaretto.core.errors import DiceBudgetError, DiceError

SMALL_BUDGET = DiceBudget(max_exact_work=200_000, max_outcomes=20_000)
PROPERTY_SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

spaces = st.sampled_from(["", "", " ", "  ", "\t"])


@st.composite
def dice_notation(draw: st.DrawFn, max_count: int, sides: list[str]) -> str:
    """One dice term: ``NdM``/``dM``/``d%`` with an optional keep/drop suffix, any case."""
    count = draw(st.one_of(st.none(), st.integers(1, max_count)))
    text = f"{'' if count is None else count}{draw(st.sampled_from(['d', 'D']))}"
    text += draw(st.sampled_from(sides))
    if draw(st.booleans()):
        mode = draw(st.sampled_from(["kh", "kl", "dh", "dl", "KH", "Dl"]))
        amount = draw(st.one_of(st.none(), st.integers(0, count or 1)))
        text += mode + ("" if amount is None else str(amount))
    return text


def arithmetic(depth: int, max_count: int, sides: list[str]) -> st.SearchStrategy[str]:
    """Grammar-following arithmetic text, nested at most ``depth`` levels."""
    leaf = st.one_of(st.integers(0, 20).map(str), dice_notation(max_count, sides))
    if depth == 0:
        return leaf
    inner = arithmetic(depth - 1, max_count, sides)
    binary = st.tuples(inner, spaces, st.sampled_from(["+", "-", "*"]), spaces, inner).map("".join)
    return st.one_of(
        leaf, binary, inner.map(lambda text: f"-{text}"), inner.map(lambda text: f"({text})")
    )


def statements(depth: int, max_count: int, sides: list[str]) -> st.SearchStrategy[str]:
    """Arithmetic with an optional top-level comparison."""
    side = arithmetic(depth, max_count, sides)
    compare = st.sampled_from([">=", "<=", ">", "<", "==", "!=", "="])
    compared = st.tuples(side, spaces, compare, spaces, side).map("".join)
    return st.one_of(side, compared)


ALL_SIDES = ["1", "2", "3", "4", "6", "8", "10", "12", "20", "100", "%"]


@PROPERTY_SETTINGS
@given(text=statements(depth=3, max_count=4, sides=ALL_SIDES), seed=st.integers(0, 2**32))
def test_a_valid_expression_rolls_within_its_bounds_with_positive_probability(
    text: str, seed: int
) -> None:
    expression = parse(text, SMALL_BUDGET)
    result = expression.roll(random.Random(seed))
    assert expression.min() <= result.total <= expression.max()
    assert len(result.dice) == len(list(dice_terms(expression.tree)))
    assert parse(result.expression, SMALL_BUDGET) == expression
    try:
        pmf = expression.distribution()
    except DiceBudgetError:
        event("exact distribution over the test budget")
        return
    assert pmf.get(result.total, 0) > 0
    assert sum(pmf.values()) == 1
    if result.success is None:
        return
    try:  # the two sides' difference can cost more than either side's distribution
        chance = expression.probability_of_success()
    except DiceBudgetError:
        event("success chance over the test budget")
        return
    assert 0 <= chance <= 1


def interpret(node: Arithmetic, rolls: Iterator[tuple[int, ...]]) -> int:
    """A slow, independent evaluator: take each dice term's faces from ``rolls``."""
    if isinstance(node, Constant):
        return node.value
    if isinstance(node, Dice):
        faces = sorted(next(rolls), reverse=node.keeps_highest)
        return sum(faces[: node.kept_count])
    if isinstance(node, Negate):
        return -interpret(node.operand, rolls)
    if isinstance(node, Sum):
        return sum(sign * interpret(term, rolls) for sign, term in node.terms)
    assert isinstance(node, Product)
    value = 1
    for factor in node.factors:
        value *= interpret(factor, rolls)
    return value


def brute_force(text: str) -> tuple[dict[int, Fraction], Fraction | None]:
    """The distribution (and success chance) of ``text`` over every combination of faces."""
    tree = parse(text).tree
    terms = list(dice_terms(tree))
    faces = [list(product(range(1, d.sides + 1), repeat=d.count)) for d in terms]
    totals: Counter[int] = Counter()
    successes = 0
    for outcome in product(*faces):
        rolls = iter(outcome)
        if isinstance(tree, Comparison):
            total = interpret(tree.left, rolls)
            successes += COMPARATORS[tree.op](total, interpret(tree.right, rolls))
        else:
            total = interpret(tree, rolls)
        totals[total] += 1
    ways = sum(totals.values())
    pmf = {total: Fraction(n, ways) for total, n in sorted(totals.items())}
    return pmf, Fraction(successes, ways) if isinstance(tree, Comparison) else None


@PROPERTY_SETTINGS
@given(text=statements(depth=2, max_count=2, sides=["1", "2", "3", "4"]))
def test_exact_distribution_equals_brute_force_for_small_expressions(text: str) -> None:
    expression = parse(text)
    pmf, success = brute_force(text)
    assert expression.distribution() == pmf
    if success is not None:
        assert expression.probability_of_success() == success


GRAMMAR_CHARACTERS = "0123456789dDkKhHlL%+-*()<>=! \t"


def use_arbitrary_text(text: str) -> None:
    """Everything a caller might do with the text; only DiceError may escape."""
    try:
        expression = parse(text, SMALL_BUDGET)
        result = expression.roll(random.Random(0))
        json.dumps(result.to_dict())
        assert expression.min() <= result.total <= expression.max()
        expression.distribution()
        if result.success is not None:
            expression.probability_of_success()
    except DiceError:
        pass


@PROPERTY_SETTINGS
@given(text=st.text(max_size=60))
def test_any_text_gives_a_result_or_a_dice_error(text: str) -> None:
    use_arbitrary_text(text)


@PROPERTY_SETTINGS
@given(text=st.text(alphabet=GRAMMAR_CHARACTERS, max_size=40))
def test_near_grammatical_text_gives_a_result_or_a_dice_error(text: str) -> None:
    use_arbitrary_text(text)


@PROPERTY_SETTINGS
@given(
    parts=st.lists(
        st.one_of(
            statements(depth=2, max_count=4, sides=ALL_SIDES),
            st.text(max_size=5),
            st.integers(0, 10**150).map(str),
            st.sampled_from(["(", ")", "*", "d", "d%", "kh", "-", ">="]),
        ),
        max_size=6,
    )
)
def test_spliced_expressions_give_a_result_or_a_dice_error(parts: list[str]) -> None:
    use_arbitrary_text("".join(parts))
