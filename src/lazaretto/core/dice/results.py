"""What a roll produces: immutable, JSON-able records of every die.

Both are named tuples (immutable, and cheap enough to build on every roll).
"""

from __future__ import annotations

from typing import Any, NamedTuple

Rolls = tuple[int, ...]


class DieRoll(NamedTuple):
    """One dice term as rolled.

    Attributes:
        notation: the term, normalised (``4d6kh3``).
        sides: sides of each die.
        rolls: every die, in the order rolled.
        kept: the dice that count, in the order rolled (ties keep the earlier die).
        total: the sum of ``kept``.
    """

    notation: str
    sides: int
    rolls: Rolls
    kept: Rolls
    total: int

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able copy."""
        return {
            "notation": self.notation,
            "sides": self.sides,
            "rolls": list(self.rolls),
            "kept": list(self.kept),
            "total": self.total,
        }


class RollResult(NamedTuple):
    """One roll of a whole expression.

    Attributes:
        expression: the normalised expression text.
        dice: one :class:`DieRoll` per dice term, left to right.
        total: the value of the expression (of its left side, if it is a comparison).
        success: whether the comparison held; ``None`` when there is no comparison.
    """

    expression: str
    dice: tuple[DieRoll, ...]
    total: int
    success: bool | None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able copy, as stored in events."""
        return {
            "expression": self.expression,
            "dice": [die.to_dict() for die in self.dice],
            "total": self.total,
            "success": self.success,
        }
