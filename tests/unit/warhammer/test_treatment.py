"""Treating light and heavy wounds (checklist-000 §2.3–§2.4)."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import RuleViolation
from lazaretto.rulesets.warhammer_larp.checks import wound_state
from tests.game import Game, t


def heavy_on_table(g: Game, at: str = "13:20") -> None:
    g.act("lose-hits", at="13:00", character="C", hits=3)
    g.act("apply-bandage", at="13:10", healer="H", patient="C", bandages=3, mat="m1")
    g.act("start-operation", at=at, healer="H2", patient="C", hospital="h1", table="t1")


def test_light_wound_treatment_cures_after_10_minutes_lying(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=2)
    g.act("treat-light-wound", at="12:29", healer="H", patient="C", bandages=2, mat="m1")
    assert g.state.mats["m1"].occupant == "C"  # W-TRT-01: lying on a mat in the field
    assert g.ch("C").condition("treatment").deadline == t("12:39")  # W-TRT-03
    g.advance("12:38:59")
    assert g.ch("C").hits == 1
    g.advance("12:39")
    c = g.ch("C")
    # W-TRT-04: bandages off, all hits back, no wound penalties
    assert c.hits == 3 and wound_state(c) == "healthy" and not c.conditions
    assert g.state.mats["m1"].occupant is None


def test_light_wound_treatment_needs_one_bandage_per_lost_hit(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=2)
    with pytest.raises(RuleViolation) as err:
        g.act("treat-light-wound", healer="H", patient="C", bandages=1, mat="m1")
    assert err.value.rule_ids == ("W-TRT-02",)  # W-TRT-02


def test_light_wound_treatment_needs_a_bed_or_a_mat(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=1)
    with pytest.raises(RuleViolation) as err:
        g.act("treat-light-wound", healer="H", patient="C", bandages=1)
    assert "W-TRT-01" in err.value.rule_ids  # W-TRT-01: no mat in the field
    with pytest.raises(RuleViolation) as err:
        g.act("treat-light-wound", healer="H", patient="C", bandages=1, place="h1")
    assert "W-TRT-01" in err.value.rule_ids  # W-TRT-01: no bed in the hospital
    g.act("treat-light-wound", healer="H", patient="C", bandages=1, place="h1", bed="b1")
    assert g.state.hospitals["h1"].beds["b1"].occupant == "C"


def test_getting_up_before_the_10_minutes_means_no_cure(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=2)
    g.act("treat-light-wound", at="12:29", healer="H", patient="C", bandages=2, mat="m1")
    g.act("get-up", at="12:35", patient="C")
    g.advance("12:45")
    c = g.ch("C")
    # W-TRT-03: the treatment failed; C stays bandaged in light wound
    assert c.hits == 1 and wound_state(c) == "light" and c.alive
    assert c.condition("light_wound").data["bandaged"] is True


def test_heavy_wound_treatment_is_an_operation_then_bed_rest(g: Game) -> None:
    heavy_on_table(g)
    h = g.state.hospitals["h1"]
    assert h.tables["t1"].occupant == "C"  # W-TRT-05 stage 1, W-TRT-06
    g.act(
        "finish-operation",
        at="13:40",
        patient="C",
        bed="b1",
        stitches=[{"location": "chest"}, {"location": "arm"}, {"location": "leg"}],
    )
    assert h.tables["t1"].occupant is None
    assert g.state.hospitals["h1"].beds["b1"].occupant == "C"  # W-TRT-12: moved to a bed
    assert g.ch("C").condition("treatment").deadline == t("14:00")  # W-TRT-13
    g.advance("14:00")
    c = g.ch("C")
    # W-TRT-14: stitches and bandages off, all hits back; W-TRT-05 stage 2 done
    assert c.hits == 3 and wound_state(c) == "healthy" and "stitches" not in c.data


def test_post_operation_rest_is_20_minutes_whatever_the_hits_lost(g: Game) -> None:
    g.add("D", hits=5)
    g.act("lose-hits", at="13:00", character="D", hits=5)
    g.act("start-operation", at="13:01", healer="H2", patient="D", hospital="h1", table="t1")
    g.act(
        "finish-operation",
        at="13:10",
        patient="D",
        bed="b2",
        stitches=[{"location": str(i)} for i in range(5)],
    )
    assert g.ch("D").condition("treatment").deadline == t("13:30")  # W-TRT-13


def test_an_unbandaged_patient_still_dies_on_the_table_when_the_15_minutes_run_out(g: Game) -> None:
    g.act("lose-hits", at="13:00", character="C", hits=3)
    g.act("start-operation", at="13:01", healer="H2", patient="C", hospital="h1", table="t1")
    g.advance("13:15")
    assert not g.ch("C").alive  # W-WND-12: only a bandage stops the countdown (A-W-06)
    assert g.state.hospitals["h1"].tables["t1"].occupant is None


def test_an_operation_is_refused_in_the_field(g: Game) -> None:
    g.act("lose-hits", at="13:00", character="C", hits=3)
    with pytest.raises(RuleViolation) as err:
        g.act("start-operation", healer="H2", patient="C", hospital="field", table="t1")
    assert "W-TRT-06" in err.value.rule_ids  # W-TRT-06, W-HEAL-05


def test_stitches_must_equal_lost_hits_one_per_plaster(g: Game) -> None:
    heavy_on_table(g)
    with pytest.raises(RuleViolation) as err:
        g.act("finish-operation", patient="C", bed="b1", stitches=[{"location": "a"}] * 2)
    assert err.value.rule_ids == ("W-TRT-11",)  # W-TRT-11
    with pytest.raises(RuleViolation) as err:
        g.act(
            "finish-operation", patient="C", bed="b1", stitches=[{"location": "a"}] * 3, plasters=2
        )
    assert err.value.rule_ids == ("W-TRT-10",)  # W-TRT-10: one stitch per plaster


def test_a_plaster_fold_must_be_5_cm_long_and_1_cm_high(g: Game) -> None:
    heavy_on_table(g)
    short = [{"location": "a", "fold_length_cm": 4, "fold_height_cm": 1}] * 3
    with pytest.raises(RuleViolation) as err:
        g.act("finish-operation", patient="C", bed="b1", stitches=short)
    assert err.value.rule_ids == ("W-TRT-09",)  # W-TRT-09
    low = [{"location": "a", "fold_length_cm": 5, "fold_height_cm": 0.5}] * 3
    with pytest.raises(RuleViolation):
        g.act("finish-operation", patient="C", bed="b1", stitches=low)
    ok = [{"location": "a", "fold_length_cm": 5, "fold_height_cm": 1}] * 3
    g.act("finish-operation", patient="C", bed="b1", stitches=ok)
    assert g.ch("C").data["stitches"][0]["fold_length_cm"] == 5  # W-TRT-08: recorded


def test_leaving_the_bed_during_post_operation_rest_means_no_cure(g: Game) -> None:
    heavy_on_table(g)
    g.act("finish-operation", at="13:40", patient="C", bed="b1", stitches=[{}] * 3)
    g.act("get-up", at="13:55", patient="C")
    g.advance("14:30")
    c = g.ch("C")
    assert c.alive and c.hits == 0 and wound_state(c) == "heavy_bandaged"  # W-TRT-13


def test_keeping_the_stitches_is_only_roleplay(g: Game) -> None:
    """W-TRT-15: the patient may keep the stitches on; the cure is the same."""
    heavy_on_table(g)
    g.act("finish-operation", at="13:40", patient="C", bed="b1", stitches=[{}] * 3)
    g.advance("14:00")
    assert wound_state(g.ch("C")) == "healthy"  # W-TRT-15: no rule depends on the stitches


def test_a_light_wound_is_not_operated_on(g: Game) -> None:
    g.act("lose-hits", at="13:00", character="C", hits=1)
    with pytest.raises(RuleViolation) as err:
        g.act("start-operation", healer="H2", patient="C", hospital="h1", table="t1")
    assert "W-TRT-05" in err.value.rule_ids


def test_a_heavy_wound_is_not_given_the_light_treatment(g: Game) -> None:
    g.act("lose-hits", at="13:00", character="C", hits=3)
    with pytest.raises(RuleViolation) as err:
        g.act("treat-light-wound", healer="H", patient="C", bandages=3, mat="m1")
    assert "W-TRT-05" in err.value.rule_ids


def test_the_operating_table_may_serve_as_the_bed(g: Game) -> None:
    heavy_on_table(g)
    g.act("finish-operation", at="13:40", patient="C", bed="t1", stitches=[{}] * 3)
    assert g.state.hospitals["h1"].tables["t1"].occupant == "C"  # W-HOSP-14
    g.advance("14:00")
    assert g.ch("C").hits == 3 and g.state.hospitals["h1"].tables["t1"].occupant is None


def test_wound_props_are_part_of_the_action_checklists(g: Game) -> None:
    lists = g.rs.params.props_checklists  # type: ignore[attr-defined]
    bandage = {item.rule for item in lists["apply-bandage"]}
    operation = {item.rule for item in lists["finish-operation"]}
    assert {"W-WND-03", "W-WND-04"} <= bandage  # W-WND-03, W-WND-04: shown as a checklist
    assert {"W-TRT-07", "W-TRT-08", "W-TRT-09", "W-TRT-10"} <= operation  # W-TRT-07, W-TRT-08
