"""Shared helpers of the fantasy-server handlers: parameters, state, refusals, ids,
conditions, HP changes and day boundaries."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any, NoReturn, cast

from lazaretto.core.character import Character, Condition, Visibility
from lazaretto.core.engine import ActionContext, QueryContext
from lazaretto.core.errors import Forbidden, NotFound, RuleViolation
from lazaretto.core.ruleset import Role
from lazaretto.rulesets.fantasy_server.params import STATS, FantasyParams
from lazaretto.rulesets.fantasy_server.state import FantasyState, Item

MASTERS = frozenset({Role.MASTER})
STAFF = frozenset({Role.MASTER, Role.HEALER})
CONDITION_EXPIRES = "condition_expires"


def params(ctx: ActionContext | QueryContext) -> FantasyParams:
    """The campaign's parameters."""
    return cast(FantasyParams, ctx.params)


def fstate(ctx: ActionContext | QueryContext) -> FantasyState:
    """The campaign's state."""
    return cast(FantasyState, ctx.state)


def refuse(
    en: str, ru: str, *rule_ids: str, tip: str | None = None, tip_ru: str | None = None
) -> NoReturn:
    """Refuse the action, naming the rules and what to do instead."""
    raise RuleViolation(en, ru=ru, rule_ids=rule_ids, tip=tip, tip_ru=tip_ru)


def require_alive(ch: Character) -> None:
    """Nothing is done by or to a dead character (S-FALL-04, S-PHEAL-14, S-ADD-16)."""
    if not ch.alive:
        refuse(f"{ch.name} is dead", f"{ch.name} мёртв", "S-FALL-04")


def require_master(ctx: ActionContext, what: str, what_ru: str) -> None:
    """Only a master may do ``what`` (entering rolls made elsewhere, GM rulings)."""
    if ctx.role is not Role.MASTER:
        raise Forbidden(f"Only a master may {what}", ru=f"Только мастер может {what_ru}")


def stat(ch: Character, name: str) -> int:
    """A base stat of ``ch`` (0 when not set)."""
    return int(ch.stats.get(name, 0))


def parse_pairs(values: list[str], *, stats_only: bool, field: str) -> dict[str, int]:
    """``["STR=2", "END=1"]`` → ``{"STR": 2, "END": 1}`` (a validator helper)."""
    out: dict[str, int] = {}
    for raw in values:
        for part in raw.split(","):
            if not part.strip():
                continue
            if "=" not in part:
                raise ValueError(f"{field}: {part!r} is not NAME=NUMBER")
            name, _, number = part.partition("=")
            name = name.strip().upper() if stats_only else name.strip()
            if stats_only and name not in STATS:
                raise ValueError(f"{field}: {name!r} is not one of {' '.join(STATS)}")
            try:
                out[name] = out.get(name, 0) + int(number.strip())
            except ValueError:
                raise ValueError(f"{field}: {number.strip()!r} is not a whole number") from None
    return out


def flag(ch: Character, name: str) -> bool:
    """A boolean fact of the character sheet (A-S-29)."""
    return bool(ch.data.get(name, False))


def get_item(ctx: ActionContext | QueryContext, item_id: str) -> Item:
    """The item ``item_id``; NotFound names it."""
    item = fstate(ctx).items.get(item_id)
    if item is None:
        raise NotFound(
            f"No item {item_id!r}",
            ru=f"Нет предмета {item_id!r}",
            tip="Register it with `register-item` or `craft-item`.",
            tip_ru="Зарегистрируйте его: `register-item` или `craft-item`.",
        )
    return item


def new_id(ctx: ActionContext, prefix: str) -> str:
    """A fresh id, unique in the campaign (derived from the log position)."""
    return f"{prefix}{ctx.state.last_seq + 1}"


def iso(value: datetime | None) -> str | None:
    """A datetime for an event payload."""
    return None if value is None else value.isoformat()


def next_midnight(now: datetime) -> datetime:
    """00:00 of the game day after ``now`` (A-S-20, A-S-28)."""
    return datetime.combine(now.date() + timedelta(days=1), time(0), tzinfo=now.tzinfo)


