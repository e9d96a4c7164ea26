"""Treatment of traumas (Лечение [Травм]): the physical and magical treatment lists of
checklist-002 §2.16–§2.17, combined treatments, the mutation traumas, constructs.

A trauma treatment follows its row of the catalogue (``traumas.yaml``). ``heal-trauma``
is called once per roll: the first call opens the treatment; a roll that belongs to the
end of a duration ("the whole day") is made when that time has come (A-S-23); daily
treatments take one roll per day or per 24 hours (A-S-21..A-S-23).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext, QueryContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.fantasy_server.checks import roll_check
from lazaretto.rulesets.fantasy_server.common import (
    MASTERS,
    add_trauma,
    flag,
    fstate,
    new_id,
    params,
    refuse,
    remove_condition,
    require_alive,
    trauma_condition,
)
from lazaretto.rulesets.fantasy_server.general import die
from lazaretto.rulesets.fantasy_server.mutations import (
    SKIN_FESTERS,
    apply_side_effects,
    mutation_check,
)
from lazaretto.rulesets.fantasy_server.state import TraumaTreatment
from lazaretto.rulesets.fantasy_server.tables import mutations, traumas
from lazaretto.rulesets.fantasy_server.treatments import (
    advance,
    base_rules,
    choose_row,
    combined_progress,
    complete,
    describe_row,
    duration_hours,
    lose_hp,
    may_reroll,
    pace,
    progress,
    treatment_for,
)

Method = Literal["physical", "physical_alt", "magical"]


def register(rs: Ruleset) -> None:
    """Declare the trauma actions, queries and timers."""

    class InflictTrauma(BaseModel):
        character: str = Field(description="who")
        trauma: str = Field(description="catalogue key, e.g. broken_ribs")
        combined_conditions: list[str] = Field(
            default_factory=list, description="the GM's other conditions of a combined treatment"
        )

    @rs.action(
        "give-trauma",
        InflictTrauma,
        roles=MASTERS,
        summary=("Give a character a trauma", "Нанести персонажу травму"),
        rule_ids=("S-HEAL-05",),
    )
    def inflict_trauma(ctx: ActionContext, a: InflictTrauma) -> None:
        ch = ctx.character(a.character)
        require_alive(ch)
        if a.trauma not in traumas():
            refuse(
                f"No trauma {a.trauma!r} in the catalogue; known: {', '.join(traumas())}",
                f"Нет травмы {a.trauma!r} в каталоге; есть: {', '.join(traumas())}",
                "A-S-24",
            )
        add_trauma(ctx, ch.id, a.trauma, ("S-HEAL-05", "A-S-24"), conditions=a.combined_conditions)

    class TreatTrauma(BaseModel):
        healer: str = Field(description="who treats")
        patient: str = Field(description="whose trauma")
        trauma: str = Field(description="the trauma id (or its catalogue key)")
        method: Method = Field(
            "physical", description="physical, physical_alt (the alternative care) or magical"
        )
        repair_kit: bool = Field(False, description="a repair kit is used (constructs)")
        combat_skill: bool = Field(False, description="a combat healing skill is used")
        roll: int | None = Field(None, description="a die rolled elsewhere (masters)")
        patient_roll: int | None = Field(None, description="the patient's WIL die (mutations)")
        mutation_roll: int | None = Field(None, description="the mutation d6 (masters)")
        reroll: bool = Field(False, description="repeat today's failed roll (reroll rule)")

    @rs.action(
        "heal-trauma",
        TreatTrauma,
        summary=(
            "Treat a trauma (one roll per call; opens the treatment first)",
            "Лечить травму (один бросок за раз; сначала открывает лечение)",
        ),
        rule_ids=("S-HEAL-02", "S-HEAL-05", "S-PHEAL-01", "S-MHEAL-01", "S-CLAR-02"),
    )
    def treat_trauma(ctx: ActionContext, a: TreatTrauma) -> None:
        p = params(ctx)
        st = fstate(ctx)
        healer, patient = ctx.character(a.healer), ctx.character(a.patient)
        require_alive(healer)
        require_alive(patient)
        cond = trauma_condition(patient, a.trauma)
        key, tid = cond.data["key"], cond.data["id"]
        kind = traumas()[key]
        construct = flag(patient, "is_construct")
        magical = a.method == "magical"
        row = choose_row(p, patient, kind, a.method, a.combat_skill, a.repair_kit)
        assert row.stat is not None and row.threshold is not None
        tr = next(
            (
                t
                for t in st.treatments.values()
                if t.trauma == tid and t.method == a.method and not t.done
            ),
            None,
        )
        rules = base_rules(row, magical, flag(patient, "reduced_magic"), construct)
        wait = timedelta(hours=duration_hours(p, row)) if row.kind == "single" else timedelta(0)
        if tr is None:
            tr = TraumaTreatment(
                id=new_id(ctx, "tt"),
                trauma=tid,
                key=key,
                patient=patient.id,
                healer=healer.id,
                method=a.method,
                rule=row.rule,
                started=ctx.now,
                roll_due=ctx.now + wait,
            )
            ctx.emit(
                "treatment.opened",
                {
                    "treatment": tr.model_dump(mode="json"),
                    "patient": patient.id,
                    "healer": healer.id,
                    "trauma": kind.en,
                    "plan": describe_row(p, row, "en"),
                    "plan_ru": describe_row(p, row, "ru"),
                    "roll_due": tr.roll_due.isoformat(),
                },
                (*rules, "A-S-23") if wait else tuple(rules),
            )
            if wait:
                return
        if a.reroll:
            may_reroll(tr, row, ctx)
        else:
            pace(ctx, tr, row)
        limb_rule = magical and kind.limb
        level = int(healer.data.get("healing_skill_level", 0) or 0)
        check = roll_check(
            ctx,
            healer.id,
            row.stat,
            f"treatment:{tr.id}",
            threshold=None if row.kind == "cumulative" else row.threshold,
            natural=a.roll,
            reroll=a.reroll,
            no_reroll_rule=row.rule if row.kind == "cumulative" else None,
            rule_ids=(row.rule,),
        )
        counts = True
        if limb_rule and level < p.limb_heal_skill_level:
            counts = check.crit == "success"  # S-CLAR-04: level 2, or a critical success
            rules += ["S-CLAR-04", "A-S-29"]
        face = None
        if magical and (check.success or row.kind == "cumulative") and counts:
            face = mutation_check(
                ctx, patient.id, healer.id, patient_roll=a.patient_roll,
                mutation_roll=a.mutation_roll, healer_check=check if row.stat == "MAG" else None,
            )  # fmt: skip
        effect = mutations()[face].effect if face is not None else None
        if effect == "damage":
            counts = False
        changes, done = advance(ctx, tr, row, check, counts, effect)
        if not done and row.kind == "single":
            rules.append("A-S-23")
        if row.kind == "cumulative":
            rules.append("A-S-22")
        if key == "minor_scar" and not magical:
            rules.append("A-S-21")
        ctx.emit(
            "treatment.rolled",
            {
                "treatment": tr.id,
                "patient": patient.id,
                "healer": healer.id,
                "trauma": kind.en,
                "roll": check.short(),
                "success": check.success,
                "counts": counts,
                "progress": progress(row, changes, tr, p),
                "set": changes,
            },
            tuple(dict.fromkeys(rules)),
        )
        if face is not None:
            apply_side_effects(ctx, patient.id, face)
        loss = row.fail_hp_loss
        if row.rule == "S-PHEAL-03":
            loss = p.festering_alt_fail_hp_loss  # A-S-23
        if not check.success and loss and row.kind != "cumulative":
            lose_hp(ctx, patient.id, loss, row)
            if ctx.character(patient.id).hits == 0 and row.death_at_zero:
                die(ctx, patient.id, "silver burning", ("S-PHEAL-14",))
                return
        if done:
            complete(ctx, tr, row, tid, key, effect == "misknit")

    class FulfilCondition(BaseModel):
        patient: str = Field(description="whose trauma")
        trauma: str = Field(description="the trauma id")
        condition: str = Field(description="the fulfilled condition of the combined treatment")

    @rs.action(
        "fulfil-combined-condition",
        FulfilCondition,
        roles=MASTERS,
        summary=(
            "A GM marks a condition of a combined treatment fulfilled",
            "GM отмечает выполненное условие комбинированного лечения",
        ),
        rule_ids=("S-PHEAL-13", "S-MHEAL-10", "A-S-24"),
    )
    def fulfil_condition(ctx: ActionContext, a: FulfilCondition) -> None:
        ch = ctx.character(a.patient)
        cond = trauma_condition(ch, a.trauma)
        combined = dict(cond.data.get("combined", {}))
        if a.condition not in combined:
            refuse(
                f"The treatment of {cond.data['name']} has no condition {a.condition!r}; "
                f"conditions: {', '.join(combined)}",
                f"У лечения «{cond.data['name_ru']}» нет условия {a.condition!r}",
                "A-S-24",
            )
        combined[a.condition] = True
        combined_progress(ctx, ch.id, cond.data["id"], combined)

    class TreatSkinLayer(BaseModel):
        healer: str = Field(description="who applies the acid")
        patient: str = Field(description="whose extra skin")

    @rs.action(
        "treat-skin-layer",
        TreatSkinLayer,
        summary=("Remove the extra skin layer with acid", "Снять лишний слой кожи кислотой"),
        rule_ids=("S-MUTT-03",),
    )
    def treat_skin_layer(ctx: ActionContext, a: TreatSkinLayer) -> None:
        ch = ctx.character(a.patient)
        cond = trauma_condition(ch, "skin_layer")
        tid = cond.data["id"]
        for t in ctx.state.timers_for(ch.id, SKIN_FESTERS):
            if t.payload.get("trauma") == tid:
                ctx.cancel(t.id, ("S-MUTT-03",))
        remove_condition(ctx, ch.id, "trauma", ("S-MUTT-03",), cid=tid)

    @rs.on_timer(SKIN_FESTERS)
    def skin_festers(ctx: ActionContext, t: Timer) -> None:
        ch = ctx.character(t.subject)
        tid = t.payload["trauma"]
        if not ch.alive or not any(c.data.get("id") == tid for c in ch.conditions):
            return
        remove_condition(ctx, ch.id, "trauma", ("S-MUTT-03",), cid=tid)
        add_trauma(ctx, ch.id, "festering_wound", ("S-MUTT-03", "A-S-25"), source="skin_layer")

    class TreatmentPlan(BaseModel):
        patient: str = Field(description="whose trauma")
        trauma: str = Field(description="the trauma id or catalogue key")

    @rs.query(
        "treatment-plan",
        TreatmentPlan,
        summary=("How a trauma can be treated, and progress", "Как лечить травму и ход лечения"),
        rule_ids=("S-HEAL-05", "S-PHEAL-01", "S-MHEAL-01", "A-S-02"),
    )
    def treatment_plan(ctx: QueryContext, a: TreatmentPlan) -> dict[str, Any]:
        p = params(ctx)
        ch = ctx.character(a.patient)
        cond = trauma_condition(ch, a.trauma)
        kind = traumas()[cond.data["key"]]
        construct = flag(ch, "is_construct")
        methods: dict[str, Any] = {}
        for method in ("physical", "physical_alt", "magical"):
            row = treatment_for(p, kind, method, construct)
            if row is None:
                continue
            tr = next(
                (
                    t
                    for t in fstate(ctx).treatments.values()
                    if t.trauma == cond.data["id"] and t.method == method and not t.done
                ),
                None,
            )
            methods[method] = {
                "rule": row.rule,
                "plan": describe_row(p, row, ctx.lang),
                "progress": None if tr is None else progress(row, {}, tr, p),
                "roll_due": None if tr is None else tr.roll_due.isoformat(),
            }
        name = kind.ru if ctx.lang == "ru" else kind.en
        text = "; ".join(
            f"{ctx.ruleset.text(f'method:{m}', ctx.lang) or m}: {v['plan']}"
            for m, v in methods.items()
        )
        return {"summary": f"{name}: {text}", "methods": methods}
