"""Check odds with the rulesets' criticals (fantasy-server S-CRIT, ide4-survival A-I-01),
checked against every natural of the dice."""

from __future__ import annotations

from fractions import Fraction

import pytest

from lazaretto.core.errors import InvalidInput
from lazaretto.odds.checks import fantasy_check_odds, fantasy_contest_odds, ide4_check_odds
from lazaretto.rulesets.ide4_survival import load_params as ide4_params
from lazaretto.rulesets.ide4_survival.params import Band
from tests.unit.odds.oracle import d20_active_wins, d20_verdict, enumerate_dice, nonzero, odds_of


@pytest.mark.parametrize(("bonus", "threshold"), [(5, 18), (0, 10), (12, 24), (-3, 30), (15, 2)])
def test_fantasy_check_matches_every_natural_s_crit_01_02_03(bonus: int, threshold: int) -> None:
    odds = fantasy_check_odds(bonus, threshold)
    want = odds_of(enumerate_dice(20), lambda f: d20_verdict(f[0], f[0] + bonus, threshold))
    assert nonzero(odds.as_dict()) == want
    assert odds.event("success") == want.get("critical_success", 0) + want.get("success", 0)
    assert odds.event("critical") == Fraction(1, 10)


def test_a_natural_20_succeeds_even_against_an_impossible_threshold_s_crit_02() -> None:
    odds = fantasy_check_odds(0, 100)
    assert odds.as_dict()["critical_success"] == Fraction(1, 20)
    assert odds.event("success") == Fraction(1, 20)


def test_a_natural_1_fails_even_against_a_trivial_threshold_s_crit_03() -> None:
    assert fantasy_check_odds(30, 1).event("success") == Fraction(19, 20)


def test_a_repeated_attempt_turns_the_critical_success_plain_s_crit_06() -> None:
    odds = fantasy_check_odds(5, 18, reroll=True)
    want = odds_of(enumerate_dice(20), lambda f: d20_verdict(f[0], f[0] + 5, 18, reroll=True))
    assert nonzero(odds.as_dict()) == want
    assert odds.as_dict()["critical_success"] == 0
    assert "S-CRIT-06" in odds.rule_ids


def test_named_thresholds_are_the_campaigns_a_s_02() -> None:
    assert fantasy_check_odds(5, "medium").as_dict() == fantasy_check_odds(5, 18).as_dict()
    assert "medium (18)" in fantasy_check_odds(5, "medium").question.en
    with pytest.raises(InvalidInput, match="easy"):
        fantasy_check_odds(5, "easy")


def test_a_campaigns_critical_naturals_change_the_odds_a_s_01() -> None:
    odds = fantasy_check_odds(0, 100, overrides={"crit_success_naturals": [19, 20]})
    assert odds.as_dict()["critical_success"] == Fraction(1, 10)


@pytest.mark.parametrize(("bonus", "defender"), [(5, 3), (0, 0), (10, -2), (-4, 9)])
def test_an_opposed_roll_matches_every_pair_of_naturals_s_crit_04(
    bonus: int, defender: int
) -> None:
    odds = fantasy_contest_odds(bonus, defender)
    want = odds_of(
        enumerate_dice(20, 20),
        lambda f: d20_active_wins(f[0], f[0] + bonus, f[1], f[1] + defender),
    )
    assert odds.as_dict() == {"active": want[True], "defender": want[False]}


def band(roll: int, row: Band) -> str:
    """A-I-01 as params.yaml describes it: d100 roll-under, best band first."""
    for name in ("triumph", "success", "medium", "failure"):
        if roll <= getattr(row, name):
            return name
    return "tragedy"


@pytest.mark.parametrize("difficulty", [0, 3, 6, 9, -2])
def test_ide4_check_reads_every_d100_roll_against_the_band_row_a_i_01(difficulty: int) -> None:
    rows = {row.difficulty: row for row in ide4_params().band_table}
    row = rows[min(max(difficulty, 0), 6)]  # clamped to the table's ends
    odds = ide4_check_odds(difficulty)
    want = odds_of(enumerate_dice(100), lambda f: band(f[0], row))
    assert nonzero(odds.as_dict()) == want
    assert [o.key for o in odds.outcomes] == ["triumph", "success", "medium", "failure", "tragedy"]
    assert odds.event("success") == want.get("triumph", 0) + want["success"]


def test_a_triumph_declared_as_success_moves_to_success_i_travel_09() -> None:
    plain, declared = ide4_check_odds(2), ide4_check_odds(2, triumph_counts_as_success=True)
    assert declared.as_dict()["triumph"] == 0
    assert declared.as_dict()["success"] == plain.as_dict()["success"] + plain.as_dict()["triumph"]
    assert declared.event("success") == plain.event("success")


def test_the_ide4_table_is_labelled_a_placeholder_in_both_languages() -> None:
    odds = ide4_check_odds(1)
    assert "placeholder" in odds.notes[0].en and "заглушка" in odds.notes[0].ru
    assert odds.outcomes[0].label.ru == "Триумф"
