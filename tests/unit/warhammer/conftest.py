"""Fixtures for the warhammer-larp rule tests: a campaign with a healer, a hospital, a mat."""

from __future__ import annotations

import pytest

from tests.game import Game

BEDS = [
    {"id": "b1"},
    {"id": "b2"},
    {"id": "g1", "on_ground": True, "height_cm": 0},
    {"id": "g2", "on_ground": True, "height_cm": 0},
]


def hospital(g: Game, hid: str = "h1", number: str = "7", **kw: object) -> None:
    g.act(
        "register-hospital",
        id=hid,
        name=f"Hospital {hid}",
        number=number,
        tables=[{"id": "t1"}],
        beds=BEDS,
        **kw,
    )


@pytest.fixture
def g() -> Game:
    game = Game()
    game.healer("H", hits=2)
    game.healer("H2", hits=3)
    game.add("C", "Rustam", hits=3, race="human", age=34)
    game.act("register-mat", id="m1", healer="H", length_cm=180, width_cm=60)
    game.act("register-mat", id="m2", healer="H2", length_cm=180, width_cm=60)
    hospital(game)
    return game
