"""Lockpicking (Взлом): checklist-002 §2.11.

Lockpicks are a REF roll against 24; force is STR against 30 bare-handed or 25 with a
tool or weapon, and needs the GM's permission; firearms, explosives and acid open a door
without a roll but not a reinforced one. A GM may set a door's own thresholds.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext, QueryContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.fantasy_server import breakage
from lazaretto.rulesets.fantasy_server.checks import (
    p_success,
    roll_check,
)
from lazaretto.rulesets.fantasy_server.common import (
    MASTERS,
    fstate,
    get_item,
    params,
    refuse,
    require_alive,
)
from lazaretto.rulesets.fantasy_server.equipment import effective_stat
from lazaretto.rulesets.fantasy_server.params import FantasyParams
from lazaretto.rulesets.fantasy_server.state import Door

LockMethod = Literal[
    "lockpicks", "strength_unarmed", "strength_tool", "firearm", "explosives", "acid"
]
NO_ROLL = ("firearm", "explosives", "acid")
LOCK_STAT = {"lockpicks": "REF", "strength_unarmed": "STR", "strength_tool": "STR"}
LOCK_RULE = {
    "lockpicks": "S-CRIME-27",
    "strength_unarmed": "S-CRIME-28",
    "strength_tool": "S-CRIME-29",
}


def opens_without_roll(method: str, reinforced: bool) -> bool:
    """Firearms, explosives and acid open a door without a roll, but not a reinforced
    one (S-CRIME-30)."""
    return method in NO_ROLL and not reinforced


def lock_threshold(p: FantasyParams, method: str, door: Door | None) -> int:
    """A door's threshold for a rolled method: the door's own or the default (S-CRIME-26..29)."""
    own = {
        "lockpicks": door.lockpicks if door else None,
        "strength_unarmed": door.str_unarmed if door else None,
        "strength_tool": door.str_tool if door else None,
    }[method]
    if own is not None:
        return own
    return {
        "lockpicks": p.lock_threshold_ref_lockpicks,
        "strength_unarmed": p.lock_threshold_str_unarmed,
        "strength_tool": p.lock_threshold_str_tool,
    }[method]


def register(rs: Ruleset) -> None:
    """Declare the door and lockpicking actions and the odds query."""

    class RegisterDoor(BaseModel):
        door: str = Field(min_length=1, max_length=40, description="door id")
        reinforced: bool = Field(False, description="a reinforced door (S-CRIME-30)")
        lockpicks: int | None = Field(None, ge=1, le=100, description="own REF threshold")
        str_unarmed: int | None = Field(None, ge=1, le=100, description="own STR threshold")
        str_tool: int | None = Field(None, ge=1, le=100, description="own STR (tool) threshold")

    @rs.action(
        "register-door",
        RegisterDoor,
        roles=MASTERS,
        summary=("Register a door with its thresholds", "Зарегистрировать дверь и её пороги"),
        rule_ids=("S-CRIME-26",),
    )
    def register_door(ctx: ActionContext, a: RegisterDoor) -> None:
        if a.door in fstate(ctx).doors:
            refuse(f"Door {a.door!r} exists", f"Дверь {a.door!r} уже есть", "S-CRIME-26")
        door = Door(
            id=a.door,
            reinforced=a.reinforced,
            lockpicks=a.lockpicks,
            str_unarmed=a.str_unarmed,
            str_tool=a.str_tool,
        )
        ctx.emit("door.registered", {"door": door.model_dump(mode="json")}, ("S-CRIME-26",))

    class PickLock(BaseModel):
        actor: str = Field(description="who breaks in")
        method: LockMethod = Field(
            "lockpicks",
            description="lockpicks, strength_unarmed, strength_tool, firearm, explosives, acid",
        )
        door: str | None = Field(None, description="a registered door")
        reinforced: bool = Field(False, description="a reinforced door (when not registered)")
        gm_permission: bool = Field(
            False, description="the GM permitted and was notified (needed beyond lockpicks)"
        )
        tool: str | None = Field(None, description="the lockpick kit or tool item (it wears)")
        roll: int | None = Field(None, description="a die rolled elsewhere (masters)")
        reroll: bool = Field(False, description="a repeated attempt (reroll rule)")

    @rs.action(
        "pick-lock",
        PickLock,
        summary=("Break a door or lock open", "Взломать дверь или замок"),
        rule_ids=("S-CRIME-25", "S-CRIME-27", "S-CRIME-28", "S-CRIME-29", "S-CRIME-30"),
    )
    def pick_lock(ctx: ActionContext, a: PickLock) -> None:
        p = params(ctx)
        who = ctx.character(a.actor)
        require_alive(who)
        door = None
        if a.door:
            door = fstate(ctx).doors.get(a.door)
            if door is None:
                refuse(f"No door {a.door!r}", f"Нет двери {a.door!r}", "S-CRIME-26")
            if door.open:
                refuse(
                    f"Door {a.door} is already open", f"Дверь {a.door} уже открыта", "S-CRIME-25"
                )
        reinforced = door.reinforced if door else a.reinforced
        if a.method != "lockpicks" and not a.gm_permission:
            refuse(
                "Breaking a door open without lockpicks needs the GM's permission and notice",
                "Взлом без отмычек — только с разрешения и уведомления GM",
                "S-CRIME-25",
                tip="Ask the GM, then pass --gm-permission.",
                tip_ru="Спросите GM и укажите --gm-permission.",
            )
        base = {"actor": who.id, "door": a.door, "method": a.method, "reinforced": reinforced}
        if a.method in NO_ROLL:
            if reinforced:
                refuse(
                    f"A {a.method} does not work against a reinforced door",
                    f"{a.method}: не работает против укреплённой двери",
                    "S-CRIME-30",
                )
            ctx.emit(
                "lock.attempted",
                {**base, "opened": True, "roll": "no roll, resources spent"},
                ("S-CRIME-25", "S-CRIME-30"),
            )
            return
        rule = LOCK_RULE[a.method]
        threshold = lock_threshold(p, a.method, door)
        tool = get_item(ctx, a.tool) if a.tool else None
        check = roll_check(
            ctx, who.id, LOCK_STAT[a.method], "lockpick", threshold=threshold, natural=a.roll,
            reroll=a.reroll, rule_ids=(rule,),
        )  # fmt: skip
        own = door is not None and threshold != lock_threshold(p, a.method, None)
        ctx.emit(
            "lock.attempted",
            {**base, "opened": bool(check.success), "threshold": threshold, "roll": check.short()},
            (rule, "S-CRIME-26") if own else (rule,),
        )
        if tool is not None and check.crit == "failure":
            breakage.log_crit(ctx, tool)  # S-BRK-09: a tool wears on a critical failure

    class LockOdds(BaseModel):
        actor: str = Field(description="who breaks in")
        method: LockMethod = Field("lockpicks", description="the method")
        door: str | None = Field(None, description="a registered door")

    @rs.query(
        "lock-odds",
        LockOdds,
        summary=("The odds of breaking a door open", "Шансы взлома"),
        rule_ids=("S-CRIME-26", "S-CRIME-27", "S-CRIME-28", "S-CRIME-29", "S-CRIME-30"),
    )
    def lock_odds(ctx: QueryContext, a: LockOdds) -> dict[str, Any]:
        p = params(ctx)
        st = fstate(ctx)
        who = ctx.character(a.actor)
        door = st.doors.get(a.door) if a.door else None
        if a.method in NO_ROLL:
            ok = opens_without_roll(a.method, bool(door and door.reinforced))
            en = "opens" if ok else "does not work on a reinforced door"
            ru = "открывает" if ok else "не работает на укреплённой двери"
            return {
                "summary": ctx.tr(f"{a.method}: no roll; {en}", f"{a.method}: без броска; {ru}"),
                "success": "1" if ok else "0",
            }
        threshold = lock_threshold(p, a.method, door)
        stat_name = LOCK_STAT[a.method]
        add = effective_stat(st, who, stat_name, "rp", p) + st.addiction(who.id).withdrawal
        chance = p_success(add, threshold, p)
        return {
            "summary": ctx.tr(
                f"{who.name}: {stat_name} {add:+} vs {threshold}: {float(chance):.1%}",
                f"{who.name}: {stat_name} {add:+} против {threshold}: {float(chance):.1%}",
            ),
            "success": str(chance),
            "threshold": threshold,
        }
