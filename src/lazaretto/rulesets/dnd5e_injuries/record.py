"""An injury as stored on the creature, and receiving it (max HP, a lost limb,
countdowns); Disfigurement on top of a heavy head injury (D-DISF-01).
"""

from __future__ import annotations

from typing import Any

from lazaretto.core.character import Character
from lazaretto.core.engine import ActionContext
from lazaretto.rulesets.dnd5e_injuries.common import effects_text, label, params
from lazaretto.rulesets.dnd5e_injuries.effects import (
    UNIT_TIME,
    amount,
    build_effects,
    die,
    limb_key,
    max_hp_loss,
    schedule_effects,
)
from lazaretto.rulesets.dnd5e_injuries.plan import Plan
from lazaretto.rulesets.dnd5e_injuries.state import DndState
from lazaretto.rulesets.dnd5e_injuries.tables import TABLES, Row
from lazaretto.rulesets.dnd5e_injuries.triggers import lose_hp, open_pending


def build_record(
    ctx: ActionContext,
    ch: Character,
    row: Row,
    *,
    location: str,
    side: str | None,
    sub_table: str,
    sev: str,
    rolled_sev: str,
    plan: Plan,
    data: dict[str, Any],
    gm_amounts: list[int],
) -> dict[str, Any]:
    """The injury as it will be stored on the character (rolls its durations)."""
    state = ctx.state
    assert isinstance(state, DndState)
    effects = build_effects(ctx, ch, row, gm_amounts)
    natural = row.natural
    natural_at = None
    if natural and natural.dice and natural.unit and params(ctx).roll_durations_on_apply:
        n = amount(ctx, natural.dice)
        natural_at = (ctx.now + n * UNIT_TIME[natural.unit]).isoformat()
    return {
        "id": f"i{state.injury_count + 1}",
        "row": row.id,
        "name_en": row.name.en,
        "name_ru": row.name.ru,
        "effect_en": row.effect.en,
        "effect_ru": row.effect.ru,
        "treatment_en": row.treatment.en,
        "treatment_ru": row.treatment.ru,
        "untreatable": row.untreatable,
        "cures": [c.model_dump(exclude_none=True) for c in row.cures],
        "location": location,
        "side": side,
        "sub_table": sub_table,
        "damage_type": plan.damage_type,
        "severity": sev,
        "severity_rolled": rolled_sev,
        "damage": plan.damage,
        "caution": plan.caution,
        "triggers": list(data.get("triggers", [])),
        "exchanged": bool(data.get("exchanged")),
        "effects": effects,
        "max_hp_loss": 0,
        "natural_at": natural_at,
        "medicine_successes": 0,
        "success_days": [],
    }


def receive(
    ctx: ActionContext,
    ch: Character,
    record: dict[str, Any],
    pending_id: str | None,
    rule_ids: tuple[str, ...],
    kind: str = "injury.received",
) -> None:
    """Put the injury on the character (max HP, once-off HP loss, a lost limb) and start
    its countdowns."""
    loss = max_hp_loss(ch, record["effects"])
    record["max_hp_loss"] = loss
    hits_max = ch.hits_max - loss
    once = sum(int(e["amount"] or 0) for e in record["effects"] if e["kind"] == "hp_loss")
    hits = max(0, min(ch.hits, hits_max) - once)
    crossed = once > 0 and lose_hp(ctx, ch, ch.hits - hits)[1]
    where_en = label(f"location:{record['location']}", "en")
    where_ru = label(f"location:{record['location']}", "ru")
    if record.get("side"):
        where_en += f" ({label('side:' + record['side'], 'en')})"
        where_ru += f" ({label('side:' + record['side'], 'ru')})"
    dmg = record["damage"]
    damage_en = (
        "severity set by the GM"
        if record["caution"] is None
        else (f"damage {dmg} vs combat caution {record['caution']}")
    )
    damage_ru = (
        "тяжесть задал мастер"
        if record["caution"] is None
        else (f"урон {dmg} против боевой осторожности {record['caution']}")
    )
    ctx.emit(
        kind,
        {
            "character": ch.id,
            "pending": pending_id,
            "injury": record,
            "hits": hits,
            "hits_max": hits_max,
            "lost_limb": limb_key(record),
            "severity": record["severity"],
            "damage_type": record["damage_type"],
            "where_en": where_en,
            "where_ru": where_ru,
            "damage_en": damage_en,
            "damage_ru": damage_ru,
            "name_en": record["name_en"],
            "name_ru": record["name_ru"],
            "effect_en": effects_text(record["effects"], "en"),
            "effect_ru": effects_text(record["effects"], "ru"),
            "treatment_en": record["treatment_en"],
            "treatment_ru": record["treatment_ru"],
        },
        rule_ids,
    )
    schedule_effects(ctx, ch, record)
    if hits_max <= 0:  # a creature whose maximum reaches 0 dies (A-D-19)
        die(ctx, ch, "max_hp_zero", (record["row"], "A-D-19"))
    elif crossed:
        open_pending(
            ctx, ch, ["zero_hp"], damage=once, damage_type=record["damage_type"], from_attack=False
        )


def disfigure(ctx: ActionContext, ch: Character, plan: Plan) -> None:
    """Any heavy head injury also disfigures (D-DISF-01, A-D-14): on top of its row."""
    row = TABLES.disfigurement
    record = build_record(
        ctx,
        ch,
        row,
        location="head",
        side=None,
        sub_table="",
        sev="heavy",
        rolled_sev="heavy",
        plan=plan,
        data={},
        gm_amounts=[],
    )
    receive(ctx, ch, record, None, ("D-DISF-01", "A-D-14"), "injury.disfigured")
