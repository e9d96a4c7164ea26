"""Courses of treatment (курс лечения) of diseases and poisons: checklist-000 §5.3.2–§5.3.9.

A course lasts 40 minutes on a hospital bed (W-DTRT-06/07) and has 6 items — medical
actions and medications (W-DTRT-08..16); a medication may take 20 minutes off
(W-DTRT-15; A-W-15). Several courses run at once, each in full (W-DTRT-17/18; A-W-16),
never beside wound treatment (W-DTRT-19; A-W-17). It ends at the later of its time and its
last item; the cure is written on the sticker (W-DTRT-20). A study's experimental course
(``study.py``) uses the same bed-bound condition.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, Field

from lazaretto.core.character import Character, Condition
from lazaretto.core.engine import ActionContext
from lazaretto.core.events import Event
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.warhammer_larp import checks
from lazaretto.rulesets.warhammer_larp.checks import FIELD, params, refuse, state
from lazaretto.rulesets.warhammer_larp.diseases import (
    cure_disease,
    disease,
    ill_with,
    pause_countdowns,
    resume_countdowns,
)
from lazaretto.rulesets.warhammer_larp.epidemics import check_after_cure
from lazaretto.rulesets.warhammer_larp.journal import add_entry, record_outcome
from lazaretto.rulesets.warhammer_larp.occupancy import bed_spot, seat, unseat
from lazaretto.rulesets.warhammer_larp.state import REDUCERS, Admission, Hospital, WarhammerState
from lazaretto.rulesets.warhammer_larp.values import COURSE_UNTIL
from lazaretto.rulesets.warhammer_larp.wounds import STAFF

COURSE_DONE = "disease_course_done"
COURSE = "disease_course"


@REDUCERS.on("disease_course.started")
def _started(st: WarhammerState, ev: Event) -> None:
    p = ev.payload
    ch = st.characters[p["character"]]
    ch.put(
        Condition(
            kind=COURSE,
            started=ev.at,
            deadline=datetime.fromisoformat(p["deadline"]),
            source=p["healer"],
            data={
                k: p.get(k)
                for k in ("kind", "hospital", "bed", "healer", "courses", "paused", "study")
            },
        )
    )
    spot = bed_spot(st.hospitals[p["hospital"]], p["bed"])
    if spot is not None:
        seat(st, spot, ch.id)


@REDUCERS.on("disease_course.item_done")
def _item(st: WarhammerState, ev: Event) -> None:
    p = ev.payload
    cond = st.characters[p["character"]].condition(COURSE)
    if cond is not None:
        course = cond.data["courses"][p["disease"]]
        if p.get("reduction"):
            course["reduced"] += 1
        else:
            course["done"].append(p["item"])


@REDUCERS.on("disease_course.rescheduled")
def _rescheduled(st: WarhammerState, ev: Event) -> None:
    cond = st.characters[ev.payload["character"]].condition(COURSE)
    if cond is not None:
        cond.deadline = datetime.fromisoformat(ev.payload["deadline"])


@REDUCERS.on("disease_course.overdue")
def _marked_overdue(st: WarhammerState, ev: Event) -> None:
    cond = st.characters[ev.payload["character"]].condition(COURSE)
    if cond is not None:
        cond.data["overdue"] = True


@REDUCERS.on("disease_course.ended")
def _ended(st: WarhammerState, ev: Event) -> None:
    ch = st.characters[ev.payload["character"]]
    cond = ch.condition(COURSE)
    if cond is not None:
        h = st.hospitals.get(cond.data["hospital"])
        spot = bed_spot(h, cond.data["bed"]) if h else None
        if spot is not None:
            unseat(st, spot, ch.id)
    ch.drop(COURSE)


def missing_items(cond: Condition) -> dict[str, list[str]]:
    """Items of each running course still to do (W-DTRT-18: overlaps are repeated)."""
    out: dict[str, list[str]] = {}
    for code, c in cond.data["courses"].items():
        left = Counter(c["required"]) - Counter(c["done"])
        if left:
            out[code] = sorted(left.elements())
    return out


def course_minutes(ctx: ActionContext, courses: dict[str, Any]) -> float:
    """The running time of parallel courses (A-W-15 reductions, A-W-16 max or sum)."""
    p = params(ctx)
    each = [
        max(0, p.disease_course_minutes - c["reduced"] * p.medication_reduction_minutes)
        for c in courses.values()
    ]
    return float(max(each) if p.parallel_courses_time == "max" else sum(each))


def end_course(
    ctx: ActionContext, ch_id: str, outcome: str, reason: str, rules: tuple[str, ...]
) -> None:
    """Close the running course; paused lethal countdowns go on (A-W-18)."""
    ctx.cancel_all(ch_id, COURSE_DONE)
    resume_countdowns(ctx, ch_id)
    ctx.emit(
        "disease_course.ended", {"character": ch_id, "outcome": outcome, "reason": reason}, rules
    )


def interrupt_course(ctx: ActionContext, ch_id: str, reason: str) -> None:
    """The patient left the bed: no cure (W-DTRT-07)."""
    end_course(ctx, ch_id, "interrupted", reason, ("W-DTRT-07",))


def _complete(ctx: ActionContext, ch: Character, cond: Condition) -> None:
    codes = list(cond.data["courses"])
    h, healer = cond.data["hospital"], cond.data["healer"]
    for code in codes:
        cure_disease(ctx, ch.id, code, "hospital", ("W-DTRT-20",), hospital=h, healer=healer)
    end_course(ctx, ch.id, "completed", "", ("W-DTRT-06", "W-DTRT-18"))
    hospital = state(ctx).hospitals[h]
    record_outcome(
        ctx,
        ch.id,
        "recovered",
        ("W-DTRT-20", "W-EPI-09"),
        diseases=codes,
        hospital_number=hospital.number,
        healer=healer,
    )
    for code in codes:
        check_after_cure(ctx, code, h)


def _maybe_complete(ctx: ActionContext, ch: Character) -> None:
    """A-W-15: the course ends at the later of its time and its last item."""
    cond = ch.condition(COURSE)
    if cond is None or cond.data.get("kind") != "course" or cond.deadline is None:
        return
    if ctx.now >= cond.deadline and not missing_items(cond):
        _complete(ctx, ch, cond)


def admission(ctx: ActionContext, h: Hospital, patient: Character) -> Admission:
    """``patient``'s admission to ``h`` (W-HOSP-04)."""
    adm = state(ctx).admissions.get(patient.id)
    if adm is None or adm.hospital != h.id:
        refuse(
            f"{patient.name} is not admitted to {h.name}",
            f"{patient.name} не записан в журнал {h.name}",
            "W-HOSP-04",
            tip="Use `admit` first.",
            tip_ru="Сначала `admit`.",
        )
    return adm


