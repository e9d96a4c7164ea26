"""Water, useful liquid and rest (полезная жидкость, отдых).

Not every liquid is equally useful: in extended mode the GM counts clean water, weak
and strong alcohol, broth, medicinal drinks and contaminated water at their own rates
(I-MEAL-18/19; 500 ml of ale = 400 ml). The day's useful liquid meets the daily norm or
the character is dehydrated (I-COND-03, A-I-09). Dehydration goes with 500 ml of clean
water and an hour of rest; an hour of rest also ends "tired" (I-COND-05).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.ide4_survival.calm import quiet_hours
from lazaretto.rulesets.ide4_survival.common import EVERYONE, lose, params, party, sv, update
from lazaretto.rulesets.ide4_survival.params import IdeParams
from lazaretto.rulesets.ide4_survival.state import survivor_events

LiquidKind = Literal[
    "clean_water", "weak_alcohol", "strong_alcohol", "broth", "medicinal", "contaminated_water"
]
survivor_events("liquid.drunk", "rest.taken")


class Drink(BaseModel):
    """Some liquid drunk."""

    kind: LiquidKind = "clean_water"
    ml: int = Field(ge=0, le=20000)


def useful_ml(p: IdeParams, drinks: list[Drink], plain_ml: int | None) -> float:
    """Useful liquid: plain millilitres count in full; in extended accounting each kind
    counts at its rate (I-MEAL-18/19), otherwise all liquid is equal."""
    counting = p.resolved("water") == "on"
    total = float(plain_ml or 0)
    for d in drinks:
        total += d.ml * (p.useful_liquid_ratio.get(d.kind, 1.0) if counting else 1.0)
    return total


def clean_ml(drinks: list[Drink], plain_ml: int | None) -> float:
    """The clean water among them (plain millilitres are taken as clean water)."""
    return float(plain_ml or 0) + sum(d.ml for d in drinks if d.kind == "clean_water")


def rehydrate(ctx: ActionContext, char_id: str) -> None:
    """End dehydration once 500 ml of clean water and an hour of rest are both had."""
    p = params(ctx)
    s = sv(ctx, char_id)
    if (
        s.clean_water_ml >= p.dehydration_cure_water_ml
        and s.rest_minutes >= p.dehydration_cure_rest_hours * 60
        and lose(
            ctx,
            char_id,
            "dehydrated",
            (
                f"{s.clean_water_ml:g} ml of clean water and {s.rest_minutes / 60:g} h of rest",
                f"{s.clean_water_ml:g} мл чистой воды и {s.rest_minutes / 60:g} ч отдыха",
            ),
            ("I-COND-03",),
        )
    ):
        update(
            ctx,
            "liquid.drunk",
            char_id,
            {"clean_water_ml": 0, "rest_minutes": 0},
            ("I-COND-03",),
            ml=0,
            useful_ml=0,
        )


def register(rs: Ruleset) -> None:
    """Declare drink and rest."""

    class DrinkInput(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: everyone")
        drinks: list[Drink] = Field(default_factory=list, description="kind=..,ml=.. each")
        ml: int | None = Field(None, ge=0, le=20000, description="clean water, millilitres")

    @rs.action(
        "drink",
        DrinkInput,
        roles=EVERYONE,
        summary=("Drink outside a meal (useful liquid)", "Пить вне еды (полезная жидкость)"),
        rule_ids=("I-MEAL-18", "I-MEAL-19", "I-COND-03"),
    )
    def drink(ctx: ActionContext, a: DrinkInput) -> None:
        p = params(ctx)
        for ch in party(ctx, a.characters):
            s = sv(ctx, ch.id)
            useful = useful_ml(p, a.drinks, a.ml)
            clean = clean_ml(a.drinks, a.ml)
            changes = {"liquid_today_ml": s.liquid_today_ml + useful}
            if ch.has("dehydrated"):
                changes["clean_water_ml"] = s.clean_water_ml + clean
            update(
                ctx,
                "liquid.drunk",
                ch.id,
                changes,
                ("I-MEAL-18", "I-MEAL-19"),
                ml=clean,
                useful_ml=useful,
            )
            rehydrate(ctx, ch.id)

    class Rest(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: everyone")
        hours: float = Field(gt=0, le=240)
        quiet: bool = Field(False, description="a calm setting without checks (calm +1 / 3 h)")

    @rs.action(
        "rest",
        Rest,
        roles=EVERYONE,
        summary=("Rest for some game hours", "Отдых несколько игровых часов"),
        rule_ids=("I-COND-03", "I-COND-05", "I-CALM-15"),
    )
    def rest(ctx: ActionContext, a: Rest) -> None:
        for ch in party(ctx, a.characters):
            s = sv(ctx, ch.id)
            minutes = a.hours * 60
            changes: dict[str, object] = {}
            if ch.has("dehydrated"):
                changes["rest_minutes"] = s.rest_minutes + minutes
            update(ctx, "rest.taken", ch.id, changes, ("I-COND-05",), hours=a.hours)
            if a.hours >= 1:
                lose(
                    ctx,
                    ch.id,
                    "tired",
                    (f"{a.hours:g} h of rest", f"{a.hours:g} ч отдыха"),
                    ("I-COND-05",),
                )
            rehydrate(ctx, ch.id)
            if a.quiet:
                quiet_hours(ctx, ch.id, a.hours)
