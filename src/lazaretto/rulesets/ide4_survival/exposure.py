"""Conditions of infection and their Immunity-check schedule (I-IMM-02..07).

While a condition lasts, checks keep coming, without limit (I-IMM-02): cold without
warm clothes every 20 minutes; cold in warm clothes without a heat source, after 5
hours, every 30 minutes; wet and not in a hot area every 10 minutes; contact with a
sick person without protection every 10 minutes. The conditions add up (I-IMM-07): by
default each runs its own schedule (A-I-19); the ``difficulty`` reading runs one
schedule at the shortest interval with +1 difficulty per extra condition. A named
disease with an incubation checks after it (I-IMM-01).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.ide4_survival.common import (
    MASTERS,
    disease,
    next_id,
    params,
    party,
    refuse,
    state,
)
from lazaretto.rulesets.ide4_survival.diseases import expose
from lazaretto.rulesets.ide4_survival.state import Exposure

TICK = "exposure_check"
Kind = Literal["cold_no_clothes", "cold_warm_clothes", "wet", "sick_contact"]
RULES = {
    "cold_no_clothes": "I-IMM-03",
    "cold_warm_clothes": "I-IMM-04",
    "wet": "I-IMM-05",
    "sick_contact": "I-IMM-06",
}


def _interval(ctx: ActionContext, kind: str) -> timedelta:
    return timedelta(minutes=params(ctx).immunity_intervals_min[kind])


def _first(ctx: ActionContext, kind: str) -> timedelta:
    grace = timedelta(hours=params(ctx).cold_warm_clothes_grace_hours)
    return _interval(ctx, kind) + (grace if kind == "cold_warm_clothes" else timedelta(0))


def _reschedule(ctx: ActionContext, char_id: str) -> None:
    """``difficulty`` reading: one schedule, at the shortest interval among the conditions."""
    mine = [e for e in state(ctx).exposures.values() if e.character == char_id]
    ctx.cancel_all(char_id, TICK, rule_ids=("A-I-19",))
    if mine:
        lead = min(mine, key=lambda e: (_interval(ctx, e.kind), e.id))
        ctx.schedule(
            TICK,
            _first(ctx, lead.kind) if lead.started == ctx.now else _interval(ctx, lead.kind),
            char_id,
            {"exposure": lead.id},
            ("I-IMM-07",),
        )


def register(rs: Ruleset) -> None:
    """Declare start-exposure and end-exposure with their check schedule."""

    class StartExposure(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: everyone")
        kind: Kind
        disease: str | None = Field(None, description="what it may cause (GM's choice)")
        contact: str | None = Field(None, description="the sick person (sick_contact)")
        difficulty: int = Field(0, ge=-10, le=20)
        hot_area: bool = Field(False, description="wet in a hot area: no checks")
        protected: bool = Field(False, description="contact with protection: no checks")

    @rs.action(
        "start-exposure",
        StartExposure,
        roles=MASTERS,
        summary=(
            "A condition of infection begins (cold, wet, contact): Immunity checks",
            "Начались условия заражения (холод, сырость, контакт): проверки Иммунитета",
        ),
        rule_ids=("I-IMM-02", "I-IMM-03", "I-IMM-04", "I-IMM-05", "I-IMM-06", "I-IMM-07"),
    )
    def start(ctx: ActionContext, a: StartExposure) -> None:
        rule = RULES[a.kind]
        if a.kind == "wet" and a.hot_area:
            refuse(
                "Being wet in a hot area brings no Immunity checks",
                "Мокрый в жаркой местности — без проверок Иммунитета",
                rule,
            )
        if a.kind == "sick_contact" and a.protected:
            refuse(
                "Contact with protection brings no Immunity checks",
                "Контакт с защитой — без проверок Иммунитета",
                rule,
            )
        code = a.disease
        if code is None and a.kind == "sick_contact" and a.contact:
            sick = [
                c
                for c in state(ctx).cases.values()
                if c.character == a.contact and c.status == "sick"
            ]
            if not sick:
                refuse(f"{a.contact} is not sick", f"{a.contact} не болен", rule)
            code = sick[0].disease
        if code is None:
            refuse(
                "Name the disease this condition may cause (the GM's choice)",
                "Укажите болезнь, которую могут вызвать эти условия (выбор мастера)",
                "A-I-19",
                tip="Give --disease, e.g. basic.",
                tip_ru="Укажите --disease, например basic.",
            )
        disease(ctx, code)
        for ch in party(ctx, a.characters):
            eid, counter = next_id(ctx, "x")
            exp = Exposure(
                id=eid,
                character=ch.id,
                kind=a.kind,
                disease=code,
                difficulty=a.difficulty,
                started=ctx.now,
            )
            ctx.emit(
                "exposure.started",
                {"exposure": exp.model_dump(mode="json"), "character": ch.id, "counter": counter},
                (rule,),
            )
            if params(ctx).immunity_conditions_stack == "difficulty":
                _reschedule(ctx, ch.id)
            else:
                ctx.schedule(TICK, _first(ctx, a.kind), ch.id, {"exposure": eid}, (rule,))

    class EndExposure(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: everyone")
        kind: Kind | None = Field(None, description="empty: every condition")

    @rs.action(
        "end-exposure",
        EndExposure,
        roles=MASTERS,
        summary=("A condition of infection ends", "Условия заражения закончились"),
        rule_ids=("I-IMM-02",),
    )
    def end(ctx: ActionContext, a: EndExposure) -> None:
        for ch in party(ctx, a.characters):
            for exp in [
                e
                for e in state(ctx).exposures.values()
                if e.character == ch.id and (a.kind is None or e.kind == a.kind)
            ]:
                ctx.emit(
                    "exposure.ended",
                    {"id": exp.id, "character": ch.id, "kind": exp.kind},
                    ("I-IMM-02",),
                )
                for t in state(ctx).timers_for(ch.id, TICK):
                    if t.payload.get("exposure") == exp.id:
                        ctx.cancel(t.id)
            if params(ctx).immunity_conditions_stack == "difficulty":
                _reschedule(ctx, ch.id)

    @rs.on_timer(TICK)
    def tick(ctx: ActionContext, t: Timer) -> None:
        exp = state(ctx).exposures.get(str(t.payload.get("exposure")))
        if exp is None or not ctx.character(exp.character).alive:
            return
        extra = 0
        if params(ctx).immunity_conditions_stack == "difficulty":
            extra = (
                sum(1 for e in state(ctx).exposures.values() if e.character == exp.character) - 1
            )
        ctx.schedule(
            TICK,
            _interval(ctx, exp.kind),
            exp.character,
            {"exposure": exp.id},
            (RULES[exp.kind], "I-IMM-02"),
        )
        expose(ctx, exp.character, exp.disease, exp.difficulty + extra, exp.kind)
