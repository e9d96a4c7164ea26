"""The party at a glance, per tabletop ruleset: the columns a GM's screen shows.

Each ruleset's row is built from the master's card of the character (what
:meth:`PlayService.cards` gives a master: everything) and, for IDE4, the survivor's
record of the day (its meals by window, its checks) and what the ruleset's ``day``
query says is due now. Words come in the page's language; a value the card does not
have is left out rather than shown empty.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from lazaretto.core.ruleset import Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.service import menus

TABLETOP = ("dnd5e-injuries", "ide4-survival", "fantasy-server")

DAY_QUERY = {"ide4-survival": "day"}
"""Per ruleset, the query that says what is due now for every character (and the steps
of the day): its answer is shown on the GM screen."""

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
    "hours": ("h", "ч"),
    "conditions": ("Conditions", "Состояния"),
    "due": ("Due now", "Сейчас положено"),
    "nothing_due": ("nothing due", "ничего"),
    "check": ("Check", "Проверка"),
    "pending": ("to be resolved", "ждёт исхода"),
    "resolve": ("Resolve", "Исход"),
    "traumas": ("Traumas", "Травмы"),
    "addiction": ("Addiction", "Зависимость"),
    "broken": ("Broken items", "Сломанные предметы"),
    "day": ("Day", "День"),
    "meal:normal": ("ate", "поел"),
    "meal:poor": ("too little", "мало"),
    "meal:skipped": ("skipped", "пропущен"),
    "meal:open": ("not yet", "ещё нет"),
    "meal:missed": ("not eaten", "не ел"),
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


@dataclass(frozen=True)
class Table:
    """What a party row is read from besides the character's card."""

    ruleset: Ruleset
    state: CampaignState
    now: datetime
    lang: str
    due: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Quick:
    """A button of one character's row that its state calls for (a pending check)."""

    label: str
    action: str
    query: tuple[tuple[str, str], ...]


def _conditions(card: Mapping[str, Any], *, with_effect: bool = False) -> tuple[str, ...]:
    out = []
    for c in card.get("conditions", []):
        text = str(c.get("label") or c.get("kind"))
        if with_effect and c.get("effect"):
            text += f" — {c['effect']}"
        out.append(text)
    return tuple(out)


def _dnd(card: Mapping[str, Any], table: Table) -> list[Cell]:
    lang = table.lang
    cells = [Cell(word("hp", lang), f"{card.get('hits')}/{card.get('hits_max')}")]
    if card.get("ac") is not None:
        cells.append(Cell(word("ac", lang), str(card["ac"])))
    if card.get("combat_caution"):
        cells.append(Cell(word("caution", lang), str(card["combat_caution"])))
    cells.append(Cell(word("injuries", lang), lines=_conditions(card, with_effect=True)))
    return cells


def _meals_today(card: Mapping[str, Any], table: Table) -> tuple[str, ...]:
    """Each meal window of the game day that has opened: eaten, too little, skipped."""
    state, lang = table.state, table.lang
    survivor = getattr(state, "survivors", {}).get(card["id"])
    started = getattr(state, "day_started", None)
    windows = getattr(table.ruleset.campaign_params(state.params), "meal_windows", ())
    if survivor is None or not isinstance(started, datetime):
        return ()
    out = []
    starts = []
    for hhmm in windows:
        h, m = (int(x) for x in str(hhmm).split(":"))
        starts.append(started.replace(hour=h, minute=m, second=0, microsecond=0))
    for i, start in enumerate(starts):
        if start > table.now and i:  # not open yet (the first one opens the day)
            continue
        name = ("breakfast", "lunch", "dinner")[i] if i < 3 else f"meal {i + 1}"
        label = table.ruleset.text(f"window:{name}", lang) or name
        got = survivor.meals.get(start.isoformat())
        closed = i + 1 < len(starts) and starts[i + 1] <= table.now
        missing = "meal:missed" if closed else "meal:open"
        out.append(f"{label}: {word(f'meal:{got}' if got else missing, lang)}")
    return tuple(out)


def _checks(card: Mapping[str, Any], table: Table) -> tuple[str, ...]:
    """The character's d100 checks of the game day, the last first: skill, difficulty,
    the roll and the outcome, or that it waits for its outcome."""
    started = getattr(table.state, "day_started", None)
    out = []
    for k in reversed(list(getattr(table.state, "checks", {}).values())):
        if k.character != card["id"] or (isinstance(started, datetime) and k.at < started):
            continue
        if k.pending:
            result = word("pending", table.lang)
        else:
            outcome = table.ruleset.text(f"outcome:{k.outcome}", table.lang) or str(k.outcome)
            result = f"{k.roll} → {outcome}" if k.roll is not None else outcome
        skill = table.ruleset.text(f"skill:{k.skill}", table.lang) or k.skill
        out.append(f"{skill} [{k.difficulty}]: {result}")
        if len(out) == 3:
            break
    return tuple(out)


