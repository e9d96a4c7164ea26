"""Theft, robbery and raids, property damage and lockpicking (checklist-002 §2.8, §2.9,
§2.11)."""

from __future__ import annotations

from typing import Any

import pytest

from lazaretto.core.engine import run_query
from lazaretto.core.errors import InvalidInput, RuleViolation
from tests.unit.fantasy_server.conftest import FGame


@pytest.fixture
def pair(g: FGame) -> FGame:
    g.pc("T", REF=10, PER=10, STR=10)  # the thief
    g.pc("V", PER=5, REF=5)  # the victim
    return g


def steal(g: FGame, thief: int, victim: int, **kw: Any) -> dict[str, Any]:
    g.act("attempt-theft", actor="T", victim="V", thief_roll=thief, victim_roll=victim, **kw)
    return g.last("theft.resolved")


def refused(g: FGame, action: str, **kw: Any) -> tuple[str, ...]:
    with pytest.raises(RuleViolation) as err:
        g.act(action, **kw)
    return err.value.rule_ids


def test_a_theft_needs_an_unnoticed_approach(pair: FGame) -> None:
    assert refused(pair, "attempt-theft", actor="T", victim="V", unnoticed=False) == (
        "S-CRIME-01",
    )  # S-CRIME-01


def test_the_victim_rolls_per_plus_3_or_plus_6_when_seeing_the_thief(pair: FGame) -> None:
    steal(pair, 10, 10)
    assert pair.checks()[-1]["modifiers"] == {"theft_notice": 3}  # S-CRIME-02
    assert pair.checks()[-2]["stat"] == "REF"  # against the thief's REF
    steal(pair, 10, 10, victim_sees=True)
    assert pair.checks()[-1]["modifiers"] == {"theft_notice": 6}  # S-CRIME-02


def test_a_successful_theft_of_a_named_item_moves_it_to_the_thief(pair: FGame) -> None:
    pair.act("register-item", item="purse", name="Purse", kind="other", owner="V")
    out = steal(pair, 15, 5, mode="specific_item", item="purse")
    assert out["outcome"] == "stolen"  # 25 vs 13
    assert pair.state.items["purse"].owner == "T"  # S-CRIME-03: the victim hands it over
    assert "S-CRIME-03" in pair.rules("theft.resolved")
    with pytest.raises(RuleViolation):
        pair.act("attempt-theft", actor="T", victim="V", mode="specific_item")


def test_rummaging_asks_for_something_proportionate_to_the_roll(pair: FGame) -> None:
    out = steal(pair, 18, 2)
    assert out["outcome"] == "stolen" and out["roll_total"] == 28  # S-CRIME-04
    assert "S-CRIME-04" in pair.rules("theft.resolved")


def test_a_failed_theft_is_caught_red_handed_and_the_victim_gets_the_initiative(
    pair: FGame,
) -> None:
    out = steal(pair, 5, 15)  # 15 vs 23
    assert out["outcome"] == "caught"
    cond = pair.ch("T").condition("caught_red_handed")
    assert cond is not None and cond.data["against"] == "V"  # S-CRIME-05, A-S-13
    pair.act("start-combat", encounter="brawl", participants=["T", "V"])
    assert pair.last("combat.started")["initiative"] == "V"  # S-CRIME-05
    assert pair.ch("T").has("caught_red_handed")  # A-S-13: until the scene ends
    pair.act("clear-condition", character="T", kind="caught_red_handed")
    assert not pair.ch("T").has("caught_red_handed")


def test_equal_theft_totals_go_to_the_victim(pair: FGame) -> None:
    assert steal(pair, 8, 10)["outcome"] == "caught"  # 18 vs 18: A-S-14


def test_a_thief_who_fumbles_falls_and_the_victim_deals_double_damage(pair: FGame) -> None:
    out = steal(pair, 1, 5)
    assert out["outcome"] == "fell"  # S-CRIME-06, A-S-13: the thief's critical failure
    assert pair.ch("T").has("fallen_down") and pair.ch("T").has("caught_red_handed")
    pair.act("start-combat", encounter="brawl", participants=["T", "V"])
    started = pair.last("combat.started")
    assert started["initiative"] == "V" and started["double_damage"] == ["V"]  # S-CRIME-06
    assert not pair.ch("T").has("fallen_down")


