"""Alchemical addiction and withdrawal (Алхимическая зависимость; Ломка): §2.19.

Only HP restored by healing potions counts (A-S-26). Max HP of it makes stage 1; half of
max HP more during stage 1 makes stage 2; any potion drunk in stage 2 makes the heavy
addiction, in which potions heal nothing (S-ADD-03..10). At the end of every game day
an addicted character who drank fewer potions than the stage needs gets −1 on all rolls,
down to −6, where a WIL 22 check decides between improvement and the grave condition,
in which a daily hard END check failed means death (S-ADD-12..16). Treatment courses
remove the addiction (S-ADD-05/08/11).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext, QueryContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.fantasy_server.common import (
    MASTERS,
    STAFF,
    add_condition,
    flag,
    fstate,
    iso,
    next_midnight,
    params,
    refuse,
    remove_condition,
    require_alive,
)
from lazaretto.rulesets.fantasy_server.mutations import magical_heal, require_magic_ok
from lazaretto.rulesets.fantasy_server.params import FantasyParams
from lazaretto.rulesets.fantasy_server.state import Addiction

DAY_END = "addiction_day_end"
COURSE_END = "addiction_course_end"
BAN_END = "addiction_ban_end"
STAGE_RULES = {"stage1": "S-ADD-04", "stage2": "S-ADD-07", "heavy": "S-ADD-10"}
COURSE_RULES = {"stage1": "S-ADD-05", "stage2": "S-ADD-08", "heavy": "S-ADD-11"}
BEHAVIOUR = {
    "stage1": (
        "uses healing potions in every fight; needs at least {n} a day",
        "пьёт зелья лечения в любом бою; нужно хотя бы {n} в день",
    ),
    "stage2": (
        "uses healing potions even outside combat; needs {n} a day",
        "пьёт зелья лечения даже вне боя; нужно {n} в день",
    ),
    "heavy": (
        "seeks any excuse for a healing potion; needs more than {m} a day; potions no longer heal",
        "ищет любой повод выпить зелье; нужно больше {m} в день; зелья не лечат",
    ),
}


def need(p: FantasyParams, stage: str) -> int:
    """Potions a day the stage needs (S-ADD-04/07/10)."""
    return int(getattr(p.addiction_daily_potions, stage))


def behaviour(p: FantasyParams, stage: str, lang: str) -> str:
    """What the stage makes the character do, for the card."""
    if stage not in BEHAVIOUR:
        return ""
    en, ru = BEHAVIOUR[stage]
    n = need(p, stage)
    return (ru if lang == "ru" else en).format(n=n, m=n - 1)


def day_key(ctx: ActionContext) -> str:
    """The game day a potion is counted on."""
    return ctx.now.date().isoformat()


def register(rs: Ruleset) -> None:
    """Declare the addiction actions, timers and queries."""

    class DrinkPotion(BaseModel):
        character: str = Field(description="who drinks")
        heals: int = Field(ge=0, le=1000, description="HP the potion restores")
        given_by: str | None = Field(None, description="who gives it (none: self-healing)")
        healer_roll: int | None = Field(None, description="the giver's MAG die (masters)")
        patient_roll: int | None = Field(None, description="the drinker's WIL die (masters)")
        mutation_roll: int | None = Field(None, description="the mutation d6 (masters)")

    @rs.action(
        "drink-potion",
        DrinkPotion,
        summary=(
            "Drink a healing potion (addiction, mutations)",
            "Выпить зелье лечения (зависимость, мутации)",
        ),
        rule_ids=("S-HEAL-07", "S-ADD-01", "S-ADD-03", "S-ADD-06", "S-ADD-09", "S-ADD-10"),
    )
    def drink_potion(ctx: ActionContext, a: DrinkPotion) -> None:
        p = params(ctx)
        st = fstate(ctx)
        ch = ctx.character(a.character)
        require_alive(ch)
        require_magic_ok(ch.id, ch.name, flag(ch, "reduced_magic"), flag(ch, "is_construct"))
        rec = st.addiction(ch.id)
        before = rec.stage
        if rec.course_until is not None:
            ctx.cancel_all(ch.id, COURSE_END, rule_ids=(COURSE_RULES.get(before, "S-ADD-05"),))
            ctx.emit(
                "addiction.treatment_interrupted",
                {"character": ch.id, "set": {"course_until": None, "spiritual_sessions": 0}},
                (COURSE_RULES.get(before, "S-ADD-05"),),
            )
        if rec.ban_until is not None:
            ctx.emit(
                "addiction.ban_broken",
                {"character": ch.id, "until": iso(rec.ban_until)},
                ("S-ADD-11",),
            )
        amount = 0 if before == "heavy" else a.heals  # S-ADD-10: potions stop working
        rules = ["S-HEAL-07", "S-ADD-01"] + (["S-ADD-02", "S-ADD-10"] if before == "heavy" else [])
        out = magical_heal(
            ctx, ch.id, a.given_by, amount, "potion", tuple(rules),
            healer_roll=a.healer_roll, patient_roll=a.patient_roll,
            mutation_roll=a.mutation_roll, counts=p.mutation_counts_potions,
        )  # fmt: skip
        restored = out["restored"]
        day = day_key(ctx)
        changes: dict[str, Any] = {
            "potions_by_day": {**rec.potions_by_day, day: rec.potions_by_day.get(day, 0) + 1},
            "potion_hp": rec.potion_hp + restored,
        }
        stage, why = before, ""
        if before == "none" and changes["potion_hp"] >= p.addiction_stage1_ratio * ch.hits_max:
            stage, why = "stage1", "S-ADD-03"
        elif before == "stage1":
            changes["stage1_hp"] = rec.stage1_hp + restored
            if changes["stage1_hp"] >= p.addiction_stage2_ratio * ch.hits_max:
                stage, why = "stage2", "S-ADD-06"
        elif before == "stage2" and p.addiction_heavy_trigger == "any_potion_in_stage2":
            stage, why = "heavy", "S-ADD-09"
        ctx.emit(
            "addiction.potion_counted",
            {
                "character": ch.id,
                "restored": restored,
                "potion_hp": changes["potion_hp"],
                "today": changes["potions_by_day"][day],
                "set": changes,
            },
            ("S-ADD-03", "A-S-26"),
        )
        if stage != before:
            _reach(ctx, ch.id, stage, why)

    class Escalate(BaseModel):
        character: str = Field(description="who")

    @rs.action(
        "escalate-addiction",
        Escalate,
        roles=MASTERS,
        summary=("A GM declares the heavy addiction", "GM объявляет тяжёлую зависимость"),
        rule_ids=("S-ADD-09",),
    )
    def escalate(ctx: ActionContext, a: Escalate) -> None:
        rec = fstate(ctx).addiction(a.character)
        if rec.stage != "stage2":
            refuse(
                "Only a stage-2 addiction becomes heavy",
                "Тяжёлой становится только зависимость второй стадии",
                "S-ADD-09",
            )
        _reach(ctx, a.character, "heavy", "S-ADD-09")

    class StartCourse(BaseModel):
        character: str = Field(description="the addicted character")
        healer: str | None = Field(None, description="who leads the treatment")

    @rs.action(
        "start-addiction-treatment",
        StartCourse,
        roles=STAFF,
        summary=(
            "Start the addiction treatment course (isolation, no potions)",
            "Начать курс лечения зависимости (изоляция, запрет зелий)",
        ),
        rule_ids=("S-ADD-05", "S-ADD-08", "S-ADD-11"),
    )
    def start_course(ctx: ActionContext, a: StartCourse) -> None:
        p = params(ctx)
        ch = ctx.character(a.character)
        require_alive(ch)
        rec = fstate(ctx).addiction(ch.id)
        if rec.stage == "none":
            refuse(f"{ch.name} is not addicted", f"У {ch.name} нет зависимости", "S-ADD-03")
        if rec.course_until is not None:
            refuse(
                f"{ch.name} is already in treatment",
                f"{ch.name} уже лечится",
                COURSE_RULES[rec.stage],
            )
        days = int(getattr(p.addiction_treatment_days, rec.stage))
        until = ctx.now + timedelta(days=days)
        ctx.emit(
            "addiction.treatment_started",
            {"character": ch.id, "stage": rec.stage, "days": days, "until": until.isoformat(),
             "spiritual_needed": rec.stage != "stage1",
             "set": {"course_until": until.isoformat(), "spiritual_sessions": 0}},
            (COURSE_RULES[rec.stage], "A-S-26"),
        )  # fmt: skip
        ctx.schedule(COURSE_END, timedelta(days=days), ch.id, {}, (COURSE_RULES[rec.stage],))

    @rs.on_timer(COURSE_END)
    def course_end(ctx: ActionContext, t: Timer) -> None:
        p = params(ctx)
        ch = ctx.character(t.subject)
        rec = fstate(ctx).addiction(ch.id)
        if not ch.alive or rec.stage == "none":
            return
        rule = COURSE_RULES[rec.stage]
        if rec.stage != "stage1" and rec.spiritual_sessions < 1:
            ctx.emit(
                "addiction.treatment_interrupted",
                {"character": ch.id, "reason": "no spiritual healing",
                 "set": {"course_until": None, "spiritual_sessions": 0}},
                (rule, "S-HEAL-09"),
            )  # fmt: skip
            return
        ban = None
        if rec.stage == "heavy" and p.addiction_heavy_ban_days_after:
            ban = ctx.now + timedelta(days=p.addiction_heavy_ban_days_after)
        ctx.cancel_all(ch.id, DAY_END, rule_ids=(rule,))
        fresh = Addiction(ban_until=ban).model_dump(mode="json")
        ctx.emit(
            "addiction.cured",
            {"character": ch.id, "stage": rec.stage, "set": fresh},
            (rule, "A-S-26"),
        )
        if ch.has("addiction"):
            remove_condition(ctx, ch.id, "addiction", (rule,))
        if ban is not None:
            ctx.schedule(BAN_END, ban - ctx.now, ch.id, {}, ("S-ADD-11",))

    @rs.on_timer(BAN_END)
    def ban_end(ctx: ActionContext, t: Timer) -> None:
        ctx.emit(
            "addiction.ban_ended",
            {"character": t.subject, "set": {"ban_until": None}},
            ("S-ADD-11",),
        )

    class AddictionStatus(BaseModel):
        character: str = Field(description="who")

    @rs.query(
        "addiction-status",
        AddictionStatus,
        summary=("A character's addiction and withdrawal", "Зависимость и ломка персонажа"),
        rule_ids=("S-ADD-03", "S-ADD-06", "S-ADD-13", "S-ADD-14"),
    )
    def addiction_status(ctx: QueryContext, a: AddictionStatus) -> dict[str, Any]:
        p = params(ctx)
        ch = ctx.character(a.character)
        rec = fstate(ctx).addiction(ch.id)
        first = p.addiction_stage1_ratio * ch.hits_max
        second = p.addiction_stage2_ratio * ch.hits_max
        stage = ctx.ruleset.text(f"stage:{rec.stage}", ctx.lang) or rec.stage
        withdrawal = ctx.ruleset.text(f"withdrawal_state:{rec.withdrawal_state}", ctx.lang)
        withdrawal = withdrawal or rec.withdrawal_state
        nxt = ""
        if rec.stage == "none":
            nxt = f"stage 1 at {first:g} potion HP ({rec.potion_hp} so far)"
        elif rec.stage == "stage1":
            nxt = f"stage 2 at {second:g} more ({rec.stage1_hp} so far)"
        return {
            "summary": ctx.tr(
                f"{ch.name}: {stage}, withdrawal {rec.withdrawal} ({withdrawal})"
                + (f"; {nxt}" if nxt else ""),
                f"{ch.name}: зависимость — {stage}, ломка {rec.withdrawal} ({withdrawal})",
            ),
            "stage": rec.stage,
            "behaviour": behaviour(p, rec.stage, ctx.lang),
            "withdrawal": rec.withdrawal,
            "withdrawal_state": rec.withdrawal_state,
            "potion_hp": rec.potion_hp,
            "stage1_hp": rec.stage1_hp,
            "course_until": iso(rec.course_until),
            "ban_until": iso(rec.ban_until),
        }


def count_spiritual(ctx: ActionContext, char_id: str) -> None:
    """Spiritual healing during a course counts toward it (S-ADD-08, S-ADD-11)."""
    rec = fstate(ctx).addiction(char_id)
    if rec.course_until is not None:
        ctx.emit(
            "addiction.spiritual_counted",
            {"character": char_id, "set": {"spiritual_sessions": rec.spiritual_sessions + 1}},
            ("S-ADD-08", "S-HEAL-09"),
        )


def _reach(ctx: ActionContext, char_id: str, stage: str, why: str) -> None:
    p = params(ctx)
    changes: dict[str, Any] = {"stage": stage}
    if stage == "stage1":
        changes["stage1_hp"] = 0
    ctx.emit(
        "addiction.stage_reached",
        {
            "character": char_id,
            "stage": stage,
            "needed": need(p, stage),
            "behaviour": behaviour(p, stage, "en"),
            "set": changes,
        },
        (why, STAGE_RULES[stage], "A-S-26"),
    )
    add_condition(
        ctx, char_id, "addiction", (why,), data={"stage": stage}, source="healing potions"
    )
    if not ctx.state.timers_for(char_id, DAY_END):
        schedule_day_end(ctx, char_id)


def schedule_day_end(ctx: ActionContext, char_id: str) -> None:
    """The next end of a game day for the addiction's daily needs (S-ADD-12/13)."""
    end = next_midnight(ctx.now)
    ctx.schedule(
        DAY_END, end - ctx.now, char_id, {"day": ctx.now.date().isoformat()}, ("S-ADD-13",)
    )
