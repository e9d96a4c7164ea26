"""Fuzzing the dice parser beyond tests/unit/test_dice_properties.py: any budget a caller
may pass, any Unicode (lone surrogates and control characters too), texts at and past
the length limit, nesting far past any limit. Whatever comes in, the answer is a result
or a DiceError, and a seeded roll of what parses is the same every time (DESIGN.md,
principle 5)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lazaretto.core.dice import DiceBudget, parse
from lazaretto.core.errors import DiceBudgetError, DiceError
from tests.unit.test_dice_properties import ALL_SIDES, GRAMMAR_CHARACTERS, statements

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

budgets = st.builds(
    DiceBudget,
    max_dice=st.integers(1, 10**6),
    max_sides=st.integers(1, 10**6),
    max_length=st.integers(1, 10**6),
    max_nesting=st.integers(1, 10**6),
    max_outcomes=st.integers(1, 20_000),  # exact odds stay cheap in a test
    max_exact_work=st.integers(1, 200_000),
)
any_character = st.characters(exclude_categories=())  # surrogates and controls included


@st.composite
def nested(draw: st.DrawFn) -> str:
    """An expression wrapped in brackets, minus signs or products, often far too deep."""
    depth = draw(st.one_of(st.integers(0, 120), st.integers(120, 5000)))
    inner = draw(statements(depth=1, max_count=3, sides=["4", "6", "20"]))
    opener, closer = draw(st.sampled_from([("(", ")"), ("-", ""), ("(-", ")"), ("2*(", ")")]))
    return opener * depth + inner + closer * depth


def use(text: str, budget: DiceBudget) -> None:
    """Parse, roll, enumerate: only a DiceError may escape."""
    try:
        expression = parse(text, budget)
        result = expression.roll(random.Random(0))
        assert expression.min() <= result.total <= expression.max()
        expression.distribution()
    except DiceError as err:
        assert err.message and "\n" not in err.message


@FUZZ
@given(text=st.one_of(nested(), st.text(GRAMMAR_CHARACTERS, max_size=300)), budget=budgets)
def test_any_budget_gives_a_result_or_a_dice_error(text: str, budget: DiceBudget) -> None:
    use(text, budget)


@FUZZ
@given(text=st.text(any_character, max_size=80))
def test_any_unicode_gives_a_result_or_a_dice_error(text: str) -> None:
    use(text, DiceBudget(max_outcomes=20_000, max_exact_work=200_000))


@FUZZ
@given(
    text=statements(depth=2, max_count=4, sides=ALL_SIDES),
    padding=st.integers(0, 520),
)
def test_the_length_limit_counts_every_character(text: str, padding: int) -> None:
    """Spaces are characters too: a text over max_length is refused, however simple."""
    padded = text + " " * padding
    budget = DiceBudget(max_outcomes=20_000, max_exact_work=200_000)
    if len(padded) > budget.max_length:
        try:
            parse(padded, budget)
        except DiceBudgetError as err:
            assert "max_length" in err.message
        else:
            raise AssertionError(f"{len(padded)} characters were accepted")
    else:
        use(padded, budget)


@FUZZ
@given(text=statements(depth=3, max_count=6, sides=ALL_SIDES), seed=st.integers(0, 2**64))
def test_a_seed_replays_the_same_roll(text: str, seed: int) -> None:
    expression = parse(text)
    first = expression.roll(random.Random(seed)).to_dict()
    assert parse(text).roll(random.Random(seed)).to_dict() == first
    assert parse(str(expression)).roll(random.Random(seed)).to_dict() == first


@FUZZ
@given(values=st.fixed_dictionaries({}, optional={
    name: st.one_of(st.integers(-5, 10**9), st.booleans(), st.floats(), st.text(max_size=3),
                    st.none())
    for name in ("max_dice", "max_sides", "max_length", "max_nesting", "max_outcomes",
                 "max_exact_work")
}))
def test_a_budget_is_made_of_positive_integers_or_refused(values: dict[str, object]) -> None:
    try:
        budget = DiceBudget(**values)  # type: ignore[arg-type]
    except DiceBudgetError as err:
        assert "DiceBudget." in err.message
    else:
        assert all(isinstance(getattr(budget, k), int) and getattr(budget, k) >= 1
                   for k in values)
