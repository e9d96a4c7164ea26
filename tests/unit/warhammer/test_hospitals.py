"""Hospitals and the hospital journal (checklist-000 §3.4–§3.6)."""

from __future__ import annotations

from typing import Any

import pytest

from lazaretto.core.errors import RuleViolation
from tests.game import Game
from tests.unit.warhammer.conftest import BEDS


def register(g: Game, **kw: Any) -> None:
    spec: dict[str, Any] = {
        "id": "h2",
        "name": "Shallya",
        "number": "12",
        "tables": [{"id": "t1"}],
        "beds": BEDS[:2],
    }
    spec.update(kw)
    g.act("register-hospital", **spec)


def test_a_chipped_hospital_gets_its_number_and_a_journal(g: Game) -> None:
    register(g)
    h = g.state.hospitals["h2"]
    assert h.number == "12"  # W-HOSP-18: number issued at chipping
    assert "main" in h.journals  # W-HOSP-01: every hospital has a journal
    # W-DEF-16: a hospital is equipped with an operating table and beds
    assert h.tables and h.beds


def test_a_hospital_needs_a_table_and_two_beds(g: Game) -> None:
    with pytest.raises(RuleViolation) as err:
        register(g, beds=BEDS[:1])
    assert "W-HOSP-03" in err.value.rule_ids  # W-HOSP-03
    with pytest.raises(RuleViolation) as err:
        register(g, tables=[])
    assert "W-HOSP-03" in err.value.rule_ids


def test_a_hospital_needs_storage_and_blankets(g: Game) -> None:
    with pytest.raises(RuleViolation) as err:
        register(g, storage=False)
    assert err.value.rule_ids == ("W-HOSP-02",)  # W-HOSP-02
    with pytest.raises(RuleViolation) as err:
        register(g, blankets=False)
    assert err.value.rule_ids == ("W-HOSP-17",)  # W-HOSP-17


def test_operating_tables_and_beds_are_measured(g: Game) -> None:
    with pytest.raises(RuleViolation) as err:
        register(g, tables=[{"id": "t1", "length_m": 1.8}])
    assert "W-HOSP-12" in err.value.rule_ids  # W-HOSP-12: at least 2×1 m
    with pytest.raises(RuleViolation):
        register(g, tables=[{"id": "t1", "height_m": 0.7}])  # A-W-13: 1 m, tolerance 0.1
    register(g, tables=[{"id": "t1", "height_m": 0.95}])
    with pytest.raises(RuleViolation) as err:
        register(g, id="h3", number="13", beds=[{"id": "b1"}, {"id": "b2", "height_cm": 5}])
    assert err.value.rule_ids == ("W-HOSP-15",)  # W-HOSP-15: 10 cm off the ground
    register(
        g, id="h4", number="14", beds=[{"id": "b1"}, {"id": "g", "height_cm": 0, "on_ground": True}]
    )  # W-HOSP-16


def test_one_patient_per_operating_table(g: Game) -> None:
    g.add("E", hits=3)
    for cid in ("C", "E"):
        g.act("lose-hits", at="12:00", character=cid, hits=3)
        g.act("apply-bandage", healer="H", patient=cid, bandages=3, place="h1")
    g.act("start-operation", healer="H", patient="C", hospital="h1", table="t1")
    with pytest.raises(RuleViolation) as err:
        g.act("start-operation", healer="H2", patient="E", hospital="h1", table="t1")
    assert "W-HOSP-13" in err.value.rule_ids  # W-HOSP-13


def test_ground_beds_do_not_count_in_the_rain(g: Game) -> None:
    g.add("E", hits=3)
    g.act("lose-hits", at="12:00", character="C", hits=1)
    g.act("lose-hits", at="12:00", character="E", hits=1)
    g.act(
        "treat-light-wound", at="12:01", healer="H", patient="C", bandages=1, place="h1", bed="g1"
    )
    g.act(
        "treat-light-wound", at="12:01", healer="H2", patient="E", bandages=1, place="h1", bed="b1"
    )
    g.act("set-weather", at="12:05", raining=True)
    with pytest.raises(RuleViolation) as err:
        g.act("move-patient", patient="E", bed="g2")
    assert "W-HOSP-16" in err.value.rule_ids
    g.advance("12:11")
    # W-HOSP-16: C stayed on a ground bed in the rain, so C is not fully treated
    assert g.ch("C").hits == 2 and not g.ch("C").has("treatment")
    assert g.ch("E").hits == 3


