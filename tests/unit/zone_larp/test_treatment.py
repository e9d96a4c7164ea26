"""A healer's treatment and operations (лечение, операция): checklist-001 Z-TRT;
A-Z-13, A-Z-14."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import InvalidInput, RuleViolation
from tests.game import Game
from tests.unit.zone_larp.conftest import ask, card, event, params, state_of, zone_game


def test_bandage_broth_and_fifteen_minutes_restore_all_hits(g: Game) -> None:
    g.add("T", hits=3)
    g.act("strike", at="12:00", character="T")
    g.act("apply-kit", at="12:01", character="T")
    evs = g.act("treat-wounds", at="12:30", healer="H", patient="T", bandage=True, broth=True)
    assert {"Z-TRT-01", "Z-TRT-03"} <= set(event(evs, "treatment.started").rule_ids)
    assert g.ch("T").condition("treatment").deadline.isoformat().endswith("12:45:00")  # Z-TRT-04
    g.advance("12:44:59")
    assert g.ch("T").hits == 2  # Z-TRT-01: 15 minutes
    evs = g.advance("12:45")
    assert "Z-TRT-06" in event(evs, "character.recovered").rule_ids
    assert g.ch("T").hits == 3 and state_of(g, "T") == "healthy"  # Z-TRT-06


def test_lost_hits_do_not_come_back_without_medical_help(g: Game) -> None:
    g.act("strike", at="12:00", character="C")
    g.act("apply-kit", at="12:01", character="C")
    g.advance("20:00")
    assert g.ch("C").hits == 1  # Z-TRT-02: needs a medic
    with pytest.raises(RuleViolation) as err:
        g.act("treat-wounds", at="20:00", healer="H", patient="D")
    assert "Z-TRT-02" in err.value.rule_ids  # nothing lost, nothing to treat


@pytest.mark.parametrize("missing", ["bandage", "broth"])
def test_treatment_needs_both_the_bandage_and_the_broth(g: Game, missing: str) -> None:
    g.act("strike", at="12:00", character="C")
    with pytest.raises(RuleViolation) as err:
        g.act("treat-wounds", at="12:01", healer="H", patient="C", **{missing: False})
    assert err.value.rule_ids == ("Z-TRT-03",)  # Z-TRT-03


def test_only_a_healer_treats(g: Game) -> None:
    g.act("strike", at="12:00", character="C")
    with pytest.raises(RuleViolation) as err:
        g.act("treat-wounds", at="12:01", healer="D", patient="C")
    assert "Z-TRT-03" in err.value.rule_ids
    g2 = zone_game({"healer_skill": None})
    g2.act("strike", at="12:00", character="C")
    g2.act("treat-wounds", at="12:01", healer="D", patient="C")


def test_getting_up_during_the_rest_means_no_recovery(g: Game) -> None:
    g.act("strike", at="12:00", character="C")
    g.act("treat-wounds", at="12:05", healer="H", patient="C")
    assert card(g, "C")["posture"] == "lying"  # Z-TRT-04: preferably lying
    g.act("get-up", at="12:15", patient="C")
    g.advance("13:00")
    assert g.ch("C").hits == 1  # Z-TRT-04: the rest was not completed


def test_step_two_is_a_checklist_and_does_not_block_healing(g: Game) -> None:
    assert not params(g).heal_step2_required  # A-Z-13: L29 "рекомендуется"
    rules = [i.rule for i in params(g).props_checklists["treat-wounds"]]
    assert "Z-TRT-05" in rules  # Z-TRT-05: change the bandage, wipe the forehead (props)
    g.act("strike", at="12:00", character="C")
    g.act("treat-wounds", at="12:00", healer="H", patient="C")
    assert "Z-TRT-05" in [p["rule"] for p in card(g, "C")["props"]]
    g.advance("12:15")
    assert g.ch("C").hits == 2


def test_required_step_two_must_be_done_for_the_rest_to_heal() -> None:
    g = zone_game({"heal_step2_required": True})  # A-Z-13 alternative: L26 "требуется"
    g.act("strike", at="12:00", character="C")
    g.act("strike", at="12:00", character="D")
    g.act("treat-wounds", at="12:00", healer="H", patient="C")
    g.act("treat-wounds", at="12:00", healer="H2", patient="D")
    evs = g.act("care-for-patient", at="12:07", healer="H2", patient="D")
    assert "Z-TRT-05" in event(evs, "treatment.cared").rule_ids
    evs = g.advance("12:15")
    assert event(evs, "treatment.interrupted").payload["reason"] == "step2_missing"  # Z-TRT-05
    assert g.ch("C").hits == 1 and g.ch("D").hits == 2


def test_at_zero_hits_an_operation_is_needed_not_a_bandage(g: Game) -> None:
    g.act("strike", at="14:00", character="C", weapon="red_ribbon")
    with pytest.raises(RuleViolation) as err:
        g.act("treat-wounds", at="14:01", healer="H", patient="C")
    assert "Z-TRT-07" in err.value.rule_ids  # Z-TRT-07
    g.act("strike", at="14:01", character="D")
    with pytest.raises(RuleViolation) as light:
        g.act("start-operation", at="14:01", healer="H", patient="D", measure="ordinary")
    assert "Z-TRT-07" in light.value.rule_ids  # only at 0 hits


def test_the_healer_offers_ordinary_or_radical(g: Game) -> None:
    g.act("strike", at="14:00", character="C", weapon="red_ribbon")
    offered = ask(g, "operation-options", patient="C")
    assert offered["offered"] == ["ordinary", "radical"]  # Z-TRT-08
    with pytest.raises(InvalidInput):  # the choice must be made: no default measure
        g.act("start-operation", at="14:01", healer="H", patient="C")
    evs = g.act("start-operation", at="14:01", healer="H", patient="C", measure="ordinary")
    assert "Z-TRT-08" in event(evs, "operation.started").rule_ids


def test_the_radical_measure_gives_a_trauma_but_the_patient_lives() -> None:
    g = zone_game({"ordinary_operation_death_chance": 100})
    g.act("strike", at="14:00", character="C", weapon="red_ribbon")
    g.act("start-operation", at="14:01", healer="H", patient="C", measure="radical")
    evs = g.act("finish-operation", at="14:10", healer="H", patient="C", trauma_type="mental")
    assert event(evs, "operation.finished").payload["outcome"] == "survived"  # Z-TRT-09
    traumas = [c for c in g.ch("C").conditions if c.kind == "trauma"]
    assert [c.data["type"] for c in traumas] == ["mental"]  # Z-TRT-09: a trauma
    assert traumas[0].source == "radical_measure"  # Z-TRAUMA-03: from the radical measure


def test_after_the_operation_25_minutes_rest_and_broth_restore_the_patient(g: Game) -> None:
    g.act("strike", at="14:00", character="C", weapon="red_ribbon")
    g.act("start-operation", at="14:10", healer="H", patient="C", measure="ordinary")
    with pytest.raises(RuleViolation) as err:
        g.act("finish-operation", at="14:15", healer="H", patient="C", broth=False)
    assert err.value.rule_ids == ("Z-TRT-10",)  # Z-TRT-10: the broth
    g.act("finish-operation", at="14:15", healer="H", patient="C")
    g.advance("14:39:59")
    assert g.ch("C").hits == 0
    g.advance("14:40")
    assert g.ch("C").hits == 2 and state_of(g, "C") == "healthy"  # Z-TRT-10: 25 minutes


def test_leaving_the_post_operation_rest_is_a_heavy_wound_again(g: Game) -> None:
    g.act("strike", at="14:00", character="C", weapon="red_ribbon")
    g.act("start-operation", at="14:10", healer="H", patient="C", measure="ordinary")
    g.act("finish-operation", at="14:15", healer="H", patient="C")
    g.act("get-up", at="14:20", patient="C")
    assert state_of(g, "C") == "heavy_waiting"  # Z-TRT-10: no recovery without the rest


def test_the_ordinary_operation_always_succeeds_by_default(g: Game) -> None:
    assert params(g).ordinary_operation_death_chance == 0  # A-Z-14
    g.act("strike", at="14:00", character="C", weapon="red_ribbon")
    g.act("start-operation", at="14:01", healer="H", patient="C", measure="ordinary")
    evs = g.act("finish-operation", at="14:10", healer="H", patient="C")
    assert event(evs, "operation.finished").dice == ()  # no roll at all


def test_a_deadly_ordinary_operation_is_a_parameter_and_its_roll_is_recorded() -> None:
    g = zone_game({"ordinary_operation_death_chance": 100})  # A-Z-14 alternative
    g.act("strike", at="14:00", character="C", weapon="red_ribbon")
    g.act("start-operation", at="14:01", healer="H", patient="C", measure="ordinary")
    evs = g.act("finish-operation", at="14:10", healer="H", patient="C")
    finished = event(evs, "operation.finished")
    assert finished.payload["outcome"] == "died" and finished.dice[0]["expression"] == "1d100"
    assert state_of(g, "C") == "clinical_death"
    assert g.replayed() == g.state


def test_operations_only_in_the_hospital_is_a_parameter() -> None:
    g = zone_game({"operation_location": "hospital"})  # A-Z-14 alternative
    g.act("strike", at="14:00", character="C", weapon="red_ribbon")
    with pytest.raises(RuleViolation) as err:
        g.act("start-operation", at="14:01", healer="H", patient="C", measure="ordinary")
    assert "A-Z-14" in err.value.rule_ids
    g.act(
        "start-operation", at="14:01", healer="H", patient="C", measure="ordinary", place="hospital"
    )


def test_an_operation_stops_the_death_countdown(g: Game) -> None:
    g.act("strike", at="14:00", character="C", weapon="red_ribbon")
    g.act("start-operation", at="14:10", healer="H", patient="C", measure="ordinary")
    g.advance("14:20")
    assert state_of(g, "C") == "on_table"  # A-Z-07: operation_start stops it


def test_a_wounded_healer_cannot_treat(g: Game) -> None:
    g.act("strike", at="12:00", character="C")
    g.act("strike", at="12:00", character="H")
    with pytest.raises(RuleViolation) as err:
        g.act("treat-wounds", at="12:01", healer="H", patient="C")
    assert "Z-LW-08" in err.value.rule_ids  # a light-wounded healer uses no other items
