"""Hit removal (хитосъём), forbidden zones and the health states (checklist-001 Z-HP,
Z-CMB, Z-STATE; A-Z-02, A-Z-03, A-Z-21, A-Z-22, A-Z-25, A-Z-29)."""

from __future__ import annotations

import pytest

from lazaretto.core.character import Character
from lazaretto.core.engine import add_character
from lazaretto.core.errors import RuleViolation
from tests.game import Game, t
from tests.unit.zone_larp.conftest import (
    ask,
    card,
    event,
    kinds,
    may,
    params,
    state_of,
    why,
    zone_game,
)


def test_a_base_character_has_two_hits_and_the_sheet_fills_them_in(g: Game) -> None:
    g.add("N", hits=5)
    g.act("issue-charsheet", character="N")
    assert params(g).base_hits == 2  # A-Z-03: not in the text; 2 by default
    assert g.ch("N").hits == g.ch("N").hits_max == 2
    g.act("issue-charsheet", character="N", hits=3)
    assert g.ch("N").hits == 3


def test_an_ordinary_weapon_removes_one_hit(g: Game) -> None:
    evs = g.act("strike", at="12:00", character="C", weapon="normal", zone="torso")
    assert g.ch("C").hits == 1  # Z-HP-03
    lost = event(evs, "wound.hits_lost")
    assert "Z-HP-03" in lost.rule_ids and "Z-HP-02" in lost.rule_ids  # Z-HP-02 hittable zone
    assert lost.payload["lost"] == 1


def test_a_red_ribbon_weapon_removes_two_hits() -> None:
    g = zone_game()
    g.add("T", hits=3)
    g.act("strike", at="12:00", character="T", weapon="red_ribbon")
    assert g.ch("T").hits == 1  # Z-HP-04
    assert state_of(g, "T") == "light"


def test_a_strike_on_a_shield_or_a_weapon_is_no_hit(g: Game) -> None:
    for what in ("shield", "weapon"):
        evs = g.act("strike", at="12:00", character="C", landed_on=what, weapon="red_ribbon")
        assert g.ch("C").hits == 2  # Z-HP-05
        assert kinds(evs) == ["strike.parried"]
    assert state_of(g, "C") == "healthy"


def test_hit_removal_depends_on_the_zones_the_organisers_list() -> None:
    g = zone_game({"hittable_zones": ["torso"]})  # A-Z-21
    with pytest.raises(RuleViolation) as err:
        g.act("strike", at="12:00", character="C", zone="head")
    assert "Z-HP-02" in err.value.rule_ids  # Z-HP-01: by the details of the damage rules
    g.act("strike", at="12:00", character="C", zone="torso")
    assert g.ch("C").hits == 1  # Z-HP-01


@pytest.mark.parametrize("zone", ["neck", "fingers"])
def test_a_strike_at_a_forbidden_zone_is_refused_and_removes_no_hits(g: Game, zone: str) -> None:
    with pytest.raises(RuleViolation) as err:
        g.act("strike", at="12:00", character="C", zone=zone)
    assert {"Z-CMB-01", "Z-CMB-02", "A-Z-21"} <= set(err.value.rule_ids)  # Z-CMB-02
    assert "exclude" in (err.value.tip or "")  # Z-CMB-02: can lead to exclusion
    assert g.ch("C").hits == 2  # Z-CMB-01: deliberate strikes there do not count


def test_a_strike_at_a_non_combat_status_point_is_refused() -> None:
    g = zone_game({"forbidden_zones": ["neck", "fingers", "status_point"]})
    with pytest.raises(RuleViolation) as err:
        g.act("strike", at="12:00", character="C", zone="status_point")
    assert "Z-CMB-01" in err.value.rule_ids  # Z-CMB-01: небоевые статусные точки


