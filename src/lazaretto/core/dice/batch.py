"""Batch rolling with NumPy: ``n`` totals of one expression as one array.

::

    import numpy as np
    from lazaretto.core.dice.batch import roll_many

    totals = roll_many("4d6kh3", 1_000_000, np.random.default_rng(7))   # int64 array
    hits = roll_many("1d20 + 5 >= 15", 10_000, np.random.default_rng(7)) # bool array

For simulations, where only the totals matter: no die is recorded and the stream is
NumPy's, not the campaign's (use :meth:`Expression.roll` for rolls that are part of a
game). The tree is compiled once (cached) into array operations. A dice term draws a
``(count, rows)`` matrix of ``int16`` (NumPy draws those faster than ``int64``, and than
``int8`` above a few dozen sides), so every reduction works on whole rows of values at a
time; it keeps dice by ``max``/``min``, by "sum minus the lowest (highest)", by bubble
passes of element-wise ``minimum``/``maximum`` for a few extremes, or by ``np.sort``.
Sums, products, negation and comparisons are element-wise. Rows are processed in
chunks so the matrices stay in the cache and memory stays bounded whatever ``n`` is.

A tree whose totals could leave ``int64`` (huge products) is not vectorised: it falls
back to the scalar roller, seeded from ``rng``, and returns an ``object`` array.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from lazaretto.core.dice.ast import (
    Arithmetic,
    Comparison,
    Constant,
    Dice,
    Negate,
    Product,
    Root,
    Sum,
    dice_terms,
    has_dice,
)
from lazaretto.core.dice.expression import Expression, parse
from lazaretto.core.dice.roller import fold_constant
from lazaretto.core.errors import InvalidInput

Generator = np.random.Generator
Vector = NDArray[np.int64]
Draw = Callable[[Generator, int], Vector]
"""A compiled (sub)expression: ``rows`` totals drawn from the generator."""

CHUNK_DICE = 1 << 18
"""Dice drawn per chunk: big enough to amortise NumPy's per-call cost, small enough to
stay in the cache (measured on a 2-core box: 2**16..2**20 are all within a few %)."""
MAX_NETWORK_COMPARATORS = 96
"""Above this many element-wise compare-and-swaps a keep uses ``np.sort`` instead."""
_INT64_SAFE = 1 << 62
_COMPARE: dict[str, Callable[[Vector, Vector], NDArray[np.bool_]]] = {
    ">=": np.greater_equal,
    "<=": np.less_equal,
    ">": np.greater,
    "<": np.less,
    "==": np.equal,
    "!=": np.not_equal,
}


def roll_many(expr: Expression | str, n: int, rng: Generator) -> NDArray[Any]:
    """Roll ``expr`` ``n`` times on ``rng``: the totals (``int64``), or for a comparison
    whether each roll succeeds (``bool``).

    Raises:
        InvalidInput: ``n`` is negative.
        DiceSyntaxError, DiceBudgetError: ``expr`` is text that does not parse.
    """
    if n < 0:
        raise InvalidInput(
            f"Cannot roll {n} times: give a count of 0 or more",
            ru=f"Нельзя бросить {n} раз: укажите 0 или больше",
        )
    expression = parse(expr) if isinstance(expr, str) else expr
    compiled = _compile_root(expression.tree)
    if compiled is None:
        return _scalar(expression, n, rng)
    draw, dice_per_row, comparison = compiled
    rows = max(1, CHUNK_DICE // max(1, dice_per_row))
    if n <= rows:
        return draw(rng, n)
    out: NDArray[Any] = np.empty(n, dtype=np.bool_ if comparison else np.int64)
    for start in range(0, n, rows):
        size = min(rows, n - start)
        out[start : start + size] = draw(rng, size)
    return out


@lru_cache(maxsize=256)
def _compile_root(tree: Root) -> tuple[Callable[[Generator, int], NDArray[Any]], int, bool] | None:
    """The chunk evaluator, the dice it rolls per row and whether it compares; None if
    its totals might overflow ``int64``."""
    dice_per_row = sum(d.count for d in dice_terms(tree))
    if isinstance(tree, Comparison):
        if max(_magnitude(tree.left), _magnitude(tree.right)) >= _INT64_SAFE:
            return None
        left, right = compile_vector(tree.left), compile_vector(tree.right)
        holds = _COMPARE[tree.op]
        return (lambda rng, rows: holds(left(rng, rows), right(rng, rows))), dice_per_row, True
    if _magnitude(tree) >= _INT64_SAFE:
        return None
    return compile_vector(tree), dice_per_row, False


def compile_vector(node: Arithmetic) -> Draw:
    """Compile ``node`` into ``(rng, rows) -> rows totals`` (constants folded)."""
    if not has_dice(node):
        value = fold_constant(node)
        return lambda rng, rows: np.full(rows, value, dtype=np.int64)
    if isinstance(node, Dice):
        return _dice(node)
    if isinstance(node, Negate):
        inner = compile_vector(node.operand)
        return lambda rng, rows: np.negative(inner(rng, rows))
    if isinstance(node, Sum):
        return _sum(node)
    assert isinstance(node, Product)
    return _product(node)


def _sum(node: Sum) -> Draw:
    offset = 0
    terms: list[tuple[int, Draw]] = []
    for sign, term in node.terms:
        if has_dice(term):
            terms.append((sign, compile_vector(term)))
        else:
            offset += sign * fold_constant(term)

    def add(rng: Generator, rows: int) -> Vector:
        total: Vector | None = None
        for sign, term in terms:
            values = term(rng, rows)
            if total is None:
                total = values if sign > 0 else np.negative(values)
            elif sign > 0:
                total += values
            else:
                total -= values
        assert total is not None
        if offset:
            total += offset
        return total

    return add


def _product(node: Product) -> Draw:
    coefficient = 1
    factors: list[Draw] = []
    for factor in node.factors:
        if has_dice(factor):
            factors.append(compile_vector(factor))
        else:
            coefficient *= fold_constant(factor)

    def multiply(rng: Generator, rows: int) -> Vector:
        total = factors[0](rng, rows)  # every factor rolls, even after a zero
        for factor in factors[1:]:
            total *= factor(rng, rows)
        if coefficient != 1:
            total *= coefficient
        return total

    return multiply


def _dice(dice: Dice) -> Draw:
    """The cheapest array code for the shape of one dice term.

    Dice are drawn as a ``(count, rows)`` matrix: reducing over its first axis adds (or
    compares) whole rows of ``rows`` values at a time, which NumPy does far faster than
    reducing each short row of a ``(rows, count)`` matrix.
    """
    count, sides, keep = dice.count, dice.sides, dice.kept_count
    high = sides + 1
    small = np.int16 if sides <= np.iinfo(np.int16).max else np.int64
    if keep == 0:
        return lambda rng, rows: np.zeros(rows, dtype=np.int64)
    if count == 1:
        return lambda rng, rows: rng.integers(1, high, size=rows, dtype=small).astype(np.int64)

    def matrix(rng: Generator, rows: int) -> NDArray[Any]:
        return rng.integers(1, high, size=(count, rows), dtype=small)

    sum_type = _dtype_for(count * sides)

    def total(m: NDArray[Any]) -> Vector:
        sums: Vector = m.sum(axis=0, dtype=sum_type).astype(np.int64)
        return sums

    if keep == count:
        return lambda rng, rows: total(matrix(rng, rows))
    highest = dice.keeps_highest
    if keep == 1:
        pick = np.max if highest else np.min
        return lambda rng, rows: pick(matrix(rng, rows), axis=0).astype(np.int64)
    if keep == count - 1:  # drop one: the sum without the lowest (highest) die
        drop = np.min if highest else np.max

        def drop_one(rng: Generator, rows: int) -> Vector:
            m = matrix(rng, rows)
            kept = total(m)
            kept -= drop(m, axis=0)
            return kept

        return drop_one
    # The kept sum is the sum of the `keep` extreme dice, or the total minus the sum of
    # the `count - keep` dice at the other extreme: select whichever set is smaller.
    select_kept = keep <= count - keep
    chosen = keep if select_kept else count - keep
    top = highest if select_kept else not highest
    if chosen * count <= MAX_NETWORK_COMPARATORS:

        def by_network(rng: Generator, rows: int) -> Vector:
            m = matrix(rng, rows)
            picked = _extremes(m, chosen, top=top)
            return picked if select_kept else total(m) - picked

        return by_network

    def by_sorting(rng: Generator, rows: int) -> Vector:
        ordered = np.sort(matrix(rng, rows), axis=0)
        kept = ordered[count - keep :] if highest else ordered[:keep]
        return total(kept)

    return by_sorting


def _extremes(m: NDArray[Any], chosen: int, *, top: bool) -> Vector:
    """The sum of the ``chosen`` highest (``top``) or lowest values of each column of
    ``m``, by bubble passes of element-wise min/max over whole rows (``m`` is reordered).

    Each pass carries the extreme of the rows not yet settled to the end (``top``) or
    the start of the matrix; ``chosen`` passes settle the ``chosen`` extremes.
    """
    count = m.shape[0]
    for done in range(chosen):
        if top:
            pairs = [(i, i + 1) for i in range(count - 1 - done)]
        else:
            pairs = [(i - 1, i) for i in range(count - 1, done, -1)]
        for low, high in pairs:  # afterwards row `low` holds the min, row `high` the max
            a, b = m[low], m[high]
            smaller = np.minimum(a, b)
            np.maximum(a, b, out=b)
            a[...] = smaller
    picked = m[count - chosen :] if top else m[:chosen]
    sums: Vector = picked.sum(axis=0, dtype=np.int64)
    return sums


def _dtype_for(largest: int) -> type[np.signedinteger[Any]]:
    """The smallest signed integer type holding every value up to ``largest``."""
    for kind in (np.int8, np.int16, np.int32):
        if largest <= np.iinfo(kind).max:
            return kind
    return np.int64


def _magnitude(node: Arithmetic) -> int:
    """A bound on the absolute value of ``node`` and of every partial sum or product
    computed on the way to it."""
    if isinstance(node, Constant):
        return abs(node.value)
    if isinstance(node, Dice):
        return node.kept_count * node.sides
    if isinstance(node, Negate):
        return _magnitude(node.operand)
    if isinstance(node, Sum):
        return sum(_magnitude(term) for _, term in node.terms)
    result = 1
    for factor in node.factors:
        result *= max(1, _magnitude(factor))
    return result


def _scalar(expression: Expression, n: int, rng: Generator) -> NDArray[Any]:
    """The fallback: the scalar roller on a stream seeded from ``rng``."""
    stream = random.Random(int(rng.integers(0, 2**63)))
    out = np.empty(n, dtype=object)
    if isinstance(expression.tree, Comparison):
        out[:] = [expression.roll(stream).success for _ in range(n)]
    else:
        out[:] = expression.roll_many(stream, n)
    return out
