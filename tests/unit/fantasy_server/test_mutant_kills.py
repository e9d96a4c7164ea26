"""Boundaries of fantasy-server rules that a one-step change of their code would move
unnoticed (issue 19, ``bench/mutate.py``): each test pins the value on both sides."""

from __future__ import annotations

from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

import pytest

from lazaretto.core.engine import run_query
from lazaretto.core.errors import RuleViolation
from tests.game import t
from tests.unit.fantasy_server.conftest import FGame
from tests.unit.fantasy_server.test_addiction import drink


def day(n: int, hhmm: str = "10:00") -> datetime:
    return t(hhmm) + timedelta(days=n)


def ask(g: FGame, name: str, lang: str = "en", **kw: Any) -> dict[str, Any]:
    return run_query(g.rs, g.state, name, kw, lang=lang)


def test_an_accessory_worn_in_both_slot_kinds_cites_s_art_18_and_one_kind_does_not(
    g: FGame,
) -> None:
    g.pc("A")
    g.act("register-item", item="ring", name="Ring", kind="accessory", owner="A",
          slot_roles="both", stat_bonus=["STR=1"])  # fmt: skip
    g.act("register-item", item="cloak", name="Cloak", kind="clothing", owner="A",
          slot_roles="rp")  # fmt: skip
    g.act("equip-item", character="A", item="ring", slots="both")
    assert g.last("item.equipped")["slots"] == "combat, rp"
    assert "S-ART-18" in g.rules("item.equipped")  # S-ART-18: both kinds of slot at once
    g.act("equip-item", character="A", item="cloak", slots="rp")
    assert "S-ART-18" not in g.rules("item.equipped")  # S-ART-18: not for a one-kind item


def test_a_destroyed_item_takes_no_more_criticals_citing_its_own_rule(g: FGame) -> None:
    g.pc("A")
    g.act("register-item", item="amulet", name="Amulet", kind="accessory", owner="A",
          activation="active", mechanic="blink", magical=["blink"])  # fmt: skip
    g.act("register-item", item="pick", name="Pick", kind="tool", owner="A", slot_roles="rp")
    g.act("equip-item", character="A", item="amulet", slots="combat")
    g.act("start-combat", encounter="e1", participants=["A"])
    for item, n in (("amulet", 3), ("pick", 2)):  # S-BRK-07/08, S-BRK-09/10
        for _ in range(n):
            g.act("log-item-critical", item=item, encounter="e1")
        assert g.state.items[item].status == "destroyed"
    with pytest.raises(RuleViolation) as err:
        g.act("log-item-critical", item="amulet", encounter="e1")
    assert err.value.rule_ids == ("S-BRK-08",)  # S-BRK-08: a combat item beyond restoration
    with pytest.raises(RuleViolation) as err:
        g.act("log-item-critical", item="pick", encounter="e1")
    assert err.value.rule_ids == ("S-BRK-10",)  # S-BRK-10: a tool


def test_a_repair_bill_of_nothing_reads_in_both_languages(g: FGame) -> None:
    g.act("register-item", item="stick", name="Stick", kind="weapon")
    en = ask(g, "repair-bill", item="stick")["summary"]
    ru = ask(g, "repair-bill", "ru", item="stick")["summary"]
    assert en.startswith("Repairing Stick costs nothing")  # S-REP-03: half of no resources
    assert ru.startswith("Ремонт Stick: ничего")  # S-REP-03


def test_a_check_without_modifiers_reads_plus_zero_and_one_with_them_the_sum(g: FGame) -> None:
    g.pc("A")
    g.pc("B", STR=5)
    g.act("roll-contest", actor="A", actor_stat="STR", defender="B", defender_stat="STR",
          actor_roll=12, defender_roll=10)  # fmt: skip
    res = g.last("contest.resolved")
    assert res["actor_total"] == "12 [12+0]"  # A-S-01: 1d20 + stat, here + 0
    assert res["defender_total"] == "15 [10+5]"
    assert res["winner"] == "B" and res["winner_name"] == "B"  # A-S-14: 15 beats 12
    g.act("roll-contest", actor="B", actor_stat="STR", defender="A", defender_stat="STR",
          actor_roll=10, defender_roll=12)  # fmt: skip
    res = g.last("contest.resolved")
    assert res["winner"] == "B" and res["winner_name"] == "B"  # A-S-14: the active side wins


