"""Falling and collision damage (Урон от падения; Падение; Урон от столкновения):
checklist-002 §2.4–§2.5.

A fall deals 1d10 per movement action, as pure damage no armour stops (S-FALL-01/02);
every 10 points beyond the character's max HP add a random trauma, and more than 100
kills (S-FALL-03/04, A-S-09). A collision deals 1d10 bludgeoning per horizontal movement
action, to both characters when two collide (S-COLL, A-S-10).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Literal

from pydantic import BaseModel, Field

from lazaretto.core.dice import parse
from lazaretto.core.engine import ActionContext, QueryContext
from lazaretto.core.errors import InvalidInput
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.fantasy_server.checks import roll_check
from lazaretto.rulesets.fantasy_server.common import (
    add_trauma,
    dice_times,
    die_sides,
    params,
    refuse,
    require_alive,
    require_master,
)
from lazaretto.rulesets.fantasy_server.general import damage, die
from lazaretto.rulesets.fantasy_server.params import FantasyParams


def fall_turns(actions: int, per_turn: int = 2) -> int:
    """Turns a fall of ``actions`` movement actions lasts (S-FALL-05; A-S-09: the last
    turn of an odd fall covers one)."""
    return math.ceil(actions / per_turn)


def fall_traumas(damage_taken: int, max_hp: int, step: int = 10) -> int:
    """Random traumas from a fall: one per full ``step`` over max HP (S-FALL-03, A-S-09)."""
    return (damage_taken - max_hp) // step if damage_taken > max_hp else 0


def fall_kills(damage_taken: int, above: int = 100) -> bool:
    """Whether a fall kills: strictly more than ``above`` (S-FALL-04, A-S-09)."""
    return damage_taken > above


def fall_odds(actions: int, max_hp: int, p: FantasyParams) -> dict[str, Any]:
    """Exact odds of a fall: death, traumas, mean damage (a calculator, no roll)."""
    dist = parse(dice_times(p.fall_die, actions)).distribution()
    death = sum((pr for d, pr in dist.items() if fall_kills(d, p.fall_death_above)), Fraction(0))
    traumas = sum(
        (pr * fall_traumas(d, max_hp, p.fall_trauma_step) for d, pr in dist.items()), Fraction(0)
    )
    mean = sum((pr * d for d, pr in dist.items()), Fraction(0))
    return {"death": death, "mean_traumas": traumas, "mean_damage": mean}


def _given(ctx: ActionContext, rolls: list[int], count: int, die: str) -> int:
    require_master(ctx, "enter dice rolled elsewhere", "вводить уже брошенные кубики")
    sides = die_sides(die)
    if len(rolls) != count or any(not 1 <= r <= sides for r in rolls):
        raise InvalidInput(
            f"Give {count} rolls of {die} (1..{sides} each), got {rolls}",
            ru=f"Нужно {count} бросков {die} (каждый 1..{sides}), дано {rolls}",
        )
    return sum(rolls)


def register(rs: Ruleset) -> None:
    """Declare the falling and collision actions and queries."""

    class ResolveFall(BaseModel):
        character: str = Field(description="who falls")
        movement_actions: int = Field(ge=1, le=100, description="movement actions fallen")
        rolls: list[int] = Field(
            default_factory=list, description="the d10s rolled elsewhere (masters)"
        )

    @rs.action(
        "resolve-fall",
        ResolveFall,
        summary=("Resolve a fall: damage, traumas, death", "Падение: урон, травмы, смерть"),
        rule_ids=("S-FALL-01", "S-FALL-02", "S-FALL-03", "S-FALL-04", "S-FALL-05"),
    )
    def resolve_fall(ctx: ActionContext, a: ResolveFall) -> None:
        p = params(ctx)
        ch = ctx.character(a.character)
        require_alive(ch)
        n = a.movement_actions
        if a.rolls:
            dealt, dice = _given(ctx, a.rolls, n, p.fall_die), list(a.rolls)
        else:
            r = ctx.roll(dice_times(p.fall_die, n))
            dealt, dice = r.total, [x for d in r.dice for x in d.kept]
        count = fall_traumas(dealt, ch.hits_max, p.fall_trauma_step)
        dies = fall_kills(dealt, p.fall_death_above)
        drawn: list[str] = []
        if not dies:
            table = p.fall_trauma_table
            for _ in range(count):
                drawn.append(table[ctx.roll(f"1d{len(table)}").total - 1])
        rules = ["S-FALL-01", "S-FALL-02", "S-FALL-05", "A-S-09"]
        if count:
            rules.append("S-FALL-03")
        if dies:
            rules.append("S-FALL-04")
        damage(
            ctx,
            {ch.id: dealt},
            "fall.resolved",
            {
                "character": ch.id,
                "movement_actions": n,
                "turns": fall_turns(n, p.fall_actions_per_turn),
                "dice": dice,
                "damage": dealt,
                "armor_ignored": True,
                "traumas": count,
                "drawn": ", ".join(drawn) or "-",
                "fatal": dies,
            },
            tuple(rules),
        )
        if dies:
            die(ctx, ch.id, "fall", ("S-FALL-04",))
            return
        for key in drawn:
            add_trauma(ctx, ch.id, key, ("S-FALL-03", "A-S-09"), source="fall")

    class ActWhileFalling(BaseModel):
        character: str = Field(description="who is falling")
        what: str = Field(description="verbal_spell, consumable, ... (what is allowed)")
        item: str = Field("", max_length=80, description="the consumable")
        roll: int | None = Field(None, description="a die rolled elsewhere (masters)")

    @rs.action(
        "act-while-falling",
        ActWhileFalling,
        summary=(
            "Do something while falling (a consumable needs a REF roll)",
            "Действие в падении (расходник требует броска REF)",
        ),
        rule_ids=("S-FALL-06", "S-FALL-07"),
    )
    def act_while_falling(ctx: ActionContext, a: ActWhileFalling) -> None:
        p = params(ctx)
        ch = ctx.character(a.character)
        require_alive(ch)
        if a.what not in p.falling_allowed_actions:
            allowed = ", ".join(p.falling_allowed_actions)
            refuse(
                f"While falling only some actions are possible ({allowed}), not {a.what!r}",
                f"В падении возможны лишь некоторые действия ({allowed}), не {a.what!r}",
                "S-FALL-06",
            )
        used = True
        if a.what == "consumable":
            check = roll_check(
                ctx, ch.id, "REF", "falling_consumable", threshold=p.fall_consumable_threshold,
                natural=a.roll, rule_ids=("S-FALL-07",),
            )  # fmt: skip
            used = bool(check.success)
        ctx.emit(
            "fall.action_resolved",
            {"character": ch.id, "what": a.what, "item": a.item, "done": used},
            ("S-FALL-06", "S-FALL-07") if a.what == "consumable" else ("S-FALL-06",),
        )

    class ResolveCollision(BaseModel):
        character: str = Field(description="who is thrown")
        movement_actions: int = Field(1, ge=0, le=100, description="horizontal movement actions")
        into: Literal["wall", "character", "object"] = Field(description="what they hit")
        other: str | None = Field(None, description="the other character, if into=character")
        cause: Literal["knockback", "spell", "other"] = Field(
            "knockback", description="[Knockback] or a spell moving the character"
        )
        object_larger: bool = Field(False, description="the object is larger than the character")
        point_blank: bool = Field(False, description="[Knockback] point-blank against a wall")
        rolls: list[int] = Field(
            default_factory=list, description="the d10s rolled elsewhere (masters)"
        )

    @rs.action(
        "resolve-collision",
        ResolveCollision,
        summary=("Resolve a collision: bludgeoning damage", "Столкновение: дробящий урон"),
        rule_ids=("S-COLL-01", "S-COLL-02", "S-COLL-03", "S-COLL-04", "S-COLL-05"),
    )
    def resolve_collision(ctx: ActionContext, a: ResolveCollision) -> None:
        p = params(ctx)
        ch = ctx.character(a.character)
        require_alive(ch)
        rules = ["S-COLL-01"]
        if a.into == "object":
            if a.cause != "spell" or not a.object_larger:
                refuse(
                    "Only a spell that moves a character can throw it into a background "
                    "object, and the object must be larger than the character",
                    "Столкнуть с объектом на фоне можно только заклинанием перемещения, "
                    "и объект должен быть больше персонажа",
                    "S-COLL-03",
                )
            rules.append("S-COLL-03")
        elif a.cause == "knockback":
            rules.append("S-COLL-02")
        targets = [ch.id]
        if a.into == "character":
            if not a.other:
                refuse(
                    "Name the other character (--other)", "Укажите второго (--other)", "S-COLL-04"
                )
            require_alive(ctx.character(a.other))
            targets.append(a.other)
            rules.append("S-COLL-04")
        if a.point_blank:
            if a.cause != "knockback" or a.into != "wall":
                refuse(
                    "Point-blank damage is for [Knockback] against a wall",
                    "Урон в упор — при [Отбрасывании] к стене",
                    "S-COLL-05",
                )
            die_text, count = p.knockback_wall_pointblank_dice, 1
            rules = ["S-COLL-05", "A-S-10"]
        else:
            if a.movement_actions < 1:
                refuse(
                    "A collision needs at least one movement action (or --point-blank)",
                    "Для столкновения нужно хотя бы одно действие движения (или --point-blank)",
                    "S-COLL-01",
                )
            die_text, count = p.collision_die, a.movement_actions
        shared = p.collision_shared_roll or len(targets) == 1
        deltas: dict[str, int] = {}
        dice: dict[str, list[int]] = {}
        for i, target in enumerate(targets):
            if shared and i > 0:
                deltas[target], dice[target] = deltas[ch.id], dice[ch.id]
                continue
            if a.rolls and i == 0:
                total = _given(ctx, a.rolls, count, die_text)
                deltas[target], dice[target] = total, list(a.rolls)
            else:
                r = ctx.roll(dice_times(die_text, count))
                deltas[target], dice[target] = r.total, [x for d in r.dice for x in d.kept]
        damage(
            ctx,
            deltas,
            "collision.resolved",
            {
                "character": ch.id,
                "into": a.into,
                "other": a.other,
                "cause": a.cause,
                "damage": deltas[ch.id],
                "damage_each": deltas,
                "dice": dice,
                "type": "bludgeoning",
            },
            (*rules, "A-S-10"),
        )

    class FallOdds(BaseModel):
        character: str = Field(description="who would fall (their max HP)")
        movement_actions: int = Field(ge=1, le=100, description="movement actions")

    @rs.query(
        "fall-odds",
        FallOdds,
        summary=("The odds of a fall", "Чем грозит падение"),
        rule_ids=("S-FALL-02", "S-FALL-03", "S-FALL-04", "S-FALL-05"),
    )
    def fall_odds_query(ctx: QueryContext, a: FallOdds) -> dict[str, Any]:
        p = params(ctx)
        ch = ctx.character(a.character)
        odds = fall_odds(a.movement_actions, ch.hits_max, p)
        turns = fall_turns(a.movement_actions, p.fall_actions_per_turn)
        return {
            "summary": ctx.tr(
                f"{ch.name} falling {a.movement_actions} movement actions ({turns} turns): "
                f"mean {float(odds['mean_damage']):.1f} damage, death {float(odds['death']):.2%}, "
                f"mean traumas {float(odds['mean_traumas']):.2f}",
                f"{ch.name}, падение на {a.movement_actions} действий движения ({turns} ходов): "
                f"в среднем {float(odds['mean_damage']):.1f} урона, смерть "
                f"{float(odds['death']):.2%}, травм в среднем {float(odds['mean_traumas']):.2f}",
            ),
            "turns": turns,
            "death": str(odds["death"]),
            "mean_damage": str(odds["mean_damage"]),
            "mean_traumas": str(odds["mean_traumas"]),
        }
