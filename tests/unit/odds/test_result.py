"""The odds result: exact values, lookups and the JSON shape scripts rely on."""

from __future__ import annotations

from fractions import Fraction

import pytest

from lazaretto.odds.checks import fantasy_check_odds
from lazaretto.odds.result import Text, percent


def test_outcomes_and_events_are_looked_up_separately() -> None:
    odds = fantasy_check_odds(5, 18)
    assert odds.probability("success") == Fraction(7, 20)  # the plain-success bar
    assert odds.event("success") == Fraction(2, 5)  # critical or plain
    assert odds.probability("no such outcome") == 0
    with pytest.raises(KeyError):
        odds.event("no such event")


def test_the_json_is_in_the_asked_language_with_exact_fractions() -> None:
    data = fantasy_check_odds(5, 18).to_dict("ru")
    assert data["question"] == "1d20 +5 против 18"
    assert data["axis"] == "outcome"
    assert data["distribution"][0] == {
        "outcome": "critical_success",
        "label": "критический успех",
        "probability": "1/20",
        "percent": 5.0,
    }
    assert data["events"]["success"]["probability"] == "2/5"
    assert data["rule_ids"][:2] == ["A-S-01", "A-S-02"]
    assert "mean" not in data  # categories have no mean


def test_percentages_are_rounded_but_the_fraction_is_exact() -> None:
    assert percent(Fraction(1, 3)) == 33.3333
    assert Text("a", "б").pick("ru") == "б" and Text("a", "б").pick("en") == "a"