def test_the_theft_odds_percent_is_the_success_chance_times_100(g: FGame) -> None:
    g.pc("T", REF=10)
    g.pc("V", PER=8)
    answer = ask(g, "theft-odds", actor="T", victim="V")
    win = Fraction(answer["success"])
    assert 0 < win < 1  # S-CRIME-02
    assert answer["percent"] == round(float(win) * 100, 2)  # S-CRIME-02: the same chance in %


def test_the_first_torture_round_has_no_resistance_bonus_and_the_second_has(g: FGame) -> None:
    g.pc("H", STR=10, DET=8)
    g.pc("V", WIL=5, DET=7)
    g.act("torture-round", actor="H", victim="V", method="physical", actor_roll=10,
          victim_roll=10)  # fmt: skip
    assert "S-TORT-04" not in g.rules("torture.round_resolved")  # S-TORT-04: round 1, +0
    g.act("torture-round", actor="H", victim="V", method="physical", actor_roll=10,
          victim_roll=10)  # fmt: skip
    assert g.last("torture.round_resolved")["victim_bonus"] == 3
    assert "S-TORT-04" in g.rules("torture.round_resolved")  # S-TORT-04: from round 2


def test_a_condition_recorded_again_lasts_to_its_new_end_and_others_keep_theirs(
    g: FGame,
) -> None:
    g.pc("A")
    g.act("record-condition", character="A", kind="disease", note="flu", days=1)
    g.act("record-condition", character="A", kind="neurosis", note="fear", days=1)
    g.act_at(t("12:00"), "record-condition", character="A", kind="disease", note="flu", days=3)
    g.advance_at(day(1, "11:00"))
    assert g.ch("A").has("disease")  # S-CLAR-01: the new record's 3 days, not the old day
    assert not g.ch("A").has("neurosis")  # S-CLAR-08: its own day is over
    g.advance_at(day(3, "12:00"))
    assert not g.ch("A").has("disease")  # S-CLAR-01: over after 3 days


@pytest.fixture
def ward(g: FGame) -> FGame:
    g.pc("H", INT=10, MAG=10, healing_skill_level=2)
    g.pc("P", hp=30, WIL=5)
    return g


def _trauma(g: FGame, key: str) -> str:
    g.act("give-trauma", character="P", trauma=key)
    return str(g.last("condition.added")["condition"]["data"]["id"])


def test_summed_treatments_cite_a_s_22_and_single_rolls_do_not(ward: FGame) -> None:
    summed = _trauma(ward, "terrible_burn")
    single = _trauma(ward, "burn")
    ward.act_at(day(0), "heal-trauma", healer="H", patient="P", trauma=summed, roll=12)
    assert "A-S-22" in ward.rules("treatment.rolled")  # A-S-22: the rolls are summed
    ward.act_at(day(0), "heal-trauma", healer="H", patient="P", trauma=single)
    ward.act_at(day(1), "heal-trauma", healer="H", patient="P", trauma=single, roll=8)
    assert "A-S-22" not in ward.rules("treatment.rolled")  # S-PHEAL-11: one roll


def test_the_treatment_plan_shows_progress_only_for_the_treatment_under_way(ward: FGame) -> None:
    a = _trauma(ward, "terrible_burn")
    b = _trauma(ward, "terrible_burn")
    ward.act_at(day(0), "heal-trauma", healer="H", patient="P", trauma=a, roll=12)
    plan_a = ask(ward, "treatment-plan", patient="P", trauma=a)["methods"]
    plan_b = ask(ward, "treatment-plan", patient="P", trauma=b)["methods"]
    assert plan_a["physical"]["progress"] is not None  # A-S-22: 22 of 66 summed so far
    assert "22" in str(plan_a["physical"]["progress"])
    assert plan_b["physical"]["progress"] is None  # S-HEAL-05: the other burn is untreated
    assert all(m["progress"] is None for k, m in plan_a.items() if k != "physical")


def test_a_parameter_bonus_exactly_at_plus_3_is_not_called_capped(g: FGame) -> None:
    g.pc("A")
    g.act("register-item", item="r1", name="Ring", kind="accessory", owner="A",
          param_bonus=["melee_accuracy=2"])  # fmt: skip
    g.act("register-item", item="r2", name="Band", kind="accessory", owner="A",
          param_bonus=["melee_accuracy=1"])  # fmt: skip
    g.act("equip-item", character="A", item="r1")
    g.act("equip-item", character="A", item="r2")
    effects = g.last("item.equipped")["effects"]
    assert "melee_accuracy +3" in effects and "capped" not in effects  # S-ART-20: 3 is allowed
    assert "урезано" not in g.last("item.equipped")["effects_ru"]


