"""A healer's treatment of lost hits and operations (лечение, операция): Z-TRT, A-Z-13/14.

* Some hits lost: a light bandage and healing broth, then 15 minutes' rest, and all hits
  are back (Z-TRT-01..06).
* 0 hits: an operation, ordinary or radical (the radical measure gives a trauma but the
  patient does not die), then 25 minutes' rest with healing broth (Z-TRT-07..10).
Getting up before the rest is over means no recovery.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import Conflict
from lazaretto.core.ruleset import ALL_ROLES, Role, Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.zone_larp import checks
from lazaretto.rulesets.zone_larp.checks import params, refuse
from lazaretto.rulesets.zone_larp.state import HEAVY, LIGHT, ON_TABLE, TREATMENT
from lazaretto.rulesets.zone_larp.traumas import add_trauma, refuse_over_cap, room_for_trauma
from lazaretto.rulesets.zone_larp.wounds import (
    HEAVY_WAIT,
    KIT_WINDOW,
    TREATMENT_DONE,
    become_heavy,
    clinical_death,
    interrupt,
    recover,
    stop_death_timer,
)

STAFF = frozenset({Role.MASTER, Role.HEALER})


def _no_healer_model(ctx: ActionContext) -> None:
    if params(ctx).wound_model == "light_heavy_only":
        refuse(
            "The light/heavy-only wound model has no healer treatment or operation",
            "В модели «лёгкое/тяжёлое ранение» лечения лекарем и операций нет",
            "A-Z-01",
            tip="A first-aid kit (`apply-kit`) or the Hospital.",
            tip_ru="Аптечка (`apply-kit`) или Госпиталь.",
        )


def register(rs: Ruleset) -> None:
    """Declare the treatment actions and their countdown."""

    class TreatWounds(BaseModel):
        healer: str = Field(description="the healer (лекарь)")
        patient: str = Field(description="the character who lost some hits")
        bandage: bool = Field(True, description="a light bandage is put on")
        broth: bool = Field(True, description="the patient drinks healing broth")

    @rs.action(
        "treat-wounds",
        TreatWounds,
        roles=STAFF,
        summary=(
            "Bandage and healing broth, then 15 minutes' rest: all hits back",
            "Перевязка и целебный отвар, затем 15 минут отдыха: все хиты",
        ),
        rule_ids=("Z-TRT-01", "Z-TRT-02", "Z-TRT-03", "Z-TRT-04", "Z-TRT-06"),
    )
    def treat_wounds(ctx: ActionContext, a: TreatWounds) -> None:
        p = params(ctx)
        healer, patient = ctx.character(a.healer), ctx.character(a.patient)
        checks.require_in_game(patient)
        checks.require_not_in_hospital(patient)
        _no_healer_model(ctx)
        if patient.has(HEAVY) or patient.has(ON_TABLE) or patient.hits == 0:
            refuse(
                f"{patient.name} has lost all hits: an operation is needed",
                f"{patient.name} потерял все хиты: нужна операция",
                "Z-TRT-07",
                tip="Use `start-operation`.",
                tip_ru="`start-operation`.",
            )
        if patient.hits >= patient.hits_max:
            refuse(
                f"{patient.name} has lost no hits",
                f"{patient.name} не терял хитов",
                "Z-TRT-02",
            )
        if patient.has(TREATMENT):
            raise Conflict(f"{patient.name} is already resting", ru=f"{patient.name} уже отдыхает")
        if not (a.bandage and a.broth):
            refuse(
                "Treatment needs both a light bandage and healing broth",
                "Для лечения нужны и лёгкая перевязка, и целебный отвар",
                "Z-TRT-03",
            )
        checks.require_healer(healer, p)
        light = patient.condition(LIGHT)
        if light is not None and not light.data.get("kit"):
            # A healer's help is the medical intervention the kit window waits for (A-Z-06)
            ctx.cancel_all(patient.id, KIT_WINDOW, rule_ids=("A-Z-06",))
            ctx.emit("wound.kit_applied", {"character": patient.id, "by": healer.id}, ("A-Z-06",))
        t = ctx.schedule(
            TREATMENT_DONE,
            timedelta(minutes=p.heal_rest_minutes),
            patient.id,
            rule_ids=("Z-TRT-04", "Z-TRT-06"),
        )
        ctx.emit(
            "treatment.started",
            {
                "character": patient.id,
                "healer": healer.id,
                "kind": "heal",
                "deadline": t.deadline.isoformat(),
            },
            ("Z-TRT-01", "Z-TRT-02", "Z-TRT-03", "Z-TRT-04"),
        )

    class CareForPatient(BaseModel):
        healer: str = Field(description="the healer")
        patient: str = Field(description="the resting patient")

    @rs.action(
        "care-for-patient",
        CareForPatient,
        roles=STAFF,
        summary=(
            "During the rest: change the bandage, wipe the forehead",
            "Во время отдыха: сменить повязку, обтереть лоб",
        ),
        rule_ids=("Z-TRT-05",),
    )
    def care(ctx: ActionContext, a: CareForPatient) -> None:
        patient = ctx.character(a.patient)
        if not patient.has(TREATMENT):
            refuse(f"{patient.name} is not resting", f"{patient.name} не отдыхает", "Z-TRT-05")
        ctx.emit("treatment.cared", {"character": patient.id, "healer": a.healer}, ("Z-TRT-05",))

    class GetUp(BaseModel):
        patient: str = Field(description="who gets up before the rest is over")

    @rs.action(
        "get-up",
        GetUp,
        roles=ALL_ROLES,
        summary=("A patient gets up before the rest is over", "Пациент встал до конца отдыха"),
        rule_ids=("Z-TRT-04", "Z-TRT-10"),
    )
    def get_up(ctx: ActionContext, a: GetUp) -> None:
        patient = ctx.character(a.patient)
        cond = patient.condition(TREATMENT)
        if cond is None and not patient.has(ON_TABLE):
            refuse(f"{patient.name} is not resting", f"{patient.name} не отдыхает", "Z-TRT-04")
        interrupt(ctx, patient.id, "got_up")
        if cond is None or cond.data.get("kind") == "post_op":  # still at 0 hits
            become_heavy(ctx, patient.id, "left_rest", ("Z-TRT-10",))

    class StartOperation(BaseModel):
        healer: str = Field(description="the operating healer")
        patient: str = Field(description="the character at 0 hits")
        measure: Literal["ordinary", "radical"] = Field(
            description="the patient's choice: ordinary operation or radical measure (a trauma)"
        )
        place: Literal["field", "hospital"] = Field(
            "field", description="where the operation happens"
        )

    @rs.action(
        "start-operation",
        StartOperation,
        roles=STAFF,
        summary=(
            "Operate on a character at 0 hits (ordinary or radical)",
            "Операция при нуле хитов (обычная или радикальная)",
        ),
        rule_ids=("Z-TRT-07", "Z-TRT-08", "A-Z-14", "A-Z-15"),
    )
    def start_operation(ctx: ActionContext, a: StartOperation) -> None:
        p = params(ctx)
        healer, patient = ctx.character(a.healer), ctx.character(a.patient)
        checks.require_in_game(patient)
        checks.require_not_in_hospital(patient)
        _no_healer_model(ctx)
        if patient.has(ON_TABLE):
            raise Conflict(
                f"{patient.name} is already being operated on",
                ru=f"{patient.name} уже на операции",
            )
        if not patient.has(HEAVY):
            refuse(
                f"{patient.name} still has hits: an operation is only for 0 hits",
                f"У {patient.name} ещё есть хиты: операция — только при нуле хитов",
                "Z-TRT-07",
                "Z-TRT-02",
                tip="Use `treat-wounds`.",
                tip_ru="`treat-wounds`.",
            )
        if p.operation_location == "hospital" and a.place != "hospital":
            refuse(
                "Operations are done only in the Hospital in this campaign",
                "В этой кампании операции делают только в Госпитале",
                "A-Z-14",
            )
        if a.measure == "radical":
            refuse_over_cap(patient, p)
            if not room_for_trauma(patient, p):
                refuse(
                    f"{patient.name} has no card field left for a trauma",
                    f"У {patient.name} не осталось полей для травмы",
                    "A-Z-15",
                    "Z-TRAUMA-01",
                )
        checks.require_healer(healer, p)
        stopped = stop_death_timer(ctx, patient.id, "operation_start")
        ctx.cancel_all(patient.id, HEAVY_WAIT)
        ctx.emit(
            "operation.started",
            {
                "character": patient.id,
                "healer": healer.id,
                "measure": a.measure,
                "place": a.place,
                "death_timer_stopped": stopped,
            },
            ("Z-TRT-07", "Z-TRT-08"),
        )

    class FinishOperation(BaseModel):
        healer: str = Field(description="the operating healer")
        patient: str = Field(description="the patient on the table")
        broth: bool = Field(True, description="the patient is given healing broth")
        trauma_type: Literal["physical", "mental"] = Field(
            "physical", description="the trauma of a radical measure"
        )
        consequences: str = Field("", max_length=500, description="the trauma's consequences")

    @rs.action(
        "finish-operation",
        FinishOperation,
        roles=STAFF,
        summary=(
            "End the operation: broth, then 25 minutes' rest",
            "Конец операции: целебный отвар, затем 25 минут отдыха",
        ),
        rule_ids=("Z-TRT-09", "Z-TRT-10", "A-Z-14"),
    )
    def finish_operation(ctx: ActionContext, a: FinishOperation) -> None:
        p = params(ctx)
        patient = ctx.character(a.patient)
        table = patient.condition(ON_TABLE)
        if table is None:
            refuse(
                f"{patient.name} is not being operated on",
                f"{patient.name} не на операции",
                "Z-TRT-07",
            )
        if not a.broth:
            refuse(
                "After an operation the patient must be given healing broth",
                "После операции пациента нужно напоить целебным отваром",
                "Z-TRT-10",
            )
        measure = table.data["measure"]
        chance = p.ordinary_operation_death_chance
        if measure == "ordinary" and chance > 0:
            r = ctx.roll("1d100")
            if r.total <= chance:  # A-Z-14: the ordinary operation may fail
                ctx.emit(
                    "operation.finished",
                    {"character": patient.id, "measure": measure, "outcome": "died"},
                    ("A-Z-14", "Z-TRT-09"),
                )
                clinical_death(ctx, patient.id, "operation", True, ("A-Z-14",))
                return
        if measure == "radical":  # Z-TRT-09: a trauma, but no death
            add_trauma(
                ctx, patient.id, a.trauma_type, "radical_measure", a.consequences, ("Z-TRT-09",)
            )
        ctx.emit(
            "operation.finished",
            {"character": patient.id, "measure": measure, "outcome": "survived"},
            ("Z-TRT-08", "Z-TRT-09") if measure == "radical" else ("Z-TRT-08",),
        )
        t = ctx.schedule(
            TREATMENT_DONE,
            timedelta(minutes=p.post_operation_rest_minutes),
            patient.id,
            rule_ids=("Z-TRT-10",),
        )
        ctx.emit(
            "treatment.started",
            {
                "character": patient.id,
                "healer": a.healer,
                "kind": "post_op",
                "deadline": t.deadline.isoformat(),
            },
            ("Z-TRT-10",),
        )

    @rs.on_timer(TREATMENT_DONE)
    def rest_over(ctx: ActionContext, t: Timer) -> None:
        cond = ctx.character(t.subject).condition(TREATMENT)
        if cond is None:
            return
        if cond.data["kind"] == "heal":
            if params(ctx).heal_step2_required and not cond.data.get("cared"):
                ctx.emit(
                    "treatment.interrupted",
                    {"character": t.subject, "reason": "step2_missing"},
                    ("Z-TRT-05", "A-Z-13"),
                )
                return
            recover(ctx, t.subject, "heal", ("Z-TRT-01", "Z-TRT-06"))
        else:
            recover(ctx, t.subject, "post_op", ("Z-TRT-10",))
