"""How much one dice expression may ask for.

A budget is the dice engine's answer to "no expression can run forever" (avrae/d20 caps
rolls in its ``RollContext``): parsing refuses texts that are too long, too deeply nested
or roll too many dice, and exact enumeration refuses distributions that would take too
much memory or time, both with a :class:`DiceBudgetError` that names the limit.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from lazaretto.core.errors import DiceBudgetError

_TIP = "Use a smaller expression, or pass a larger DiceBudget."
_TIP_RU = "Уменьшите выражение или передайте больший DiceBudget."


@dataclass(frozen=True, slots=True)
class DiceBudget:
    """Limits for parsing, rolling and enumerating one dice expression.

    Attributes:
        max_dice: dice rolled per expression, summed over all dice terms (``4d6+2d8`` is 6).
        max_sides: sides of the largest die.
        max_length: characters of expression text.
        max_nesting: parentheses and unary minus nested inside each other.
        max_outcomes: distinct totals any exact (sub)distribution may hold.
        max_exact_work: estimated elementary steps of one exact enumeration; one step is
            roughly 0.1 µs of CPython work, so the default caps a computation near a second.
    """

    max_dice: int = 1000
    max_sides: int = 1000
    max_length: int = 500
    max_nesting: int = 32
    max_outcomes: int = 100_000
    max_exact_work: int = 10_000_000

    def __post_init__(self) -> None:
        for item in fields(self):
            value = getattr(self, item.name)
            if not isinstance(value, int) or value < 1:
                raise DiceBudgetError(
                    f"DiceBudget.{item.name} must be a positive integer, got {value!r}",
                    ru=f"DiceBudget.{item.name} должно быть целым положительным, а не {value!r}",
                )


def refuse(what: str, value: int, limit: int, name: str, *, ru: str) -> DiceBudgetError:
    """Build the refusal for ``value`` exceeding the budget field ``name`` (= ``limit``).

    Args:
        what: English noun phrase for the value, e.g. ``"dice rolled"``.
        value: the offending amount.
        limit: the budget's limit for it.
        name: the :class:`DiceBudget` field that holds the limit.
        ru: the noun phrase in Russian.
    """
    return DiceBudgetError(
        f"{what}: {value:,} exceeds the limit of {limit:,} (DiceBudget.{name})",
        ru=f"{ru}: {value:,} больше предела {limit:,} (DiceBudget.{name})",
        tip=_TIP,
        tip_ru=_TIP_RU,
    )