def _addicted(g: FGame, cid: str, potions: tuple[int, ...]) -> None:
    """Potions that heal ``potions`` HP to ``cid`` (max HP 40) after losing as much."""
    for heals in potions:
        g.act("lose-hp", character=cid, amount=heals)
        g.act("drink-potion", character=cid, heals=heals, mutation_roll=5)


def test_only_a_stage_2_course_needs_spiritual_healing(g: FGame) -> None:
    g.pc("P", hp=40, WIL=10, END=10)
    g.pc("Q", hp=40, WIL=10, END=10)
    _addicted(g, "P", (15, 15, 10))
    _addicted(g, "Q", (15, 15, 10, 20))
    assert (g.state.addiction("P").stage, g.state.addiction("Q").stage) == ("stage1", "stage2")
    g.act_at(day(0, "12:00"), "start-addiction-treatment", character="P")
    assert g.last("addiction.treatment_started")["spiritual_needed"] is False  # S-ADD-05
    g.act_at(day(0, "12:00"), "start-addiction-treatment", character="Q")
    assert g.last("addiction.treatment_started")["spiritual_needed"] is True  # S-ADD-08


def test_a_repair_bill_names_the_material_that_may_replace_an_ingot_in_both_languages(
    g: FGame,
) -> None:
    g.act("register-item", item="gs", name="Great shield", kind="shield",
          resources=[{"name": "star ingot", "amount": 3, "material": "star ore"}])  # fmt: skip
    en = ask(g, "repair-bill", item="gs")["summary"]
    ru = ask(g, "repair-bill", "ru", item="gs")["summary"]
    assert "2 star ingot (or star ore)" in en  # S-REP-03, S-REP-04
    assert "2 star ingot (или star ore)" in ru  # S-REP-03, S-REP-04


def test_a_critical_success_wins_citing_s_crit_02_and_a_fumbled_defence_s_crit_03(
    g: FGame,
) -> None:
    g.pc("A")
    g.pc("B", STR=10)
    g.act("roll-contest", actor="A", actor_stat="STR", defender="B", defender_stat="STR",
          actor_roll=20, defender_roll=15)  # fmt: skip
    assert g.last("contest.resolved")["winner"] == "A"
    assert "S-CRIT-02" in g.rules("contest.resolved")  # S-CRIT-02: 20 beats 25
    assert "S-CRIT-03" not in g.rules("contest.resolved")
    g.act("roll-contest", actor="A", actor_stat="STR", defender="B", defender_stat="STR",
          actor_roll=5, defender_roll=1)  # fmt: skip
    assert g.last("contest.resolved")["winner"] == "A"
    assert "S-CRIT-03" in g.rules("contest.resolved")  # S-CRIT-03: 11 fumbled loses to 5
    assert "S-CRIT-02" not in g.rules("contest.resolved")


def test_clearing_one_condition_leaves_the_others_end_in_place(g: FGame) -> None:
    g.pc("A")
    g.act("record-condition", character="A", kind="disease", note="flu", days=3)
    g.act("record-condition", character="A", kind="neurosis", note="fear", days=1)
    g.act("clear-condition", character="A", kind="disease")
    assert not g.ch("A").has("disease") and g.ch("A").has("neurosis")  # S-HEAL-05
    g.advance_at(day(1, "09:00"))
    assert not g.ch("A").has("neurosis")  # S-CLAR-08: its own day still ends it


def _smith(g: FGame) -> FGame:
    g.pc("A", STR=11, END=10, REF=10, INT=10, skills=("Smith",))
    g.pc("M", INT=10, skills=("Enchanter",))
    return g


def test_a_crafted_artifact_of_no_origin_is_called_an_artifact_not_mundane(g: FGame) -> None:
    _smith(g)
    g.act("craft-item", crafter="A", item="plain", name="Plain", kind="weapon", roll=10)
    assert g.last("item.crafted")["nature"] == "mundane"  # S-ART-01: an ordinary item
    g.act("craft-item", crafter="A", item="band", name="Band", kind="accessory", roll=10,
          stat_bonus=["STR=2"])  # fmt: skip
    assert g.last("item.crafted")["nature"] == "artifact"  # S-ART-01: a +2 band is no mundane
    g.act("craft-item", crafter="M", item="ring", name="Ring", kind="accessory", roll=10,
          magical=["runes"])  # fmt: skip
    assert g.last("item.crafted")["nature"] == "magical"  # S-ART-02


