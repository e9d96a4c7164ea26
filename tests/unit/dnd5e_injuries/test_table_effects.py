"""Every injury row's mechanics (checklist-003 §2.7, D-TAB-01..57): what the character
actually gets — the effects with their numbers, the dice rolled for them, and what those
dice do to its hit points, maximum, turns and AC. The oracle below is read off the
Russian effect cells (``CELLS`` in test_tables.py) with the A-D-13/18/19 readings, not
copied from tables.yaml."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from tests.game import Game
from tests.unit.dnd5e_injuries.conftest import payloads
from tests.unit.dnd5e_injuries.test_tables import CELLS, later, rolled

# kind, then target/name, amount, dice, unit, every_hours, factor; "gm" for a number the
# GM supplies (A-D-13). One string per row, effects separated by "; ".
MECHANICS = {
    "D-TAB-01": "none",  # Без эффекта (шрам)
    "D-TAB-02": "disadvantage persuasion; advantage intimidation",
    "D-TAB-03": "max_hp_drain amount=1 every_hours=24",  # −1 макс. хп / 24ч
    "D-TAB-04": "condition stunned dice=1d4 unit=turn",  # Оглушён 1d4 хода
    "D-TAB-05": "condition stunned dice=1d6 unit=turn; amnesia dice=1d4 unit=day",  # A-D-13
    "D-TAB-06": "condition stunned dice=1d12 unit=turn; amnesia dice=1d10 unit=day",
    "D-TAB-07": "condition blinded dice=1d4 unit=turn",  # Слепота 1d4 хода
    "D-TAB-08": "condition blinded dice=1d4 unit=hour",  # Слепота 1d4 часа
    "D-TAB-09": "disadvantage sight; disadvantage ranged_attacks",
    "D-TAB-10": "condition deafened dice=1d4 unit=turn",  # Глухота 1d4 хода
    "D-TAB-11": "condition deafened dice=1d4 unit=day; disadvantage hearing",
    "D-TAB-12": "condition deafened; condition mute",  # Потеря слуха + потеря речи
    "D-TAB-13": "max_hp_loss dice=1d8",  # −1d8 макс. хп
    "D-TAB-14": "max_hp_loss dice=2d8",  # −2d8 макс. хп
    "D-TAB-15": "disadvantage constitution; max_hp_loss dice=2d12",
    "D-TAB-16": "disadvantage fine_motor",
    "D-TAB-17": "damage_factor factor=0.5; disadvantage strength",  # Урон ×0.5 (A-D-18)
    "D-TAB-18": "limb_lost",
    "D-TAB-19": "bleeding dice=1d4",  # Кровотечение 1d4
    "D-TAB-20": "damage_factor factor=0.5; disadvantage strength",
    "D-TAB-21": "limb_useless",
    "D-TAB-22": "no_proficiency",
    "D-TAB-23": "cannot_hold",
    "D-TAB-24": "limb_useless",
    "D-TAB-25": "disadvantage actions",
    "D-TAB-26": "disadvantage actions; hp_loss gm",  # Помеха + −хп
    "D-TAB-27": "limb_useless",  # Потеря функции
    "D-TAB-28": "disadvantage attacks",
    "D-TAB-29": "limb_useless",
    "D-TAB-30": "ability strength amount=-4; limb_useless",  # −4 Сила, не работает
    "D-TAB-31": "speed amount=-10; disadvantage jumps",  # −10 фт, помеха прыжкам
    "D-TAB-32": "speed_factor factor=0.5",  # −50% скорость
    "D-TAB-33": "speed_set amount=5; auto_fail dexterity",  # Скорость 5
    "D-TAB-34": "speed amount=-10; ac amount=-1",  # −10 фт, −1 КД
    "D-TAB-35": "bleeding dice=1d6",
    "D-TAB-36": "limb_lost",
    "D-TAB-37": "speed amount=-10",  # −10 фт
    "D-TAB-38": "bleeding dice=1d6",
    "D-TAB-39": "limb_useless",
    "D-TAB-40": "hp_loss gm; speed gm",  # −хп, −скорость
    "D-TAB-41": "speed amount=-15; gm gm",  # −15 фт, проверки
    "D-TAB-42": "limb_lost",
    "D-TAB-43": "speed amount=-10",
    "D-TAB-44": "gm gm",  # Ограничение действий
    "D-TAB-45": "speed_set amount=10; gm gm",  # Скорость 10, ограничения
    "D-TAB-46": "disadvantage constitution",
    "D-TAB-47": "disadvantage strength; disadvantage dexterity",
    "D-TAB-48": "max_hp_set amount=5; gm gm",  # Макс хп = 5, риск смерти
    "D-TAB-49": "max_hp_drain amount=1 every_hours=24",  # −макс. хп/день (A-D-13: 1/day)
    "D-TAB-50": "condition stunned dice=1 unit=turn; disadvantage gm gm",  # A-D-13
    "D-TAB-51": "exhaustion gm",
    "D-TAB-52": "hp_drain dice=1d4 every_hours=1",  # −1d4 хп/час
    "D-TAB-53": "gm gm; gm",  # Пропуск ходов, асфиксия
    "D-TAB-54": "bleeding dice=2d10",  # Кровотечение 2d10
    "D-TAB-55": "max_hp_loss dice=1d12",  # −1d12 макс. хп
    "D-TAB-56": "auto_fail gm gm; gm gm",  # Автофейлы, боль
    "D-TAB-57": "exhaustion amount=5; condition incapacitated",  # 5 истощения
}
FIELDS = ("amount", "dice", "unit", "every_hours", "factor")


def mechanics(effects: list[dict[str, Any]]) -> str:
    """The oracle's notation for the effects a character carries."""
    parts = []
    for e in effects:
        words = [e["kind"]]
        if e.get("target") or e.get("name"):
            words.append(e.get("target") or e.get("name"))
        words += [f"{k}={e[k]}" for k in FIELDS if e.get(k) is not None]
        words += ["gm"] if e.get("gm") else []
        parts.append(" ".join(words))
    return "; ".join(parts)


