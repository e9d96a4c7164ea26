"""Worked examples 1-10 of checklist-001 §5, as scenarios on a manual clock."""

from __future__ import annotations

from typing import Any

import pytest

from lazaretto.core.errors import RuleViolation
from tests.game import Game, t
from tests.unit.zone_larp.conftest import ask, card, may, state_of, zone_game


def test_example_1_hit_removal(g: Game) -> None:
    g.act("strike", at="12:00", character="C", landed_on="shield")
    assert g.ch("C").hits == 2  # Z-HP-05
    g.act("strike", at="12:01", character="C", weapon="normal")
    assert g.ch("C").hits == 1 and state_of(g, "C") == "light"  # Z-HP-03, Z-STATE-06, Z-LW-03
    g.act("strike", at="12:02", character="D", weapon="red_ribbon")
    assert g.ch("D").hits == 0 and state_of(g, "D") == "heavy_waiting"  # Z-HP-04, Z-STATE-08


def light_at_noon() -> Game:
    g = zone_game()
    g.act("strike", at="12:00", character="C")
    return g


def test_example_2_a_light_wound_saved_by_a_kit_and_healed() -> None:
    g = light_at_noon()
    assert not may(g, "C", "walk") and may(g, "C", "melee") and may(g, "C", "radio")
    assert not may(g, "C", "other_items") and not may(g, "C", "suicide")  # Z-LW-04..09
    g.act("apply-kit", at="12:09", character="C")
    assert state_of(g, "C") == "light_kit" and may(g, "C", "melee")  # Z-LW-11/12
    assert not may(g, "C", "run")  # A-Z-05
    g.act("treat-wounds", at="12:30", healer="H", patient="C")  # Z-TRT-03/04
    g.advance("12:45")
    assert state_of(g, "C") == "healthy" and g.ch("C").hits == 2  # Z-TRT-06
    assert g.replayed() == g.state


def test_example_2_getting_up_at_1240_is_no_cure() -> None:
    g = light_at_noon()
    g.act("apply-kit", at="12:09", character="C")
    g.act("treat-wounds", at="12:30", healer="H", patient="C")
    g.act("get-up", at="12:40", patient="C")
    g.advance("12:50")
    assert g.ch("C").hits == 1


def test_example_3_no_kit_means_heavy_at_1210_and_a_kit_then_is_too_late() -> None:
    g = light_at_noon()
    g.advance("12:09:59")
    assert state_of(g, "C") == "light"
    with pytest.raises(RuleViolation):
        g.act("apply-kit", at="12:10:00", character="C")  # A-Z-06
    assert state_of(g, "C") == "heavy_waiting"  # Z-LW-13


def test_example_3_variant_a_second_hit_at_1205() -> None:
    g = light_at_noon()
    g.act("strike", at="12:05", character="C")
    assert state_of(g, "C") == "heavy_waiting"  # Z-LW-06
    assert g.ch("C").condition("heavy_wound").started == t("12:05")


def example_4(**params: Any) -> Game:
    g = zone_game(params or None)
    g.act("strike", at="13:00", character="E", weapon="red_ribbon", zone="left_arm")
    return g


def test_example_4_heavy_wound_to_hospital_release() -> None:
    g = example_4()
    assert not ask(g, "memory", character="E", at="2026-06-13T12:45:00")["remembers"]  # Z-HW-13
    assert not may(g, "E", "walk") and not may(g, "E", "speak")  # Z-HW-07/10, A-Z-09
    with pytest.raises(RuleViolation):
        g.act("arrive-hospital", at="13:04", patient="E")  # Z-HW-04, A-Z-07
    g.advance("13:05")
    assert card(g, "E")["armband"] and state_of(g, "E") == "heavy_en_route"  # A-Z-08
    g.act("arrive-hospital", at="13:12", patient="E")  # Z-REHAB-04
    g.act("examine", at="13:13", patient="E")
    assert g.ch("E").condition("in_hospital").deadline == t("13:22")  # Z-ZONE-07
    assert not may(g, "E", "melee")  # Z-REHAB-09
    with pytest.raises(RuleViolation) as err:
        g.act("interact", at="13:15", actor="C", target="E")
    assert "Z-HOSP-02" in err.value.rule_ids
    with pytest.raises(RuleViolation):
        g.act("discharge", at="13:21", patient="E", payment="money")
    g.act("discharge", at="13:22", patient="E", payment="money")  # Z-REHAB-11
    assert state_of(g, "E") == "healthy"
    assert g.replayed() == g.state


