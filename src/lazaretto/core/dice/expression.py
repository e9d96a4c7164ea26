"""A parsed dice expression: roll it, or ask for its exact odds.

Parse once, roll many::

    expr = parse("4d6kh3")
    expr.roll(random.Random(7))    # RollResult(expression='4d6kh3', dice=(DieRoll(...),), ...)
    expr.distribution()[18]        # Fraction(21, 1296)

Randomness is always injected (a :class:`random.Random`), never global, so a seeded
stream replays the same rolls.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from random import Random

from lazaretto.core.dice.ast import Arithmetic, Comparison, Root, bounds, render
from lazaretto.core.dice.budget import DiceBudget
from lazaretto.core.dice.exact import distribution_of, success_probability
from lazaretto.core.dice.parser import parse_tree
from lazaretto.core.dice.results import RollResult
from lazaretto.core.dice.roller import compile_roll, compile_totals
from lazaretto.core.errors import DiceError

_DEFAULT_BUDGET = DiceBudget()


@dataclass(frozen=True, slots=True)
class Expression:
    """A dice expression, parsed and compiled; immutable.

    Attributes:
        tree: the syntax tree.
        budget: the limits it was parsed under; exact odds are enumerated under it too.
        text: the normalised text (``"1d20 + 5 >= 15"``).
    """

    tree: Root
    budget: DiceBudget = _DEFAULT_BUDGET
    text: str = field(init=False, compare=False)
    _roll: Callable[[Random], RollResult] = field(init=False, repr=False, compare=False)
    _roll_many: Callable[[Random, int], list[int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        text = render(self.tree)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "_roll", compile_roll(text, self.tree))
        object.__setattr__(self, "_roll_many", compile_totals(self.tree))

    def __str__(self) -> str:
        return self.text

    @property
    def _arithmetic(self) -> Arithmetic:
        """The part whose value is the total: the left side of a comparison."""
        return self.tree.left if isinstance(self.tree, Comparison) else self.tree

    def roll(self, rng: Random) -> RollResult:
        """Roll once on ``rng``, recording every die."""
        return self._roll(rng)

    def roll_many(self, rng: Random, n: int) -> list[int]:
        """Roll ``n`` times and return only the totals (the fast path for simulations).

        Draws exactly what ``n`` calls of :meth:`roll` would, so the totals are equal.
        """
        return self._roll_many(rng, n)

    def min(self) -> int:
        """The smallest possible total."""
        return bounds(self._arithmetic)[0]

    def max(self) -> int:
        """The largest possible total."""
        return bounds(self._arithmetic)[1]

    def distribution(self) -> dict[int, Fraction]:
        """The exact probability of every possible total, sorted by total; sums to 1.

        Raises:
            DiceBudgetError: the enumeration would exceed ``budget.max_outcomes`` or
                ``budget.max_exact_work``.
        """
        return dict(distribution_of(self._arithmetic, self.budget))

    def probability_of_success(self) -> Fraction:
        """The exact probability that the comparison holds.

        Raises:
            DiceError: the expression has no comparison.
            DiceBudgetError: the enumeration would exceed the budget.
        """
        if not isinstance(self.tree, Comparison):
            raise DiceError(
                f"{self.text!r} has no comparison, so it has no chance of success",
                ru=f"в {self.text!r} нет сравнения, поэтому нет и вероятности успеха",
                tip="Add one, e.g. '1d20 + 5 >= 15'.",
                tip_ru="Добавьте его, например '1d20 + 5 >= 15'.",
            )
        return success_probability(self.tree, self.budget)


@lru_cache(maxsize=1024)
def parse(text: str, budget: DiceBudget = _DEFAULT_BUDGET) -> Expression:
    """Parse dice notation into an :class:`Expression` (cached per text and budget).

    Raises:
        DiceSyntaxError: the text does not parse; ``position`` points at the problem.
        DiceBudgetError: it parses but asks for more than ``budget`` allows.
    """
    return Expression(parse_tree(text, budget), budget)


def roll(text: str, rng: Random, budget: DiceBudget = _DEFAULT_BUDGET) -> RollResult:
    """Parse ``text`` (cached) and roll it once on ``rng``."""
    return parse(text, budget).roll(rng)


def distribution(text: str, budget: DiceBudget = _DEFAULT_BUDGET) -> dict[int, Fraction]:
    """Parse ``text`` (cached) and return its exact distribution."""
    return parse(text, budget).distribution()
