"""Injuring enemies, aimed attacks, shields and armour (checklist-003 §2.3–2.4:
D-INF-01..03, D-AIM-01..06; A-D-06..09; worked examples E-D-07, E-D-08)."""

from __future__ import annotations

from typing import Any

import pytest

from lazaretto.core.errors import RuleViolation
from tests.game import Game
from tests.unit.dnd5e_injuries.conftest import (
    enemy,
    game,
    injuries,
    last_injury,
    payloads,
    pc,
    pending,
)


@pytest.fixture
def fight() -> Game:
    """Aria (CC 19) against an orc: 45 HP, 30 now, AC 15 with a +2 shield, CC 16."""
    g = game()
    pc(g, "a")
    enemy(g, "o", hp=45, shield=2, ac=17)
    g.act("set-dnd-stats", character="o", hp=30)
    return g


def hit(g: Game, damage: int, critical: bool = False, **kw: Any) -> None:
    g.act(
        "take-damage",
        character="o",
        damage=damage,
        damage_type="slashing",
        critical=critical,
        attacker="a",
        **kw,
    )


def attempt(g: Game, **kw: Any) -> None:
    g.act("attempt-injury", actor="a", target="o", **kw)


# --- when an enemy may be injured (E-D-07) -------------------------------------------------


def test_e_d_07_the_50_percent_line_with_an_odd_maximum(fight: Game) -> None:
    hit(fight, 7)
    assert fight.ch("o").hits == 23  # 23 > 22.5
    with pytest.raises(RuleViolation) as err:
        attempt(fight)
    assert {"D-INF-02", "D-AIM-01", "A-D-06"} <= set(err.value.rule_ids)
    hit(fight, 1)
    assert fight.ch("o").hits == 22  # 22 <= 22.5, compared exactly (A-D-06)
    attempt(fight)
    assert pending(fight, "o") is not None  # D-INF-02: at 50% or below


def test_e_d_07_a_critical_hit_allows_an_attempt_at_any_hit_points(fight: Game) -> None:
    hit(fight, 2, critical=True)
    assert fight.ch("o").hits == 28
    attempt(fight)
    assert pending(fight, "o").data["triggers"] == ["enemy_attempt"]  # type: ignore[union-attr]
    assert "D-INF-01" in next(e for e in fight.events if e.kind == "damage.taken").rule_ids


def test_a_d_06_any_hit_at_or_below_half_counts_not_only_the_crossing_one(fight: Game) -> None:
    hit(fight, 10)  # 30 -> 20: crosses
    hit(fight, 1)  # 20 -> 19: already below
    attempt(fight)  # A-D-06 default: any damaging hit at or below
    assert pending(fight, "o") is not None


def test_a_d_06_alternative_only_the_crossing_hit_counts() -> None:
    g = game(enemy_injury_trigger="crossing_only")
    pc(g, "a")
    enemy(g, "o", hp=45)
    g.act("set-dnd-stats", character="o", hp=30)
    hit(g, 10)
    hit(g, 1)
    with pytest.raises(RuleViolation) as err:
        attempt(g)
    assert "A-D-06" in err.value.rule_ids
    assert payloads(g, "damage.taken")[0]["attempt_allowed"] is True  # the crossing hit
    # A-D-06 (crossing_only): 19/45 is below half, so the refusal must not say "above half"
    assert "above half" not in str(err.value) and "19/45" in str(err.value)
    assert "already at half" in str(err.value) and "crossing_only" in str(err.value)
    ru = err.value.ru or ""
    assert "больше половины" not in ru and "уже" in ru and "19/45" in ru  # A-D-06


def test_a_hit_that_leaves_an_enemy_above_half_is_refused_saying_so() -> None:
    g = game()
    pc(g, "a")
    enemy(g, "o", hp=45)
    hit(g, 10)  # 45 → 35, above 22.5
    with pytest.raises(RuleViolation) as err:
        attempt(g)
    assert "A-D-06" in err.value.rule_ids and "above half hit points (35/45)" in str(err.value)
    assert "больше половины хитов (35/45)" in (err.value.ru or "")  # D-INF-02, A-D-06


def test_d_inf_03_injuring_an_enemy_is_the_attackers_choice(fight: Game) -> None:
    hit(fight, 20, critical=True)
    assert pending(fight, "o") is None  # D-INF-03: nothing happens unless they try
    attempt(fight)
    with pytest.raises(RuleViolation) as twice:
        attempt(fight)
    assert "D-INF-03" in twice.value.rule_ids  # one attempt per hit


def test_e_d_07_the_enemys_severity_uses_that_hit_against_its_combat_caution(
    fight: Game,
) -> None:
    hit(fight, 20, critical=True)  # the orc's CC: 12 + 2 + 2 = 16 -> 16 <= 20 < 32
    attempt(fight)
    fight.act("roll-injury", character="o", location_roll=3)
    rec = last_injury(fight, "o")
    assert (rec["severity"], rec["damage"], rec["caution"]) == ("medium", 20, "16")  # A-D-07
    assert rec["row"] == "D-TAB-35"