def in_hospital(
    ctx: ActionContext, hospital: str, healer: Character, patient: Character
) -> Hospital:
    """Disease treatment needs a hospital (W-HEAL-05, W-DTRT-01), a healer who is not the
    patient (W-HEAL-11)."""
    if hospital == FIELD:
        refuse(
            "Diseases and poisons are treated only in a hospital",
            "Болезни и яды лечат только в госпитале",
            "W-HEAL-05",
            "W-DTRT-01",
            "W-HEAL-12",
        )
    if healer.id == patient.id:
        refuse(
            f"{healer.name} cannot treat their own diseases or poisons",
            f"{healer.name} не может лечить свои болезни и яды",
            "W-HEAL-11",
            tip="Another healer is needed.",
            tip_ru="Нужен другой лекарь.",
        )
    checks.require_alive(patient)
    checks.require_healer(ctx, healer)
    return checks.hospital(ctx, hospital)


def knows(healer: Character, code: str) -> bool:
    """A healer knows a disease when its description is in their book (A-W-34)."""
    return code in healer.data.get("book", {})


def register(rs: Ruleset) -> None:
    """Declare ``start-disease-course``, ``course-item`` and the course timer."""

    class StartCourse(BaseModel):
        hospital: str
        patient: str
        healer: str
        bed: str = Field(description="the bed the patient lies on for the whole course")
        diseases: list[str] = Field(
            min_length=1, max_length=10, description="diagnosed diseases treated together"
        )

    @rs.action(
        "start-disease-course",
        StartCourse,
        roles=STAFF,
        summary=(
            "Start the course(s) of treatment: 40 minutes on a bed",
            "Начать курс лечения: 40 минут на лежаке",
        ),
        rule_ids=("W-DTRT-06", "W-DTRT-07", "W-DTRT-17", "W-DTRT-19", "A-W-16"),
    )
    def start(ctx: ActionContext, a: StartCourse) -> None:
        p = params(ctx)
        healer, patient = ctx.character(a.healer), ctx.character(a.patient)
        h = in_hospital(ctx, a.hospital, healer, patient)
        adm = admission(ctx, h, patient)
        if patient.has("treatment") or patient.has("on_table"):
            refuse(
                f"{patient.name} is in wound treatment: it cannot be combined with a course",
                f"{patient.name} лечит ранение: совмещать с курсом нельзя",
                "W-DTRT-19",
                "A-W-17",
                tip="Finish the wound treatment first.",
                tip_ru="Сначала закончите лечение ранения.",
            )
        if patient.has(COURSE):
            refuse(
                f"{patient.name} is already in a course; several courses start together",
                f"{patient.name} уже на курсе; несколько курсов начинают вместе",
                "W-DTRT-17",
            )
        checks.require_free_bed(ctx, h, a.bed, patient.id)
        courses: dict[str, Any] = {}
        for code in dict.fromkeys(a.diseases):
            d = disease(ctx, code)
            if ill_with(patient, code) is None:
                refuse(
                    f"{patient.name} is not ill with {d.name}",
                    f"{patient.name} не болеет: {d.name}",
                    "W-DTRT-04",
                )
            if code not in adm.diagnoses:
                refuse(
                    f"{d.name} has not been diagnosed for {patient.name}",
                    f"Диагноз {d.name} пациенту {patient.name} не поставлен",
                    "W-DTRT-02",
                    tip="Use `diagnose` first.",
                    tip_ru="Сначала `diagnose`.",
                )
            if len(d.course) != p.disease_course_items:
                refuse(
                    f"{d.name} has no course of {p.disease_course_items} items in the catalogue",
                    f"У {d.name} в каталоге нет курса из {p.disease_course_items} пунктов",
                    "W-DTRT-08",
                )
            courses[code] = {"required": list(d.course), "done": [], "reduced": 0}
        paused: dict[str, float] = {}
        if p.lethal_timer_pauses_in_treatment:
            paused = pause_countdowns(ctx, patient.id, list(courses))
        minutes = course_minutes(ctx, courses)
        t = ctx.schedule(COURSE_DONE, timedelta(minutes=minutes), patient.id, {}, ("W-DTRT-06",))
        ctx.emit(
            "disease_course.started",
            {
                "character": patient.id,
                "kind": "course",
                "hospital": h.id,
                "bed": a.bed,
                "healer": healer.id,
                "courses": courses,
                "paused": paused,
                "deadline": t.deadline.isoformat(),
            },
            ("W-DTRT-06", "W-DTRT-07", "W-DTRT-17", "A-W-16", "A-W-18"),
        )
        add_entry(
            ctx,
            h.id,
            adm.journal,
            "course",
            ("W-DTRT-06", "W-HOSP-06"),
            patient=patient.id,
            healer=healer.id,
            course=[f"{c}: {', '.join(v['required'])}" for c, v in courses.items()],
            text=COURSE_UNTIL[0].format(until=f"{t.deadline:%H:%M:%S}"),
            admission=adm.entry,
        )

    class CourseItem(BaseModel):
        patient: str
        disease: str = Field(description="whose course the item belongs to")
        item: str = Field(description="a medical action or a medication")
        minutes: float | None = Field(None, ge=0, le=600, description="how long it was played")
        table: str | None = Field(None, description="operating table (for an operation)")
        alchemist: str | None = Field(None, description="who made the medication")

    @rs.action(
        "course-item",
        CourseItem,
        roles=STAFF,
        summary=(
            "Record one item of a course (a medical action or a medication)",
            "Отметить пункт курса (медицинское действие или препарат)",
        ),
        rule_ids=("W-DTRT-08", "W-DTRT-09", "W-DTRT-10", "W-DTRT-11", "W-DTRT-16", "W-DTRT-18"),
    )
    def item(ctx: ActionContext, a: CourseItem) -> None:
        p = params(ctx)
        patient = ctx.character(a.patient)
        checks.require_alive(patient)
        cond = patient.condition(COURSE)
        if (
            cond is None
            or cond.data.get("kind") != "course"
            or a.disease not in cond.data["courses"]
        ):
            refuse(
                f"{patient.name} has no running course for {a.disease}",
                f"У {patient.name} нет курса лечения {a.disease}",
                "W-DTRT-18",
            )
        if a.item not in p.medical_actions and a.item not in p.medications:
            refuse(
                f"{a.item!r} is neither a medical action ({', '.join(p.medical_actions)}) nor "
                f"a medication ({', '.join(p.medications)})",
                f"{a.item!r} — не медицинское действие ({', '.join(p.medical_actions)}) и не "
                f"препарат ({', '.join(p.medications)})",
                "W-DTRT-09",
                "W-DTRT-16",
            )
        least = p.medical_action_min_minutes.get(a.item)
        if least is not None and (a.minutes is None or a.minutes < least):
            refuse(
                f"A {a.item} lasts at least {least:g} minutes",
                f"{a.item}: не менее {least:g} минут",
                "W-DTRT-10",
            )
        if a.item in p.medications and a.alchemist is not None:
            maker = ctx.character(a.alchemist)
            if not maker.has_skill(p.alchemist_skill):
                refuse(
                    f"{maker.name} is not an alchemist; medications are made by alchemists",
                    f"{maker.name} не алхимик; препараты изготавливают алхимики",
                    "W-DTRT-13",
                )
        if a.item == "operation":
            _table(ctx, cond, patient, a.table)
        course = cond.data["courses"][a.disease]
        d = disease(ctx, a.disease)
        left = Counter(course["required"]) - Counter(course["done"])
        reduction = (
            a.item == d.reduction_medication
            and a.item not in left
            and (course["reduced"] == 0 or p.medication_reduction_stackable)
        )
        if not reduction and a.item not in left:
            refuse(
                f"{a.item} is not (or no longer) an item of {d.name}'s course; each course is "
                "carried out in full, items of another course do not count",
                f"{a.item} — не пункт (или уже выполнен) курса {d.name}; каждый курс "
                "проводится полностью",
                "W-DTRT-18",
                "W-DTRT-14",
            )
        ctx.emit(
            "disease_course.item_done",
            {
                "character": patient.id,
                "disease": a.disease,
                "item": a.item,
                "minutes": a.minutes,
                "table": a.table,
                "alchemist": a.alchemist,
                "reduction": reduction,
            },
            ("W-DTRT-15", "A-W-15") if reduction else ("W-DTRT-08", "W-DTRT-18"),
        )
        if reduction:
            _reschedule(ctx, patient)
        _maybe_complete(ctx, patient)

    @rs.on_timer(COURSE_DONE)
    def done(ctx: ActionContext, t: Timer) -> None:
        patient = ctx.character(t.subject)
        cond = patient.condition(COURSE)
        if cond is None:
            return
        missing = missing_items(cond)
        if missing:  # A-W-15: the course goes on until its last item
            _overdue(ctx, patient, missing)
            return
        _complete(ctx, patient, cond)


