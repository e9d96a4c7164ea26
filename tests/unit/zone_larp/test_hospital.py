"""The Hospital / мертвяк: arrival, examination, stay, payment, clinical death.
Checklist-001 Z-REHAB, Z-HOSP, Z-CD; A-Z-16 .. A-Z-20, A-Z-31, A-Z-32."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import Conflict, RuleViolation
from tests.game import Game, t
from tests.unit.zone_larp.conftest import (
    ask,
    card,
    event,
    may,
    params,
    state_of,
    to_hospital,
    why,
    zone_game,
)


def stay(g: Game, cid: str) -> dict[str, object]:
    cond = g.ch(cid).condition("in_hospital")
    assert cond is not None
    return cond.data


def test_rehabilitation_takes_place_in_the_hospital(g: Game) -> None:
    to_hospital(g, "C", "13:00")
    assert state_of(g, "C") == "in_hospital"  # Z-REHAB-01
    assert ask(g, "hospital-board")["patients"][0]["character"] == "C"


def test_the_hospital_is_a_game_technical_space_with_one_name_for_four(g: Game) -> None:
    g.act("strike", at="13:00", character="C", weapon="red_ribbon")
    evs = g.act("arrive-hospital", at="13:05", patient="C")
    rules = event(evs, "hospital.arrived").rule_ids
    assert "Z-HOSP-01" in rules and "A-Z-32" in rules  # Z-HOSP-01; A-Z-32: one place
    with pytest.raises(RuleViolation) as err:
        g.act("strike", at="13:06", character="C")
    assert "Z-HOSP-01" in err.value.rule_ids  # no game there


def test_patients_follow_staff_instructions(g: Game) -> None:
    to_hospital(g, "C", "13:00")
    g.act("examine", at="13:06", patient="C", prescriptions=["lie on bed 2"])
    evs = g.act("instruct", at="13:07", patient="C", staff="medic", instruction="drink water")
    assert "Z-REHAB-02" in event(evs, "hospital.instructed").rule_ids  # Z-REHAB-02
    assert "Z-HOSP-03" in event(evs, "hospital.instructed").rule_ids  # Z-HOSP-03
    assert stay(g, "C")["prescriptions"] == ["lie on bed 2", "drink water"]  # Z-REHAB-06
    assert "Z-REHAB-02" in [p["rule"] for p in card(g, "C")["props"]]


def test_a_patient_misses_combat_and_uses_no_game_weapons(g: Game) -> None:
    to_hospital(g, "C", "13:00")
    assert not may(g, "C", "melee") and not may(g, "C", "shoot")  # Z-REHAB-09
    assert "Z-REHAB-09" in why(g, "C", "shoot")
    assert "Z-REHAB-03" in why(g, "C", "run")  # Z-REHAB-03: misses the fighting


def test_the_administrator_logs_the_arrival_time(g: Game) -> None:
    g.act("strike", at="13:00", character="C", weapon="red_ribbon")
    with pytest.raises(RuleViolation) as err:
        g.act("arrive-hospital", at="13:12", patient="C", staff="medic")
    assert "Z-REHAB-04" in err.value.rule_ids  # the administrator, not a medic
    evs = g.act("arrive-hospital", at="13:12", patient="C", staff="administrator")
    assert "Z-REHAB-04" in event(evs, "hospital.arrived").rule_ids
    assert stay(g, "C")["arrived"] == t("13:12").isoformat()  # Z-REHAB-04


def test_the_chief_doctor_examines_from_the_sheet(g: Game) -> None:
    to_hospital(g, "C", "13:00", zone="left_arm")
    with pytest.raises(RuleViolation) as err:
        g.act("examine", at="13:06", patient="C", staff="medic")
    assert "Z-REHAB-05" in err.value.rule_ids  # Z-REHAB-05: the Chief Doctor
    with pytest.raises(RuleViolation) as sheet:
        g.act("examine", at="13:06", patient="C", charsheet=False)
    assert "Z-HOSP-04" in sheet.value.rule_ids  # Z-HOSP-04: from the character sheet
    evs = g.act("examine", at="13:06", patient="C")
    examined = event(evs, "hospital.examined")
    assert {"Z-REHAB-05", "Z-HOSP-04", "Z-REHAB-13"} <= set(examined.rule_ids)
    assert examined.payload["minutes"] == 10  # Z-REHAB-13: from the left arm on the sheet
    with pytest.raises(Conflict):
        g.act("examine", at="13:07", patient="C")


def test_the_examination_gives_instructions_the_patient_must_follow(g: Game) -> None:
    to_hospital(g, "C", "13:00")
    evs = g.act("examine", at="13:06", patient="C", prescriptions=["no talking"])
    assert "Z-REHAB-06" in event(evs, "hospital.examined").rule_ids  # Z-REHAB-06
    assert stay(g, "C")["prescriptions"] == ["no talking"]


def test_the_player_stays_in_the_game_suspended(g: Game) -> None:
    to_hospital(g, "C", "13:00")
    c = g.ch("C")
    assert c.alive and not c.has("excluded")  # Z-REHAB-07, A-Z-17: not removed
    assert may(g, "C", "comment_ooc") and not may(g, "C", "melee")  # A-Z-17: suspended


def test_a_patient_may_not_share_the_last_half_hour(g: Game) -> None:
    to_hospital(g, "C", "13:00")
    assert not ask(g, "memory", character="C", at="2026-06-13T12:40:00")["remembers"]
    rules = [p["rule"] for p in card(g, "C")["props"]]
    assert "Z-REHAB-08" in rules  # Z-REHAB-08: not shared during rehabilitation


def test_patients_may_comment_out_of_game_but_not_interact_in_game(g: Game) -> None:
    to_hospital(g, ["C", "D"], "13:00")
    evs = g.act("interact", at="13:06", actor="C", target="D", mode="ooc")
    assert "Z-REHAB-10" in event(evs, "interaction.recorded").rule_ids  # Z-REHAB-10
    with pytest.raises(RuleViolation) as err:
        g.act("interact", at="13:06", actor="E", target="C")
    assert "Z-HOSP-02" in err.value.rule_ids  # Z-HOSP-02: no other interaction there


def test_no_out_of_game_chat_in_the_hospital_is_a_parameter() -> None:
    g = zone_game({"patients_may_chat_ooc": False})  # A-Z-16 alternative
    to_hospital(g, "C", "13:00")
    with pytest.raises(RuleViolation) as err:
        g.act("interact", at="13:06", actor="C", target="D", mode="ooc")
    assert "A-Z-16" in err.value.rule_ids


def test_only_the_chief_doctor_as_staff_is_a_parameter() -> None:
    g = zone_game({"hospital_staff_roles": ["chief_doctor"]})  # A-Z-16: L72-L73 alone
    g.act("strike", at="13:00", character="C", weapon="red_ribbon")
    g.act("arrive-hospital", at="13:05", patient="C", staff="chief_doctor")
    with pytest.raises(RuleViolation) as err:
        g.act("instruct", at="13:06", patient="C", staff="medic", instruction="x")
    assert "Z-HOSP-02" in err.value.rule_ids


def test_payment_is_due_at_release_by_insurance_money_or_work(g: Game) -> None:
    g.act("issue-charsheet", character="C", insurance=True)
    to_hospital(g, ["C", "D", "E"], "13:00", zone="left_arm")
    for cid in ("C", "D", "E"):
        g.act("examine", at="13:06", patient=cid)
    with pytest.raises(RuleViolation) as early:
        g.act("discharge", at="13:14", patient="C", payment="insurance")
    assert "Z-HOSP-05" in early.value.rule_ids  # the stay is not over
    g.advance("13:15")
    with pytest.raises(RuleViolation) as uninsured:
        g.act("discharge", at="13:15", patient="D", payment="insurance")
    assert "Z-REHAB-11" in uninsured.value.rule_ids  # no insurance on D's sheet
    for cid, how in (("C", "insurance"), ("D", "money"), ("E", "work")):
        evs = g.act("discharge", at="13:15", patient=cid, payment=how)
        assert "Z-REHAB-11" in event(evs, "hospital.discharged").rule_ids  # Z-REHAB-11
        assert state_of(g, cid) == "healthy"


def test_a_price_and_the_accepted_methods_are_parameters() -> None:
    g = zone_game({"rehab_price": 50, "rehab_payment_methods": ["money"]})  # A-Z-18
    to_hospital(g, "C", "13:00")
    g.act("examine", at="13:06", patient="C")
    g.advance("13:15")
    with pytest.raises(RuleViolation):
        g.act("discharge", patient="C", payment="work")
    with pytest.raises(RuleViolation) as cheap:
        g.act("discharge", patient="C", payment="money", amount=20)
    assert "A-Z-18" in cheap.value.rule_ids
    g.act("discharge", patient="C", payment="money", amount=50)


def test_the_stay_depends_on_zones_infections_and_implants(g: Game) -> None:
    g.act("mark-zone", character="C", zone="head", state="damaged")
    g.act("expose-infection", character="C", infection="V1", source="rusty can")
    base = ask(g, "rehab-time", character="C")
    assert base["minutes"] == 10 and "Z-REHAB-12" in base["rule_ids"]  # Z-REHAB-12
    g.act("strike", at="13:00", character="C", weapon="red_ribbon")
    g.act("arrive-hospital", at="13:05", patient="C")
    g.act("examine", at="13:06", patient="C", identify_infections=True)
    assert stay(g, "C")["minutes"] == 20  # Z-REHAB-12: the infection doubles it
    g.act("install-implant", character="D", name="torso_regenerator")
    g.act("mark-zone", character="D", zone="torso", state="damaged")
    assert ask(g, "rehab-time", character="D")["minutes"] == 5  # Z-REHAB-12: implants


def test_the_stay_counts_from_the_arrival(g: Game) -> None:
    to_hospital(g, "C", "13:00", zone="left_arm")
    g.act("examine", at="13:20", patient="C")
    assert stay(g, "C")["release_at"] == t("13:15").isoformat()  # A-Z-31
    g.advance("13:20")
    assert stay(g, "C")["done"]  # due at once


def test_counting_from_the_examination_is_a_parameter() -> None:
    g = zone_game({"rehab_clock_start": "examination"})  # A-Z-31 alternative
    to_hospital(g, "C", "13:00", zone="left_arm")
    g.act("examine", at="13:20", patient="C")
    assert stay(g, "C")["release_at"] == t("13:30").isoformat()


def test_the_chief_doctor_calls_to_rehabilitation_or_reanimation(g: Game) -> None:
    g.act("kill", at="13:00", character="D")
    to_hospital(g, "C", "13:00")
    g.act("arrive-hospital", at="13:05", patient="D")
    g.act("examine", at="13:06", patient="C")
    evs = g.act("examine", at="13:06", patient="D")
    assert "Z-HOSP-05" in event(evs, "hospital.examined").rule_ids
    assert stay(g, "C")["decision"] == "rehabilitation"  # Z-HOSP-05: removal for a period
    assert stay(g, "D")["decision"] == "reanimation"  # Z-HOSP-05: reanimation


def test_game_death_is_clinical_death_and_then_reanimation(g: Game) -> None:
    evs = g.act("kill", at="17:00", character="C", cause="shot in the back")
    assert "Z-CD-02" in event(evs, "character.clinical_death").rule_ids  # Z-CD-02
    assert state_of(g, "C") == "clinical_death" and g.ch("C").alive
    evs = g.act("arrive-hospital", at="17:00", patient="C")
    assert "Z-CD-01" in event(evs, "hospital.arrived").rule_ids  # Z-CD-01
    g.act("examine", at="17:01", patient="C")
    g.advance("17:10")
    g.act("discharge", at="17:10", patient="C", payment="work")
    assert state_of(g, "C") == "healthy"  # Z-CD-01: reanimated in the Hospital


def test_by_default_the_same_character_is_reanimated(g: Game) -> None:
    g.act("inflict-trauma", character="C", type="mental", source="monster")
    g.act("kill", at="17:00", character="C")
    g.act("arrive-hospital", at="17:00", patient="C")
    g.act("examine", at="17:01", patient="C")
    rolled = stay(g, "C")["rolled"][0]["zone"]
    g.advance("17:10")
    g.act("discharge", at="17:10", patient="C", payment="work")
    c = g.ch("C")
    # A-Z-19: same character, states reset except the zone the Chief Doctor set
    assert c.hits == 2 and c.zones[rolled] == "damaged"
    assert [x.kind for x in c.conditions] == ["trauma"]  # Z-CD-03 default: no replacement


def test_replacing_the_character_is_a_parameter() -> None:
    g = zone_game({"clinical_death_replaces_character": True})  # Z-CD-03, A-Z-19
    g.act("inflict-trauma", character="C", type="mental", source="monster")
    g.act("kill", at="17:00", character="C")
    g.act("arrive-hospital", at="17:00", patient="C")
    g.act("examine", at="17:01", patient="C")
    g.advance("17:10")
    evs = g.act("discharge", at="17:10", patient="C", payment="work")
    assert "Z-CD-03" in event(evs, "hospital.discharged").rule_ids
    c = g.ch("C")
    assert c.conditions == [] and set(c.zones.values()) == {"intact"}  # Z-CD-03: all states
    assert "memory_gaps" not in c.data and c.data["replaced"] == 1


def test_reanimation_needs_the_character_sheet(g: Game) -> None:
    g.act("kill", at="17:00", character="C")
    assert "Z-CD-04" in [p["rule"] for p in card(g, "C")["props"]]
    g.act("arrive-hospital", at="17:00", patient="C")
    with pytest.raises(RuleViolation) as err:
        g.act("examine", at="17:01", patient="C", charsheet=False)
    assert "Z-CD-04" in err.value.rule_ids  # Z-CD-04


def test_the_chief_doctor_sets_the_stay_and_the_decline_from_the_sheet(g: Game) -> None:
    g.act("kill", at="17:00", character="C")
    g.act("arrive-hospital", at="17:00", patient="C")
    evs = g.act("examine", at="17:01", patient="C", zones=[{"zone": "head", "state": "infected"}])
    examined = event(evs, "hospital.examined")
    assert "Z-CD-05" in examined.rule_ids  # Z-CD-05
    assert g.ch("C").zones["head"] == "infected"  # a decline caused by play
    assert examined.payload["minutes"] >= 20


def test_a_death_from_wounds_rolls_a_d6_for_the_damaged_zone(g: Game) -> None:
    g.act("kill", at="17:00", character="C")
    g.act("arrive-hospital", at="17:00", patient="C")
    evs = g.act("examine", at="17:01", patient="C")
    examined = event(evs, "hospital.examined")
    assert "Z-CD-06" in examined.rule_ids and "A-Z-20" in examined.rule_ids  # Z-CD-06
    roll = examined.dice[0]
    assert roll["expression"] == "1d6"  # A-Z-20: one d6
    zone = params(g).zone_die_map[roll["total"]]
    assert examined.payload["rolled"] == [{"roll": roll["total"], "zone": zone}]
    assert g.ch("C").zones[zone] == "damaged"
    assert g.replayed() == g.state


def test_a_death_without_wounds_rolls_nothing(g: Game) -> None:
    g.act("kill", at="17:00", character="C", wounds=False)
    g.act("arrive-hospital", at="17:00", patient="C")
    evs = g.act("examine", at="17:01", patient="C")
    assert event(evs, "hospital.examined").dice == ()  # Z-CD-06: only if wounds
    assert event(evs, "hospital.examined").payload["minutes"] == 5


def test_the_zone_die_and_its_rolls_are_parameters() -> None:
    g = zone_game({"zone_rolls": 2})  # A-Z-20
    g.act("kill", at="17:00", character="C")
    g.act("arrive-hospital", at="17:00", patient="C")
    evs = g.act("examine", at="17:01", patient="C")
    assert len(event(evs, "hospital.examined").dice) == 2