def carried(g: Game, rule: str) -> dict[str, Any] | None:
    """The injury record of row ``rule`` that Aria carries now, if any."""
    return next((c.data for c in g.ch("a").conditions if c.data.get("row") == rule), None)


def ended(g: Game, rule: str, index: int = 0) -> bool:
    """Whether effect ``index`` of row ``rule`` is over (or the whole injury is)."""
    rec = carried(g, rule)
    return rec is None or bool(rec["effects"][index]["ended"])


def rolls(g: Game, kind: str) -> list[tuple[str, int]]:
    """(expression, total) of every roll recorded by the events of ``kind``."""
    return [(d["expression"], d["total"]) for e in g.events if e.kind == kind for d in e.dice]


def dice_range(expr: str) -> range:
    count, _, sides = expr.partition("d")
    return range(int(count), int(count) * int(sides) + 1)


def test_the_oracle_covers_every_row() -> None:
    assert set(MECHANICS) == set(CELLS)  # D-TAB-01..57


@pytest.mark.parametrize("rule", list(MECHANICS))
def test_every_row_gives_the_character_its_effects_with_their_numbers(rule: str) -> None:
    g, _ = rolled(rule)
    rec = carried(g, rule)
    assert rec is not None
    assert mechanics(rec["effects"]) == MECHANICS[rule], rule  # rule: effects and numbers


MAX_HP_LOSS = ["D-TAB-13", "D-TAB-14", "D-TAB-15", "D-TAB-55"]


@pytest.mark.parametrize("rule", MAX_HP_LOSS)
def test_a_max_hp_loss_row_rolls_its_dice_and_takes_that_much_maximum(rule: str) -> None:
    g, _ = rolled(rule)
    expr = MECHANICS[rule].rpartition("dice=")[2]
    [(rolled_expr, total)] = rolls(g, "injury.received")
    assert rolled_expr == expr and total in dice_range(expr)  # rule: the row's dice (A-D-19)
    assert g.ch("a").hits_max == 60 - total  # rule: max HP lowered by the roll
    assert g.ch("a").hits == min(60, 60 - total)


BLEEDING = ["D-TAB-19", "D-TAB-35", "D-TAB-38", "D-TAB-54"]


@pytest.mark.parametrize("rule", BLEEDING)
def test_a_bleeding_row_takes_its_dice_of_hp_at_the_start_of_each_turn(rule: str) -> None:
    g, _ = rolled(rule)
    expr = MECHANICS[rule].rpartition("dice=")[2]
    before = g.ch("a").hits
    for n in (1, 2):
        g.act("start-turn", character="a")
        bled = payloads(g, "injury.bled")
        assert len(bled) == n  # A-D-13: at the start of each of its turns
        [*_, (rolled_expr, total)] = rolls(g, "injury.bled")
        assert rolled_expr == expr and total in dice_range(expr)  # rule: the row's dice
        assert bled[-1]["lost"] == total and g.ch("a").hits == before - total  # rule
        before = g.ch("a").hits


