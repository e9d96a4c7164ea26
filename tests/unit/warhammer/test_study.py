"""Studying an unknown disease (checklist-000 §5.4; A-W-19)."""

from __future__ import annotations

from typing import Any

import pytest

from lazaretto.core.errors import RuleViolation
from lazaretto.rulesets.warhammer_larp.checks import wound_state
from lazaretto.rulesets.warhammer_larp.study import matches
from tests.game import Game
from tests.unit.warhammer.diseases_kit import COURSE, LETHAL_RECIPE, define, game, ill

WRONG = ["operation", "operation", "operation", "painkiller", "painkiller", "shallya_tears"]
HALF = [*COURSE[:3], "operation", "painkiller", "shallya_tears"]


def studying(guess: list[str], **kw: Any) -> Game:
    g = game()
    define(g)
    define(g, code="MILD", course=[], recipe=[])
    g.act("infect", at="09:00", character="p0", disease="GF")
    g.act("admit", at="10:00", hospital="h1", patient="p0", healer="H")
    g.act("record-anamnesis", hospital="h1", patient="p0", healer="H")
    g.act("write-treatise", author="H", topic="Grey fever", question="its course", pages=2)
    spec = {"master_present": True, **kw}
    g.act(
        "start-study",
        hospital="h1",
        patient="p0",
        healer="H",
        bed="b1",
        disease="GF",
        treatise="tr-1",
        course=guess,
        **spec,
    )
    return g


def test_matching_is_counted_item_by_item_in_any_order() -> None:
    assert matches(list(reversed(COURSE)), COURSE) == 6
    assert matches(["drip", "drip", "enema"], ["drip", "enema", "enema"]) == 2
    assert matches(WRONG, COURSE) == 0


def test_a_study_needs_the_medical_master_present() -> None:
    with pytest.raises(RuleViolation) as err:
        studying(COURSE, master_present=False)
    assert err.value.rule_ids == ("W-STUDY-01",)  # W-STUDY-01


def test_a_study_needs_the_healers_treatise() -> None:
    g = game()
    define(g)
    g.act("infect", at="09:00", character="p0", disease="GF")
    g.act("admit", at="10:00", hospital="h1", patient="p0", healer="H")
    g.act("record-anamnesis", hospital="h1", patient="p0", healer="H")
    g.act("write-treatise", author="H2", topic="Grey fever", question="course", pages=1)
    with pytest.raises(RuleViolation) as err:
        g.act(
            "start-study",
            hospital="h1",
            patient="p0",
            healer="H",
            bed="b1",
            disease="GF",
            treatise="tr-1",
            course=COURSE,
            master_present=True,
        )
    assert "W-STUDY-02" in err.value.rule_ids  # W-STUDY-02: one's own treatise
    props = {i.rule for i in g.rs.params.props_checklists["start-study"]}  # type: ignore[attr-defined]
    assert props == {"W-STUDY-02"}  # W-STUDY-02: what it contains is a checklist


def test_the_experimental_course_is_carried_out_on_the_patient() -> None:
    g = studying(COURSE)
    cond = g.ch("p0").condition("disease_course")
    assert cond is not None and cond.data["kind"] == "study"  # W-STUDY-03
    assert g.state.hospitals["h1"].beds["b1"].occupant == "p0"
    assert g.journal()[-1]["type"] == "study"


def test_most_items_right_gives_the_description_and_cures() -> None:
    g = studying([*COURSE[:4], "operation", "painkiller"])  # 4 of 6
    g.advance("10:39")
    assert ill(g, "p0")
    g.advance("10:40")  # A-W-19: the standard 40 minutes
    assert not ill(g, "p0")  # W-STUDY-04: cured
    assert "GF" in g.ch("H").data["book"]  # W-STUDY-04: the full description
    finished = next(e for e in g.events if e.kind == "study.finished")
    assert finished.payload["matches"] == 4 and finished.payload["result"] == "success"


def test_few_matches_leave_the_patient_ill_or_dead_as_the_master_rules() -> None:
    g = studying(HALF)  # 3 of 6: A-W-19 threshold is 4
    g.advance("10:40")
    assert ill(g, "p0") and "GF" not in g.ch("H").data.get("book", {})
    g.act("rule-study", study="study-1", outcome="stays_ill")
    assert ill(g, "p0") and g.ch("p0").alive  # W-STUDY-05: stays ill
    with pytest.raises(RuleViolation):
        g.act("rule-study", study="study-1", outcome="dies")  # ruled once
    dead = studying(WRONG)
    dead.advance("10:40")
    dead.act("rule-study", study="study-1", outcome="dies")
    assert not dead.ch("p0").alive  # W-STUDY-05: or dies at once


def test_mismatches_may_bring_a_heavy_wound_or_an_extra_non_lethal_disease() -> None:
    g = studying(WRONG)
    g.advance("10:40")
    g.act("rule-study", study="study-1", outcome="heavy_wound")
    assert wound_state(g.ch("p0")) == "heavy_unbandaged"  # W-STUDY-06
    g2 = studying([*COURSE[:5], "operation"])  # 5 of 6: cured, one mismatch
    g2.advance("10:40")
    define(g2, code="RP", lethal=True, minutes_to_death=30, recipe=LETHAL_RECIPE)
    with pytest.raises(RuleViolation) as err:
        g2.act("rule-study", study="study-1", outcome="extra_disease", extra_disease="RP")
    assert err.value.rule_ids == ("W-STUDY-06",)  # a non-lethal one only
    g2.act("rule-study", study="study-1", outcome="extra_disease", extra_disease="MILD")
    assert ill(g2, "p0", "MILD") and not ill(g2, "p0", "GF")  # W-STUDY-06
    with pytest.raises(RuleViolation):  # a perfect study has no mismatch to punish
        g3 = studying(COURSE)
        g3.advance("10:40")
        g3.act("rule-study", study="study-1", outcome="heavy_wound")


def test_the_success_threshold_is_a_parameter() -> None:
    g = game(study_success_min_matches=3)
    define(g)
    g.act("infect", at="09:00", character="p0", disease="GF")
    g.act("admit", at="10:00", hospital="h1", patient="p0", healer="H")
    g.act("record-anamnesis", hospital="h1", patient="p0", healer="H")
    g.act("write-treatise", author="H", topic="Grey fever", question="course", pages=1)
    g.act(
        "start-study",
        hospital="h1",
        patient="p0",
        healer="H",
        bed="b1",
        disease="GF",
        treatise="tr-1",
        course=HALF,
        master_present=True,
    )
    g.advance("10:40")
    assert not ill(g, "p0")  # A-W-19: 3 of 6 is enough here
