"""The immutable syntax tree of a dice expression, and what can be read off it statically.

::

    Root        = Arithmetic | Comparison
    Arithmetic  = Constant | Dice | Negate | Sum | Product
    Comparison  : Arithmetic (>= <= > < == !=) Arithmetic

``Sum`` and ``Product`` are n-ary (``1 + 2 - 3`` is one ``Sum``), so a long flat chain
adds no depth and every walk over the tree stays shallow.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal, TypeAlias

KeepMode: TypeAlias = Literal["kh", "kl", "dh", "dl"]
CompareOp: TypeAlias = Literal[">=", "<=", ">", "<", "==", "!="]

COMPARATORS: dict[CompareOp, Callable[[int, int], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
    "==": operator.eq,
    "!=": operator.ne,
}
"""What each comparison operator means."""


@dataclass(frozen=True, slots=True)
class Constant:
    """An integer literal."""

    value: int


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` dice of ``sides`` sides, optionally keeping or dropping some.

    ``keep`` is ``kh``/``kl`` (keep the ``keep_n`` highest/lowest) or ``dh``/``dl`` (drop
    the ``keep_n`` highest/lowest); the parser guarantees ``0 <= keep_n <= count``.
    """

    count: int
    sides: int
    keep: KeepMode | None = None
    keep_n: int = 0

    @property
    def kept_count(self) -> int:
        """How many dice count towards the total."""
        if self.keep is None:
            return self.count
        if self.keep in ("kh", "kl"):
            return self.keep_n
        return self.count - self.keep_n

    @property
    def keeps_highest(self) -> bool:
        """Whether the kept dice are the highest ones (``kh``, ``dl``) or the lowest."""
        return self.keep in (None, "kh", "dl")

    @property
    def notation(self) -> str:
        """Normalised notation: ``4d6kh3``, ``1d20``, ``1d100`` for ``d%``."""
        suffix = f"{self.keep}{self.keep_n}" if self.keep else ""
        return f"{self.count}d{self.sides}{suffix}"


@dataclass(frozen=True, slots=True)
class Negate:
    """Unary minus."""

    operand: Arithmetic


@dataclass(frozen=True, slots=True)
class Sum:
    """Terms added (``sign`` +1) or subtracted (``sign`` -1), left to right.

    The first term's sign is always +1; a leading minus is a :class:`Negate`.
    """

    terms: tuple[tuple[int, Arithmetic], ...]


@dataclass(frozen=True, slots=True)
class Product:
    """Factors multiplied left to right."""

    factors: tuple[Arithmetic, ...]


@dataclass(frozen=True, slots=True)
class Comparison:
    """``left op right``; only ever the root of a tree."""

    op: CompareOp
    left: Arithmetic
    right: Arithmetic


Arithmetic: TypeAlias = Constant | Dice | Negate | Sum | Product
Root: TypeAlias = Arithmetic | Comparison


def children(node: Root) -> tuple[Arithmetic, ...]:
    """The direct sub-expressions of ``node``, left to right."""
    if isinstance(node, Negate):
        return (node.operand,)
    if isinstance(node, Sum):
        return tuple(term for _, term in node.terms)
    if isinstance(node, Product):
        return node.factors
    if isinstance(node, Comparison):
        return (node.left, node.right)
    return ()


def dice_terms(node: Root) -> Iterator[Dice]:
    """Every dice term in ``node``, in the left-to-right order they are rolled."""
    if isinstance(node, Dice):
        yield node
    for child in children(node):
        yield from dice_terms(child)


def has_dice(node: Root) -> bool:
    """Whether ``node`` rolls anything (otherwise it folds to a constant)."""
    return next(dice_terms(node), None) is not None


def bounds(node: Arithmetic) -> tuple[int, int]:
    """The smallest and largest total ``node`` can produce, both reachable.

    Dice terms are independent and each reaches its own extremes, so interval
    arithmetic is exact here (a product's extremes sit at the corners).
    """
    if isinstance(node, Constant):
        return node.value, node.value
    if isinstance(node, Dice):
        return node.kept_count, node.kept_count * node.sides
    if isinstance(node, Negate):
        low, high = bounds(node.operand)
        return -high, -low
    if isinstance(node, Sum):
        low = high = 0
        for sign, term in node.terms:
            term_low, term_high = bounds(term)
            if sign > 0:
                low, high = low + term_low, high + term_high
            else:
                low, high = low - term_high, high - term_low
        return low, high
    low, high = bounds(node.factors[0])
    for factor in node.factors[1:]:
        factor_low, factor_high = bounds(factor)
        corners = (low * factor_low, low * factor_high, high * factor_low, high * factor_high)
        low, high = min(corners), max(corners)
    return low, high


def render(node: Root) -> str:
    """Normalised text that parses back to the same tree.

    Dice use ``NdM`` (``d%`` becomes ``1d100``, a bare ``kh`` becomes ``kh1``); binary
    operators are spaced; parentheses appear only where the tree needs them.
    """
    if isinstance(node, Comparison):
        return f"{render(node.left)} {node.op} {render(node.right)}"
    if isinstance(node, Constant):
        return str(node.value)
    if isinstance(node, Dice):
        return node.notation
    if isinstance(node, Negate):
        inner = node.operand
        text = render(inner)
        return f"-{text}" if isinstance(inner, Constant | Dice | Negate) else f"-({text})"
    if isinstance(node, Sum):
        parts = [_grouped(node.terms[0][1], nested_product_ok=True)]
        for sign, term in node.terms[1:]:
            parts.append(f"{'+' if sign > 0 else '-'} {_grouped(term, nested_product_ok=True)}")
        return " ".join(parts)
    return " * ".join(_grouped(factor, nested_product_ok=False) for factor in node.factors)


def _grouped(node: Arithmetic, *, nested_product_ok: bool) -> str:
    # A nested Sum (or a Product inside a Product) was written in parentheses; keeping
    # them makes render(parse(render(tree))) give back the same tree, not a flattened one.
    text = render(node)
    if isinstance(node, Sum) or (isinstance(node, Product) and not nested_product_ok):
        return f"({text})"
    return text
