"""Heavy wounds (тяжёлое ранение): checklist-001 Z-HW; A-Z-04, A-Z-07 .. A-Z-10, A-Z-26."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import RuleViolation
from tests.game import Game, t
from tests.unit.zone_larp.conftest import ask, card, event, may, state_of, why, zone_game


def heavy(g: Game, cid: str = "C", at: str = "13:00") -> None:
    g.act("strike", at=at, character=cid, weapon="red_ribbon")


def test_a_heavy_wound_needs_rehabilitation_in_the_hospital(g: Game) -> None:
    heavy(g)
    with pytest.raises(RuleViolation) as err:
        g.act("treat-wounds", at="13:01", healer="H", patient="C")
    assert "Z-TRT-07" in err.value.rule_ids
    g.act("arrive-hospital", at="13:06", patient="C")
    assert state_of(g, "C") == "in_hospital"  # Z-HW-01: rehabilitation in the Hospital
    with pytest.raises(RuleViolation) as refused:
        g.act("arrive-hospital", at="13:07", patient="D")
    assert "Z-HW-01" in refused.value.rule_ids  # only a heavy wound (or death) goes there


def test_pyrotechnics_always_cause_a_heavy_wound() -> None:
    g = zone_game()
    g.add("T", hits=5)
    evs = g.act("strike", at="13:00", character="T", weapon="pyrotechnics")
    assert "Z-HW-02" in event(evs, "wound.became_heavy").rule_ids  # Z-HW-02; A-Z-22
    assert g.ch("T").hits == 0


def test_pyrotechnics_as_an_ordinary_strike_is_a_parameter() -> None:
    g = zone_game({"pyro_causes_heavy": False})  # A-Z-22 alternative
    g.act("strike", at="13:00", character="C", weapon="pyrotechnics")
    assert g.ch("C").hits == 1 and state_of(g, "C") == "light"


def test_by_default_the_player_stays_exactly_five_minutes_then_sets_off(g: Game) -> None:
    heavy(g)
    assert g.ch("C").condition("heavy_wound").data["wait_until"] == "2026-06-13T13:05:00"
    with pytest.raises(RuleViolation) as err:
        g.act("set-off", at="13:04", character="C")
    assert "Z-HW-04" in err.value.rule_ids  # Z-HW-04: stay 5 minutes, then head off
    evs = g.advance("13:05")
    assert "Z-HW-04" in event(evs, "wound.set_off").rule_ids
    assert state_of(g, "C") == "heavy_en_route" and card(g, "C")["armband"]  # Z-HW-08


def test_until_combat_end_mode_keeps_the_player_while_the_fight_goes_on() -> None:
    g = zone_game({"heavy_wait_mode": "until_combat_end"})  # Z-HW-03 (A-Z-07 version L36)
    g.act("declare-combat", at="12:55", ongoing=True)
    heavy(g)
    g.advance("13:05")
    assert g.ch("C").condition("heavy_wound").data["extended"]  # Z-HW-03: fight still on
    with pytest.raises(RuleViolation) as err:
        g.act("set-off", at="13:10", character="C")
    assert "Z-HW-03" in err.value.rule_ids
    g.act("declare-combat", at="13:12", ongoing=False)
    assert state_of(g, "C") == "heavy_en_route"  # Z-HW-03: fighting over, off they go


def test_until_combat_end_mode_still_waits_at_least_five_minutes() -> None:
    g = zone_game({"heavy_wait_mode": "until_combat_end"})
    heavy(g)
    with pytest.raises(RuleViolation):
        g.act("set-off", at="13:02", character="C")  # Z-HW-03: не менее 5 минут
    g.advance("13:05")
    assert state_of(g, "C") == "heavy_en_route"  # no fight going on


def test_leave_within_mode_lets_the_player_go_at_once_but_by_five_minutes() -> None:
    g = zone_game({"heavy_wait_mode": "leave_within"})  # Z-HW-05 (A-Z-07 version L43)
    heavy(g)
    g.act("set-off", at="13:01", character="C")
    assert state_of(g, "C") == "heavy_en_route"  # Z-HW-05: may leave at once
    heavy(g, "D", at="13:02")
    g.advance("13:07")
    assert state_of(g, "D") == "heavy_en_route"  # Z-HW-05: must have left within 5 minutes


def test_until_help_mode_keeps_the_player_until_someone_comes() -> None:
    g = zone_game({"heavy_wait_mode": "until_help"})  # Z-HW-06 (A-Z-07 version L34)
    heavy(g)
    g.advance("13:10")
    assert state_of(g, "C") == "heavy_waiting"  # Z-HW-06: no 5-minute release
    with pytest.raises(RuleViolation) as err:
        g.act("set-off", at="13:10", character="C")
    assert "Z-HW-06" in err.value.rule_ids
    g.act("set-off", at="13:11", character="C", escort="H")
    assert state_of(g, "C") == "heavy_en_route"


def test_the_wait_length_is_a_parameter() -> None:
    g = zone_game({"heavy_wait_minutes": 3})  # A-Z-07
    heavy(g)
    g.advance("13:03")
    assert state_of(g, "C") == "heavy_en_route"


def test_a_heavy_wounded_player_cannot_move_act_or_speak(g: Game) -> None:
    heavy(g)
    assert card(g, "C")["posture"] == "lying_or_sitting"  # Z-HW-07: lying or sitting
    for act in ("walk", "crawl", "stand_up", "run"):
        assert not may(g, "C", act)  # Z-HW-07; A-Z-04: immobile during the wait
    assert "Z-HW-07" in why(g, "C", "walk")
    for act in ("melee", "radio", "first_aid_kit", "treat_others"):
        assert not may(g, "C", act)  # Z-HW-10: no action without medical help
    assert not may(g, "C", "speak") and "Z-HW-10" in why(g, "C", "speak")  # Z-HW-10, A-Z-09


def test_crawling_and_speaking_while_waiting_are_parameters() -> None:
    g = zone_game({"heavy_may_crawl_during_wait": True, "heavy_can_speak": True})
    heavy(g)
    assert may(g, "C", "crawl")  # A-Z-04 alternative (L20)
    assert may(g, "C", "speak")  # A-Z-09 alternative (L43)


def test_the_red_armband_goes_on_at_the_end_of_the_wait(g: Game) -> None:
    heavy(g)
    assert not card(g, "C")["armband"]  # A-Z-08: not yet
    g.advance("13:05")
    assert card(g, "C")["armband"]  # Z-HW-08: the red armband shows the state
    assert "Z-HW-08" in [p["rule"] for p in card(g, "C")["props"]]


def test_the_red_armband_at_once_is_a_parameter() -> None:
    g = zone_game({"armband_at": "immediately"})  # A-Z-08 alternative (L37, L41)
    heavy(g)
    assert card(g, "C")["armband"]


def test_a_heavy_wounded_player_signals_only_with_an_indicator(g: Game) -> None:
    heavy(g)
    assert "Z-HW-09" in [p["rule"] for p in card(g, "C")["props"]]  # Z-HW-09
    with pytest.raises(RuleViolation) as err:
        g.act("interact", at="13:01", actor="D", target="C")
    assert "Z-HW-09" in err.value.rule_ids  # Z-HW-09: only a light or colour indicator
    with pytest.raises(RuleViolation) as own:
        g.act("interact", at="13:01", actor="C", target="D")
    assert "Z-HW-10" in own.value.rule_ids  # Z-HW-10: cannot speak


def test_on_the_way_the_player_walks_to_the_hospital_and_interacts_with_no_one(g: Game) -> None:
    heavy(g)
    g.advance("13:05")
    assert may(g, "C", "walk") and not may(g, "C", "melee")  # Z-HW-11, A-Z-04
    assert "Z-HW-09" in why(g, "C", "speak")
    g.act("arrive-hospital", at="13:08", patient="C")  # Z-HW-11: check and rehabilitation
    assert state_of(g, "C") == "in_hospital"


def test_belongings_stay_with_the_heavy_wounded_until_the_hospital(g: Game) -> None:
    heavy(g)
    assert not may(g, "C", "drop_items")  # Z-HW-12, A-Z-26
    assert "Z-HW-12" in why(g, "C", "drop_items")
    g.advance("13:05")
    assert not may(g, "C", "drop_items")  # still on the way


def test_unlocked_belongings_are_a_parameter() -> None:
    g = zone_game({"heavy_items_locked": False})  # A-Z-26 alternative
    heavy(g)
    assert may(g, "C", "drop_items")


def test_a_heavy_wound_forgets_the_half_hour_before_it(g: Game) -> None:
    heavy(g)
    mem = ask(g, "memory", character="C")
    assert mem["gaps"] == [  # Z-HW-13: полчаса до ранения
        {"from": "2026-06-13T12:30:00", "to": "2026-06-13T13:00:00", "reason": "heavy_wound"}
    ]
    assert not ask(g, "memory", character="C", at="2026-06-13T12:45:00")["remembers"]
    assert ask(g, "memory", character="C", at="2026-06-13T12:29:59")["remembers"]
    g.act("arrive-hospital", at="13:05", patient="C")
    g.act("examine", at="13:06", patient="C")
    g.advance("13:20")
    g.act("discharge", at="13:20", patient="C", payment="work")
    assert ask(g, "memory", character="C")["gaps"]  # A-Z-10: the loss is for good


def test_the_amnesia_window_is_a_parameter() -> None:
    g = zone_game({"amnesia_window_minutes": 10, "amnesia_applies_to": ["clinical_death"]})
    heavy(g)
    assert ask(g, "memory", character="C")["gaps"] == []  # A-Z-10: only clinical death
    g.act("kill", at="13:01", character="D")
    gap = ask(g, "memory", character="D")["gaps"][0]
    assert (gap["from"], gap["to"]) == ("2026-06-13T12:51:00", "2026-06-13T13:01:00")


def test_the_countdown_is_kept_for_the_player(g: Game) -> None:
    heavy(g)
    ups = ask(g, "countdowns", character="C")["upcoming"]
    assert [u["kind"] for u in ups] == ["heavy_wait_over", "dying_death"]  # Z-HW-14
    assert ups[1]["at"] == t("13:15").isoformat()
    assert "Z-HW-14" in [p["rule"] for p in card(g, "C")["props"]]


def test_reaching_the_hospital_stops_the_death_countdown(g: Game) -> None:
    heavy(g)
    g.advance("13:05")
    g.act("arrive-hospital", at="13:14", patient="C")
    g.advance("14:00")
    assert state_of(g, "C") == "in_hospital"  # A-Z-07: dying_timer_stops_on arrival


def test_what_stops_the_death_countdown_is_a_parameter() -> None:
    g = zone_game({"dying_timer_stops_on": ["operation_start"]})  # A-Z-07 alternative
    heavy(g)
    g.advance("13:05")
    g.act("arrive-hospital", at="13:10", patient="C")
    g.advance("13:15")
    assert state_of(g, "C") == "clinical_death"
