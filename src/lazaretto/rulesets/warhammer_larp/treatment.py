"""Treating wounds (лечение ранений): checklist-000 §2.3–§2.4, §3.2–§3.3, W-HOSP-16.

* Light wound: lie on a bed or a mat, one bandage per lost hit, 10 minutes lying.
* Heavy wound: an operation on a hospital table (one stitch per lost hit, one stitch per
  plaster), then 20 minutes on a bed.
Getting up before the time is over means no cure (W-TRT-03).
"""

from __future__ import annotations

from datetime import timedelta
from typing import NoReturn

from pydantic import BaseModel, Field

from lazaretto.core.character import Character
from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import NotFound
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.warhammer_larp import checks
from lazaretto.rulesets.warhammer_larp.checks import FIELD, params, refuse, state, wound_state
from lazaretto.rulesets.warhammer_larp.wounds import (
    STAFF,
    TREATMENT_DONE,
    _interrupt,
    cure,
    stabilise,
)


class Stitch(BaseModel):
    """One stitch on its own piece of plaster (W-TRT-08..10)."""

    location: str = Field("", max_length=80)
    fold_length_cm: float | None = Field(None, ge=0, le=100)
    fold_height_cm: float | None = Field(None, ge=0, le=100)


def register(rs: Ruleset) -> None:
    """Declare the treatment actions and timers on ``rs``."""

    class TreatLightWound(BaseModel):
        healer: str = Field(description="who treats (may be the patient: W-HEAL-09)")
        patient: str = Field(description="the light-wounded character")
        bandages: int = Field(ge=1, le=100, description="bandages applied, one per lost hit")
        place: str = Field(FIELD, description="'field' or a hospital id")
        mat: str | None = Field(None, description="field mat (in the field)")
        bed: str | None = Field(None, description="bed id (in a hospital)")

    @rs.action(
        "treat-light-wound",
        TreatLightWound,
        roles=STAFF,
        summary=(
            "Treat a light wound: bandages, then 10 minutes lying",
            "Лечить лёгкое ранение: повязки и 10 минут лёжа",
        ),
        rule_ids=("W-TRT-01", "W-TRT-02", "W-TRT-03", "W-HEAL-09"),
    )
    def treat_light(ctx: ActionContext, a: TreatLightWound) -> None:
        healer, patient = ctx.character(a.healer), ctx.character(a.patient)
        p = params(ctx)
        checks.require_wounded(patient)
        checks.require_healer(ctx, healer)
        if wound_state(patient) != "light":
            refuse(
                f"{patient.name} is heavily wounded: that needs an operation in a hospital",
                f"{patient.name} тяжело ранен: нужна операция в госпитале",
                "W-TRT-05",
                "W-HEAL-05",
                "W-HEAL-11",
            )
        if patient.has("treatment"):
            refuse(
                f"{patient.name} is already being treated",
                f"{patient.name} уже лечится",
                "W-TRT-03",
            )
        _no_disease_course(patient)
        if a.place == FIELD:
            checks.require_free_mat(ctx, a.mat, patient.id, ("W-TRT-01", "W-HEAL-06", "W-HEAL-09"))
            where = {"hospital": None, "bed": None, "mat": a.mat}
        else:
            h = checks.hospital(ctx, a.place)
            if not a.bed:
                refuse(
                    "In a hospital the patient lies on a bed",
                    "В госпитале пациент лежит на лежаке",
                    "W-TRT-01",
                    tip="Give --bed.",
                    tip_ru="Укажите --bed.",
                )
            checks.require_free_bed(ctx, h, a.bed, patient.id)
            where = {"hospital": h.id, "bed": a.bed, "mat": None}
        need = checks.lost_hits(patient) * p.bandages_per_lost_hit
        if a.bandages != need:
            refuse(
                f"{patient.name} lost {checks.lost_hits(patient)} hits: exactly {need} bandages "
                f"are needed, not {a.bandages}",
                f"{patient.name} потерял "
                f"{checks.lost_hits(patient)} хит(ов): нужно ровно {need} повязок, а не "
                f"{a.bandages}",
                "W-TRT-02",
            )
        if not _bandaged_all(patient):
            stabilise(ctx, patient.id, healer.id, a.bandages, healer.id == patient.id)
        t = ctx.schedule(
            TREATMENT_DONE,
            timedelta(minutes=p.light_treatment_rest_minutes),
            patient.id,
            {"kind": "light"},
            ("W-TRT-03",),
        )
        ctx.emit(
            "treatment.started",
            {
                "character": patient.id,
                "kind": "light",
                "healer": healer.id,
                "deadline": t.deadline.isoformat(),
                **where,
            },
            ("W-TRT-01", "W-TRT-02", "W-TRT-03"),
        )

    class GetUp(BaseModel):
        patient: str = Field(description="who leaves the bed, mat or table")

    @rs.action(
        "get-up",
        GetUp,
        summary=(
            "A patient gets up before the treatment is over",
            "Пациент встал до конца лечения",
        ),
        rule_ids=("W-TRT-03", "W-TRT-13"),
    )
    def get_up(ctx: ActionContext, a: GetUp) -> None:
        ch = ctx.character(a.patient)
        checks.require_alive(ch)
        if ch.has("disease_course"):  # W-DTRT-07: the whole course is spent on the bed
            from lazaretto.rulesets.warhammer_larp.courses import interrupt_course

            interrupt_course(ctx, ch.id, "got_up")
            return
        if not (ch.has("treatment") or ch.has("on_table")):
            refuse(f"{ch.name} is not being treated", f"{ch.name} не лечится", "W-TRT-03")
        _interrupt(ctx, ch.id, "got_up")

    class StartOperation(BaseModel):
        healer: str = Field(description="the operating healer")
        patient: str = Field(description="the heavy-wounded character")
        hospital: str = Field(description="hospital id ('field' is refused: W-TRT-06)")
        table: str = Field(description="operating table id")

    @rs.action(
        "start-operation",
        StartOperation,
        roles=STAFF,
        summary=(
            "Put a heavy-wounded patient on an operating table",
            "Положить тяжелораненого на операционный стол",
        ),
        rule_ids=("W-TRT-05", "W-TRT-06", "W-HOSP-13", "W-HEAL-11"),
    )
    def start_operation(ctx: ActionContext, a: StartOperation) -> None:
        healer, patient = ctx.character(a.healer), ctx.character(a.patient)
        checks.require_wounded(patient)
        if a.hospital == FIELD:
            refuse(
                "An operation can only be done in a hospital, on an operating table",
                "Операция проводится только в госпитале, на операционном столе",
                "W-TRT-06",
                "W-HEAL-05",
                tip="Bandage the patient and bring them to a hospital.",
                tip_ru="Перевяжите пациента и доставьте в госпиталь.",
            )
        if healer.id == patient.id:
            refuse(
                f"{healer.name} cannot operate on themself or treat their own heavy wound",
                f"{healer.name} не может оперировать себя и лечить своё тяжёлое ранение",
                "W-HEAL-11",
                tip="Another healer is needed.",
                tip_ru="Нужен другой лекарь.",
            )
        checks.require_healer(ctx, healer)
        if not patient.has("heavy_wound"):
            refuse(
                f"{patient.name} has a light wound: it is treated with bandages, not surgery",
                f"У {patient.name} лёгкое ранение: его лечат повязками, не операцией",
                "W-TRT-05",
                tip="Use `treat-light-wound`.",
                tip_ru="`treat-light-wound`.",
            )
        if patient.has("treatment") or patient.has("on_table"):
            refuse(
                f"{patient.name} is already being treated",
                f"{patient.name} уже лечится",
                "W-TRT-05",
            )
        _no_disease_course(patient)
        h = checks.hospital(ctx, a.hospital)
        table = h.tables.get(a.table)
        if table is None:
            raise_not_found(h.name, a.table)
        if table.occupant is not None:
            refuse(
                f"Operating table {a.table} of {h.name} is taken by {table.occupant}",
                f"Операционный стол {a.table} госпиталя {h.name} занят ({table.occupant})",
                "W-HOSP-13",
                "W-DTRT-11",
                tip="Wait for it or use another table.",
                tip_ru="Дождитесь или используйте другой стол.",
            )
        ctx.emit(
            "operation.started",
            {"character": patient.id, "healer": healer.id, "hospital": h.id, "table": a.table},
            ("W-TRT-05", "W-TRT-06", "W-HOSP-13", "W-HEAL-12"),
        )

    class FinishOperation(BaseModel):
        patient: str = Field(description="the patient on the table")
        stitches: list[Stitch] = Field(
            min_length=1, max_length=100, description="one per lost hit, each on its own plaster"
        )
        bed: str = Field(
            description="the bed the patient is moved to (the table itself: W-HOSP-14)"
        )
        plasters: int | None = Field(
            None, ge=1, le=100, description="pieces of plaster used (default: one per stitch)"
        )

    @rs.action(
        "finish-operation",
        FinishOperation,
        roles=STAFF,
        summary=(
            "Finish an operation: stitches, then 20 minutes in bed",
            "Завершить операцию: швы и 20 минут на лежаке",
        ),
        rule_ids=("W-TRT-09", "W-TRT-10", "W-TRT-11", "W-TRT-12", "W-TRT-13"),
    )
    def finish_operation(ctx: ActionContext, a: FinishOperation) -> None:
        patient = ctx.character(a.patient)
        checks.require_alive(patient)
        p = params(ctx)
        op = patient.condition("on_table")
        if op is None:
            refuse(
                f"{patient.name} is not on an operating table",
                f"{patient.name} не на столе",
                "W-TRT-06",
                tip="Start with `start-operation`.",
                tip_ru="`start-operation`.",
            )
        need = checks.lost_hits(patient) * p.stitches_per_lost_hit
        if len(a.stitches) != need:
            refuse(
                f"{patient.name} lost {checks.lost_hits(patient)} hits: {need} stitches are "
                f"needed, not {len(a.stitches)}",
                f"{patient.name} потерял "
                f"{checks.lost_hits(patient)} хит(ов): нужно швов — {need}, а не "
                f"{len(a.stitches)}",
                "W-TRT-11",
            )
        plasters = a.plasters if a.plasters is not None else len(a.stitches)
        if len(a.stitches) > plasters * p.stitches_per_plaster_max:
            refuse(
                f"{len(a.stitches)} stitches on {plasters} pieces of plaster: each piece may "
                f"carry only {p.stitches_per_plaster_max}",
                f"{len(a.stitches)} швов на "
                f"{plasters} кусках пластыря: на куске — не больше "
                f"{p.stitches_per_plaster_max}",
                "W-TRT-10",
            )
        for s in a.stitches:
            if (
                s.fold_length_cm is not None and s.fold_length_cm < p.plaster_fold_min_length_cm
            ) or (s.fold_height_cm is not None and s.fold_height_cm < p.plaster_fold_min_height_cm):
                refuse(
                    f"A plaster fold must be at least {p.plaster_fold_min_length_cm:g} cm long "
                    f"and {p.plaster_fold_min_height_cm:g} cm high",
                    f"Складка пластыря — не менее {p.plaster_fold_min_length_cm:g} см в длину и "
                    f"{p.plaster_fold_min_height_cm:g} см от кожи",
                    "W-TRT-09",
                )
        h = checks.hospital(ctx, op.data["hospital"])
        if a.bed != op.data["table"]:
            checks.require_free_bed(ctx, h, a.bed, patient.id)
        healer = op.data["healer"]
        ctx.emit(
            "operation.finished",
            {
                "character": patient.id,
                "hospital": h.id,
                "table": op.data["table"],
                "healer": healer,
                "stitches": [s.model_dump() for s in a.stitches],
            },
            ("W-TRT-10", "W-TRT-11"),
        )
        if not patient.condition("heavy_wound") or not _bandaged_all(patient):
            stabilise(ctx, patient.id, healer, len(a.stitches), False)
        t = ctx.schedule(
            TREATMENT_DONE,
            timedelta(minutes=p.heavy_post_op_rest_minutes),
            patient.id,
            {"kind": "post_op"},
            ("W-TRT-13",),
        )
        ctx.emit(
            "treatment.started",
            {
                "character": patient.id,
                "kind": "post_op",
                "healer": healer,
                "deadline": t.deadline.isoformat(),
                "hospital": h.id,
                "bed": a.bed,
                "mat": None,
            },
            ("W-TRT-12", "W-TRT-13", "W-HOSP-14"),
        )

    @rs.on_timer(TREATMENT_DONE)
    def treatment_done(ctx: ActionContext, t: Timer) -> None:
        ch = ctx.character(t.subject)
        cond = ch.condition("treatment")
        if cond is None:
            return
        h_id, bed = cond.data.get("hospital"), cond.data.get("bed")
        if h_id and bed and state(ctx).raining:
            place = state(ctx).hospitals[h_id].place(bed)
            if place is not None and place.on_ground:  # W-HOSP-16: not fully treated
                _interrupt(ctx, ch.id, "ground_bed_in_rain")
                return
        rule = "W-TRT-04" if t.payload.get("kind") == "light" else "W-TRT-14"
        cure(ctx, ch.id, f"treatment:{t.payload.get('kind')}", (rule,))

    class MovePatient(BaseModel):
        patient: str = Field(description="the patient in treatment")
        bed: str = Field(description="the bed to move to (same hospital)")

    @rs.action(
        "move-patient",
        MovePatient,
        roles=STAFF,
        summary=(
            "Move a patient to another bed (e.g. out of the rain)",
            "Перенести пациента на другой лежак (например, от дождя)",
        ),
        rule_ids=("W-HOSP-16", "A-W-14"),
    )
    def move_patient(ctx: ActionContext, a: MovePatient) -> None:
        ch = ctx.character(a.patient)
        checks.require_alive(ch)
        cond = ch.condition("treatment")
        if cond is None or not cond.data.get("hospital"):
            refuse(
                f"{ch.name} is not in hospital treatment",
                f"{ch.name} не лечится в госпитале",
                "W-HOSP-16",
            )
        h = checks.hospital(ctx, cond.data["hospital"])
        checks.require_free_bed(ctx, h, a.bed, ch.id)
        ctx.emit(
            "patient.moved", {"character": ch.id, "hospital": h.id, "bed": a.bed}, ("W-HOSP-16",)
        )
        if not params(ctx).rain_move_keeps_progress:  # A-W-14: the treatment starts again
            for old in ctx.state.timers_for(ch.id, TREATMENT_DONE):
                ctx.cancel(old.id, ("A-W-14",))
                nt = ctx.schedule(
                    TREATMENT_DONE, old.deadline - cond.started, ch.id, old.payload, ("A-W-14",)
                )
                ctx.emit(
                    "treatment.rescheduled",
                    {
                        "character": ch.id,
                        "started": ctx.now.isoformat(),
                        "deadline": nt.deadline.isoformat(),
                    },
                    ("A-W-14",),
                )

    class Weather(BaseModel):
        raining: bool = Field(description="true when rain starts, false when it stops")

    @rs.action(
        "set-weather",
        Weather,
        roles=frozenset({Role.MASTER}),
        summary=(
            "Rain starts or stops (beds on the ground stop counting)",
            "Начался или кончился дождь (лежаки на земле недействительны)",
        ),
        rule_ids=("W-HOSP-16",),
    )
    def set_weather(ctx: ActionContext, a: Weather) -> None:
        ctx.emit("weather.changed", {"raining": a.raining}, ("W-HOSP-16",))


def raise_not_found(hospital: str, table: str) -> NoReturn:
    raise NotFound(
        f"Hospital {hospital} has no operating table {table!r}",
        ru=f"В госпитале {hospital} нет операционного стола {table!r}",
    )


def _bandaged_all(ch: Character) -> bool:
    return any(
        c.data.get("bandaged") for c in ch.conditions if c.kind in ("light_wound", "heavy_wound")
    )


def _no_disease_course(patient: Character) -> None:
    """W-DTRT-19: wound treatment and a disease or poison course never run together."""
    if patient.has("disease_course"):
        refuse(
            f"{patient.name} is in a disease course: wound treatment cannot be combined with it",
            f"{patient.name} проходит курс лечения болезни: совмещать с лечением ранений нельзя",
            "W-DTRT-19",
            "A-W-17",
            tip="Bandage now; treat the wound after the course.",
            tip_ru="Перевяжите сейчас, лечите ранение после курса.",
        )
