"""Item breakage and repair (Поломка предметов; Ремонт): checklist-002 §2.6–§2.7.

Each item counts the criticals that wear it (A-S-11): a weapon its critical failures on
attacks, a shield its critical failures on defence, armour the critical hits taken by
its wearer, a combat artifact and a tool their critical failures in use. Counters run
per combat encounter by default (``break_counter_scope``). At the threshold a weapon,
shield or armour breaks (artifact properties lost, a penalty that grows with every
further critical); a combat artifact or a tool becomes partially broken and the next
critical destroys it. Event items never break (S-BRK-11).

Repair needs the right craft and half of each non-unique resource, rounded up (S-REP).
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext, QueryContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.fantasy_server.checks import roll_check
from lazaretto.rulesets.fantasy_server.common import (
    STAFF,
    fstate,
    get_item,
    params,
    refuse,
    require_alive,
)
from lazaretto.rulesets.fantasy_server.equipment import figures
from lazaretto.rulesets.fantasy_server.params import FantasyParams
from lazaretto.rulesets.fantasy_server.state import Item
from lazaretto.rulesets.fantasy_server.wear import require_in_use

TRACKS: dict[str, tuple[str, str, str]] = {
    # kind -> (what is counted, counter parameter, rule)
    "weapon": ("critical failure on an attack", "weapon_break_crits", "S-BRK-01"),
    "shield": ("critical failure on defence", "shield_break_crits", "S-BRK-03"),
    "armor": ("critical hit taken", "armor_break_crits", "S-BRK-05"),
    "clothing": ("critical hit taken", "armor_break_crits", "S-BRK-05"),
    "accessory": ("critical failure in use", "artifact_partial_break_crits", "S-BRK-07"),
    "other": ("critical failure in use", "artifact_partial_break_crits", "S-BRK-07"),
    "tool": ("critical failure in use", "tool_partial_break_crits", "S-BRK-09"),
}
WHAT_RU = {
    "critical failure on an attack": "крит. провал атаки",
    "critical failure on defence": "крит. провал защиты",
    "critical hit taken": "крит. попадание по носителю",
    "critical failure in use": "крит. провал при использовании",
}
STEP = {"weapon": "weapon_penalty_step", "shield": "shield_penalty_step"}
BREAKS = ("weapon", "shield", "armor", "clothing")


def log_crit(ctx: ActionContext, item: Item, encounter: str | None = None) -> str:
    """Count one critical against ``item`` and apply what follows; returns the new status.

    ``encounter`` defaults to the owner's active combat; a combat item needs one when
    counters run per encounter (A-S-11). A tool counts in any role-play event (S-BRK-09).
    """
    p = params(ctx)
    what, counter_param, rule = TRACKS[item.kind]
    base = {"item": item.id, "name": item.name, "owner": item.owner, "what": what}
    if item.status == "destroyed":
        refuse(
            f"{item.name} is already destroyed beyond restoration",
            f"{item.name} уже уничтожен без возможности восстановления",
            "S-BRK-08" if item.kind != "tool" else "S-BRK-10",
        )
    if item.event_item:  # S-BRK-11
        ctx.emit("item.critical_logged", {**base, "counter": item.crits, "set": {}}, ("S-BRK-11",))
        return item.status
    if encounter is None and item.owner is not None:
        enc = fstate(ctx).combat_of(item.owner)
        encounter = enc.id if enc else None
    scoped = p.break_counter_scope == "encounter" and item.kind != "tool"
    if scoped and encounter is None and item.status == "intact":
        refuse(
            f"Criticals wear {item.name} only during a combat encounter, and none is named",
            f"Криты изнашивают {item.name} только в боевом столкновении, а оно не указано",
            rule,
            "A-S-11",
            tip="Start one with `start-combat` or give --encounter.",
            tip_ru="Начните бой `start-combat` или укажите --encounter.",
        )
    if item.kind in BREAKS and item.status == "broken":
        return _worsen(ctx, item, base)
    if item.kind not in BREAKS and item.status == "partially_broken":
        ctx.emit(  # S-BRK-08 / S-BRK-10: the next critical before repair destroys it
            "item.destroyed",
            {**base, "set": {"status": "destroyed", "properties_lost": True}},
            ("S-BRK-08",) if item.kind != "tool" else ("S-BRK-10",),
        )
        return "destroyed"
    same = not scoped or item.crit_encounter == encounter
    count = (item.crits if same else 0) + 1
    limit = int(getattr(p, counter_param))
    changes: dict[str, Any] = {"crits": count, "crit_encounter": encounter}
    payload = {**base, "counter": count, "limit": limit, "encounter": encounter}
    if count < limit:
        ctx.emit("item.critical_logged", {**payload, "set": changes}, (rule, "A-S-11"))
        return item.status
    if item.kind in BREAKS:
        step = _step(p, item)
        changes.update(status="broken", properties_lost=True, penalty=_clamp(item, step))
        ctx.emit(
            "item.broke",
            {**payload, "penalty": changes["penalty"], "set": changes, **_after(item, changes)},
            (rule, "A-S-11"),
        )
        return "broken"
    changes.update(status="partially_broken")
    ctx.emit("item.partially_broke", {**payload, "set": changes}, (rule, "A-S-11"))
    return "partially_broken"


def _step(p: FantasyParams, item: Item) -> int:
    return int(getattr(p, STEP.get(item.kind, "armor_penalty_step")))


def _clamp(item: Item, penalty: int) -> int:
    """A shield's penalty stops where its bonus reaches 0 (S-BRK-03/04)."""
    return min(penalty, item.defense_bonus) if item.kind == "shield" else penalty


