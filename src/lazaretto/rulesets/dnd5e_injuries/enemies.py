"""Injuring an enemy (нанесение травм противнику), aimed attacks and equipment.

An attacker *may try* to injure an enemy (D-INF-03) when its hit was a critical hit
(D-INF-01) or left the enemy at 50 % of its maximum hit points or below (D-INF-02,
A-D-06). The try may be aimed (D-AIM-01): the attacker declares a body part or a piece
of equipment (D-AIM-02) and rolls the attack again — a hit lands on it (D-AIM-03), a
miss on a random part (D-AIM-04, A-D-08). Instead of an injury the attacker may knock
the shield away or damage the armour (D-AIM-05, D-AIM-06, A-D-09).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

from pydantic import BaseModel, Field

from lazaretto.core.character import Character
from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.dnd5e_injuries.common import (
    ARMOR_DAMAGED,
    SHIELD_KNOCKED,
    effective_ac,
    lost_limbs,
    params,
    refuse,
    require_alive,
)
from lazaretto.rulesets.dnd5e_injuries.params import DndParams
from lazaretto.rulesets.dnd5e_injuries.tables import LIMBS
from lazaretto.rulesets.dnd5e_injuries.triggers import Side, open_pending

Aim = Literal["head", "arms", "legs", "torso", "shield", "armor"]
EQUIPMENT = {"shield": "knock_shield", "armor": "damage_armor"}


def _usable_hit(target: Character, actor: Character, p: DndParams) -> dict[str, Any]:
    """The hit that allows the attempt (D-AIM-01), or a refusal naming why not."""
    hit = target.data.get("last_hit")
    if hit is None:
        refuse(
            f"{target.name} has not been hit",
            f"По {target.name} не было попадания",
            "D-INF-01",
            "D-INF-02",
            tip="Record the hit with `take-damage --attacker`.",
            tip_ru="Запишите попадание: `take-damage --attacker`.",
        )
    if hit.get("attacker") not in (None, actor.id):
        refuse(
            f"The last hit on {target.name} was {hit['attacker']}'s, not {actor.name}'s",
            f"Последнее попадание по {target.name} — не {actor.name}",
            "D-INF-01",
            "D-INF-02",
        )
    if hit.get("used"):
        refuse(
            f"{actor.name} already tried to injure {target.name} with this hit",
            f"{actor.name} уже пытался травмировать {target.name} этим ударом",
            "D-INF-03",
        )
    if not hit.get("attempt_allowed"):
        _refuse_below_line(target, hit, p)
        refuse(
            f"The hit was not critical and left {target.name} above half hit points "
            f"({hit['hits']}/{target.hits_max})",
            f"Удар не критический, и у {target.name} больше половины хитов "
            f"({hit['hits']}/{target.hits_max})",
            "D-INF-01",
            "D-INF-02",
            "D-AIM-01",
            "A-D-06",
        )
    return dict(hit)


def _refuse_below_line(target: Character, hit: dict[str, Any], p: DndParams) -> None:
    """Refuse a non-critical hit that left the enemy at or below the line but did not
    cross it: under ``crossing_only`` only the crossing hit counts (D-INF-02, A-D-06)."""
    line = Fraction(str(p.enemy_injury_hp_fraction)) * target.hits_max
    if hit["hits"] > line:
        return
    refuse(
        f"The hit was not critical and {target.name} was already at half hit points or "
        f"below before it (now {hit['hits']}/{target.hits_max}): with "
        "enemy_injury_trigger=crossing_only only the hit that brings them there counts",
        f"Удар не критический, а {target.name} уже был на половине хитов или ниже "
        f"(теперь {hit['hits']}/{target.hits_max}): при enemy_injury_trigger=crossing_only "
        "считается только удар, который до неё довёл",
        "D-INF-01",
        "D-INF-02",
        "D-AIM-01",
        "A-D-06",
    )


def register(rs: Ruleset) -> None:
    """Declare ``attempt-injury`` and ``restore-equipment``."""

    class AttemptInjury(BaseModel):
        actor: str = Field(description="the attacker")
        target: str = Field(description="the enemy just hit")
        aim: Aim | None = Field(None, description="aimed at a body part or equipment")
        side: Side | None = Field(None, description="left or right arm/leg when aimed")
        instead: Literal["knock_shield", "damage_armor"] | None = Field(
            None, description="instead of an injury"
        )
        attack_bonus: int | None = Field(
            None, ge=-10, le=30, description="repeated attack roll: 1d20 + this vs target AC"
        )
        repeat_hit: bool | None = Field(None, description="the repeated roll's result at the table")
        extra_damage: int | None = Field(
            None, ge=0, le=10000, description="damage of the repeated roll (A-D-07 alternative)"
        )

    @rs.action(
        "attempt-injury",
        AttemptInjury,
        summary=(
            "Try to injure an enemy after a critical hit or at ≤ 50% HP (aimed or not)",
            "Попытаться травмировать противника после крита или при ≤ 50% хитов",
        ),
        rule_ids=("D-INF-01", "D-INF-02", "D-INF-03", "D-AIM-01", "D-AIM-02", "D-AIM-03"),
    )
    def attempt(ctx: ActionContext, a: AttemptInjury) -> None:
        actor, target = ctx.character(a.actor), ctx.character(a.target)
        require_alive(actor)
        require_alive(target)
        p = params(ctx)
        if not target.data.get("enemy"):
            refuse(
                f"{target.name} is not an enemy: a player character is injured by the "
                "trigger conditions themselves",
                f"{target.name} не противник: персонаж игрока получает травму по условиям",
                "D-COND-05",
                "D-INF-03",
                tip="Mark enemies with `set-dnd-stats --enemy`.",
                tip_ru="Отметьте противника: `set-dnd-stats --enemy`.",
            )
        hit = _usable_hit(target, actor, p)
        if a.aim is not None and a.instead is not None:
            refuse(
                "Aim at the equipment, or choose it instead of an injury — not both",
                "Либо прицел в экипировку, либо её выбор вместо травмы — не оба",
                "D-AIM-02",
                "D-AIM-05",
            )
        if p.enemy_injury_requires_aim and a.aim is None and a.instead is None:
            refuse(
                "Injuring an enemy needs an aimed attack here",
                "Здесь травму противнику наносят только прицельной атакой",
                "A-D-07",
                "D-AIM-01",
                tip="Give --aim.",
                tip_ru="Укажите --aim.",
            )
        equipment = a.instead or (EQUIPMENT.get(a.aim) if a.aim else None)
        if equipment == "knock_shield" and (
            target.stats.get("shield", 0) <= 0 or target.has(SHIELD_KNOCKED)
        ):
            refuse(
                f"{target.name} carries no shield to knock away",
                f"У {target.name} нет щита, который можно выбить",
                "D-AIM-05",
                "A-D-09",
                tip="Set it with `set-dnd-stats --shield 2`.",
                tip_ru="Задайте его: `set-dnd-stats --shield 2`.",
            )
        if a.side is not None and a.aim not in LIMBS:
            refuse("Only an arm or a leg has a side", "Сторона есть только у руки/ноги", "A-D-15")
        lost = f"{LIMBS.get(a.aim or '')}:{a.side}" in lost_limbs(target)
        if a.aim in LIMBS and p.track_limb_side and a.side and lost:
            refuse(
                f"{target.name}'s {a.side} {LIMBS[a.aim]} is already lost",
                f"Эта конечность {target.name} уже потеряна",
                "A-D-15",
            )
        ac = effective_ac(target)
        if a.aim is not None:
            if (a.attack_bonus is None) == (a.repeat_hit is None):
                refuse(
                    "An aimed attack rolls the attack again: give --attack-bonus or --repeat-hit",
                    "Прицельная атака — повторный бросок атаки: укажите --attack-bonus или "
                    "--repeat-hit",
                    "D-AIM-03",
                )
            if a.attack_bonus is not None and ac is None:
                refuse(
                    f"{target.name}'s AC is not known",
                    f"КД {target.name} неизвестен",
                    "D-AIM-03",
                    tip="Set it with `set-dnd-stats --ac`, or give --repeat-hit.",
                    tip_ru="Задайте `set-dnd-stats --ac` или укажите --repeat-hit.",
                )
        elif a.attack_bonus is not None or a.repeat_hit is not None:
            refuse(
                "Only an aimed attack rolls the attack again",
                "Повторный бросок атаки — только для прицельной атаки",
                "D-AIM-03",
                tip="Give --aim.",
                tip_ru="Укажите --aim.",
            )
        if a.extra_damage is not None and not (p.aimed_roll_adds_damage and a.aim):
            refuse(
                "The repeated attack roll only chooses the location; it adds no damage",
                "Повторный бросок атаки только выбирает цель и не добавляет урона",
                "A-D-07",
            )

        landed: bool | None = None
        rules = ["D-INF-03", "D-AIM-01" if a.aim else "A-D-07"]
        if a.aim is not None:
            rules.append("D-AIM-02")
            if a.repeat_hit is not None:
                landed = a.repeat_hit
            else:
                assert a.attack_bonus is not None and ac is not None
                landed = bool(ctx.roll(f"1d20{a.attack_bonus:+d} >= {ac}").success)
            rules.append("D-AIM-03" if landed else "D-AIM-04")
        damage = int(hit["damage"])
        if landed and a.extra_damage:  # A-D-07 alternative: the repeated roll deals damage
            hits = max(0, target.hits - a.extra_damage)
            ctx.emit(
                "damage.taken",
                {
                    "character": target.id,
                    "damage": a.extra_damage,
                    "damage_type": hit["damage_type"],
                    "critical": False,
                    "attack": True,
                    "attacker": actor.id,
                    "hits_before": target.hits,
                    "hits": hits,
                },
                ("A-D-07",),
            )
            damage += a.extra_damage
        ctx.emit(
            "injury.attempted",
            {
                "actor": actor.id,
                "target": target.id,
                "aim": a.aim,
                "instead": a.instead,
                "hit": landed,
            },
            tuple(rules),
        )
        if equipment is not None and (a.instead is not None or landed):
            _equipment(ctx, actor, target, equipment)
            return
        body = landed and a.aim not in EQUIPMENT
        open_pending(
            ctx,
            target,
            ["enemy_attempt"],
            damage=damage,
            damage_type=hit["damage_type"],
            from_attack=True,
            attacker=actor.id,
            location=a.aim if body else None,
            location_source="aimed" if body else None,
            side=a.side if body else None,
            aimed_missed=a.aim is not None and not landed,
        )

    class RestoreEquipment(BaseModel):
        character: str = Field(description="whose equipment")
        item: Literal["shield", "armor"] = Field(description="shield (donned) or armor (repaired)")

    @rs.action(
        "restore-equipment",
        RestoreEquipment,
        summary=(
            "Pick up and don the shield again, or have the armour repaired",
            "Снова надеть щит или починить броню",
        ),
        rule_ids=("A-D-09",),
    )
    def restore(ctx: ActionContext, a: RestoreEquipment) -> None:
        ch = ctx.character(a.character)
        if not ch.has(SHIELD_KNOCKED if a.item == "shield" else ARMOR_DAMAGED):
            refuse(
                f"{ch.name}'s {a.item} is in order",
                f"С {a.item} у {ch.name} всё в порядке",
                "A-D-09",
            )
        ctx.emit("equipment.restored", {"character": ch.id, "item": a.item}, ("A-D-09",))


def _equipment(ctx: ActionContext, actor: Character, target: Character, what: str) -> None:
    p = params(ctx)
    if what == "knock_shield":  # D-AIM-05, A-D-09: unequipped, its AC bonus lost
        ctx.emit(
            "shield.knocked_away",
            {
                "character": target.id,
                "actor": actor.id,
                "bonus": target.stats.get("shield", 0),
                "effect": p.knock_shield_effect,
            },
            ("D-AIM-05", "A-D-09"),
        )
        return
    old = target.condition(ARMOR_DAMAGED)
    penalty = (int(old.data["penalty"]) if old else 0) + p.armor_damage_ac_penalty
    ctx.emit(
        "armor.damaged",
        {"character": target.id, "actor": actor.id, "penalty": penalty},
        ("D-AIM-06", "A-D-09"),
    )