def test_only_the_attacker_of_that_hit_may_try(fight: Game) -> None:
    pc(fight, "b")
    hit(fight, 20, critical=True)
    with pytest.raises(RuleViolation) as err:
        fight.act("attempt-injury", actor="b", target="o")
    assert "D-INF-01" in err.value.rule_ids


def test_a_player_character_is_not_a_target_of_attempts(fight: Game) -> None:
    pc(fight, "b")
    fight.act("take-damage", character="b", damage=5, damage_type="fire", attacker="a")
    with pytest.raises(RuleViolation) as err:
        fight.act("attempt-injury", actor="a", target="b")
    assert "D-INF-03" in err.value.rule_ids


# --- aimed attacks (E-D-08) -------------------------------------------------------------------


def test_e_d_08_an_aimed_attack_that_hits_lands_on_the_declared_part(fight: Game) -> None:
    hit(fight, 20, critical=True)
    attempt(fight, aim="arms", side="right", repeat_hit=True)
    assert fight.ch("o").hits == 10  # A-D-07: the repeated roll adds no damage
    evs = fight.act("roll-injury", character="o")
    assert not [e for e in evs if e.kind == "injury.located"]  # no 1d4: aimed
    rec = last_injury(fight, "o")
    assert (rec["location"], rec["side"]) == ("arms", "right")  # D-AIM-02, D-AIM-03
    assert "D-AIM-03" in next(e for e in evs if e.kind == "injury.received").rule_ids


def test_the_repeated_attack_roll_is_rolled_against_the_targets_ac(fight: Game) -> None:
    hit(fight, 20, critical=True)
    evs = fight.act("attempt-injury", actor="a", target="o", aim="head", attack_bonus=30)
    tried = next(e for e in evs if e.kind == "injury.attempted")
    assert tried.dice[0]["expression"] == "1d20 + 30 >= 17"  # D-AIM-03: a repeated roll
    assert tried.payload["hit"] is True and "D-AIM-03" in tried.rule_ids


def test_e_d_08_a_missed_aimed_attack_lands_on_a_random_part(fight: Game) -> None:
    hit(fight, 20, critical=True)
    evs = fight.act("attempt-injury", actor="a", target="o", aim="arms", attack_bonus=-10)
    assert next(e for e in evs if e.kind == "injury.attempted").payload["hit"] is False
    evs = fight.act("roll-injury", character="o", location_roll=4)
    located = next(e for e in evs if e.kind == "injury.located")
    assert {"D-AIM-04", "A-D-08"} <= set(located.rule_ids)  # rerolled with the 1d4
    assert last_injury(fight, "o")["location"] == "torso"


def test_a_d_08_alternative_the_gm_picks_the_part_after_a_miss() -> None:
    g = game(aimed_fail_target="gm")
    pc(g, "a")
    enemy(g, "o")
    hit(g, 30, critical=True)
    attempt(g, aim="head", repeat_hit=False)
    with pytest.raises(RuleViolation) as err:
        g.act("roll-injury", character="o", location_roll=2)
    assert {"D-AIM-04", "A-D-08"} <= set(err.value.rule_ids)
    g.act("roll-injury", character="o", location="legs")
    assert last_injury(g, "o")["location"] == "legs"  # D-AIM-04: the GM's decision


def test_an_aimed_attack_needs_the_repeated_roll(fight: Game) -> None:
    hit(fight, 20, critical=True)
    with pytest.raises(RuleViolation) as err:
        attempt(fight, aim="legs")
    assert "D-AIM-03" in err.value.rule_ids
    with pytest.raises(RuleViolation):  # and an unaimed attempt has none
        attempt(fight, repeat_hit=True)


def test_d_aim_01_an_aimed_attack_needs_a_crit_or_half_hit_points(fight: Game) -> None:
    hit(fight, 1)
    with pytest.raises(RuleViolation) as err:
        attempt(fight, aim="head", repeat_hit=True)
    assert "D-AIM-01" in err.value.rule_ids


def test_a_d_07_alternative_an_attempt_must_be_aimed() -> None:
    g = game(enemy_injury_requires_aim=True)
    pc(g, "a")
    enemy(g, "o")
    hit(g, 30, critical=True)
    with pytest.raises(RuleViolation) as err:
        attempt(g)
    assert "A-D-07" in err.value.rule_ids
    attempt(g, aim="torso", repeat_hit=True)
    assert pending(g, "o") is not None