def _after(item: Item, changes: dict[str, Any]) -> dict[str, Any]:
    fig = figures(item.model_copy(update=changes))
    return {
        "damage_penalty": fig.damage_penalty,
        "defense_bonus": fig.defense_bonus,
        "armor_value": fig.armor_value,
    }


def _worsen(ctx: ActionContext, item: Item, base: dict[str, Any]) -> str:
    """A further critical on a broken item: the penalty accumulates (S-BRK-02/04/06)."""
    p = params(ctx)
    rule = {"weapon": "S-BRK-02", "shield": "S-BRK-04"}.get(item.kind, "S-BRK-06")
    penalty = _clamp(item, item.penalty + _step(p, item))
    changes = {"penalty": penalty, "crits": item.crits + 1}
    ctx.emit(
        "item.critical_logged",
        {
            **base,
            "counter": item.crits + 1,
            "penalty": penalty,
            "set": changes,
            **_after(item, changes),
        },
        (rule,),
    )
    return "broken"


def repair_skills(p: FantasyParams, item: Item) -> list[str]:
    """The crafts that may repair ``item`` (S-REP-01)."""
    return [item.repair_skill] if item.repair_skill else list(p.repair_skills.get(item.kind, []))


def repair_bill(item: Item, p: FantasyParams) -> list[dict[str, Any]]:
    """What a repair costs, per resource (S-REP-02/03/04, A-S-12)."""
    lines = []
    for r in item.resources:
        half = r.amount * p.repair_fraction
        rounded = {"ceil": math.ceil(half), "floor": math.floor(half), "round": round(half)}
        need = 0 if r.unique else int(rounded[p.repair_rounding])
        lines.append(
            {
                "resource": r.name,
                "crafted_with": r.amount,
                "repair": need,
                "unique": r.unique,
                "or_material": r.material if need and r.material else None,
            }
        )
    return lines


def bill_text(lines: list[dict[str, Any]], lang: str) -> str:
    """``2 ingot, 1 leather`` (unique resources left out)."""
    parts = []
    for line in lines:
        if line["repair"]:
            alt = line["or_material"]
            extra = (f" (или {alt})" if lang == "ru" else f" (or {alt})") if alt else ""
            parts.append(f"{line['repair']} {line['resource']}{extra}")
    return ", ".join(parts) or ("ничего" if lang == "ru" else "nothing")


