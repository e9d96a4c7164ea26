"""When a creature receives an injury (условия получения травмы, D-COND) and the D&D
numbers it needs.

A player character receives an injury when it is hit by a critical hit (D-COND-01), its
hit points drop to 0 (D-COND-02), it rolls a 1 on a death save (D-COND-03) or fails a
save against an effect that can cause physical harm (D-COND-04); any one is enough, and
one event gives one injury however many of them it meets (D-COND-05). The injury is
then *pending*: Dodge and Equal Exchange may still be used (D-DEF) until
``roll-injury`` announces it.

An enemy (``enemy`` set with ``set-dnd-stats``) is not injured by these: its attacker
*may try* on a critical hit or when the hit leaves it at 50 % of its hit points or
below (D-INF-01..03, ``enemies.py``).
"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel, Field

from lazaretto.core.character import Character
from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.dnd5e_injuries.caution import triggers_injury
from lazaretto.rulesets.dnd5e_injuries.common import (
    TRIGGER_RULES,
    injuries,
    params,
    refuse,
    require_alive,
)
from lazaretto.rulesets.dnd5e_injuries.params import DamageType
from lazaretto.rulesets.dnd5e_injuries.state import DndState

Side = Literal["left", "right"]


def open_pending(
    ctx: ActionContext,
    ch: Character,
    triggers: list[str],
    *,
    damage: int | None,
    damage_type: str | None,
    from_attack: bool,
    attacker: str | None = None,
    location: str | None = None,
    location_source: str | None = None,
    side: str | None = None,
    aimed_missed: bool = False,
) -> None:
    """Record that ``ch`` receives an injury, to be announced by ``roll-injury``."""
    state = ctx.state
    assert isinstance(state, DndState)
    record: dict[str, Any] = {
        "id": f"p{state.pending_count + 1}",
        "triggers": triggers,
        "damage": damage,
        "damage_type": damage_type,
        "from_attack": from_attack,
        "attacker": attacker,
        "location": location,
        "location_source": location_source,
        "side": side,
        "exchanged": False,
        "aimed_missed": aimed_missed,
    }
    rules = tuple(r for t in triggers for r in TRIGGER_RULES[t])
    ctx.emit("injury.triggered", {"character": ch.id, "pending": record}, ("D-COND-05", *rules))


def lose_hp(ctx: ActionContext, ch: Character, lost: int) -> tuple[int, bool]:
    """Hit points after losing ``lost``, and whether that drops a player character to 0
    (D-COND-02) — for losses outside an attack (bleeding, a drain)."""
    after = max(0, ch.hits - lost)
    crossed = not ch.data.get("enemy") and ch.hits > params(ctx).injury_hp_trigger_self >= after
    return after, crossed


def halve_for_injured_arm(ctx: ActionContext, attacker: Character, arm: str, damage: int) -> int:
    """Damage of an attack made with an arm that has "Урон ×0.5" (D-TAB-17, D-TAB-20),
    rounded as A-D-18 says."""
    p = params(ctx)
    for inj in injuries(attacker):
        if inj.data.get("location") != "arms":
            continue
        same_arm = not p.track_limb_side or arm == "any" or inj.data.get("side") in (None, arm)
        for e in inj.data["effects"]:
            if e["kind"] == "damage_factor" and not e["ended"] and same_arm:
                exact = damage * float(e["factor"])
                if p.half_damage_rounding == "floor":
                    return math.floor(exact)
                return math.ceil(exact)
    return damage


def register(rs: Ruleset) -> None:
    """Declare the trigger actions."""

    class TakeDamage(BaseModel):
        character: str = Field(description="who is hit")
        damage: int = Field(ge=0, le=10000, description="damage after resistances")
        damage_type: DamageType = Field(description="the 5e damage type")
        critical: bool = Field(False, description="a critical hit")
        attack: bool = Field(True, description="from an attack (not a spell's save)")
        attacker: str | None = Field(None, description="who attacked")
        attacker_arm: Literal["left", "right", "any"] | None = Field(
            None, description="the attacker's arm (halves damage if injured, D-TAB-17/20)"
        )

    @rs.action(
        "take-damage",
        TakeDamage,
        summary=(
            "A creature takes damage (a critical hit or 0 HP injures it)",
            "Существо получает урон (критический удар или 0 хитов — травма)",
        ),
        rule_ids=("D-COND-01", "D-COND-02", "D-COND-05", "D-INF-01", "D-INF-02"),
    )
    def take_damage(ctx: ActionContext, a: TakeDamage) -> None:
        ch = ctx.character(a.character)
        require_alive(ch)
        p = params(ctx)
        damage, rules = a.damage, list[str]()
        if a.attacker is not None:
            attacker = ctx.character(a.attacker)
            if a.attacker_arm is not None:
                damage = halve_for_injured_arm(ctx, attacker, a.attacker_arm, damage)
                if damage != a.damage:
                    rules += ["D-TAB-17", "D-TAB-20", "A-D-18"]
        if a.critical and not a.attack:
            refuse(
                "A critical hit is always an attack",
                "Критический удар — всегда атака",
                "D-COND-01",
                "A-D-04",
            )
        enemy = bool(ch.data.get("enemy"))
        before = ch.hits
        hits = max(0, before - damage)
        hit = triggers_injury(damage, before, ch.hits_max, critical=a.critical, enemy=enemy, p=p)
        allowed = enemy and a.attack and hit
        if allowed:
            rules += ["D-INF-01"] if a.critical else ["D-INF-02", "A-D-06"]
        ctx.emit(
            "damage.taken",
            {
                "character": ch.id,
                "damage": damage,
                "damage_type": a.damage_type,
                "critical": a.critical,
                "attack": a.attack,
                "attacker": a.attacker,
                "hits_before": before,
                "hits": hits,
                "attempt_allowed": allowed,
            },
            tuple(rules),
        )
        if enemy:
            return  # D-INF-03: an enemy is injured only if its attacker tries
        triggers = []
        if a.critical and p.critical_damage_trigger == "critical_hit_received":
            triggers.append("critical_hit")
        if before > p.injury_hp_trigger_self >= hits:
            triggers.append("zero_hp")
        if triggers:
            open_pending(
                ctx,
                ch,
                triggers,
                damage=damage,
                damage_type=a.damage_type,
                from_attack=a.attack,
                attacker=a.attacker,
            )

    class DeathSave(BaseModel):
        character: str = Field(description="who rolls (at 0 hit points)")
        natural: int | None = Field(
            None, ge=1, le=20, description="the d20 as rolled at the table; omit to roll"
        )

    @rs.action(
        "death-save",
        DeathSave,
        summary=(
            "Roll a death save (a natural 1 injures)",
            "Спасбросок от смерти (1 на кубике — травма)",
        ),
        rule_ids=("D-COND-03",),
    )
    def death_save(ctx: ActionContext, a: DeathSave) -> None:
        ch = ctx.character(a.character)
        require_alive(ch)
        p = params(ctx)
        if ch.hits > 0:
            refuse(
                f"{ch.name} has {ch.hits} hit points: death saves are made at 0",
                f"У {ch.name} {ch.hits} хитов: спасброски от смерти делают при 0",
                "D-COND-03",
            )
        natural = a.natural if a.natural is not None else ctx.roll("1d20").total
        injured = natural == p.death_save_injury_natural
        ctx.emit(
            "death_save.rolled",
            {"character": ch.id, "natural": natural, "injury": injured},
            ("D-COND-03",),
        )
        if not injured:
            return
        last = ch.data.get("last_damage") or {}
        use_last = p.severity_damage_source == "last_damage_taken"  # A-D-03
        open_pending(
            ctx,
            ch,
            ["death_save_1"],
            damage=last.get("damage") if use_last else None,
            damage_type=last.get("damage_type"),
            from_attack=False,
        )

    class FailSave(BaseModel):
        character: str = Field(description="who failed the save")
        effect: str = Field(max_length=200, description="the effect, e.g. Fireball")
        harmful: bool = Field(description="the effect can cause physical harm")
        damage: int = Field(0, ge=0, le=10000, description="damage taken from it")
        damage_type: DamageType | None = Field(None, description="its damage type")
        ability: str = Field("", max_length=20, description="the save, e.g. DEX")

    @rs.action(
        "fail-save",
        FailSave,
        summary=(
            "A failed save against an effect (injures if it can harm the body)",
            "Провал спасброска против эффекта (травма, если эффект вредит телу)",
        ),
        rule_ids=("D-COND-04",),
    )
    def fail_save(ctx: ActionContext, a: FailSave) -> None:
        ch = ctx.character(a.character)
        require_alive(ch)
        if a.damage and not a.harmful:
            refuse(
                f"{a.effect} deals damage, so it can cause physical harm",
                f"{a.effect} наносит урон — значит, может причинить физический вред",
                "D-COND-04",
                tip="Record it with --harmful.",
                tip_ru="Укажите --harmful.",
            )
        ctx.emit(
            "save.failed",
            {
                "character": ch.id,
                "effect": a.effect,
                "ability": a.ability,
                "harmful": a.harmful,
                "injury": a.harmful and not ch.data.get("enemy"),
            },
            ("D-COND-04",),
        )
        before = ch.hits
        hits = max(0, before - a.damage)
        if a.damage:
            ctx.emit(
                "damage.taken",
                {
                    "character": ch.id,
                    "damage": a.damage,
                    "damage_type": a.damage_type,
                    "critical": False,
                    "attack": False,
                    "attacker": None,
                    "hits_before": before,
                    "hits": hits,
                },
                ("D-COND-04",),
            )
        if ch.data.get("enemy"):
            return  # D-INF-03
        triggers = ["failed_save"] if a.harmful else []
        if before > params(ctx).injury_hp_trigger_self >= hits:
            triggers.append("zero_hp")
        if not triggers:
            ctx.emit(
                "injury.not_triggered",
                {"character": ch.id, "reason": "not_harmful"},
                ("D-COND-04",),
            )
            return
        open_pending(
            ctx, ch, triggers, damage=a.damage, damage_type=a.damage_type, from_attack=False
        )
