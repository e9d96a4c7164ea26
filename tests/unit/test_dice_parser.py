"""Dice notation: what parses, how it is normalised, and where a refusal points."""

from __future__ import annotations

import pytest

from lazaretto.core.dice import DiceBudget, Expression, parse
from lazaretto.core.dice.ast import Comparison, Constant, Dice, Negate, Product, Sum
from lazaretto.core.errors import DiceBudgetError, DiceError, DiceSyntaxError


@pytest.mark.parametrize(
    ("text", "normalised"),
    [
        ("4d6kh3", "4d6kh3"),
        ("2d20kl1", "2d20kl1"),
        ("2d20kh", "2d20kh1"),
        ("4d6dl", "4d6dl1"),
        ("4d6dl1", "4d6dl1"),
        ("4d6dh2", "4d6dh2"),
        ("d20", "1d20"),
        ("d%", "1d100"),
        ("3d%kl1", "3d100kl1"),
        ("1d20+5", "1d20 + 5"),
        ("1D20 + 5 >= 15", "1d20 + 5 >= 15"),
        ("4D6KH3", "4d6kh3"),
        ("1d20=10", "1d20 == 10"),
        ("1d20 != 1", "1d20 != 1"),
        ("2 * 3 + 1", "2 * 3 + 1"),
        ("-1d6", "-1d6"),
        ("--1", "--1"),
        ("-(1d4 + 2)", "-(1d4 + 2)"),
        ("(1d6)", "1d6"),
        ("1 - (2 - 3)", "1 - (2 - 3)"),
        ("(1d4 + 1) * 2", "(1d4 + 1) * 2"),
        ("2 * (3 * 1d4)", "2 * (3 * 1d4)"),
        ("  4 d 6 kh 3  ", "4d6kh3"),
        ("\t1d8\n+\r2", "1d8 + 2"),
        ("007", "7"),
    ],
)
def test_notation_parses_and_normalises(text: str, normalised: str) -> None:
    assert parse(text).text == normalised


@pytest.mark.parametrize(
    "text", ["4d6kh3 + 2d8 - 1", "-(1d4 + 2) * 3 >= -10", "1 - (2 - 3)", "2 * (3 * 1d4)", "--1"]
)
def test_normalised_text_parses_back_to_the_same_expression(text: str) -> None:
    expression = parse(text)
    assert parse(expression.text) == expression


def test_multiplication_binds_tighter_than_addition_and_chains_are_flat() -> None:
    tree = parse("1 + 2 * 3 - 4").tree
    assert tree == Sum(
        ((1, Constant(1)), (1, Product((Constant(2), Constant(3)))), (-1, Constant(4)))
    )


def test_unary_minus_binds_tighter_than_multiplication() -> None:
    assert parse("-2 * 3").tree == Product((Negate(Constant(2)), Constant(3)))


def test_comparison_is_the_root_with_both_sides_arithmetic() -> None:
    assert parse("1d20 + 5 >= 15").tree == Comparison(
        ">=", Sum(((1, Dice(1, 20)), (1, Constant(5)))), Constant(15)
    )


def test_keep_and_drop_suffixes_count_the_kept_dice() -> None:
    kept = {text: parse(text).tree for text in ("4d6kh3", "4d6kl3", "4d6dh1", "4d6dl3", "4d6")}
    assert {text: node.kept_count for text, node in kept.items()} == {  # type: ignore[union-attr]
        "4d6kh3": 3,
        "4d6kl3": 3,
        "4d6dh1": 3,
        "4d6dl3": 1,
        "4d6": 4,
    }


def test_keeping_or_dropping_every_die_is_allowed() -> None:
    assert parse("4d6kh4").max() == 24
    assert parse("4d6dl4").max() == 0


def test_parses_are_cached_per_text_and_budget() -> None:
    assert parse("3d6 + 1") is parse("3d6 + 1")
    assert parse("3d6 + 1", DiceBudget(max_dice=5)) is not parse("3d6 + 1")


def test_expression_is_immutable() -> None:
    expression = parse("1d6")
    with pytest.raises(AttributeError):
        expression.text = "2d6"  # type: ignore[misc]
    assert isinstance(expression, Expression)
    assert str(expression) == "1d6"


@pytest.mark.parametrize(
    ("text", "position", "words"),
    [
        ("", 0, "expected a number"),
        ("1d", 2, "number of sides"),
        ("d", 1, "number of sides"),
        ("1d6 +", 5, "expected a number"),
        ("1d6*", 4, "expected a number"),
        ("1d6 $ 2", 4, "unexpected character '$'"),
        ("1d6 ٣", 4, "unexpected character"),  # Arabic-Indic three is not a digit here
        ("0d6", 0, "0 dice"),
        ("2 + 0d6", 4, "0 dice"),
        ("1d0", 2, "at least 1 side"),
        ("4d6kh5", 5, "cannot keep 5 of 4 dice"),
        ("4d6dl5", 5, "cannot drop 5 of 4 dice"),
        ("(1d6", 4, "expected ')'"),
        ("((1) + 2", 8, "offset 0 is never closed"),
        ("1d6)", 3, "unexpected ')'"),
        ("1 >= 2 >= 3", 7, "only one comparison"),
        ("(1 >= 2)", 3, "expected ')'"),
        ("4d6kh3kh1", 6, "unexpected 'kh'"),
        ("kh3", 0, "unexpected 'kh'"),
        ("1d6 1d6", 4, "unexpected '1'"),
        ("2(3)", 1, "unexpected '('"),
        (">= 3", 0, "expected a number"),
    ],
)
def test_syntax_error_names_the_problem_and_points_at_its_position(
    text: str, position: int, words: str
) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert caught.value.position == position
    assert words in caught.value.message
    assert caught.value.pointer == f"{text}\n{' ' * position}^"
    assert caught.value.ru != caught.value.message  # a Russian text is given as well


@pytest.mark.parametrize(
    ("text", "budget", "limit"),
    [
        ("1001d6", DiceBudget(), "max_dice"),
        ("600d6 + 401d6", DiceBudget(), "max_dice"),
        ("11d6", DiceBudget(max_dice=10), "max_dice"),
        ("1d1001", DiceBudget(), "max_sides"),
        ("1" * 501, DiceBudget(), "max_length"),
        ("(" * 33 + "1" + ")" * 33, DiceBudget(), "max_nesting"),
        ("-" * 40 + "1", DiceBudget(), "max_nesting"),
    ],
)
def test_budget_refuses_oversized_expressions_naming_the_limit(
    text: str, budget: DiceBudget, limit: str
) -> None:
    with pytest.raises(DiceBudgetError) as caught:
        parse(text, budget)
    assert f"DiceBudget.{limit}" in caught.value.message
    assert caught.value.tip is not None


def test_budget_allows_exactly_its_limits() -> None:
    assert parse("600d6 + 400d6").max() == 6000
    assert parse("1d1000").max() == 1000
    assert parse("(" * 32 + "1" + ")" * 32).max() == 1


def test_budget_itself_must_be_positive() -> None:
    with pytest.raises(DiceBudgetError, match="max_dice"):
        DiceBudget(max_dice=0)


def test_every_refusal_is_a_dice_error() -> None:
    assert issubclass(DiceSyntaxError, DiceError)
    assert issubclass(DiceBudgetError, DiceError)
