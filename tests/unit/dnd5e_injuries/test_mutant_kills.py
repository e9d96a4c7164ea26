"""Boundaries of dnd5e-injuries rules that a one-step change of their code would move
unnoticed (issue 19, ``bench/mutate.py``): each test pins the value on both sides."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import RuleViolation
from lazaretto.rulesets.dnd5e_injuries.common import plural_ru, span
from tests.game import Game
from tests.unit.dnd5e_injuries.conftest import pc, pending


def triggers(g: Game, cid: str = "a") -> list[str]:
    cond = pending(g, cid)
    return [] if cond is None else list(cond.data["triggers"])


def test_a_damaging_failed_save_that_drops_to_0_hp_is_also_a_drop_to_0(g: Game) -> None:
    g.act(
        "fail-save", character="a", effect="Fireball", harmful=True, damage=39, damage_type="fire"
    )
    assert g.ch("a").hits == 1 and triggers(g) == ["failed_save"]  # D-COND-04: 1 HP left
    pc(g, "b")
    g.act(
        "fail-save", character="b", effect="Fireball", harmful=True, damage=40, damage_type="fire"
    )
    assert g.ch("b").hits == 0
    assert triggers(g, "b") == ["failed_save", "zero_hp"]  # D-COND-02, D-COND-04


@pytest.mark.parametrize(
    ("n", "word"),
    [(1, "ход"), (2, "хода"), (4, "хода"), (5, "ходов"), (11, "ходов"), (12, "ходов"),
     (14, "ходов"), (21, "ход"), (22, "хода"), (25, "ходов"), (101, "ход"), (111, "ходов"),
     (112, "ходов"), (122, "хода")],
)  # fmt: skip
def test_durations_read_in_russian_with_the_right_plural(n: int, word: str) -> None:
    assert plural_ru(n, ("ход", "хода", "ходов")) == word  # how a card reads an injury's duration
    assert span(n, "turn", "ru") == f"{n} {word}"


def test_durations_read_in_english_with_one_or_many() -> None:
    assert span(1, "turn", "en") == "1 turn"
    assert span(2, "turn", "en") == "2 turns"


def test_treating_without_naming_the_injury_treats_the_only_one_and_refuses_among_two() -> None:
    from tests.unit.dnd5e_injuries.conftest import cc10, game, injuries
    from tests.unit.dnd5e_injuries.test_effects import injure

    g = game()
    cc10(g)
    first = injure(g, "arms", "piercing", 5)  # D-TAB-19: Medicine 10
    evs = g.act("treat-injury", patient="a", method="medicine", check_total=20)
    healed = next(e.payload for e in evs if e.kind == "injury.healed")
    assert healed["injury"] == first["id"] and not injuries(g, "a")  # D-ROLL-02: the only one
    injure(g, "arms", "piercing", 5)
    injure(g, "arms", "piercing", 5)
    with pytest.raises(RuleViolation) as err:
        g.act("treat-injury", patient="a", method="medicine", check_total=20)
    assert "D-ROLL-02" in err.value.rule_ids  # D-ROLL-02: which one must be said


def test_death_saves_are_refused_at_1_hit_point_and_made_at_0(g: Game) -> None:
    g.act("take-damage", character="a", damage=39, damage_type="slashing")
    assert g.ch("a").hits == 1
    with pytest.raises(RuleViolation) as err:
        g.act("death-save", character="a", natural=10)
    assert err.value.rule_ids == ("D-COND-03",)  # D-COND-03: death saves at 0 hit points
    g.act("take-damage", character="a", damage=1, damage_type="slashing")
    evs = g.act("death-save", character="a", natural=10)
    assert [e.payload["natural"] for e in evs if e.kind == "death_save.rolled"] == [10]