def test_the_victims_critical_success_also_floors_the_thief(pair: FGame) -> None:
    assert steal(pair, 15, 20)["outcome"] == "fell"  # S-CRIME-06 (A-S-13 default)
    g = FGame(params={"theft_fall_trigger": "thief_crit_fail"})  # A-S-13 alternative
    g.pc("T", REF=10)
    g.pc("V", PER=5)
    g.act("attempt-theft", actor="T", victim="V", thief_roll=15, victim_roll=20)
    assert g.last("theft.resolved")["outcome"] == "caught"


def test_the_next_fight_reading_of_caught_red_handed() -> None:
    g = FGame(params={"caught_red_handed_duration": "next_fight"})  # A-S-13 alternative
    g.pc("T", REF=1)
    g.pc("V", PER=10)
    g.act("attempt-theft", actor="T", victim="V", thief_roll=5, victim_roll=15)
    g.act("start-combat", encounter="e", participants=["T", "V"])
    assert not g.ch("T").has("caught_red_handed")  # S-CRIME-05: used up by the fight


def test_the_theft_odds_query(pair: FGame) -> None:
    answer = run_query(pair.rs, pair.state, "theft-odds", {"actor": "T", "victim": "V"})
    assert "REF +10" in answer["summary"] and "PER +8" in answer["summary"]  # S-CRIME-02
    seeing = run_query(
        pair.rs, pair.state, "theft-odds", {"actor": "T", "victim": "V", "victim_sees": True}
    )
    assert float(seeing["percent"]) < float(answer["percent"])
    assert answer["falls"] != "0"  # S-CRIME-06: a fumble or the victim's crit floors the thief


# --- robbery and raids ---------------------------------------------------------------


@pytest.fixture
def raid(pair: FGame) -> FGame:
    pair.act("plan-raid", raid="r1", target="Mill house", owner="V", curator="GM Ivan")
    return pair


def test_a_robbery_must_be_agreed_with_a_gm_who_curates_it(pair: FGame) -> None:
    rules = refused(pair, "commit-robbery", actor="T", raid="r1", owner_online=True, item="gold")
    assert rules == ("S-CRIME-13",)  # S-CRIME-13: agreed before
    with pytest.raises(InvalidInput):
        pair.act("plan-raid", raid="r1", target="Mill", curator="")  # S-CRIME-14
    pair.act("plan-raid", raid="r1", target="Mill", owner="V", curator="GM Ivan")
    assert pair.state.raids["r1"].curator == "GM Ivan"  # S-CRIME-14
    assert pair.rules("raid.approved") == ("S-CRIME-13", "S-CRIME-14")


def test_a_house_is_robbed_only_while_its_resident_is_online(raid: FGame) -> None:
    rules = refused(raid, "commit-robbery", actor="T", raid="r1", owner_online=False, item="x")
    assert "S-CRIME-07" in rules  # S-CRIME-07
    raid.act("plan-raid", raid="r2", target="Old barn", curator="GM Ivan")  # owner unknown
    rules = refused(raid, "commit-robbery", actor="T", raid="r2", owner_online=False, item="x")
    assert rules[0] == "S-CRIME-08"  # S-CRIME-08: the same rules apply


def test_a_failed_robbery_per_check_leaves_evidence_in_the_chronicle(raid: FGame) -> None:
    raid.act("commit-robbery", actor="T", raid="r1", owner_online=True, item="gold", roll=5)
    out = raid.last("robbery.resolved")
    assert raid.checks()[-1]["stat"] == "PER"  # S-CRIME-09: PER vs medium
    assert raid.checks()[-1]["threshold_label"] == "medium (18)"  # A-S-15
    assert out["outcome"] == "evidence"  # S-CRIME-10: post it in летопись-выживания
    assert "Mill house" in raid.state.scenes  # S-CRIME-10: the evidence can be searched
    assert "S-CRIME-10" in raid.rules("robbery.resolved")