def test_the_strike_form_shows_the_combat_safety_checklist(g: Game) -> None:
    rules = {i.rule for i in params(g).props_checklists["strike"]}
    assert {"Z-CMB-01", "Z-CMB-03"} <= rules  # Z-CMB-03: props, shown before a strike


def test_the_state_follows_the_damage_taken(g: Game) -> None:
    assert state_of(g, "C") == "healthy"  # Z-STATE-05: all hits
    assert card(g, "C")["state_label"] == "Healthy"
    g.act("strike", at="12:00", character="C")
    assert state_of(g, "C") == "light"  # Z-STATE-01, Z-STATE-06: some hits lost, above 0
    assert card(g, "C", "ru")["state_label"].startswith("Ранен")  # A-Z-02: «Ранен» above 0
    g.act("strike", at="12:01", character="D", weapon="red_ribbon")
    assert g.ch("D").hits == 0 and state_of(g, "D") == "heavy_waiting"  # Z-STATE-08
    assert card(g, "D", "ru")["state_label"].startswith("При смерти")  # Z-STATE-03, A-Z-02


def test_zero_hits_is_dying_not_wounded_and_the_hospital_is_out_of_game(g: Game) -> None:
    g.act("strike", at="12:00", character="C", weapon="red_ribbon")
    # Z-STATE-03: «Ранен» or «Вне Игры» at 0 hits; A-Z-02 default: 0 hits = Dying
    assert card(g, "C")["state_label"] == "Dying (heavy wound)"
    g.act("arrive-hospital", at="12:05", patient="C")
    assert card(g, "C", "ru")["state_label"] == "Вне игры (Госпиталь)"  # Z-STATE-03 «Вне Игры»


def test_state_labels_are_a_parameter() -> None:
    labels = {"heavy_waiting": {"en": "Out of game", "ru": "Вне Игры"}}
    g = zone_game({"state_labels": labels})  # A-Z-02: config "state labels"
    g.act("strike", at="12:00", character="C", weapon="red_ribbon")
    assert card(g, "C", "ru")["state_label"] == "Вне Игры"  # Z-STATE-03 alternative name


def test_a_red_ribbon_strike_on_a_healthy_character_is_a_heavy_wound(g: Game) -> None:
    g.act("strike", at="12:00", character="C", weapon="red_ribbon")
    assert state_of(g, "C") == "heavy_waiting"  # A-Z-22: hits first, the state from them


def test_the_player_is_shown_their_state_and_its_countdown(g: Game) -> None:
    g.act("strike", at="12:00", character="C")
    c = card(g, "C")
    assert "Z-STATE-02" in {p["rule"] for p in c["props"]}  # Z-STATE-02: keep track of it
    light = next(x for x in c["conditions"] if x["kind"] == "light_wound")
    assert light["visibility"] == "all" and light["deadline"] == "2026-06-13T12:10:00"


def test_at_zero_hits_the_player_drops_to_the_ground(g: Game) -> None:
    g.act("strike", at="12:00", character="C", weapon="red_ribbon")
    props = {p["rule"]: p["text"] for p in card(g, "C")["props"]}
    assert "Drop to the ground" in props["Z-STATE-04"]  # Z-STATE-04, A-Z-25
    assert card(g, "C")["posture"] == "lying_or_sitting"


def test_a_wounded_character_cannot_run(g: Game) -> None:
    g.act("strike", at="12:00", character="C")
    g.act("apply-kit", at="12:01", character="C")
    assert not may(g, "C", "run")  # Z-STATE-07
    assert "Z-STATE-07" in why(g, "C", "run")
    assert may(g, "C", "melee") and may(g, "C", "walk")  # Z-STATE-07: only restricted


def test_a_dying_character_cannot_run_or_fight_and_dies_in_15_minutes(g: Game) -> None:
    g.act("strike", at="12:00", character="C", weapon="red_ribbon")
    for act in ("run", "melee", "shoot"):
        assert not may(g, "C", act)  # Z-STATE-09
    assert g.ch("C").condition("heavy_wound").deadline == t("12:15")  # Z-STATE-10
    g.advance("12:14:59")
    assert state_of(g, "C") != "clinical_death"
    g.advance("12:15")
    assert state_of(g, "C") == "clinical_death"  # Z-STATE-10: dies without medicine