def test_a_critical_failure_while_crafting_wears_the_tool_and_a_plain_failure_does_not(
    g: FGame,
) -> None:
    _smith(g)
    g.act("register-item", item="hammer", name="Hammer", kind="tool", owner="A", slot_roles="rp")
    g.act("craft-item", crafter="A", item="x1", name="X1", kind="weapon", roll=2, tool="hammer")
    assert g.state.items["hammer"].status == "intact"  # S-BRK-09: only a critical failure
    g.act("craft-item", crafter="A", item="x2", name="X2", kind="weapon", roll=1, tool="hammer")
    assert g.state.items["hammer"].status == "partially_broken"  # S-BRK-09


def test_the_treatment_plan_names_the_trauma_in_the_askers_language(ward: FGame) -> None:
    tid = _trauma(ward, "terrible_burn")
    en = ask(ward, "treatment-plan", patient="P", trauma=tid)["summary"]
    ru = ask(ward, "treatment-plan", "ru", patient="P", trauma=tid)["summary"]
    assert en.startswith("Terrible burn: ")  # S-HEAL-05: the guideline table, in English
    assert ru.startswith("Ужасный ожог: ")  # S-HEAL-05: and in Russian


# --- survivors of the seed-21 code sample (issue 19) -----------------------------------------


def test_a_failed_magical_trauma_healing_rolls_no_mutation_a_successful_one_does(g: FGame) -> None:
    g.pc("H", MAG=7, INT=10, healing_skill_level=2)
    g.pc("P", hp=10, WIL=1)
    for _ in range(2):  # 12 HP of magic against 10 max HP: each further healing is resisted
        g.act("lose-hp", character="P", amount=6)
        g.act("heal-magically", patient="P", healer="H", amount=6)
    g.act("give-trauma", character="P", trauma="lameness")
    g.act("heal-trauma", at="10:00", healer="H", patient="P", trauma="lameness", method="magical")
    g.act("heal-trauma", at="11:00", healer="H", patient="P", trauma="lameness", method="magical",
          roll=2, patient_roll=2, mutation_roll=4)  # fmt: skip
    assert g.checks()[-1]["success"] is False  # S-MHEAL-06: MAG 7 + 2 misses the threshold
    assert not [e for e in g.events if e.kind.startswith("mutation.")]  # S-MUT-01: no healing
    evs = g.act_at(day(1, "00:00"), "heal-trauma", healer="H", patient="P", trauma="lameness",
                   method="magical", roll=15, patient_roll=2, mutation_roll=4)  # fmt: skip
    assert g.last("mutation.rolled")["face"] == 4  # S-MUT-01, S-MUT-03: a healing, resisted
    rolled = [(e.payload["stat"], e.payload["purpose"]) for e in evs if e.kind == "check.rolled"]
    # S-MUT-01: the healing's own MAG roll is the healer's side; no second MAG roll
    assert [stat for stat, _ in rolled] == ["MAG", "WIL"]
    assert rolled[0][1].startswith("treatment:")


def test_recording_a_condition_again_replaces_it_and_its_end(g: FGame) -> None:
    g.pc("A")
    g.act("record-condition", character="A", kind="disease", note="flu", days=1)
    g.act("record-condition", character="A", kind="disease", note="cholera", days=3)
    held = [c.data["note"] for c in g.ch("A").conditions if c.kind == "disease"]
    assert held == ["cholera"]  # S-CLAR-01: one disease record, the GM's latest
    g.advance_at(day(2, "09:00"))
    assert g.ch("A").has("disease")  # the first record's day no longer ends it
    g.advance_at(day(3, "09:00"))
    assert not g.ch("A").has("disease")


def test_an_artifact_may_list_a_stat_at_0_but_not_below(g: FGame) -> None:
    g.pc("A")
    g.act("register-item", item="ring", name="Ring", kind="accessory", owner="A",
          stat_bonus=["STR=2", "END=0"])  # fmt: skip
    assert g.state.items["ring"].stat_bonus == {"STR": 2, "END": 0}  # S-STAT-01/02: total 2
    with pytest.raises(RuleViolation) as err:
        g.act("register-item", item="bad", name="Bad", kind="accessory", owner="A",
              stat_bonus=["STR=2", "END=-1"])  # fmt: skip
    assert err.value.rule_ids == ("S-STAT-01",)  # S-STAT-01: a bonus, never a malus


