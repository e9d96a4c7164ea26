"""fantasy-server crime odds: theft (S-CRIME-02..06), lockpicking (S-CRIME-25..30) and
torture (S-TORT-01..05), checked against every natural of every d20 rolled."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from lazaretto.core.errors import InvalidInput
from lazaretto.odds.crime import LockMethod, lockpick_odds, theft_odds, torture_odds
from tests.unit.odds.oracle import d20_active_wins, d20_verdict, enumerate_dice, nonzero, odds_of


@pytest.mark.parametrize(("thief", "victim", "sees"), [(5, 3, False), (5, 3, True), (0, 8, False)])
def test_a_theft_matches_every_pair_of_naturals(thief: int, victim: int, sees: bool) -> None:
    bonus = 6 if sees else 3  # S-CRIME-02

    def outcome(faces: tuple[int, ...]) -> str:
        t, v = faces
        if d20_active_wins(t, t + thief, v, v + victim + bonus):
            return "stolen"
        # S-CRIME-06, A-S-13: a thief's 1 or a victim's 20 floors the caught thief
        return "fell" if t == 1 or v == 20 else "caught"

    odds = theft_odds(thief, victim, victim_sees=sees)
    assert nonzero(odds.as_dict()) == odds_of(enumerate_dice(20, 20), outcome)
    assert odds.event("success") == odds.as_dict()["stolen"]


def test_the_theft_odds_are_those_of_the_campaign_query() -> None:
    from lazaretto.core.engine import run_query
    from tests.unit.fantasy_server.conftest import FGame

    g = FGame()
    g.pc("T", REF=5)
    g.pc("V", PER=3)
    query = run_query(g.rs, g.state, "theft-odds", {"actor": "T", "victim": "V"})
    odds = theft_odds(5, 3)
    assert query["success"] == str(odds.as_dict()["stolen"])
    assert query["falls"] == str(odds.as_dict()["fell"])


@pytest.mark.parametrize(("method", "threshold"), [("lockpicks", 24), ("strength_unarmed", 30),
                                                   ("strength_tool", 25)])  # fmt: skip
def test_breaking_a_door_is_a_d20_check_s_crime_27_28_29(
    method: LockMethod, threshold: int
) -> None:
    odds = lockpick_odds(8, method=method)
    want = odds_of(enumerate_dice(20), lambda f: d20_verdict(f[0], f[0] + 8, threshold))
    assert nonzero(odds.as_dict()) == want
    assert odds.event("tool_wears") == Fraction(1, 20)  # S-BRK-09: a critical failure


def test_a_doors_own_threshold_and_a_repeated_attempt() -> None:
    odds = lockpick_odds(4, threshold=15, reroll=True)
    want = odds_of(enumerate_dice(20), lambda f: d20_verdict(f[0], f[0] + 4, 15, reroll=True))
    assert nonzero(odds.as_dict()) == want
    assert {"S-CRIME-26", "S-CRIT-06"} <= set(odds.rule_ids)


def test_no_roll_methods_open_any_door_but_a_reinforced_one_s_crime_30() -> None:
    assert lockpick_odds(0, method="acid").event("success") == 1
    assert lockpick_odds(0, method="firearm", reinforced=True).event("success") == 0
    assert "permission" in lockpick_odds(0, method="explosives").notes[0].en  # S-CRIME-25


def test_two_rounds_of_torture_match_every_natural_of_all_four_dice_s_tort_04() -> None:
    torturer, victim = 5, 3
    won = []
    for faces in enumerate_dice(20, 20, 20, 20):
        t1, v1, t2, v2 = faces
        round1 = d20_active_wins(t1, t1 + torturer, v1, v1 + victim)
        round2 = d20_active_wins(t2, t2 + torturer, v2, v2 + victim + 3)  # +3 in round 2
        won.append(round1 + round2)
    counts = {q: Fraction(won.count(q), len(won)) for q in range(3)}
    assert torture_odds(torturer, victim, rounds=2).as_dict() == counts


def test_four_rounds_of_torture_add_up_the_rounds_questions_s_tort_02_05() -> None:
    torturer, victim = 2, 4
    rounds = [
        odds_of(
            enumerate_dice(20, 20),
            lambda f, k=k: d20_active_wins(f[0], f[0] + torturer, f[1], f[1] + victim + 3 * k),
        )[True]
        for k in range(4)
    ]
    want: dict[int, Fraction] = {}
    for wins in itertools.product((False, True), repeat=4):
        chance = Fraction(1)
        for w, p in zip(wins, rounds, strict=True):
            chance *= p if w else 1 - p
        want[sum(wins)] = want.get(sum(wins), Fraction(0)) + chance
    odds = torture_odds(torturer, victim)
    assert odds.as_dict() == dict(sorted(want.items()))
    assert [e.probability for e in odds.events] == rounds
    assert odds.mean == sum(rounds)


def test_more_rounds_than_the_rules_allow_are_refused_s_tort_05() -> None:
    with pytest.raises(InvalidInput, match="S-TORT-05"):
        torture_odds(5, 3, rounds=5)
