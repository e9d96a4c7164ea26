"""Combat caution and severity (checklist-003 §2.6: D-SEV-01..04; A-D-02, A-D-16,
A-D-17; worked examples E-D-01..03)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from lazaretto.core.engine import run_query
from lazaretto.core.errors import RuleViolation
from lazaretto.rulesets.dnd5e_injuries.caution import combat_caution, severity
from lazaretto.rulesets.dnd5e_injuries.params import DndParams
from tests.game import Game
from tests.unit.dnd5e_injuries.conftest import game, last_injury, pc


def params(g: Game) -> DndParams:
    p = g.rs.campaign_params(g.state.params)
    assert isinstance(p, DndParams)
    return p


def ask(g: Game, name: str, **kw: Any) -> dict[str, Any]:
    return run_query(g.rs, g.state, name, kw)


def rolled_severity(g: Game, damage: int, cid: str = "a") -> str:
    """The severity ``roll-injury`` gives ``cid`` for a hit of ``damage`` (torso, bludgeoning)."""
    g.act(
        "roll-injury",
        character=cid,
        trigger="critical_hit",
        damage=damage,
        damage_type="bludgeoning",
        location_roll=4,
    )
    return str(last_injury(g, cid)["severity"])


def test_e_d_01_combat_caution_is_con_score_plus_proficiency_plus_half_level() -> None:
    g = game()
    pc(g, "a", con=14, proficiency=3, level=5)
    answer = ask(g, "combat-caution", character="a")
    assert answer["caution"] == "19"  # D-SEV-01: 14 + 3 + floor(5/2) (A-D-02 defaults)
    assert answer["terms"] == {"con": 14, "proficiency": 3, "level": "2"}
    assert answer["thresholds"] == {"medium": "19", "heavy": "38"}


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        (18, "light"),  # D-SEV-02: damage < CC
        (19, "medium"),  # D-SEV-03: damage = CC
        (37, "medium"),  # D-SEV-03, A-D-16: CC <= damage < 2 CC
        (38, "heavy"),  # D-SEV-04: damage = 2 CC
        (80, "heavy"),  # D-SEV-04, A-D-16: heavy wins over "medium, no upper bound"
    ],
)
def test_e_d_01_severity_boundaries_at_combat_caution_19(damage: int, expected: str) -> None:
    g = game()
    pc(g, "a", con=14, proficiency=3, level=5, hp=200)
    assert rolled_severity(g, damage) == expected  # D-SEV-02, D-SEV-03, D-SEV-04
    assert ask(g, "combat-caution", character="a", damage=damage)["severity"] == expected


def test_severity_is_applied_through_the_row_it_selects() -> None:
    g = game()
    pc(g, "a", con=14, proficiency=3, level=5, hp=200)
    rows = {}
    for damage in (18, 19, 38):
        g.act(
            "roll-injury",
            character="a",
            trigger="critical_hit",
            damage=damage,
            damage_type="bludgeoning",
            location_roll=4,
        )
        rows[damage] = last_injury(g, "a")["row"]
    # D-SEV-02 -> light row, D-SEV-03 -> medium row, D-SEV-04 -> heavy row (torso, bludgeoning)
    assert rows == {18: "D-TAB-46", 19: "D-TAB-47", 38: "D-TAB-48"}


@pytest.mark.parametrize(
    ("rounding", "damage", "expected"),
    [
        ("floor", 11, "light"),  # E-D-02: CC = 10 + 2 + floor(0.5) = 12 (A-D-02b default)
        ("floor", 12, "medium"),
        ("floor", 23, "medium"),
        ("floor", 24, "heavy"),
        ("exact", 12, "light"),  # E-D-02 alternative: CC = 12.5
        ("exact", 13, "medium"),
        ("exact", 24, "medium"),
        ("exact", 25, "heavy"),
        ("ceil", 12, "light"),  # A-D-02b alternative: CC = 13
        ("ceil", 13, "medium"),
        ("ceil", 26, "heavy"),
    ],
)
def test_e_d_02_level_rounding_edge(rounding: str, damage: int, expected: str) -> None:
    g = game(caution_level_rounding=rounding)
    pc(g, "a", con=10, proficiency=2, level=1, hp=100)
    assert rolled_severity(g, damage) == expected  # D-SEV-01, A-D-02


def test_e_d_02_exact_rounding_keeps_the_half() -> None:
    g = game(caution_level_rounding="exact")
    pc(g, "a", con=10, proficiency=2, level=1)
    assert ask(g, "combat-caution", character="a")["caution"] == "12.5"  # D-SEV-01, A-D-02b


@pytest.mark.parametrize(
    ("damage", "expected"), [(6, "light"), (7, "medium"), (13, "medium"), (14, "heavy")]
)
def test_e_d_03_modifier_mode_uses_the_constitution_modifier(damage: int, expected: str) -> None:
    g = game(caution_con_mode="modifier")
    pc(g, "a", con=14, proficiency=3, level=5)
    assert ask(g, "combat-caution", character="a")["caution"] == "7"  # A-D-02a: 2 + 3 + 2
    assert rolled_severity(g, damage) == expected  # D-SEV-01..04 with the modifier


def test_a_monster_uses_its_challenge_rating_rounded_down_as_level() -> None:
    g = game()
    g.add("o", "Ogre", hits=59)
    g.act("set-dnd-stats", character="o", con=19, proficiency=2, cr=2)
    assert ask(g, "combat-caution", character="o")["caution"] == "22"  # A-D-02c: 19 + 2 + 1


def test_the_hit_dice_reading_for_monsters_is_a_parameter() -> None:
    g = game(caution_level_source_for_monsters="hit_dice")
    g.add("o", "Ogre", hits=59)
    g.act("set-dnd-stats", character="o", con=19, proficiency=2, cr=2, hit_dice=7)
    assert ask(g, "combat-caution", character="o")["caution"] == "24"  # A-D-02c alt: 19+2+3


def test_missing_stats_are_refused_naming_them() -> None:
    g = game()
    g.add("x", "Xan", hits=10)
    with pytest.raises(RuleViolation) as err:
        g.act("roll-injury", character="x", trigger="zero_hp", damage=4, damage_type="fire")
    assert "D-SEV-01" in err.value.rule_ids  # combat caution needs CON, proficiency, level
    assert "con" in err.value.message and "set-dnd-stats" in err.value.text()
    assert not g.ch("x").conditions  # nothing recorded, nothing rolled


def test_zero_damage_is_a_light_injury_and_caution_is_not_clamped() -> None:
    p = game().rs.params
    assert isinstance(p, DndParams)
    assert severity(0, Fraction(19), p) == "light"  # A-D-17, D-SEV-02
    low = combat_caution(
        "z",
        {"con": 1, "proficiency": 0, "level": 0},
        p.model_copy(update={"caution_con_mode": "modifier"}),
    )
    assert low.value == -5  # A-D-17: not clamped
    assert severity(0, low.value, p) == "heavy"  # 0 >= 2 x -5: D-SEV-04 read literally


def test_the_thresholds_are_parameters() -> None:
    g = game(severity_heavy_min_cc=3)
    pc(g, "a", hp=200)
    assert rolled_severity(g, 38) == "medium"  # D-SEV-04 with heavy from 3 x CC
    assert rolled_severity(g, 57) == "heavy"
