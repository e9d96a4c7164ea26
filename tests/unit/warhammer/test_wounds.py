"""Wounds, their countdowns and what each state allows (checklist-000 §1, §2.2)."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import RuleViolation
from lazaretto.rulesets.warhammer_larp.checks import wound_state
from tests.game import Game, t


def allowed(g: Game, cid: str) -> list[str]:
    return g.rs.describe(g.state, cid, "en")["allowed"]  # type: ignore[misc]


def test_losing_some_hits_is_a_light_wound_with_no_penalties(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=2)
    c = g.ch("C")
    assert c.hits == 1 and wound_state(c) == "light"  # W-DEF-06: at least 1 hit left
    # W-WND-07 / W-DEF-06: a light wound restricts nothing
    assert set(allowed(g, "C")) >= {"fight", "run", "cast spells", "craft"}


def test_losing_all_hits_is_a_heavy_wound_at_once_with_death_15_minutes_later(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=3)
    c = g.ch("C")
    assert wound_state(c) == "heavy_unbandaged" and c.hits == 0  # W-DEF-02
    assert c.condition("heavy_wound").deadline == t("12:15")  # W-DEF-04, A-W-10
    g.advance("12:14:59")
    assert g.ch("C").alive
    g.advance("12:15")
    assert not g.ch("C").alive  # W-WND-12


def test_unbandaged_light_wound_turns_heavy_30_minutes_after_the_first_hit(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=1)
    g.act("lose-hits", at="12:20", character="C", hits=1)  # A-W-07: no restart
    g.advance("12:29:59")
    assert wound_state(g.ch("C")) == "light"
    g.advance("12:30")
    c = g.ch("C")
    # W-WND-08, W-DEF-07: all remaining hits lost, however many were left
    assert wound_state(c) == "heavy_unbandaged" and c.hits == 0
    assert c.condition("heavy_wound").deadline == t("12:45")  # A-W-10


def test_latest_hit_anchor_restarts_the_light_wound_countdown() -> None:
    g = Game(params={"light_timer_anchor": "latest_hit"})  # A-W-07 alternative reading
    g.add("C")
    g.act("lose-hits", at="12:00", character="C", hits=1)
    g.act("lose-hits", at="12:20", character="C", hits=1)
    assert g.ch("C").condition("light_wound").deadline == t("12:50")


def test_a_hit_to_zero_during_a_light_wound_starts_the_heavy_countdown_then(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=2)
    g.act("lose-hits", at="12:20", character="C", hits=1)
    assert g.ch("C").condition("heavy_wound").deadline == t("12:35")  # W-DEF-02, A-W-07
    assert not g.state.timers_for("C", "light_wound_worsens")


def test_unbandaged_heavy_wound_allows_only_whisper_potions_crawl(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=3)
    acts = allowed(g, "C")
    # W-DEF-03, W-WND-09: no game actions, no running or walking, whisper only
    assert not {"fight", "cast spells", "craft", "run", "walk", "talk"} & set(acts)
    # W-WND-10: potions, whisper, crawl; walking only when supported
    assert set(acts) == {"whisper", "drink potions", "crawl", "walk only when supported"}


def test_bandaged_heavy_wound_allows_slow_walking_talking_and_spells(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=3)
    g.act("apply-bandage", at="12:05", healer="H", patient="C", bandages=3, mat="m1")
    acts = set(allowed(g, "C"))
    assert {"walk slowly", "talk", "cast spells"} <= acts  # W-WND-13
    assert not {"run", "fight", "support the wounded"} & acts  # W-WND-14
    with pytest.raises(RuleViolation) as err:
        g.act("support", supporter="C", patient="H")
    assert "W-WND-14" in err.value.rule_ids or "W-WND-10" in err.value.rule_ids


def test_supporting_a_heavy_wounded_character_costs_the_supporter_combat(g: Game) -> None:
    g.add("F", hits=3)
    g.act("lose-hits", at="12:00", character="C", hits=3)
    g.act("support", supporter="F", patient="C")
    assert "fight" not in allowed(g, "F")  # W-WND-11
    g.act("stop-support", supporter="F")
    assert "fight" in allowed(g, "F")


def test_a_bandaged_character_cannot_support_anyone(g: Game) -> None:
    g.add("E", hits=3)
    g.act("lose-hits", at="12:00", character="E", hits=3)
    g.act("lose-hits", at="12:00", character="C", hits=3)
    g.act("apply-bandage", healer="H", patient="E", bandages=3, mat="m1")
    with pytest.raises(RuleViolation) as err:
        g.act("support", supporter="E", patient="C")
    assert "W-WND-14" in err.value.rule_ids


def test_bandaging_stops_the_countdowns_and_holds_without_a_time_limit(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=2)
    g.act("apply-bandage", at="12:29", healer="H", patient="C", bandages=2, mat="m1")
    assert not g.state.timers_for("C")  # W-WND-02, A-W-06
    g.advance("18:00")
    c = g.ch("C")
    assert c.alive and wound_state(c) == "light" and c.hits == 1


def test_bandage_duration_parameter_restarts_the_countdown_when_it_runs_out() -> None:
    g = Game(params={"bandage_duration_minutes": 60})  # A-W-06 alternative
    g.healer("H")
    g.add("C")
    g.act("register-mat", id="m1", healer="H", length_cm=180, width_cm=60)
    g.act("lose-hits", at="12:00", character="C", hits=3)
    g.act("apply-bandage", at="12:10", healer="H", patient="C", bandages=3, mat="m1")
    g.advance("13:10")
    assert g.ch("C").condition("heavy_wound").deadline == t("13:25")
    g.advance("13:25")
    assert not g.ch("C").alive


def test_a_bandage_at_the_deadline_second_is_too_late(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=2)
    g.act("apply-bandage", at="12:30", healer="H", patient="C", bandages=3, mat="m1")
    c = g.ch("C")
    # A-W-11: the light wound turned heavy at 12:30:00 before the bandage was logged
    assert wound_state(c) == "heavy_bandaged"
    assert [e.kind for e in g.events if e.kind == "wound.became_heavy"]


def test_inclusive_boundary_parameter_lets_a_bandage_at_the_deadline_count() -> None:
    g = Game(params={"timer_boundary_inclusive": True})  # A-W-11 alternative
    g.healer("H")
    g.add("C")
    g.act("register-mat", id="m1", healer="H", length_cm=180, width_cm=60)
    g.act("lose-hits", at="12:00", character="C", hits=2)
    g.act("apply-bandage", at="12:30", healer="H", patient="C", bandages=2, mat="m1")
    assert wound_state(g.ch("C")) == "light"


def test_a_hit_after_bandaging_starts_a_new_30_minute_countdown(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=1)
    g.act("apply-bandage", at="12:05", healer="H", patient="C", bandages=1, mat="m1")
    g.act("lose-hits", at="12:40", character="C", hits=1)
    assert g.ch("C").condition("light_wound").deadline == t("13:10")  # A-W-07


def test_a_dead_character_stays_as_a_corpse_to_interact_with(g: Game) -> None:
    g.add("P")
    g.act("lose-hits", at="12:00", character="C", hits=3)
    g.advance("12:15")
    evs = g.act("interact-corpse", actor="P", corpse="C", interaction="funeral_rite")
    assert evs[-1].kind == "corpse.interacted"  # W-DEF-01
    g.act("interact-corpse", actor="P", corpse="C", interaction="search")
    g.act("interact-corpse", actor="P", corpse="C", interaction="carry")
    with pytest.raises(RuleViolation) as err:  # W-DEF-01: death is of the body
        g.act("lose-hits", character="C", hits=1)
    assert "W-DEF-01" in err.value.rule_ids
    with pytest.raises(RuleViolation):
        g.act("interact-corpse", actor="P", corpse="H", interaction="search")


def test_a_master_records_a_death(g: Game) -> None:
    g.act("kill", at="12:00", character="C", cause="executed")
    assert not g.ch("C").alive and not g.state.timers_for("C")  # W-DEF-01


def test_spells_prayers_potions_and_supplies_can_cure_a_heavy_wound(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=3)
    g.act("cure-by-other-means", at="12:05", patient="C", means="prayer")
    c = g.ch("C")
    # W-DEF-05, W-WND-15 (A-W-33 hook: the master's ruling); W-DEF-15: hits back
    assert c.alive and c.hits == 3 and wound_state(c) == "healthy"
    assert not g.state.timers_for("C")
    with pytest.raises(RuleViolation):
        g.act("cure-by-other-means", patient="C", means="prayer")  # nothing to cure


def test_next_change_query_tells_what_comes_and_changes_nothing(g: Game) -> None:
    from lazaretto.core.engine import run_query

    g.act("lose-hits", at="12:00", character="C", hits=2)
    before = g.state.model_copy(deep=True)
    answer = run_query(g.rs, g.state, "next-change", {"character": "C"}, lang="en")
    # W-WND-08: the light wound turns heavy 30 minutes after the first hit
    assert answer["upcoming"][0]["kind"] == "light_wound_worsens"
    assert answer["upcoming"][0]["at"] == "2026-06-13T12:30:00"
    assert answer["summary"] == "Rustam: light wound turns heavy at 12:30:00"
    assert g.state == before
