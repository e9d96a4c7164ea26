"""Calm points and stress (checklist-004 §2.9)."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import RuleViolation
from lazaretto.rulesets.ide4_survival.params import IdeParams
from tests.unit.ide4_survival.conftest import Ide


def calm(g: Ide, cid: str = "a") -> int:
    return g.sv(cid).calm


def test_every_character_starts_with_three_calm_points_and_they_cannot_be_switched_off(
    q: Ide,
) -> None:
    q.add("c", "Vera")
    assert calm(q, "c") == 3 and q.card("c")["calm"] == 3  # I-CALM-01
    assert not [f for f in IdeParams.model_fields if "calm" in f and "enabled" in f]  # I-CALM-01


def test_at_most_two_points_are_lost_in_one_turn(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["monster", "ill_wishers"], turn="t1")
    assert calm(q) == 1  # I-CALM-02: −3 in one turn → −2
    q.do("calm-event", at="08:00", characters=["a"], events=["oppressive"], turn="t1")
    assert calm(q) == 1  # I-CALM-02: the turn's cap is spent
    q.do("calm-event", at="08:01", characters=["a"], events=["oppressive"], turn="t2")
    assert calm(q) == 0  # I-CALM-02: a new turn


def test_at_most_one_point_is_regained_at_the_end_of_a_turn(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["monster"], turn="t1")
    q.do("calm-recover", at="08:01", characters=["a"], reason="turn_end", points=2, turn="t1")
    assert calm(q) == 2  # I-CALM-03: +1 at most
    q.do("calm-recover", at="08:01", characters=["a"], reason="turn_end", points=1, turn="t1")
    assert calm(q) == 2  # I-CALM-03: once per turn


def test_each_loss_event_counts_once(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["ill_wishers", "ill_wishers"])
    assert calm(q) == 2  # I-CALM-04
    q.do("calm-event", at="08:10", characters=["a"], events=["ill_wishers"], scene="inn")
    q.do("calm-event", at="08:20", characters=["a"], events=["ill_wishers"], scene="inn")
    assert calm(q) == 1  # I-CALM-04: the same event in one scene counts once


@pytest.mark.parametrize(
    ("event", "loss", "rule"),
    [
        ("ill_wishers", 1, "I-CALM-05"),
        ("fight_breaks_out", 1, "I-CALM-06"),
        ("outnumbered", 1, "I-CALM-07"),
        ("oppressive", 1, "I-CALM-08"),
        ("monster", 2, "I-CALM-09"),
        ("ambush", 2, "I-CALM-10"),
        ("interrupted_sleep", 2, "I-CALM-11"),
        ("faramir_check", 2, "I-CALM-12"),
    ],
)
def test_each_stress_event_costs_its_points(q: Ide, event: str, loss: int, rule: str) -> None:
    evs = q.do("calm-event", at="08:00", characters=["a"], events=[event])
    changed = next(e for e in evs if e.kind == "calm.changed")
    assert calm(q) == 3 - loss and rule in changed.rule_ids  # I-CALM-05..12 (per row)


def test_the_listed_events_are_the_rules_rows() -> None:
    p = Ide().rs.params
    assert p.calm_events == {  # type: ignore[attr-defined]
        "ill_wishers": -1,  # I-CALM-05
        "fight_breaks_out": -1,  # I-CALM-06
        "outnumbered": -1,  # I-CALM-07
        "oppressive": -1,  # I-CALM-08
        "monster": -2,  # I-CALM-09
        "ambush": -2,  # I-CALM-10
        "interrupted_sleep": -2,  # I-CALM-11
        "faramir_check": -2,  # I-CALM-12
    }


def test_interrupted_sleep_costs_two_calm_points(q: Ide) -> None:
    q.do("make-camp", at="22:00", characters=["a"], camp="normal")
    q.do("plan-sleep", at="22:00", characters=["a"], rolled=[9, 1, 1])
    q.do("go-to-sleep", at="22:00", characters=["a"], hours=9)
    q.do("interrupt-sleep", at="2/01:00", characters=["a"], rolled=[3, 1])
    assert calm(q) == 1  # I-CALM-11


def test_each_recovery_counts_once(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["monster"])
    q.do("rest", at="10:00", characters=["a"], hours=2, quiet=True)
    assert calm(q) == 1
    q.do("rest", at="11:00", characters=["a"], hours=1, quiet=True)
    assert calm(q) == 2  # I-CALM-13: the 3 quiet hours give +1 once
    q.do("rest", at="12:00", characters=["a"], hours=1, quiet=True)
    assert calm(q) == 2  # I-CALM-13: the same hours are not counted again


def test_a_successful_courage_check_keeps_the_points(q: Ide) -> None:
    q.do(
        "calm-event",
        at="08:00",
        characters=["a"],
        events=["monster"],
        courage=[{"character": "a", "against": "monster", "outcome": "success"}],
    )
    assert calm(q) == 3  # I-CALM-14
    q.do(
        "calm-event",
        at="08:10",
        characters=["b"],
        events=["monster"],
        courage=[{"character": "b", "against": "monster", "outcome": "failure"}],
    )
    assert calm(q, "b") == 1  # I-CALM-14: only a successful one
    assert q.last_check("b").skill == "Courage"


def test_three_quiet_hours_without_checks_give_one_point(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a", "b"], events=["monster"])
    q.do("calm-recover", at="11:00", characters=["a"], reason="quiet_hours", hours=3)
    assert calm(q) == 2  # I-CALM-15
    q.do("d100-check", at="12:00", character="b", skill="Attention", outcome="success")
    with pytest.raises(RuleViolation) as err:
        q.do("calm-recover", at="14:00", characters=["b"], reason="quiet_hours", hours=3)
    assert "I-CALM-15" in err.value.rule_ids  # I-CALM-15: not if checks were made


def test_eight_hours_of_sleep_restore_calm_to_the_maximum(q: Ide) -> None:
    q.do("calm-event", at="20:00", characters=["a", "b"], events=["monster"])
    for cid, die in (("a", 8), ("b", 7)):
        q.do("make-camp", at="22:00", characters=[cid], camp="bad")
        q.do("plan-sleep", at="22:00", characters=[cid], rolled=[die, 1, 1])
        q.do("go-to-sleep", at="22:00", characters=[cid], hours=die)
    q.to("2/08:00")
    assert calm(q, "a") == 3  # I-CALM-16: ≥ 8 hours (even in a bad camp)
    assert calm(q, "b") == 1  # I-CALM-16: 7 hours are not enough


def test_medicine_and_alcohol_restore_calm_by_the_projects_rules(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["monster"])
    q.do("calm-recover", at="09:00", characters=["a"], reason="alcohol", points=2)
    assert calm(q) == 3  # I-CALM-17: the GM gives the project's amount


def test_the_pacified_reroll_once_a_game_day_refreshed_at_midnight(q: Ide) -> None:
    q.do("d100-check", at="09:00", character="a", skill="Attention", outcome="failure")
    q.do("use-reroll", at="09:01", character="a", kind="pacified", outcome="success")
    assert q.last_check("a").outcome == "success"  # I-CALM-18
    q.do("d100-check", at="10:00", character="a", skill="Attention", outcome="failure")
    with pytest.raises(RuleViolation) as err:
        q.do("use-reroll", at="10:01", character="a", kind="pacified", outcome="success")
    assert "I-CALM-18" in err.value.rule_ids  # I-CALM-18: once a game day
    q.do("d100-check", at="2/00:00", character="a", skill="Attention", outcome="failure")
    q.do("use-reroll", at="2/00:01", character="a", kind="pacified", outcome="success")
    assert q.last_check("a").outcome == "success"  # I-CALM-18: refreshed at 0:00


def test_the_pacified_reroll_only_at_three_points(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["oppressive"])
    q.do("d100-check", at="09:00", character="a", skill="Attention", outcome="failure")
    with pytest.raises(RuleViolation) as err:
        q.do("use-reroll", at="09:01", character="a", kind="pacified", outcome="success")
    assert "I-CALM-19" in err.value.rule_ids  # I-CALM-19


def test_two_points_give_one_adrenaline_d20(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["fight_breaks_out"])
    assert calm(q) == 2 and q.sv("a").adrenaline == 1  # I-CALM-20
    q.do("d100-check", at="08:01", character="a", skill="Melee", outcome="failure")
    q.do("spend-energy", at="08:02", character="a", adrenaline=1, outcome="success")
    assert q.sv("a").adrenaline == 0 and q.last_check("a").outcome == "success"  # I-CALM-20


def test_at_two_points_big_energy_dice_stay_off_sociality(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["fight_breaks_out"])
    q.do("d100-check", at="08:01", character="a", skill="Negotiations", outcome="failure")
    with pytest.raises(RuleViolation) as err:
        q.do("spend-energy", at="08:02", character="a", dice=1, die=8, outcome="success")
    assert "I-CALM-21" in err.value.rule_ids  # I-CALM-21
    q.do("spend-energy", at="08:02", character="a", dice=1, die=6, outcome="medium")
    assert q.last_check("a").outcome == "medium"  # I-CALM-21: a d6 is fine


def test_one_point_gives_two_adrenaline_d20(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["monster"])
    assert calm(q) == 1 and q.sv("a").adrenaline == 2  # I-CALM-22


def test_at_one_point_big_energy_dice_only_for_combat_and_listed_skills(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["monster"])
    q.do("d100-check", at="08:01", character="a", skill="Attention", outcome="failure")
    with pytest.raises(RuleViolation) as err:
        q.do("spend-energy", at="08:02", character="a", adrenaline=1, outcome="success")
    assert "I-CALM-23" in err.value.rule_ids  # I-CALM-23
    q.do("d100-check", at="08:03", character="a", skill="Courage", outcome="failure")
    q.do("spend-energy", at="08:04", character="a", adrenaline=1, outcome="success")  # listed
    q.do("d100-check", at="08:05", character="a", skill="Melee", outcome="failure")
    q.do("spend-energy", at="08:06", character="a", dice=1, die=10, outcome="success")  # combat
    assert q.last_check("a").outcome == "success"  # I-CALM-23


def test_casters_at_one_point_get_no_dice_but_their_spells_act_twice(q: Ide) -> None:
    q.do("survival-sheet", character="a", caster=True)
    q.do("calm-event", at="08:00", characters=["a"], events=["monster"])
    assert q.sv("a").adrenaline == 0  # I-CALM-24: no dice
    assert q.card("a")["spells_multiplier"] == 2  # I-CALM-24, A-I-16: spells ×2


def test_at_zero_points_a_tragedy_becomes_a_failure(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["monster"], turn="t1")
    q.do("calm-event", at="08:01", characters=["a"], events=["monster"], turn="t2")
    left = q.sv("a").replacements
    assert calm(q) == 0 and 2 <= left <= 5  # I-CALM-25: 1 + d4
    q.do("d100-check", at="08:02", character="a", skill="Melee", outcome="tragedy")
    q.do("replace-tragedy", at="08:03", character="a")
    assert q.last_check("a").outcome == "failure"  # I-CALM-25
    assert q.sv("a").replacements == left - 1  # I-CALM-25


def zero(q: Ide) -> None:
    q.do("calm-event", at="08:00", characters=["a"], events=["monster"], turn="t1")
    q.do("calm-event", at="08:01", characters=["a"], events=["monster"], turn="t2")


def test_the_replacement_comes_before_after_roll_energy(q: Ide) -> None:
    zero(q)
    q.do("d100-check", at="08:02", character="a", skill="Melee", outcome="tragedy")
    q.do("spend-energy", at="08:03", character="a", adrenaline=1, outcome="tragedy")
    with pytest.raises(RuleViolation) as err:
        q.do("replace-tragedy", at="08:04", character="a")
    assert "I-CALM-26" in err.value.rule_ids  # I-CALM-26


def test_after_the_replacement_three_energy_dice_may_raise_it(q: Ide) -> None:
    zero(q)
    q.do("d100-check", at="08:02", character="a", skill="Melee", outcome="tragedy")
    q.do("replace-tragedy", at="08:03", character="a")
    q.do("spend-energy", at="08:04", character="a", dice=3, die=6, outcome="success")
    assert q.last_check("a").outcome == "success"  # I-CALM-27: up to Medium/Success
    with pytest.raises(RuleViolation) as err:
        q.do("spend-energy", at="08:05", character="a", dice=1, die=6, outcome="success")
    assert "I-CALM-27" in err.value.rule_ids  # I-CALM-27: at most 3


def test_triumph_cannot_be_reached_with_energy(q: Ide) -> None:
    zero(q)
    q.do("d100-check", at="08:02", character="a", skill="Melee", outcome="tragedy")
    q.do("replace-tragedy", at="08:03", character="a")
    with pytest.raises(RuleViolation) as err:
        q.do("spend-energy", at="08:04", character="a", dice=2, die=6, outcome="triumph")
    assert "I-CALM-28" in err.value.rule_ids  # I-CALM-28


def test_only_one_tragedy_replacement_per_check(q: Ide) -> None:
    zero(q)
    q.do("intimate-act", at="08:02", character="a", partner="npc")  # a hot reroll to spend
    q.do("d100-check", at="08:03", character="a", skill="Melee", outcome="tragedy")
    q.do("replace-tragedy", at="08:04", character="a")
    rec = q.last_check("a")
    assert rec.replaced and rec.outcome == "failure"
    # a second Tragedy on the same check (through a reroll) cannot be replaced
    q.do("use-reroll", at="08:05", character="a", kind="hot", check=rec.id, outcome="tragedy")
    with pytest.raises(RuleViolation) as err:
        q.do("replace-tragedy", at="08:06", character="a", check=rec.id)
    assert "I-CALM-29" in err.value.rule_ids  # I-CALM-29


def test_an_hour_at_zero_costs_thirty_health_until_calm_is_three(q: Ide) -> None:
    zero(q)
    q.to("08:59")
    assert not q.has("a", "health_penalty")
    q.to("09:01")
    cond = q.ch("a").condition("health_penalty")
    assert cond is not None and cond.data["amount"] == -30  # I-CALM-30, A-I-15
    q.do("calm-recover", at="09:10", characters=["a"], reason="medicine", points=2)
    assert q.has("a", "health_penalty")  # I-CALM-30: until all three points are back
    q.do("calm-recover", at="09:20", characters=["a"], reason="medicine", points=1)
    assert not q.has("a", "health_penalty")  # I-CALM-30


def test_leaving_zero_within_the_hour_spares_the_penalty(q: Ide) -> None:
    zero(q)
    q.do("calm-recover", at="08:30", characters=["a"], reason="medicine", points=1)
    q.to("10:00")
    assert not q.has("a", "health_penalty")  # I-CALM-30, A-I-15: a continuous hour


def test_the_light_campaign_uses_four_named_stress_states() -> None:
    g = Ide(params={"mode": "simplified"})
    g.add("a")
    assert g.card("a")["stress"] == "calm"  # I-CALM-31
    g.do("set-stress", character="a", level="stressed")
    assert g.sv("a").calm == 1 and "stressed" in g.card("a")["state_label"]  # I-CALM-31
    assert g.sv("a").adrenaline == 2  # I-CALM-32: the adrenaline mechanics stay
    g.do("set-stress", character="a", level="on_the_edge")
    assert g.card("a")["stress"] == "on_the_edge"  # I-CALM-31, A-I-26
    with pytest.raises(RuleViolation) as err:
        Ide().do("set-stress", character="x", level="calm")
    assert "I-CALM-31" in err.value.rule_ids


def test_simplified_stress_may_drop_adrenaline_when_not_standard_ide4() -> None:
    g = Ide(params={"mode": "simplified", "simplified_keeps_adrenaline": False})
    g.add("a")
    g.do("set-stress", character="a", level="tense")
    assert g.sv("a").adrenaline == 0  # I-CALM-32: only a standard IDE4 group keeps it


def test_calm_loss_over_the_cap_can_carry_over() -> None:
    g = Ide(params={"meal_mode": "quick", "calm_loss_overflow": "carry_over"})
    g.add("a")
    g.do(
        "calm-event",
        at="08:00",
        characters=["a"],
        events=["fight_breaks_out", "outnumbered", "ambush"],
        turn="t1",
    )
    assert g.sv("a").calm == 1 and g.sv("a").carry == 2  # A-I-13 alternative
    g.do("calm-event", at="08:01", characters=["a"], events=["monster"], turn="t2")
    assert g.sv("a").calm == 0 and g.sv("a").carry == 2  # I-CALM-02 cap, A-I-13


def test_a_courage_check_already_used_cannot_be_rerolled_afterwards(q: Ide) -> None:
    q.do(
        "calm-event",
        at="08:00",
        characters=["a"],
        events=["monster"],
        courage=[{"character": "a", "against": "monster", "outcome": "failure"}],
    )
    with pytest.raises(RuleViolation) as err:
        q.do("use-reroll", at="08:01", character="a", kind="pacified", outcome="success")
    assert "A-I-01" in err.value.rule_ids  # I-CALM-14: reroll at the table, before entering it
