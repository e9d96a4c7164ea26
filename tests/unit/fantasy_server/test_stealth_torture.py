"""Stealth and torture (checklist-002 §2.13–§2.14; E-S-10)."""

from __future__ import annotations

from typing import Any

import pytest

from lazaretto.core.errors import RuleViolation
from tests.game import t
from tests.unit.fantasy_server.conftest import FGame


@pytest.fixture
def watch(g: FGame) -> FGame:
    g.pc("S", REF=10)  # the sneaker
    g.pc("W1", PER=4)
    g.pc("W2", PER=9)
    g.pc("W3", PER=6)
    return g


def sneak(g: FGame, *observers: str, **kw: Any) -> dict[str, Any]:
    g.act("sneak-past", actor="S", observers=list(observers), **kw)
    return g.last("stealth.resolved")


def refused(g: FGame, action: str, **kw: Any) -> tuple[str, ...]:
    with pytest.raises(RuleViolation) as err:
        g.act(action, **kw)
    return err.value.rule_ids


def test_sneaking_past_someone_is_ref_against_their_per(watch: FGame) -> None:
    out = sneak(watch, "W1", actor_roll=10, observer_roll=10)  # 20 vs 14
    assert out["outcome"] == "unnoticed"
    s, o = watch.checks()[-2:]
    assert (s["stat"], o["stat"], o["character"]) == ("REF", "PER", "W1")  # S-STEALTH-01


def test_against_a_group_only_the_most_perceptive_rolls(watch: FGame) -> None:
    out = sneak(watch, "W1", "W2", "W3", actor_roll=10, observer_roll=10)  # 20 vs 19
    assert out["observer"] == "W2" and out["outcome"] == "unnoticed"  # S-STEALTH-02
    hidden = watch.ch("S").condition("hidden")
    assert hidden is not None and set(hidden.data["unnoticed_by"]) == {"W1", "W2", "W3"}
    assert len(watch.checks()) == 2  # one roll for the whole group


def test_a_failed_group_roll_is_noticed_and_the_higher_roller_may_take_initiative(
    watch: FGame,
) -> None:
    out = sneak(watch, "W1", "W2", actor_roll=5, observer_roll=15)  # 15 vs 24
    assert out["outcome"] == "noticed"  # A-S-19: noticed by all
    assert watch.ch("W2").has("spotted_sneaker")  # S-STEALTH-07
    watch.act("start-combat", encounter="e", participants=["S", "W1", "W2"])
    assert watch.last("combat.started")["initiative"] == "W2"  # S-STEALTH-07


def test_in_a_crowd_of_six_only_an_interaction_is_rolled_and_without_perks(g: FGame) -> None:
    g.pc("S", REF=10)
    crowd = [g.pc(f"C{i}", PER=5).id for i in range(6)]
    out = sneak(g, *crowd)
    assert out["outcome"] == "unnoticed" and out["crowd"] and not g.checks()  # S-STEALTH-03
    out = sneak(g, *crowd, interact_with="C3", perk_bonus=5, actor_roll=10, observer_roll=14)
    assert out["observer"] == "C3"  # S-STEALTH-03: only with them
    assert g.checks()[-1]["modifiers"] == {}  # S-STEALTH-04: no gut feeling in a crowd
    assert out["outcome"] == "unnoticed"  # 20 vs 19
    assert {"S-STEALTH-03", "S-STEALTH-04"} <= set(g.rules("stealth.resolved"))


def test_a_perk_counts_outside_a_crowd(watch: FGame) -> None:
    sneak(watch, "W1", perk_bonus=5, actor_roll=10, observer_roll=10)
    assert watch.checks()[-1]["modifiers"] == {"perk": 5}  # S-STEALTH-04 (a contrario)


def test_attacking_an_unaware_target_by_a_sudden_grab(watch: FGame) -> None:
    sneak(watch, "W1", actor_roll=15, observer_roll=2)
    watch.act("ambush", actor="S", target="W1", mode="grab")
    assert watch.last("ambush.declared")["bonus"] == 0  # S-STEALTH-05: the grab rule
    assert "S-STEALTH-05" in watch.rules("ambush.declared")


def test_an_ambush_at_range_or_in_melee_gives_initiative_and_plus_20(watch: FGame) -> None:
    assert "S-STEALTH-06" in refused(watch, "ambush", actor="S", target="W1", mode="ranged")
    sneak(watch, "W1", actor_roll=15, observer_roll=2)
    watch.act("ambush", actor="S", target="W1", mode="ranged")
    watch.act("start-combat", encounter="e", participants=["S", "W1"])
    assert watch.last("combat.started")["initiative"] == "S"  # S-STEALTH-06
    watch.act("roll-check", character="S", stat="REF", purpose="attack", roll=5)
    assert watch.checks()[-1]["modifiers"] == {"ambush": 20}  # S-STEALTH-06: the first roll
    watch.act("roll-check", character="S", stat="REF", purpose="attack", roll=5)
    assert watch.checks()[-1]["modifiers"] == {}  # only the first


def test_stealth_starts_out_of_combat_but_one_may_flee_and_then_hide(watch: FGame) -> None:
    watch.act("start-combat", encounter="e", participants=["S", "W1"])
    rules = refused(watch, "sneak-past", actor="S", observers=["W1"])
    assert rules == ("S-STEALTH-08",)  # S-STEALTH-08
    watch.act("flee-combat", character="S")  # S-STEALTH-10
    sneak(watch, "W1", actor_roll=15, observer_roll=2)
    assert watch.last("stealth.resolved")["outcome"] == "unnoticed"  # S-STEALTH-10


