"""The stand-in core d100 check (A-I-01..03): not from rules/004, parameterised."""

from __future__ import annotations

from fractions import Fraction

import pytest

from lazaretto.core.errors import InvalidInput
from lazaretto.rulesets.ide4_survival import d100
from lazaretto.rulesets.ide4_survival.params import OUTCOMES
from tests.unit.ide4_survival.conftest import Ide


def test_the_five_outcomes_best_first() -> None:
    assert OUTCOMES == ("triumph", "success", "medium", "failure", "tragedy")  # A-I-01
    assert d100.is_success("triumph") and d100.is_failure("tragedy")


def test_the_manual_resolver_waits_for_the_gm(q: Ide) -> None:
    q.do("d100-check", at="08:00", character="a", skill="Attention", difficulty=2)
    rec = q.last_check("a")
    assert rec.pending and rec.outcome is None  # A-I-01: manual by default
    due = q.ask("day")["a (Anna)"]
    assert "Anna's Attention check [2] awaits its outcome" in due and rec.id not in due
    with pytest.raises(InvalidInput):
        q.do("resolve-check", at="08:01", check=rec.id)
    q.do("resolve-check", at="08:01", check=rec.id, outcome="medium")
    assert q.st.checks[rec.id].outcome == "medium" and not q.st.checks[rec.id].pending


def test_the_band_table_resolver_rolls_d100_and_records_it() -> None:
    g = Ide(params={"check_resolver": "band_table", "meal_mode": "quick"})
    g.add("a")
    evs = g.do("d100-check", at="08:00", character="a", skill="Attention", difficulty=2)
    made = next(e for e in evs if e.kind == "check.made")
    roll = made.payload["check"]["roll"]
    assert made.dice and made.dice[0]["total"] == roll  # A-I-01: the roll is recorded
    assert made.payload["check"]["outcome"] == d100.band_outcome(roll, 2, g.rs.params.band_table)  # type: ignore[attr-defined]
    g.do("d100-check", at="08:01", character="a", skill="Attention", roll=3)
    assert g.last_check("a").outcome == "triumph"  # A-I-01: a table roll may be entered


# A-I-01: the placeholder bands of params.yaml (roll-under d100), pinned so that changing
# them is a decision: difficulty -> the highest roll of triumph, success, medium, failure.
BANDS = {
    0: (5, 65, 80, 97),
    1: (5, 55, 70, 96),
    2: (4, 45, 60, 95),
    3: (3, 35, 50, 94),
    4: (2, 25, 40, 93),
    5: (1, 15, 30, 92),
    6: (1, 8, 20, 90),
}


@pytest.mark.parametrize("difficulty", list(BANDS))
def test_an_entered_d100_roll_reads_its_band_row_at_every_edge(difficulty: int) -> None:
    g = Ide(params={"check_resolver": "band_table", "meal_mode": "quick"})
    g.add("a")
    names = ("triumph", "success", "medium", "failure", "tragedy")
    for i, top in enumerate(BANDS[difficulty]):
        for roll, outcome in ((top, names[i]), (top + 1, names[i + 1])):
            g.do("d100-check", character="a", skill="Attention", difficulty=difficulty, roll=roll)
            got = g.last_check("a")
            assert got.difficulty == difficulty  # A-I-01: a fresh character, no shifts
            assert got.outcome == outcome, (difficulty, roll)  # A-I-01: the band read


def test_band_rows_clamp_and_odds_sum_to_one(q: Ide) -> None:
    table = q.rs.params.band_table  # type: ignore[attr-defined]
    assert d100.band_row(table, -5).difficulty == 0 and d100.band_row(table, 99).difficulty == 6
    odds = q.ask("d100-odds", character="a", skill="Attention", difficulty=3)["odds"]
    assert sum(Fraction(v) for v in odds.values()) == 1  # A-I-01
    assert q.ask("d100-odds", character="a", skill="Attention", difficulty=3)["difficulty"] == 3


def test_shifts_come_through_the_character_state_group(q: Ide) -> None:
    q.do("end-fight", at="08:00", characters=["a"], heavy=True)
    q.do(
        "d100-check",
        at="08:10",
        character="a",
        skill="Athletics",
        tags=["long_physical"],
        difficulty=2,
        outcome="success",
    )
    rec = q.last_check("a")
    assert rec.difficulty == 3  # A-I-02: + is harder; base [2] + tired +1
    assert "I-GEN-02" in rec.shifts[0].rules  # I-GEN-02: through «Состояние персонажа»
    q.do(
        "d100-check",
        at="08:20",
        character="a",
        skill="Athletics",
        tags=["long_physical"],
        modifiers=[{"reason": "good boots", "amount": -1}],
        outcome="success",
    )
    assert q.last_check("a").difficulty == 0  # A-I-02: a negative shift makes it easier


def test_triumph_counts_as_success_when_declared_before_the_roll(q: Ide) -> None:
    q.do(
        "d100-check",
        at="08:00",
        character="a",
        skill="Endurance",
        outcome="triumph",
        triumph_counts_as_success=True,
    )
    assert q.last_check("a").outcome == "success"  # I-TRAVEL-09, A-I-22
    q.do("use-reroll", at="08:01", character="a", kind="pacified", outcome="triumph")
    assert q.last_check("a").outcome == "success"  # I-TRAVEL-09: declared for the whole check
    q.do("d100-check", at="08:02", character="b", skill="Endurance", outcome="triumph")
    assert q.last_check("b").outcome == "triumph"  # I-TRAVEL-09: only when declared


def test_the_take_better_reroll_policy() -> None:
    g = Ide(params={"reroll_policy": "take_better", "meal_mode": "quick"})
    g.add("a")
    g.do("d100-check", at="08:00", character="a", skill="Attention", outcome="success")
    g.do("use-reroll", at="08:01", character="a", kind="pacified", outcome="tragedy")
    assert g.last_check("a").outcome == "success"  # A-I-01 alternative: keep the better


def test_energy_dice_with_the_band_table_take_off_the_roll() -> None:
    g = Ide(params={"check_resolver": "band_table", "meal_mode": "quick"})
    g.add("a")
    g.do("d100-check", at="08:00", character="a", skill="Melee", roll=70)
    before = g.last_check("a").outcome
    evs = g.do("spend-energy", at="08:01", character="a", dice=2, die=6)
    rec = g.last_check("a")
    spent = next(e for e in evs if e.kind == "check.energy_spent")
    assert rec.roll == 70 - spent.dice[0]["total"]  # A-I-03: placeholder, recorded
    assert d100.rank(rec.outcome or "") <= d100.rank(before or "")  # never worse