def test_a_d_07_alternative_the_repeated_roll_adds_damage() -> None:
    g = game(aimed_roll_adds_damage=True)
    pc(g, "a")
    enemy(g, "o", hp=45)
    hit(g, 14, critical=True)
    attempt(g, aim="legs", repeat_hit=True, extra_damage=4)
    assert g.ch("o").hits == 27  # A-D-07 alternative: 45 - 14 - 4
    g.act("roll-injury", character="o")
    assert last_injury(g, "o")["damage"] == 18  # 14 + 4 -> medium against CC 16
    assert last_injury(g, "o")["severity"] == "medium"


def test_a_d_07_by_default_extra_damage_is_refused(fight: Game) -> None:
    hit(fight, 20, critical=True)
    with pytest.raises(RuleViolation) as err:
        attempt(fight, aim="legs", repeat_hit=True, extra_damage=4)
    assert "A-D-07" in err.value.rule_ids


# --- equipment instead of an injury (E-D-08, A-D-09) ------------------------------------------


def test_e_d_08_knocking_the_shield_away_instead_of_an_injury(fight: Game) -> None:
    assert fight.rs.describe(fight.state, "o", "en")["ac"] == 17  # type: ignore[misc]
    hit(fight, 20, critical=True)
    attempt(fight, instead="knock_shield")
    assert pending(fight, "o") is None and not injuries(fight, "o")  # D-AIM-05: no injury
    assert fight.ch("o").has("shield_knocked")  # A-D-09: unequipped
    assert fight.rs.describe(fight.state, "o", "en")["ac"] == 15  # type: ignore[misc]
    fight.act("restore-equipment", character="o", item="shield")  # picked up and donned
    assert fight.rs.describe(fight.state, "o", "en")["ac"] == 17  # type: ignore[misc]


def test_no_shield_no_knocking_it_away() -> None:
    g = game()
    pc(g, "a")
    enemy(g, "o")
    hit(g, 30, critical=True)
    with pytest.raises(RuleViolation) as err:
        attempt(g, instead="knock_shield")
    assert "D-AIM-05" in err.value.rule_ids


def test_damaging_the_armour_instead_of_an_injury(fight: Game) -> None:
    hit(fight, 20, critical=True)
    attempt(fight, instead="damage_armor")
    assert not injuries(fight, "o") and pending(fight, "o") is None  # D-AIM-06: no injury
    assert fight.rs.describe(fight.state, "o", "en")["ac"] == 16  # type: ignore[misc]  # A-D-09
    hit(fight, 1, critical=True)
    attempt(fight, instead="damage_armor")
    assert fight.ch("o").condition("armor_damaged").data["penalty"] == 2  # type: ignore[union-attr]
    fight.act("restore-equipment", character="o", item="armor")  # repaired
    assert fight.rs.describe(fight.state, "o", "en")["ac"] == 17  # type: ignore[misc]
    with pytest.raises(RuleViolation):
        fight.act("restore-equipment", character="o", item="armor")


def test_the_armour_penalty_is_a_parameter() -> None:
    g = game(armor_damage_ac_penalty=2)
    pc(g, "a")
    enemy(g, "o", ac=16)
    hit(g, 30, critical=True)
    attempt(g, instead="damage_armor")
    assert g.rs.describe(g.state, "o", "en")["ac"] == 14  # type: ignore[misc]  # A-D-09


def test_an_aimed_attack_at_the_shield_knocks_it_away_when_it_hits(fight: Game) -> None:
    hit(fight, 20, critical=True)
    attempt(fight, aim="shield", repeat_hit=True)
    assert fight.ch("o").has("shield_knocked")  # D-AIM-02 (equipment), D-AIM-03, D-AIM-05
    assert not injuries(fight, "o") and pending(fight, "o") is None


def test_an_aimed_attack_at_the_armour_that_misses_injures_a_random_part(fight: Game) -> None:
    hit(fight, 20, critical=True)
    attempt(fight, aim="armor", repeat_hit=False)
    assert not fight.ch("o").has("armor_damaged")  # A-D-08: the equipment is not hit
    fight.act("roll-injury", character="o", location_roll=1)
    assert last_injury(fight, "o")["location"] == "head"  # D-AIM-04


def test_aim_and_instead_together_are_refused(fight: Game) -> None:
    hit(fight, 20, critical=True)
    with pytest.raises(RuleViolation) as err:
        attempt(fight, aim="shield", instead="damage_armor", repeat_hit=True)
    assert "D-AIM-05" in err.value.rule_ids
    assert fight.replayed() == fight.state


def test_a_hit_leaving_an_enemy_at_exactly_half_allows_an_attempt() -> None:
    g = game()
    pc(g, "a")
    enemy(g, "o", hp=44)
    hit(g, 22)  # 44 → 22 = 50 %
    assert payloads(g, "damage.taken")[-1]["attempt_allowed"] is True  # D-INF-02: "или ниже"
