"""Meals and the meal reroll (три приёма пищи и обеденный переброс), checklist-004 §2.4.

Three windows a day open at 7:00, 13:00 and 19:00 (I-MEAL-02, A-I-06). A normal meal —
≥500 ml of useful liquid, the body's norm of solid food, not poisoned, no combat or
chase — counts once per window and gives one meal reroll (+1 with bonus food), usable
on checks after the meal until it burns at the start of the next window (A-I-04).
When a window ends without a normal meal it is skipped: "hungry"; two in a row,
"exhausted" (I-MEAL-14/15). The light campaign uses one mark a day instead, with no
rerolls (I-MEAL-16/17).

The windows are one campaign countdown (``meal_window``) started by the first
``morning`` or meal; each window start judges the window that just closed.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.ide4_survival.common import (
    EVERYONE,
    MEAL_LABELS,
    Window,
    gain,
    gain_fatigue,
    lose,
    next_window_start,
    params,
    party,
    previous_window,
    refuse,
    ru,
    state,
    sv,
    update,
    window_at,
)
from lazaretto.rulesets.ide4_survival.state import Reroll, Survivor, survivor_events
from lazaretto.rulesets.ide4_survival.water import Drink, clean_ml, rehydrate, useful_ml

MEAL_TIMER = "meal_window"
survivor_events("meal.eaten", "meal.skipped", "reroll.burned", "food.day_marked")


def ensure_meal_clock(ctx: ActionContext) -> None:
    """Start the meal-window countdown if it is not running (detailed meals only)."""
    if params(ctx).resolved("meal") != "detailed":
        return
    if any(t.kind == MEAL_TIMER for t in state(ctx).timers.values()):
        return
    nxt = next_window_start(params(ctx), ctx.now)
    ctx.schedule(MEAL_TIMER, nxt - ctx.now, "party", {"start": nxt.isoformat()}, ("I-MEAL-02",))


def _recent(meals: dict[str, str], keep: int = 9) -> dict[str, str]:
    return dict(sorted(meals.items())[-keep:])


def _exception(ctx: ActionContext, s: Survivor, first: Window) -> bool:
    """A-I-08 ``full_meal_in_period``: a full breakfast/dinner just before the skips."""
    if params(ctx).exhausted_skip_exception != "full_meal_in_period":
        return False
    prior = previous_window(params(ctx), first)
    return prior.name in ("breakfast", "dinner") and s.meals.get(prior.key) == "normal"


def close_window(ctx: ActionContext, w: Window) -> None:
    """Judge window ``w`` (just ended) for every living character."""
    p = params(ctx)
    for ch in [c for c in state(ctx).characters.values() if c.alive]:
        s = sv(ctx, ch.id)
        if s.joined is None:
            update(ctx, "survivor.joined", ch.id, {"joined": ctx.now}, ("I-DAY-02",))
            continue
        if s.joined > w.start or s.meals.get(w.key) == "normal":
            continue
        skips = s.consecutive_skips + 1
        label = MEAL_LABELS[w.name]
        update(
            ctx,
            "meal.skipped",
            ch.id,
            {"meals": _recent({**s.meals, w.key: "skipped"}), "consecutive_skips": skips},
            ("I-MEAL-14",),
            window=w.name,
            start=w.start,
            skips=skips,
        )
        src = (f"{label[0]} skipped ({w.start:%H:%M})", f"пропущен {label[1]} ({w.start:%H:%M})")
        gain(ctx, ch.id, "hungry", src, ("I-MEAL-14", "I-COND-02"))
        lose(ctx, ch.id, "fed", src, ("I-COND-01", "A-I-31"))
        first = w
        for _ in range(skips - 1):
            first = previous_window(p, first)
        if skips >= p.exhausted_after_consecutive_skips and not _exception(ctx, s, first):
            gain_fatigue(
                ctx,
                ch.id,
                "exhausted",
                (f"{skips} meals skipped in a row", f"{skips} приёма пищи пропущено подряд"),
                ("I-MEAL-15", "I-COND-04", "A-I-08"),
            )


def burn_rerolls(ctx: ActionContext, char_id: str, *, all_meal: bool = False) -> list[Reroll]:
    """Burn meal rerolls that expired (or all of them); returns the ones kept."""
    s = sv(ctx, char_id)
    burned = [
        r
        for r in s.rerolls
        if r.kind == "meal" and (all_meal or (r.expires is not None and r.expires <= ctx.now))
    ]
    kept = [r for r in s.rerolls if r not in burned]
    if burned:
        update(
            ctx,
            "reroll.burned",
            char_id,
            {"rerolls": kept},
            ("I-MEAL-11", "A-I-04"),
            kind="meal",
            count=len(burned),
        )
    return kept


def register(rs: Ruleset) -> None:
    """Declare the meal actions and the window countdown."""

    @rs.on_timer(MEAL_TIMER)
    def window_opens(ctx: ActionContext, t: Timer) -> None:
        p = params(ctx)
        if p.resolved("meal") != "detailed":
            return
        closed = window_at(p, ctx.now - timedelta(seconds=1))
        close_window(ctx, closed)
        for ch in [c for c in state(ctx).characters.values() if c.alive]:
            if not p.meal_reroll_carryover:
                burn_rerolls(ctx, ch.id)  # I-MEAL-11, A-I-04: at the start of the next window
        nxt = next_window_start(p, ctx.now)
        ctx.schedule(MEAL_TIMER, nxt - ctx.now, "party", {"start": nxt.isoformat()}, ("I-MEAL-02",))

    class EatMeal(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: everyone")
        liquid_ml: int | None = Field(None, ge=0, le=20000, description="useful liquid (ml)")
        drinks: list[Drink] = Field(default_factory=list, description="extended: kind=..,ml=..")
        food_units: int | None = Field(None, ge=0, le=100000, description="solid food, units")
        food_grams: int | None = Field(None, ge=0, le=50000, description="solid food, grams")
        bonus_food: bool = Field(False, description="bonus food (БЕ): one more reroll")
        combat_or_chase: bool = Field(False, description="a fight or chase during the meal")

    @rs.action(
        "eat-meal",
        EatMeal,
        roles=EVERYONE,
        summary=(
            "A meal finished now (breakfast / lunch / dinner window): normal? reroll?",
            "Приём пищи закончен (окно завтрака/обеда/ужина): нормальный? переброс?",
        ),
        rule_ids=(
            "I-MEAL-02",
            "I-MEAL-03",
            "I-MEAL-04",
            "I-MEAL-05",
            "I-MEAL-06",
            "I-MEAL-07",
            "I-MEAL-08",
            "I-MEAL-12",
            "I-MEAL-13",
        ),
    )
    def eat_meal(ctx: ActionContext, a: EatMeal) -> None:
        p = params(ctx)
        if p.resolved("meal") != "detailed":
            refuse(
                "This campaign keeps one food mark a day (quick mode)",
                "В этой кампании одна отметка еды в сутки (быстрый режим)",
                "I-MEAL-16",
                tip="Use `mark-food-day`.",
                tip_ru="Используйте `mark-food-day`.",
            )
        if p.resolved("water") == "on" and a.liquid_ml is None and not a.drinks:
            refuse(
                "Extended mode counts water: say what was drunk",
                "Расширенный режим считает воду: укажите, что выпито",
                "I-GEN-11",
                "I-MEAL-18",
                tip="Give --liquid-ml or --drinks kind=clean_water,ml=500.",
                tip_ru="Укажите --liquid-ml или --drinks kind=clean_water,ml=500.",
            )
        ensure_meal_clock(ctx)
        w = window_at(p, ctx.now)
        for ch in party(ctx, a.characters):
            _eat(ctx, ch.id, w, a)

    class MarkFoodDay(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: everyone")
        mark: Literal["ate", "skipped", "starved"]

    @rs.action(
        "mark-food-day",
        MarkFoodDay,
        summary=(
            "Quick food mode: one mark for the day (ate / skipped / starved)",
            "Быстрый режим питания: одна отметка за сутки (ел / пропустил / голодал)",
        ),
        rule_ids=("I-MEAL-16", "I-MEAL-17", "I-COND-02", "I-COND-04"),
    )
    def mark_food_day(ctx: ActionContext, a: MarkFoodDay) -> None:
        p = params(ctx)
        if p.resolved("meal") != "quick":
            refuse(
                "Food is tracked meal by meal in this campaign",
                "В этой кампании еда учитывается по приёмам",
                "I-MEAL-16",
                tip="Use `eat-meal` (or create the campaign with meal_mode=quick).",
                tip_ru="Используйте `eat-meal` (или кампанию с meal_mode=quick).",
            )
        day = str(state(ctx).day)
        for ch in party(ctx, a.characters):
            s = sv(ctx, ch.id)
            again = s.food_marks.get(day) in ("skipped", "starved")  # one mark a day
            days = 0 if a.mark == "ate" else s.hungry_days + (0 if again else 1)
            update(
                ctx,
                "food.day_marked",
                ch.id,
                {"food_marks": _recent({**s.food_marks, day: a.mark}), "hungry_days": days},
                ("I-MEAL-16", "I-MEAL-17"),
                mark=a.mark,
            )
            if a.mark == "ate":
                lose(ctx, ch.id, "hungry", ("ate normally", "ел нормально"), ("I-COND-02",))
                gain(
                    ctx,
                    ch.id,
                    "fed",
                    ("ate normally all day", "ел нормально весь день"),
                    ("I-COND-01", "I-MEAL-16"),
                )
                continue
            src = (f"day marked {a.mark}", f"день отмечен: {ru(a.mark)}")
            gain(ctx, ch.id, "hungry", src, ("I-COND-02", "I-MEAL-16"))
            lose(ctx, ch.id, "fed", src, ("I-COND-01",))
            if days >= p.exhausted_after_days_without_food:
                gain_fatigue(
                    ctx,
                    ch.id,
                    "exhausted",
                    (f"{days} days without food", f"{days} суток без еды"),
                    ("I-COND-04", "A-I-08"),
                )


def _eat(ctx: ActionContext, char_id: str, w: Window, a: BaseModel) -> None:
    p = params(ctx)
    ch = ctx.character(char_id)
    s = sv(ctx, char_id)
    drinks: list[Drink] = getattr(a, "drinks", [])
    liquid_ml: int | None = getattr(a, "liquid_ml", None)
    given_liquid = liquid_ml is not None or bool(drinks)
    useful = useful_ml(p, drinks, liquid_ml)
    units = getattr(a, "food_units", None)
    grams = getattr(a, "food_grams", None)
    if units is None and grams is not None:
        units = int(grams * p.units_per_gram)
    reasons: list[str] = []
    reasons_ru: list[str] = []
    rules: list[str] = ["I-MEAL-03"]
    # I-GEN-09: in the basic game nobody counts grams: not given = enough
    if given_liquid and useful < p.meal_liquid_min_ml:
        reasons.append(f"liquid {useful:g} ml < {p.meal_liquid_min_ml}")
        reasons_ru.append(f"жидкости {useful:g} мл < {p.meal_liquid_min_ml}")
        rules.append("I-MEAL-04")
    little_food = units is not None and units < s.body_food_norm
    if little_food:
        reasons.append(f"food {units} < {s.body_food_norm} units")
        reasons_ru.append(f"еды {units} < {s.body_food_norm} у.е.")
        rules.append("I-MEAL-05")
    if ch.has("poisoned"):
        reasons.append("poisoned")
        reasons_ru.append("отравлен")
        rules.append("I-MEAL-06")
    if getattr(a, "combat_or_chase", False):
        reasons.append("combat or chase during the meal")
        reasons_ru.append("бой или погоня во время еды")
        rules.append("I-MEAL-07")
    normal = not reasons
    counted = normal and s.meals.get(w.key) != "normal"
    rerolls = list(s.rerolls)
    burned = 0
    if p.meal_reroll_carryover:
        pass  # A-I-05 alternative: unused rerolls carry over, capped below
    elif counted or p.meal_reroll_expiry == "next_meal_completed":
        # I-MEAL-11/12: the next meal burns what is left; a second helping in the same
        # window is not a next meal (I-MEAL-03)
        old = [r for r in rerolls if r.kind == "meal" and (counted or r.gained < w.start)]
        burned = len(old)
        rerolls = [r for r in rerolls if r not in old]
    gained = 0
    if counted:
        gained = p.meal_rerolls_per_meal + (
            p.bonus_food_extra_rerolls if getattr(a, "bonus_food", False) else 0
        )
        expires = (
            next_window_start(p, ctx.now)
            if p.meal_reroll_expiry == "next_window_start" and not p.meal_reroll_carryover
            else None
        )
        cap = p.meal_rerolls_per_meal + p.bonus_food_extra_rerolls
        rerolls += [
            Reroll(
                kind="meal",
                gained=ctx.now,
                usable_from=ctx.now,
                expires=expires,
                source=f"{w.name} {ctx.now:%H:%M}",
            )
            for _ in range(gained)
        ]
        if p.meal_reroll_carryover:
            meal = [r for r in rerolls if r.kind == "meal"][-cap:]
            rerolls = [r for r in rerolls if r.kind != "meal"] + meal
    meals = dict(s.meals)
    if s.meals.get(w.key) != "normal":
        meals[w.key] = "normal" if normal else "poor"
    changes: dict[str, object] = {
        "meals": _recent(meals),
        "rerolls": rerolls,
        "liquid_today_ml": s.liquid_today_ml + useful,
    }
    if normal:
        changes["consecutive_skips"] = 0
    if ch.has("dehydrated"):
        changes["clean_water_ml"] = s.clean_water_ml + clean_ml(drinks, liquid_ml)
    if counted:
        rules += ["I-MEAL-08", "I-MEAL-09"] + (["I-MEAL-13"] if gained > 1 else [])
    update(
        ctx,
        "meal.eaten",
        char_id,
        changes,
        tuple(rules),
        window=w.name,
        result="normal" if normal else "not_normal",
        why_en=f" ({'; '.join(reasons)})" if reasons else "",
        why_ru=f" ({'; '.join(reasons_ru)})" if reasons_ru else "",
        normal=normal,
        counted=counted,
        reasons=reasons,
        rerolls_gained=gained,
        burned=burned,
        useful_ml=useful,
    )
    label = MEAL_LABELS[w.name]
    if normal:
        lose(
            ctx,
            char_id,
            "hungry",
            (f"normal {label[0]}", f"нормальный {label[1]}"),
            ("I-COND-02", "I-MEAL-14"),
        )
        recent = [meals.get(x.key) for x in _last_windows(ctx, w, p.fed_requires_consecutive_meals)]
        if all(m == "normal" for m in recent):
            gain(
                ctx,
                char_id,
                "fed",
                (
                    f"{len(recent)} normal meals in a row",
                    f"{len(recent)} нормальных приёма пищи подряд",
                ),
                ("I-COND-01", "A-I-31"),
            )
    elif little_food:
        gain(
            ctx,
            char_id,
            "hungry",
            (f"too little food at {label[0]}", f"мало еды: {label[1]}"),
            ("I-COND-02",),
        )
    rehydrate(ctx, char_id)


def _last_windows(ctx: ActionContext, w: Window, n: int) -> list[Window]:
    out = [w]
    while len(out) < n:
        out.append(previous_window(params(ctx), out[-1]))
    return out
