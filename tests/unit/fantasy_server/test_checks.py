"""Criticals (checklist-002 §2.12) in the one check module every roll goes through."""

from __future__ import annotations

from fractions import Fraction

import pytest

from lazaretto.core.engine import run_query
from lazaretto.core.errors import Forbidden, InvalidInput, RuleViolation
from lazaretto.core.ruleset import Role
from lazaretto.rulesets.fantasy_server.checks import bare, contest, p_active_wins, p_success
from tests.unit.fantasy_server.conftest import FGame


@pytest.fixture
def duo(g: FGame) -> FGame:
    g.pc("A", STR=5, REF=5)
    g.pc("B", STR=8, REF=5)
    return g


def test_a_natural_20_is_a_critical_success_and_always_succeeds(duo: FGame) -> None:
    duo.act("roll-check", character="A", stat="STR", threshold=30, roll=20)
    c = duo.checks()[-1]
    assert c["crit"] == "success"  # S-CRIT-01: shown apart from a plain roll
    assert c["total"] == 25 and c["success"] is True  # S-CRIT-02: 25 < 30 yet a success
    assert {"S-CRIT-01", "S-CRIT-02"} <= set(duo.rules("check.rolled"))


def test_a_natural_1_is_a_critical_failure_and_always_fails(duo: FGame) -> None:
    duo.act("roll-check", character="B", stat="STR", threshold=5, roll=1)
    c = duo.checks()[-1]
    # S-CRIT-01, S-CRIT-03: 9 ≥ 5 yet a guaranteed failure
    assert c["crit"] == "failure" and c["total"] == 9 and c["success"] is False


def test_a_plain_roll_meets_its_threshold(duo: FGame) -> None:
    duo.act("roll-check", character="A", stat="STR", threshold="medium", roll=13)
    c = duo.checks()[-1]
    assert c["crit"] is None and c["success"] is True  # A-S-01: 18 ≥ medium (18)
    assert c["threshold_label"] == "medium (18)"  # A-S-02: shown wherever used


def test_when_both_roll_a_critical_the_higher_total_wins(duo: FGame) -> None:
    duo.act("roll-contest", actor="A", actor_stat="STR", defender="B", defender_stat="STR",
            actor_roll=20, defender_roll=20)  # fmt: skip
    res = duo.last("contest.resolved")
    assert res["winner"] == "B"  # S-CRIT-04: 28 beats 25
    assert "S-CRIT-04" in duo.rules("contest.resolved")
    duo.act("roll-contest", actor="B", actor_stat="STR", defender="A", defender_stat="STR",
            actor_roll=1, defender_roll=1)  # fmt: skip
    assert duo.last("contest.resolved")["winner"] == "B"  # S-CRIT-04: two fumbles, 9 > 6


def test_a_critical_success_beats_any_other_roll(duo: FGame) -> None:
    duo.act("roll-contest", actor="A", actor_stat="STR", defender="B", defender_stat="STR",
            actor_roll=20, defender_roll=19, defender_modifier=10)  # fmt: skip
    assert duo.last("contest.resolved")["winner"] == "A"  # S-CRIT-02: 25 beats 37
    duo.act("roll-contest", actor="B", actor_stat="STR", defender="A", defender_stat="STR",
            actor_roll=1, defender_roll=2)  # fmt: skip
    assert duo.last("contest.resolved")["winner"] == "A"  # S-CRIT-03: 9 loses to 7


def test_equal_totals_go_to_the_defender_unless_the_campaign_says_otherwise() -> None:
    g = FGame()
    g.pc("A", STR=5)
    g.pc("B", STR=5)
    g.act("roll-contest", actor="A", actor_stat="STR", defender="B", defender_stat="STR",
          actor_roll=10, defender_roll=10)  # fmt: skip
    assert g.last("contest.resolved")["winner"] == "B"  # A-S-14
    g2 = FGame(params={"opposed_tie_winner": "active"})
    g2.pc("A", STR=5)
    g2.pc("B", STR=5)
    g2.act("roll-contest", actor="A", actor_stat="STR", defender="B", defender_stat="STR",
           actor_roll=10, defender_roll=10)  # fmt: skip
    assert g2.last("contest.resolved")["winner"] == "A"  # A-S-14 alternative


def test_no_reroll_after_a_critical_failure(duo: FGame) -> None:
    duo.act("roll-check", character="A", stat="REF", threshold=15, purpose="jump", roll=1)
    with pytest.raises(RuleViolation) as err:
        duo.act("roll-check", character="A", stat="REF", threshold=15, purpose="jump", reroll=True)
    assert err.value.rule_ids == ("S-CRIT-05", "S-CRIT-03")  # S-CRIT-05
    duo.act("roll-check", character="A", stat="REF", threshold=15, purpose="climb", roll=3)
    duo.act("roll-check", character="A", stat="REF", threshold=15, purpose="climb", reroll=True,
            roll=12)  # fmt: skip
    assert duo.checks()[-1]["reroll"] is True  # a plain failure may be rerolled
    with pytest.raises(RuleViolation):
        duo.act("roll-check", character="A", stat="REF", purpose="swim", reroll=True)


def test_a_critical_success_on_a_reroll_counts_only_as_a_plain_success(duo: FGame) -> None:
    duo.act("roll-check", character="A", stat="REF", threshold=15, purpose="jump", roll=3)
    duo.act("roll-check", character="A", stat="REF", threshold=15, purpose="jump", reroll=True,
            roll=20)  # fmt: skip
    c = duo.checks()[-1]
    assert c["crit"] is None and c["success"] is True and c["downgraded"]  # S-CRIT-06
    assert "S-CRIT-06" in duo.rules("check.rolled")


def test_only_a_master_enters_a_die_rolled_elsewhere_and_it_must_be_possible(duo: FGame) -> None:
    with pytest.raises(Forbidden):
        duo.act("roll-check", role=Role.PLAYER, character="A", stat="STR", roll=20)
    with pytest.raises(InvalidInput):
        duo.act("roll-check", character="A", stat="STR", roll=21)
    duo.act("roll-check", role=Role.PLAYER, character="A", stat="STR", threshold=10)
    c = duo.checks()[-1]
    assert c["entered"] is False and 1 <= c["natural"] <= 20  # rolled on the seeded stream
    assert duo.events[-1].dice and duo.replayed() == duo.state


def test_exact_odds_match_brute_force_enumeration(g: FGame) -> None:
    p = g.p
    for add, threshold in [(5, 18), (20, 18), (-3, 30), (0, 10)]:
        wins = sum(1 for n in range(1, 21) if n == 20 or (n != 1 and n + add >= threshold))
        assert p_success(add, threshold, p) == Fraction(wins, 20)
    for a_add, d_add in [(3, 5), (0, 0), (10, -2)]:
        won = 0
        for na in range(1, 21):
            for nd in range(1, 21):
                a, d = bare(na, na + a_add, p), bare(nd, nd + d_add, p)
                won += contest(a, d, p)[0] == "active"
        assert p_active_wins(a_add, d_add, p) == Fraction(won, 400)


def test_the_check_odds_query_counts_the_criticals(duo: FGame) -> None:
    answer = run_query(
        duo.rs, duo.state, "check-odds", {"character": "A", "stat": "STR", "threshold": 30}
    )
    assert answer["probability"] == "1/20"  # S-CRIT-02: only a natural 20 reaches 30
    answer = run_query(
        duo.rs, duo.state, "check-odds", {"character": "B", "stat": "STR", "threshold": 2}
    )
    assert answer["probability"] == "19/20"  # S-CRIT-03: a natural 1 still fails
