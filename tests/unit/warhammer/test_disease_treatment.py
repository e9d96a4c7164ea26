"""Treating diseases and poisons in hospital (checklist-000 §5.2–§5.3; A-W-15..18, A-W-34)."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import RuleViolation
from lazaretto.core.ruleset import Role
from tests.game import Game, t
from tests.unit.warhammer.diseases_kit import (
    COURSE,
    COURSE_N,
    LETHAL_RECIPE,
    cure_in_hospital,
    define,
    game,
    ill,
    q,
    sticker_of,
)


def ready(g: Game, patient: str = "p0", codes: tuple[str, ...] = ("GF",)) -> None:
    """Admitted, anamnesis written, diagnosed: ready for the course."""
    g.act("admit", at="10:00", hospital="h1", patient=patient, healer="H")
    g.act("record-anamnesis", at="10:00", hospital="h1", patient=patient, healer="H")
    for code in codes:
        g.act("add-to-book", healer="H", code=code, description="scroll")
        g.act("diagnose", at="10:00", hospital="h1", patient=patient, healer="H", disease=code)


def start(
    g: Game, patient: str = "p0", codes: tuple[str, ...] = ("GF",), at: str = "10:00"
) -> None:
    g.act(
        "start-disease-course",
        at=at,
        hospital="h1",
        patient=patient,
        healer="H",
        bed="b1",
        diseases=list(codes),
    )


def items(g: Game, code: str = "GF", patient: str = "p0", at: str | None = None) -> None:
    for item in g.state.diseases[code]["course"]:
        extra = {"table": "t1"} if item == "operation" else {}
        g.act("course-item", at=at, patient=patient, disease=code, item=item, minutes=5, **extra)


def sick(**params: object) -> Game:
    g = game(**params)
    define(g)
    g.act("infect", at="09:00", character="p0", disease="GF")
    return g


def test_diseases_are_treated_in_hospital_or_by_potions_and_spells() -> None:
    g = sick()
    with pytest.raises(RuleViolation) as err:
        g.act("record-anamnesis", hospital="field", patient="p0", healer="H")
    assert "W-DTRT-01" in err.value.rule_ids and "W-HEAL-05" in err.value.rule_ids
    g.act("cure-disease-by-other-means", at="09:30", patient="p0", disease="GF", means="spell")
    assert not ill(g, "p0")  # W-DTRT-01: a special spell cures too
    assert g.state.stickers[sticker_of_cured(g)].cure == {"code": "GF", "how": "spell"}


def sticker_of_cured(g: Game) -> str:
    return next(c for c, s in g.state.stickers.items() if s.status == "cured")


def test_the_stages_come_in_order_anamnesis_diagnosis_course_cure() -> None:
    g = sick()
    g.act("admit", at="10:00", hospital="h1", patient="p0", healer="H")
    g.act("add-to-book", healer="H", code="GF")
    with pytest.raises(RuleViolation) as err:
        g.act("diagnose", hospital="h1", patient="p0", healer="H", disease="GF")
    assert err.value.rule_ids == ("W-DTRT-02",)  # W-DTRT-02: anamnesis first
    g.act("record-anamnesis", hospital="h1", patient="p0", healer="H")
    with pytest.raises(RuleViolation) as err:
        start(g)
    assert "W-DTRT-02" in err.value.rule_ids  # W-DTRT-02: diagnosis before the course
    g.act("diagnose", hospital="h1", patient="p0", healer="H", disease="GF")
    start(g)
    items(g)
    g.advance("10:40")
    assert not ill(g, "p0")  # W-DTRT-02: ... and the cure
    types = [e["type"] for e in g.journal()]
    assert types == ["admission", "anamnesis", "diagnosis", "course", "outcome"]


def test_the_anamnesis_records_symptoms_and_past_wounds_and_diseases() -> None:
    g = sick()
    g.act("lose-hits", at="09:50", character="p0", hits=1, location="left arm")
    g.act("admit", at="10:00", hospital="h1", patient="p0", healer="H")
    g.act("record-anamnesis", hospital="h1", patient="p0", healer="H")
    entry = g.journal()[-1]
    # W-DTRT-03: symptoms, and the wounds and diseases the patient ever had
    assert entry["type"] == "anamnesis" and "cough loudly" in entry["anamnesis"]
    assert "left arm" in entry["anamnesis"] and "GF" in entry["anamnesis"]


def test_diagnosis_needs_the_description_in_the_healers_book() -> None:
    g = sick()
    g.act("admit", at="10:00", hospital="h1", patient="p0", healer="H")
    g.act("record-anamnesis", hospital="h1", patient="p0", healer="H")
    with pytest.raises(RuleViolation) as err:
        g.act("diagnose", hospital="h1", patient="p0", healer="H", disease="GF")
    assert "W-DTRT-05" in err.value.rule_ids  # W-DTRT-05: unknown: it must be studied
    g.act("add-to-book", healer="H", code="GF", description="cough; drip, enema...")
    g.act("diagnose", hospital="h1", patient="p0", healer="H", disease="GF")
    entry = g.journal()[-1]
    # W-DTRT-04: the diagnosis and the course from the description, in the journal
    assert (entry["type"], entry["diagnosis"], entry["course"]) == ("diagnosis", "GF", COURSE)
    assert (
        "W-HOSP-06"
        in next(e for e in reversed(g.events) if e.kind == "journal.entry_added").rule_ids
    )


def test_a_course_lasts_forty_minutes_on_a_bed() -> None:
    g = sick()
    ready(g)
    start(g)
    assert g.state.hospitals["h1"].beds["b1"].occupant == "p0"  # W-DTRT-07: on a bed
    items(g)
    g.advance("10:39:59")
    assert ill(g, "p0")
    g.advance("10:40")
    assert not ill(g, "p0")  # W-DTRT-06: 40 minutes
    assert g.state.hospitals["h1"].beds["b1"].occupant is None


def test_leaving_the_bed_ends_the_course_without_cure() -> None:
    g = sick()
    ready(g)
    start(g)
    g.act("get-up", at="10:20", patient="p0")
    g.advance("11:00")
    assert ill(g, "p0")  # W-DTRT-07: the whole course on the bed
    with pytest.raises(RuleViolation):
        g.act("course-item", patient="p0", disease="GF", item="drip", minutes=5)


def test_a_course_has_six_items_and_ends_only_when_all_are_done() -> None:
    g = sick()
    with pytest.raises(RuleViolation) as err:
        define(g, code="XX", course=COURSE[:5])
    assert err.value.rule_ids == ("W-DTRT-08",)  # W-DTRT-08: 6 items
    ready(g)
    start(g)
    for item in COURSE[:5]:
        g.act("course-item", patient="p0", disease="GF", item=item, minutes=5)
    evs = g.advance("10:40")
    assert ill(g, "p0") and "disease_course.overdue" in g.kinds(evs)  # A-W-15
    g.act("course-item", at="10:45", patient="p0", disease="GF", item=COURSE[5])
    assert not ill(g, "p0")  # A-W-15: the later of the time and the last item


def test_only_the_rules_medical_actions_and_medications_make_a_course() -> None:
    g = sick()
    with pytest.raises(RuleViolation) as err:
        define(
            g,
            code="XX",
            course=["drip", "enema", "bloodletting", "operation", "inhalation", "sedative"],
        )
    assert "W-DTRT-09" in err.value.rule_ids  # W-DTRT-09: six kinds of medical action
    with pytest.raises(RuleViolation) as err:
        define(
            g,
            code="XY",
            course=["drip", "enema", "herbal_drink", "operation", "inhalation", "opium"],
        )
    assert "W-DTRT-16" in err.value.rule_ids  # W-DTRT-16: four medications
    define(g, code="OK", course=COURSE_N)
    assert g.state.diseases["OK"]["course"] == COURSE_N
    ready(g)
    start(g)
    with pytest.raises(RuleViolation) as err:
        g.act("course-item", patient="p0", disease="GF", item="bloodletting")
    assert "W-DTRT-09" in err.value.rule_ids


@pytest.mark.parametrize("item", ["drip", "inhalation", "psychotherapy"])
def test_drip_inhalation_and_psychotherapy_take_at_least_three_minutes(item: str) -> None:
    g = sick()
    ready(g)
    start(g)
    with pytest.raises(RuleViolation) as err:
        g.act("course-item", patient="p0", disease="GF", item=item, minutes=2.5)
    assert err.value.rule_ids == ("W-DTRT-10",)  # W-DTRT-10
    g.act("course-item", patient="p0", disease="GF", item=item, minutes=3)


def test_an_operation_item_needs_a_free_operating_table() -> None:
    g = game()
    define(g, course=COURSE_N)
    g.act("infect", at="09:00", character="p0", disease="GF")
    ready(g)
    start(g)
    g.act("lose-hits", at="10:00", character="p5", hits=3)
    g.act("start-operation", at="10:01", healer="H2", patient="p5", hospital="h1", table="t1")
    with pytest.raises(RuleViolation) as err:
        g.act("course-item", at="10:05", patient="p0", disease="GF", item="operation", table="t1")
    assert "W-DTRT-11" in err.value.rule_ids  # W-DTRT-11: one patient per table
    with pytest.raises(RuleViolation) as err:
        g.act("course-item", at="10:05", patient="p0", disease="GF", item="operation")
    assert "W-DTRT-11" in err.value.rule_ids  # played on an operating table


def test_action_props_are_a_checklist() -> None:
    g = game()
    rules = {i.rule for i in g.rs.params.props_checklists["course-item"]}  # type: ignore[attr-defined]
    assert rules == {"W-DTRT-12"}  # W-DTRT-12: how each action is played


def test_medications_are_made_by_alchemists() -> None:
    g = sick()
    g.add("A", skills=("Alchemist",))
    ready(g)
    start(g)
    with pytest.raises(RuleViolation) as err:
        g.act("course-item", patient="p0", disease="GF", item="sedative", alchemist="p3")
    assert err.value.rule_ids == ("W-DTRT-13",)  # W-DTRT-13
    g.act("course-item", patient="p0", disease="GF", item="sedative", alchemist="A")


def test_mandatory_medications_are_course_items() -> None:
    g = sick()
    ready(g)
    start(g)
    for item in COURSE[:5]:
        g.act("course-item", patient="p0", disease="GF", item=item, minutes=5)
    g.advance("11:30")
    assert ill(g, "p0")  # W-DTRT-14: without the sedative there is no cure


def test_a_medication_can_take_twenty_minutes_off_once() -> None:
    g = game()
    define(g, reduction_medication="painkiller")
    g.act("infect", at="09:00", character="p0", disease="GF")
    ready(g)
    start(g)
    items(g)
    g.act("course-item", at="10:05", patient="p0", disease="GF", item="painkiller")
    assert g.ch("p0").condition("disease_course").deadline == t("10:20")  # W-DTRT-15
    with pytest.raises(RuleViolation):  # A-W-15: a second dose takes nothing more off
        g.act("course-item", at="10:06", patient="p0", disease="GF", item="painkiller")
    g.advance("10:20")
    assert not ill(g, "p0")


def test_stackable_reductions_are_a_parameter() -> None:
    g = game(medication_reduction_stackable=True, medication_reduction_minutes=10)
    define(g, reduction_medication="painkiller")
    g.act("infect", at="09:00", character="p0", disease="GF")
    ready(g)
    start(g)
    g.act("course-item", at="10:01", patient="p0", disease="GF", item="painkiller")
    g.act("course-item", at="10:02", patient="p0", disease="GF", item="painkiller")
    assert g.ch("p0").condition("disease_course").deadline == t("10:20")  # A-W-15


def test_several_courses_run_together_each_in_full() -> None:
    g = game()
    define(g)
    define(g, code="NN", course=COURSE_N)
    g.act("infect", at="09:00", character="p0", disease="GF")
    g.act("infect", at="09:00", character="p0", disease="NN")
    ready(g, codes=("GF", "NN"))
    start(g, codes=("GF", "NN"))
    assert g.ch("p0").condition("disease_course").deadline == t("10:40")  # W-DTRT-17; A-W-16
    items(g, "GF")
    with pytest.raises(RuleViolation) as err:  # drip done for GF does not count for NN
        g.act("course-item", patient="p0", disease="GF", item="drip", minutes=5)
    assert "W-DTRT-18" in err.value.rule_ids
    g.advance("10:40")
    assert ill(g, "p0", "GF")  # W-DTRT-18: NN's items are still to do
    items(g, "NN", at="10:50")
    assert not ill(g, "p0", "GF") and not ill(g, "p0", "NN")


def test_parallel_courses_can_be_counted_one_after_another() -> None:
    g = game(parallel_courses_time="sum")
    define(g)
    define(g, code="NN", course=COURSE_N)
    g.act("infect", at="09:00", character="p0", disease="GF")
    g.act("infect", at="09:00", character="p0", disease="NN")
    ready(g, codes=("GF", "NN"))
    start(g, codes=("GF", "NN"))
    assert g.ch("p0").condition("disease_course").deadline == t("11:20")  # A-W-16 "sum"


def test_disease_and_wound_treatment_never_run_together() -> None:
    g = sick()
    g.act("lose-hits", at="09:50", character="p0", hits=1)
    ready(g)
    start(g)
    with pytest.raises(RuleViolation) as err:
        g.act("treat-light-wound", healer="H2", patient="p0", bandages=1, place="h1", bed="b2")
    assert "W-DTRT-19" in err.value.rule_ids  # W-DTRT-19
    g.act("apply-bandage", at="10:05", healer="H2", patient="p0", bandages=1, place="h1")
    assert g.ch("p0").condition("light_wound").data["bandaged"]  # A-W-17: bandaging is fine
    other = sick()
    other.act("lose-hits", at="09:55", character="p0", hits=1)
    other.act(
        "treat-light-wound", at="09:56", healer="H2", patient="p0", bandages=1, place="h1", bed="b2"
    )
    ready(other)
    with pytest.raises(RuleViolation) as err:
        start(other)
    assert "W-DTRT-19" in err.value.rule_ids


def test_bandaging_during_a_course_can_be_forbidden() -> None:
    g = sick(bandage_allowed_during_disease_course=False)
    g.act("lose-hits", at="09:50", character="p0", hits=1)
    ready(g)
    start(g)
    with pytest.raises(RuleViolation) as err:
        g.act("apply-bandage", healer="H2", patient="p0", bandages=1, place="h1")
    assert "A-W-17" in err.value.rule_ids  # A-W-17 alternative


def test_the_cure_is_written_on_the_sticker_and_the_patient_signs() -> None:
    g = sick()
    code = sticker_of(g, "p0")
    ready(g)
    start(g)
    items(g)
    g.advance("10:40")
    # W-DTRT-20: hospital number, disease code, the healer's signature
    cure = g.state.stickers[code].cure
    assert cure is not None and (cure["hospital_number"], cure["code"], cure["signature"]) == (
        "7",
        "GF",
        "H",
    )
    g.act("sign-journal", hospital="h1", patient="p0")
    assert g.journal()[-1]["type"] == "signature"  # W-HOSP-10
    assert g.replayed() == g.state


def test_a_lethal_countdown_keeps_running_during_the_course() -> None:
    g = game()
    define(g, code="RP", lethal=True, minutes_to_death=60, recipe=LETHAL_RECIPE)
    g.act("infect", at="09:30", character="p0", disease="RP")
    ready(g, codes=("RP",))
    start(g, codes=("RP",), at="10:00")
    items(g, "RP")
    g.advance("10:30")
    assert not g.ch("p0").alive  # A-W-18: the course would end at 10:40, death came first
    assert g.journal()[-1]["outcome"] == "died"


def test_a_lethal_countdown_may_pause_during_the_course() -> None:
    g = game(lethal_timer_pauses_in_treatment=True)
    define(g, code="RP", lethal=True, minutes_to_death=60, recipe=LETHAL_RECIPE)
    g.act("infect", at="09:30", character="p0", disease="RP")
    ready(g, codes=("RP",))
    start(g, codes=("RP",), at="10:00")
    g.act("get-up", at="10:35", patient="p0")  # interrupted after 35 paused minutes
    g.advance("11:04:59")
    assert g.ch("p0").alive  # A-W-18 alternative: 30 minutes were left at 10:00
    g.advance("11:05")
    assert not g.ch("p0").alive


def test_a_healer_cannot_treat_their_own_disease() -> None:
    g = game()
    define(g)
    g.act("infect", at="09:00", character="H", disease="GF")
    with pytest.raises(RuleViolation) as err:
        g.act("record-anamnesis", hospital="h1", patient="H", healer="H")
    assert err.value.rule_ids == ("W-HEAL-11",)  # W-HEAL-11
    cure_in_hospital(g, "H", ["GF"], healer="H2")
    g.advance("10:00")
    assert not ill(g, "H")  # another healer can


def test_a_healer_sees_the_course_only_when_it_is_in_their_book() -> None:
    g = game()
    define(g)
    unknown = q(g, "disease-info", role=Role.HEALER, code="GF", healer="H")
    assert "course" not in unknown and unknown["known"] is False  # W-HEAL-03
    assert "penalties" not in unknown  # W-DIS-05
    g.act("add-to-book", healer="H", code="GF")
    known = q(g, "disease-info", role=Role.HEALER, code="GF", healer="H")
    assert known["course"] == COURSE and "penalties" not in known  # W-DTRT-04
    assert q(g, "disease-info", code="GF")["penalties"] == "cannot run"


def test_descriptions_can_be_copied_between_books_unless_forbidden() -> None:
    g = game()
    define(g)
    g.act("add-to-book", healer="H", code="GF", description="cough; course...")
    g.act("copy-description", healer="H2", source="H", code="GF")
    assert g.ch("H2").data["book"]["GF"] == "cough; course..."  # A-W-34
    strict = game(allow_description_copy=False)
    define(strict)
    strict.act("add-to-book", healer="H", code="GF")
    with pytest.raises(RuleViolation) as err:
        strict.act("copy-description", healer="H2", source="H", code="GF")
    assert err.value.rule_ids == ("A-W-34",)


@pytest.mark.parametrize("at", ["10:20", "10:30"])
def test_a_reduction_that_ends_the_course_time_now_or_earlier_says_it_is_overdue(at: str) -> None:
    """A-W-15: the course ends at the later of its time and its last item; A-W-11: a time
    is over at its very instant. A painkiller taking 20 minutes off at 10:20 (or later)
    ends the time at 10:20, so with an item still to do the course is overdue at once."""
    g = game()
    define(g, reduction_medication="painkiller")
    g.act("infect", at="09:00", character="p0", disease="GF")
    ready(g)
    start(g)
    for item in COURSE[:5]:
        g.act("course-item", at="10:05", patient="p0", disease="GF", item=item, minutes=5)
    evs = g.act("course-item", at=at, patient="p0", disease="GF", item="painkiller")
    assert g.ch("p0").condition("disease_course").deadline == t("10:20")  # W-DTRT-15
    overdue = [e.payload for e in evs if e.kind == "disease_course.overdue"]
    assert overdue == [{"character": "p0", "missing": {"GF": [COURSE[5]]}}]  # A-W-15
    assert ill(g, "p0")  # the last item is still to do
    assert "disease_course.overdue" not in g.kinds(g.advance("10:40"))  # said once
    g.act("course-item", at="10:41", patient="p0", disease="GF", item=COURSE[5])
    assert not ill(g, "p0")  # A-W-15: cured with the last item


@pytest.mark.parametrize("at", ["10:20", "10:25"])
def test_a_reduction_after_every_item_cures_at_once_when_the_time_is_over(at: str) -> None:
    g = game()
    define(g, reduction_medication="painkiller")
    g.act("infect", at="09:00", character="p0", disease="GF")
    ready(g)
    start(g)
    items(g, at="10:05")
    evs = g.act("course-item", at=at, patient="p0", disease="GF", item="painkiller")
    assert "disease_course.overdue" not in g.kinds(evs) and not ill(g, "p0")  # A-W-15
