"""Boundaries of dnd5e-injuries rules that a one-step change of their code would move
unnoticed (issue 19, ``bench/mutate.py``): each test pins the value on both sides."""

from __future__ import annotations

import pytest

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
     (14, "ходов"), (21, "ход"), (22, "хода"), (25, "ходов")],
)  # fmt: skip
def test_durations_read_in_russian_with_the_right_plural(n: int, word: str) -> None:
    assert plural_ru(n, ("ход", "хода", "ходов")) == word  # how a card reads an injury's duration
    assert span(n, "turn", "ru") == f"{n} {word}"


def test_durations_read_in_english_with_one_or_many() -> None:
    assert span(1, "turn", "en") == "1 turn"
    assert span(2, "turn", "en") == "2 turns"
