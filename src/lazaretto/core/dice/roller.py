"""Rolling: the compiler from a tree to a specialised callable.

Parsing happens once; :func:`compile_arithmetic` then turns the tree into nested closures
in which constants are folded and each dice term picks the cheapest code for its shape
(one die, a plain sum, keep-one via ``max``/``min``, or a general keep). A die is
``int(random() * sides) + 1``: one C call and float arithmetic, several times cheaper
than ``randint`` (the same draw :func:`random.choices` uses; uniform for any ``sides``
far below 2**53). Results (:mod:`~lazaretto.core.dice.results`) are built with
``tuple.__new__`` because a frozen dataclass' ``__init__`` costs more than the roll.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import repeat
from random import Random
from typing import cast

from lazaretto.core.dice.ast import (
    COMPARATORS,
    Arithmetic,
    Comparison,
    Dice,
    Negate,
    Product,
    Root,
    Sum,
    bounds,
    has_dice,
)
from lazaretto.core.dice.results import DieRoll, RollResult, Rolls

Draw = Callable[[], float]
"""A source of uniform floats in [0, 1): the bound ``random.Random.random``."""
Evaluator = Callable[[Draw, list[DieRoll]], int]
"""A compiled (sub)expression: draws its dice, appends one DieRoll per term (if recording)."""


# tuple.__new__ skips the NamedTuple's Python-level __new__; typed for each result type.
_new_die = cast(
    Callable[[type[DieRoll], tuple[str, int, Rolls, Rolls, int]], DieRoll], tuple.__new__
)
_new_result = cast(
    Callable[[type[RollResult], tuple[str, tuple[DieRoll, ...], int, bool | None]], RollResult],
    tuple.__new__,
)


def fold_constant(node: Arithmetic) -> int:
    """The value of a tree that rolls no dice."""
    low, high = bounds(node)
    assert low == high, "fold_constant() called on a tree that rolls dice"
    return low


def compile_arithmetic(node: Arithmetic, *, record: bool) -> Evaluator:
    """Compile ``node`` into an evaluator.

    With ``record=False`` the dice terms only return their totals and never touch the
    list (the fast path of ``Expression.roll_many``).
    """
    if not has_dice(node):
        return _constant(fold_constant(node))
    if isinstance(node, Dice):
        return _record_dice(node) if record else _total_dice(node)
    if isinstance(node, Negate):
        inner = compile_arithmetic(node.operand, record=record)
        return lambda draw, out: -inner(draw, out)
    if isinstance(node, Sum):
        return _compile_sum(node, record=record)
    assert isinstance(node, Product)
    return _compile_product(node, record=record)


def _constant(value: int) -> Evaluator:
    return lambda draw, out: value


def _compile_product(node: Product, *, record: bool) -> Evaluator:
    coefficient, factors = 1, []
    for factor in node.factors:
        if has_dice(factor):
            factors.append(compile_arithmetic(factor, record=record))
        else:
            coefficient *= fold_constant(factor)

    def product(draw: Draw, out: list[DieRoll]) -> int:
        value = coefficient
        for factor in factors:  # every factor rolls, even after a zero: all dice are recorded
            value *= factor(draw, out)
        return value

    return product


def _compile_sum(node: Sum, *, record: bool) -> Evaluator:
    offset = 0
    terms: list[tuple[int, Evaluator]] = []
    for sign, term in node.terms:
        if has_dice(term):
            terms.append((sign, compile_arithmetic(term, record=record)))
        else:
            offset += sign * fold_constant(term)
    if len(terms) == 1 and terms[0][0] > 0:
        only = terms[0][1]
        return lambda draw, out: only(draw, out) + offset
    if len(terms) == 2 and terms[0][0] > 0 and terms[1][0] > 0:
        first, second = terms[0][1], terms[1][1]
        return lambda draw, out: first(draw, out) + second(draw, out) + offset

    def add(draw: Draw, out: list[DieRoll]) -> int:
        total = offset
        for sign, term in terms:
            total += sign * term(draw, out)
        return total

    return add


def _record_dice(dice: Dice) -> Evaluator:
    notation, sides, count, keep = dice.notation, dice.sides, dice.count, dice.kept_count
    loop = tuple(repeat(None, count))
    if keep == count and count == 1:

        def one_die(draw: Draw, out: list[DieRoll]) -> int:
            value = int(draw() * sides) + 1
            rolls = (value,)
            out.append(_new_die(DieRoll, (notation, sides, rolls, rolls, value)))
            return value

        return one_die
    if keep == count:

        def plain_sum(draw: Draw, out: list[DieRoll]) -> int:
            rolls = tuple([int(draw() * sides) + 1 for _ in loop])
            total = sum(rolls)
            out.append(_new_die(DieRoll, (notation, sides, rolls, rolls, total)))
            return total

        return plain_sum
    choose = select_kept(keep, highest=dice.keeps_highest)

    def keep_some(draw: Draw, out: list[DieRoll]) -> int:
        rolls = [int(draw() * sides) + 1 for _ in loop]
        kept = choose(rolls)
        total = sum(kept)
        out.append(_new_die(DieRoll, (notation, sides, tuple(rolls), kept, total)))
        return total

    return keep_some


def select_kept(keep: int, *, highest: bool) -> Callable[[list[int]], tuple[int, ...]]:
    """A function picking the ``keep`` highest (or lowest) rolls, in the order rolled."""
    if keep == 0:
        return lambda rolls: ()
    if keep == 1:
        best = max if highest else min
        return lambda rolls: (best(rolls),)

    def choose(rolls: list[int]) -> tuple[int, ...]:
        ordered = sorted(rolls, reverse=highest)
        edge = ordered[keep - 1]  # the worst kept value
        ties = keep - ordered.index(edge)  # how many dice showing it are kept
        kept = []
        for value in rolls:
            if value == edge:
                if ties:
                    kept.append(value)
                    ties -= 1
            elif (value > edge) is highest:
                kept.append(value)
        return tuple(kept)

    return choose


def _total_dice(dice: Dice) -> Evaluator:
    sides, count, keep = dice.sides, dice.count, dice.kept_count
    loop = tuple(repeat(None, count))
    if keep == count and count == 1:
        return lambda draw, out: int(draw() * sides) + 1
    if keep == count:
        return lambda draw, out: sum([int(draw() * sides) + 1 for _ in loop])
    if keep == 0:  # still draw every die, so roll() and roll_many() stay in step

        def keep_none(draw: Draw, out: list[DieRoll]) -> int:
            for _ in loop:
                draw()
            return 0

        return keep_none
    if keep == 1:
        best = max if dice.keeps_highest else min
        return lambda draw, out: best([int(draw() * sides) + 1 for _ in loop])
    if dice.keeps_highest:
        return lambda draw, out: sum(sorted([int(draw() * sides) + 1 for _ in loop])[-keep:])
    return lambda draw, out: sum(sorted([int(draw() * sides) + 1 for _ in loop])[:keep])


def compile_roll(text: str, tree: Root) -> Callable[[Random], RollResult]:
    """Compile ``tree`` into ``rng -> RollResult``, recording every die."""
    if not isinstance(tree, Comparison):
        evaluate = compile_arithmetic(tree, record=True)

        def roll(rng: Random) -> RollResult:
            dice: list[DieRoll] = []
            total = evaluate(rng.random, dice)
            return _new_result(RollResult, (text, tuple(dice), total, None))

        return roll
    left = compile_arithmetic(tree.left, record=True)
    holds = COMPARATORS[tree.op]
    if not has_dice(tree.right):
        target = fold_constant(tree.right)

        def roll_against(rng: Random) -> RollResult:
            dice: list[DieRoll] = []
            total = left(rng.random, dice)
            return _new_result(RollResult, (text, tuple(dice), total, holds(total, target)))

        return roll_against
    right = compile_arithmetic(tree.right, record=True)

    def roll_both_sides(rng: Random) -> RollResult:
        dice: list[DieRoll] = []
        draw = rng.random
        total = left(draw, dice)
        success = holds(total, right(draw, dice))
        return _new_result(RollResult, (text, tuple(dice), total, success))

    return roll_both_sides


def compile_totals(tree: Root) -> Callable[[Random, int], list[int]]:
    """Compile ``tree`` into ``(rng, n) -> n totals``: same draws, no DieRolls built."""
    right: Evaluator | None = None
    if isinstance(tree, Comparison):
        if has_dice(tree.right):
            right = compile_arithmetic(tree.right, record=False)
        tree = tree.left
    evaluate = compile_arithmetic(tree, record=False)
    unused: list[DieRoll] = []

    def roll_many(rng: Random, n: int) -> list[int]:
        draw = rng.random
        if right is None:
            return [evaluate(draw, unused) for _ in repeat(None, n)]
        totals = []
        for _ in repeat(None, n):
            totals.append(evaluate(draw, unused))
            right(draw, unused)  # keeps the stream in step with roll()
        return totals

    return roll_many
