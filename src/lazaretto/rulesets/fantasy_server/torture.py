"""Torture (Пытки): checklist-002 §2.14.

Up to four opposed rounds (STR or DET against WIL or DET); the victim's bonus grows +3
a round; a won round buys one question; afterwards the victim cannot be tortured again
that day (S-TORT, A-S-20).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.fantasy_server.checks import contest, roll_check
from lazaretto.rulesets.fantasy_server.common import (
    add_condition,
    fstate,
    next_midnight,
    params,
    refuse,
    require_alive,
)
from lazaretto.rulesets.fantasy_server.params import FantasyParams


def register(rs: Ruleset) -> None:
    """Declare the torture actions."""

    class TortureRound(BaseModel):
        actor: str = Field(description="the torturer")
        victim: str = Field(description="the tortured character")
        method: Literal["physical", "psychological"] = Field(
            description="physical (STR) or psychological (DET)"
        )
        victim_stat: Literal["WIL", "DET"] = Field("WIL", description="the victim's WIL or DET")
        question: str = Field("", max_length=300, description="the question, if the round is won")
        actor_roll: int | None = Field(None, description="the torturer's die (masters)")
        victim_roll: int | None = Field(None, description="the victim's die (masters)")

    @rs.action(
        "torture-round",
        TortureRound,
        summary=("Run one round of torture", "Провести раунд пыток"),
        rule_ids=("S-TORT-01", "S-TORT-02", "S-TORT-03", "S-TORT-04", "S-TORT-05", "S-TORT-06"),
    )
    def torture_round(ctx: ActionContext, a: TortureRound) -> None:
        p = params(ctx)
        st = fstate(ctx)
        torturer, victim = ctx.character(a.actor), ctx.character(a.victim)
        require_alive(torturer)
        require_alive(victim)
        lock = victim.condition("torture_lockout")
        if lock is not None:
            refuse(
                f"{victim.name} was already tortured today; again from "
                f"{lock.deadline:%Y-%m-%d %H:%M}",
                f"{victim.name} уже пытали сегодня; снова можно с {lock.deadline:%Y-%m-%d %H:%M}",
                "S-TORT-06",
                "A-S-20",
            )
        session = st.tortures.get(victim.id)
        n = (session.rounds if session else 0) + 1
        bonus = resistance_bonus(n, p)
        stat = "STR" if a.method == "physical" else "DET"
        t = roll_check(
            ctx, torturer.id, stat, "torture", natural=a.actor_roll, rule_ids=("S-TORT-01",)
        )
        v = roll_check(
            ctx, victim.id, a.victim_stat, "torture_resist", natural=a.victim_roll,
            modifiers={"torture_resistance": bonus} if bonus else None, rule_ids=("S-TORT-01",),
        )  # fmt: skip
        side, crit_rules = contest(t, v, p)
        won = side == "active"
        payload: dict[str, Any] = {
            "actor": torturer.id,
            "victim": victim.id,
            "victim_name": victim.name,
            "round": n,
            "method": a.method,
            "torturer_total": t.short(),
            "victim_total": v.short(),
            "victim_bonus": bonus,
            "question_allowed": won,
            "question": a.question if won else "",
        }
        rules = ["S-TORT-01", "S-TORT-02" if won else "S-TORT-03", *crit_rules, "A-S-14", "A-S-20"]
        if n > 1:
            rules.append("S-TORT-04")
        ctx.emit("torture.round_resolved", payload, tuple(rules))
        if n >= p.torture_max_rounds:
            end_torture(ctx, victim.id, ("S-TORT-05", "S-TORT-06"))

    class StopTorture(BaseModel):
        victim: str = Field(description="the tortured character")

    @rs.action(
        "stop-torture",
        StopTorture,
        summary=("End a torture early", "Прекратить пытку досрочно"),
        rule_ids=("S-TORT-06",),
    )
    def stop_torture(ctx: ActionContext, a: StopTorture) -> None:
        if a.victim not in fstate(ctx).tortures:
            refuse(f"{a.victim} is not being tortured", f"{a.victim} не пытают", "S-TORT-06")
        end_torture(ctx, a.victim, ("S-TORT-06",))


def resistance_bonus(round_number: int, p: FantasyParams) -> int:
    """The victim's bonus in round ``round_number`` (from 1): +0, +3, +6, +9 (S-TORT-04)."""
    return p.torture_bonus_step * (round_number - 1)


def end_torture(ctx: ActionContext, victim: str, rule_ids: tuple[str, ...]) -> None:
    """The torture ends; no more torture of ``victim`` today (S-TORT-06, A-S-20)."""
    p = params(ctx)
    until = (
        next_midnight(ctx.now)
        if p.torture_cooldown == "next_day"
        else ctx.now + timedelta(hours=24)
    )
    rounds = fstate(ctx).tortures[victim].rounds
    ctx.emit(
        "torture.ended", {"victim": victim, "rounds": rounds, "until": until.isoformat()}, rule_ids
    )
    add_condition(ctx, victim, "torture_lockout", (*rule_ids, "A-S-20"), deadline=until)
