"""Treating a disease (лечение болезни): the catalogue's treatments (I-CURE-01..31) and
the generic effects of I-DIS-05/11.

A treatment can remove a symptom, lower the stage, give an Immunity reroll, stop the
worsening, cure, or buy time (I-DIS-11); folk methods more often ease a symptom, buy
time or lower a difficulty, and carry a risk (I-DIS-12); medical, magical or
technological methods cure fully only where the setting has them (I-DIS-13,
``full_cure_available``). Where the source gives no effect, the GM rules (A-I-20).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.ide4_survival.calm import change_calm
from lazaretto.rulesets.ide4_survival.common import (
    EVERYONE,
    disease,
    gain,
    params,
    refuse,
    state,
    sv,
    update,
)
from lazaretto.rulesets.ide4_survival.diseases import CURE, DEATH, cure, record, set_stage
from lazaretto.rulesets.ide4_survival.state import Case, Reroll, survivor_events
from lazaretto.rulesets.ide4_survival.tables import Treatment

GmEffect = Literal[
    "cure",
    "lower_stage",
    "immunity_reroll",
    "stop_worsening",
    "remove_symptom",
    "buy_time",
    "lower_difficulty",
    "none",
]
Kind = Literal["folk", "magic", "medicine", "magic_medicine", "alchemy", "technology"]
CURING = {"cure", "cure_after_days", "cure_with_risk", "transfer"}
survivor_events("burn.recorded", "immunity_reroll.gained")


def _extend_death(ctx: ActionContext, case: Case, days: float, rule: str) -> Case:
    if case.death_at is None:
        refuse(
            "This disease has no death countdown running",
            "У этой болезни нет отсчёта до смерти",
            rule,
        )
    for t in state(ctx).timers_for(case.character, DEATH):
        if t.payload.get("case") == case.id:
            ctx.cancel(t.id, (rule,))
    new_at = case.death_at + timedelta(days=days)
    ctx.schedule(DEATH, new_at - ctx.now, case.character, {"case": case.id}, (rule, "A-I-20"))
    return case.model_copy(update={"death_at": new_at})


def apply_effect(
    ctx: ActionContext,
    case: Case,
    effect: str,
    t: Treatment | None,
    days: float | None,
    risk: bool,
    host: str,
) -> Case | None:
    """Apply one treatment effect to ``case``; returns the changed case (None if ended)."""
    rule = t.rule if t else "I-DIS-11"
    label = t.name if t else None
    name = (label.en, label.ru) if label else ("treatment", "лечение")
    if effect == "cure":
        cure(ctx, case, name, (rule, "I-DIS-11", "I-DIS-13"))
        return None
    if effect == "cure_after_days":
        n = days or (t.days if t else None) or 1
        ctx.schedule(
            CURE,
            timedelta(days=n),
            case.character,
            {"case": case.id, "treatment": rule},
            (rule, "I-DIS-11"),
        )
        return case.model_copy(
            update={"cure_at": ctx.now + timedelta(days=n), "no_worsening": True}
        )
    if effect == "suppress":
        hours = (t.hours if t else None) or 1
        return case.model_copy(
            update={
                "suppressed_until": ctx.now + timedelta(hours=hours),
                "suppresses": list(t.suppresses if t else ["penalties"]),
            }
        )
    if effect == "penalty_reduction" and t is not None:
        cuts = dict(case.reductions)
        for target in t.targets:  # the same treatment twice still counts once
            cuts[target] = max(cuts.get(target, 0), t.amount)
        return case.model_copy(update={"reductions": cuts})
    if effect == "extend_death":
        n = days or (t.days if t else None) or 1
        case = _extend_death(ctx, case, n, rule)
        burn = t.burn if t else 0
        if burn:
            s = sv(ctx, case.character)
            update(
                ctx,
                "burn.recorded",
                case.character,
                {"burns": s.burns + burn},
                (rule, "A-I-20"),
                burn=burn,
                total=s.burns + burn,
            )
        return case
    if effect == "buy_time":
        return _extend_death(ctx, case, days or 1, rule)
    if effect == "transfer":
        if risk:  # I-CURE-21, A-I-20: -3 calm at once, no rise above 0 for 7 days
            p = params(ctx)
            s = sv(ctx, case.character)
            update(
                ctx,
                "calm.changed",
                case.character,
                {"calm_capped_until": ctx.now + timedelta(days=p.expulsion_calm_days)},
                (rule,),
                before=s.calm,
                after=s.calm,
                events=[],
                discarded=0,
                carried=0,
                reason_en="expulsion risk",
                reason_ru="риск изгнания",
            )
            change_calm(
                ctx,
                case.character,
                set_to=max(0, s.calm - p.expulsion_calm_loss),
                reason=("Expulsion of the Living", "Изгнание живого"),
                rule_ids=(rule,),
            )
            gain(
                ctx,
                case.character,
                "calm_capped",
                ("Expulsion of the Living", "«Изгнание живого»"),
                (rule, "A-I-20"),
                deadline=ctx.now + timedelta(days=p.expulsion_calm_days),
            )
        cure(
            ctx,
            case,
            (
                f"parasites moved into {host or 'another body'}",
                f"паразиты перешли в {host or 'другое тело'}",
            ),
            (rule,),
        )
        return None
    if effect == "cure_with_risk":
        if risk:
            gain(ctx, case.character, "nerve_damage", name, (rule, "A-I-20"))
        cure(ctx, case, name, (rule,))
        return None
    if effect == "worsen":
        return set_stage(ctx, case, case.stage + 1, (rule,))
    if effect == "lower_stage":
        if case.stage <= 1:
            cure(ctx, case, name, (rule, "I-DIS-05"))
            return None
        return set_stage(ctx, case, case.stage - 1, (rule, "I-DIS-05"))
    if effect == "stop_worsening":
        return case.model_copy(update={"no_worsening": True})
    if effect == "lower_difficulty":
        return case.model_copy(update={"check_modifier": case.check_modifier - 1})
    if effect == "immunity_reroll":
        s = sv(ctx, case.character)
        update(
            ctx,
            "immunity_reroll.gained",
            case.character,
            {
                "rerolls": [
                    *s.rerolls,
                    Reroll(
                        kind="immunity",
                        gained=ctx.now,
                        usable_from=case.exposed,
                        case=case.id,
                        source=rule,
                    ),
                ]
            },
            (rule, "I-DIS-05"),
        )
        return case
    if effect in ("symptom_relief", "remove_symptom"):
        return case.model_copy(update={"relieved": [*case.relieved, rule]})
    return case  # no_effect, symptom_worse, unspecified/doubtful without a ruling: recorded


def register(rs: Ruleset) -> None:
    """Declare treat-disease."""

    class TreatDisease(BaseModel):
        character: str
        disease: str = Field(description="the disease's code")
        treatment: str = Field("generic", description="I-CURE-NN from the catalogue, or generic")
        effect: GmEffect | None = Field(None, description="GM's ruling where none is stated")
        kind: Kind = Field("folk", description="for a generic treatment")
        days: float | None = Field(None, gt=0, le=100, description="buy_time / a custom cure")
        risk: bool = Field(False, description="the GM rules the method's risk happened")
        host: str = Field("", max_length=80, description="where expelled parasites go")
        healer: str | None = None

    @rs.action(
        "treat-disease",
        TreatDisease,
        roles=EVERYONE,
        summary=("Treat a disease (catalogue or generic effect)", "Лечить болезнь"),
        rule_ids=("I-DIS-05", "I-DIS-11", "I-DIS-12", "I-DIS-13"),
    )
    def treat(ctx: ActionContext, a: TreatDisease) -> None:
        ch = ctx.character(a.character)
        d = disease(ctx, a.disease)
        case = next(
            (
                c
                for c in state(ctx).cases.values()
                if c.character == ch.id
                and c.disease == a.disease
                and c.status in ("sick", "incubating")
            ),
            None,
        )
        if case is None or (
            case.status != "sick" and a.effect not in ("immunity_reroll", "lower_difficulty")
        ):
            refuse(
                f"{ch.name} is not sick with {d.name.en}",
                f"{ch.name} не болен: {d.name.ru}",
                "I-COND-08",
            )
        t = None
        if a.treatment != "generic":
            t = next((x for x in d.treatments if x.rule.casefold() == a.treatment.casefold()), None)
            if t is None:
                known = ", ".join(x.rule for x in d.treatments) or "none"
                refuse(
                    f"{a.treatment} is not a treatment of {d.name.en}; its treatments: {known}",
                    f"{a.treatment} — не лечение болезни {d.name.ru}; есть: {known}",
                    "I-DIS-02",
                )
        effect = t.effect if t else (a.effect or "none")
        if t is not None and t.effect in ("unspecified", "doubtful"):
            effect = a.effect or t.effect  # A-I-20: the GM adjudicates
        kind = t.kind if t else a.kind
        p = params(ctx)
        if effect in CURING and kind != "folk" and kind not in p.full_cure_available:
            refuse(
                f"{kind} cures are not available in this setting",
                f"Лечение типа {kind} в этом сеттинге недоступно",
                "I-DIS-13",
            )
        changed = apply_effect(ctx, case, effect, t, a.days, a.risk, a.host)
        if a.risk and kind == "folk" and effect not in ("transfer", "cure_with_risk"):
            ctx.emit(
                "risk.noted",
                {"character": ch.id, "case": case.id, "what": "folk_risk"},
                ("I-DIS-12",),
            )
        latest = changed or state(ctx).cases[case.id]
        record(
            ctx,
            "case.treated",
            latest.model_copy(
                update={"treatments": [*latest.treatments, t.rule if t else f"generic:{effect}"]}
            ),
            (t.rule if t else "I-DIS-11", "I-DIS-05"),
            treatment=t.rule if t else "generic",
            effect=effect,
            healer=a.healer or "",
            kind=kind,
            implied=t.implied if t is not None and effect == "unspecified" else "",
        )