def test_a_successful_robbery_is_reported_to_the_gm_and_becomes_a_rumour(raid: FGame) -> None:
    raid.act("commit-robbery", actor="T", raid="r1", owner_online=True, item="gold", roll=12)
    assert raid.last("robbery.resolved")["outcome"] == "rumour"  # S-CRIME-11
    assert "S-CRIME-11" in raid.rules("robbery.resolved")
    raid.act("close-raid", raid="r1", note="gold gone")
    assert raid.state.raids["r1"].status == "closed"  # S-CRIME-13: agreed afterwards too
    assert refused(raid, "close-raid", raid="r1") == ("S-CRIME-13",)


def test_property_is_damaged_only_after_notice_with_a_reply_or_while_online(pair: FGame) -> None:
    rules = refused(pair, "damage-property", actor="T", owner="V", what="fence")
    assert rules == ("S-CRIME-12",)  # S-CRIME-12
    pair.act("damage-property", actor="T", owner="V", what="fence", notified_with_reply=True)
    pair.act("damage-property", actor="T", owner="V", what="gate", owner_online=True)
    assert pair.last("property.damage_recorded")["what"] == "gate"


# --- lockpicking ---------------------------------------------------------------------


def pick(g: FGame, **kw: Any) -> dict[str, Any]:
    g.act("pick-lock", actor="T", **kw)
    return g.last("lock.attempted")


def test_lockpicks_are_ref_against_24(pair: FGame) -> None:
    assert pick(pair, roll=13)["opened"] is False  # 23 < 24
    out = pick(pair, roll=14)
    assert out["opened"] is True and out["threshold"] == 24  # S-CRIME-27
    assert pair.checks()[-1]["stat"] == "REF"


def test_breaking_in_beyond_lockpicks_needs_the_gms_permission(pair: FGame) -> None:
    rules = refused(pair, "pick-lock", actor="T", method="strength_unarmed", roll=20)
    assert rules == ("S-CRIME-25",)  # S-CRIME-25
    out = pick(pair, method="strength_unarmed", gm_permission=True, roll=19)
    assert out["threshold"] == 30 and out["opened"] is False  # S-CRIME-28: 29 < 30
    out = pick(pair, method="strength_tool", gm_permission=True, roll=15)
    assert out["threshold"] == 25 and out["opened"] is True  # S-CRIME-29: 25 ≥ 25


def test_a_gm_sets_a_doors_own_thresholds(pair: FGame) -> None:
    pair.act("register-door", door="d1", lockpicks=20)
    out = pick(pair, door="d1", roll=10)
    assert out["opened"] is True and out["threshold"] == 20  # S-CRIME-26
    assert "S-CRIME-26" in pair.rules("lock.attempted")
    assert pair.state.doors["d1"].open
    with pytest.raises(RuleViolation):
        pick(pair, door="d1", roll=10)  # already open


def test_firearms_explosives_and_acid_need_no_roll_but_not_on_reinforced_doors(
    pair: FGame,
) -> None:
    out = pick(pair, method="explosives", gm_permission=True)
    assert out["opened"] is True and not pair.events[-1].dice  # S-CRIME-30: no roll
    pair.act("register-door", door="vault", reinforced=True)
    rules = refused(pair, "pick-lock", actor="T", door="vault", method="acid", gm_permission=True)
    assert rules == ("S-CRIME-30",)  # S-CRIME-30
    assert pick(pair, door="vault", roll=14)["opened"] is True  # rolled methods still work


def test_the_lock_odds_query(pair: FGame) -> None:
    answer = run_query(pair.rs, pair.state, "lock-odds", {"actor": "T"})
    assert answer["threshold"] == 24 and answer["success"] == "7/20"  # S-CRIME-27: 14..20
    answer = run_query(pair.rs, pair.state, "lock-odds", {"actor": "T", "method": "firearm"})
    assert answer["success"] == "1"  # S-CRIME-30
