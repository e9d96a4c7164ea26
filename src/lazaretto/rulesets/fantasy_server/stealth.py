"""Stealth (Стелс): checklist-002 §2.13.

Sneaking past characters is REF against PER: against a group only the most perceptive
rolls, in a crowd of 6+ only whoever the sneaker deals with, without perks. An unaware
target may be grabbed, or attacked with the initiative and +20 on the first roll.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.fantasy_server.checks import contest, roll_check
from lazaretto.rulesets.fantasy_server.common import (
    add_condition,
    fstate,
    params,
    refuse,
    remove_condition,
    require_alive,
)
from lazaretto.rulesets.fantasy_server.equipment import effective_stat, worn


def can_sneak(ctx: ActionContext, char_id: str) -> None:
    """Stealth needs no fight, light silent armour and one-handed weapons (S-STEALTH-08..11)."""
    st = fstate(ctx)
    ch = ctx.character(char_id)
    if st.combat_of(char_id) is not None:
        refuse(
            f"{ch.name} is in a fight: stealth starts only out of combat",
            f"{ch.name} в бою: войти в стелс можно только вне боя",
            "S-STEALTH-08",
            tip="Escape first (`flee-combat`), then hide.",
            tip_ru="Сначала сбегите из боя (`flee-combat`), затем скрывайтесь.",
        )
    for item in worn(st, char_id):
        if item.armor_weight is not None and (item.armor_weight != "light" or not item.silent):
            refuse(
                f"{ch.name} wears {item.name}: stealth needs light, silent armour such as leather",
                f"На {ch.name} {item.name}: стелс возможен лишь в лёгкой бесшумной броне",
                "S-STEALTH-09",
            )
        if item.kind == "weapon" and not item.one_handed:
            refuse(
                f"{item.name} is not one-handed: stealth works only with one-handed weapons",
                f"{item.name} не одноручное: стелс работает только с одноручным оружием",
                "S-STEALTH-11",
            )


def register(rs: Ruleset) -> None:
    """Declare the stealth actions."""

    class SneakPast(BaseModel):
        actor: str = Field(description="who sneaks")
        observers: list[str] = Field(min_length=1, description="the characters passed")
        crowd: bool = Field(False, description="a crowd of 6+ (tavern, town hall)")
        interact_with: str | None = Field(
            None, description="in a crowd: who the sneaker deals with"
        )
        perk_bonus: int = Field(
            0, ge=0, le=20, description="the observer's perk bonus (gut feeling)"
        )
        actor_roll: int | None = Field(None, description="the sneaker's die (masters)")
        observer_roll: int | None = Field(None, description="the observer's die (masters)")

    @rs.action(
        "sneak-past",
        SneakPast,
        summary=("Sneak past characters (REF vs PER)", "Прокрасться мимо (REF против PER)"),
        rule_ids=("S-STEALTH-01", "S-STEALTH-02", "S-STEALTH-03", "S-STEALTH-04"),
    )
    def sneak_past(ctx: ActionContext, a: SneakPast) -> None:
        p = params(ctx)
        st = fstate(ctx)
        sneaker = ctx.character(a.actor)
        require_alive(sneaker)
        can_sneak(ctx, sneaker.id)
        watchers = [ctx.character(o) for o in dict.fromkeys(a.observers)]
        crowd = a.crowd or len(watchers) >= p.crowd_size
        rules = ["S-STEALTH-01"]
        perk = a.perk_bonus
        if crowd:  # S-STEALTH-03/04: only on interaction, and no perks
            rules += ["S-STEALTH-03", "S-STEALTH-04"]
            perk = 0
            if a.interact_with is None:
                ctx.emit(
                    "stealth.resolved",
                    {
                        "actor": sneaker.id,
                        "observer": "-",
                        "observer_name": "-",
                        "outcome": "unnoticed",
                        "crowd": True,
                    },
                    tuple(rules),
                )
                _hide(ctx, sneaker.id, [w.id for w in watchers])
                return
            roller = ctx.character(a.interact_with)
        elif len(watchers) >= p.stealth_group_min:  # S-STEALTH-02: the most perceptive rolls
            rules.append("S-STEALTH-02")
            roller = max(watchers, key=lambda w: effective_stat(st, w, "PER", "rp", p))
        else:
            roller = watchers[0]
        s = roll_check(ctx, sneaker.id, "REF", "stealth", natural=a.actor_roll)
        o = roll_check(
            ctx, roller.id, "PER", "detect", natural=a.observer_roll,
            modifiers={"perk": perk} if perk else None,
        )  # fmt: skip
        side, crit_rules = contest(s, o, p)
        rules += [*crit_rules, "A-S-14", "A-S-19"]
        seen = side == "defender"
        ctx.emit(
            "stealth.resolved",
            {
                "actor": sneaker.id,
                "observer": roller.id,
                "observer_name": roller.name,
                "sneaker_total": s.short(),
                "observer_total": o.short(),
                "outcome": "noticed" if seen else "unnoticed",
                "crowd": crowd,
            },
            tuple(dict.fromkeys(rules)),
        )
        if not seen:
            _hide(ctx, sneaker.id, [w.id for w in watchers] if not crowd else [roller.id])
            return
        if sneaker.has("hidden"):
            remove_condition(ctx, sneaker.id, "hidden", ("S-STEALTH-01",))
        if o.total > s.total:  # S-STEALTH-07: rolled higher -> may take the initiative
            add_condition(
                ctx, roller.id, "spotted_sneaker", ("S-STEALTH-07",),
                data={"sneaker": sneaker.id}, source="stealth",
            )  # fmt: skip

    class Ambush(BaseModel):
        actor: str = Field(description="the hidden attacker")
        target: str = Field(description="who has not noticed them")
        mode: Literal["grab", "ranged", "melee"] = Field(
            description="sudden grab, or a ranged / melee attack without a grab"
        )

    @rs.action(
        "ambush",
        Ambush,
        summary=(
            "Attack someone who has not noticed you (+20, initiative)",
            "Напасть на не заметившего вас (+20, инициатива)",
        ),
        rule_ids=("S-STEALTH-05", "S-STEALTH-06"),
    )
    def ambush(ctx: ActionContext, a: Ambush) -> None:
        p = params(ctx)
        ch = ctx.character(a.actor)
        hidden = ch.condition("hidden")
        if hidden is None or a.target not in hidden.data.get("unnoticed_by", []):
            refuse(
                f"{a.target} has noticed {ch.name} (or was not sneaked past)",
                f"{a.target} заметил {ch.name} (или к нему не подкрадывались)",
                "S-STEALTH-05",
                "S-STEALTH-06",
                tip="Sneak past them first (`sneak-past`).",
                tip_ru="Сначала прокрадитесь (`sneak-past`).",
            )
        if a.mode == "grab":
            ctx.emit(
                "ambush.declared",
                {
                    "actor": ch.id,
                    "target": a.target,
                    "target_name": ctx.character(a.target).name,
                    "mode": a.mode,
                    "bonus": 0,
                },
                ("S-STEALTH-05", "A-S-19"),
            )
            return
        ctx.emit(
            "ambush.declared",
            {
                "actor": ch.id,
                "target": a.target,
                "target_name": ctx.character(a.target).name,
                "mode": a.mode,
                "bonus": p.ambush_first_roll_bonus,
            },
            ("S-STEALTH-06", "A-S-19"),
        )
        add_condition(
            ctx, ch.id, "ambush_ready", ("S-STEALTH-06",),
            data={"target": a.target, "bonus": p.ambush_first_roll_bonus}, source="ambush",
        )  # fmt: skip


def _hide(ctx: ActionContext, sneaker: str, unnoticed_by: list[str]) -> None:
    ch = ctx.character(sneaker)
    old = ch.condition("hidden")
    before = list(old.data.get("unnoticed_by", [])) if old else []
    add_condition(
        ctx, sneaker, "hidden", ("S-STEALTH-02",),
        data={"unnoticed_by": list(dict.fromkeys([*before, *unnoticed_by]))}, source="stealth",
    )  # fmt: skip
