"""The injury tables (checklist-003 §2.7): every row D-TAB-01..57 comes out of
``roll-injury`` for its location, damage type and severity, with its effect and its
treatment; each treatment cell is read as A-D-12 says; Disfigurement (D-DISF-01)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, NamedTuple

import pytest

from lazaretto.core.engine import advance_to
from lazaretto.core.errors import RuleViolation
from tests.game import Game
from tests.unit.dnd5e_injuries.conftest import cc10, game, injuries, payloads


class Cell(NamedTuple):
    """One row of the checklist's table: where, what damage, how bad, and the Russian
    cells verbatim (name, effect, treatment) plus the English treatment."""

    location: str
    damage_type: str
    severity: str
    name_ru: str
    effect_ru: str
    treatment_ru: str
    treatment_en: str


# Copied from checklist-003 §2.7 (the oracle); "element" rows are rolled with cold
# damage and "fire/acid" with fire (A-D-05; the other types are tested below).
CELLS: dict[str, Cell] = {
    "D-TAB-01": Cell(
        "head",
        "slashing",
        "light",
        "Порез",
        "Без эффекта (шрам)",
        "Медицина 10 / лечение 1+",
        "Medicine 10 / healing 1+",
    ),
    "D-TAB-02": Cell(
        "head",
        "slashing",
        "medium",
        "Рваная рана",
        "Помеха Убеждение, преимущество Запугивание",
        "Медицина 13 / лечение 1+",
        "Medicine 13 / healing 1+",
    ),
    "D-TAB-03": Cell(
        "head",
        "slashing",
        "heavy",
        "Гнойная рана",
        "−1 макс. хп / 24ч, смерть при 0",
        "Лечение 4+ или 10 успехов Медицины (15)",
        "Healing 4+ or 10 successes of Medicine (15)",
    ),
    "D-TAB-04": Cell(
        "head",
        "bludgeoning",
        "light",
        "Ошеломление",
        "Оглушён 1d4 хода",
        "Действие союзника",
        "An ally's action",
    ),
    "D-TAB-05": Cell(
        "head",
        "bludgeoning",
        "medium",
        "Сотрясение",
        "Оглушён 1d6, амнезия 1d4 дней",
        "Без лечения",
        "No treatment",
    ),
    "D-TAB-06": Cell(
        "head",
        "bludgeoning",
        "heavy",
        "Потеря памяти",
        "Оглушён 1d12, амнезия 1d10 дней",
        "Без лечения",
        "No treatment",
    ),
    "D-TAB-07": Cell(
        "head", "radiant", "light", "Слепота", "Слепота 1d4 хода", "—", "— (none given)"
    ),
    "D-TAB-08": Cell(
        "head", "radiant", "medium", "Временная слепота", "Слепота 1d4 часа", "—", "— (none given)"
    ),
    "D-TAB-09": Cell(
        "head",
        "radiant",
        "heavy",
        "Потеря глаза",
        "Помеха зрению и дальним атакам",
        "Регенерация",
        "Regeneration",
    ),
    "D-TAB-10": Cell(
        "head", "thunder", "light", "Оглох", "Глухота 1d4 хода", "—", "— (none given)"
    ),
    "D-TAB-11": Cell(
        "head",
        "thunder",
        "medium",
        "Потеря слуха",
        "Глухота 1d4 дня, помеха слуху",
        "Регенерация",
        "Regeneration",
    ),
    "D-TAB-12": Cell(
        "head",
        "thunder",
        "heavy",
        "Полная глухота",
        "Потеря слуха + потеря речи",
        "Регенерация",
        "Regeneration",
    ),
    "D-TAB-13": Cell(
        "head",
        "fire",
        "light",
        "Ожог",
        "−1d8 макс. хп",
        "Медицина 10 / лечение 1+",
        "Medicine 10 / healing 1+",
    ),
    "D-TAB-14": Cell(
        "head",
        "fire",
        "medium",
        "Сильный ожог",
        "−2d8 макс. хп",
        "Медицина 13 / лечение 2+",
        "Medicine 13 / healing 2+",
    ),
    "D-TAB-15": Cell(
        "head",
        "fire",
        "heavy",
        "Обугливание",
        "Помеха Телосложению, −2d12 макс. хп",
        "Лечение 4+",
        "Healing 4+",
    ),
    "D-TAB-16": Cell(
        "arms",
        "slashing",
        "light",
        "Потеря пальца",
        "Помеха мелкой моторике",
        "Хирургия / лечение",
        "Surgery / healing",
    ),
    "D-TAB-17": Cell(
        "arms",
        "slashing",
        "medium",
        "Сухожилие",
        "Урон ×0.5, помеха Силе",
        "Медицина 13 / лечение 2+",
        "Medicine 13 / healing 2+",
    ),
    "D-TAB-18": Cell(
        "arms",
        "slashing",
        "heavy",
        "Отсечение",
        "Потеря руки",
        "Хирургия / регенерация",
        "Surgery / regeneration",
    ),
    "D-TAB-19": Cell(
        "arms", "piercing", "light", "Прокол", "Кровотечение 1d4", "Медицина 10", "Medicine 10"
    ),
    "D-TAB-20": Cell(
        "arms",
        "piercing",
        "medium",
        "Повреждение",
        "Урон ×0.5, помеха Силе",
        "Медицина 13",
        "Medicine 13",
    ),
    "D-TAB-21": Cell(
        "arms",
        "piercing",
        "heavy",
        "Нервы/сосуды",
        "Рука не действует",
        "Магия / сильное зелье",
        "Magic / strong potion",
    ),
    "D-TAB-22": Cell(
        "arms",
        "bludgeoning",
        "light",
        "Ушиб",
        "Нет бонуса мастерства",
        "1 неделя / лечение",
        "1 week / healing",
    ),
    "D-TAB-23": Cell(
        "arms",
        "bludgeoning",
        "medium",
        "Перелом",
        "Нельзя держать предметы",
        "3 недели / лечение",
        "3 weeks / healing",
    ),
    "D-TAB-24": Cell(
        "arms",
        "bludgeoning",
        "heavy",
        "Раздробление",
        "Рука не действует",
        "Шина / магия",
        "Splint / magic",
    ),
    "D-TAB-25": Cell(
        "arms", "cold", "light", "Ожог/обморожение", "Помеха действиям", "Лечение 1+", "Healing 1+"
    ),
    "D-TAB-26": Cell(
        "arms", "cold", "medium", "Сильное повреждение", "Помеха + −хп", "Лечение 2+", "Healing 2+"
    ),
    "D-TAB-27": Cell(
        "arms", "cold", "heavy", "Некроз/сожжение", "Потеря функции", "Регенерация", "Regeneration"
    ),
    "D-TAB-28": Cell("arms", "lightning", "light", "Спазм", "Помеха атакам", "6ч", "6 h"),
    "D-TAB-29": Cell(
        "arms",
        "lightning",
        "medium",
        "Паралич",
        "Нельзя использовать",
        "6ч / лечение",
        "6 h / healing",
    ),
    "D-TAB-30": Cell(
        "arms",
        "lightning",
        "heavy",
        "Атрофия",
        "−4 Сила, не работает",
        "Регенерация",
        "Regeneration",
    ),
    "D-TAB-31": Cell(
        "legs", "bludgeoning", "light", "Трещина", "−10 фт, помеха прыжкам", "1 неделя", "1 week"
    ),
    "D-TAB-32": Cell(
        "legs", "bludgeoning", "medium", "Перелом", "−50% скорость", "3 недели", "3 weeks"
    ),
    "D-TAB-33": Cell(
        "legs",
        "bludgeoning",
        "heavy",
        "Раздробление",
        "Скорость 5, автофейлы Ловкости",
        "Шина / магия",
        "Splint / magic",
    ),
    "D-TAB-34": Cell("legs", "slashing", "light", "Сухожилие", "−10 фт, −1 КД", "1 день", "1 day"),
    "D-TAB-35": Cell(
        "legs", "slashing", "medium", "Артерия", "Кровотечение 1d6", "Медицина 13", "Medicine 13"
    ),
    "D-TAB-36": Cell(
        "legs",
        "slashing",
        "heavy",
        "Отсечение",
        "Потеря ноги",
        "Хирургия / регенерация",
        "Surgery / regeneration",
    ),
    "D-TAB-37": Cell("legs", "piercing", "light", "Прокол", "−10 фт", "1 день", "1 day"),
    "D-TAB-38": Cell(
        "legs",
        "piercing",
        "medium",
        "Глубокий прокол",
        "Кровотечение 1d6",
        "Медицина 13",
        "Medicine 13",
    ),
    "D-TAB-39": Cell("legs", "piercing", "heavy", "Сквозное", "Нога не работает", "Магия", "Magic"),
    "D-TAB-40": Cell(
        "legs", "cold", "light", "Ожог/обморожение", "−хп, −скорость", "Лечение 1+", "Healing 1+"
    ),
    "D-TAB-41": Cell(
        "legs", "cold", "medium", "Сильное", "−15 фт, проверки", "Лечение 2+", "Healing 2+"
    ),
    "D-TAB-42": Cell(
        "legs",
        "cold",
        "heavy",
        "Некроз",
        "Потеря ноги",
        "Ампутация / регенерация",
        "Amputation / regeneration",
    ),
    "D-TAB-43": Cell("legs", "lightning", "light", "Спазм", "−10 фт", "24ч", "24 h"),
    "D-TAB-44": Cell(
        "legs", "lightning", "medium", "Паралич", "Ограничение действий", "24ч", "24 h"
    ),
    "D-TAB-45": Cell(
        "legs",
        "lightning",
        "heavy",
        "Атрофия",
        "Скорость 10, ограничения",
        "Регенерация",
        "Regeneration",
    ),
    "D-TAB-46": Cell(
        "torso", "bludgeoning", "light", "Ушиб", "Помеха Телосложению", "1d8 дней", "1d8 days"
    ),
    "D-TAB-47": Cell(
        "torso", "bludgeoning", "medium", "Рёбра", "Помеха Силе и Ловкости", "7 дней", "7 days"
    ),
    "D-TAB-48": Cell(
        "torso",
        "bludgeoning",
        "heavy",
        "Разрыв органа",
        "Макс хп = 5, риск смерти",
        "Хирургия / регенерация",
        "Surgery / regeneration",
    ),
    "D-TAB-49": Cell(
        "torso", "slashing", "light", "Инфекция", "−макс. хп/день", "Медицина 15", "Medicine 15"
    ),
    "D-TAB-50": Cell(
        "torso",
        "slashing",
        "medium",
        "Рассечение",
        "Оглушение + помеха",
        "Медицина 18",
        "Medicine 18",
    ),
    "D-TAB-51": Cell(
        "torso",
        "slashing",
        "heavy",
        "Глубокая рана",
        "Истощение при движении",
        "Хирургия",
        "Surgery",
    ),
    "D-TAB-52": Cell(
        "torso", "piercing", "light", "Кишечник", "−1d4 хп/час", "Медицина", "Medicine"
    ),
    "D-TAB-53": Cell(
        "torso", "piercing", "medium", "Лёгкое", "Пропуск ходов, асфиксия", "Хирургия", "Surgery"
    ),
    "D-TAB-54": Cell(
        "torso", "piercing", "heavy", "Сквозное", "Кровотечение 2d10", "Хирургия", "Surgery"
    ),
    "D-TAB-55": Cell(
        "torso", "cold", "light", "Ожог", "−1d12 макс. хп", "Лечение 1+", "Healing 1+"
    ),
    "D-TAB-56": Cell(
        "torso", "cold", "medium", "Сильный ожог", "Автофейлы, боль", "Лечение 2+", "Healing 2+"
    ),
    "D-TAB-57": Cell(
        "torso",
        "cold",
        "heavy",
        "Обугливание",
        "5 истощения, недееспособность",
        "Лечение 4+",
        "Healing 4+",
    ),
}
FACE = {"head": 1, "arms": 2, "legs": 3, "torso": 4}  # A-D-01
DAMAGE = {"light": 5, "medium": 10, "heavy": 20}  # against combat caution 10 (D-SEV)


def rolled(rule: str, **extra: Any) -> tuple[Game, dict[str, Any]]:
    """A fresh campaign where Aria (CC 10) gets the injury of row ``rule``."""
    cell = CELLS[rule]
    g = game(**extra)
    cc10(g)
    g.act(
        "roll-injury",
        character="a",
        trigger="critical_hit",
        damage=DAMAGE[cell.severity],
        damage_type=cell.damage_type,
        location_roll=FACE[cell.location],
    )
    return g, next(r for r in injuries(g, "a") if r["row"] == rule)


@pytest.mark.parametrize("rule", list(CELLS))
def test_every_row_comes_out_of_the_roll_for_its_location_type_and_severity(rule: str) -> None:
    cell = CELLS[rule]
    g, rec = rolled(rule)
    assert rec["row"] == rule  # the row of that location, damage type and severity
    assert (rec["location"], rec["severity"]) == (cell.location, cell.severity), rule
    assert rec["name_ru"] == cell.name_ru, rule
    assert rec["effect_ru"] == cell.effect_ru, rule  # the effect, verbatim
    assert (rec["treatment_ru"], rec["treatment_en"]) == (
        cell.treatment_ru,
        cell.treatment_en.replace(" (none given)", ""),
    ), rule  # the treatment
    received = payloads(g, "injury.received")[-1]
    assert rule in next(e for e in reversed(g.events) if e.kind == "injury.received").rule_ids
    assert received["name_ru"] == cell.name_ru and received["treatment_ru"] == cell.treatment_ru
    assert g.replayed() == g.state


# A-D-12: each treatment cell as (method, number) alternatives, any one of which cures:
# the DC of a Medicine check (None: the GM sets it), the minimum level of healing magic,
# the time of natural recovery (None days: rolled 1d8).
READINGS: dict[str, list[tuple[str, Any]]] = {
    "Медицина 10 / лечение 1+": [("medicine", 10), ("healing", 1)],
    "Медицина 13 / лечение 1+": [("medicine", 13), ("healing", 1)],
    "Медицина 13 / лечение 2+": [("medicine", 13), ("healing", 2)],
    "Лечение 4+ или 10 успехов Медицины (15)": [("healing", 4), ("medicine_series", 15)],
    "Действие союзника": [("ally_action", None)],
    "Без лечения": [],
    "—": [],
    "Регенерация": [("regeneration", None)],
    "Лечение 1+": [("healing", 1)],
    "Лечение 2+": [("healing", 2)],
    "Лечение 4+": [("healing", 4)],
    "Хирургия / лечение": [("surgery", None), ("healing", 1)],
    "Хирургия / регенерация": [("surgery", None), ("regeneration", None)],
    "Хирургия": [("surgery", None)],
    "Медицина 10": [("medicine", 10)],
    "Медицина 13": [("medicine", 13)],
    "Медицина 15": [("medicine", 15)],
    "Медицина 18": [("medicine", 18)],
    "Медицина": [("medicine", None)],
    "Магия / сильное зелье": [("magic", None), ("strong_potion", None)],
    "Магия": [("magic", None)],
    "Шина / магия": [("splint", None), ("magic", None)],
    "Ампутация / регенерация": [("amputation", None), ("regeneration", None)],
    "1 неделя / лечение": [("natural", timedelta(weeks=1)), ("healing", 1)],
    "3 недели / лечение": [("natural", timedelta(weeks=3)), ("healing", 1)],
    "6ч / лечение": [("natural", timedelta(hours=6)), ("healing", 1)],
    "1 неделя": [("natural", timedelta(weeks=1))],
    "3 недели": [("natural", timedelta(weeks=3))],
    "1 день": [("natural", timedelta(days=1))],
    "7 дней": [("natural", timedelta(days=7))],
    "24ч": [("natural", timedelta(hours=24))],
    "6ч": [("natural", timedelta(hours=6))],
    "1d8 дней": [("natural", None)],
}
ALL_METHODS = (
    "medicine",
    "medicine_series",
    "healing",
    "regeneration",
    "surgery",
    "ally_action",
    "splint",
    "magic",
    "strong_potion",
    "amputation",
)


def later(g: Game, when: datetime) -> None:
    """Move the campaign clock to ``when``, firing what is due."""
    g.events += advance_to(g.rs, g.state, when)


def has(g: Game, injury_id: str) -> bool:
    return any(r["id"] == injury_id for r in injuries(g, "a"))


def treat(g: Game, rec: dict[str, Any], method: str, **kw: Any) -> None:
    g.act("treat-injury", patient="a", healer="a", injury=rec["id"], method=method, **kw)


def cured_by(rule: str, method: str, number: Any) -> None:
    """Check that ``method`` (with ``number``) cures a fresh injury of row ``rule``."""
    g, rec = rolled(rule)
    if method == "healing":
        if number > 1:
            with pytest.raises(RuleViolation) as weak:
                treat(g, rec, method, spell_level=number - 1)
            assert rule in weak.value.rule_ids and "A-D-12" in weak.value.rule_ids
        treat(g, rec, method, spell_level=number)
    elif method == "medicine" and number is not None:
        treat(g, rec, method, check_total=number - 1)  # a failed check changes nothing
        assert has(g, rec["id"]), rule
        assert payloads(g, "injury.treatment_failed")[-1]["dc"] == number
        treat(g, rec, method, check_total=number)
    elif method in ("medicine", "surgery"):  # the GM sets the DC
        with pytest.raises(RuleViolation) as no_dc:
            treat(g, rec, method, check_total=30)
        assert "A-D-12" in no_dc.value.rule_ids
        treat(g, rec, method, check_total=12, dc=12)
    elif method == "medicine_series":
        start = g.state.clock.now() if g.state.clock else datetime.now()
        for day in range(10):  # ten DC 15 successes, one a day, cumulative
            later(g, start + timedelta(days=day))
            assert has(g, rec["id"]), (rule, day)
            treat(g, rec, method, check_total=15)
            if day == 0:
                with pytest.raises(RuleViolation):  # a second success the same day
                    treat(g, rec, method, check_total=20)
    else:
        treat(g, rec, method)
    assert not has(g, rec["id"]), (rule, method)  # cured
    healed = payloads(g, "injury.healed")[-1]
    assert (healed["row"], healed["how"], healed["method"]) == (rule, "treated", method)
    assert g.replayed() == g.state


def recovers_by_itself(rule: str, after: timedelta | None) -> None:
    """Check the natural recovery time of row ``rule`` (A-D-12: a bare time)."""
    g, rec = rolled(rule)
    started = g.ch("a").conditions[-1].started
    due = datetime.fromisoformat(rec["natural_at"])
    if after is None:  # 1d8 days, rolled when applied (A-D-19)
        assert timedelta(days=1) <= due - started <= timedelta(days=8), rule
        assert (due - started) % timedelta(days=1) == timedelta(0)
    else:
        assert due - started == after, rule
    later(g, due - timedelta(seconds=1))
    assert has(g, rec["id"]), rule
    later(g, due)
    assert not has(g, rec["id"]), rule  # recovered
    assert payloads(g, "injury.healed")[-1]["how"] == "natural"


@pytest.mark.parametrize("rule", list(CELLS))
def test_every_rows_treatment_cures_it_as_a_d_12_reads_the_cell(rule: str) -> None:
    readings = READINGS[CELLS[rule].treatment_ru]
    listed = {m for m, _ in readings}
    g, rec = rolled(rule)
    other = next(m for m in ALL_METHODS if m not in listed)
    with pytest.raises(RuleViolation) as wrong:
        treat(g, rec, other, spell_level=9, check_total=40, dc=5)
    assert rule in wrong.value.rule_ids  # only the row's own treatment cures it
    for method, number in readings:
        if method == "natural":
            recovers_by_itself(rule, number)
        else:
            cured_by(rule, method, number)
    if not [m for m in listed if m != "natural"]:  # no treatment to perform
        assert not rec["untreatable"] or rec["treatment_ru"] in ("—", "Без лечения"), rule