def test_a_patient_moved_out_of_the_rain_keeps_the_elapsed_time(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=1)
    g.act(
        "treat-light-wound", at="12:01", healer="H", patient="C", bandages=1, place="h1", bed="g1"
    )
    g.act("set-weather", at="12:05", raining=True)
    g.act("move-patient", at="12:06", patient="C", bed="b2")
    g.advance("12:11")
    assert g.ch("C").hits == 3  # W-HOSP-16, A-W-14: progress kept


def test_without_keeping_progress_a_moved_patient_starts_again() -> None:
    from tests.unit.warhammer.conftest import hospital

    g = Game(params={"rain_move_keeps_progress": False})  # A-W-14 alternative
    g.healer("H")
    g.add("C")
    hospital(g)
    g.act("lose-hits", at="12:00", character="C", hits=1)
    g.act(
        "treat-light-wound", at="12:01", healer="H", patient="C", bandages=1, place="h1", bed="g1"
    )
    g.act("set-weather", at="12:05", raining=True)
    g.act("move-patient", at="12:06", patient="C", bed="b2")
    g.advance("12:15")
    assert g.ch("C").hits == 2
    g.advance("12:16")
    assert g.ch("C").hits == 3


def test_every_patient_is_written_in_the_journal_with_the_required_fields(g: Game) -> None:
    g.act("lose-hits", at="13:00", character="C", hits=2, location="left arm")
    g.act("lose-hits", at="13:02", character="C", hits=1, location="chest")
    g.act("admit", at="13:10", hospital="h1", patient="C", healer="H2")
    entry = g.journal()[-1]
    assert entry["type"] == "admission"  # W-HOSP-04
    # W-HOSP-05: name, race, age, time of admission, where the wounds are
    assert (entry["name"], entry["race"], entry["age"]) == ("Rustam", "human", 34)
    assert entry["admitted_at"] == "2026-06-13T13:10:00"
    assert entry["wounds"] == ["left arm", "chest"]


def test_recovery_and_death_are_recorded_and_the_patient_signs(g: Game) -> None:
    g.add("E", hits=3)
    g.act("lose-hits", at="13:00", character="C", hits=1)
    g.act("admit", at="13:01", hospital="h1", patient="C", healer="H")
    with pytest.raises(RuleViolation) as err:
        g.act("sign-journal", hospital="h1", patient="C")  # nothing finished yet
    assert err.value.rule_ids == ("W-HOSP-10",)
    g.act(
        "treat-light-wound", at="13:02", healer="H", patient="C", bandages=1, place="h1", bed="b1"
    )
    g.advance("13:12")
    assert g.journal()[-1]["outcome"] == "recovered"  # W-HOSP-07
    g.act("sign-journal", hospital="h1", patient="C")
    assert g.journal()[-1]["type"] == "signature"  # W-HOSP-10
    with pytest.raises(RuleViolation) as err:
        g.act("sign-journal", hospital="h1", patient="C")  # signed once, for one treatment
    assert err.value.rule_ids == ("W-HOSP-10",)
    g.act("lose-hits", at="14:00", character="E", hits=3)
    g.act("admit", at="14:01", hospital="h1", patient="E", healer="H")
    g.advance("14:15")
    assert g.journal()[-1]["outcome"] == "died"  # W-HOSP-07


def test_a_hospital_may_keep_several_journals(g: Game) -> None:
    g.act("open-journal", hospital="h1", journal="night")
    g.act("admit", hospital="h1", journal="night", patient="C", healer="H")
    assert g.journal()[-1]["journal"] == "night"  # W-HOSP-08
    assert g.journal()[-1]["no"] == 1


def test_corrections_are_new_entries_and_nothing_is_rewritten(g: Game) -> None:
    g.act("admit", hospital="h1", patient="C", healer="H", wounds=["leg"])
    first = dict(g.journal()[0])
    g.act("correct-journal", hospital="h1", entry=1, text="wound was on the right leg")
    entries = g.journal()
    assert entries[0] == first and entries[1]["corrects"] == 1  # W-HOSP-04: append-only


