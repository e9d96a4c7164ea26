"""Exact distributions: integer outcome counts, turned into Fractions only at the end.

A distribution is held as ``Counts``: total → number of equally likely ways to roll it.
Sums of independent terms are polynomial products, done by Kronecker substitution:
each count becomes a fixed-width digit of one big Python int, so a whole convolution is a
single C-level multiplication (``(1 + x + … + x^(M-1)) ** N`` for ``NdM``). CPython
multiplies big ints by Karatsuba (size**1.585), so large plain sums instead add one die
at a time with prefix sums. Keeping the highest (lowest) K of N dice is a dynamic
programme over the faces from the top (bottom): at each face choose how many dice show
it, with binomial weights, until K dice are kept; the rest then only need to show the
faces not yet reached, ``(face - 1) ** rest`` ways. Its rows are packed the same way, so
the work is ``sides × K × N`` big-int operations, never the ``sides ** N`` outcomes.

Every step first charges a :class:`WorkMeter` its estimated cost, so an expression too
large to enumerate is refused with a :class:`DiceBudgetError` before the expensive work
starts (a product's distinct totals are only known once computed, so that check follows).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from math import comb
from operator import sub

from lazaretto.core.dice.ast import COMPARATORS, Arithmetic, Comparison, Constant, Dice, Negate, Sum
from lazaretto.core.dice.budget import DiceBudget, refuse

Counts = dict[int, int]
"""Outcome → number of ways; the total number of ways is ``sum(counts.values())``."""
_Combine = Callable[[int, int], int]

# Cost model, in steps of ~0.1 µs of CPython (measured on a 2-core box): a Python-level
# loop iteration is a step or two; linear big-int work (add, shift, multiply by a small
# int) runs ~100 machine digits per step; multiplying two n-digit ints (Karatsuba) takes
# ~n**1.585 / 13 steps.
_DIGIT_BITS = 30
_LINEAR_DIGITS_PER_STEP = 100
_KARATSUBA_STEPS_DIVISOR = 13


def _digits(outcomes: int, width: int) -> int:
    """Machine digits of ``outcomes`` counts packed ``width`` bytes each."""
    return outcomes * width * 8 // _DIGIT_BITS + 1


def _product_steps(outcomes: int, width: int) -> int:
    """Estimated steps to multiply two packed polynomials into ``outcomes`` digits."""
    half = _digits(outcomes, width) // 2
    return int(half**1.585) // _KARATSUBA_STEPS_DIVISOR + 3 * outcomes


class WorkMeter:
    """Running cost of one enumeration against ``budget.max_exact_work``."""

    def __init__(self, budget: DiceBudget) -> None:
        self.budget = budget
        self.spent = 0

    def charge(self, steps: int) -> None:
        """Add ``steps``; refuse if the enumeration would now exceed its budget."""
        self.spent += steps
        if self.spent > self.budget.max_exact_work:
            raise refuse(
                "estimated work of the exact distribution",
                self.spent,
                self.budget.max_exact_work,
                "max_exact_work",
                ru="оценка работы точного распределения",
            )

    def check_outcomes(self, outcomes: int) -> None:
        """Refuse a (sub)distribution that would hold more than ``max_outcomes`` totals."""
        if outcomes > self.budget.max_outcomes:
            raise refuse(
                "distinct totals of the exact distribution",
                outcomes,
                self.budget.max_outcomes,
                "max_outcomes",
                ru="различных сумм в точном распределении",
            )


def counts_of(node: Arithmetic, meter: WorkMeter) -> Counts:
    """The outcome counts of ``node``'s total."""
    if isinstance(node, Constant):
        return {node.value: 1}
    if isinstance(node, Dice):
        return _dice(node, meter)
    if isinstance(node, Negate):
        return negate(counts_of(node.operand, meter), meter)
    if isinstance(node, Sum):
        result = counts_of(node.terms[0][1], meter)
        for sign, term in node.terms[1:]:
            counts = counts_of(term, meter)
            result = add(result, counts if sign > 0 else negate(counts, meter), meter)
        return result
    result = counts_of(node.factors[0], meter)
    for factor in node.factors[1:]:
        result = multiply(result, counts_of(factor, meter), meter)
    return result


