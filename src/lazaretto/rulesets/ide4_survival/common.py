"""Shared helpers of the ide4-survival handlers: parameters, refusals, survivors,
conditions from the one state table, meal windows and the party."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any, NoReturn, cast

from lazaretto.core.character import Character, Visibility
from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import RuleViolation
from lazaretto.core.ruleset import Role
from lazaretto.rulesets.ide4_survival.params import IdeParams
from lazaretto.rulesets.ide4_survival.state import Ide4State, Survivor, jsonable, survivor
from lazaretto.rulesets.ide4_survival.tables import Disease, catalogue

MASTERS = frozenset({Role.MASTER})
EVERYONE = frozenset(Role)
FATIGUE = ("tired", "very_tired", "exhausted")


def params(ctx: Any) -> IdeParams:
    """The campaign's parameters."""
    return cast(IdeParams, ctx.params)


def state(ctx: Any) -> Ide4State:
    """The campaign's state."""
    return cast(Ide4State, ctx.state)


def refuse(
    en: str, ru: str, *rule_ids: str, tip: str | None = None, tip_ru: str | None = None
) -> NoReturn:
    """Refuse the action, naming the rules and what to do instead."""
    raise RuleViolation(en, ru=ru, rule_ids=rule_ids, tip=tip, tip_ru=tip_ru)


def sv(ctx: Any, char_id: str) -> Survivor:
    """The survivor record of ``char_id`` (read-only)."""
    return survivor(state(ctx), char_id)


def next_id(ctx: ActionContext, prefix: str) -> tuple[str, int]:
    """A new id (``c12``) and the counter value the event must carry."""
    n = state(ctx).counter + 1
    return f"{prefix}{n}", n


def update(
    ctx: ActionContext,
    event_kind: str,
    char_id: str,
    changes: dict[str, Any],
    rule_ids: tuple[str, ...] = (),
    /,
    **extra: Any,
) -> None:
    """Emit ``event_kind`` setting survivor fields of ``char_id`` (results in the payload)."""
    payload = {"character": char_id, "set": jsonable(changes), **jsonable(extra)}
    if not state(ctx).survivors.get(char_id) and sv(ctx, char_id).joined is None:
        payload["set"].setdefault("joined", ctx.now.isoformat())
    ctx.emit(event_kind, payload, rule_ids)


def alive(ch: Character) -> bool:
    """Whether the character is alive."""
    return ch.alive


def party(ctx: ActionContext, ids: list[str]) -> list[Character]:
    """The named characters, or every living character when none are named."""
    if ids:
        chars = [ctx.character(i) for i in dict.fromkeys(ids)]
    else:
        chars = [c for c in state(ctx).characters.values() if c.alive]
    for ch in chars:
        if not ch.alive:
            refuse(f"{ch.name} is dead", f"{ch.name} мёртв", "I-DIS-09")
    return chars


def gain(
    ctx: ActionContext,
    char_id: str,
    kind: str,
    why: tuple[str, str],
    rule_ids: tuple[str, ...],
    *,
    key: str | None = None,
    data: dict[str, Any] | None = None,
    visibility: Visibility = Visibility.ALL,
    deadline: datetime | None = None,
) -> bool:
    """Give ``kind`` to a character (I-STATE-01: a state held already is not doubled).

    Returns whether anything changed. ``why`` is the source, English and Russian.
    """
    ch = ctx.character(char_id)
    held = next((c for c in ch.conditions if c.kind == kind and c.data.get("key") == key), None)
    if held is not None and not data and deadline is None:
        return False
    ctx.emit(
        "condition.gained",
        {
            "character": char_id,
            "kind": kind,
            "key": key,
            "source": why[0],
            "why_en": why[0],
            "why_ru": why[1],
            "visibility": visibility.value,
            "deadline": None if deadline is None else deadline.isoformat(),
            "data": jsonable(data or {}),
        },
        rule_ids,
    )
    return True


def lose(
    ctx: ActionContext,
    char_id: str,
    kind: str,
    why: tuple[str, str],
    rule_ids: tuple[str, ...],
    *,
    key: str | None = "*",
) -> bool:
    """Remove ``kind`` (every one, or the one with ``key``); whether anything changed."""
    ch = ctx.character(char_id)
    if not any(c.kind == kind and (key == "*" or c.data.get("key") == key) for c in ch.conditions):
        return False
    ctx.emit(
        "condition.removed",
        {"character": char_id, "kind": kind, "key": key, "why_en": why[0], "why_ru": why[1]},
        rule_ids,
    )
    return True


def fatigue_degree(ch: Character, scale: tuple[str, ...] = FATIGUE) -> int:
    """0 (none), 1 tired, 2 very tired, 3 exhausted: the highest degree held (A-I-30)."""
    return max((scale.index(c.kind) + 1 for c in ch.conditions if c.kind in scale), default=0)