@pytest.mark.parametrize(
    ("mode", "minutes", "release"),
    [("sum_nonintact", 10, "13:22"), ("all_zones_L60", 70, "14:22"), ("additive_L77", 40, "13:52")],
)
def test_example_4_with_each_rehab_mode(mode: str, minutes: int, release: str) -> None:
    g = example_4(rehab_mode=mode)  # A-Z-11
    g.act("arrive-hospital", at="13:12", patient="E")
    g.act("examine", at="13:13", patient="E")
    stay = g.ch("E").condition("in_hospital")
    assert stay.data["minutes"] == minutes and stay.deadline == t(release)


def test_example_5_the_fifteen_minute_death_timer() -> None:
    g = zone_game()
    g.act("strike", at="14:00", character="C", weapon="red_ribbon")
    g.advance("14:14:59")
    assert state_of(g, "C") == "heavy_en_route"
    g.advance("14:15:00")
    assert state_of(g, "C") == "clinical_death"  # Z-STATE-10, Z-CD-02, A-Z-07


def test_example_5_variant_an_operation_at_1410_saves_the_character() -> None:
    g = zone_game()
    g.act("strike", at="14:00", character="C", weapon="red_ribbon")
    assert ask(g, "operation-options", patient="C")["offered"] == ["ordinary", "radical"]
    g.act("start-operation", at="14:10", healer="H", patient="C", measure="ordinary")  # Z-TRT-08
    g.act("finish-operation", at="14:15", healer="H", patient="C")
    g.advance("14:39")
    assert g.ch("C").hits == 0
    g.advance("14:40")
    assert state_of(g, "C") == "healthy" and g.ch("C").hits == 2  # Z-TRT-10


def test_example_6_radical_measure_and_the_trauma_cap() -> None:
    g = zone_game()
    for _ in range(3):
        g.act(
            "inflict-trauma",
            at="14:00",
            character="C",
            type="physical",
            source="monster",
        )
    g.act("strike", at="14:59", character="C", weapon="red_ribbon")
    g.act("start-operation", at="15:00", healer="H", patient="C", measure="radical")
    g.act("finish-operation", at="15:05", healer="H", patient="C")
    assert len([c for c in g.ch("C").conditions if c.kind == "trauma"]) == 4  # Z-TRT-09
    g.advance("15:30")
    g.act("strike", at="15:31", character="C", source="magic_weapon", trauma="mental")
    slots = [c.data["slot"] for c in g.ch("C").conditions if c.kind == "trauma"]
    assert slots == [1, 2, 3, 4, 5]  # Z-TRAUMA-03/04: the 5th field
    g.act("strike", at="15:32", character="C")
    assert ask(g, "operation-options", patient="C")["offered"] == ["ordinary"]  # A-Z-15
    g.act(
        "identify-trauma",
        at="15:33",
        healer="H2",
        patient="C",
        slot=1,
        type="physical",
        consequences="limp",
        curable=False,
    )
    g.act("treat-trauma", at="15:34", healer="H2", patient="C", slot=1, minutes=10)
    g.advance("16:00")
    slots = [c.data["slot"] for c in g.ch("C").conditions if c.kind == "trauma"]
    assert slots == [1, 2, 3, 4, 5]  # Z-TRAUMA-02 untreated stay; Z-TRAUMA-07 incurable stays


def example_7(identify: bool = True, zones: tuple[str, ...] = ("head", "left_arm")) -> Game:
    g = zone_game()
    g.act("expose-infection", at="15:00", character="C", infection="V1", source="a canister")
    for zone in zones:
        g.act("mark-zone", at="15:30", character="C", zone=zone, state="damaged")
    g.act("kill", at="15:55", character="C", wounds=False)
    g.act("arrive-hospital", at="16:00", patient="C")
    g.act("examine", at="16:01", patient="C", identify_infections=identify)
    return g


