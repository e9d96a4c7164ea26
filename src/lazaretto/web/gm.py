"""The party at a glance, per tabletop ruleset: the columns a GM's screen shows.

Each ruleset's row is built from the master's card of the character (what
:meth:`PlayService.cards` gives a master: everything) and, for IDE4's meals, the
survivor's record of the day. Words come in the page's language; a value the card
does not have is left out rather than shown empty.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from lazaretto.core.state import CampaignState

TABLETOP = ("dnd5e-injuries", "ide4-survival", "fantasy-server")

WEEKDAYS = (
    ("Monday", "понедельник"),
    ("Tuesday", "вторник"),
    ("Wednesday", "среда"),
    ("Thursday", "четверг"),
    ("Friday", "пятница"),
    ("Saturday", "суббота"),
    ("Sunday", "воскресенье"),
)

_WORDS: dict[str, tuple[str, str]] = {
    "hp": ("HP", "Хиты"),
    "ac": ("AC", "КД"),
    "caution": ("Combat caution", "Боевая осторожность"),
    "injuries": ("Injuries", "Травмы"),
    "calm": ("Calm", "Спокойствие"),
    "meals": ("Meals", "Еда"),
    "sleep": ("Sleep", "Сон"),
    "asleep": ("asleep", "спит"),
    "awake": ("awake", "не спит"),
    "conditions": ("Conditions", "Состояния"),
    "traumas": ("Traumas", "Травмы"),
    "addiction": ("Addiction", "Зависимость"),
    "broken": ("Broken items", "Сломанные предметы"),
    "day": ("Day", "День"),
}


def word(key: str, lang: str) -> str:
    en, ru = _WORDS[key]
    return ru if lang == "ru" else en


@dataclass(frozen=True)
class Cell:
    """One labelled value of a party row; ``lines`` for a list (injuries and the like)."""

    label: str
    text: str = ""
    lines: tuple[str, ...] = ()


def _conditions(card: Mapping[str, Any], *, with_effect: bool = False) -> tuple[str, ...]:
    out = []
    for c in card.get("conditions", []):
        text = str(c.get("label") or c.get("kind"))
        if with_effect and c.get("effect"):
            text += f" — {c['effect']}"
        out.append(text)
    return tuple(out)


def _dnd(card: Mapping[str, Any], state: CampaignState, lang: str) -> list[Cell]:
    cells = [Cell(word("hp", lang), f"{card.get('hits')}/{card.get('hits_max')}")]
    if card.get("ac") is not None:
        cells.append(Cell(word("ac", lang), str(card["ac"])))
    if card.get("combat_caution"):
        cells.append(Cell(word("caution", lang), str(card["combat_caution"])))
    cells.append(Cell(word("injuries", lang), lines=_conditions(card, with_effect=True)))
    return cells


def _ide4(card: Mapping[str, Any], state: CampaignState, lang: str) -> list[Cell]:
    survivor = getattr(state, "survivors", {}).get(card["id"])
    meals: tuple[str, ...] = ()
    if survivor is not None:
        recent = sorted(survivor.meals.items())[-3:]
        meals = tuple(f"{k.rsplit(':', 1)[-1]}: {v}" for k, v in recent)
    asleep = word("asleep" if card.get("asleep") else "awake", lang)
    last = card.get("last_sleep") or {}
    sleep = asleep + (
        f" · {last.get('hours')} h" if isinstance(last, dict) and last.get("hours") else ""
    )
    return [
        Cell(word("calm", lang), str(card.get("state_label") or card.get("calm"))),
        Cell(word("meals", lang), lines=meals),
        Cell(word("sleep", lang), sleep),
        Cell(word("conditions", lang), lines=_conditions(card)),
    ]


def _fantasy(card: Mapping[str, Any], state: CampaignState, lang: str) -> list[Cell]:
    addiction = card.get("addiction") or {}
    broken = tuple(
        f"{i.get('name')} ({i.get('status')})"
        for i in card.get("equipment", [])
        if i.get("status") not in (None, "intact")
    )
    cells = [
        Cell(word("hp", lang), f"{card.get('hits')}/{card.get('hits_max')}"),
        Cell(word("traumas", lang), lines=_conditions(card)),
    ]
    if addiction.get("stage") not in (None, "none"):
        cells.append(Cell(word("addiction", lang), str(addiction.get("stage"))))
    if broken:
        cells.append(Cell(word("broken", lang), lines=broken))
    return cells


COLUMNS: dict[str, Callable[[Mapping[str, Any], CampaignState, str], list[Cell]]] = {
    "dnd5e-injuries": _dnd,
    "ide4-survival": _ide4,
    "fantasy-server": _fantasy,
}


def game_day(state: CampaignState, now: datetime, lang: str) -> str:
    """The game day and its date, e.g. "Day 3 · Saturday 13.06.2026 18:00"."""
    en, ru = WEEKDAYS[now.weekday()]
    date = f"{ru if lang == 'ru' else en} {now:%d.%m.%Y %H:%M}"
    day = getattr(state, "day", None)
    return f"{word('day', lang)} {day} · {date}" if isinstance(day, int) and day else date
