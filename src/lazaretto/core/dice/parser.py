"""Dice notation text → :mod:`~lazaretto.core.dice.ast` tree.

Grammar (case-insensitive; whitespace may separate any two tokens)::

    statement := sum (compare sum)?
    sum       := product (("+" | "-") product)*
    product   := unary ("*" unary)*
    unary     := "-" unary | atom
    atom      := dice | INTEGER | "(" sum ")"
    dice      := INTEGER? "d" (INTEGER | "%") (("kh" | "kl" | "dh" | "dl") INTEGER?)?
    compare   := ">=" | "<=" | ">" | "<" | "==" | "!=" | "="

A recursive-descent parser over a regex tokenizer; every refusal is a
:class:`DiceSyntaxError` carrying the 0-based position of the offending token, or a
:class:`DiceBudgetError` when the text is well formed but asks for too much.
"""

from __future__ import annotations

import re
from typing import NamedTuple, cast

from lazaretto.core.dice.ast import (
    Arithmetic,
    CompareOp,
    Comparison,
    Constant,
    Dice,
    KeepMode,
    Negate,
    Product,
    Root,
    Sum,
)
from lazaretto.core.dice.budget import DiceBudget, refuse
from lazaretto.core.errors import DiceSyntaxError

# ASCII only: under Unicode rules "\d" would accept Arabic-Indic digits and IGNORECASE
# would let the Kelvin sign stand for "k".
_TOKEN = re.compile(
    r"(?P<space>\s+)|(?P<number>[0-9]+)|(?P<keep>kh|kl|dh|dl)|(?P<die>d)|(?P<percent>%)"
    r"|(?P<compare>>=|<=|==|!=|>|<|=)|(?P<operator>[-+*()])",
    re.ASCII | re.IGNORECASE,
)
_EXPECTED_OPERAND = (
    "expected a number, a die such as 1d6, or '('",
    "ожидалось число, кубик вроде 1d6 или '('",
)


NESTING_CEILING = 100
"""Nesting allowed whatever the budget says: the tree is walked recursively (rendering,
rolling, exact odds), and a deeper one would overflow Python's stack."""


