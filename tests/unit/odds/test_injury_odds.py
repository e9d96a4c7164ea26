"""dnd5e-injuries odds from a creature's numbers (D-COND-01/02, D-INF-02, D-SEV-01..04),
checked face by face and against the campaign's ``injury-odds`` query."""

from __future__ import annotations

from fractions import Fraction

import pytest

from lazaretto.core.engine import run_query
from lazaretto.core.errors import DiceError, RuleViolation
from lazaretto.odds.injury import injury_odds
from tests.unit.dnd5e_injuries.conftest import enemy, game, pc
from tests.unit.odds.oracle import enumerate_dice, odds_of

ARIA = {"con": 14, "proficiency": 3, "level": 5}  # combat caution 14 + 3 + 5 // 2 = 19


def severity(damage: int, caution: Fraction, *, exchange: bool = False) -> str:
    if damage >= 2 * caution:  # D-SEV-04
        return "medium" if exchange else "heavy"
    return "medium" if damage >= caution else "light"  # D-SEV-03, D-SEV-02


@pytest.mark.parametrize(("dice", "bonus"), [((6, 6), 3), ((10, 10, 10, 10), 5), ((12,), -2)])
def test_a_player_is_injured_only_by_dropping_to_0_d_cond_02(
    dice: tuple[int, ...], bonus: int
) -> None:
    damage = " + ".join(f"1d{s}" for s in dice) + f" + {bonus}"
    odds = injury_odds(damage, **ARIA, hp=25)

    def outcome(faces: tuple[int, ...]) -> str:
        hit = max(0, sum(faces) + bonus)
        return severity(hit, Fraction(19)) if hit >= 25 else "none"

    want = odds_of(enumerate_dice(*dice), outcome)
    assert {k: v for k, v in odds.as_dict().items() if v} == want
    assert odds.event("injury") == 1 - want.get("none", 0)


def test_a_critical_hit_always_injures_d_cond_01() -> None:
    odds = injury_odds("2d6 + 3", con=6, proficiency=2, level=4, critical=True)  # CC 10
    assert odds.as_dict() == {
        "none": 0,
        "light": Fraction(5, 12),
        "medium": Fraction(7, 12),
        "heavy": 0,
    }
    assert odds.notes[0].en == "medium from 10 damage, heavy from 20"


def test_equal_exchange_turns_heavy_into_medium_d_def_03() -> None:
    odds = injury_odds("4d10", **ARIA, critical=True, equal_exchange=True)
    want = odds_of(
        enumerate_dice(10, 10, 10, 10),
        lambda f: severity(sum(f), Fraction(19), exchange=True),
    )
    assert {k: v for k, v in odds.as_dict().items() if v} == want
    assert odds.as_dict()["heavy"] == 0


def test_the_odds_equal_the_campaign_query_for_a_player_and_an_enemy() -> None:
    g = game()
    pc(g, "a", hp=25)
    enemy(g, "o", hp=45)  # CC 12 + 2 + 4 // 2 = 16
    g.act("set-dnd-stats", character="o", hp=30)
    cases = (
        ("a", "3d8 + 1d6 + 2", injury_odds("3d8 + 1d6 + 2", **ARIA, hp=25, hp_max=25)),
        ("o", "6d6", injury_odds("6d6", con=12, proficiency=2, cr=4, hp=30, hp_max=45, enemy=True)),
    )
    for who, expression, odds in cases:
        query = run_query(g.rs, g.state, "injury-odds", {"character": who, "damage": expression})
        assert {k: str(v) for k, v in odds.as_dict().items()} == query["exact"], who


def test_a_missing_stat_and_a_broken_expression_are_refused() -> None:
    with pytest.raises(RuleViolation, match="level"):
        injury_odds("2d6", con=14, proficiency=3)
    with pytest.raises(DiceError):
        injury_odds("2d", **ARIA)


def test_the_question_reads_in_russian() -> None:
    odds = injury_odds("1d4", **ARIA, hp=40, enemy=False)
    assert odds.question.ru == "1d4 против боевой осторожности 19 (хиты 40)"
    assert odds.outcomes[0].label.ru == "без травмы"
