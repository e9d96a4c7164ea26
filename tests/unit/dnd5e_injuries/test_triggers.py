"""When a creature receives an injury and how the injury is rolled (checklist-003
§2.1–2.2: D-COND-01..05, D-ROLL-01..02; A-D-01, A-D-03..05; E-D-04, E-D-05, E-D-12)."""

from __future__ import annotations

import pytest

from lazaretto.core.character import Character
from lazaretto.core.engine import add_character
from lazaretto.core.errors import InvalidInput, RuleViolation
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


def triggers(g: Game, cid: str = "a") -> list[str]:
    cond = pending(g, cid)
    return [] if cond is None else list(cond.data["triggers"])


# --- the four conditions (E-D-04) --------------------------------------------------------


def test_e_d_04_a_critical_hit_received_injures_even_with_hit_points_left(g: Game) -> None:
    g.act("take-damage", character="a", damage=5, damage_type="slashing", critical=True)
    assert g.ch("a").hits == 35
    assert triggers(g) == ["critical_hit"]  # D-COND-01, A-D-04: hit by a critical hit


def test_e_d_04_dropping_to_0_hit_points_injures(g: Game) -> None:
    g.act("take-damage", character="a", damage=39, damage_type="slashing")
    assert triggers(g) == []
    g.act("take-damage", character="a", damage=7, damage_type="slashing")
    assert g.ch("a").hits == 0
    assert triggers(g) == ["zero_hp"]  # D-COND-02
    assert pending(g, "a").data["damage"] == 7  # type: ignore[union-attr]  # A-D-03: that hit


def test_e_d_04_an_ordinary_hit_leaving_hit_points_gives_no_injury(g: Game) -> None:
    g.act("take-damage", character="a", damage=30, damage_type="piercing")
    assert g.ch("a").hits == 10
    assert triggers(g) == [] and not injuries(g, "a")  # D-COND-05: no condition met


def test_e_d_04_a_natural_1_on_a_death_save_injures(g: Game) -> None:
    g.act("take-damage", character="a", damage=45, damage_type="bludgeoning")
    g.act("roll-injury", character="a", location_roll=4)  # the 0 HP injury
    g.act("death-save", character="a", natural=2)
    assert triggers(g) == []  # D-COND-03: only a 1
    g.act("death-save", character="a", natural=1)
    assert triggers(g) == ["death_save_1"]  # D-COND-03
    saves = payloads(g, "death_save.rolled")
    assert [s["injury"] for s in saves] == [False, True]
    # A-D-03: the severity uses the last damage the character took (45 bludgeoning)
    assert pending(g, "a").data["damage"] == 45  # type: ignore[union-attr]
    assert pending(g, "a").data["damage_type"] == "bludgeoning"  # type: ignore[union-attr]


def test_a_death_save_is_rolled_on_the_campaign_stream_and_recorded(g: Game) -> None:
    g.act("take-damage", character="a", damage=40, damage_type="fire")
    g.act("roll-injury", character="a", location_roll=2)
    evs = g.act("death-save", character="a")
    ev = next(e for e in evs if e.kind == "death_save.rolled")
    assert ev.dice and ev.dice[0]["dice"][0]["notation"] == "1d20"  # D-COND-03: recorded
    assert ev.payload["natural"] == ev.dice[0]["total"]


def test_a_death_save_with_hit_points_left_is_refused(g: Game) -> None:
    with pytest.raises(RuleViolation) as err:
        g.act("death-save", character="a", natural=1)
    assert "D-COND-03" in err.value.rule_ids


def test_e_d_04_a_failed_save_against_a_damaging_fire_spell_injures(g: Game) -> None:
    g.act(
        "fail-save",
        character="a",
        effect="Fireball",
        ability="DEX",
        harmful=True,
        damage=24,
        damage_type="fire",
    )
    assert g.ch("a").hits == 16
    assert triggers(g) == ["failed_save"]  # D-COND-04
    assert pending(g, "a").data["damage"] == 24  # type: ignore[union-attr]  # A-D-03


def test_e_d_04_a_failed_save_against_a_harmless_charm_gives_no_injury(g: Game) -> None:
    g.act("fail-save", character="a", effect="Charm Person", ability="WIS", harmful=False)
    assert triggers(g) == []  # D-COND-04: the effect cannot cause physical harm
    assert payloads(g, "injury.not_triggered")[-1]["reason"] == "not_harmful"
    with pytest.raises(RuleViolation) as err:  # damage is physical harm
        g.act(
            "fail-save",
            character="a",
            effect="Hex",
            harmful=False,
            damage=3,
            damage_type="necrotic",
        )
    assert "D-COND-04" in err.value.rule_ids