def negate(counts: Counts, meter: WorkMeter) -> Counts:
    """Counts of minus a total."""
    meter.charge(len(counts))
    return {-outcome: ways for outcome, ways in counts.items()}


def add(left: Counts, right: Counts, meter: WorkMeter) -> Counts:
    """Counts of the sum of two independent totals."""
    if len(left) < len(right):
        left, right = right, left
    if len(right) == 1:
        meter.charge(len(left))
        ((shift, times),) = right.items()
        return {outcome + shift: ways * times for outcome, ways in left.items()}
    low, high = min(left), max(left)
    right_low, right_high = min(right), max(right)
    span = high - low + right_high - right_low + 1
    if span <= meter.budget.max_outcomes:  # dense enough to pack (and span fits a float)
        width = _width_for(sum(left.values()) * sum(right.values()))
        packed_steps = _product_steps(span, width)
        if packed_steps < 4 * len(left) * len(right):
            meter.charge(packed_steps)
            product = _pack(left, low, high, width) * _pack(right, right_low, right_high, width)
            return _unpack(product, low + right_low, span, width)
    return _pairwise(left, right, meter, lambda a, b: a + b)


def multiply(left: Counts, right: Counts, meter: WorkMeter) -> Counts:
    """Counts of the product of two independent totals."""
    if len(left) < len(right):
        left, right = right, left
    if len(right) == 1:
        meter.charge(len(left))
        ((factor, times),) = right.items()
        if factor == 0:
            return {0: sum(left.values()) * times}
        return {outcome * factor: ways * times for outcome, ways in left.items()}
    return _pairwise(left, right, meter, lambda a, b: a * b)


def _pairwise(left: Counts, right: Counts, meter: WorkMeter, combine: _Combine) -> Counts:
    meter.charge(4 * len(left) * len(right))
    result: defaultdict[int, int] = defaultdict(int)
    for outcome, ways in left.items():
        for other, other_ways in right.items():
            result[combine(outcome, other)] += ways * other_ways
    meter.check_outcomes(len(result))
    return dict(result)


