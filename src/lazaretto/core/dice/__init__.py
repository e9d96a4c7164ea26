"""The dice engine: notation → immutable expression → recorded rolls and exact odds.

::

    from lazaretto.core.dice import parse, roll, distribution

    expr = parse("4d6kh3")                  # cached; DiceSyntaxError / DiceBudgetError
    result = expr.roll(random.Random(7))    # RollResult: every die recorded
    roll("1d20 + 5 >= 15", rng).success     # parse (cached) + roll
    distribution("3d6")[10]                 # Fraction(1, 8)

Modules: ``ast`` (the tree), ``parser`` (text → tree), ``roller`` (tree → compiled
roller), ``results`` (what a roll records), ``exact`` (exact distributions), ``budget``
(limits), ``expression`` (the public :class:`Expression`).
"""

from lazaretto.core.dice.budget import DiceBudget
from lazaretto.core.dice.expression import Expression, distribution, parse, roll
from lazaretto.core.dice.results import DieRoll, RollResult

__all__ = [
    "DiceBudget",
    "DieRoll",
    "Expression",
    "RollResult",
    "distribution",
    "parse",
    "roll",
]
