"""Whose hand each sticker is in (hands.py): the stickers a carrier holds are found from
the carrier, oldest first, without looking through every sticker of the game (W-DIS-01,
W-CARR-02)."""

from __future__ import annotations

import pickle

from lazaretto.rulesets.warhammer_larp.state import WarhammerState
from lazaretto.rulesets.warhammer_larp.stickers import held
from lazaretto.service.state_store import layout
from tests.unit.warhammer.diseases_kit import define, game


def made_order(st: WarhammerState, holder: str) -> list[str]:
    """``holder``'s held stickers as a scan of every sticker finds them, in made order."""
    return [c for c, s in st.stickers.items() if s.holder == holder and s.status == "held"]


def test_stickers_passed_on_leave_one_hand_for_the_other_oldest_first() -> None:
    g = game()
    define(g)
    g.act("hand-stickers", to="K", disease="GF", count=4)
    g.act("hand-stickers", to="p0", disease="GF", count=3, source="K")
    st = g.state
    assert isinstance(st, WarhammerState)
    first_four = list(st.stickers)
    assert [s.code for s in held(st, "p0", "GF")] == first_four[:3]  # W-DIS-01: oldest first
    assert [s.code for s in held(st, "K", "GF")] == first_four[3:]
    g.act("hand-stickers", to="K", disease="GF", count=1, source="p0")
    assert [s.code for s in held(st, "K")] == [first_four[0], first_four[3]] == made_order(st, "K")


def test_a_state_read_back_from_its_json_finds_the_same_hands() -> None:
    g = game()
    define(g)
    g.act("hand-stickers", to="K", disease="GF", count=3)
    g.state = WarhammerState.model_validate_json(g.state.model_dump_json())  # a fresh read
    st = g.state
    assert [s.code for s in held(st, "K", "GF")] == made_order(st, "K")
    g.act("carrier-touch", at="10:00", carrier="K", victim="p1", disease="GF")
    assert len(held(st, "K", "GF")) == 2 and [s.code for s in held(st, "K")] == made_order(st, "K")


def test_an_infection_touches_only_the_stickers_it_moves() -> None:
    g = game()
    define(g)
    g.act("hand-stickers", to="K", disease="GF", count=40)
    st = g.state
    assert isinstance(st, WarhammerState)
    layout(WarhammerState).track(st)  # as the parts store watches a change
    g.act("carrier-touch", at="10:00", carrier="K", victim="p1", disease="GF")
    stickers = st.__dict__["stickers"]
    assert not stickers.everything  # no look at all 40 (W-CARR-02: the carrier's hand)
    assert len(stickers.touched) == 1 and len(held(st, "K")) == 39


def test_a_pickled_state_builds_its_own_index() -> None:
    g = game()
    define(g)
    g.act("hand-stickers", to="K", disease="GF", count=2)
    st = g.state
    assert isinstance(st, WarhammerState)
    assert len(held(st, "K")) == 2  # the index is built
    again = pickle.loads(pickle.dumps(st))  # as a process pool sends it
    assert [s.code for s in held(again, "K")] == made_order(again, "K") == made_order(st, "K")
