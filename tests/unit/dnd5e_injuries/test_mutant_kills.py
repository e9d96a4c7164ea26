"""Boundaries of dnd5e-injuries rules that a one-step change of their code would move
unnoticed (issue 19, ``bench/mutate.py``): each test pins the value on both sides."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import RuleViolation
from lazaretto.rulesets.dnd5e_injuries.common import plural_ru, span
from tests.game import Game
from tests.unit.dnd5e_injuries.conftest import (
    cc10,
    enemy,
    game,
    injuries,
    last_injury,
    payloads,
    pc,
    pending,
)


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


# --- survivors of the seed-21 code sample (issue 19) -----------------------------------------


def test_a_shield_of_plus_1_can_be_knocked_away_a_shield_of_0_cannot() -> None:
    for bonus, allowed in ((1, True), (0, False)):
        g = game()
        pc(g, "a")
        enemy(g, "o", shield=bonus, ac=16)
        g.act("take-damage", character="o", damage=30, damage_type="slashing", critical=True,
              attacker="a")  # fmt: skip
        if allowed:
            g.act("attempt-injury", actor="a", target="o", instead="knock_shield")
            assert g.ch("o").has("shield_knocked")  # D-AIM-05: even a +1 shield
        else:
            with pytest.raises(RuleViolation) as err:
                g.act("attempt-injury", actor="a", target="o", instead="knock_shield")
            assert "D-AIM-05" in err.value.rule_ids  # D-AIM-05: no shield, nothing to knock


def test_the_damage_known_from_the_trigger_may_be_repeated_but_not_changed(g: Game) -> None:
    g.act("take-damage", character="a", damage=12, damage_type="slashing", critical=True)
    with pytest.raises(RuleViolation) as err:
        g.act("roll-injury", character="a", damage=13, location_roll=4)
    assert "A-D-03" in err.value.rule_ids  # A-D-03: the trigger's damage is known
    g.act("roll-injury", character="a", damage=12, damage_type="slashing", location_roll=4)
    assert last_injury(g, "a")["damage"] == 12  # A-D-03: the same numbers are accepted


def test_a_gm_amount_of_1_hp_is_taken_and_a_drop_to_0_by_it_injures_again() -> None:
    from tests.unit.dnd5e_injuries.test_effects import injure

    g = game()
    cc10(g)
    injure(g, "legs", "fire", 5, gm_amounts=[1, -10])  # D-TAB-40: «−хп», 1 by the GM
    assert g.ch("a").hits == 59
    g.act("take-damage", character="a", damage=58, damage_type="slashing")
    assert g.ch("a").hits == 1 and pending(g, "a") is None
    injure(g, "legs", "fire", 5, gm_amounts=[1, -10])
    assert g.ch("a").hits == 0
    assert triggers(g) == ["zero_hp"]  # D-COND-02: that 1 HP dropped her to 0: a new injury


def test_only_an_equal_exchange_cites_its_guaranteed_location(g: Game) -> None:
    g.act("take-damage", character="a", damage=5, damage_type="necrotic", critical=True)
    g.act("roll-injury", character="a", location_roll=4)  # rolled; the GM names the sub-table
    evs = g.act("roll-injury", character="a", sub_table="slashing")
    received = next(e for e in evs if e.kind == "injury.received")
    assert "D-DEF-04" not in received.rule_ids  # a rolled location, no Equal Exchange
    pc(g, "b")
    g.act("take-damage", character="b", damage=5, damage_type="fire", critical=True)
    g.act("equal-exchange", character="b", location="legs", side="left")
    evs = g.act("roll-injury", character="b")
    received = next(e for e in evs if e.kind == "injury.received")
    assert "D-DEF-04" in received.rule_ids  # D-DEF-04: the part is guaranteed


def test_only_a_halved_blow_cites_the_injured_arm() -> None:
    from tests.unit.dnd5e_injuries.test_effects import injure

    g = game()
    cc10(g)
    pc(g, "b")
    injure(g, "arms", "slashing", 10, side="right")  # D-TAB-17: damage ×0.5
    for arm, cited in (("right", True), ("left", False)):
        evs = g.act("take-damage", character="b", damage=7, damage_type="slashing",
                    attacker="a", attacker_arm=arm)  # fmt: skip
        taken = next(e for e in evs if e.kind == "damage.taken")
        assert ("D-TAB-17" in taken.rule_ids) is cited  # D-TAB-17, A-D-18


# --- survivors of the fresh seed-33 code sample (issue 19) -----------------------------------


def test_crossing_only_counts_a_hit_from_above_half_not_from_exactly_half() -> None:
    for start, allowed in ((21, True), (20, False)):  # half of 40 is 20
        g = game(enemy_injury_trigger="crossing_only")
        pc(g, "a")
        enemy(g, "o", hp=40)
        g.act("set-dnd-stats", character="o", hp=start)
        evs = g.act("take-damage", character="o", damage=5, damage_type="slashing",
                    attacker="a")  # fmt: skip
        taken = next(e for e in evs if e.kind == "damage.taken")
        assert taken.payload["attempt_allowed"] is allowed  # A-D-06: crossing the half line


def test_a_refused_treatment_names_the_ways_a_player_can_choose() -> None:
    from tests.unit.dnd5e_injuries.test_effects import injure

    g = game()
    cc10(g)
    rec = injure(g, "arms", "bludgeoning", 5)  # D-TAB-22: 1 week / healing
    assert rec["row"] == "D-TAB-22"
    with pytest.raises(RuleViolation) as err:
        g.act("treat-injury", patient="a", injury=rec["id"], method="medicine", check_total=20)
    assert "(healing)" in str(err.value)  # D-TAB-22: the week passes by itself, not a method
    assert "A-D-12" in err.value.rule_ids


def test_the_first_pending_injury_is_p1(g: Game) -> None:
    g.act("take-damage", character="a", damage=40, damage_type="slashing")
    held = pending(g, "a")
    assert held is not None and held.data["id"] == "p1"  # the GM's list reads p1, p2, ...


# --- survivors of the fresh seed-47 code sample (issue 19) -----------------------------------


def test_without_sides_two_legs_can_be_lost_and_a_third_loss_is_rolled_again() -> None:
    from tests.unit.dnd5e_injuries.test_effects import injure

    g = game(track_limb_side=False)
    cc10(g, hp=200)
    injure(g, "legs", "slashing", 20)  # D-TAB-36: a leg lost
    injure(g, "legs", "slashing", 20)  # the other leg (A-D-15: two of each)
    assert [r["row"] for r in injuries(g, "a")] == ["D-TAB-36", "D-TAB-36"]
    g.act("take-damage", character="a", damage=20, damage_type="slashing", critical=True)
    g.act("roll-injury", character="a", location_roll=3)
    assert payloads(g, "injury.needs_gm")[-1]["need"] == "reroll"  # A-D-15: no third leg


def test_the_rolled_side_of_a_limb_is_left_on_a_1_and_right_on_a_2() -> None:
    from tests.unit.dnd5e_injuries.test_effects import injure

    g = game()
    cc10(g, hp=200)
    seen = set()
    for _ in range(8):
        rec = injure(g, "arms", "bludgeoning", 5)  # no side given: 1d2
        d2 = [
            d["total"]
            for e in g.events
            if e.kind == "injury.received"
            for d in e.dice
            if d["expression"] == "1d2"
        ][-1]
        assert rec["side"] == ("left" if d2 == 1 else "right")  # A-D-15: 1d2 for the side
        seen.add(rec["side"])
    assert seen == {"left", "right"}


# --- survivors of the fresh seed-59 code sample (issue 19) -----------------------------------


def test_labels_read_in_the_asked_language() -> None:
    from lazaretto.rulesets.dnd5e_injuries.common import label

    assert label("location:legs", "ru") != label("location:legs", "en")
    assert label("location:legs", "en") == "legs"


def test_equal_exchange_onto_legs_both_lost_is_refused_without_sides() -> None:
    from tests.unit.dnd5e_injuries.test_effects import injure

    g = game(track_limb_side=False)
    cc10(g, hp=200)
    injure(g, "legs", "slashing", 20)  # D-TAB-36: one leg lost
    g.act("take-damage", character="a", damage=5, damage_type="fire", critical=True)
    g.act("equal-exchange", character="a", location="legs")  # the other leg still takes it
    g.act("roll-injury", character="a")
    injure(g, "legs", "slashing", 20)  # and the second leg lost
    g.act("take-damage", character="a", damage=5, damage_type="fire", critical=True)
    with pytest.raises(RuleViolation) as err:
        g.act("equal-exchange", character="a", location="legs")
    assert err.value.rule_ids == ("D-DEF-02", "A-D-15")  # no leg left to take the blow
