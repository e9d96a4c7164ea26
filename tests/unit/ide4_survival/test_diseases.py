"""Diseases: the basic scheme, stages, daily progression, treatment, immunity on exposure
(checklist-004 §2.10–2.11)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from lazaretto.core.errors import RuleViolation
from lazaretto.rulesets.ide4_survival.tables import catalogue
from tests.unit.ide4_survival.conftest import Ide, make_sick, when


def stage_of(g: Ide, cid: str, code: str = "basic") -> int:
    case = next(c for c in g.st.cases.values() if c.character == cid and c.disease == code)
    return case.stage if case.status == "sick" else 0


def test_a_disease_is_a_lasting_state_with_cause_symptoms_stages_and_treatment(q: Ide) -> None:
    make_sick(q, "a", "iron_fever", at="08:00")
    q.do("end-day", at="3/23:00")
    q.do("resolve-check", at="3/23:01", check=q.last_check("a").id, outcome="medium")
    case = next(iter(q.st.cases.values()))
    assert case.status == "sick" and q.has("a", "sick")  # I-DIS-01: it lasts past the day
    assert case.source == "" and case.stage == 1 and case.exposed == when("08:00")  # I-DIS-01


def test_every_disease_record_has_the_required_fields() -> None:
    for code, d in catalogue().diseases.items():
        assert d.name.en and d.transmission.en and d.symptoms.en, code  # I-DIS-02
        assert d.penalties_text.en and d.stages.en and d.untreated.en, code  # I-DIS-02
        if d.canonical:
            assert d.treatments, code  # I-DIS-02: treatment
            assert d.incubation_days is not None or d.category != "common", code  # I-DIS-02


def test_the_basic_scheme_risk_immunity_failure_sick(q: Ide) -> None:
    q.do(
        "expose",
        at="08:00",
        characters=["a", "b"],
        disease="basic",
        difficulty=3,
        outcome="failure",
    )
    assert q.has("a", "sick")  # I-DIS-03: on Failure, "sick"
    assert q.last_check("a").skill == "Immunity" and q.last_check("a").difficulty == 3  # I-DIS-03
    q.do("expose", at="08:00", characters=["b"], disease="basic", difficulty=3, outcome="medium")


def test_every_day_the_disease_passes_or_worsens(q: Ide) -> None:
    make_sick(q, "a", "basic")
    make_sick(q, "b", "basic")
    q.do("end-day", at="23:00")
    pa, pb = (k for k in q.checks() if k.pending)
    q.do("resolve-check", at="23:01", check=pa.id, outcome="failure")
    q.do("resolve-check", at="23:01", check=pb.id, outcome="success")
    assert stage_of(q, "a") == 2  # I-DIS-04: worse
    assert not q.has("b", "sick")  # I-DIS-04: it passes (stage 1, A-I-17)


def test_treatment_gives_a_reroll_lowers_the_difficulty_or_removes_a_stage(q: Ide) -> None:
    make_sick(q, "a", "basic")
    q.do("end-day", at="23:00")
    q.do("resolve-check", at="23:01", check=q.last_check("a").id, outcome="tragedy")
    assert stage_of(q, "a") == 3
    q.do("treat-disease", at="2/08:00", character="a", disease="basic", effect="lower_stage")
    assert stage_of(q, "a") == 2  # I-DIS-05: removes a stage
    q.do("treat-disease", at="2/08:10", character="a", disease="basic", effect="lower_difficulty")
    q.do("treat-disease", at="2/08:20", character="a", disease="basic", effect="immunity_reroll")
    q.do("end-day", at="2/23:00")
    rec = q.last_check("a")
    assert rec.base == 1  # I-DIS-05: the risk [2] − 1
    q.do("resolve-check", at="2/23:01", check=rec.id, outcome="failure")
    q.do(
        "use-reroll", at="2/23:02", character="a", kind="immunity", check=rec.id, outcome="success"
    )
    assert stage_of(q, "a") == 1  # I-DIS-05: the Immunity reroll turned worse into better


def test_stage_one_malaise(g: Ide) -> None:
    g.do("eat-meal", at="07:30")
    make_sick(g, "a", "basic", at="08:00")
    case = next(iter(g.st.cases.values()))
    assert not [r for r in g.sv("a").rerolls if r.kind == "meal"]  # I-DIS-06: reroll lost
    g.do("d100-check", at="08:10", character="a", skill="Athletics", outcome="success")
    assert g.last_check("a").difficulty == 1 and case.stage1_group == "body"  # I-DIS-06: +1
    g.do("make-camp", at="21:00", characters=["a"], camp="normal")
    g.do("plan-sleep", at="21:00", characters=["a"], rolled=[9, 9, 9])
    g.do("go-to-sleep", at="21:00", characters=["a"], hours=9)
    g.to("2/06:00")
    last = g.sv("a").last_sleep
    assert last is not None and last.camp == "bad"  # I-DIS-06: bad sleep


def test_stage_two_illness(q: Ide) -> None:
    make_sick(q, "a", "iron_fever", at="08:00")
    q.do("end-day", at="3/23:00")
    q.do("resolve-check", at="3/23:01", check=q.last_check("a").id, outcome="failure")
    assert stage_of(q, "a", "iron_fever") == 2
    q.do("d100-check", at="3/23:10", character="a", skill="Attention", outcome="success")
    shifts = {s.source: s.amount for s in q.last_check("a").shifts}
    assert shifts["stage:2"] == 1  # I-DIS-07: +1 to related checks (A-I-17: +1 by default)
    assert q.has("a", "tired")  # I-DIS-07: fatigue
    assert "an active disease" in q.ask("recovery", character="a")["worse"]  # I-DIS-07
    q.do("start-exposure", at="3/23:20", characters=["b"], kind="sick_contact", contact="a")
    assert next(iter(q.st.exposures.values())).disease == "iron_fever"  # I-DIS-07: contagious


def test_stage_three_dangerous(q: Ide) -> None:
    make_sick(q, "a", "basic")
    q.do("end-day", at="23:00")
    evs = q.do("resolve-check", at="23:01", check=q.last_check("a").id, outcome="tragedy")
    assert stage_of(q, "a") == 3
    assert any(
        e.kind == "risk.noted" and e.payload["what"] == "health_loss_help_needed" for e in evs
    )  # I-DIS-08: health loss, help needed
    with pytest.raises(RuleViolation) as err:
        q.do("d100-check", at="23:10", character="a", skill="Athletics", tags=["heavy"])
    assert "I-DIS-08" in err.value.rule_ids  # I-DIS-08: heavy actions forbidden


def test_stage_four_without_treatment_is_death(q: Ide) -> None:
    make_sick(q, "a", "basic")
    q.do("end-day", at="23:00")
    q.do("resolve-check", at="23:01", check=q.last_check("a").id, outcome="tragedy")
    q.do("end-day", at="2/23:00")
    q.do("resolve-check", at="2/23:01", check=q.last_check("a").id, outcome="failure")
    assert stage_of(q, "a") == 4
    q.do("end-day", at="3/23:00")
    q.do("resolve-check", at="3/23:01", check=q.last_check("a").id, outcome="failure")
    assert not q.ch("a").alive  # I-DIS-09: death
    g = Ide(params={"stage4_failure_result": "irreversible_consequence", "meal_mode": "quick"})
    g.add("a")
    make_sick(g, "a", "basic")
    for d in (1, 2, 3):
        g.do("end-day", at=f"{d}/23:00")
        g.do("resolve-check", at=f"{d}/23:01", check=g.last_check("a").id, outcome="tragedy")
    assert g.ch("a").alive and g.has("a", "irreversible")  # I-DIS-09: or an irreversible one


def test_the_infection_check_and_what_its_difficulty_depends_on(q: Ide) -> None:
    q.do("end-march", at="07:00", characters=["a"], pace="forced")  # very tired
    q.do(
        "expose",
        at="08:00",
        characters=["a", "b"],
        disease="basic",
        difficulty=2,
        modifiers=[{"reason": "long contact", "amount": 1}, {"reason": "mask", "amount": -1}],
        outcome="success",
    )
    a, b = q.last_check("a"), q.last_check("b")
    assert a.skill == b.skill == "Immunity"  # I-DIS-10
    assert b.difficulty == 2  # I-DIS-10: strength, contact, protection
    assert a.difficulty == 3  # I-DIS-10: … and the character's state (fatigue)


def test_treatment_can_cure_stop_worsening_or_buy_time(q: Ide) -> None:
    make_sick(q, "a", "basic")
    q.do("treat-disease", at="09:00", character="a", disease="basic", effect="stop_worsening")
    q.do("end-day", at="23:00")
    q.do("resolve-check", at="23:01", check=q.last_check("a").id, outcome="tragedy")
    assert stage_of(q, "a") == 1  # I-DIS-11: stop the worsening
    q.do("treat-disease", at="2/09:00", character="a", disease="basic", effect="remove_symptom")
    assert next(iter(q.st.cases.values())).relieved  # I-DIS-11: remove a symptom
    make_sick(q, "b", "succubus_dance", at="2/09:30")
    death = next(c for c in q.st.cases.values() if c.character == "b").death_at
    assert death is not None
    q.do(
        "treat-disease",
        at="2/10:00",
        character="b",
        disease="succubus_dance",
        effect="buy_time",
        days=2,
    )
    after = next(c for c in q.st.cases.values() if c.character == "b").death_at
    assert after == death + timedelta(days=2)  # I-DIS-11: buy time
    q.do(
        "treat-disease",
        at="2/11:00",
        character="a",
        disease="basic",
        effect="cure",
        kind="medicine",
    )
    assert not q.has("a", "sick")  # I-DIS-11: cure completely


def test_folk_methods_ease_buy_time_lower_difficulty_and_carry_a_risk(q: Ide) -> None:
    make_sick(q, "a", "basic")
    evs = q.do(
        "treat-disease",
        at="09:00",
        character="a",
        disease="basic",
        effect="lower_difficulty",
        kind="folk",
        risk=True,
    )
    assert any(e.kind == "risk.noted" and e.payload["what"] == "folk_risk" for e in evs)  # I-DIS-12
    assert next(iter(q.st.cases.values())).check_modifier == -1  # I-DIS-12


def test_full_cures_only_where_the_setting_has_them() -> None:
    g = Ide(params={"full_cure_available": ["medicine"], "meal_mode": "quick"})
    g.add("a")
    make_sick(g, "a", "basic")
    with pytest.raises(RuleViolation) as err:
        g.do(
            "treat-disease", at="09:00", character="a", disease="basic", effect="cure", kind="magic"
        )
    assert "I-DIS-13" in err.value.rule_ids  # I-DIS-13
    g.do(
        "treat-disease", at="09:00", character="a", disease="basic", effect="cure", kind="medicine"
    )
    assert not g.has("a", "sick")  # I-DIS-13


def test_the_catalogue_may_grow_but_drops_need_the_gm(q: Ide) -> None:
    assert sum(1 for d in catalogue().diseases.values() if d.canonical) == 8  # I-DIS-14
    q.do(
        "add-disease",
        code="grey_pox",
        name_en="Grey Pox",
        name_ru="Серая оспа",
        transmission="touch",
        incubation_min=1,
        incubation_max=1,
        symptoms="grey skin",
        penalties=[{"target": "group:sociality", "amount": 1}],
        treatment="rest",
        untreated="scars",
    )
    assert "grey_pox" in q.ask("diseases")  # I-DIS-14: a project may add diseases
    with pytest.raises(RuleViolation) as err:
        q.do("drop-disease", code="iron_fever")
    assert "I-DIS-14" in err.value.rule_ids  # I-DIS-14: not without the GM's decision
    q.do("drop-disease", code="iron_fever", gm_decision=True)
    assert "iron_fever" not in q.ask("diseases")  # I-DIS-14


def test_the_immunity_check_comes_after_the_incubation(q: Ide) -> None:
    q.do("expose", at="08:00", characters=["a"], disease="putrid_throat", difficulty=3)
    assert not q.checks("a")  # I-IMM-01: not immediately
    cond = q.ch("a").condition("incubating")
    assert cond is not None and cond.visibility.value == "masters"
    assert cond.deadline in (when("4/08:00"), when("5/08:00"))  # I-IMM-01: 3–4 days
    q.to_time(cond.deadline)
    assert q.last_check("a").skill == "Immunity"  # I-IMM-01


def test_checks_repeat_while_the_conditions_last(q: Ide) -> None:
    q.do("start-exposure", at="08:00", characters=["a"], kind="wet", disease="basic")
    q.to("09:00")
    assert len(q.checks("a")) == 6  # I-IMM-02: unlimited while it lasts; I-IMM-05: every 10 min
    q.do("end-exposure", at="09:00", characters=["a"])
    q.to("10:00")
    assert len(q.checks("a")) == 6  # I-IMM-02


def test_cold_without_warm_clothes_checks_every_20_minutes(q: Ide) -> None:
    q.do("start-exposure", at="08:00", characters=["a"], kind="cold_no_clothes", disease="basic")
    q.to("09:00")
    assert [k.at for k in q.checks("a")] == [
        when("08:20"),
        when("08:40"),
        when("09:00"),
    ]  # I-IMM-03


def test_cold_in_warm_clothes_checks_every_30_minutes_after_5_hours(q: Ide) -> None:
    q.do("start-exposure", at="08:00", characters=["a"], kind="cold_warm_clothes", disease="basic")
    q.to("13:00")
    assert not q.checks("a")  # I-IMM-04: nothing for 5 hours
    q.to("14:00")
    assert [k.at for k in q.checks("a")] == [when("13:30"), when("14:00")]  # I-IMM-04


def test_wet_outside_a_hot_area_checks_every_10_minutes(q: Ide) -> None:
    q.do("start-exposure", at="08:00", characters=["a"], kind="wet", disease="basic")
    q.to("08:30")
    assert len(q.checks("a")) == 3  # I-IMM-05
    with pytest.raises(RuleViolation) as err:
        q.do(
            "start-exposure",
            at="08:30",
            characters=["b"],
            kind="wet",
            disease="basic",
            hot_area=True,
        )
    assert "I-IMM-05" in err.value.rule_ids  # I-IMM-05: not in a hot area


def test_contact_with_the_sick_without_protection_checks_every_10_minutes(q: Ide) -> None:
    make_sick(q, "a", "basic")
    q.do("start-exposure", at="09:00", characters=["b"], kind="sick_contact", contact="a")
    q.to("09:20")
    assert len(q.checks("b")) == 2  # I-IMM-06
    with pytest.raises(RuleViolation) as err:
        q.do(
            "start-exposure",
            at="09:20",
            characters=["b"],
            kind="sick_contact",
            contact="a",
            protected=True,
        )
    assert "I-IMM-06" in err.value.rule_ids  # I-IMM-06: without protection only


def test_conditions_add_up(q: Ide) -> None:
    q.do("start-exposure", at="08:00", characters=["a"], kind="wet", disease="basic")
    q.do("start-exposure", at="08:00", characters=["a"], kind="cold_no_clothes", disease="basic")
    q.to("09:00")
    assert len(q.checks("a")) == 9  # I-IMM-07: 6 wet + 3 cold, independent schedules (A-I-19)
    g = Ide(params={"immunity_conditions_stack": "difficulty", "meal_mode": "quick"})
    g.add("a")
    g.do("start-exposure", at="08:00", characters=["a"], kind="wet", disease="basic", difficulty=1)
    g.do(
        "start-exposure",
        at="08:00",
        characters=["a"],
        kind="cold_no_clothes",
        disease="basic",
        difficulty=1,
    )
    g.to("09:00")
    checks = g.checks("a")
    assert len(checks) == 6 and {k.difficulty for k in checks} == {2}  # I-IMM-07, A-I-19


def _stage_two_then_three(g: Ide) -> None:
    """Stage 2 (tired, I-DIS-07), the tiredness slept off, then worse: stage 3."""
    make_sick(g, "a", "basic")
    g.do("end-day", at="23:00")
    g.do("resolve-check", at="23:01", check=g.last_check("a").id, outcome="failure")
    assert stage_of(g, "a") == 2 and g.has("a", "tired")  # I-DIS-07: «усталость»
    g.do("rest", at="2/08:00", characters=["a"], hours=1)
    assert not g.has("a", "tired")  # I-COND-05: an hour of rest ends it
    g.do("end-day", at="2/23:00")
    g.do("resolve-check", at="2/23:01", check=g.last_check("a").id, outcome="failure")
    assert stage_of(g, "a") == 3


def test_stage_two_fatigue_once_rested_off_does_not_return_at_stage_three(q: Ide) -> None:
    _stage_two_then_three(q)
    assert not q.has("a", "tired")  # I-DIS-08: stage 3's list names no fatigue (default)


def test_fatigue_may_return_with_each_worsening_as_the_alternative() -> None:
    g = Ide(params={"meal_mode": "quick", "disease_fatigue_on_worsening": True})
    g.add("a")
    g.do("morning")
    _stage_two_then_three(g)
    assert g.has("a", "tired")  # I-DIS-07 alternative: the worse illness tires again


def test_jumping_from_stage_one_to_three_brings_stage_twos_fatigue(q: Ide) -> None:
    make_sick(q, "a", "basic")
    q.do("end-day", at="23:00")
    q.do("resolve-check", at="23:01", check=q.last_check("a").id, outcome="tragedy")
    assert stage_of(q, "a") == 3 and q.has("a", "tired")  # I-DIS-07: passed through stage 2
