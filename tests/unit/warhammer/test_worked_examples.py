"""Worked examples 1–4 of checklist-000 §5, as scenarios on a manual clock."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import RuleViolation
from lazaretto.rulesets.warhammer_larp.checks import wound_state
from tests.game import Game, t
from tests.unit.warhammer.conftest import hospital


def test_example_1_unbandaged_light_wound_turns_heavy_then_kills() -> None:
    g = Game()
    g.add("C", hits=3)
    g.act("lose-hits", at="12:00", character="C", hits=2)
    assert wound_state(g.ch("C")) == "light"  # W-DEF-06, W-WND-07
    g.advance("12:30")
    assert wound_state(g.ch("C")) == "heavy_unbandaged"  # W-WND-08
    g.advance("12:44:59")
    assert g.ch("C").alive
    g.advance("12:45")
    assert not g.ch("C").alive  # W-WND-12, A-W-10
    assert g.replayed() == g.state


def test_example_1_extra_hit_at_1220_means_death_at_1235() -> None:
    g = Game()
    g.add("C", hits=3)
    g.act("lose-hits", at="12:00", character="C", hits=2)
    g.act("lose-hits", at="12:20", character="C", hits=1)
    g.advance("12:34:59")
    assert g.ch("C").alive and wound_state(g.ch("C")) == "heavy_unbandaged"  # W-DEF-02
    g.advance("12:35")
    assert not g.ch("C").alive


def test_example_1_variant_four_hits_timer_counts_from_the_first_hit() -> None:
    g = Game()
    g.add("C", hits=4)
    g.act("lose-hits", at="12:00", character="C", hits=2)
    g.act("lose-hits", at="12:20", character="C", hits=1)
    g.advance("12:30")
    assert wound_state(g.ch("C")) == "heavy_unbandaged"  # W-WND-08


@pytest.fixture
def field() -> Game:
    g = Game()
    g.add("C", hits=3)
    g.healer("H")
    g.act("register-mat", id="m1", healer="H", length_cm=180, width_cm=60)
    g.act("lose-hits", at="12:00", character="C", hits=2)
    return g


def test_example_2_bandage_at_1229_holds(field: Game) -> None:
    field.act("apply-bandage", at="12:29", healer="H", patient="C", bandages=2, mat="m1")
    field.advance("12:30")
    c = field.ch("C")
    assert wound_state(c) == "light" and c.hits == 1  # A-W-06, W-WND-05/06, A-W-08


def test_example_2_light_treatment_from_1229_cures_at_1239(field: Game) -> None:
    field.act("treat-light-wound", at="12:29", healer="H", patient="C", bandages=2, mat="m1")
    field.advance("12:39")
    assert field.ch("C").hits == 3  # W-TRT-01..04


def test_example_2_getting_up_at_1235_fails_the_treatment(field: Game) -> None:
    field.act("treat-light-wound", at="12:29", healer="H", patient="C", bandages=2, mat="m1")
    field.act("get-up", at="12:35", patient="C")
    field.advance("13:00")
    c = field.ch("C")
    assert c.alive and c.hits == 1 and wound_state(c) == "light"  # W-TRT-03


def test_example_2_bandage_logged_at_1230_is_too_late(field: Game) -> None:
    field.act("apply-bandage", at="12:30", healer="H", patient="C", bandages=3, mat="m1")
    assert wound_state(field.ch("C")) == "heavy_bandaged"  # A-W-11


def test_example_3_heavy_wound_treatment_path() -> None:
    g = Game()
    g.add("D", "Dmitri", hits=3, race="dwarf", age=120)
    g.healer("F")
    g.healer("S")
    g.act("register-mat", id="m1", healer="F", length_cm=180, width_cm=60)
    hospital(g)
    g.act("lose-hits", at="13:00", character="D", hits=3, location="chest")
    assert g.ch("D").condition("heavy_wound").deadline == t("13:15")
    g.act("apply-bandage", at="13:10", healer="F", patient="D", bandages=3, mat="m1")
    assert not g.state.timers_for("D")  # W-HEAL-05, A-W-06
    assert wound_state(g.ch("D")) == "heavy_bandaged"  # W-WND-13/14
    with pytest.raises(RuleViolation):
        g.act("start-operation", healer="F", patient="D", hospital="field", table="t1")
    g.act("admit", at="13:25", hospital="h1", patient="D", healer="S")
    adm = g.journal()[-1]
    assert (adm["name"], adm["race"], adm["age"], adm["wounds"]) == (
        "Dmitri",
        "dwarf",
        120,
        ["chest"],
    )  # W-HOSP-05
    g.act("start-operation", at="13:25", healer="S", patient="D", hospital="h1", table="t1")
    g.act("finish-operation", at="13:40", patient="D", bed="b1", stitches=[{}] * 3)
    g.advance("13:59:59")
    assert g.ch("D").hits == 0
    g.advance("14:00")
    assert g.ch("D").hits == 3  # W-TRT-13/14
    g.act("sign-journal", hospital="h1", patient="D")
    types = [(e["type"], e.get("outcome")) for e in g.journal()]
    assert types == [("admission", None), ("outcome", "recovered"), ("signature", None)]
    assert g.replayed() == g.state


def test_example_3_leaving_the_bed_at_1355_means_no_cure() -> None:
    g = Game()
    g.add("D", hits=3)
    g.healer("S")
    hospital(g)
    g.act("lose-hits", at="13:00", character="D", hits=3)
    g.act("apply-bandage", at="13:10", healer="S", patient="D", bandages=3, place="h1")
    g.act("start-operation", at="13:25", healer="S", patient="D", hospital="h1", table="t1")
    g.act("finish-operation", at="13:40", patient="D", bed="b1", stitches=[{}] * 3)
    g.act("get-up", at="13:55", patient="D")
    g.advance("14:30")
    assert g.ch("D").hits == 0 and g.ch("D").alive


def test_example_4_self_treatment_limits() -> None:
    g = Game()
    g.healer("H", hits=2)
    g.act("register-mat", id="m1", healer="H", length_cm=180, width_cm=60)
    hospital(g)
    g.act("lose-hits", at="10:00", character="H", hits=1)
    g.act("apply-bandage", at="10:05", healer="H", patient="H", bandages=1)  # W-HEAL-10
    g.act("treat-light-wound", at="10:06", healer="H", patient="H", bandages=1, mat="m1")
    g.advance("10:16")
    assert g.ch("H").hits == 2  # W-HEAL-09, W-TRT-03
    g.act("lose-hits", at="11:00", character="H", hits=2)
    with pytest.raises(RuleViolation):  # A-W-09
        g.act("apply-bandage", healer="H", patient="H", bandages=2)
    with pytest.raises(RuleViolation):  # W-HEAL-11 (and heavy: no game actions)
        g.act("start-operation", healer="H", patient="H", hospital="h1", table="t1")
    g.advance("11:15")
    assert not g.ch("H").alive