def test_the_hits_only_dying_state_may_crawl_slowly() -> None:
    g = zone_game({"wound_model": "hits_only"})  # A-Z-04 other reading, as L20
    g.act("strike", at="12:00", character="C", weapon="red_ribbon")
    assert state_of(g, "C") == "dying"
    assert may(g, "C", "crawl") and not may(g, "C", "run")  # Z-STATE-09
    assert "Z-STATE-09" in why(g, "C", "melee")


def test_unconsciousness_lasts_one_minute_and_is_not_remembered(g: Game) -> None:
    g.act("knock-out", at="18:05", character="C")
    assert g.ch("C").condition("unconscious").deadline == t("18:06")  # Z-STATE-11, A-Z-29
    assert not may(g, "C", "speak") and "Z-STATE-11" in why(g, "C", "speak")
    mem = ask(g, "memory", character="C", at="2026-06-13T18:05:30")
    assert mem["remembers"] is False  # Z-STATE-12: that minute is flagged as not known
    assert ask(g, "memory", character="C", at="2026-06-13T18:06:00")["remembers"] is True
    g.advance("18:06")
    assert not g.ch("C").has("unconscious") and may(g, "C", "speak")


def test_knockdown_keeps_a_stunned_character_down_for_15_seconds(g: Game) -> None:
    evs = g.act("stun", at="18:00:00", character="C")
    assert (
        "Z-STATE-14" in event(evs, "state.knocked_down").rule_ids
    )  # Z-STATE-14: happens when stunned
    assert g.ch("C").condition("knockdown").deadline == t("18:00:15")  # Z-STATE-13
    assert not may(g, "C", "stand_up") and "Z-STATE-13" in why(g, "C", "stand_up")
    g.advance("18:00:14")
    assert not may(g, "C", "walk")
    g.advance("18:00:15")
    assert may(g, "C", "stand_up")


def test_short_state_durations_are_parameters() -> None:
    g = zone_game({"unconscious_seconds": 120, "knockdown_seconds": 30})  # A-Z-29
    g.act("knock-out", at="18:00", character="C")
    g.act("stun", at="18:00", character="D")
    assert g.ch("C").condition("unconscious").deadline == t("18:02")
    assert g.ch("D").condition("knockdown").deadline == t("18:00:30")


def test_a_heavy_wounded_character_struck_again_changes_nothing(g: Game) -> None:
    g.act("strike", at="12:00", character="C", weapon="red_ribbon")
    with pytest.raises(RuleViolation) as err:
        g.act("strike", at="12:01", character="C")
    assert "Z-STATE-08" in err.value.rule_ids


def test_the_states_replay_from_the_log(g: Game) -> None:
    g.act("strike", at="12:00", character="C")
    g.act("strike", at="12:00", character="D", weapon="pyrotechnics")
    g.act("stun", at="12:01", character="E")
    g.advance("12:30")
    assert g.replayed() == g.state


def test_a_character_added_without_hits_starts_with_the_base_hits() -> None:
    g = zone_game()
    hits = g.rs.starting_hits(g.state.params)
    assert hits == 2  # A-Z-03: base_hits, not the CLI's old 3
    assert g.rs.starting_hits({"base_hits": 4}) == 4  # A-Z-03: a campaign's own base hits
    assert g.rs.starting_hits(g.state.params, given=5) == 5  # the master's number wins
    add_character(g.rs, g.state, Character(id="N", name="N", hits_max=hits, hits=hits))
    g.act("strike", character="N", weapon="red_ribbon")
    assert state_of(g, "N") == "heavy_waiting"  # Z-HP-04: one red-ribbon strike, a heavy wound
