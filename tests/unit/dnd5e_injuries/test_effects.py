"""What injuries do over time and how they end (A-D-12, A-D-13, A-D-15, A-D-18,
A-D-19), Disfigurement (D-DISF-01, A-D-14), worked examples E-D-06 and E-D-11."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from lazaretto.core.engine import advance_to
from lazaretto.core.errors import Forbidden, RuleViolation
from lazaretto.core.ruleset import Role
from tests.game import Game
from tests.unit.dnd5e_injuries.conftest import (
    cc10,
    game,
    injuries,
    payloads,
    pc,
    pending,
)

FACE = {"head": 1, "arms": 2, "legs": 3, "torso": 4}


def injure(
    g: Game, location: str, damage_type: str, damage: int, cid: str = "a", **kw: Any
) -> dict[str, Any]:
    g.act(
        "roll-injury",
        character=cid,
        trigger="critical_hit",
        damage=damage,
        damage_type=damage_type,
        location_roll=FACE[location],
        **kw,
    )
    return next(r for r in reversed(injuries(g, cid)) if r["row"].startswith("D-TAB"))


def later(g: Game, **delta: float) -> None:
    assert g.state.clock is not None
    g.events += advance_to(g.rs, g.state, g.state.clock.now() + timedelta(**delta))


def turns(g: Game, n: int, cid: str = "a") -> None:
    for _ in range(n):
        g.act("start-turn", character=cid)


def has(g: Game, injury_id: str, cid: str = "a") -> bool:
    return any(r["id"] == injury_id for r in injuries(g, cid))


@pytest.fixture
def a10() -> Game:
    g = game()
    cc10(g)
    return g


# --- timed effects (A-D-13, A-D-19) ---------------------------------------------------------


def test_a_daze_stuns_for_its_rolled_number_of_turns_then_ends(a10: Game) -> None:
    rec = injure(a10, "head", "bludgeoning", 5)  # D-TAB-04: stunned 1d4 turns
    stun = rec["effects"][0]
    n = stun["rolled"]
    assert 1 <= n <= 4 and stun["unit"] == "turn"  # A-D-19: rolled when applied
    received = next(e for e in a10.events if e.kind == "injury.received")
    assert received.dice[-1]["expression"] == "1d4"  # the roll is recorded
    turns(a10, n)
    assert has(a10, rec["id"])  # stunned through its next n turns
    turns(a10, 1)
    assert not has(a10, rec["id"])  # D-TAB-04: over, the injury ends with it
    assert payloads(a10, "injury.healed")[-1]["how"] == "effects_ended"


def test_temporary_blindness_ends_on_the_clock(a10: Game) -> None:
    rec = injure(a10, "head", "radiant", 10)  # D-TAB-08: blinded 1d4 hours
    hours = rec["effects"][0]["rolled"]
    assert a10.ch("a").conditions[-1].deadline is not None
    later(a10, hours=hours, seconds=-1)
    assert has(a10, rec["id"])
    later(a10, seconds=1)
    assert not has(a10, rec["id"])  # A-D-19


def test_a_concussion_ends_when_both_stun_and_amnesia_are_over(a10: Game) -> None:
    rec = injure(a10, "head", "bludgeoning", 10)  # D-TAB-05
    stun, amnesia = rec["effects"]
    assert stun["unit"] == "turn"  # A-D-13: "Оглушён 1d6" counted in turns
    assert 1 <= amnesia["rolled"] <= 4 and amnesia["unit"] == "day"
    turns(a10, stun["rolled"] + 1)
    assert has(a10, rec["id"])  # amnesia goes on
    later(a10, days=amnesia["rolled"])
    assert not has(a10, rec["id"])


def test_a_d_13_alternative_stun_counted_in_minutes() -> None:
    g = game(stun_unit="minute")
    cc10(g)
    rec = injure(g, "head", "bludgeoning", 20)  # D-TAB-06: stunned 1d12, amnesia 1d10 days
    stun = rec["effects"][0]
    assert stun["unit"] == "minute" and stun["ends_at"] is not None
    assert 1 <= stun["rolled"] <= 12


def test_hearing_loss_keeps_its_disadvantage_after_the_deafness_ends(a10: Game) -> None:
    rec = injure(a10, "head", "thunder", 10)  # D-TAB-11
    later(a10, days=rec["effects"][0]["rolled"])
    still = next(r for r in injuries(a10, "a") if r["id"] == rec["id"])
    assert still["effects"][0]["ended"] and not still["effects"][1]["ended"]
    card = a10.rs.describe(a10.state, "a", "en")  # type: ignore[misc]
    assert card["conditions"][-1]["effect"] == "disadvantage on hearing"


def test_a_d_19_alternative_durations_are_not_rolled_and_the_gm_ends_them() -> None:
    g = game(roll_durations_on_apply=False)
    cc10(g)
    rec = injure(g, "head", "radiant", 10)
    assert rec["effects"][0]["rolled"] is None and not g.state.timers
    later(g, days=30)
    assert has(g, rec["id"])
    with pytest.raises(Forbidden):
        g.act("end-injury", patient="a", injury=rec["id"], role=Role.PLAYER)
    g.act("end-injury", patient="a", injury=rec["id"], reason="the light fades")
    assert not has(g, rec["id"])


# --- bleeding and hit points (A-D-13) ---------------------------------------------------


def test_bleeding_hurts_at_the_start_of_each_turn_until_treated(a10: Game) -> None:
    rec = injure(a10, "legs", "piercing", 10)  # D-TAB-38: bleeding 1d6
    before = a10.ch("a").hits
    turns(a10, 3)
    bled = payloads(a10, "injury.bled")
    assert len(bled) == 3 and all(1 <= b["lost"] <= 6 for b in bled)  # A-D-13
    assert a10.ch("a").hits == before - sum(b["lost"] for b in bled)
    a10.act("treat-injury", patient="a", injury=rec["id"], method="medicine", check_total=13)
    turns(a10, 2)
    assert len(payloads(a10, "injury.bled")) == 3  # treated: no more bleeding


def test_bleeding_to_0_hit_points_is_a_new_injury() -> None:
    g = game()
    cc10(g, hp=2)
    injure(g, "torso", "piercing", 20)  # D-TAB-54: bleeding 2d10 (at least 2)
    turns(g, 1)
    assert g.ch("a").hits == 0
    assert pending(g, "a").data["triggers"] == ["zero_hp"]  # type: ignore[union-attr]  # D-COND-02


def test_a_burn_takes_max_hp_until_treated(a10: Game) -> None:
    rec = injure(a10, "head", "fire", 5)  # D-TAB-13: −1d8 max HP
    lost = rec["effects"][0]["rolled"]
    assert 1 <= lost <= 8 and rec["max_hp_loss"] == lost
    assert a10.ch("a").hits_max == 60 - lost  # A-D-19: lasts until treated
    a10.act("treat-injury", patient="a", injury=rec["id"], method="healing", spell_level=1)
    assert a10.ch("a").hits_max == 60


def test_a_maximum_brought_to_0_kills() -> None:
    g = game()
    cc10(g, hp=2)
    injure(g, "head", "acid", 20)  # D-TAB-15: −2d12 max HP (at least 2)
    assert not g.ch("a").alive  # A-D-19


def test_a_festering_wound_drains_a_max_hp_a_day_and_kills_at_0() -> None:
    g = game()
    cc10(g, hp=3)
    rec = injure(g, "head", "slashing", 20)  # D-TAB-03
    later(g, hours=24)
    assert g.ch("a").hits_max == 2  # −1 max HP / 24 h
    later(g, hours=47, minutes=59)
    assert g.ch("a").alive and g.ch("a").hits_max == 1
    later(g, minutes=1)
    assert not g.ch("a").alive  # D-TAB-03: death at 0
    assert payloads(g, "character.died")[-1]["cause"] == "max_hp_zero"
    assert not g.state.timers and rec["row"] == "D-TAB-03"
    assert g.replayed() == g.state


def test_healing_a_festering_wound_gives_back_what_it_drained(a10: Game) -> None:
    rec = injure(a10, "head", "slashing", 20)
    later(a10, days=3)
    assert a10.ch("a").hits_max == 57
    a10.act("treat-injury", patient="a", injury=rec["id"], method="healing", spell_level=4)
    assert a10.ch("a").hits_max == 60 and not a10.state.timers  # A-D-19


def test_an_infection_drains_a_max_hp_a_day(a10: Game) -> None:
    injure(a10, "torso", "slashing", 5)  # D-TAB-49, A-D-13: −1 max HP per day
    later(a10, days=2)
    assert a10.ch("a").hits_max == 58


def test_a_bowel_wound_takes_1d4_hp_an_hour_and_can_drop_to_0() -> None:
    g = game()
    cc10(g, hp=6)
    injure(g, "torso", "piercing", 5)  # D-TAB-52
    later(g, hours=1)
    lost = payloads(g, "injury.drained")[-1]["lost"]
    assert 1 <= lost <= 4 and g.ch("a").hits == 6 - lost
    later(g, hours=5)
    assert g.ch("a").hits == 0
    assert pending(g, "a").data["triggers"] == ["zero_hp"]  # type: ignore[union-attr]  # D-COND-02


def test_an_organ_rupture_sets_max_hp_to_5_until_surgery(a10: Game) -> None:
    rec = injure(a10, "torso", "bludgeoning", 20)  # D-TAB-48
    assert (a10.ch("a").hits_max, a10.ch("a").hits) == (5, 5)
    a10.act("treat-injury", patient="a", injury=rec["id"], method="surgery", dc=15, check_total=16)
    assert a10.ch("a").hits_max == 60  # A-D-19


def test_a_gash_stuns_a_turn_and_keeps_its_disadvantage(a10: Game) -> None:
    rec = injure(a10, "torso", "slashing", 10)  # D-TAB-50, A-D-13: stunned 1 turn
    assert rec["effects"][0]["rolled"] == 1
    turns(a10, 2)
    assert has(a10, rec["id"])  # the disadvantage lasts until treated


def test_gm_numbers_fill_the_unquantified_effects(a10: Game) -> None:
    rec = injure(a10, "legs", "fire", 5, gm_amounts=[3, -10])  # D-TAB-40: −хп, −скорость
    hp_loss, speed = rec["effects"]
    assert (hp_loss["amount"], speed["amount"]) == (3, -10)  # A-D-13
    assert a10.ch("a").hits == 57  # "−хп" applied once
    plain = injure(a10, "legs", "fire", 5)
    assert plain["effects"][0]["amount"] is None  # left to the GM


def test_the_medicine_check_is_rolled_when_not_given(a10: Game) -> None:
    rec = injure(a10, "arms", "piercing", 5)  # D-TAB-19: Medicine 10
    evs = a10.act(
        "treat-injury", patient="a", injury=rec["id"], method="medicine", medicine_bonus=5
    )
    rolled = next(e for e in evs if e.dice)
    assert rolled.dice[0]["expression"] == "1d20 + 5 >= 10"  # A-D-12: a DC 10 check


def test_a_heal_for_an_injury_that_has_none_is_refused(a10: Game) -> None:
    rec = injure(a10, "head", "bludgeoning", 20)  # D-TAB-06: Без лечения
    with pytest.raises(RuleViolation) as err:
        a10.act("treat-injury", patient="a", injury=rec["id"], method="healing", spell_level=9)
    assert {"D-TAB-06", "A-D-12"} <= set(err.value.rule_ids)


def test_the_medicine_successes_a_day_are_a_parameter() -> None:
    g = game(medicine_successes_per_day=2)
    cc10(g)
    rec = injure(g, "head", "slashing", 20)  # D-TAB-03: 10 successes of Medicine (15)
    for _ in range(2):
        g.act(
            "treat-injury", patient="a", injury=rec["id"], method="medicine_series", check_total=15
        )
    with pytest.raises(RuleViolation) as err:
        g.act(
            "treat-injury", patient="a", injury=rec["id"], method="medicine_series", check_total=15
        )
    assert {"D-TAB-03", "A-D-12"} <= set(err.value.rule_ids)
    assert payloads(g, "injury.treatment_progress")[-1]["successes"] == 2


# --- half damage with an injured arm (A-D-18) --------------------------------------------------


@pytest.mark.parametrize(("rounding", "expected"), [("floor", 3), ("ceil", 4)])
def test_an_injured_arm_halves_its_attacks_damage(rounding: str, expected: int) -> None:
    g = game(half_damage_rounding=rounding)
    cc10(g)
    pc(g, "b")
    rec = injure(g, "arms", "slashing", 10, side="right")  # D-TAB-17: damage ×0.5
    g.act(
        "take-damage",
        character="b",
        damage=7,
        damage_type="slashing",
        attacker="a",
        attacker_arm="right",
    )
    assert g.ch("b").hits == 40 - expected  # A-D-18
    g.act(
        "take-damage",
        character="b",
        damage=7,
        damage_type="slashing",
        attacker="a",
        attacker_arm="left",
    )
    assert g.ch("b").hits == 40 - expected - 7  # the other arm hits as usual
    assert rec["row"] == "D-TAB-17"


# --- sides, lost limbs, repeats (A-D-15) ---------------------------------------------------------


def test_a_limb_injury_records_its_side(a10: Game) -> None:
    rec = injure(a10, "arms", "bludgeoning", 5)
    assert rec["side"] in ("left", "right")  # A-D-15: at random unless declared
    torso = injure(a10, "torso", "bludgeoning", 5)
    assert torso["side"] is None
    g = game(track_limb_side=False)
    cc10(g)
    assert injure(g, "legs", "slashing", 5)["side"] is None  # A-D-15 alternative


def test_a_severed_arm_stays_lost_after_surgery_and_regrows_by_regeneration(a10: Game) -> None:
    rec = injure(a10, "arms", "slashing", 20, side="left")  # D-TAB-18
    assert a10.ch("a").data["lost_limbs"] == ["arm:left"]
    a10.act("treat-injury", patient="a", injury=rec["id"], method="surgery", dc=12, check_total=12)
    assert a10.ch("a").data["lost_limbs"] == ["arm:left"]  # the wound closed, the arm gone
    rec = injure(a10, "arms", "slashing", 20, side="right")
    a10.act("treat-injury", patient="a", injury=rec["id"], method="regeneration")
    assert a10.ch("a").data["lost_limbs"] == ["arm:left"]  # the right one grew back


def test_losing_a_limb_already_lost_makes_the_gm_roll_again(a10: Game) -> None:
    injure(a10, "legs", "slashing", 20, side="left")  # D-TAB-36
    a10.act("take-damage", character="a", damage=20, damage_type="slashing", critical=True)
    a10.act("roll-injury", character="a", location_roll=3, side="left")
    asked = payloads(a10, "injury.needs_gm")[-1]
    assert asked["need"] == "reroll"  # A-D-15: the GM re-rolls
    assert pending(a10, "a").data["location"] is None  # type: ignore[union-attr]
    a10.act("roll-injury", character="a", location_roll=1)
    rows = [r["row"] for r in injuries(a10, "a")]
    assert rows == ["D-TAB-36", "D-TAB-03", "D-DISF-01"]  # re-rolled: head, heavy


def test_repeated_injuries_stack_by_default_and_replace_as_the_alternative() -> None:
    g = game()
    cc10(g)
    injure(g, "arms", "bludgeoning", 5, side="left")
    injure(g, "arms", "bludgeoning", 5, side="left")
    assert [r["row"] for r in injuries(g, "a")] == ["D-TAB-22", "D-TAB-22"]  # A-D-15 stack
    g = game(duplicate_injury_policy="replace")
    cc10(g)
    first = injure(g, "arms", "bludgeoning", 5, side="left")
    second = injure(g, "arms", "bludgeoning", 5, side="left")
    assert [r["id"] for r in injuries(g, "a")] == [second["id"]] != [first["id"]]


# --- Disfigurement (D-DISF-01, A-D-14, E-D-06) ---------------------------------------------


def test_e_d_06_a_heavy_head_injury_also_disfigures(g: Game) -> None:
    hp_max = g.ch("a").hits_max
    evs = g.act(
        "roll-injury",
        character="a",
        trigger="critical_hit",
        damage=40,
        damage_type="radiant",
        location_roll=1,
    )
    rows = [r["row"] for r in injuries(g, "a")]
    assert rows == ["D-TAB-09", "D-DISF-01"]  # the row itself, and Disfigurement on top
    eye, disfigured = injuries(g, "a")
    assert eye["treatment_ru"] == "Регенерация"  # D-TAB-09
    assert [(e["kind"], e.get("target") or e.get("name")) for e in disfigured["effects"]] == [
        ("condition", "speech_impaired"),
        ("disadvantage", "persuasion"),
        ("advantage", "intimidation"),
    ]  # D-DISF-01, A-D-14: speech + Laceration's (dis)advantages
    assert g.ch("a").hits_max == hp_max  # A-D-14: no extra max-HP loss from Severe burn
    assert "D-DISF-01" in next(e for e in evs if e.kind == "injury.disfigured").rule_ids
    with pytest.raises(RuleViolation):
        g.act("treat-injury", patient="a", injury=disfigured["id"], method="healing", spell_level=9)
    g.act("treat-injury", patient="a", injury=disfigured["id"], method="regeneration")
    assert [r["row"] for r in injuries(g, "a")] == ["D-TAB-09"]


@pytest.mark.parametrize("damage_type", ["slashing", "bludgeoning", "radiant", "thunder", "acid"])
def test_any_heavy_head_injury_disfigures(damage_type: str) -> None:
    g = game()
    cc10(g)
    injure(g, "head", damage_type, 20)
    assert injuries(g, "a")[-1]["row"] == "D-DISF-01"  # D-DISF-01: any heavy head injury


@pytest.mark.parametrize(("location", "damage"), [("head", 10), ("arms", 20), ("torso", 20)])
def test_only_a_heavy_head_injury_disfigures(location: str, damage: int) -> None:
    g = game()
    cc10(g)
    injure(g, location, "slashing", damage)
    assert "D-DISF-01" not in [r["row"] for r in injuries(g, "a")]  # D-DISF-01


def test_an_exchanged_head_injury_softened_to_medium_does_not_disfigure(g: Game) -> None:
    g.act("take-damage", character="a", damage=38, damage_type="slashing", critical=True)
    g.act("equal-exchange", character="a", location="head")
    g.act("roll-injury", character="a")
    assert [r["row"] for r in injuries(g, "a")] == ["D-TAB-02"]  # D-DISF-01, D-DEF-03


# --- E-D-11: torso rows at combat caution 12 ------------------------------------------------


def test_e_d_11_torso_rows_at_combat_caution_12() -> None:
    g = game()
    pc(g, "a", con=10, proficiency=2, level=1, hp=60)  # CC 12
    bruise = injure(g, "torso", "bludgeoning", 5)
    assert bruise["row"] == "D-TAB-46"  # light: disadvantage on Constitution, 1d8 days
    assert bruise["effects"][0]["target"] == "constitution"
    days = datetime.fromisoformat(bruise["natural_at"]) - g.ch("a").conditions[0].started
    assert timedelta(days=1) <= days <= timedelta(days=8)  # A-D-19: rolled and stored
    ribs = injure(g, "torso", "bludgeoning", 12)
    assert ribs["row"] == "D-TAB-47"  # medium: disadvantage on Strength and Dexterity
    assert [e["target"] for e in ribs["effects"]] == ["strength", "dexterity"]
    assert datetime.fromisoformat(ribs["natural_at"]) - g.ch("a").conditions[1].started == (
        timedelta(days=7)
    )
    organ = injure(g, "torso", "bludgeoning", 24)
    assert organ["row"] == "D-TAB-48" and g.ch("a").hits_max == 5  # heavy: max HP = 5
    assert g.replayed() == g.state
