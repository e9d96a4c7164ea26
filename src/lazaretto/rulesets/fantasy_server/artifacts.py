"""Wearing artifacts (Ношение боевых и небоевых артефактов; Активные и пассивные):
checklist-002 §2.2–§2.3.

Equipping puts an item into the combat or the role-play slots (or both); combat slots
change only outside combat (S-ART-12/13). Every equip shows the resulting stats by the
stat-bonus rule (S-STAT); active artifacts are used, passive ones act by themselves.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext, QueryContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.fantasy_server import breakage
from lazaretto.rulesets.fantasy_server.checks import roll_check
from lazaretto.rulesets.fantasy_server.common import (
    fstate,
    get_item,
    params,
    refuse,
    require_alive,
)
from lazaretto.rulesets.fantasy_server.equipment import (
    capacity,
    param_bonuses,
    slot_of,
    stat_report,
    used,
)
from lazaretto.rulesets.fantasy_server.params import FantasyParams, Stat, Threshold
from lazaretto.rulesets.fantasy_server.statbonus import StatBonus
from lazaretto.rulesets.fantasy_server.state import FantasyState, Item

WEIGHTS = {"light": 1, "medium": 2, "heavy": 3}


SLOT_SETS_RU = {"combat": "боевой", "rp": "ролевой"}
BONUS_MODES_RU = {
    "stepwise_target_band": "по шагам, цена по целевой полосе",
    "divide_by_base_band": "деление по полосе базы",
    "stepwise_current_band": "по шагам, цена по текущей полосе",
}


def stat_lines(
    before: dict[str, StatBonus], after: dict[str, StatBonus], names: Any, ru: bool = False
) -> list[str]:
    """``STR 9 → 10 (base 9, +2 pts, reserve 1)`` for each stat in ``names`` (in Russian:
    ``STR 9 → 10 (база 9, +2 очк., запас 1)``)."""
    out = []
    for name in names:
        a = after.get(name)
        if a is None:
            continue
        b = before.get(name)
        old = b.value if b else a.base
        if ru:
            extra = f", запас {a.reserve}" if a.reserve else ""
            extra += f", {a.wasted} сверх предела +{a.gained}" if a.wasted else ""
            out.append(f"{name} {old} → {a.value} (база {a.base}, +{a.points} очк.{extra})")
            continue
        extra = f", reserve {a.reserve}" if a.reserve else ""
        extra += f", {a.wasted} over the +{a.gained} cap" if a.wasted else ""
        out.append(f"{name} {old} → {a.value} (base {a.base}, +{a.points} pts{extra})")
    return out


class Equip(BaseModel):
    character: str = Field(description="who equips")
    item: str = Field(description="the item")
    slots: Literal["auto", "combat", "rp", "both"] = Field(
        "auto", description="combat slots, role-play slots, both, or as the item allows"
    )


def register(rs: Ruleset) -> None:
    """Declare the equipment actions and the stats query."""

    @rs.action(
        "equip-item",
        Equip,
        summary=(
            "Equip an item; shows the resulting stats",
            "Экипировать предмет; показывает итоговые характеристики",
        ),
        rule_ids=("S-ART-10", "S-ART-11", "S-ART-12", "S-ART-13", "S-ART-17", "S-STAT-03"),
    )
    def equip_item(ctx: ActionContext, a: Equip) -> None:
        p = params(ctx)
        st = fstate(ctx)
        ch = ctx.character(a.character)
        require_alive(ch)
        item = get_item(ctx, a.item)
        sets = equip_sets(p, st, ch.id, item, a.slots)
        adds = item if item.works and item.activation == "passive" else None  # S-ART-16
        before = {s: stat_report(st, ch, s, p) for s in sets}
        after = {s: stat_report(st, ch, s, p, extra=adds) for s in sets}
        lines, lines_ru = [], []
        for s in sets:
            lines += [f"[{s}] {x}" for x in stat_lines(before[s], after[s], item.stat_bonus)]
            s_ru = SLOT_SETS_RU.get(s, s)
            lines_ru += [
                f"[{s_ru}] {x}" for x in stat_lines(before[s], after[s], item.stat_bonus, ru=True)
            ]
            bonus = param_bonuses(st, ch.id, s, p, extra=adds)
            for name in item.param_bonus if adds else {}:
                total, raw = bonus[name]
                capped = f" (capped from +{raw})" if raw > total else ""
                lines.append(f"[{s}] {name} +{total}{capped}")
                capped = f" (урезано с +{raw})" if raw > total else ""
                lines_ru.append(f"[{s_ru}] {name} +{total}{capped}")
        ctx.emit(
            "item.equipped",
            {
                "character": ch.id,
                "item": item.id,
                "name": item.name,
                "slots": ", ".join(sets),
                "effects": "; ".join(lines) or "no stat change",
                "effects_ru": "; ".join(lines_ru) or "характеристики не меняются",
                "stats": {s: {k: v.value for k, v in after[s].items()} for s in sets},
                "reserve": {
                    s: {k: v.reserve for k, v in after[s].items() if v.reserve} for s in sets
                },
                "set": {"owner": ch.id, "equipped": sorted(set(item.equipped) | set(sets))},
            },
            _equip_rules(item),
        )

    class Unequip(BaseModel):
        character: str = Field(description="who takes it off")
        item: str = Field(description="the item")

    @rs.action(
        "unequip-item",
        Unequip,
        summary=("Take an item off", "Снять предмет"),
        rule_ids=("S-ART-12", "S-ART-13"),
    )
    def unequip_item(ctx: ActionContext, a: Unequip) -> None:
        st = fstate(ctx)
        ch = ctx.character(a.character)
        item = get_item(ctx, a.item)
        if item.owner != ch.id or not item.equipped:
            refuse(
                f"{ch.name} is not wearing {item.name}",
                f"{ch.name} не носит {item.name}",
                "S-ART-10",
            )
        if "combat" in item.equipped and st.combat_of(ch.id) is not None:
            refuse(
                f"{ch.name} is in combat: combat equipment stays until the fight ends",
                f"{ch.name} в бою: боевая экипировка остаётся до конца боя",
                "S-ART-12",
                "S-ART-13",
            )
        ctx.emit(
            "item.unequipped",
            {"character": ch.id, "item": item.id, "name": item.name, "set": {"equipped": []}},
            ("S-ART-13",),
        )

    class UseArtifact(BaseModel):
        character: str = Field(description="who uses it")
        item: str = Field(description="the active artifact")
        stat: Stat | None = Field(None, description="the stat of its roll, if it needs one")
        threshold: Threshold | None = Field(None, description="the roll's threshold")
        roll: int | None = Field(None, description="a die rolled elsewhere (masters)")
        reroll: bool = Field(False, description="a repeated attempt (reroll rule)")

    @rs.action(
        "use-artifact",
        UseArtifact,
        summary=("Use an active artifact", "Применить активный артефакт"),
        rule_ids=("S-ART-15", "S-ART-16", "S-ART-19", "S-BRK-07"),
    )
    def use_artifact(ctx: ActionContext, a: UseArtifact) -> None:
        st = fstate(ctx)
        ch = ctx.character(a.character)
        require_alive(ch)
        item = get_item(ctx, a.item)
        if item.activation == "passive":
            refuse(
                f"{item.name} is passive: it needs no use, its property acts by itself",
                f"{item.name} пассивный: применять не нужно, свойство действует само",
                "S-ART-16",
            )
        if item.owner != ch.id or not item.equipped:
            refuse(
                f"{ch.name} has not equipped {item.name}",
                f"{ch.name} не экипировал {item.name}",
                "S-ART-12",
                tip="Equip it before the fight with `equip-item`.",
                tip_ru="Экипируйте его до боя: `equip-item`.",
            )
        in_combat = st.combat_of(ch.id) is not None
        if not in_combat and item.equipped == ["combat"]:
            refuse(
                f"{item.name} takes only a combat slot and cannot be used in role-play",
                f"{item.name} занимает только боевой слот и не применяется в ролевой игре",
                "S-ART-19",
            )
        if not item.works:
            refuse(
                f"{item.name}'s properties do not work ({item.status}, {item.approval})",
                f"Свойства {item.name} не действуют ({item.status}, {item.approval})",
                "S-ART-04",
                "S-BRK-01",
            )
        check = None
        if a.stat is not None:
            check = roll_check(
                ctx, ch.id, a.stat, f"use:{item.id}", threshold=a.threshold, natural=a.roll,
                reroll=a.reroll, slot_set="combat" if in_combat else "rp",
                rule_ids=("S-ART-15",),
            )  # fmt: skip
        ctx.emit(
            "item.used",
            {
                "character": ch.id,
                "item": item.id,
                "name": item.name,
                "mechanic": item.mechanic,
                "success": None if check is None else check.success,
            },
            ("S-ART-15",),
        )
        if check is not None and check.crit == "failure":
            breakage.log_crit(ctx, item)  # S-BRK-07 / S-BRK-09

    class StatAfterEquip(BaseModel):
        character: str = Field(description="who")
        item: str | None = Field(None, description="an item to try on (not equipped)")
        slots: Literal["combat", "rp"] = Field("combat", description="which slot set counts")

    @rs.query(
        "stats",
        StatAfterEquip,
        summary=(
            "A character's stats with artifacts (and with one more item)",
            "Характеристики с артефактами (и с ещё одним предметом)",
        ),
        rule_ids=("S-STAT-03", "S-STAT-04", "S-STAT-07", "S-STAT-08", "S-STAT-09", "S-ART-20"),
    )
    def stats_query(ctx: QueryContext, a: StatAfterEquip) -> dict[str, Any]:
        p = params(ctx)
        st = fstate(ctx)
        ch = ctx.character(a.character)
        extra = get_item(ctx, a.item) if a.item else None
        now = stat_report(st, ch, a.slots, p)
        then = stat_report(st, ch, a.slots, p, extra=extra)
        names = list(extra.stat_bonus) if extra else list(then)
        lines = ctx.tr(
            "; ".join(stat_lines(now, then, names)),
            "; ".join(stat_lines(now, then, names, ru=True)),
        )
        bonus = param_bonuses(st, ch.id, a.slots, p, extra=extra)
        mode = ctx.tr(p.stat_bonus_mode, BONUS_MODES_RU[p.stat_bonus_mode])
        return {
            "summary": (lines or ctx.tr("no stat bonus", "бонусов нет")) + f" [{mode}]",
            "mode": p.stat_bonus_mode,
            "stats": {
                k: {
                    "base": v.base,
                    "points": v.points,
                    "value": v.value,
                    "reserve": v.reserve,
                    "wasted": v.wasted,
                }
                for k, v in then.items()
            },
            "param_bonus": {k: {"bonus": t, "raw": r} for k, (t, r) in bonus.items()},
        }


def equip_sets(
    p: FantasyParams, st: FantasyState, char_id: str, item: Item, wanted: str
) -> list[str]:
    """The slot sets ``item`` goes into, after checking every slot rule."""
    if item.owner not in (None, char_id):
        refuse(
            f"{item.name} belongs to someone else", f"{item.name} принадлежит другому", "S-ART-01"
        )
    if item.status == "destroyed":
        refuse(f"{item.name} is destroyed", f"{item.name} уничтожен", "S-BRK-08")
    if item.approval in ("pending", "rejected"):
        refuse(
            f"{item.name} has not been approved by a GM ({item.approval})",
            f"{item.name} не одобрен GM ({item.approval})",
            "S-ART-04",
            tip="A GM approves it with `approve-item`.",
            tip_ru="GM одобряет его через `approve-item`.",
        )
    allowed = {"combat": ["combat"], "rp": ["rp"], "both": ["combat", "rp"]}[item.slot_roles]
    if wanted == "auto":
        sets = [s for s in allowed if slot_of(item, s) is not None]
    else:
        sets = ["combat", "rp"] if wanted == "both" else [wanted]
    for s in sets:
        if s not in allowed:
            refuse(
                f"{item.name} takes only {item.slot_roles} slots, not {s}",
                f"{item.name} занимает только слоты «{item.slot_roles}», не «{s}»",
                "S-ART-19" if s == "rp" else "S-ART-18",
            )
        slot = slot_of(item, s)
        if slot is None:
            refuse(
                f"A {item.kind} has no {s} slot",
                f"Для предмета вида {item.kind} нет слота ({s})",
                "S-ART-10" if s == "combat" else "S-ART-17",
            )
        if s in item.equipped:
            continue
        if s == "combat" and st.combat_of(char_id) is not None:
            refuse(
                f"{item.name} cannot be equipped during a fight: combat equipment is chosen "
                "before the fight",
                f"{item.name} нельзя экипировать в бою: боевое снаряжение выбирается до боя",
                "S-ART-12",
                "S-ART-13",
                "S-ART-14",
            )
        free = capacity(p, s, slot) - used(st, char_id, s, slot)
        if item.slot_size > free:
            refuse(
                f"No room: {item.name} needs {item.slot_size} {s} {slot} slot(s), {free} free",
                f"Нет места: {item.name} требует слотов «{slot}» ({s}): {item.slot_size}, "
                f"свободно {free}",
                "S-ART-10" if s == "combat" else "S-ART-17",
                "S-ART-11",
                tip="Take something off with `unequip-item`.",
                tip_ru="Снимите что-нибудь: `unequip-item`.",
            )
    if not sets:
        refuse(f"{item.name} has no slot to go in", f"Для {item.name} нет слота", "S-ART-10")
    ch_tumour = any(
        c.kind == "trauma" and c.data.get("key") == "tumour"
        for c in st.characters[char_id].conditions
    )
    if (
        ch_tumour
        and item.armor_weight is not None
        and WEIGHTS[item.armor_weight] > WEIGHTS[p.tumour_max_armor]
    ):
        refuse(
            f"A tumour prevents wearing {item.armor_weight} armour",
            f"Опухоль мешает носить броню ({item.armor_weight})",
            "S-MUTT-06",
            tip="Remove the tumour by physical healing first.",
            tip_ru="Сначала удалите опухоль физическим лечением.",
        )
    return sets


def _equip_rules(item: Item) -> tuple[str, ...]:
    rules = ["S-ART-10"]
    if item.kind in ("accessory", "clothing", "tool"):
        rules.append("S-ART-17")
    if item.slot_size > 1:
        rules.append("S-ART-11")
    if item.slot_roles == "both":
        rules.append("S-ART-18")
    if item.stat_bonus:
        rules += ["S-STAT-03", "S-STAT-04", "S-STAT-07", "S-STAT-08", "S-STAT-09"]
    if item.param_bonus:
        rules.append("S-ART-20")
    rules.append("S-ART-16" if item.activation == "passive" else "S-ART-15")
    return tuple(rules)