def gain_fatigue(
    ctx: ActionContext,
    char_id: str,
    kind: str,
    why: tuple[str, str],
    rule_ids: tuple[str, ...],
    data: dict[str, Any] | None = None,
) -> bool:
    """Give a fatigue degree (A-I-30): with exclusive degrees a higher one replaces the
    lower, an equal or lower one changes nothing ("at least very tired")."""
    if kind == "none":
        return False
    ch = ctx.character(char_id)
    scale = tuple(params(ctx).fatigue_scale)  # A-I-30: the degrees, mildest first
    degree = scale.index(kind) + 1
    if params(ctx).fatigue_degrees_exclusive:
        if fatigue_degree(ch, scale) >= degree:
            return False
        for lower in scale[: degree - 1]:
            lose(ctx, char_id, lower, (f"replaced by {kind}", f"заменено: {kind}"), ("A-I-30",))
    elif ctx.character(char_id).has(kind):
        return False
    return gain(ctx, char_id, kind, why, rule_ids, data=data)


@dataclass(frozen=True)
class Window:
    """A meal window (A-I-06): breakfast 07:00–12:59, lunch 13:00–18:59, dinner 19:00–06:59."""

    index: int
    name: str
    start: datetime
    end: datetime

    @property
    def key(self) -> str:
        """The window's id in a survivor's meal record: its start."""
        return self.start.isoformat()


MEALS = ("breakfast", "lunch", "dinner")
MEAL_LABELS = {
    "breakfast": ("breakfast", "завтрак"),
    "lunch": ("lunch", "обед"),
    "dinner": ("dinner", "ужин"),
}


def _clock(text: str) -> time:
    h, m = (int(x) for x in text.split(":"))
    return time(h, m)


def window_at(p: IdeParams, when: datetime) -> Window:
    """The meal window containing ``when``."""
    starts = [_clock(s) for s in p.meal_windows]
    day = when.date()
    candidates = [datetime.combine(day + timedelta(days=d), s) for d in (-1, 0) for s in starts]
    start = max(c for c in candidates if c <= when)
    i = starts.index(start.time())
    nxt = starts[(i + 1) % len(starts)]
    end = datetime.combine(start.date() + timedelta(days=1 if nxt <= start.time() else 0), nxt)
    name = MEALS[i] if i < len(MEALS) else f"meal{i + 1}"
    return Window(i, name, start, end)


def next_window_start(p: IdeParams, when: datetime) -> datetime:
    """The start of the first meal window strictly after ``when``."""
    return window_at(p, when).end


def previous_window(p: IdeParams, w: Window) -> Window:
    """The window before ``w``."""
    return window_at(p, w.start - timedelta(seconds=1))


def why(en: str, ru: str) -> tuple[str, str]:
    """A source text pair (English, Russian)."""
    return (en, ru)


def disease(ctx: Any, code: str) -> Disease:
    """The disease ``code``: the catalogue plus the campaign's additions, minus what the
    GM dropped (I-DIS-14); NotFound lists the known codes."""
    from lazaretto.core.errors import NotFound

    st = state(ctx)
    found = known_diseases(st).get(code)
    if found is None:
        known = ", ".join(sorted(known_diseases(st)))
        raise NotFound(
            f"No disease {code!r}; known: {known}", ru=f"Нет болезни {code!r}; известны: {known}"
        )
    return found


def known_diseases(st: Ide4State) -> dict[str, Disease]:
    """Every disease the campaign knows, by code."""
    out = {k: v for k, v in catalogue().diseases.items() if k not in st.dropped_diseases}
    for code, raw in st.custom_diseases.items():
        out[code] = Disease.model_validate(raw)
    return out


RU_WORDS = {
    "cautious": "осторожный",
    "normal": "обычный",
    "fast": "быстрый",
    "forced": "форсированный",
    "triumph": "Триумф",
    "success": "Успех",
    "medium": "Средне",
    "failure": "Провал",
    "tragedy": "Трагедия",
    "bad": "плохой",
    "none": "нет",
    "skipped": "пропустил",
    "starved": "голодал",
    "ate": "ел нормально",
    "spoiled_food": "испорченная еда",
    "dirty_water": "грязная вода",
    "poison": "яд",
    "disease_in_food": "болезнь в пище",
    "unfamiliar_mushrooms": "незнакомые грибы",
    "infected_meat": "заражённое мясо",
    "alchemical": "алхимическое вещество",
}


def ru(word: str | None) -> str:
    """The Russian word for a pace, outcome, camp or food mark used in a source text."""
    return RU_WORDS.get(word or "", word or "")
