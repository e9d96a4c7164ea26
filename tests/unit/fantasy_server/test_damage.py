"""Falling and collision damage (checklist-002 §2.4–§2.5; E-S-07, E-S-08)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from lazaretto.core.engine import run_query
from lazaretto.core.errors import InvalidInput, RuleViolation
from lazaretto.rulesets.fantasy_server.damage import fall_kills, fall_odds, fall_traumas, fall_turns
from tests.unit.fantasy_server.conftest import FGame


def plated(g: FGame, cid: str = "A", hp: int = 30) -> None:
    g.pc(cid, hp=hp, REF=8)
    g.act("register-item", item=f"plate-{cid}", name="Plate", kind="armor", owner=cid,
          armor_value=6, armor_weight="heavy")  # fmt: skip
    g.act("equip-item", character=cid, item=f"plate-{cid}")


def test_e_s_07_a_fall_is_1d10_per_movement_action_and_armour_does_not_help(g: FGame) -> None:
    """E-S-07: max HP 30, 4 movement actions rolling 10, 9, 8, 7."""
    plated(g)
    g.act("resolve-fall", character="A", movement_actions=4, rolls=[10, 9, 8, 7])
    fall = g.last("fall.resolved")
    assert fall["damage"] == 34  # S-FALL-02: 1d10 per movement action
    assert fall["armor_ignored"] and fall["lost"] == {"A": 30}  # S-FALL-01: pure damage
    assert fall["turns"] == 2  # S-FALL-05: two movement actions per turn
    assert fall["traumas"] == 0 and g.ch("A").alive  # S-FALL-03: 4 over → no trauma
    assert g.ch("A").hits == 0  # A-S-09: what 0 HP means is the GM's call


def test_e_s_07_every_10_over_max_hp_adds_a_random_trauma(g: FGame) -> None:
    g.pc("A", hp=30)
    g.act("resolve-fall", character="A", movement_actions=6, rolls=[10, 10, 9, 9, 8, 8])
    fall = g.last("fall.resolved")
    assert fall["damage"] == 54 and fall["traumas"] == 2 and fall["turns"] == 3  # S-FALL-03
    traumas = [c for c in g.ch("A").conditions if c.kind == "trauma"]
    assert len(traumas) == 2  # A-S-09: drawn from the fall trauma table
    assert all(c.data["key"] in g.p.fall_trauma_table for c in traumas)
    assert len(g.events[-3].dice) == 2 and g.replayed() == g.state  # the draws are recorded


def test_e_s_07_more_than_100_falling_damage_kills(g: FGame) -> None:
    g.pc("A", hp=30)
    g.pc("B", hp=40)
    g.act("resolve-fall", character="A", movement_actions=11, rolls=[10] * 10 + [1])
    assert not g.ch("A").alive  # S-FALL-04: 101 > 100
    assert "S-FALL-04" in g.rules("fall.resolved")
    g.act("resolve-fall", character="B", movement_actions=10, rolls=[10] * 10)
    fall = g.last("fall.resolved")
    assert g.ch("B").alive and fall["traumas"] == 6  # A-S-09: exactly 100 does not kill
    with pytest.raises(RuleViolation):
        g.act("resolve-fall", character="A", movement_actions=1)


def test_the_fall_calculators() -> None:
    assert fall_turns(4) == 2 and fall_turns(5) == 3  # S-FALL-05, A-S-09: odd last turn
    assert fall_traumas(34, 30) == 0 and fall_traumas(54, 30) == 2  # S-FALL-03
    assert fall_traumas(20, 30) == 0 and fall_traumas(60, 40) == 2
    assert fall_kills(101) and not fall_kills(100)  # S-FALL-04


def test_the_fall_odds_query_is_exact(g: FGame) -> None:
    g.pc("A", hp=30)
    p = g.p
    assert fall_odds(10, 30, p)["death"] == 0  # E-S-07: ≤ 10 never kills
    ways = {0: 1}  # oracle: count the ways 11d10 sums above 100
    for _ in range(11):
        nxt: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, 11):
                nxt[total + face] = nxt.get(total + face, 0) + n
        ways = nxt
    over = sum(n for total, n in ways.items() if total > 100)
    assert fall_odds(11, 30, p)["death"] == Fraction(over, 10**11)
    answer = run_query(g.rs, g.state, "fall-odds", {"character": "A", "movement_actions": 6})
    assert answer["turns"] == 3 and answer["mean_damage"] == "33"  # S-FALL-02: 6 × 5.5


def test_while_falling_only_some_actions_are_possible(g: FGame) -> None:
    g.pc("A", REF=8)
    with pytest.raises(RuleViolation) as err:
        g.act("act-while-falling", character="A", what="melee_attack")
    assert err.value.rule_ids == ("S-FALL-06",)  # S-FALL-06
    g.act("act-while-falling", character="A", what="verbal_spell")
    assert g.last("fall.action_resolved")["done"] is True  # S-FALL-06


def test_e_s_08_a_consumable_while_falling_needs_ref_against_the_medium_threshold(
    g: FGame,
) -> None:
    """E-S-08: REF total 18 uses the potion, 17 drops it (S-FALL-07, medium = 18)."""
    g.pc("A", REF=8)
    g.act("act-while-falling", character="A", what="consumable", item="potion", roll=10)
    assert g.last("fall.action_resolved")["done"] is True  # S-FALL-07
    assert g.checks()[-1]["threshold_label"] == "medium (18)"
    g.act("act-while-falling", character="A", what="consumable", item="potion", roll=9)
    assert g.last("fall.action_resolved")["done"] is False  # S-FALL-07: dropped


def test_e_s_08_a_collision_is_1d10_bludgeoning_per_horizontal_movement_action(g: FGame) -> None:
    g.pc("A", hp=30)
    g.act("resolve-collision", character="A", movement_actions=2, into="wall", rolls=[4, 6])
    c = g.last("collision.resolved")
    assert c["damage"] == 10 and c["type"] == "bludgeoning"  # S-COLL-01
    assert {"S-COLL-01", "S-COLL-02"} <= set(g.rules("collision.resolved"))  # S-COLL-02
    assert g.ch("A").hits == 20


def test_e_s_08_two_colliding_characters_both_take_the_damage(g: FGame) -> None:
    g.pc("A", hp=30)
    g.pc("B", hp=30)
    g.act("resolve-collision", character="A", movement_actions=2, into="character", other="B",
          rolls=[4, 6])  # fmt: skip
    assert g.ch("A").hits == g.ch("B").hits == 20  # S-COLL-04, A-S-10: one shared roll
    with pytest.raises(RuleViolation):
        g.act("resolve-collision", character="A", into="character")


def test_separate_collision_rolls_are_a_campaign_parameter() -> None:
    g = FGame(params={"collision_shared_roll": False})  # A-S-10 alternative
    g.pc("A", hp=60)
    g.pc("B", hp=60)
    g.act("resolve-collision", character="A", movement_actions=3, into="character", other="B")
    each = g.last("collision.resolved")["damage_each"]
    assert set(each) == {"A", "B"} and len(g.events[-1].dice) == 2  # S-COLL-04


def test_e_s_08_point_blank_knockback_into_a_wall_is_1d10(g: FGame) -> None:
    g.pc("A", hp=30)
    g.act("resolve-collision", character="A", into="wall", point_blank=True, movement_actions=0,
          rolls=[7])  # fmt: skip
    assert g.last("collision.resolved")["damage"] == 7  # S-COLL-05
    with pytest.raises(InvalidInput):
        g.act("resolve-collision", character="A", into="wall", point_blank=True, rolls=[7, 7])
    with pytest.raises(RuleViolation) as err:
        g.act("resolve-collision", character="A", into="wall", point_blank=True, cause="spell")
    assert err.value.rule_ids == ("S-COLL-05",)


def test_only_a_movement_spell_throws_someone_into_a_larger_background_object(g: FGame) -> None:
    g.pc("A", hp=30)
    with pytest.raises(RuleViolation) as err:
        g.act("resolve-collision", character="A", into="object", cause="knockback",
              object_larger=True)  # fmt: skip
    assert err.value.rule_ids == ("S-COLL-03",)  # S-COLL-03
    with pytest.raises(RuleViolation):
        g.act("resolve-collision", character="A", into="object", cause="spell")  # not larger
    g.act("resolve-collision", character="A", into="object", cause="spell", object_larger=True,
          rolls=[5])  # fmt: skip
    assert "S-COLL-03" in g.rules("collision.resolved")


def test_a_collision_rolls_one_d10_per_movement_action_and_deals_their_sum(g: FGame) -> None:
    g.pc("A", hp=60)
    g.act("resolve-collision", character="A", movement_actions=3, into="wall")
    [roll] = g.events[-1].dice
    c = g.last("collision.resolved")
    assert roll["expression"] == "3d10" and c["damage"] == roll["total"]  # S-COLL-01: 1d10 each
    assert g.ch("A").hits == 60 - roll["total"]  # S-COLL-01
    with pytest.raises(InvalidInput):  # S-COLL-01: a d10 shows at most 10
        g.act("resolve-collision", character="A", movement_actions=1, into="wall", rolls=[11])


def test_a_point_blank_knockback_into_a_wall_rolls_1d10_in_total(g: FGame) -> None:
    g.pc("A", hp=60)
    g.act("resolve-collision", character="A", into="wall", point_blank=True, movement_actions=0)
    [roll] = g.events[-1].dice
    assert roll["expression"] == "1d10"  # S-COLL-05: 1d10 in total
    assert g.last("collision.resolved")["damage"] == roll["total"]  # S-COLL-05
    with pytest.raises(InvalidInput):
        g.act("resolve-collision", character="A", into="wall", point_blank=True,
              movement_actions=0, rolls=[11])  # fmt: skip
