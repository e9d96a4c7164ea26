"""What an injury does over time, and how it ends.

* Effects with a rolled duration (A-D-19) end by themselves: counted in the creature's
  own turns (``start-turn``) or on the campaign clock (a timer). An injury all of whose
  effects were timed ends when the last one does.
* Bleeding hurts at the start of each of the creature's turns until treated (A-D-13).
* A max-HP drain (D-TAB-03, D-TAB-49) or an hourly HP loss (D-TAB-52) is a repeating
  timer; a creature whose maximum reaches 0 dies (D-TAB-03, A-D-19).
* Natural recovery ("1 неделя", "1d8 дней": A-D-12) is a timer too.
* Healing an injury gives back the max HP it took (A-D-19) and, by regeneration, a
  lost limb (A-D-15).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from pydantic import BaseModel, Field

from lazaretto.core.character import Character, Condition
from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.dnd5e_injuries.common import (
    effects_text,
    injuries,
    params,
    require_alive,
    turn,
)
from lazaretto.rulesets.dnd5e_injuries.tables import LIMBS, TABLES, Row
from lazaretto.rulesets.dnd5e_injuries.triggers import lose_hp, open_pending

EFFECT_ENDS = "injury_effect_ends"
RECOVERS = "injury_recovers"
DRAIN = "injury_drain"
UNIT_TIME = {
    "minute": timedelta(minutes=1),
    "hour": timedelta(hours=1),
    "day": timedelta(days=1),
    "week": timedelta(weeks=1),
}


def amount(ctx: ActionContext, dice: str) -> int:
    """A number of the table: a constant as is, dice rolled (and recorded)."""
    return int(dice) if dice.isdigit() else int(ctx.roll(dice).total)


def build_effects(
    ctx: ActionContext, ch: Character, row: Row, gm_amounts: list[int]
) -> list[dict[str, Any]]:
    """The row's effects as applied now: durations and max-HP losses rolled (A-D-19),
    GM numbers filled in for the unquantified ones (A-D-13)."""
    p = params(ctx)
    numbers = list(gm_amounts)
    out: list[dict[str, Any]] = []
    for index, e in enumerate(row.effects):
        rec: dict[str, Any] = e.model_dump() | {
            "index": index,
            "rolled": None,
            "ends_turn": None,
            "ends_at": None,
            "ended": False,
            "timed": e.timed,
        }
        if e.timed and e.unit is None:
            rec["unit"] = p.stun_unit  # A-D-13: "Оглушён 1d6" has no unit
        if e.timed and p.roll_durations_on_apply and e.dice:
            n = amount(ctx, e.dice)
            rec["rolled"] = n
            if rec["unit"] == "turn":  # affects its next n turns, ends at the start of the next
                rec["ends_turn"] = turn(ch) + n + 1
            else:
                rec["ends_at"] = (ctx.now + n * UNIT_TIME[rec["unit"]]).isoformat()
        if e.kind == "max_hp_loss" and e.dice:
            rec["rolled"] = amount(ctx, e.dice)
        if e.gm and numbers:
            rec["amount"] = numbers.pop(0)
        out.append(rec)
    return out


def max_hp_loss(ch: Character, effects: list[dict[str, Any]]) -> int:
    """Max HP the effects take away now (−1d8 rolled; "Макс хп = 5")."""
    loss = sum(int(e["rolled"]) for e in effects if e["kind"] == "max_hp_loss")
    for e in effects:
        if e["kind"] == "max_hp_set":
            loss += max(0, ch.hits_max - loss - int(e["amount"]))
    return min(loss, ch.hits_max)


def schedule_effects(ctx: ActionContext, ch: Character, record: dict[str, Any]) -> None:
    """Start the countdowns of an injury just received."""
    rule = (record["row"], "A-D-19")
    for e in record["effects"]:
        if e["ends_at"]:
            ctx.schedule(
                EFFECT_ENDS,
                _until(ctx, e["ends_at"]),
                ch.id,
                {"injury": record["id"], "effect": e["index"]},
                rule,
            )
        if e["kind"] in ("max_hp_drain", "hp_drain"):
            ctx.schedule(
                DRAIN,
                timedelta(hours=int(e["every_hours"])),
                ch.id,
                {"injury": record["id"], "effect": e["index"]},
                (record["row"], "A-D-13"),
            )
    if record.get("natural_at"):
        ctx.schedule(
            RECOVERS,
            _until(ctx, record["natural_at"]),
            ch.id,
            {"injury": record["id"]},
            (record["row"], "A-D-12"),
        )


def _until(ctx: ActionContext, iso: str) -> timedelta:
    from datetime import datetime

    return datetime.fromisoformat(iso) - ctx.now


def _cancel_timers(ctx: ActionContext, ch: Character, injury_id: str) -> None:
    for t in ctx.state.timers_for(ch.id):
        if t.payload.get("injury") == injury_id:
            ctx.cancel(t.id)


def heal(
    ctx: ActionContext,
    ch: Character,
    cond: Condition,
    how: str,
    rule_ids: tuple[str, ...],
    method: str | None = None,
) -> None:
    """End an injury: its countdowns stop, its max-HP loss comes back (A-D-19), and a
    regenerated limb grows back (A-D-15)."""
    data = cond.data
    _cancel_timers(ctx, ch, data["id"])
    hits_max = ch.hits_max + int(data.get("max_hp_loss", 0))
    restored = None
    if method == "regeneration":
        restored = limb_key(data)
    ctx.emit(
        "injury.healed",
        {
            "character": ch.id,
            "injury": data["id"],
            "row": data["row"],
            "name_en": data["name_en"],
            "name_ru": data["name_ru"],
            "how": how,
            "method": method,
            "hits_max": hits_max,
            "hits": min(ch.hits, hits_max),
            "limb_restored": restored,
        },
        rule_ids,
    )


def die(ctx: ActionContext, ch: Character, cause: str, rule_ids: tuple[str, ...]) -> None:
    """The creature dies: every countdown about it stops."""
    ctx.cancel_all(ch.id)
    ctx.emit("character.died", {"character": ch.id, "cause": cause}, rule_ids)


def all_timed_ended(data: dict[str, Any]) -> bool:
    """Whether every effect was timed and has ended (the injury is over)."""
    return all(e["timed"] and e["ended"] for e in data["effects"]) and bool(data["effects"])


def end_effects(ctx: ActionContext, ch: Character, cond: Condition, indexes: list[int]) -> None:
    """Effects of ``cond`` whose time is up end; the injury ends with its last one."""
    data = cond.data
    ctx.emit(
        "injury.effect_ended",
        {
            "character": ch.id,
            "injury": data["id"],
            "effects": indexes,
            "name_en": data["name_en"],
            "name_ru": data["name_ru"],
            "what_en": effects_text([data["effects"][i] for i in indexes], "en"),
            "what_ru": effects_text([data["effects"][i] for i in indexes], "ru"),
        },
        (data["row"], "A-D-19"),
    )
    if all_timed_ended(cond.data):
        heal(ctx, ch, cond, "effects_ended", (data["row"], "A-D-19"))


def limb_key(record: dict[str, Any]) -> str | None:
    """The lost limb of a record (``arm:left``), if the row takes one."""
    if not any(e["kind"] == "limb_lost" for e in record["effects"]):
        return None
    limb = LIMBS[record["location"]]
    return f"{limb}:{record['side']}" if record.get("side") else limb


def row_of(cond: Condition) -> Row:
    """The table row an injury came from."""
    return TABLES.by_id(cond.data["row"])


def register(rs: Ruleset) -> None:
    """Declare the turn action and the injury timers."""

    class StartTurn(BaseModel):
        character: str = Field(description="whose turn starts")

    @rs.action(
        "start-turn",
        StartTurn,
        summary=(
            "A creature's turn starts: bleeding, turn-long effects end, reaction back",
            "Начало хода существа: кровотечение, эффекты на ходы, реакция снова есть",
        ),
        rule_ids=("A-D-13", "A-D-19", "A-D-10"),
    )
    def start_turn(ctx: ActionContext, a: StartTurn) -> None:
        ch = ctx.character(a.character)
        require_alive(ch)
        now = turn(ch) + 1
        ctx.emit("turn.started", {"character": ch.id, "turn": now}, ("A-D-10",))
        for cond in injuries(ch):
            for e in cond.data["effects"]:
                if e["kind"] != "bleeding" or e["ended"] or not ch.alive:
                    continue
                lost = amount(ctx, e["dice"])  # A-D-13: at the start of each of its turns
                after, crossed = lose_hp(ctx, ch, lost)
                ctx.emit(
                    "injury.bled",
                    {
                        "character": ch.id,
                        "injury": cond.data["id"],
                        "lost": lost,
                        "hits": after,
                        "hits_max": ch.hits_max,
                    },
                    (cond.data["row"], "A-D-13"),
                )
                if crossed:
                    open_pending(
                        ctx,
                        ch,
                        ["zero_hp"],
                        damage=lost,
                        damage_type=cond.data["damage_type"],
                        from_attack=False,
                    )
        for cond in injuries(ch):
            done = [
                e["index"]
                for e in cond.data["effects"]
                if e["ends_turn"] is not None and not e["ended"] and e["ends_turn"] <= now
            ]
            if done:
                end_effects(ctx, ch, cond, done)

    @rs.on_timer(EFFECT_ENDS)
    def effect_ends(ctx: ActionContext, t: Timer) -> None:
        ch = ctx.character(t.subject)
        cond = _injury(ch, t.payload["injury"])
        if cond is not None and ch.alive:
            end_effects(ctx, ch, cond, [t.payload["effect"]])

    @rs.on_timer(RECOVERS)
    def recovers(ctx: ActionContext, t: Timer) -> None:
        ch = ctx.character(t.subject)
        cond = _injury(ch, t.payload["injury"])
        if cond is not None and ch.alive:
            heal(ctx, ch, cond, "natural", (cond.data["row"], "A-D-12"), "natural")

    @rs.on_timer(DRAIN)
    def drain(ctx: ActionContext, t: Timer) -> None:
        ch = ctx.character(t.subject)
        cond = _injury(ch, t.payload["injury"])
        if cond is None or not ch.alive:
            return
        e = cond.data["effects"][t.payload["effect"]]
        rules = (cond.data["row"], "A-D-13", "A-D-19")
        if e["kind"] == "max_hp_drain":
            lost = min(int(e["amount"]), ch.hits_max)
            hits_max = ch.hits_max - lost
            hits, crossed = min(ch.hits, hits_max), False
            loss = int(cond.data.get("max_hp_loss", 0)) + lost
        else:
            lost = amount(ctx, e["dice"])
            hits, crossed = lose_hp(ctx, ch, lost)
            hits_max, loss = ch.hits_max, int(cond.data.get("max_hp_loss", 0))
        ctx.emit(
            "injury.drained",
            {
                "character": ch.id,
                "injury": cond.data["id"],
                "kind": e["kind"],
                "lost": lost,
                "hits": hits,
                "hits_max": hits_max,
                "max_hp_loss": loss,
            },
            rules,
        )
        if hits_max <= 0:  # D-TAB-03: death at 0
            die(ctx, ch, "max_hp_zero", rules)
            return
        if crossed:
            open_pending(
                ctx,
                ch,
                ["zero_hp"],
                damage=lost,
                damage_type=cond.data["damage_type"],
                from_attack=False,
            )
        ctx.schedule(DRAIN, timedelta(hours=int(e["every_hours"])), ch.id, dict(t.payload), rules)


def _injury(ch: Character, injury_id: str) -> Condition | None:
    return next((c for c in injuries(ch) if c.data["id"] == injury_id), None)
