"""Healers, field medicine and self-treatment (checklist-000 §2.1, §3.1–§3.3)."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import RuleViolation
from lazaretto.rulesets.warhammer_larp.checks import wound_state
from tests.game import Game


def test_only_a_healer_with_props_may_treat_wounds(g: Game) -> None:
    g.add("N", hits=3)  # no Healer skill
    g.act("lose-hits", at="12:00", character="C", hits=1)
    with pytest.raises(RuleViolation) as err:
        g.act("apply-bandage", healer="N", patient="C", bandages=1, mat="m1")
    assert "W-WND-01" in err.value.rule_ids and "W-DEF-08" in err.value.rule_ids
    g.add("K", hits=3, skills=("Healer",))  # the skill but no checked kit
    with pytest.raises(RuleViolation) as err:
        g.act("apply-bandage", healer="K", patient="C", bandages=1, mat="m1")
    assert "W-DEF-08" in err.value.rule_ids  # W-DEF-08: skill and props
    g.act("apply-bandage", healer="H", patient="C", bandages=1, mat="m1")  # W-WND-01
    assert g.ch("C").condition("light_wound").data["bandaged"]


def test_the_kit_check_lists_what_is_missing(g: Game) -> None:
    g.add("K", hits=3, skills=("Healer",))
    g.act("check-kit", healer="K", items=["needle", "thread"])
    kit = g.ch("K").data["kit"]
    # W-HEAL-01 hourglass, W-HEAL-02 bandages, W-HOSP-19 the rest of the required props
    assert kit["complete"] is False
    assert {"hourglass_10min", "bandages", "plaster", "mask", "gloves"} <= set(kit["missing"])
    g.act("check-kit", healer="K", items=list(g.rs.params.healer_kit))  # type: ignore[attr-defined]
    assert g.ch("K").data["kit"]["complete"] is True


def test_a_healers_book_holds_disease_descriptions(g: Game) -> None:
    g.act("add-to-book", healer="H", code="X-13", description="fever; drip, enema")
    assert g.ch("H").data["book"] == {"X-13": "fever; drip, enema"}  # W-HEAL-03, W-DEF-18
    with pytest.raises(RuleViolation) as err:
        g.act("add-to-book", healer="C", code="X-13")
    assert "W-HEAL-03" in err.value.rule_ids


def test_the_patient_lies_down_while_bandaged(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=1)
    with pytest.raises(RuleViolation) as err:
        g.act("apply-bandage", healer="H", patient="C", bandages=1, mat="m1", lying=False)
    assert err.value.rule_ids == ("W-WND-05",)  # W-WND-05


def test_a_mat_is_required_for_bandaging_in_the_field(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=1)
    with pytest.raises(RuleViolation) as err:
        g.act("apply-bandage", healer="H", patient="C", bandages=1)
    assert "W-WND-06" in err.value.rule_ids  # W-WND-06
    g.act("apply-bandage", healer="H", patient="C", bandages=1, place="h1")  # hospital: no mat
    assert g.ch("C").condition("light_wound").data["bandaged"]


def test_any_healer_may_give_aid_in_the_field(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=1)
    g.act("treat-light-wound", at="12:01", healer="H2", patient="C", bandages=1, mat="m2")
    g.advance("12:11")
    assert g.ch("C").hits == 3  # W-HEAL-04


def test_in_the_field_only_bandaging_and_light_wounds(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=3)
    g.act("apply-bandage", healer="H", patient="C", bandages=3, mat="m1")  # W-HEAL-05: allowed
    with pytest.raises(RuleViolation) as err:
        g.act("treat-light-wound", healer="H", patient="C", bandages=3, mat="m1")
    assert "W-HEAL-05" in err.value.rule_ids  # W-HEAL-05: no heavy-wound treatment
    with pytest.raises(RuleViolation) as err:
        g.act("start-operation", healer="H", patient="C", hospital="field", table="t1")
    assert "W-HEAL-05" in err.value.rule_ids  # W-HEAL-05: no operation


def test_mats_must_be_big_enough_and_not_costume(g: Game) -> None:
    with pytest.raises(RuleViolation) as err:
        g.act("register-mat", id="small", healer="H", length_cm=140, width_cm=50)
    assert err.value.rule_ids == ("W-HEAL-06",)  # W-HEAL-06: 150×50 cm
    with pytest.raises(RuleViolation) as err:
        g.act(
            "register-mat", id="cloak", healer="H", length_cm=200, width_cm=100, costume_item=True
        )
    assert err.value.rule_ids == ("W-HEAL-07",)  # W-HEAL-07


def test_one_patient_per_mat(g: Game) -> None:
    g.add("E", hits=3)
    g.act("lose-hits", at="12:00", character="C", hits=1)
    g.act("lose-hits", at="12:00", character="E", hits=1)
    g.act("treat-light-wound", healer="H", patient="C", bandages=1, mat="m1")
    with pytest.raises(RuleViolation) as err:
        g.act("treat-light-wound", healer="H2", patient="E", bandages=1, mat="m1")
    assert err.value.rule_ids == ("W-HEAL-08",)  # W-HEAL-08


def test_a_healer_treats_their_own_light_wound_on_a_mat_or_in_hospital(g: Game) -> None:
    g.act("lose-hits", at="10:00", character="H", hits=1)
    with pytest.raises(RuleViolation):
        g.act("treat-light-wound", healer="H", patient="H", bandages=1)  # no mat
    g.act("treat-light-wound", at="10:06", healer="H", patient="H", bandages=1, mat="m1")
    g.advance("10:16")
    assert g.ch("H").hits == 2  # W-HEAL-09


def test_a_healer_bandages_themself_anywhere_without_a_mat(g: Game) -> None:
    g.act("lose-hits", at="10:00", character="H", hits=1)
    g.act("apply-bandage", at="10:05", healer="H", patient="H", bandages=1, lying=False)
    assert g.ch("H").condition("light_wound").data["bandaged"]  # W-HEAL-10, A-W-09


def test_a_heavy_wounded_healer_cannot_bandage_themself(g: Game) -> None:
    g.act("lose-hits", at="11:00", character="H", hits=2)
    with pytest.raises(RuleViolation) as err:
        g.act("apply-bandage", healer="H", patient="H", bandages=2)
    assert "A-W-09" in err.value.rule_ids


def test_a_healer_cannot_treat_their_own_heavy_wound(g: Game) -> None:
    g.act("lose-hits", at="11:00", character="H2", hits=3)
    g.act("apply-bandage", healer="H", patient="H2", bandages=3, mat="m1")
    with pytest.raises(RuleViolation) as err:
        g.act("start-operation", healer="H2", patient="H2", hospital="h1", table="t1")
    assert err.value.rule_ids == ("W-HEAL-11",)  # W-HEAL-11
    g.act("start-operation", healer="H", patient="H2", hospital="h1", table="t1")


def test_in_a_hospital_a_healer_does_everything_for_wounds(g: Game) -> None:
    g.add("E", hits=3)
    g.act("lose-hits", at="12:00", character="C", hits=3)
    g.act("lose-hits", at="12:00", character="E", hits=1)
    # W-HEAL-12: bandage, light treatment and operation all in one hospital
    g.act("apply-bandage", healer="H", patient="C", bandages=3, place="h1")
    g.act("treat-light-wound", healer="H", patient="E", bandages=1, place="h1", bed="b1")
    g.act("start-operation", healer="H", patient="C", hospital="h1", table="t1")
    assert wound_state(g.ch("C")) == "heavy_bandaged" and g.ch("C").has("on_table")


def test_a_heavy_wounded_healer_cannot_treat_others(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=1)
    g.act("lose-hits", at="12:00", character="H", hits=2)
    with pytest.raises(RuleViolation) as err:
        g.act("apply-bandage", healer="H", patient="C", bandages=1, mat="m1")
    assert "W-DEF-03" in err.value.rule_ids  # W-DEF-03: no game actions in heavy wound


@pytest.mark.parametrize(
    ("length", "width", "ok"), [(150, 50, True), (149, 50, False), (150, 49, False)]
)
def test_a_mat_of_exactly_150_by_50_cm_is_enough(
    g: Game, length: int, width: int, ok: bool
) -> None:
    if ok:
        g.act("register-mat", id="m", healer="H", length_cm=length, width_cm=width)
        assert "m" in g.state.mats  # W-HEAL-06: 150×50 cm is enough
    else:
        with pytest.raises(RuleViolation) as err:
            g.act("register-mat", id="m", healer="H", length_cm=length, width_cm=width)
        assert err.value.rule_ids == ("W-HEAL-06",)  # W-HEAL-06: smaller is refused