def test_d_cond_05_one_event_meeting_two_conditions_gives_one_injury(g: Game) -> None:
    g.act("take-damage", character="a", damage=50, damage_type="slashing", critical=True)
    assert triggers(g) == ["critical_hit", "zero_hp"]  # D-COND-05: any one is enough
    assert len([c for c in g.ch("a").conditions if c.kind == "injury_pending"]) == 1
    g.act("roll-injury", character="a", location_roll=3)
    assert len(injuries(g, "a")) == 1 and pending(g, "a") is None


def test_d_cond_05_no_injury_without_a_trigger(g: Game) -> None:
    with pytest.raises(RuleViolation) as err:
        g.act("roll-injury", character="a", damage=10, damage_type="fire")
    assert "D-COND-05" in err.value.rule_ids
    assert "--trigger" in err.value.text()
    with pytest.raises(InvalidInput):
        g.act("roll-injury", character="a", trigger="bad_luck", damage=1, damage_type="fire")


def test_each_trigger_can_be_rolled_directly_by_the_gm(g: Game) -> None:
    for trigger, rule in (
        ("critical_hit", "D-COND-01"),
        ("zero_hp", "D-COND-02"),
        ("death_save_1", "D-COND-03"),
        ("failed_save", "D-COND-04"),
    ):
        evs = g.act(
            "roll-injury",
            character="a",
            trigger=trigger,
            damage=3,
            damage_type="fire",
            location_roll=1,
        )
        opened = next(e for e in evs if e.kind == "injury.triggered")
        assert rule in opened.rule_ids  # the trigger is recorded with its rule
    assert len(injuries(g, "a")) == 4


# --- the severity of a death-save injury (A-D-03) ------------------------------------------


def test_a_d_03_with_no_damage_taken_the_gm_sets_the_severity(g: Game) -> None:
    g.act("set-dnd-stats", character="a", hp=0)
    g.act("death-save", character="a", natural=1)
    with pytest.raises(RuleViolation) as err:
        g.act("roll-injury", character="a", damage_type="slashing", location_roll=3)
    assert "A-D-03" in err.value.rule_ids
    g.act("roll-injury", character="a", damage_type="slashing", location_roll=3, severity="heavy")
    assert last_injury(g, "a")["row"] == "D-TAB-36"  # D-COND-03 + the GM's severity


def test_a_d_03_alternative_light_when_no_damage_is_known() -> None:
    g = game(severity_when_no_damage="light")
    pc(g, "a", hp=1)
    g.act("set-dnd-stats", character="a", hp=0)
    g.act("death-save", character="a", natural=1)
    g.act("roll-injury", character="a", damage_type="piercing", location_roll=3)
    assert last_injury(g, "a")["row"] == "D-TAB-37"  # light: A-D-03 alternative


def test_a_d_03_alternative_the_gm_always_sets_a_death_save_injurys_severity() -> None:
    g = game(severity_damage_source="gm")
    pc(g, "a")
    g.act("take-damage", character="a", damage=40, damage_type="piercing")
    g.act("roll-injury", character="a", location_roll=4)
    g.act("death-save", character="a", natural=1)
    assert pending(g, "a").data["damage"] is None  # type: ignore[union-attr]
    g.act("roll-injury", character="a", location_roll=4, severity="medium")
    assert last_injury(g, "a")["row"] == "D-TAB-53"  # torso, piercing, medium


def test_the_severity_follows_from_damage_so_the_gm_cannot_override_it(g: Game) -> None:
    g.act("take-damage", character="a", damage=5, damage_type="fire", critical=True)
    with pytest.raises(RuleViolation) as err:
        g.act("roll-injury", character="a", severity="heavy")
    assert "D-SEV-01" in err.value.rule_ids
    assert pending(g, "a") is not None  # nothing rolled, nothing recorded


# --- the location die and the table (D-ROLL, A-D-01, A-D-05) -------------------------------