REROLL_KINDS_RU = {
    "meal": "еда",
    "pacified": "умиротворение",
    "hot": "горячий",
    "immunity": "иммунитет",
}
"""IDE4's reroll kinds as a Russian line of the day query names them."""
_ACTION_REF = re.compile(r"\s*\(([a-z0-9]+(?:-[a-z0-9]+)+)\)")


def due_lines(
    answer: Mapping[str, Any], card: Mapping[str, Any], rs: Ruleset, lang: str
) -> tuple[str, ...]:
    """What the day query says is due now for ``card``'s character, each line as a
    person reads it: an action named in it by its id reads as its button's word."""
    text = answer.get(f"{card['id']} ({card['name']})")
    if not isinstance(text, str):
        return ()

    def named(m: re.Match[str]) -> str:
        action = m.group(1)
        if action not in rs.actions:
            return m.group(0)
        button = menus.short(action, lang)
        return "" if button == action else f" ({button})"  # the row has its own button

    lines = [_ACTION_REF.sub(named, ln).strip() for ln in text.split("; ") if ln.strip()]
    if lang == "ru":
        for kind, ru in REROLL_KINDS_RU.items():
            lines = [ln.replace(f"перебросов ({kind})", f"перебросов ({ru})") for ln in lines]
    return tuple(ln for ln in lines if ln not in ("nothing due", "ничего"))


def _ide4(card: Mapping[str, Any], table: Table) -> list[Cell]:
    lang = table.lang
    top = getattr(table.ruleset.campaign_params(table.state.params), "calm_points_max", None)
    calm = card.get("calm")
    asleep = word("asleep" if card.get("asleep") else "awake", lang)
    last = card.get("last_sleep") or {}
    hours = last.get("hours") if isinstance(last, dict) else None
    sleep = asleep + (f" · {hours} {word('hours', lang)}" if hours else "")
    cells = [
        Cell(word("calm", lang), f"{calm}/{top}" if calm is not None and top else str(calm)),
        Cell(word("meals", lang), lines=_meals_today(card, table)),
        Cell(word("sleep", lang), sleep),
        Cell(word("conditions", lang), lines=_conditions(card)),
    ]
    checks = _checks(card, table)
    if checks:
        cells.append(Cell(word("check", lang), lines=checks))
    cells.append(
        Cell(word("due", lang), word("nothing_due", lang), lines=table.due.get(card["id"], ()))
    )
    return cells


def _fantasy(card: Mapping[str, Any], table: Table) -> list[Cell]:
    lang = table.lang
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


COLUMNS: dict[str, Callable[[Mapping[str, Any], Table], list[Cell]]] = {
    "dnd5e-injuries": _dnd,
    "ide4-survival": _ide4,
    "fantasy-server": _fantasy,
}


def quick(card: Mapping[str, Any], table: Table) -> list[Quick]:
    """Buttons the character's state calls for besides the common ones: resolving a
    pending d100 check (IDE4)."""
    out = []
    for k in getattr(table.state, "checks", {}).values():
        if k.character == card["id"] and k.pending and "resolve-check" in table.ruleset.actions:
            skill = table.ruleset.text(f"skill:{k.skill}", table.lang) or k.skill
            label = f"{word('resolve', table.lang)}: {skill}"
            out.append(Quick(label, "resolve-check", (("check", k.id),)))
    return out


def list_field(rs: Ruleset, action: str) -> bool:
    """Whether ``action`` names its characters in a list (``characters``, empty meaning
    everyone) rather than one ``character``: a row's button must then name its own."""
    spec = rs.actions.get(action)
    fields = spec.input.model_fields if spec is not None else {}
    return "characters" in fields and "character" not in fields


def day_steps(answer: Mapping[str, Any]) -> tuple[str, ...]:
    """The steps of the game day as the day query marks them (✓ done, · not yet)."""
    steps = answer.get("steps")
    return tuple(s.strip() for s in steps.split(" | ")) if isinstance(steps, str) else ()


def game_day(state: CampaignState, now: datetime, lang: str) -> str:
    """The game day and its date, e.g. "Day 3 · Saturday 13.06.2026 18:00"."""
    en, ru = WEEKDAYS[now.weekday()]
    date = f"{ru if lang == 'ru' else en} {now:%d.%m.%Y %H:%M}"
    day = getattr(state, "day", None)
    return f"{word('day', lang)} {day} · {date}" if isinstance(day, int) and day else date
