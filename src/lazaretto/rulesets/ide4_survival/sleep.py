"""Camp and sleep (лагерь и сон), checklist-004 §2.6.

The player rolls 3d10 and picks one die as the planned hours (I-SLEEP-02); the GM sets
the camp, normal or bad (I-SLEEP-03). An interrupted night rolls 2d10: the highest die
is the hours slept, never more than planned (I-SLEEP-04), and costs 2 calm points
(I-CALM-11). When the sleep ends: under 6 h or a bad camp gives "sleep-deprived", 8 h
in a normal camp removes it (I-COND-07, A-I-10); a normal camp ends "tired", a normal
camp with 6 h ends "very tired"; 8 h restores calm to 3 (I-CALM-16). There is no sleep
table in rules/004 (I-SLEEP-05, A-I-12): only these explicit rules are applied.

Experience gathered during the day burns if the character is not in bed by noon of
the next day (I-SLEEP-06); when the GM woke them for plot reasons ("Lady Luck") it is
counted by the planned sleep, not the sleep they got (I-SLEEP-07).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.ide4_survival.calm import CalmEvent, change_calm
from lazaretto.rulesets.ide4_survival.common import (
    EVERYONE,
    MASTERS,
    gain,
    lose,
    params,
    party,
    refuse,
    ru,
    state,
    sv,
    update,
)
from lazaretto.rulesets.ide4_survival.d100 import deprivation_cut
from lazaretto.rulesets.ide4_survival.params import IdeParams
from lazaretto.rulesets.ide4_survival.state import LastSleep, MarchDay, survivor_events

WAKE = "sleep_ends"
XP_BURN = "xp_burns"
Camp = Literal["normal", "bad", "none"]
Pick = Literal["highest", "lowest"]
survivor_events(
    "camp.made",
    "sleep.planned",
    "sleep.started",
    "sleep.interrupted",
    "sleep.finished",
    "xp.gained",
    "xp.burned",
)


def effective_camp(ctx: ActionContext, char_id: str, camp: str) -> tuple[str, list[str]]:
    """The camp the sleep counts as, and why it is worse than set."""
    p = params(ctx)
    s = sv(ctx, char_id)
    why: list[str] = []
    if camp != "normal":
        why.append(f"camp {camp}")
    today = s.marches[-1] if s.marches and s.marches[-1].day == state(ctx).day else None
    if p.forced_march_worsens_sleep and today is not None and today.pace == "forced":
        why.append("forced march (I-TRAVEL-17)")
    sick = [
        c
        for c in state(ctx).cases.values()
        if c.character == char_id and c.status == "sick" and c.stage >= 1
    ]
    if p.sick_sleep_is_bad and sick:
        why.append("sick (I-DIS-06)")
    return ("normal" if not why else "bad"), why


@dataclass(frozen=True)
class SleepEffects:
    """What a night does when it ends (pure rules, used by the sleep and by the odds).

    Attributes:
        deprived: gives "sleep-deprived" (I-COND-07, A-I-10).
        rested: 8 h in a normal camp, which removes it (I-COND-07, I-SLEEP-09).
        tired_cured: a normal camp ends "tired" (I-COND-05, I-SLEEP-10).
        very_tired_cured: a normal camp and 6 h end "very tired" (I-COND-06).
        calm_restored: 8 h restore calm to the maximum (I-CALM-16).
    """

    deprived: bool
    rested: bool
    tired_cured: bool
    very_tired_cured: bool
    calm_restored: bool


def sleep_effects(hours: int, camp: str, p: IdeParams) -> SleepEffects:
    """The effects of ``hours`` slept in a ``normal`` or ``bad`` camp."""
    rested = hours >= p.sleep_deprived_remove_hours and camp == "normal"
    if p.sleep_deprived_rule == "table":
        deprived = hours < p.sleep_deprived_below_hours or camp == "bad"
    else:
        deprived = not rested
    return SleepEffects(
        deprived=deprived,
        rested=rested,
        tired_cured=camp == "normal" and hours >= 1,
        very_tired_cured=camp == "normal" and hours >= p.very_tired_cure_sleep_hours,
        calm_restored=hours >= p.calm_sleep_restore_min_hours,
    )


def spoiled_by_interruption(interrupted: bool, p: IdeParams) -> bool:
    """Whether the night counts as a bad camp because it was interrupted (A-I-11)."""
    return interrupted and p.interrupted_sleep_is_bad_camp


def pick_hours(options: Sequence[int], pick: Pick) -> int:
    """The planned hours when the party picks by rule: the highest or lowest die (I-SLEEP-02)."""
    return max(options) if pick == "highest" else min(options)


def interrupted_hours(highest: int, planned: int) -> int:
    """The hours slept on an interrupted night: the highest die of its roll, never more
    than planned (I-SLEEP-04)."""
    return min(highest, planned)


def finish_sleep(ctx: ActionContext, char_id: str, hours: int, interrupted: bool) -> None:
    """The sleep of ``char_id`` ends having slept ``hours``: apply its effects."""
    p = params(ctx)
    s = sv(ctx, char_id)
    camp, worse = effective_camp(ctx, char_id, s.sleep_camp or "normal")
    if spoiled_by_interruption(interrupted, p):
        camp, worse = "bad", [*worse, "interrupted (A-I-11)"]
    planned = s.sleep_planned or hours
    xp_hours = planned if s.lady_luck else hours  # I-SLEEP-07
    effects = sleep_effects(hours, camp, p)
    deprived, normal8 = effects.deprived, effects.rested
    changes: dict[str, object] = {
        "asleep": False,
        "sleep_options": [],
        "sleep_started": None,
        "lady_luck": False,
        "slept_today": True,
        "last_woke": ctx.now,
        "camp": None,
        "last_sleep": LastSleep(
            hours=hours,
            planned=planned,
            camp=camp,
            interrupted=interrupted,
            ended=ctx.now,
            xp_hours=xp_hours,
        ),
        "deprived_days": s.deprived_days + 1 if deprived else (0 if normal8 else s.deprived_days),
        "sleep_log": [*s.sleep_log, hours][-14:],
    }
    update(
        ctx,
        "sleep.finished",
        char_id,
        changes,
        ("I-SLEEP-05", "I-SLEEP-08", "I-SLEEP-11"),
        hours=hours,
        planned=planned,
        camp=camp,
        worse=worse,
        interrupted=interrupted,
        xp_hours=xp_hours,
    )
    if deprived:
        gain(
            ctx,
            char_id,
            "sleep_deprived",
            (f"slept {hours} h, {camp} camp", f"сон {hours} ч, лагерь: {ru(camp)}"),
            ("I-COND-07", deprivation_cut(p)[1], "A-I-10"),
        )
    elif normal8:
        lose(
            ctx,
            char_id,
            "sleep_deprived",
            (f"slept {hours} h in a normal camp", f"сон {hours} ч в нормальном лагере"),
            ("I-COND-07", "I-SLEEP-09"),
        )
    if effects.tired_cured:
        lose(ctx, char_id, "tired", ("normal sleep", "нормальный сон"), ("I-COND-05", "I-SLEEP-10"))
    if effects.very_tired_cured:
        lose(
            ctx,
            char_id,
            "very_tired",
            (f"full camp and {hours} h of sleep", f"полный лагерь и сон {hours} ч"),
            ("I-COND-06", "A-I-30"),
        )
    if effects.calm_restored:
        change_calm(
            ctx,
            char_id,
            gain_points=p.calm_points_max,
            capped_gain=False,
            reason=(f"slept {hours} h", f"сон {hours} ч"),
            rule_ids=("I-CALM-16", "A-I-11"),
        )


def _camped(ctx: ActionContext, marches: list[MarchDay], camp: str) -> list[MarchDay]:
    """Today's march day with the night's camp (I-COND-06, I-TRAVEL-07)."""
    out = list(marches)
    if out and out[-1].day == state(ctx).day:
        out[-1] = MarchDay(day=out[-1].day, pace=out[-1].pace, camp=camp)
    return out


def roll_sleep(ctx: ActionContext, char_id: str, rolled: list[int] | None = None) -> None:
    """I-SLEEP-02: the 3d10 before sleep (rolled here, or as rolled at the table)."""
    if rolled:
        options = rolled
    else:
        result = ctx.roll(params(ctx).sleep_plan_dice)
        options = [v for die in result.dice for v in die.rolls]
    update(
        ctx, "sleep.planned", char_id, {"sleep_options": options}, ("I-SLEEP-02",), options=options
    )


def register(rs: Ruleset) -> None:
    """Declare camp, sleep, wake and experience actions."""

    class MakeCamp(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: everyone")
        camp: Camp = Field(description="normal, bad or none (the GM decides)")
        damp: bool = Field(False, description="damp or wet camp: bad sleep")
        weather: str = Field("", max_length=120)
        events: list[CalmEvent] = Field(default_factory=list, description="camp stress events")

    @rs.action(
        "make-camp",
        MakeCamp,
        roles=MASTERS,
        summary=(
            "Step 6: camp — weather, damp, stress → calm",
            "Шаг 6: лагерь — погода, сырость, стресс",
        ),
        rule_ids=("I-DAY-07", "I-SLEEP-03", "I-SLEEP-11"),
    )
    def make_camp(ctx: ActionContext, a: MakeCamp) -> None:
        camp = "bad" if a.damp and a.camp == "normal" else a.camp
        for ch in party(ctx, a.characters):
            s = sv(ctx, ch.id)
            marches = list(s.marches)
            if marches and marches[-1].day == state(ctx).day:
                marches[-1] = MarchDay(day=marches[-1].day, pace=marches[-1].pace, camp=camp)
            update(
                ctx,
                "camp.made",
                ch.id,
                {"camp": camp, "marches": marches},
                ("I-DAY-07", "I-SLEEP-03"),
                camp=camp,
                damp=a.damp,
                weather=f", {a.weather}" if a.weather else "",
            )
            if a.events:
                change_calm(
                    ctx,
                    ch.id,
                    losses=tuple(a.events),
                    reason=("camp", "лагерь"),
                    rule_ids=("I-DAY-07",),
                )
        ctx.emit("day.step_done", {"step": "camp"}, ("I-DAY-07",))

    class PlanSleep(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: everyone awake")
        rolled: list[int] = Field(
            default_factory=list, description="3d10 rolled at the table (one character)"
        )

    @rs.action(
        "plan-sleep",
        PlanSleep,
        roles=EVERYONE,
        summary=("Step 7: roll 3d10 for the hours of sleep", "Шаг 7: бросок 3d10 на часы сна"),
        rule_ids=("I-DAY-08", "I-SLEEP-02"),
    )
    def plan_sleep(ctx: ActionContext, a: PlanSleep) -> None:
        p = params(ctx)
        chars = party(ctx, a.characters)
        if a.rolled:
            _table_dice(a.rolled, p.sleep_plan_dice, len(chars), "I-SLEEP-02")
        for ch in chars:
            if sv(ctx, ch.id).asleep:
                continue
            roll_sleep(ctx, ch.id, list(a.rolled))

    class GoToSleep(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: all who rolled")
        hours: int | None = Field(None, ge=1, le=10, description="the die the player picks")
        pick: Pick | None = Field(None, description="for the party")
        camp: Camp | None = Field(None, description="if not set by make-camp")

    @rs.action(
        "go-to-sleep",
        GoToSleep,
        roles=EVERYONE,
        summary=("Go to sleep for the picked hours", "Лечь спать на выбранное число часов"),
        rule_ids=("I-SLEEP-02", "I-SLEEP-03", "I-SLEEP-06"),
    )
    def go_to_sleep(ctx: ActionContext, a: GoToSleep) -> None:
        chars = party(ctx, a.characters)
        if not a.characters:
            planned = [c for c in chars if sv(ctx, c.id).sleep_options]
            awake = [c for c in chars if not sv(ctx, c.id).asleep]
            chars = planned if planned or not a.pick else awake
        for ch in chars:
            if not sv(ctx, ch.id).sleep_options and a.pick and not sv(ctx, ch.id).asleep:
                roll_sleep(ctx, ch.id)  # the GM says how the players pick: roll for them now
            s = sv(ctx, ch.id)
            if s.asleep:
                refuse(f"{ch.name} is already asleep", f"{ch.name} уже спит", "I-SLEEP-02")
            if not s.sleep_options:
                refuse(
                    f"{ch.name} has not rolled 3d10 for sleep",
                    f"{ch.name} не бросал 3d10 на сон",
                    "I-SLEEP-02",
                    tip="Use `plan-sleep` first.",
                    tip_ru="Сначала `plan-sleep`.",
                )
            hours = a.hours
            if hours is None and a.pick:
                hours = pick_hours(s.sleep_options, a.pick)
            if hours is None or hours not in s.sleep_options:
                refuse(
                    f"{ch.name} must pick one of the rolled dice {s.sleep_options}, not {hours}",
                    f"{ch.name} выбирает одно из выпавших значений {s.sleep_options}, а не {hours}",
                    "I-SLEEP-02",
                )
            camp = a.camp or s.camp
            if camp is None:
                refuse(
                    "The GM sets the camp first: normal or bad",
                    "Сначала мастер определяет лагерь: нормальный или плохой",
                    "I-SLEEP-03",
                    tip="Use `make-camp` or give --camp.",
                    tip_ru="`make-camp` или --camp.",
                )
            update(
                ctx,
                "sleep.started",
                ch.id,
                {
                    "asleep": True,
                    "sleep_planned": hours,
                    "sleep_started": ctx.now,
                    "sleep_camp": camp,
                    "xp_pending": 0,
                    "xp_banked": s.xp_banked + s.xp_pending,
                    "marches": _camped(ctx, s.marches, camp),
                },
                ("I-SLEEP-02", "I-SLEEP-06"),
                hours=hours,
                camp=camp,
                xp=s.xp_pending,
            )
            ctx.cancel_all(ch.id, XP_BURN, rule_ids=("I-SLEEP-06",))
            ctx.schedule(WAKE, timedelta(hours=hours), ch.id, {"hours": hours}, ("I-SLEEP-02",))
        ctx.emit("day.step_done", {"step": "sleep"}, ("I-DAY-08",))

    @rs.on_timer(WAKE)
    def wakes(ctx: ActionContext, t: Timer) -> None:
        if ctx.character(t.subject).alive and sv(ctx, t.subject).asleep:
            finish_sleep(
                ctx, t.subject, int(t.payload["hours"]), bool(t.payload.get("interrupted"))
            )

    class InterruptSleep(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: all asleep")
        reason: str = Field("", max_length=120, description="a thief, an attack, an alarm…")
        lady_luck: bool = Field(False, description="the GM woke them for plot reasons")
        rolled: list[int] = Field(
            default_factory=list, description="2d10 rolled at the table (one character)"
        )

    @rs.action(
        "interrupt-sleep",
        InterruptSleep,
        roles=MASTERS,
        summary=(
            "Wake sleepers in the night: 2d10, highest die",
            "Разбудить ночью: 2d10, наибольший",
        ),
        rule_ids=("I-SLEEP-04", "I-SLEEP-07", "I-CALM-11"),
    )
    def interrupt(ctx: ActionContext, a: InterruptSleep) -> None:
        p = params(ctx)
        chars = party(ctx, a.characters)
        if not a.characters:
            chars = [c for c in chars if sv(ctx, c.id).asleep]
        if a.rolled:
            _table_dice(a.rolled, p.sleep_interrupted_dice, len(chars), "I-SLEEP-04")
        for ch in chars:
            s = sv(ctx, ch.id)
            if not s.asleep or s.sleep_started is None:
                refuse(f"{ch.name} is not asleep", f"{ch.name} не спит", "I-SLEEP-04")
            change_calm(
                ctx,
                ch.id,
                losses=("interrupted_sleep",),
                reason=("sleep interrupted", "сон прерван"),
                rule_ids=("I-CALM-11",),
            )
            if a.rolled:
                highest = max(a.rolled)
            else:
                dice = ctx.roll(p.sleep_interrupted_dice)
                highest = max(v for die in dice.dice for v in die.rolls)
            planned = s.sleep_planned or highest
            hours = interrupted_hours(highest, planned)  # I-SLEEP-04
            end = s.sleep_started + timedelta(hours=hours)
            update(
                ctx,
                "sleep.interrupted",
                ch.id,
                {"lady_luck": a.lady_luck or s.lady_luck},
                ("I-SLEEP-04",) + (("I-SLEEP-07",) if a.lady_luck else ()),
                reason=a.reason,
                highest=highest,
                hours=hours,
                planned=planned,
                back_to_sleep=end > ctx.now,
            )
            ctx.cancel_all(ch.id, WAKE)
            if end > ctx.now:
                ctx.schedule(
                    WAKE,
                    end - ctx.now,
                    ch.id,
                    {"hours": hours, "interrupted": True},
                    ("I-SLEEP-04",),
                )
            else:
                finish_sleep(ctx, ch.id, hours, True)


def _table_dice(rolled: list[int], expression: str, people: int, rule: str) -> None:
    """Dice rolled at the table must match ``NdS`` and belong to one character."""
    from lazaretto.core.errors import InvalidInput

    count, _, sides = expression.lower().partition("d")
    if people != 1 or len(rolled) != int(count) or not all(1 <= v <= int(sides) for v in rolled):
        raise InvalidInput(
            f"--rolled takes the {expression} of one character, e.g. {int(count)} values "
            f"1–{sides} ({rule})",
            ru=f"--rolled — это {expression} одного персонажа: {int(count)} значения 1–{sides} "
            f"({rule})",
        )