@pytest.mark.parametrize(
    ("face", "location"), [(1, "head"), (2, "arms"), (3, "legs"), (4, "torso")]
)
def test_the_1d4_selects_the_location_in_table_order(face: int, location: str) -> None:
    g = game()
    pc(g, "a")
    g.act(
        "roll-injury",
        character="a",
        trigger="critical_hit",
        damage=5,
        damage_type="slashing",
        location_roll=face,
    )
    assert last_injury(g, "a")["location"] == location  # D-ROLL-01, A-D-01


def test_the_location_die_is_rolled_and_recorded_when_not_given(g: Game) -> None:
    g.act("take-damage", character="a", damage=5, damage_type="slashing", critical=True)
    evs = g.act("roll-injury", character="a")
    located = next(e for e in evs if e.kind == "injury.located")
    die = located.dice[0]
    assert die["dice"][0]["notation"] == "1d4"  # D-ROLL-01: the player rolls 1d4
    face = die["total"]
    assert located.payload["location"] == ["head", "arms", "legs", "torso"][face - 1]
    assert "D-ROLL-01" in located.rule_ids and "A-D-01" in located.rule_ids
    assert g.replayed() == g.state


def test_a_location_map_is_a_parameter() -> None:
    g = game(
        location_die="1d8",
        location_map={
            1: "head",
            2: "torso",
            3: "torso",
            4: "torso",
            5: "arms",
            6: "arms",
            7: "legs",
            8: "legs",
        },
    )
    pc(g, "a")
    g.act(
        "roll-injury",
        character="a",
        trigger="critical_hit",
        damage=5,
        damage_type="slashing",
        location_roll=3,
    )
    assert last_injury(g, "a")["location"] == "torso"  # A-D-01 alternative map
    with pytest.raises(InvalidInput):  # every face must be mapped
        game(location_die="1d6")


def test_d_roll_02_the_damage_type_picks_the_sub_table_of_the_location() -> None:
    rows = {}
    for damage_type in ("slashing", "bludgeoning", "radiant", "thunder", "fire", "acid"):
        g = game()
        pc(g, "a")
        g.act(
            "roll-injury",
            character="a",
            trigger="critical_hit",
            damage=5,
            damage_type=damage_type,
            location_roll=1,
        )
        rows[damage_type] = last_injury(g, "a")["row"]
    # D-ROLL-02: same location, same severity, the type decides; fire and acid share
    assert rows == {
        "slashing": "D-TAB-01",
        "bludgeoning": "D-TAB-04",
        "radiant": "D-TAB-07",
        "thunder": "D-TAB-10",
        "fire": "D-TAB-13",
        "acid": "D-TAB-13",
    }


@pytest.mark.parametrize(("damage_type"), ["fire", "cold", "acid"])
def test_element_means_fire_cold_and_acid(damage_type: str) -> None:
    g = game()
    pc(g, "a")
    g.act(
        "roll-injury",
        character="a",
        trigger="critical_hit",
        damage=5,
        damage_type=damage_type,
        location_roll=2,
    )
    assert last_injury(g, "a")["row"] == "D-TAB-25"  # A-D-05: "Элемент" = fire, cold, acid


def test_e_d_05_full_determination(g: Game) -> None:
    g.act("take-damage", character="a", damage=20, damage_type="piercing", critical=True)
    evs = g.act("roll-injury", character="a", location_roll=3)
    rec = last_injury(g, "a")
    assert rec["location"] == "legs"  # D-ROLL-01: 1d4 = 3
    assert rec["severity"] == "medium"  # D-SEV-03: 19 <= 20 < 38
    assert rec["row"] == "D-TAB-38" and rec["name_ru"] == "Глубокий прокол"  # D-ROLL-02
    assert [e["kind"] for e in rec["effects"]] == ["bleeding"]
    assert rec["effects"][0]["dice"] == "1d6"  # D-TAB-38: bleeding 1d6
    assert rec["treatment_ru"] == "Медицина 13"
    assert rec["cures"] == [{"method": "medicine", "dc": 13}]  # D-TAB-38, A-D-12: a DC 13 check
    received = next(e for e in evs if e.kind == "injury.received")
    assert {"D-ROLL-02", "D-SEV-03", "D-TAB-38"} <= set(received.rule_ids)


