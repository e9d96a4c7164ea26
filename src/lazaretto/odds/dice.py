"""The exact odds of any dice expression: every total, the mean, and the chance of
success when the expression compares (``2d20kh1 + 3 >= 15``)."""

from __future__ import annotations

from lazaretto.core.dice import parse
from lazaretto.core.dice.ast import Comparison
from lazaretto.odds.result import TOTAL, Event, Odds, Text, mean_of, numeric_outcomes, same

SUCCESS = Text("success", "успех")


def dice_odds(expression: str) -> Odds:
    """Every total of ``expression`` (the left side of a comparison) with its probability.

    Raises:
        DiceSyntaxError: the expression does not parse.
        DiceBudgetError: it is too large to enumerate exactly.
    """
    expr = parse(expression)
    distribution = expr.distribution()
    events: tuple[Event, ...] = ()
    if isinstance(expr.tree, Comparison):
        events = (Event("success", SUCCESS, expr.probability_of_success()),)
    return Odds(
        question=same(expr.text),
        axis=TOTAL,
        outcomes=numeric_outcomes(distribution),
        events=events,
        mean=mean_of(distribution),
    )
