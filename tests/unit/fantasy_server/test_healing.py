"""Healing: physical, magical and spiritual healing, the trauma treatment lists,
constructs and regeneration (checklist-002 §2.15–§2.17, §2.20, §2.21)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from lazaretto.core.character import Visibility
from lazaretto.core.engine import run_query
from lazaretto.core.errors import RuleViolation
from lazaretto.rulesets.fantasy_server.tables import traumas
from tests.game import t
from tests.unit.fantasy_server.conftest import FGame


def day(n: int, hhmm: str = "10:00") -> datetime:
    """``hhmm`` on the n-th game day after the test day."""
    return t(hhmm) + timedelta(days=n)


@pytest.fixture
def ward(g: FGame) -> FGame:
    g.pc("H", INT=10, MAG=10, healing_skill_level=2)  # a healer
    g.pc("P", hp=30, WIL=5)  # a patient
    return g


def trauma(g: FGame, key: str, who: str = "P", **kw: Any) -> str:
    g.act("give-trauma", character=who, trauma=key, **kw)
    return str(g.last("condition.added")["condition"]["data"]["id"])


def treat(g: FGame, tid: str, when: datetime, roll: int | None = None, **kw: Any) -> str:
    """Run heal-trauma; returns the last event kind it produced."""
    kw.setdefault("healer", "H")
    kw.setdefault("patient", "P")
    evs = g.act_at(when, "heal-trauma", trauma=tid, roll=roll, **kw)
    return evs[-1].kind


def has(g: FGame, tid: str, who: str = "P") -> bool:
    return any(c.data.get("id") == tid for c in g.ch(who).conditions)


def refused(g: FGame, action: str, **kw: Any) -> tuple[str, ...]:
    with pytest.raises(RuleViolation) as err:
        g.act(action, **kw)
    return err.value.rule_ids


# --- general -----------------------------------------------------------------------------


def test_healing_is_physical_magical_or_spiritual(ward: FGame) -> None:
    ward.act("lose-hp", character="P", amount=10)
    ward.act("heal-physically", patient="P", amount=2, means="bandage")
    ward.act("heal-magically", patient="P", healer="H", amount=3)
    ward.act("heal-spiritually", patient="P", healer="H", how="meditation")
    means = [e.payload["means"] for e in ward.events if e.kind == "hp.healed"]
    assert means == ["bandage", "spell"]  # S-HEAL-01
    assert "S-HEAL-01" in ward.rules("heal.spiritual_recorded")  # S-HEAL-01: spiritual too


def test_anyone_may_heal_physically_even_without_skills(ward: FGame) -> None:
    ward.pc("N")  # no skills at all
    ward.act("lose-hp", character="P", amount=10)
    ward.act("heal-physically", patient="P", healer="N", amount=4, means="medication")
    assert ward.ch("P").hits == 24  # S-HEAL-02
    tid = trauma(ward, "minor_scar")
    treat(ward, tid, day(0), roll=10, healer="N")  # S-HEAL-02: no skill needed
    assert ward.last("treatment.rolled")["healer"] == "N"


def test_physical_healing_is_bandages_medicine_surgery_fractures_and_more(ward: FGame) -> None:
    ward.act("lose-hp", character="P", amount=20)
    for means in ("bandage", "medication", "surgery", "fracture_setting", "other"):
        ward.act("heal-physically", patient="P", amount=1, means=means)
    assert ward.ch("P").hits == 15  # S-HEAL-04
    assert "S-HEAL-04" in ward.rules("hp.healed")


def test_reduced_magic_allows_only_physical_healing(ward: FGame) -> None:
    ward.pc("R", reduced_magic=True)
    ward.act("lose-hp", character="R", amount=10)
    ward.act("heal-physically", patient="R", amount=5)
    assert "S-HEAL-03" in ward.rules("hp.healed")  # S-HEAL-03
    assert refused(ward, "heal-magically", patient="R", healer="H", amount=5) == ("S-HEAL-06",)
    assert refused(ward, "drink-potion", character="R", heals=5) == ("S-HEAL-06",)  # S-HEAL-06
    tid = trauma(ward, "lameness", who="R")
    rules = refused(ward, "heal-trauma", healer="H", patient="R", trauma=tid, method="magical")
    assert rules == ("S-HEAL-06",)  # S-HEAL-06


MAGICAL = [
    ("heal-magically", {"patient": "P", "healer": "H", "amount": 2, "means": "spell"}),
    ("heal-magically", {"patient": "P", "healer": "H", "amount": 2, "means": "ritual"}),
    ("heal-magically", {"patient": "P", "healer": "H", "amount": 2, "means": "other"}),
    ("drink-potion", {"character": "P", "heals": 2}),
]


def recorded(g: FGame) -> list[int]:
    """The HP each magical healing put into the mutation window (S-MUT-01)."""
    return [e.payload["amount"] for e in g.events if e.kind == "magic_heal.recorded"]


def test_magical_healing_is_spells_rituals_potions(ward: FGame) -> None:
    ward.act("lose-hp", character="P", amount=20)
    hits = ward.ch("P").hits
    for n, (action, kw) in enumerate(MAGICAL, 1):
        ward.act(action, **kw)
        healed = ward.last("hp.healed")
        assert healed["restored"] == 2 and ward.ch("P").hits == hits + 2  # S-HEAL-07
        assert "S-HEAL-07" in ward.rules("hp.healed"), action  # S-HEAL-07: it is magical
        assert recorded(ward) == [2] * n  # S-HEAL-07: it counts as magic (S-MUT-01)
        hits += 2
    ward.act("heal-physically", patient="P", amount=2, means="bandage")
    assert "S-HEAL-07" not in ward.rules("hp.healed")  # S-HEAL-07: a bandage is not magic
    assert recorded(ward) == [2] * len(MAGICAL)  # and adds nothing to the window


@pytest.mark.parametrize(("action", "kw"), MAGICAL)
def test_every_magical_means_is_barred_by_reduced_magic(
    ward: FGame, action: str, kw: dict[str, Any]
) -> None:
    ward.act("lose-hp", character="P", amount=10)
    ward.act("set-sheet", character="P", reduced_magic=True)
    assert refused(ward, action, **kw) == ("S-HEAL-06",)  # S-HEAL-07: magical, so barred
    assert ward.ch("P").hits == 20


def test_trauma_treatments_follow_the_guideline_table_the_gm_can_consult(ward: FGame) -> None:
    tid = trauma(ward, "broken_ribs")
    assert ward.rules("condition.added") == ("S-HEAL-05", "A-S-24")  # S-HEAL-05
    plan = run_query(ward.rs, ward.state, "treatment-plan", {"patient": "P", "trauma": tid})
    assert plan["methods"]["physical"]["plan"] == "INT vs hard (24) after 24 h"  # A-S-02
    assert plan["methods"]["magical"]["plan"] == "MAG vs hard (24) after 3 h"
    assert refused(ward, "give-trauma", character="P", trauma="gout") == ("A-S-24",)


def test_spiritual_healing_is_role_play_for_anyone(ward: FGame) -> None:
    ward.pc("N")
    ward.act("heal-spiritually", patient="P", healer="N", how="talk", note="about the war")
    out = ward.last("heal.spiritual_recorded")
    assert out["healer"] == "N" and out["note"] == "about the war"  # S-HEAL-09
    ward.act("heal-spiritually", patient="P", how="narcotic_preparation")


# --- physical treatment of traumas -------------------------------------------------------


def test_a_minor_scar_needs_four_medium_int_successes_one_roll_a_day(ward: FGame) -> None:
    tid = trauma(ward, "minor_scar")
    treat(ward, tid, day(0), roll=8)  # 18 ≥ medium
    with pytest.raises(RuleViolation) as err:
        treat(ward, tid, day(0, "20:00"), roll=8)
    assert err.value.rule_ids == ("S-PHEAL-01", "A-S-21")  # S-PHEAL-01: one roll a day
    treat(ward, tid, day(1), roll=2)  # a failed day does not count (A-S-21)
    treat(ward, tid, day(2), roll=15)
    treat(ward, tid, day(3), roll=15)
    assert has(ward, tid) and ward.last("treatment.rolled")["progress"] == "3/4"
    treat(ward, tid, day(4), roll=15)
    assert not has(ward, tid)  # S-PHEAL-01: healed after four successes


def test_a_festering_wound_is_a_hard_int_roll_after_a_day_and_a_failure_costs_1_hp(
    ward: FGame,
) -> None:
    tid = trauma(ward, "festering_wound")
    assert treat(ward, tid, day(0)) == "treatment.opened"  # A-S-23: the roll is at the end
    with pytest.raises(RuleViolation):
        treat(ward, tid, day(0, "23:00"), roll=14)
    treat(ward, tid, day(1), roll=13)  # 23 < hard (24)
    assert ward.ch("P").hits == 29  # S-PHEAL-02: a failure costs the patient 1 HP
    with pytest.raises(RuleViolation):
        treat(ward, tid, day(1, "12:00"), roll=14)  # A-S-23: retried the next day
    treat(ward, tid, day(2), roll=14)
    assert not has(ward, tid)  # S-PHEAL-02


def test_the_festering_wound_alternative_is_ten_int_18_checks_every_24_hours(ward: FGame) -> None:
    tid = trauma(ward, "festering_wound")
    treat(ward, tid, day(0), roll=7, method="physical_alt")  # 17 < 18: no HP lost (A-S-23)
    assert ward.ch("P").hits == 30
    with pytest.raises(RuleViolation) as err:
        treat(ward, tid, day(1, "09:59"), roll=8, method="physical_alt")
    assert err.value.rule_ids == ("S-PHEAL-03", "A-S-23")  # S-PHEAL-03: every 24 hours
    for n in range(1, 11):
        treat(ward, tid, day(n), roll=8, method="physical_alt")
    assert not has(ward, tid)  # S-PHEAL-03: ten successes


def test_broken_ribs_need_a_hard_int_roll_then_two_days_without_heavy_work(ward: FGame) -> None:
    tid = trauma(ward, "broken_ribs")
    treat(ward, tid, day(0))
    treat(ward, tid, day(1), roll=14)
    assert not has(ward, tid)  # S-PHEAL-04
    rest = ward.ch("P").condition("no_heavy_work")
    assert rest is not None and rest.deadline == day(3)  # S-PHEAL-04: two days
    ward.advance_at(day(3))
    assert not ward.ch("P").has("no_heavy_work")


def test_an_internal_injury_needs_int_26_then_a_day_without_heavy_work(ward: FGame) -> None:
    tid = trauma(ward, "internal_injury")
    treat(ward, tid, day(0))
    treat(ward, tid, day(1), roll=15)
    assert has(ward, tid) and ward.checks()[-1]["threshold"] == 26  # S-PHEAL-05: 25 < 26
    treat(ward, tid, day(2), roll=16)
    rest = ward.ch("P").condition("no_heavy_work")
    assert not has(ward, tid) and rest is not None and rest.deadline == day(3)  # S-PHEAL-05


def test_lameness_takes_three_days_and_a_hard_int_roll(ward: FGame) -> None:
    tid = trauma(ward, "lameness")
    treat(ward, tid, day(0))
    with pytest.raises(RuleViolation):
        treat(ward, tid, day(2), roll=14)
    treat(ward, tid, day(3), roll=14)
    assert not has(ward, tid)  # S-PHEAL-06


@pytest.mark.parametrize(
    ("key", "rule", "remedy"),
    [
        ("terrible_scar", "S-PHEAL-07", "smoothed outwardly"),
        ("lost_leg", "S-PHEAL-08", "prosthesis"),
        ("lost_arm", "S-PHEAL-09", "prosthesis"),
        ("lost_eye", "S-PHEAL-10", "eyepatch"),
    ],
)
def test_some_traumas_cannot_be_healed_physically(
    ward: FGame, key: str, rule: str, remedy: str
) -> None:
    tid = trauma(ward, key)
    with pytest.raises(RuleViolation) as err:
        treat(ward, tid, day(0), roll=20)
    assert err.value.rule_ids == (rule,) and remedy in err.value.message  # S-PHEAL-07..10


def test_a_burn_is_a_day_of_care_and_a_medium_int_roll(ward: FGame) -> None:
    tid = trauma(ward, "burn")
    treat(ward, tid, day(0))
    treat(ward, tid, day(1), roll=8)
    assert not has(ward, tid)  # S-PHEAL-11


def test_a_terrible_burn_sums_daily_int_rolls_to_66_without_rerolls(ward: FGame) -> None:
    tid = trauma(ward, "terrible_burn")
    treat(ward, tid, day(0), roll=12)  # 22
    with pytest.raises(RuleViolation) as err:
        ward.act_at(day(0, "11:00"), "heal-trauma", healer="H", patient="P", trauma=tid,
                    roll=12)  # fmt: skip
    assert err.value.rule_ids == ("S-PHEAL-12", "A-S-22")  # one roll a day
    treat(ward, tid, day(1), roll=12)  # 44
    assert ward.last("treatment.rolled")["progress"] == "44/66"  # A-S-22
    treat(ward, tid, day(2), roll=11)  # 65
    assert has(ward, tid)
    with pytest.raises(RuleViolation) as err:
        treat(ward, tid, day(2, "10:05"), roll=20, reroll=True)
    assert err.value.rule_ids == ("S-PHEAL-12", "S-CRIT-05")  # S-PHEAL-12: no reroll
    treat(ward, tid, day(3), roll=1)  # 76 ≥ 66 (a fumble still adds its total)
    assert not has(ward, tid)  # S-PHEAL-12


def test_a_failed_single_roll_may_be_rerolled_the_same_day_unless_it_was_a_fumble(
    ward: FGame,
) -> None:
    tid = trauma(ward, "burn")
    treat(ward, tid, day(0))
    treat(ward, tid, day(1), roll=5)  # 15 < medium
    treat(ward, tid, day(1, "10:05"), roll=9, reroll=True)
    assert not has(ward, tid) and ward.checks()[-1]["reroll"]  # the reroll rule
    other = trauma(ward, "burn")
    treat(ward, other, day(1, "11:00"))
    treat(ward, other, day(2, "11:00"), roll=1)
    with pytest.raises(RuleViolation) as err:
        treat(ward, other, day(2, "11:05"), roll=15, reroll=True)
    assert err.value.rule_ids == ("S-CRIT-05", "S-CRIT-03")  # S-CRIT-05


def test_artificial_blindness_is_one_condition_of_a_combined_treatment(ward: FGame) -> None:
    tid = trauma(ward, "artificial_blindness", combined_conditions=["eye drops"])
    for n in range(3):
        treat(ward, tid, day(n), roll=15)  # 25 a day
    assert has(ward, tid)  # S-PHEAL-13: 75 ≥ 70 fulfils one condition, not all
    cond = next(c for c in ward.ch("P").conditions if c.data.get("id") == tid)
    assert cond.data["combined"] == {"treatment": True, "eye drops": False}
    ward.act("fulfil-combined-condition", patient="P", trauma=tid, condition="eye drops")
    assert not has(ward, tid)  # A-S-24: all conditions fulfilled
    assert refused(ward, "give-trauma", character="P", trauma="nope") == ("A-S-24",)


def test_silver_burning_ten_int_18_successes_failures_cost_hp_and_can_kill(g: FGame) -> None:
    g.pc("H", INT=10)
    g.pc("P", hp=2)
    tid = trauma(g, "silver_burning")
    treat(g, tid, day(0), roll=8)
    assert g.last("treatment.rolled")["progress"] == "1/10"  # S-PHEAL-14
    treat(g, tid, day(1), roll=3)
    assert g.ch("P").hits == 1  # S-PHEAL-14: a failure costs 1 HP
    treat(g, tid, day(2), roll=3)
    assert not g.ch("P").alive  # S-PHEAL-14: at 0 the character dies
    assert g.replayed() == g.state


# --- magical treatment of traumas --------------------------------------------------------


def test_a_minor_scar_and_a_festering_wound_take_a_medium_mag_roll(ward: FGame) -> None:
    scar, wound = trauma(ward, "minor_scar"), trauma(ward, "festering_wound")
    treat(ward, scar, day(0), roll=8, method="magical")
    assert not has(ward, scar)  # S-MHEAL-01
    treat(ward, wound, day(0), roll=7, method="magical")
    assert has(ward, wound)
    treat(ward, wound, day(1), roll=8, method="magical")
    assert not has(ward, wound)  # S-MHEAL-02


def test_magic_turns_a_terrible_scar_into_a_minor_one_after_several_hours(ward: FGame) -> None:
    tid = trauma(ward, "terrible_scar")
    assert treat(ward, tid, day(0), method="magical") == "treatment.opened"
    treat(ward, tid, day(0, "13:00"), roll=14, method="magical")
    keys = [c.data["key"] for c in ward.ch("P").conditions if c.kind == "trauma"]
    assert keys == ["minor_scar"]  # S-MHEAL-03


def test_magic_mends_broken_ribs_then_a_day_without_heavy_work(ward: FGame) -> None:
    tid = trauma(ward, "broken_ribs")
    treat(ward, tid, day(0), method="magical")
    treat(ward, tid, day(0, "13:00"), roll=14, method="magical")
    rest = ward.ch("P").condition("no_heavy_work")
    assert not has(ward, tid) and rest is not None and rest.deadline == day(1, "13:00")
    assert "S-MHEAL-04" in ward.rules("treatment.rolled")  # S-MHEAL-04


def test_magic_heals_an_internal_injury_with_the_rest_of_the_day_off(ward: FGame) -> None:
    tid = trauma(ward, "internal_injury")
    treat(ward, tid, day(0), method="magical")
    treat(ward, tid, day(0, "13:00"), roll=14, method="magical")
    rest = ward.ch("P").condition("no_heavy_work")
    assert rest is not None and rest.deadline == day(1, "00:00")  # S-MHEAL-05: today


def test_magic_heals_lameness_within_an_hour(ward: FGame) -> None:
    tid = trauma(ward, "lameness")
    treat(ward, tid, day(0), method="magical")
    treat(ward, tid, day(0, "11:00"), roll=8, method="magical")
    assert not has(ward, tid)  # S-MHEAL-06


@pytest.mark.parametrize(
    ("key", "rule", "total"),
    [
        ("lost_leg", "S-MHEAL-07", 145),
        ("lost_arm", "S-MHEAL-08", 145),
        ("lost_eye", "S-MHEAL-09", 130),
    ],
)
def test_lost_limbs_and_eyes_regrow_by_summed_daily_mag_rolls(
    ward: FGame, key: str, rule: str, total: int
) -> None:
    tid = trauma(ward, key)
    n = 0
    while has(ward, tid):
        treat(ward, tid, day(n), roll=15, method="magical")  # 25 a day
        n += 1
    assert n == -(-total // 25)  # S-MHEAL-07..09: cumulative, one roll a day
    assert rule in ward.rules("treatment.rolled")


@pytest.mark.parametrize(
    ("key", "rule", "rolls"),
    [  # MAG 10 + the die, summed: the last roll before the end leaves it one short
        ("lost_leg", "S-MHEAL-07", [19, 19, 19, 19, 18, 2]),  # 144, then 156 ≥ 145
        ("lost_arm", "S-MHEAL-08", [19, 19, 19, 19, 18, 2]),
        ("lost_eye", "S-MHEAL-09", [19, 19, 19, 19, 3, 2]),  # 129, then 141 ≥ 130
    ],
)
def test_a_lost_limb_regrows_exactly_when_the_sum_reaches_its_threshold(
    ward: FGame, key: str, rule: str, rolls: list[int]
) -> None:
    tid = trauma(ward, key)
    total = 0
    need = sum(10 + r for r in rolls[:-1]) + 1
    for n, roll in enumerate(rolls):
        assert has(ward, tid), (rule, n)
        treat(ward, tid, day(n), roll=roll, method="magical")
        total += 10 + roll
        if n < len(rolls) - 1:
            assert ward.last("treatment.rolled")["progress"] == f"{total}/{need}"  # rule
    assert not has(ward, tid)  # rule: the sum reached the threshold


@pytest.mark.parametrize(("rolls", "done"), [([15, 15, 10], True), ([15, 14, 10], False)])
def test_artificial_blindness_needs_70_summed_int(
    ward: FGame, rolls: list[int], done: bool
) -> None:
    tid = trauma(ward, "artificial_blindness", combined_conditions=["eye drops"])
    for n, roll in enumerate(rolls):
        treat(ward, tid, day(n), roll=roll)  # INT 10 + the die: 70, or 69
    cond = next(c for c in ward.ch("P").conditions if c.data.get("id") == tid)
    assert cond.data["combined"]["treatment"] is done  # S-PHEAL-13: INT 70 cumulative


def test_the_misknit_rows_threshold_is_the_parameters() -> None:
    row = traumas()["misknit"].physical
    assert row is not None and row.threshold == FGame().p.mutation_misknit_fix_threshold == 28


def test_limbs_need_a_level_2_healer_or_a_critical_success(g: FGame) -> None:
    g.pc("L", MAG=10, healing_skill_level=1)
    g.pc("P")
    tid = trauma(g, "lost_arm")
    treat(g, tid, day(0), roll=19, healer="L", method="magical")
    assert g.last("treatment.rolled")["progress"] == "0/145"  # S-CLAR-04: it does not count
    treat(g, tid, day(1), roll=20, healer="L", method="magical")
    assert g.last("treatment.rolled")["progress"] == "30/145"  # S-CLAR-04: a crit counts
    assert "S-CLAR-04" in g.rules("treatment.rolled")


def test_a_magical_disturbance_is_a_combined_hard_mag_treatment(ward: FGame) -> None:
    tid = trauma(ward, "magical_disturbance", combined_conditions=["ritual of cleansing"])
    treat(ward, tid, day(0), method="magical")
    treat(ward, tid, day(0, "11:00"), roll=14, method="magical")
    assert has(ward, tid)  # S-MHEAL-10: one condition of its treatment
    ward.act("fulfil-combined-condition", patient="P", trauma=tid, condition="ritual of cleansing")
    assert not has(ward, tid)
    assert refused(ward, "heal-trauma", healer="H", patient="P", trauma=trauma(ward, "burn"),
                   method="magical") == ("A-S-24", "S-HEAL-05")  # fmt: skip


def test_magical_burning_takes_a_day_and_a_hard_mag_roll(ward: FGame) -> None:
    tid = trauma(ward, "burning")
    treat(ward, tid, day(0), method="magical")
    treat(ward, tid, day(1), roll=14, method="magical")
    assert not has(ward, tid)  # S-MHEAL-11


# --- clarifications ----------------------------------------------------------------------


def test_diseases_and_neuroses_are_individual_conditions(ward: FGame) -> None:
    ward.act("record-condition", character="P", kind="disease", note="swamp fever: bed, warmth")
    cond = ward.ch("P").condition("disease")
    assert cond is not None and cond.visibility is Visibility.OWNER  # S-CLAR-01
    assert ward.rules("condition.added") == ("S-CLAR-01",)
    ward.act("record-condition", character="P", kind="neurosis", note="after the siege", days=3)
    assert ward.rules("condition.added") == ("S-CLAR-08",)  # S-CLAR-08
    ward.advance_at(day(3, "09:00"))
    assert not ward.ch("P").has("neurosis") and ward.ch("P").has("disease")


def test_combat_healing_skills_restore_hp_but_not_traumas(ward: FGame) -> None:
    tid = trauma(ward, "burn")
    rules = refused(ward, "heal-trauma", healer="H", patient="P", trauma=tid, combat_skill=True)
    assert rules == ("S-CLAR-02",)  # S-CLAR-02
    ward.act("lose-hp", character="P", amount=5)
    ward.act("heal-magically", patient="P", healer="H", amount=5, means="combat_skill")
    assert ward.ch("P").hits == 30 and "S-CLAR-02" in ward.rules("hp.healed")


def test_a_limited_combat_skill_used_out_of_combat_recharges_for_24_hours(ward: FGame) -> None:
    ward.act("lose-hp", character="P", amount=10)
    ward.act("heal-magically", at="10:00", patient="P", healer="H", amount=3,
             means="combat_skill", skill="Lay on hands", limited_uses=True)  # fmt: skip
    cd = ward.ch("H").condition("skill_cooldown")
    assert cd is not None and cd.deadline == day(1)  # S-CLAR-03
    rules = refused(ward, "heal-magically", patient="P", healer="H", amount=3,
                    means="combat_skill", skill="Lay on hands", limited_uses=True)  # fmt: skip
    assert rules == ("S-CLAR-03",)
    ward.advance_at(day(1))
    ward.act_at(day(1), "heal-magically", patient="P", healer="H", amount=3,
                means="combat_skill", skill="Lay on hands", limited_uses=True)  # fmt: skip


def test_constructs_get_no_magical_healing_and_use_repair_kits(ward: FGame) -> None:
    ward.pc("K", hp=40, is_construct=True)
    ward.act("lose-hp", character="K", amount=10)
    assert refused(ward, "heal-magically", patient="K", healer="H", amount=5) == ("S-CLAR-05",)
    assert refused(ward, "heal-physically", patient="K", amount=5) == ("S-CLAR-06",)
    ward.act("heal-physically", patient="K", amount=5, means="repair_kit")
    assert ward.ch("K").hits == 35  # S-CLAR-06
    assert refused(ward, "heal-physically", patient="P", amount=1, means="repair_kit") == (
        "S-CLAR-06",
    )
    tid = trauma(ward, "lameness", who="K")
    assert refused(ward, "heal-trauma", healer="H", patient="K", trauma=tid,
                   method="magical") == ("S-CLAR-05",)  # fmt: skip
    assert refused(ward, "heal-trauma", healer="H", patient="K", trauma=tid) == ("S-CLAR-06",)


def test_every_construct_trauma_is_treated_physically(ward: FGame) -> None:
    ward.pc("K", is_construct=True)
    leg = trauma(ward, "lost_leg", who="K")
    treat(ward, leg, day(0), patient="K", repair_kit=True)
    treat(ward, leg, day(1), roll=14, patient="K", repair_kit=True)
    assert not has(ward, leg, who="K")  # S-CLAR-07: even a lost leg, with a repair kit
    assert "S-CLAR-07" in ward.rules("treatment.rolled")


# --- regeneration ------------------------------------------------------------------------


def test_e_s_12_regeneration_is_2_hp_an_hour_resting_and_1_otherwise(ward: FGame) -> None:
    ward.act("lose-hp", character="P", amount=20)
    ward.act("regenerate", character="P", hours=5, resting=True)
    assert ward.ch("P").hits == 20  # S-REGEN-01, S-REGEN-02: +10
    ward.act("regenerate", character="P", hours=5, resting=False)
    assert ward.ch("P").hits == 25  # S-REGEN-03: +5
    ward.act("regenerate", character="P", hours=10, resting=True)
    assert ward.ch("P").hits == 30  # A-S-27: never above max HP
    assert "S-REGEN-03" not in ward.rules("hp.regenerated")


def test_potions_preparations_bandages_and_food_heal_quickly(ward: FGame) -> None:
    ward.act("lose-hp", character="P", amount=10)
    ward.act("heal-physically", patient="P", amount=3, means="food")
    ward.act("heal-physically", patient="P", amount=3, means="preparation")
    assert ward.ch("P").hits == 26 and "S-REGEN-04" in ward.rules("hp.healed")  # S-REGEN-04


def test_after_a_training_fight_health_comes_back_at_once(ward: FGame) -> None:
    ward.act("lose-hp", character="P", amount=12)
    ward.act("regenerate", character="P", hours=0, fight="training")
    assert ward.ch("P").hits == 30  # S-REGEN-05
    g = FGame(params={"training_fight_recovery": "rest_rates"})  # A-S-27 alternative
    g.pc("P", hp=30)
    g.act("lose-hp", character="P", amount=12)
    g.act("regenerate", character="P", hours=1, fight="training")
    assert g.ch("P").hits == 20
    assert "S-REGEN-05" in g.rules("hp.regenerated")  # a training fight's rest, at rest rates
    g.act("regenerate", character="P", hours=1, fight="full")
    assert "S-REGEN-05" not in g.rules("hp.regenerated")


def test_each_limited_skill_recharges_on_its_own(ward: FGame) -> None:
    ward.act("lose-hp", character="P", amount=10)
    for skill in ("Lay on hands", "Mend"):
        ward.act("heal-magically", patient="P", healer="H", amount=1, means="combat_skill",
                 skill=skill, limited_uses=True)  # fmt: skip
    cds = [c.data["id"] for c in ward.ch("H").conditions if c.kind == "skill_cooldown"]
    assert cds == ["Lay on hands", "Mend"]  # S-CLAR-03: 24 h each
    ward.advance_at(day(1))
    assert not ward.ch("H").has("skill_cooldown")