def _table(ctx: ActionContext, cond: Condition, patient: Character, table: str | None) -> None:
    """W-DTRT-11: an operation item needs a free operating table."""
    h = state(ctx).hospitals[cond.data["hospital"]]
    place = h.tables.get(table or "")
    if place is None:
        refuse(
            f"An operation is played on an operating table of {h.name}",
            f"Операция отыгрывается на операционном столе госпиталя {h.name}",
            "W-DTRT-11",
            tip="Give --table.",
            tip_ru="Укажите --table.",
        )
    if place.occupant not in (None, patient.id):
        refuse(
            f"Operating table {table} is taken by {place.occupant}",
            f"Операционный стол {table} занят ({place.occupant})",
            "W-DTRT-11",
            "W-HOSP-13",
        )


def _reschedule(ctx: ActionContext, patient: Character) -> None:
    cond = patient.condition(COURSE)
    assert cond is not None
    end = cond.started + timedelta(minutes=course_minutes(ctx, cond.data["courses"]))
    ctx.cancel_all(patient.id, COURSE_DONE)
    ctx.emit(
        "disease_course.rescheduled",
        {"character": patient.id, "deadline": end.isoformat()},
        ("W-DTRT-15", "A-W-15"),
    )
    if end > ctx.now:
        ctx.schedule(COURSE_DONE, end - ctx.now, patient.id, {}, ("W-DTRT-15",))
        return
    missing = missing_items(cond)
    if missing and not cond.data.get("overdue"):  # A-W-15, A-W-11: its time is over now
        _overdue(ctx, patient, missing)


def _overdue(ctx: ActionContext, patient: Character, missing: dict[str, list[str]]) -> None:
    """The course's time is over with items still to do: it goes on until its last one."""
    ctx.emit(
        "disease_course.overdue",
        {"character": patient.id, "missing": missing},
        ("A-W-15", "W-DTRT-08"),
    )