def _dice(dice: Dice, meter: WorkMeter) -> Counts:
    count, sides, keep = dice.count, dice.sides, dice.kept_count
    if keep == 0:
        return {0: sides**count}
    width = _width_for(sides**count)
    if keep < count:
        return _keep(count, sides, keep, highest=dice.keeps_highest, width=width, meter=meter)
    span = count * (sides - 1) + 1
    meter.check_outcomes(span)
    # (1 + x + … + x^(sides-1)) ** count as one big-int power wins while the ints are
    # small; Karatsuba grows as size**1.585, so large sums add one die at a time instead.
    packed_steps = 3 * _product_steps(span, width) // 2
    sliding_steps = count * span * (2 + width // 100) // 2
    if packed_steps <= sliding_steps:
        meter.charge(packed_steps)
        one_die = _pack(dict.fromkeys(range(1, sides + 1), 1), 1, sides, width)
        return _unpack(one_die**count, count, span, width)
    meter.charge(sliding_steps)
    return {count + index: ways for index, ways in enumerate(_sum_sliding(count, sides))}


def _sum_sliding(count: int, sides: int) -> list[int]:
    """Counts of the sums of ``count`` dice (from ``count`` up), adding a die at a time.

    Adding a die makes each new count the sum of a window of ``sides`` old ones, which is
    a difference of two prefix sums.
    """
    row = [1]
    for _ in range(count):
        prefix = [0, *accumulate(row)]
        upper = prefix[1:] + [prefix[-1]] * (sides - 1)
        lower = [0] * (sides - 1) + prefix[:-1]
        row = list(map(sub, upper, lower))
    return row


def _keep(
    count: int, sides: int, keep: int, *, highest: bool, width: int, meter: WorkMeter
) -> Counts:
    """Counts of the sum of the ``keep`` highest (lowest) of ``count`` dice."""
    span = keep * sides + 1  # kept sums 0..keep*sides, packed from 0
    meter.check_outcomes(span)
    # Most partial rows are much shorter than the final one; the full span overestimates.
    row_steps = 4 + 2 * _digits(span, width) // _LINEAR_DIGITS_PER_STEP
    meter.charge(sides * keep * (count + 1) * row_steps)
    digit = 8 * width
    # partial[c]: packed kept-sum polynomial over the ways to have assigned c dice, all
    # kept, to the faces processed so far; c < keep, the finished ways go to `done`.
    partial: dict[int, int] = {0: 1}
    done = 0
    faces = range(sides, 0, -1) if highest else range(1, sides + 1)
    for face in faces:
        unprocessed_faces = face - 1 if highest else sides - face
        following: defaultdict[int, int] = defaultdict(int)
        for assigned, poly in partial.items():
            free = count - assigned
            for showing in range(free + 1):
                now = assigned + showing
                if now < keep:
                    following[now] += comb(free, showing) * poly << (digit * face * showing)
                else:
                    rest_ways = comb(free, showing) * unprocessed_faces ** (count - now)
                    if rest_ways:
                        done += rest_ways * poly << (digit * face * (keep - assigned))
        partial = following
    return _unpack(done, 0, span, width)


def _width_for(total: int) -> int:
    """Bytes per packed digit, enough for any count up to ``total``."""
    return total.bit_length() // 8 + 1


def _pack(counts: Counts, low: int, high: int, width: int) -> int:
    get = counts.get
    digits = b"".join(get(outcome, 0).to_bytes(width, "little") for outcome in range(low, high + 1))
    return int.from_bytes(digits, "little")


def _unpack(packed: int, low: int, span: int, width: int) -> Counts:
    data = packed.to_bytes(span * width, "little")
    result: Counts = {}
    for index, start in enumerate(range(0, span * width, width)):
        ways = int.from_bytes(data[start : start + width], "little")
        if ways:
            result[low + index] = ways
    return result


@lru_cache(maxsize=512)
def distribution_of(tree: Arithmetic, budget: DiceBudget) -> tuple[tuple[int, Fraction], ...]:
    """The exact distribution of ``tree``'s total, sorted by total (cached per tree)."""
    meter = WorkMeter(budget)
    counts = counts_of(tree, meter)
    meter.charge(10 * len(counts))  # one Fraction (a gcd in Python code) per total
    ways_in_all = sum(counts.values())
    shares: dict[int, Fraction] = {}  # totals often share their ways (1d100: all 100 do)
    for ways in counts.values():
        if ways not in shares:
            shares[ways] = Fraction(ways, ways_in_all)
    return tuple((total, shares[ways]) for total, ways in sorted(counts.items()))


@lru_cache(maxsize=512)
def success_probability(tree: Comparison, budget: DiceBudget) -> Fraction:
    """The exact probability that ``tree``'s comparison holds (cached per tree)."""
    meter = WorkMeter(budget)
    holds = COMPARATORS[tree.op]
    left = counts_of(tree.left, meter)
    right = counts_of(tree.right, meter)
    if len(right) == 1:  # the usual "... >= 15": compare with the one possible value
        ((target, _),) = right.items()
        favourable = sum(ways for total, ways in left.items() if holds(total, target))
        return Fraction(favourable, sum(left.values()))
    difference = add(left, negate(right, meter), meter)
    favourable = sum(ways for total, ways in difference.items() if holds(total, 0))
    return Fraction(favourable, sum(difference.values()))
