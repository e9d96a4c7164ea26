"""Boundaries of zone-larp rules that a one-step change of their data or code would move
unnoticed (issue 19, ``bench/mutate.py``): each test pins the value on both sides."""

from __future__ import annotations

import pytest

from lazaretto.core.events import Event
from lazaretto.rulesets.zone_larp import RULESET
from lazaretto.rulesets.zone_larp.params import ImplantSpec, ZoneParams
from lazaretto.rulesets.zone_larp.rehab import Implant, rehab_minutes
from tests.game import Game
from tests.unit.zone_larp.conftest import ask, event, state_of, zone_game


def test_the_catalogue_torso_regenerator_takes_exactly_five_minutes_off_its_zone(g: Game) -> None:
    for cid in ("C", "D"):
        g.act("mark-zone", character=cid, zone="torso", state="damaged")
        g.act("mark-zone", character=cid, zone="left_arm", state="damaged")
    g.act("install-implant", character="C", name="torso_regenerator")
    assert ask(g, "rehab-time", character="D")["minutes"] == 20  # A-Z-11, Z-ZONE-07: 10 a zone
    # Z-IMPL-01, A-Z-28: the torso's 10 minutes less 5; the 5-minute base does not hide it
    assert ask(g, "rehab-time", character="C")["minutes"] == 15


def _operate(chance: int) -> Event:
    g = zone_game({"ordinary_operation_death_chance": chance})
    g.act("strike", at="14:00", character="C", weapon="red_ribbon")
    g.act("start-operation", at="14:01", healer="H", patient="C", measure="ordinary")
    return event(
        g.act("finish-operation", at="14:10", healer="H", patient="C"), "operation.finished"
    )


def test_an_ordinary_operation_kills_when_the_d100_is_at_most_the_chance() -> None:
    rolled = int(_operate(100).dice[0]["total"])  # the same seed rolls the same d100
    assert rolled > 1
    died = _operate(rolled)
    assert died.dice[0]["total"] == rolled and died.payload["outcome"] == "died"  # A-Z-14: ≤
    lived = _operate(rolled - 1)
    assert lived.dice[0]["total"] == rolled and lived.payload["outcome"] == "survived"  # A-Z-14


def test_a_death_chance_of_1_percent_is_rolled() -> None:
    finished = _operate(1)
    assert [d["expression"] for d in finished.dice] == ["1d100"]  # A-Z-14: any chance above 0


@pytest.mark.parametrize(("mode", "floor"), [("sum_nonintact", 5), ("all_zones_L60", 0),
                                             ("additive_L77", 0)])  # fmt: skip
def test_only_the_default_reading_has_a_minimum_stay(mode: str, floor: int) -> None:
    params = RULESET.campaign_params({"rehab_mode": mode})
    assert isinstance(params, ZoneParams)
    whole = Implant("w", ImplantSpec(zone="all", mechanism="regeneration", minutes=100))
    est = rehab_minutes({"torso": "damaged"}, False, [whole], params)
    # A-Z-11: L77's example has the 5-minute base; L60 and L76-L77 count zones only;
    # A-Z-28: an implant takes a zone down to 0 at most
    assert est.minutes == floor


# --- survivors of the seed-21 code sample (issue 19) -----------------------------------------


def test_an_escort_ends_the_wait_only_where_the_wait_lasts_until_help() -> None:
    from lazaretto.core.errors import RuleViolation

    g = zone_game()  # A-Z-07 default: stay 5 minutes, then go
    g.act("strike", at="13:00", character="C", weapon="red_ribbon")
    with pytest.raises(RuleViolation) as err:
        g.act("arrive-hospital", at="13:02", patient="C", escort="H")
    assert "Z-HW-07" in err.value.rule_ids  # Z-HW-07: an escort does not shorten the 5 minutes
    h = zone_game({"heavy_wait_mode": "until_help"})  # Z-HW-06 (A-Z-07 version L34)
    h.act("strike", at="13:00", character="C", weapon="red_ribbon")
    with pytest.raises(RuleViolation):
        h.act("arrive-hospital", at="13:02", patient="C")  # nobody came
    h.act("arrive-hospital", at="13:02", patient="C", escort="H")
    assert state_of(h, "C") == "in_hospital"  # Z-HW-06: help came, they brought the player in


def test_may_do_names_the_wound_state_in_the_asked_language(g: Game) -> None:
    g.act("strike", at="13:00", character="C", weapon="red_ribbon")
    ru = ask(g, "may-do", lang="ru", character="C", activity="run")["summary"]
    en = ask(g, "may-do", lang="en", character="C", activity="run")["summary"]
    assert "При смерти (тяжёлое ранение)" in ru  # Z-STATE-07: the Russian state name
    assert "Dying (heavy wound)" in en


def test_the_same_infection_twice_is_a_conflict_another_one_is_not(g: Game) -> None:
    from lazaretto.core.errors import Conflict

    g.act("expose-infection", character="C", infection="V1", source="a rusty can")
    with pytest.raises(Conflict):
        g.act("expose-infection", character="C", infection="V1", source="a door handle")
    g.act("expose-infection", character="C", infection="V2", source="a door handle")
    held = sorted(c.data["code"] for c in g.ch("C").conditions if c.kind == "infection")
    assert held == ["V1", "V2"]  # Z-INF-01: each infection is caught once
