"""What an odds calculation returns: exact outcomes with labels, in two languages.

::

    Odds(question=Text("3d6", "3d6"), axis=TOTAL, outcomes=(Outcome(3, ..., 1/216), ...),
         events=(Event("success", ..., 1/2),), mean=21/2, rule_ids=())

Outcomes are the bars of the chart (every total, or every category such as *light*,
*medium*, *heavy*) and sum to 1; events are derived probabilities a user asks about
("success", "the tool wears"). Everything is a :class:`~fractions.Fraction`; floats
appear only in :meth:`Odds.to_dict` as percentages beside the exact value.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any, NamedTuple, TypeVar

K = TypeVar("K", int, str)


class Text(NamedTuple):
    """A user-facing text in English and Russian."""

    en: str
    ru: str

    def pick(self, lang: str) -> str:
        """The text in ``lang`` (``"ru"`` or anything else for English)."""
        return self.ru if lang == "ru" else self.en


def same(text: str) -> Text:
    """A text that reads the same in both languages (a number, a dice expression)."""
    return Text(text, text)


@dataclass(frozen=True, slots=True)
class Axis:
    """What the outcomes are: ``key`` names the field in JSON rows (``total``)."""

    key: str
    label: Text
    numeric: bool


TOTAL = Axis("total", Text("total", "сумма"), numeric=True)
OUTCOME = Axis("outcome", Text("outcome", "исход"), numeric=False)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One bar: a total or a category, and its exact probability."""

    key: int | str
    label: Text
    probability: Fraction


@dataclass(frozen=True, slots=True)
class Event:
    """A derived probability the user asks about, e.g. ``success``."""

    key: str
    label: Text
    probability: Fraction


@dataclass(frozen=True, slots=True)
class Odds:
    """The exact odds of one question.

    Attributes:
        question: what was asked, e.g. ``REF +5 vs 24``.
        axis: what the outcomes are (totals, hours, categories).
        outcomes: every outcome, in display order; the probabilities sum to 1.
        events: derived probabilities (success, injury, the tool wears...).
        mean: the expected value, for numeric outcomes.
        notes: what else the user should know (a placeholder table, a fixed cost).
        rule_ids: the rules that produced these odds.
    """

    question: Text
    axis: Axis
    outcomes: tuple[Outcome, ...]
    events: tuple[Event, ...] = ()
    mean: Fraction | None = None
    notes: tuple[Text, ...] = ()
    rule_ids: tuple[str, ...] = ()

    def probability(self, key: int | str) -> Fraction:
        """The probability of the outcome ``key`` (0 if there is no such outcome)."""
        return next((o.probability for o in self.outcomes if o.key == key), Fraction(0))

    def event(self, key: str) -> Fraction:
        """The probability of the event ``key`` (``success``, ``injury``...).

        Raises:
            KeyError: these odds have no such event.
        """
        for e in self.events:
            if e.key == key:
                return e.probability
        raise KeyError(key)

    def as_dict(self) -> dict[int | str, Fraction]:
        """Outcome key → probability, in display order."""
        return {o.key: o.probability for o in self.outcomes}

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        """A JSON-able description: exact fractions as ``"a/b"`` text beside percentages."""
        data: dict[str, Any] = {
            "question": self.question.pick(lang),
            "axis": self.axis.key,
            "distribution": [
                {
                    self.axis.key: o.key,
                    "label": o.label.pick(lang),
                    "probability": str(o.probability),
                    "percent": percent(o.probability),
                }
                for o in self.outcomes
            ],
            "events": {
                e.key: {
                    "label": e.label.pick(lang),
                    "probability": str(e.probability),
                    "percent": percent(e.probability),
                }
                for e in self.events
            },
            "notes": [n.pick(lang) for n in self.notes],
            "rule_ids": list(self.rule_ids),
        }
        if self.mean is not None:
            data["mean"] = float(self.mean)
            data["mean_exact"] = str(self.mean)
        return data


def percent(probability: Fraction) -> float:
    """A probability as a percentage to 4 decimals (the exact value is shown beside it)."""
    return round(float(probability * 100), 4)


def numeric_outcomes(distribution: Mapping[int, Fraction]) -> tuple[Outcome, ...]:
    """Outcomes for a distribution of integers, sorted by value."""
    return tuple(
        Outcome(value, same(str(value)), probability)
        for value, probability in sorted(distribution.items())
    )


def mean_of(distribution: Mapping[int, Fraction]) -> Fraction:
    """The expected value of an integer distribution."""
    common = lcm(*(p.denominator for p in distribution.values()))
    weighted = sum(v * p.numerator * (common // p.denominator) for v, p in distribution.items())
    return Fraction(weighted, common)


def total(probabilities: Iterable[Fraction]) -> Fraction:
    """An exact sum, over a common denominator (much cheaper than adding Fractions)."""
    terms = list(probabilities)
    common = lcm(*(p.denominator for p in terms))
    return Fraction(sum(p.numerator * (common // p.denominator) for p in terms), common)


def tally(pairs: Iterable[tuple[K, Fraction]]) -> dict[K, Fraction]:
    """Probabilities summed by key (see :func:`total`), keys in first-seen order."""
    groups: dict[K, list[Fraction]] = {}
    for key, probability in pairs:
        groups.setdefault(key, []).append(probability)
    return {key: total(probabilities) for key, probabilities in groups.items()}
