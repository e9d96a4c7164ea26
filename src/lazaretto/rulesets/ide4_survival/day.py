"""The game day (шпаргалка: игровой день), checklist-004 §2.2, as a guided flow.

1 morning (``morning``: states marked, the meal windows start) → 2 breakfast from 7:00 /
4 lunch from 13:00 / 5 dinner from 19:00 (``eat-meal``) → 3 the day: scenes, march,
combat (``start-march``/``end-march``, ``calm-event``, ``start-fight``) → 6 camp
(``make-camp``) → 7 sleep (``plan-sleep``, ``go-to-sleep``) → 8 end of the day
(``end-day``: disease, recovery, experience). The ``day`` query shows what is due now for
every character (see :mod:`.queries`). Also here: the character sheet (``survival-sheet``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.ide4_survival.common import (
    FATIGUE,
    MASTERS,
    fatigue_degree,
    gain,
    gain_fatigue,
    lose,
    params,
    party,
    refuse,
    state,
    sv,
    update,
)
from lazaretto.rulesets.ide4_survival.d100 import deprivation_cut
from lazaretto.rulesets.ide4_survival.meals import ensure_meal_clock
from lazaretto.rulesets.ide4_survival.progression import daily_progress
from lazaretto.rulesets.ide4_survival.recovery import BETTER, WORSE, factors
from lazaretto.rulesets.ide4_survival.state import survivor_events
from lazaretto.rulesets.ide4_survival.tables import condition_table

survivor_events("recovery.noted")


def marks(ctx: ActionContext, char_id: str) -> dict[str, str]:
    """The morning marks of one character: hunger, thirst, sleep, fatigue, disease (I-DAY-02)."""
    ch = ctx.character(char_id)
    degree = fatigue_degree(ch)
    sick = [c for c in state(ctx).cases.values() if c.character == char_id and c.status == "sick"]
    return {
        "hunger": "hungry" if ch.has("hungry") else ("fed" if ch.has("fed") else "-"),
        "thirst": "dehydrated" if ch.has("dehydrated") else "-",
        "sleep": "sleep_deprived" if ch.has("sleep_deprived") else "-",
        "fatigue": FATIGUE[degree - 1] if degree else "-",
        "disease": ", ".join(f"{c.disease}:{c.stage}" for c in sick) or "-",
    }


def _marks_text(st: object, all_marks: dict[str, dict[str, str]], lang: str) -> str:
    """ "Anna: Hungry, Tired; Boris: -" for the log."""
    table = condition_table()
    chars = getattr(st, "characters", {})
    parts = []
    for cid, m in all_marks.items():
        words = [v if k == "disease" else table.label(v, lang) for k, v in m.items() if v != "-"]
        parts.append(f"{chars[cid].name}: {', '.join(words) or '-'}")
    return "; ".join(parts)


def register(rs: Ruleset) -> None:
    """Declare set-sheet, morning and end-day."""

    class SetSheet(BaseModel):
        character: str
        body_food_norm: int | None = Field(None, description="food units a meal (1000 or 800)")
        sex: Literal["male", "female", "other"] | None = None
        hot_cooldown_minutes: int | None = Field(None, ge=0, le=10000)
        caster: bool | None = Field(None, description="a mage or the like")
        life_partner: str | None = Field(None, description="the love of a lifetime ('' clears)")
        love_lost: bool | None = Field(None, description="the GM may reset it")

    @rs.action(
        "survival-sheet",
        SetSheet,
        roles=MASTERS,
        summary=("Survival fields of a character sheet", "Поля листа персонажа для выживания"),
        rule_ids=("I-MEAL-05", "I-HOT-04", "I-HOT-06", "I-CALM-24", "A-I-07"),
    )
    def set_sheet(ctx: ActionContext, a: SetSheet) -> None:
        ctx.character(a.character)
        norms = params(ctx).food_norms_units
        if a.body_food_norm is not None and a.body_food_norm not in norms:
            refuse(
                f"The body's food norm is one of {norms} units, not {a.body_food_norm}",
                f"Норма еды тела — одно из {norms} у.е., а не {a.body_food_norm}",
                "I-MEAL-05",
                "A-I-07",
            )
        changes = {k: v for k, v in a.model_dump(exclude={"character"}).items() if v is not None}
        if changes.get("life_partner") == "":
            changes["life_partner"] = None
        update(
            ctx,
            "sheet.set",
            a.character,
            changes,
            ("A-I-07", "A-I-24"),
            fields=", ".join(f"{k}={v}" for k, v in sorted(changes.items())),
        )

    class Morning(BaseModel):
        note: str = Field("", max_length=200)

    @rs.action(
        "morning",
        Morning,
        roles=MASTERS,
        summary=(
            "Step 1: a new game day — mark the states, open the meal windows",
            "Шаг 1: новый игровой день — отметить состояния, открыть окна еды",
        ),
        rule_ids=("I-DAY-01", "I-DAY-02", "I-GEN-05"),
    )
    def morning(ctx: ActionContext, a: Morning) -> None:
        st = state(ctx)
        ended_before = st.day_ended or st.day == 0
        ctx.emit(
            "day.started",
            {"day": st.day + 1, "previous_ended": ended_before, "note": a.note},
            ("I-DAY-01", "I-DAY-02"),
        )
        for ch in [c for c in st.characters.values() if c.alive]:
            if ch.id not in st.survivors:
                update(ctx, "survivor.joined", ch.id, {"joined": ctx.now}, ("I-DAY-02",))
        ensure_meal_clock(ctx)
        all_marks = {c.id: marks(ctx, c.id) for c in st.characters.values() if c.alive}
        ctx.emit(
            "day.reminder",
            {
                "day": st.day,
                "marks": all_marks,
                "text_en": _marks_text(st, all_marks, "en"),
                "text_ru": _marks_text(st, all_marks, "ru"),
            },
            ("I-DAY-02",),
        )

    class EndDay(BaseModel):
        no_water: list[str] = Field(default_factory=list, description="basic: no daily water")
        safe: bool = Field(False, description="the party rested in safety")
        cold_or_heat: bool = Field(False, description="they were in cold or heat")
        cared_for: list[str] = Field(default_factory=list)
        wounds_treated: list[str] = Field(default_factory=list)
        dirty_wound: list[str] = Field(default_factory=list)

    @rs.action(
        "end-day",
        EndDay,
        roles=MASTERS,
        summary=(
            "Step 8: end of the day — disease, water, sleep, recovery, experience",
            "Шаг 8: конец суток — болезнь, вода, сон, восстановление, опыт",
        ),
        rule_ids=("I-DAY-09", "I-DIS-04", "I-COND-03", "I-COND-04", "I-SLEEP-12", "I-REC-01"),
    )
    def end_day(ctx: ActionContext, a: EndDay) -> None:
        p = params(ctx)
        st = state(ctx)
        daily_progress(ctx)  # I-DAY-09, I-DIS-04
        counting = p.resolved("water") == "on"
        for ch in party(ctx, []):
            s = sv(ctx, ch.id)
            short = (s.liquid_today_ml < p.daily_water_norm_ml) if counting else ch.id in a.no_water
            if short:
                gain(
                    ctx,
                    ch.id,
                    "dehydrated",
                    (
                        f"day's useful liquid {s.liquid_today_ml:g} ml < {p.daily_water_norm_ml}"
                        if counting
                        else "no daily water norm",
                        f"полезной жидкости за сутки {s.liquid_today_ml:g} мл "
                        f"< {p.daily_water_norm_ml}"
                        if counting
                        else "нет нормы воды за сутки",
                    ),
                    ("I-COND-03", "A-I-09"),
                )
            if not s.slept_today and not s.asleep:
                gain(
                    ctx,
                    ch.id,
                    "sleep_deprived",
                    ("did not sleep", "не спал"),
                    (deprivation_cut(p)[1], "I-COND-07"),
                )
            if short and s.dry_days + 1 >= p.exhausted_after_days_without_food:
                gain_fatigue(
                    ctx,
                    ch.id,
                    "exhausted",
                    (f"{s.dry_days + 1} days without water", f"{s.dry_days + 1} суток без воды"),
                    ("I-COND-04", "A-I-08"),
                )
            _exhaustion_over(ctx, ch.id, short)
            marched = any(m.day == st.day for m in s.marches)
            if not marched and s.load == "overloaded":
                gain_fatigue(
                    ctx,
                    ch.id,
                    p.overload_outside_travel_state,
                    ("overloaded all day", "перегружен весь день"),
                    ("I-COND-06", "A-I-21"),
                )
            better, worse = factors(
                st,
                ch.id,
                a.safe,
                a.cold_or_heat,
                ch.id in a.cared_for,
                ch.id in a.wounds_treated,
                ch.id in a.dirty_wound,
            )
            reset: dict[str, object] = {
                "liquid_today_ml": 0,
                "slept_today": False,
                "dry_days": s.dry_days + 1 if short else 0,
            }
            if not s.slept_today and not s.asleep:
                reset["deprived_days"] = s.deprived_days + 1  # I-SLEEP-12
            update(
                ctx,
                "recovery.noted",
                ch.id,
                reset,
                ("I-REC-01", "I-REC-02", "I-REC-03", "A-I-25", "I-DAY-09"),
                better=better,
                worse=worse,
                better_en=", ".join(BETTER[k][0] for k in better) or "-",
                better_ru=", ".join(BETTER[k][1] for k in better) or "-",
                worse_en=", ".join(WORSE[k][0] for k in worse) or "-",
                worse_ru=", ".join(WORSE[k][1] for k in worse) or "-",
                xp_banked=s.xp_banked,
                modifier=sum(p.recovery_modifiers.get(k, 0) for k in (*better, *worse)),
            )
        ctx.emit("day.ended", {"day": st.day}, ("I-DAY-09",))


def _exhaustion_over(ctx: ActionContext, char_id: str, short_of_water: bool) -> None:
    """I-COND-04: "exhausted" goes after a full day of food, water and sleep."""
    p = params(ctx)
    st = state(ctx)
    ch = ctx.character(char_id)
    cond = ch.condition("exhausted")
    if cond is None or (st.day_started is not None and cond.started > st.day_started):
        return
    s = sv(ctx, char_id)
    fed = ch.has("fed") or s.food_marks.get(str(st.day)) == "ate"
    slept = bool(
        s.last_sleep
        and s.slept_today
        and s.last_sleep.camp == "normal"
        and s.last_sleep.hours >= p.normal_sleep_hours
    )
    if fed and not short_of_water and not ch.has("dehydrated") and slept:
        lose(
            ctx,
            char_id,
            "exhausted",
            ("a day of food, water and sleep", "сутки еды, воды и сна"),
            ("I-COND-04",),
        )
