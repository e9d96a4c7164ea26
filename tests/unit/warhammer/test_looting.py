"""Looting a stormed location (checklist-000 Looting §5; A-W-02..04)."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import RuleViolation
from lazaretto.core.ruleset import Role
from lazaretto.rulesets.warhammer_larp.checks import wound_state
from tests.game import Game, t
from tests.unit.warhammer.diseases_kit import game, q


def town(**params: object) -> Game:
    """Location 'mill' (wealth 5) with residents p0..p2; army 'Reds' with units p10, p11."""
    g = game(**params)
    g.act(
        "register-location",
        id="mill",
        name="Mill",
        wealth=5,
        regional_master="Olga",
        residents=["p0", "p1", "p2"],
    )
    g.act("start-assault", at="14:30", location="mill", army="Reds")
    return g


def loot(g: Game, at: str = "15:00") -> None:
    g.act(
        "start-looting",
        at=at,
        location="mill",
        army="Reds",
        commander_orders=True,
        units=["p10", "p11"],
    )


def test_looting_starts_only_after_a_won_assault_and_the_commanders_order() -> None:
    g = town()
    with pytest.raises(RuleViolation) as err:
        g.act("start-looting", at="15:00", location="mill", army="Reds", commander_orders=False)
    assert err.value.rule_ids == ("W-LOOT-01",)  # W-LOOT-01: the Commander decides
    with pytest.raises(RuleViolation) as err:
        g.act("start-looting", at="15:00", location="mill", army="Blues", commander_orders=True)
    assert "W-LOOT-01" in err.value.rule_ids  # only the winner of the assault
    loot(g)
    assert g.state.locations["mill"].looting is not None  # W-LOOT-01: at once


def test_the_army_gets_supplies_equal_to_the_wealth_before_the_assault() -> None:
    g = town()
    g.act("set-location-wealth", at="14:40", location="mill", wealth=9, cycle=2)  # mid-assault
    loot(g)
    assert g.state.convoys["Reds"] == 5  # W-LOOT-02: pre-assault wealth


def test_the_search_right_lasts_thirty_minutes() -> None:
    g = town()
    loot(g)
    assert g.state.locations["mill"].looting.search_until == t("15:30")  # type: ignore[union-attr]
    evs = g.advance("15:30")
    assert "looting.search_ended" in g.kinds(evs)  # W-LOOT-03


def test_wealth_changes_once_per_economic_cycle() -> None:
    g = town()
    g.act("set-location-wealth", location="mill", wealth=7, cycle=1)
    with pytest.raises(RuleViolation) as err:
        g.act("set-location-wealth", location="mill", wealth=8, cycle=1)
    assert err.value.rule_ids == ("W-LOOT-04",)  # W-LOOT-04
    g.act("set-location-wealth", location="mill", wealth=8, cycle=2)
    assert g.state.locations["mill"].wealth == 8


def test_wealth_is_hidden_from_players_and_healers() -> None:
    g = town()
    assert q(g, "location-status", location="mill")["wealth"] == 5
    for role in (Role.PLAYER, Role.HEALER):
        assert "wealth" not in q(g, "location-status", role=role, location="mill")  # W-LOOT-05


def test_residents_cannot_damage_the_winners_while_they_loot() -> None:
    g = town()
    loot(g)
    with pytest.raises(RuleViolation) as err:
        g.act("lose-hits", at="15:05", character="p10", hits=1, attacker="p0")
    assert err.value.rule_ids == ("W-LOOT-06", "A-W-04")  # W-LOOT-06
    g.act("lose-hits", at="15:05", character="p0", hits=1, attacker="p10")  # the other way
    g.act("lose-hits", at="15:05", character="p10", hits=1, attacker="p5")  # not a resident
    g.act("army-leaves", at="15:45", location="mill")
    g.act("lose-hits", at="15:50", character="p11", hits=1, attacker="p1")  # A-W-04: after exit


def test_resident_no_damage_can_end_at_the_declaration() -> None:
    g = town(resident_no_damage_until="declared_looted")
    loot(g)
    g.advance("15:30")
    g.act("lose-hits", at="15:31", character="p10", hits=1, attacker="p0")  # A-W-04 alternative
    assert g.ch("p10").hits == 2


def test_a_resident_hides_plays_a_heavy_wound_kills_themself_or_surrenders() -> None:
    g = town()
    g.act("register-location", id="farm", name="Farm", residents=["p3", "p4", "p5", "p6"])
    g.act("start-assault", at="14:30", location="farm", army="Reds")
    g.act("start-looting", at="15:00", location="farm", army="Reds", commander_orders=True)
    g.act("resident-acts", location="farm", resident="p3", choice="hide")
    g.act("resident-acts", location="farm", resident="p4", choice="heavy_wound")
    g.act("resident-acts", location="farm", resident="p5", choice="suicide")
    g.act("resident-acts", location="farm", resident="p6", choice="surrender", fate="enslaved")
    res = g.state.locations["farm"].looting.residents  # type: ignore[union-attr]
    # W-LOOT-07: (a) hide, (b) a heavy wound, (c) suicide, (d) surrender
    assert res == {"p3": "hidden", "p4": "heavy_wound", "p5": "suicide", "p6": "surrendered"}
    assert wound_state(g.ch("p4")) == "heavy_unbandaged" and not g.ch("p5").alive
    assert g.ch("p6").alive  # W-LOOT-08: an enslaved prisoner lives on under the general rules


def test_an_executed_prisoner_dies_under_the_general_rules() -> None:
    g = town()
    loot(g)
    g.act("resident-acts", location="mill", resident="p0", choice="surrender", fate="executed")
    assert not g.ch("p0").alive  # W-LOOT-08
    assert g.journal() == [] and g.ch("p0").conditions[0].source == "executed"


def test_looted_when_every_resident_is_out_or_after_thirty_minutes() -> None:
    g = town()
    loot(g)
    g.act("resident-acts", at="15:05", location="mill", resident="p0", choice="killed")
    g.act("resident-acts", at="15:10", location="mill", resident="p1", choice="fled")
    assert g.state.locations["mill"].looting.declared_at is None  # type: ignore[union-attr]
    g.act("resident-acts", at="15:20", location="mill", resident="p2", choice="surrender")
    assert g.state.locations["mill"].looting.declared_at == t("15:20")  # type: ignore[union-attr]  # W-LOOT-09
    hiding = town()
    loot(hiding)
    hiding.act("resident-acts", at="15:05", location="mill", resident="p0", choice="hide")
    hiding.advance("15:30")
    assert hiding.state.locations["mill"].looting.declared_at == t("15:30")  # type: ignore[union-attr]  # W-LOOT-09


def test_the_search_can_end_with_an_early_declaration() -> None:
    g = town(loot_search_ends_on_declaration=True)
    loot(g)
    for r in ("p0", "p1", "p2"):
        g.act("resident-acts", at="15:10", location="mill", resident=r, choice="fled")
    assert g.state.locations["mill"].looting.search_ended_at == t("15:10")  # type: ignore[union-attr]  # A-W-02
    default = town()
    loot(default)
    for r in ("p0", "p1", "p2"):
        default.act("resident-acts", at="15:10", location="mill", resident=r, choice="fled")
    assert default.state.locations["mill"].looting.search_ended_at is None  # type: ignore[union-attr]  # A-W-02


def test_four_hours_without_armies_or_assaults_after_the_army_leaves() -> None:
    g = town()
    loot(g)
    g.act("form-army", at="15:40", location="mill", army="Mill guard")  # A-W-03: not yet
    g.act("army-leaves", at="15:45", location="mill")
    with pytest.raises(RuleViolation) as err:
        g.act("form-army", at="19:44", location="mill", army="Mill guard")
    assert err.value.rule_ids[0] == "W-LOOT-10"  # W-LOOT-10
    with pytest.raises(RuleViolation) as err:
        g.act("start-assault", at="19:44", location="mill", army="Blues")
    assert err.value.rule_ids[0] == "W-LOOT-11"  # W-LOOT-11
    g.act("start-assault", at="19:45", location="mill", army="Blues")


def test_the_protection_can_start_at_the_declaration() -> None:
    g = town(loot_protection_anchor="declared_looted")
    loot(g)
    g.advance("15:30")
    with pytest.raises(RuleViolation):
        g.act("start-assault", at="19:29", location="mill", army="Blues")  # A-W-03 alternative
    g.act("start-assault", at="19:30", location="mill", army="Blues")