def add_condition(
    ctx: ActionContext,
    char_id: str,
    kind: str,
    rule_ids: tuple[str, ...],
    *,
    deadline: datetime | None = None,
    data: dict[str, Any] | None = None,
    source: str = "",
    visibility: Visibility = Visibility.ALL,
    replace: bool = True,
) -> None:
    """Give ``char_id`` a condition; with a deadline, a timer removes it then.

    With ``replace`` a condition of the same kind (and the same ``data.id``, if any) is
    replaced, and its expiry timer cancelled.
    """
    cid = (data or {}).get("id")
    for t in ctx.state.timers_for(char_id, CONDITION_EXPIRES):
        if replace and t.payload.get("kind") == kind and t.payload.get("id") == cid:
            ctx.cancel(t.id, rule_ids)
    cond = Condition(
        kind=kind,
        started=ctx.now,
        deadline=deadline,
        source=source,
        visibility=visibility,
        data=data or {},
    )
    ctx.emit(
        "condition.added",
        {
            "character": char_id,
            "kind": kind,
            "condition": cond.model_dump(mode="json"),
            "replace": replace and cid is None,
        },
        rule_ids,
    )
    if deadline is not None and kind != "trauma":
        ctx.schedule(
            CONDITION_EXPIRES,
            deadline - ctx.now,
            char_id,
            {"kind": kind, "id": (data or {}).get("id")},
            rule_ids,
        )


def remove_condition(
    ctx: ActionContext, char_id: str, kind: str, rule_ids: tuple[str, ...], cid: str | None = None
) -> None:
    """Remove a condition (and its expiry timer)."""
    for t in ctx.state.timers_for(char_id, CONDITION_EXPIRES):
        if t.payload.get("kind") == kind and (cid is None or t.payload.get("id") == cid):
            ctx.cancel(t.id, rule_ids)
    ctx.emit("condition.removed", {"character": char_id, "kind": kind, "id": cid}, rule_ids)


def hp_change(ctx: ActionContext, deltas: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """The HP after adding each delta (between 0 and max HP), and the real deltas."""
    after: dict[str, int] = {}
    real: dict[str, int] = {}
    for char_id, delta in deltas.items():
        ch = ctx.character(char_id)
        hits = max(0, min(ch.hits_max, ch.hits + delta))
        after[char_id] = hits
        real[char_id] = hits - ch.hits
    return after, real


def traumas_of(ch: Character) -> list[Condition]:
    """The character's traumas (травмы)."""
    return [c for c in ch.conditions if c.kind == "trauma"]


def trauma_condition(ch: Character, trauma_id: str) -> Condition:
    """One trauma of ``ch`` by id or catalogue key; NotFound otherwise."""
    for c in traumas_of(ch):
        if trauma_id in (c.data.get("id"), c.data.get("key")):
            return c
    known = ", ".join(f"{c.data.get('id')} ({c.data.get('key')})" for c in traumas_of(ch))
    raise NotFound(
        f"{ch.name} has no trauma {trauma_id!r}; traumas: {known or 'none'}",
        ru=f"У {ch.name} нет травмы {trauma_id!r}; травмы: {known or 'нет'}",
    )


def dice_times(die: str, n: int) -> str:
    """``n`` rolls of ``die`` as one expression: ``1d10`` x 3 → ``3d10``."""
    count, _, sides = die.partition("d")
    if count.isdigit() and sides.isdigit():
        return f"{int(count) * n}d{sides}"
    return " + ".join([f"({die})"] * n)


def die_sides(die: str) -> int:
    """The sides of a simple ``NdM`` die (0 if it is not one)."""
    _, _, sides = die.partition("d")
    return int(sides) if sides.isdigit() else 0


def add_trauma(
    ctx: ActionContext,
    char_id: str,
    key: str,
    rule_ids: tuple[str, ...],
    *,
    source: str = "",
    conditions: list[str] | None = None,
    replaces: str | None = None,
) -> str:
    """Give ``char_id`` a trauma of the catalogue; returns its id (A-S-24).

    ``conditions`` are the GM's extra conditions of a combined treatment.
    """
    from lazaretto.rulesets.fantasy_server.tables import traumas

    kind = traumas()[key]
    tid = new_id(ctx, "tr")
    combined = {"treatment": False, **{c: False for c in conditions or []}}
    add_condition(
        ctx,
        char_id,
        "trauma",
        rule_ids,
        data={
            "id": tid,
            "key": key,
            "name": kind.en,
            "name_ru": kind.ru,
            "combined": combined,
            "replaces": replaces,
        },
        source=source,
    )
    return tid