def test_check_odds_give_the_percent_of_the_exact_probability(g: FGame) -> None:
    g.pc("A", STR=10)
    answer = ask(g, "check-odds", character="A", stat="STR", threshold="medium")
    assert answer["percent"] == round(float(Fraction(answer["probability"])) * 100, 2)
    assert 0 < answer["percent"] < 100


def test_a_treatment_by_successes_needs_at_least_one() -> None:
    from lazaretto.rulesets.fantasy_server.tables import Treatment

    one = Treatment(rule="S-TEST", kind="successes", stat="MAG", threshold="medium", successes=1)
    assert one.successes == 1
    with pytest.raises(ValueError, match="at least 1"):
        Treatment(rule="S-TEST", kind="successes", stat="MAG", threshold="medium", successes=0)


# --- survivors of the fresh seed-33 code sample (issue 19) -----------------------------------


def test_magic_healing_leaves_the_mutation_window_exactly_24_hours_later(g: FGame) -> None:
    g.pc("H", MAG=7)
    g.pc("P", hp=30, WIL=4)
    g.act("lose-hp", character="P", amount=20)
    g.act("heal-magically", patient="P", healer="H", amount=20)  # at 09:00
    g.advance_at(day(1, "08:59"))
    assert ask(g, "mutation-risk", patient="P")["window_total"] == 20  # A-S-25: within 24 h
    g.advance_at(day(1, "09:00"))
    assert ask(g, "mutation-risk", patient="P")["window_total"] == 0  # 24 h on: outside


def test_the_addiction_status_says_what_the_next_stage_needs(g: FGame) -> None:
    g.pc("P", hp=40)
    g.act("lose-hp", character="P", amount=40)
    drink(g, 40)
    assert g.state.addiction("P").stage == "stage1"  # S-ADD-03
    summary = ask(g, "addiction-status", character="P")["summary"]
    assert "stage 2 at 20 more (0 so far)" in summary  # S-ADD-06: half the max HP more


def test_an_artifact_may_have_exactly_the_servers_number_of_properties() -> None:
    g = FGame(params={"max_properties_per_artifact": 2})
    g.pc("A", INT=10, skills=("Enchanter",))
    g.act("craft-item", crafter="A", item="x", name="x", kind="accessory", magical=["a", "b"],
          roll=10)  # fmt: skip
    assert "x" in g.state.items  # S-ART-05, A-S-06: at the limit
    with pytest.raises(RuleViolation) as err:
        g.act("craft-item", crafter="A", item="y", name="y", kind="accessory",
              magical=["a", "b", "c"], roll=10)  # fmt: skip
    assert err.value.rule_ids == ("S-ART-05", "A-S-06")


def test_only_a_consumable_used_while_falling_cites_its_ref_roll_rule(g: FGame) -> None:
    g.pc("A")
    g.act("act-while-falling", character="A", what="verbal_spell")
    assert g.rules("fall.action_resolved") == ("S-FALL-06",)  # S-FALL-06: an allowed action
    g.act("act-while-falling", character="A", what="consumable", item="potion", roll=20)
    assert g.rules("fall.action_resolved") == ("S-FALL-06", "S-FALL-07")  # S-FALL-07: REF


# --- survivors of the fresh seed-59 code sample (issue 19) -----------------------------------


def test_equipping_cites_bulk_only_for_a_bulky_item_and_the_activation_kind(g: FGame) -> None:
    g.pc("A")
    g.act("register-item", item="ring", name="Ring", kind="accessory", owner="A",
          activation="passive")  # fmt: skip
    g.pc("B")
    g.act("register-item", item="cloak", name="Great cloak", kind="accessory", owner="B",
          slot_size=2, activation="active", mechanic="blink", magical=["blink"])  # fmt: skip
    g.act("equip-item", character="A", item="ring", slots="combat")
    rules = g.rules("item.equipped")
    assert "S-ART-11" not in rules and "S-ART-16" in rules and "S-ART-15" not in rules
    g.act("equip-item", character="B", item="cloak", slots="combat")
    rules = g.rules("item.equipped")
    assert "S-ART-11" in rules and "S-ART-15" in rules  # S-ART-11: two slots; S-ART-15: active