class Token(NamedTuple):
    """One lexeme: its ``kind`` (a group name of the tokenizer, or ``end``)."""

    kind: str
    text: str
    position: int


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens, ending with an ``end`` token at ``len(text)``."""
    tokens: list[Token] = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            raise DiceSyntaxError(
                f"unexpected character {text[position]!r}",
                ru=f"неожиданный символ {text[position]!r}",
                expression=text,
                position=position,
            )
        kind = cast(str, match.lastgroup)
        if kind != "space":
            tokens.append(Token(kind, match.group().lower(), position))
        position = match.end()
    tokens.append(Token("end", "", len(text)))
    return tokens


def parse_tree(text: str, budget: DiceBudget) -> Root:
    """Parse ``text`` into a tree, enforcing ``budget`` on length, nesting and dice."""
    if len(text) > budget.max_length:
        raise refuse(
            "expression length", len(text), budget.max_length, "max_length", ru="длина выражения"
        )
    return _Parser(text, budget).statement()


class _Parser:
    """Recursive descent, one method per grammar rule; tracks nesting and dice rolled."""

    def __init__(self, text: str, budget: DiceBudget) -> None:
        self.text = text
        self.budget = budget
        self.tokens = tokenize(text)
        self.index = 0
        self.depth = 0
        self.dice_rolled = 0

    def peek(self) -> Token:
        return self.tokens[self.index]

    def advance(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def error(self, message: tuple[str, str], token: Token) -> DiceSyntaxError:
        return DiceSyntaxError(
            message[0], ru=message[1], expression=self.text, position=token.position
        )

    def unexpected(self, token: Token) -> DiceSyntaxError:
        if token.kind == "compare":
            return self.error(
                (
                    f"unexpected {token.text!r}: only one comparison is allowed, at the top level",
                    f"неожиданное {token.text!r}: сравнение допустимо одно, на верхнем уровне",
                ),
                token,
            )
        return self.error((f"unexpected {token.text!r}", f"неожиданное {token.text!r}"), token)

    def statement(self) -> Root:
        left = self.sum()
        token = self.peek()
        root: Root = left
        if token.kind == "compare":
            self.advance()
            op = cast(CompareOp, "==" if token.text == "=" else token.text)
            root = Comparison(op, left, self.sum())
        if self.peek().kind != "end":
            raise self.unexpected(self.peek())
        return root

    def sum(self) -> Arithmetic:
        first = self.product()
        terms: list[tuple[int, Arithmetic]] = [(1, first)]
        while self.peek().text in ("+", "-"):
            sign = 1 if self.advance().text == "+" else -1
            terms.append((sign, self.product()))
        return first if len(terms) == 1 else Sum(tuple(terms))

    def product(self) -> Arithmetic:
        factors = [self.unary()]
        while self.peek().text == "*":
            self.advance()
            factors.append(self.unary())
        return factors[0] if len(factors) == 1 else Product(tuple(factors))

    def nest(self, token: Token) -> None:
        self.depth += 1
        limit = min(self.budget.max_nesting, NESTING_CEILING)
        if self.depth > limit:
            raise refuse(
                f"nesting at position {token.position}",
                self.depth,
                limit,
                "max_nesting",
                ru=f"вложенность на позиции {token.position}",
            )

    def unary(self) -> Arithmetic:
        token = self.peek()
        if token.text != "-":
            return self.atom()
        self.advance()
        self.nest(token)
        operand = self.unary()
        self.depth -= 1
        return Negate(operand)

    def atom(self) -> Arithmetic:
        token = self.peek()
        if token.text == "(":
            self.advance()
            self.nest(token)
            inner = self.sum()
            self.depth -= 1
            if self.peek().text != ")":
                closing = self.peek()
                if closing.kind in ("end", "compare"):
                    raise self.error(
                        (
                            f"expected ')': the '(' at offset {token.position} is never closed",
                            f"ожидалась ')': '(' на смещении {token.position} не закрыта",
                        ),
                        closing,
                    )
                raise self.unexpected(closing)
            self.advance()
            return inner
        if token.kind == "die":
            return self.dice(1, token)
        if token.kind == "number":
            self.advance()
            if self.peek().kind == "die":
                return self.dice(self.number(token), token)
            return Constant(self.number(token))
        if token.kind in ("end", "operator", "compare"):
            raise self.error(_EXPECTED_OPERAND, token)
        raise self.unexpected(token)

    def number(self, token: Token) -> int:
        # Budget.max_length keeps literals far below int()'s 4300-digit limit, but a
        # caller-raised budget must not turn that limit into a ValueError.
        if len(token.text) > 4000:
            raise self.error(("number too long", "слишком длинное число"), token)
        return int(token.text)

    def dice(self, count: int, start: Token) -> Dice:
        """Parse from the ``d`` on; ``start`` is the first token of the term."""
        self.advance()  # the "d"
        sides_token = self.advance()
        if sides_token.kind == "percent":
            sides = 100
        elif sides_token.kind == "number":
            sides = self.number(sides_token)
        else:
            raise self.error(
                (
                    "expected the number of sides (or %) after 'd'",
                    "после 'd' ожидалось число граней (или %)",
                ),
                sides_token,
            )
        if count == 0:
            raise self.error(
                (
                    "0 dice rolls nothing; roll at least 1 die",
                    "0 кубиков — это ничего; бросьте хотя бы 1",
                ),
                start,
            )
        if sides == 0:
            raise self.error(
                ("a die needs at least 1 side", "у кубика должна быть хотя бы 1 грань"), sides_token
            )
        if sides > self.budget.max_sides:
            raise refuse(
                f"sides of d{sides}",
                sides,
                self.budget.max_sides,
                "max_sides",
                ru=f"грани d{sides}",
            )
        self.dice_rolled += count
        if self.dice_rolled > self.budget.max_dice:
            raise refuse(
                "dice rolled",
                self.dice_rolled,
                self.budget.max_dice,
                "max_dice",
                ru="брошено кубиков",
            )
        if self.peek().kind != "keep":
            return Dice(count, sides)
        mode = cast(KeepMode, self.advance().text)
        amount_token = self.peek()
        amount = 1
        if amount_token.kind == "number":
            self.advance()
            amount = self.number(amount_token)
            if amount > count:
                verb, verb_ru = ("keep", "оставить") if mode[0] == "k" else ("drop", "отбросить")
                raise self.error(
                    (
                        f"cannot {verb} {amount} of {count} dice",
                        f"нельзя {verb_ru} {amount} из {count} кубиков",
                    ),
                    amount_token,
                )
        return Dice(count, sides, mode, amount)