@pytest.mark.parametrize(
    ("identify", "zones", "release"),
    [
        (True, ("head", "left_arm"), "16:40"),  # (10 + 10) x 2, Z-INF-05, A-Z-12
        (False, ("head", "left_arm"), "16:20"),  # not identified: no effect
        (True, (), "16:10"),  # 5 x 2, the A-Z-11 floor doubled
    ],
)
def test_example_7_infection_doubling(identify: bool, zones: tuple[str, ...], release: str) -> None:
    g = example_7(identify, zones)
    assert g.ch("C").condition("in_hospital").deadline == t(release)  # Z-ZONE-08


def test_example_8_clinical_death_and_the_zone_die() -> None:
    g = zone_game()
    g.act("kill", at="17:00", character="C")  # Z-CD-01/02
    g.act("arrive-hospital", at="17:00", patient="C")
    g.act("examine", at="17:00", patient="C")  # Z-CD-04: sheet handed over
    stay = g.ch("C").condition("in_hospital")
    zone = stay.data["rolled"][0]["zone"]  # Z-CD-06, A-Z-20
    assert g.ch("C").zones[zone] == "damaged" and stay.deadline == t("17:10")
    assert not ask(g, "memory", character="C", at="2026-06-13T16:45:00")["remembers"]  # A-Z-10
    g.advance("17:10")
    g.act("discharge", at="17:10", patient="C", payment="work")
    assert state_of(g, "C") == "healthy"  # A-Z-19: the same character


def test_example_8_variant_a_torso_implant_saves_five_minutes() -> None:
    g = zone_game()
    g.act("install-implant", at="16:00", character="C", name="torso_regenerator")
    g.act("kill", at="17:00", character="C", wounds=False)
    g.act("arrive-hospital", at="17:00", patient="C")
    g.act("examine", at="17:00", patient="C", zones=[{"zone": "torso", "state": "damaged"}])
    assert g.ch("C").condition("in_hospital").deadline == t("17:05")  # Z-IMPL-01/03, A-Z-28
    g.act("kill", at="17:00", character="D", wounds=False)
    g.act("arrive-hospital", at="17:00", patient="D")
    g.act("examine", at="17:00", patient="D", zones=[{"zone": "torso", "state": "damaged"}])
    assert g.ch("D").condition("in_hospital").deadline == t("17:10")  # Z-IMPL-04


def test_example_9_knockdown_unconsciousness_and_psychosis() -> None:
    g = zone_game()
    g.act("stun", at="18:00:00", character="C")
    assert not may(g, "C", "stand_up")  # Z-STATE-13/14
    g.advance("18:00:15")
    assert may(g, "C", "stand_up")
    g.act("knock-out", at="18:05:00", character="C")
    assert not ask(g, "memory", character="C", at="2026-06-13T18:05:30")["remembers"]
    g.advance("18:06:00")
    assert not g.ch("C").has("unconscious")  # Z-STATE-11/12
    g.act("sudden-state", at="18:07", character="C", description="psychosis")
    assert g.ch("C").has("sudden_state")  # Z-SUD-02


def test_example_10_exclusion() -> None:
    g = zone_game()
    g.advance("19:00")  # a refused action records nothing, not even the clock moving
    with pytest.raises(RuleViolation) as foul:
        g.act("strike", at="19:00", character="D", zone="neck")
    assert "Z-CMB-02" in foul.value.rule_ids
    g.act("exclude", at="19:00", character="C", reason="deliberate strike at the neck")
    assert not g.ch("C").alive  # Z-DISC-01/03
    with pytest.raises(RuleViolation):
        g.act("appeal-exclusion", at="19:00", character="C")  # Z-DISC-02
    with pytest.raises(RuleViolation):
        g.act("issue-charsheet", at="19:00", character="C")  # cannot rejoin
    assert g.replayed() == g.state