def test_stealth_needs_light_silent_armour(watch: FGame) -> None:
    watch.act("register-item", item="plate", name="Plate", kind="armor", owner="S",
              armor_weight="heavy")  # fmt: skip
    watch.act("equip-item", character="S", item="plate")
    assert refused(watch, "sneak-past", actor="S", observers=["W1"]) == ("S-STEALTH-09",)
    watch.act("unequip-item", character="S", item="plate")
    watch.act("register-item", item="jerkin", name="Leather", kind="armor", owner="S",
              armor_weight="light", silent=True)  # fmt: skip
    watch.act("equip-item", character="S", item="jerkin")
    sneak(watch, "W1", actor_roll=15, observer_roll=2)  # S-STEALTH-09: leather is fine


def test_stealth_works_only_with_one_handed_weapons(watch: FGame) -> None:
    watch.act("register-item", item="zwei", name="Zweihander", kind="weapon", owner="S",
              one_handed=False)  # fmt: skip
    watch.act("equip-item", character="S", item="zwei")
    assert refused(watch, "sneak-past", actor="S", observers=["W1"]) == ("S-STEALTH-11",)


# --- torture ---------------------------------------------------------------------------


@pytest.fixture
def cell(g: FGame) -> FGame:
    g.pc("H", STR=10, DET=8)  # the torturer
    g.pc("V", WIL=5, DET=7)  # the victim
    return g


def rnd(g: FGame, torturer: int, victim: int, **kw: Any) -> dict[str, Any]:
    kw.setdefault("method", "physical")
    g.act("torture-round", actor="H", victim="V", actor_roll=torturer, victim_roll=victim, **kw)
    return g.last("torture.round_resolved")


def test_e_s_10_a_full_torture(cell: FGame) -> None:
    """E-S-10 (S-TORT-01..06, A-S-20)."""
    r1 = rnd(cell, 10, 10, question="Where were you at 8 pm?")
    assert cell.checks()[-2]["stat"] == "STR"  # S-TORT-01: physical → STR, victim WIL
    assert r1["torturer_total"].startswith("20") and r1["victim_total"].startswith("15")
    assert r1["question_allowed"] and r1["question"] == "Where were you at 8 pm?"  # S-TORT-02
    r2 = rnd(cell, 8, 11)
    assert r2["victim_bonus"] == 3 and r2["victim_total"].startswith("19")  # S-TORT-04
    assert not r2["question_allowed"] and r2["question"] == ""  # S-TORT-03
    assert "S-TORT-03" in cell.rules("torture.round_resolved")
    assert rnd(cell, 10, 2)["victim_bonus"] == 6  # S-TORT-04: round 3
    r4 = rnd(cell, 10, 2)
    assert r4["victim_bonus"] == 9 and r4["round"] == 4  # S-TORT-04: round 4
    assert cell.last("torture.ended")["rounds"] == 4  # S-TORT-05: then it ends
    lock = cell.ch("V").condition("torture_lockout")
    assert lock is not None and lock.deadline == t("00:00").replace(day=14)  # A-S-20
    with pytest.raises(RuleViolation) as err:
        rnd(cell, 10, 2)
    assert err.value.rule_ids == ("S-TORT-06", "A-S-20")  # S-TORT-06: not again today
    cell.advance_at(t("08:00").replace(day=14))
    assert rnd(cell, 10, 2)["victim_bonus"] == 0  # the next day, from +0


def test_psychological_torture_is_det_and_the_victim_may_resist_with_det(cell: FGame) -> None:
    rnd(cell, 10, 10, method="psychological", victim_stat="DET")
    torturer, victim = cell.checks()[-2:]
    assert torturer["stat"] == "DET" and victim["stat"] == "DET"  # S-TORT-01
    assert cell.last("torture.round_resolved")["question_allowed"] is True  # 18 vs 17


def test_stopping_a_torture_early_also_ends_it_for_the_day(cell: FGame) -> None:
    rnd(cell, 10, 10)
    cell.act("stop-torture", victim="V")
    assert cell.ch("V").has("torture_lockout")  # S-TORT-06
    with pytest.raises(RuleViolation):
        cell.act("stop-torture", victim="V")


def test_the_24_hour_torture_cooldown_reading() -> None:
    g = FGame(params={"torture_cooldown": "24h"})  # A-S-20 alternative
    g.pc("H", STR=10)
    g.pc("V", WIL=5)
    for _ in range(4):
        g.act("torture-round", at="10:00", actor="H", victim="V", method="physical",
              actor_roll=10, victim_roll=2)  # fmt: skip
    lock = g.ch("V").condition("torture_lockout")
    assert lock is not None and lock.deadline == t("10:00").replace(day=14)  # S-TORT-06


def test_a_fight_ends_hiding_but_keeps_the_ambush_bonus(watch: FGame) -> None:
    sneak(watch, "W1", actor_roll=15, observer_roll=2)
    watch.act("ambush", actor="S", target="W1", mode="melee")
    watch.act("start-combat", encounter="e", participants=["S", "W1"])
    assert not watch.ch("S").has("hidden")  # S-STEALTH-08: stealth is out of combat
    assert watch.ch("S").has("ambush_ready")  # S-STEALTH-06: until the first roll