def test_the_journal_cannot_be_taken_or_looted(g: Game) -> None:
    with pytest.raises(RuleViolation) as err:
        g.act("take-journal", hospital="h1", taker="C")
    assert err.value.rule_ids == ("W-HOSP-09",)  # W-HOSP-09


def test_a_careless_hospital_can_be_penalised_and_closed(g: Game) -> None:
    g.act("penalize-hospital", hospital="h1", reason="entries missing", close=True)
    assert g.journal()[-1]["type"] == "penalty"  # W-HOSP-11
    g.act("lose-hits", at="12:00", character="C", hits=1)
    with pytest.raises(RuleViolation) as err:
        g.act("treat-light-wound", healer="H", patient="C", bandages=1, place="h1", bed="b1")
    assert err.value.rule_ids == ("W-HOSP-11",)


def test_hospital_props_are_on_its_registration_checklist(g: Game) -> None:
    items = {i.rule for i in g.rs.params.props_checklists["register-hospital"]}  # type: ignore[attr-defined]
    assert {"W-HOSP-02", "W-HOSP-12", "W-HOSP-15", "W-HOSP-17"} <= items
    kit = {i.rule for i in g.rs.params.props_checklists["check-kit"]}  # type: ignore[attr-defined]
    assert {"W-HEAL-01", "W-HEAL-02", "W-HOSP-19"} <= kit  # W-HOSP-19: healers bring props


def test_a_disease_entry_records_anamnesis_diagnosis_and_course(g: Game) -> None:
    g.act("admit", hospital="h1", patient="C", healer="H")
    with pytest.raises(RuleViolation) as err:
        g.act(
            "record-disease-case",
            hospital="h1",
            patient="C",
            healer="H",
            anamnesis="cough, old leg wound",
            diagnosis="",
        )
    assert err.value.rule_ids == ("W-HOSP-06",)  # W-HOSP-06
    g.act(
        "record-disease-case",
        hospital="h1",
        patient="C",
        healer="H",
        anamnesis="cough, old leg wound",
        diagnosis="X1",
        course=["drip", "enema"],
    )
    entry = g.journal()[-1]
    assert (entry["type"], entry["diagnosis"], entry["course"]) == (
        "disease",
        "X1",
        ["drip", "enema"],
    )


def bed(**size: Any) -> dict[str, Any]:
    return {"id": "b2", "length_cm": 150, "width_cm": 50, "height_cm": 10} | size


def test_the_smallest_table_and_bed_the_rules_allow_are_allowed(g: Game) -> None:
    table = {"id": "t1", "length_m": 2.0, "width_m": 1.0, "height_m": 0.9}  # A-W-13: 1 − 0.1
    register(g, tables=[table], beds=[BEDS[0], bed()])  # W-HOSP-12, W-HOSP-15: at the edge
    assert "h2" in g.state.hospitals


@pytest.mark.parametrize(
    ("tables", "beds", "rule"),
    [
        ([{"id": "t1", "length_m": 1.99}], None, "W-HOSP-12"),
        ([{"id": "t1", "width_m": 0.99}], None, "W-HOSP-12"),
        ([{"id": "t1", "height_m": 0.89}], None, "W-HOSP-12"),  # A-W-13: below 1 − 0.1
        (None, [bed(length_cm=149)], "W-HOSP-15"),
        (None, [bed(width_cm=49)], "W-HOSP-15"),
        (None, [bed(height_cm=9)], "W-HOSP-15"),
    ],
)
def test_a_table_or_bed_just_below_the_size_is_refused(
    g: Game, tables: list[dict[str, Any]] | None, beds: list[dict[str, Any]] | None, rule: str
) -> None:
    spec: dict[str, Any] = {}
    if tables is not None:
        spec["tables"] = tables
    if beds is not None:
        spec["beds"] = [BEDS[0], *beds]
    with pytest.raises(RuleViolation) as err:
        register(g, **spec)
    assert rule in err.value.rule_ids  # rule: 2×1×1 m (±0.1 height), beds 150×50 cm, 10 cm up