TURNS = ["D-TAB-04", "D-TAB-07", "D-TAB-10", "D-TAB-50"]


@pytest.mark.parametrize("rule", TURNS)
def test_a_condition_lasts_the_rolled_number_of_turns(rule: str) -> None:
    g, rec = rolled(rule)
    effect = rec["effects"][0]
    expr = MECHANICS[rule].split("dice=")[1].split()[0]
    n = effect["rolled"]
    assert n in dice_range(expr if "d" in expr else f"{expr}d1")  # rule: duration dice
    for _ in range(n):
        g.act("start-turn", character="a")
        assert not ended(g, rule), rule
    g.act("start-turn", character="a")
    assert ended(g, rule), rule  # rule: over after its n turns


TIMED = {  # row -> (effect index, unit)
    "D-TAB-05": (1, timedelta(days=1)),
    "D-TAB-06": (1, timedelta(days=1)),
    "D-TAB-08": (0, timedelta(hours=1)),
    "D-TAB-11": (0, timedelta(days=1)),
}


@pytest.mark.parametrize("rule", list(TIMED))
def test_a_timed_effect_ends_after_its_rolled_hours_or_days(rule: str) -> None:
    g, rec = rolled(rule)
    index, unit = TIMED[rule]
    effect = rec["effects"][index]
    expr = MECHANICS[rule].split("; ")[index].split("dice=")[1].split()[0]
    assert effect["rolled"] in dice_range(expr)  # rule: the duration's dice (A-D-19)
    started = next(c for c in g.ch("a").conditions if c.data.get("row") == rule).started
    assert datetime.fromisoformat(effect["ends_at"]) - started == effect["rolled"] * unit
    assert (expr, effect["rolled"]) in rolls(g, "injury.received")  # rule: recorded roll


def test_d_tab_34_lowers_the_ac_by_one() -> None:
    g, _ = rolled("D-TAB-34")
    g.act("set-dnd-stats", character="a", ac=15)
    assert g.rs.describe is not None
    assert g.rs.describe(g.state, "a", "en")["ac"] == 14  # D-TAB-34: −1 КД


@pytest.mark.parametrize(("rule", "text"), [("D-TAB-31", "speed (ft) -10"),
                                            ("D-TAB-33", "speed (ft) 5"),
                                            ("D-TAB-37", "speed (ft) -10"),
                                            ("D-TAB-41", "speed (ft) -15"),
                                            ("D-TAB-45", "speed (ft) 10"),
                                            ("D-TAB-30", "Strength -4"),
                                            ("D-TAB-57", "5 exhaustion")])  # fmt: skip
def test_the_card_tells_the_gm_the_speed_ability_and_exhaustion_numbers(
    rule: str, text: str
) -> None:
    g, _ = rolled(rule)
    assert g.rs.describe is not None
    cards = g.rs.describe(g.state, "a", "en")["conditions"]
    card = next(c for c in cards if c.get("rule") == rule)
    assert text in card["effect"], card["effect"]  # rule: the number the character gets


def test_d_tab_48_sets_max_hp_to_5() -> None:
    g, _ = rolled("D-TAB-48")
    assert (g.ch("a").hits, g.ch("a").hits_max) == (5, 5)  # D-TAB-48: Макс хп = 5


@pytest.mark.parametrize("rule", ["D-TAB-03", "D-TAB-49"])
def test_a_draining_row_takes_one_max_hp_every_24_hours(rule: str) -> None:
    g, _ = rolled(rule)
    start = next(c for c in g.ch("a").conditions if c.data.get("row") == rule).started
    later(g, start + timedelta(hours=23, minutes=59))
    assert g.ch("a").hits_max == 60, rule
    later(g, start + timedelta(hours=24))
    assert g.ch("a").hits_max == 59, rule  # rule: −1 max HP per 24 h (A-D-19)
    later(g, start + timedelta(hours=48))
    assert g.ch("a").hits_max == 58, rule


def test_d_tab_52_takes_1d4_hp_every_hour() -> None:
    g, _ = rolled("D-TAB-52")
    start, before = g.ch("a").conditions[-1].started, g.ch("a").hits
    later(g, start + timedelta(minutes=59))
    assert g.ch("a").hits == before
    later(g, start + timedelta(hours=1))
    [(expr, total)] = rolls(g, "injury.drained")
    assert expr == "1d4" and g.ch("a").hits == before - total  # D-TAB-52: −1d4 хп/час