def register(rs: Ruleset) -> None:
    """Declare the breakage and repair actions and queries."""

    class LogItemCritical(BaseModel):
        item: str = Field(description="the item")
        encounter: str | None = Field(None, description="the combat encounter (default: current)")

    @rs.action(
        "log-item-critical",
        LogItemCritical,
        roles=STAFF,
        summary=(
            "Count a critical that wears an item (it may break)",
            "Записать крит, изнашивающий предмет (он может сломаться)",
        ),
        rule_ids=("S-BRK-01", "S-BRK-03", "S-BRK-05", "S-BRK-07", "S-BRK-09", "S-BRK-11"),
    )
    def log_item_critical(ctx: ActionContext, a: LogItemCritical) -> None:
        item = get_item(ctx, a.item)
        require_in_use(item)  # A-S-11: only an item in use wears
        log_crit(ctx, item, a.encounter)

    class RepairItem(BaseModel):
        actor: str = Field(description="who repairs (needs the right craft)")
        item: str = Field(description="the item")
        roll: int | None = Field(None, description="a die rolled elsewhere (masters)")

    @rs.action(
        "repair-item",
        RepairItem,
        summary=("Repair a broken item", "Починить сломанный предмет"),
        rule_ids=("S-REP-01", "S-REP-02", "S-REP-03", "S-REP-04"),
    )
    def repair_item(ctx: ActionContext, a: RepairItem) -> None:
        p = params(ctx)
        item = get_item(ctx, a.item)
        who = ctx.character(a.actor)
        require_alive(who)
        if item.status == "destroyed":
            refuse(
                f"{item.name} was destroyed beyond restoration and cannot be repaired",
                f"{item.name} уничтожен без возможности восстановления, починить нельзя",
                "S-BRK-08" if item.kind != "tool" else "S-BRK-10",
                "A-S-12",
            )
        if item.status == "intact":
            refuse(
                f"{item.name} is not broken",
                f"{item.name} не сломан",
                "S-REP-01",
                tip="See `query item-status`.",
                tip_ru="См. `query item-status`.",
            )
        skills = repair_skills(p, item)
        if not any(who.has_skill(s) for s in skills):
            refuse(
                f"{who.name} cannot repair {item.name}: it needs {' or '.join(skills)}",
                f"{who.name} не может чинить {item.name}: нужен навык {' или '.join(skills)}",
                "S-REP-01",
                tip="Find a craftsman with that skill.",
                tip_ru="Найдите мастера с этим навыком.",
            )
        if p.repair_requires_check:
            check = roll_check(
                ctx,
                who.id,
                p.repair_check_stat,
                "repair",
                threshold=p.repair_check_threshold,
                natural=a.roll,
                rule_ids=("A-S-12",),
            )
            if not check.success:
                return
        lines = repair_bill(item, p)
        changes: dict[str, Any] = {"status": "intact", "crits": 0, "penalty": 0}
        if p.repair_restores_artifact_properties:
            changes["properties_lost"] = False
        ctx.emit(
            "item.repaired",
            {
                "item": item.id,
                "name": item.name,
                "actor": who.id,
                "bill": lines,
                "cost": bill_text(lines, "en"),
                "cost_ru": bill_text(lines, "ru"),
                "set": changes,
            },
            ("S-REP-01", "S-REP-02", "S-REP-03", "S-REP-04", "A-S-12"),
        )

    class ItemQuery(BaseModel):
        item: str = Field(description="the item")

    @rs.query(
        "repair-bill",
        ItemQuery,
        summary=("What repairing an item costs", "Сколько стоит починка предмета"),
        rule_ids=("S-REP-01", "S-REP-02", "S-REP-03", "S-REP-04", "S-BRK-11"),
    )
    def repair_bill_query(ctx: QueryContext, a: ItemQuery) -> dict[str, Any]:
        p = params(ctx)
        item = get_item(ctx, a.item)
        lines = repair_bill(item, p)
        text = bill_text(lines, ctx.lang)
        skills = " / ".join(
            ctx.ruleset.text(f"skill:{s}", ctx.lang) or s for s in repair_skills(p, item)
        )
        note = ""
        if item.event_item:
            note = ctx.tr(" (an event item never breaks)", " (ивентовый предмет не ломается)")
        return {
            "summary": ctx.tr(
                f"Repairing {item.name} costs {text}; craft: {skills}{note}",
                f"Ремонт {item.name}: {text}; навык: {skills}{note}",
            ),
            "bill": lines,
            "skills": repair_skills(p, item),
            "status": item.status,
        }

    @rs.query(
        "item-status",
        ItemQuery,
        summary=("An item's wear, penalties and properties", "Износ, штрафы и свойства предмета"),
        rule_ids=("S-BRK-01", "S-BRK-03", "S-BRK-05", "S-BRK-07", "S-BRK-09", "S-ART-03"),
    )
    def item_status(ctx: QueryContext, a: ItemQuery) -> dict[str, Any]:
        p = params(ctx)
        item = get_item(ctx, a.item)
        fig = figures(item)
        what, counter_param, _ = TRACKS[item.kind]
        status = ctx.ruleset.text(f"status:{item.status}", ctx.lang) or item.status
        return {
            "summary": ctx.tr(
                f"{item.name}: {status}, {item.crits}/{getattr(p, counter_param)} "
                f"{what}(s), penalty {item.penalty}",
                f"{item.name}: {status}, {WHAT_RU[what]}: {item.crits}/"
                f"{getattr(p, counter_param)}, штраф {item.penalty}",
            ),
            "status": item.status,
            "nature": item.nature,
            "artifact": item.is_artifact,
            "properties_work": item.works,
            "approval": item.approval,
            "crits": item.crits,
            "penalty": item.penalty,
            "damage_penalty": fig.damage_penalty,
            "defense_bonus": fig.defense_bonus,
            "armor_value": fig.armor_value,
            "event_item": item.event_item,
        }
