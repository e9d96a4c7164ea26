"""The ruleset's data files, its alternative readings as campaign parameters, the log
texts and the character card."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from lazaretto.core.errors import InvalidInput, RuleViolation
from lazaretto.core.registry import get_ruleset
from lazaretto.rulesets.fantasy_server.reducers import REDUCERS
from lazaretto.rulesets.fantasy_server.tables import mutations, traumas
from tests.game import t
from tests.unit.fantasy_server.conftest import FGame

RS = get_ruleset("fantasy-server")


def day(n: int, hhmm: str = "10:00") -> datetime:
    return t(hhmm) + timedelta(days=n)


def test_the_tables_cover_every_trauma_and_face() -> None:
    assert sorted(mutations()) == [1, 2, 3, 4, 5, 6]  # S-MUT-03: a d6
    rules = {
        tr.rule for k in traumas().values() for tr in (k.physical, k.physical_alt, k.magical) if tr
    }
    assert {f"S-PHEAL-{i:02d}" for i in range(1, 15)} <= rules
    assert {f"S-MHEAL-{i:02d}" for i in range(1, 12)} <= rules
    assert set(RS.params.fall_trauma_table) <= set(traumas())  # type: ignore[attr-defined]


def test_a_broken_band_table_is_refused_by_name() -> None:
    with pytest.raises(InvalidInput) as err:
        RS.campaign_params({"stat_band_costs": [[0, 10, 1], [12, None, 2]]})
    assert "'stat_band_costs'" in err.value.message


def test_every_event_and_timer_has_an_english_and_russian_text() -> None:
    own = REDUCERS.kinds() - {
        "campaign.created", "clock.changed", "character.added", "timer.scheduled",
        "timer.cancelled", "timer.fired",
    }  # fmt: skip
    for kind in own:
        assert RS.text(f"event:{kind}", "en") and RS.text(f"event:{kind}", "ru"), kind
    for kind in RS.timer_handlers:
        assert RS.text(f"timer:{kind}", "ru"), kind


def test_the_card_is_bilingual() -> None:
    g = FGame()
    g.pc("A", STR=9, hp=20)
    g.act("give-trauma", character="A", trauma="lost_eye")
    ru = g.card("A", "ru")
    assert ru["state_label"] == "есть травмы" and ru["conditions"][0]["label"] == "Потеря глаза"
    assert "сражаться" in ru["allowed"]
    assert g.card("A")["conditions"][0]["label"] == "Loss of an eye"


def test_strictly_greater_than_the_threshold_is_a_campaign_parameter() -> None:
    g = FGame(params={"success_if_total_gte_threshold": False})  # A-S-01 alternative
    g.pc("A", REF=10)
    g.act("roll-check", character="A", stat="REF", threshold=20, roll=10)
    assert g.checks()[-1]["success"] is False  # 20 is not above 20


def test_the_named_thresholds_are_set_by_the_server() -> None:
    g = FGame(params={"threshold_medium": 15})  # A-S-02: a placeholder
    g.pc("A", REF=5)
    g.act("act-while-falling", character="A", what="consumable", roll=10)
    check = g.checks()[-1]
    assert check["threshold_label"] == "medium (15)" and check["success"]  # S-FALL-07


def test_repair_rounding_and_properties_are_campaign_parameters() -> None:
    g = FGame(
        params={"repair_rounding": "floor", "repair_restores_artifact_properties": False}
    )  # A-S-12 alternatives
    g.pc("A", skills=("Smith",))
    g.act("register-item", item="s", name="S", kind="weapon", owner="A", magical=["frost"],
          resources=[{"name": "ingot", "amount": 5}])  # fmt: skip
    g.act("equip-item", character="A", item="s")
    for _ in range(3):
        g.act("log-item-critical", item="s", encounter="e")
    g.act("repair-item", actor="A", item="s")
    assert g.last("item.repaired")["bill"][0]["repair"] == 2  # floor(5/2)
    assert g.state.items["s"].properties_lost  # S-BRK-01: properties not restored


def test_robbery_without_the_online_rule() -> None:
    g = FGame(params={"robbery_requires_owner_online": False})  # A-S-15 alternative
    g.pc("R", PER=10)
    g.act("plan-raid", raid="r", target="hut", curator="GM")
    g.act("commit-robbery", actor="R", raid="r", owner_online=False, item="bread", roll=10)
    assert g.last("robbery.resolved")["outcome"] == "rumour"  # S-CRIME-11


def test_summed_thresholds_without_the_one_roll_a_day_limit() -> None:
    g = FGame(params={"cumulative_threshold_one_roll_per_day": False})  # A-S-22 alternative
    g.pc("H", INT=10)
    g.pc("P")
    g.act("give-trauma", character="P", trauma="terrible_burn")
    for hhmm in ("10:00", "11:00", "12:00"):
        g.act("heal-trauma", at=hhmm, healer="H", patient="P", trauma="terrible_burn", roll=15)
    assert not [c for c in g.ch("P").conditions if c.kind == "trauma"]  # S-PHEAL-12: 75


def test_a_failed_treatment_retried_at_once() -> None:
    g = FGame(params={"retry_after_failed_treatment": "immediately"})  # A-S-23 alternative
    g.pc("H", MAG=10)
    g.pc("P")
    g.act("give-trauma", character="P", trauma="minor_scar")
    g.act("heal-trauma", at="10:00", healer="H", patient="P", trauma="minor_scar",
          method="magical", roll=2)  # fmt: skip
    g.act("heal-trauma", at="10:01", healer="H", patient="P", trauma="minor_scar",
          method="magical", roll=9)  # fmt: skip
    assert not [c for c in g.ch("P").conditions if c.kind == "trauma"]  # S-MHEAL-01


def test_half_strength_rounds_up_and_potions_outside_the_window() -> None:
    g = FGame(params={"mutation_half_rounding": "ceil", "mutation_counts_potions": False})
    g.pc("P", hp=10)
    for _ in range(2):
        g.act("lose-hp", character="P", amount=7)
        g.act("drink-potion", character="P", heals=7)
    assert not g.state.magic_heals.get("P")  # A-S-25: potions not counted
    for _ in range(3):  # the third is past max HP 10 within the window
        g.act("lose-hp", character="P", amount=7)
        g.act("heal-magically", patient="P", amount=7, mutation_roll=2)
    assert g.last("hp.healed")["restored"] == 4  # S-MUTT-02, A-S-25: ceil(7/2)


def test_the_grave_condition_check_made_once() -> None:
    g = FGame(params={"grave_condition_check": "once_hard_END"})  # A-S-26 alternative
    g.pc("P", hp=10, WIL=1, END=10)
    g.act("lose-hp", character="P", amount=10)
    g.act("drink-potion", character="P", heals=10, at="10:00")
    for n in range(1, 8):
        g.advance_at(day(n, "00:00"))
    g.act_at(day(7), "withdrawal-check", character="P", roll=2)
    g.act_at(day(7, "11:00"), "grave-check", character="P", roll=20)
    with pytest.raises(RuleViolation) as err:
        g.act_at(day(9), "grave-check", character="P", roll=20)
    assert err.value.rule_ids == ("S-ADD-16", "A-S-26")  # once only, not daily
