"""Brute force for the odds tests: every face of every die, enumerated and counted.

Nothing here calls the code under test: dice are listed face by face with
:func:`itertools.product`, and each rule is written out again from the rule text, so an
equal answer means the fast code and the rules agree.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from fractions import Fraction
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


def enumerate_dice(*dice: int) -> Iterable[tuple[int, ...]]:
    """Every outcome of the dice with these sides, each equally likely."""
    return itertools.product(*(range(1, sides + 1) for sides in dice))


def odds_of(
    outcomes: Iterable[tuple[int, ...]], judge: Callable[[tuple[int, ...]], K]
) -> dict[K, Fraction]:
    """Outcome → probability, judging every (equally likely) tuple of faces."""
    counts: Counter[K] = Counter(judge(faces) for faces in outcomes)
    n = sum(counts.values())
    return {key: Fraction(count, n) for key, count in counts.items()}


def nonzero(odds: dict[K, Fraction]) -> dict[K, Fraction]:
    """The same odds without the impossible outcomes (for comparing with a full table)."""
    return {k: v for k, v in odds.items() if v}


def d20_verdict(natural: int, total: int, threshold: int, *, reroll: bool = False) -> str:
    """S-CRIT-01..03, S-CRIT-06, A-S-01 read from checklist-002: 20 always succeeds (a
    critical, but only a plain success on a repeated attempt), 1 always fails, otherwise
    the total must reach the threshold."""
    if natural == 20:
        return "success" if reroll else "critical_success"
    if natural == 1:
        return "critical_failure"
    return "success" if total >= threshold else "failure"


def d20_active_wins(a_nat: int, a_total: int, d_nat: int, d_total: int) -> bool:
    """S-CRIT-02..04, A-S-14, A-S-18: the same critical on both sides — higher total,
    ties to the defender; otherwise a critical success wins and a critical failure
    loses; otherwise the higher total, ties to the defender."""
    kind = {20: "success", 1: "failure"}
    a, d = kind.get(a_nat), kind.get(d_nat)
    if a is not None and a == d:
        return a_total > d_total
    if a == "success" or d == "failure":
        return True
    if d == "success" or a == "failure":
        return False
    return a_total > d_total
