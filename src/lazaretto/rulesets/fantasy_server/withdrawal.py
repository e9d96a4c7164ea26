"""Withdrawal (Ломка): checklist-002 §2.19, S-ADD-12..16.

At the end of every game day an addicted character who drank fewer potions than their
stage needs gets −1 on all rolls, down to −6; there a WIL 22 check decides between
improvement and the grave condition, in which a hard END check each day decides between
life and death (A-S-26).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.fantasy_server.addiction import (
    DAY_END,
    STAGE_RULES,
    day_key,
    need,
    schedule_day_end,
)
from lazaretto.rulesets.fantasy_server.checks import roll_check
from lazaretto.rulesets.fantasy_server.common import (
    MASTERS,
    add_condition,
    fstate,
    params,
    refuse,
    remove_condition,
    require_alive,
)
from lazaretto.rulesets.fantasy_server.general import die


def register(rs: Ruleset) -> None:
    """Declare the withdrawal timer and actions."""

    @rs.on_timer(DAY_END)
    def day_end(ctx: ActionContext, t: Timer) -> None:
        p = params(ctx)
        ch = ctx.character(t.subject)
        rec = fstate(ctx).addiction(ch.id)
        if not ch.alive or rec.stage == "none":
            return
        day = t.payload["day"]
        drunk = rec.potions_by_day.get(day, 0)
        needed = need(p, rec.stage)
        changes: dict[str, Any] = {}
        rules = [STAGE_RULES[rec.stage], "A-S-26"]
        if drunk < needed and rec.withdrawal_state in ("none", "growing"):
            penalty = max(p.withdrawal_check_at, rec.withdrawal + p.withdrawal_step)
            changes = {"withdrawal": penalty, "withdrawal_state": "growing"}
            rules += ["S-ADD-12", "S-ADD-13"]
            if penalty <= p.withdrawal_check_at:
                changes["withdrawal_state"] = "check_due"
                rules.append("S-ADD-14")
        ctx.emit(
            "addiction.day_evaluated",
            {
                "character": ch.id,
                "day": day,
                "drunk": drunk,
                "needed": needed,
                "withdrawal": changes.get("withdrawal", rec.withdrawal),
                "state": changes.get("withdrawal_state", rec.withdrawal_state),
                "set": changes,
            },
            tuple(rules),
        )
        schedule_day_end(ctx, ch.id)

    class WithdrawalCheck(BaseModel):
        character: str = Field(description="who is in withdrawal at the limit")
        roll: int | None = Field(None, description="a die rolled elsewhere (masters)")

    @rs.action(
        "withdrawal-check",
        WithdrawalCheck,
        summary=(
            "The WIL 22 check at the withdrawal limit",
            "Проверка WIL 22 на пределе ломки",
        ),
        rule_ids=("S-ADD-14", "S-ADD-15"),
    )
    def withdrawal_check(ctx: ActionContext, a: WithdrawalCheck) -> None:
        p = params(ctx)
        ch = ctx.character(a.character)
        require_alive(ch)
        rec = fstate(ctx).addiction(ch.id)
        if rec.withdrawal_state != "check_due":
            refuse(
                f"{ch.name}'s withdrawal has not reached {p.withdrawal_check_at}",
                f"Ломка {ch.name} не достигла {p.withdrawal_check_at}",
                "S-ADD-14",
            )
        check = roll_check(
            ctx, ch.id, "WIL", "withdrawal", threshold=p.withdrawal_will_threshold,
            natural=a.roll, rule_ids=("S-ADD-14",),
        )  # fmt: skip
        state = "improving" if check.success else "grave"
        ctx.emit(
            "addiction.withdrawal_checked",
            {"character": ch.id, "roll": check.short(), "state": state,
             "set": {"withdrawal_state": state}},
            ("S-ADD-14", "S-ADD-15") if check.success else ("S-ADD-14", "S-ADD-16"),
        )  # fmt: skip
        if not check.success:
            add_condition(ctx, ch.id, "grave_condition", ("S-ADD-14", "S-ADD-16"))

    class GraveCheck(BaseModel):
        character: str = Field(description="who is in the grave condition")
        roll: int | None = Field(None, description="a die rolled elsewhere (masters)")

    @rs.action(
        "grave-check",
        GraveCheck,
        summary=(
            "The hard END check of the grave condition (failure: death)",
            "Тяжёлая проверка END в тяжёлом состоянии (провал — смерть)",
        ),
        rule_ids=("S-ADD-16",),
    )
    def grave_check(ctx: ActionContext, a: GraveCheck) -> None:
        p = params(ctx)
        ch = ctx.character(a.character)
        require_alive(ch)
        rec = fstate(ctx).addiction(ch.id)
        if rec.withdrawal_state != "grave":
            refuse(
                f"{ch.name} is not in the grave condition",
                f"{ch.name} не в тяжёлом состоянии",
                "S-ADD-16",
            )
        day = day_key(ctx)
        once = p.grave_condition_check == "once_hard_END"
        if rec.last_grave_check is not None and (once or rec.last_grave_check == day):
            refuse(
                "The grave condition's END check was already made" + ("" if once else " today"),
                "Проверка END тяжёлого состояния уже сделана" + ("" if once else " сегодня"),
                "S-ADD-16",
                "A-S-26",
            )
        check = roll_check(
            ctx, ch.id, "END", "grave_condition", threshold=p.grave_condition_threshold,
            natural=a.roll, rule_ids=("S-ADD-16",),
        )  # fmt: skip
        ctx.emit(
            "addiction.grave_checked",
            {"character": ch.id, "roll": check.short(), "survived": bool(check.success),
             "set": {"last_grave_check": day}},
            ("S-ADD-16", "A-S-26"),
        )  # fmt: skip
        if not check.success:
            die(ctx, ch.id, "grave condition", ("S-ADD-16",))

    class EndGrave(BaseModel):
        character: str = Field(description="who recovers from the grave condition")

    @rs.action(
        "end-grave-condition",
        EndGrave,
        roles=MASTERS,
        summary=("A GM ends the grave condition", "GM завершает тяжёлое состояние"),
        rule_ids=("S-ADD-16", "A-S-26"),
    )
    def end_grave(ctx: ActionContext, a: EndGrave) -> None:
        ch = ctx.character(a.character)
        if fstate(ctx).addiction(ch.id).withdrawal_state != "grave":
            refuse(
                f"{ch.name} is not in the grave condition",
                f"{ch.name} не в тяжёлом состоянии",
                "S-ADD-16",
            )
        ctx.emit(
            "addiction.withdrawal_checked",
            {"character": ch.id, "roll": "-", "state": "improving",
             "set": {"withdrawal_state": "improving"}},
            ("S-ADD-16", "A-S-26"),
        )  # fmt: skip
        remove_condition(ctx, ch.id, "grave_condition", ("S-ADD-16",))