def test_e_d_12_an_unmapped_damage_type_asks_the_gm_and_keeps_the_location(g: Game) -> None:
    g.act("take-damage", character="a", damage=5, damage_type="necrotic", critical=True)
    evs = g.act("roll-injury", character="a", location_roll=4)
    assert not injuries(g, "a")  # A-D-05: nothing is silently chosen
    asked = next(e for e in evs if e.kind == "injury.needs_gm")
    assert asked.payload["need"] == "sub_table" and "A-D-05" in asked.rule_ids
    assert asked.payload["choices"] == "bludgeoning, slashing, piercing, element"
    with pytest.raises(RuleViolation) as err:
        g.act("roll-injury", character="a", sub_table="radiant")  # not a torso sub-table
    assert "A-D-05" in err.value.rule_ids
    evs = g.act("roll-injury", character="a", sub_table="slashing")
    assert not any(e.dice for e in evs)  # D-ROLL-01: the location is not rolled again
    rec = last_injury(g, "a")
    assert (rec["location"], rec["row"]) == ("torso", "D-TAB-49")


def test_e_d_12_piercing_to_the_head_is_unmapped_too(g: Game) -> None:
    g.act("take-damage", character="a", damage=5, damage_type="piercing", critical=True)
    g.act("roll-injury", character="a", location_roll=1)
    assert payloads(g, "injury.needs_gm")[-1]["location"] == "head"  # A-D-05


def test_a_mapped_damage_type_takes_no_sub_table_from_the_gm(g: Game) -> None:
    g.act("take-damage", character="a", damage=5, damage_type="fire", critical=True)
    g.act("equal-exchange", character="a", location="head")
    with pytest.raises(RuleViolation) as err:
        g.act("roll-injury", character="a", sub_table="slashing")
    assert "A-D-05" in err.value.rule_ids  # fire to the head has its own table
    g.act("roll-injury", character="a")
    assert last_injury(g, "a")["row"] == "D-TAB-13"
    with pytest.raises(RuleViolation) as early:  # and not before the location is known
        g.act(
            "roll-injury",
            character="a",
            trigger="critical_hit",
            damage=5,
            damage_type="necrotic",
            sub_table="slashing",
        )
    assert "A-D-05" in early.value.rule_ids


def test_e_d_12_cold_to_the_arms_maps_to_element(g: Game) -> None:
    g.act("take-damage", character="a", damage=25, damage_type="cold", critical=True)
    g.act("roll-injury", character="a", location_roll=2)
    assert last_injury(g, "a")["row"] == "D-TAB-26"  # A-D-05: arms, element, medium


def test_a_d_05_alternative_unmapped_damage_gives_no_injury() -> None:
    g = game(unmapped_damage_policy="no_injury")
    pc(g, "a")
    g.act("take-damage", character="a", damage=5, damage_type="psychic", critical=True)
    g.act("roll-injury", character="a", location_roll=3)
    assert payloads(g, "injury.unmapped")[-1]["location"] == "legs"  # A-D-05 alternative
    assert not injuries(g, "a") and pending(g, "a") is None


def test_an_enemy_is_not_injured_by_the_conditions_themselves() -> None:
    g = game()
    pc(g, "a")
    enemy(g, "o")
    g.act(
        "take-damage", character="o", damage=45, damage_type="slashing", critical=True, attacker="a"
    )
    assert pending(g, "o") is None  # D-INF-03: its attacker may try, nothing is automatic
    assert g.ch("o").data["last_hit"]["attempt_allowed"] is True  # D-INF-01


def test_a_hit_on_a_dead_creature_is_refused(g: Game) -> None:
    g.ch("a").alive = False
    with pytest.raises(RuleViolation):
        g.act("take-damage", character="a", damage=1, damage_type="fire")


def test_a_creature_added_without_hit_points_has_none_until_its_sheet_sets_them() -> None:
    g = game()
    assert g.rs.starting_hits(g.state.params) == 0  # D-COND-02: no made-up "HP 3/3"
    assert g.rs.starting_hits(g.state.params, given=27) == 27
    add_character(g.rs, g.state, Character(id="n", name="N", hits_max=0, hits=0))
    g.act("set-dnd-stats", character="n", con=12, proficiency=2, level=1, hp_max=11)
    assert (g.ch("n").hits, g.ch("n").hits_max) == (11, 11)  # D-COND-02: the sheet's HP


def test_a_harmless_failed_save_at_0_hp_is_no_new_drop_to_0(g: Game) -> None:
    g.act("set-dnd-stats", character="a", hp=0)
    g.act("fail-save", character="a", effect="Charm Person", ability="WIS", harmful=False)
    assert triggers(g) == []  # D-COND-02: already at 0, nothing drops to 0
