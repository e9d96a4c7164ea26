"""Studying an unknown disease (изучение болезни): checklist-000 §5.4; A-W-19.

With the medical master present (W-STUDY-01), a healer who wrote a treatise (W-STUDY-02)
carries out their experimental course on the patient (W-STUDY-03). The guess is scored
against the real course: 4 or more of the 6 items right is "all or most" — the healer
gets the full description and the patient is cured (W-STUDY-04). Otherwise the master
rules: the patient stays ill or dies (W-STUDY-05); mismatches may also bring a heavy
wound or an extra non-lethal disease (W-STUDY-06).
"""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import NotFound
from lazaretto.core.events import Event
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.warhammer_larp import checks
from lazaretto.rulesets.warhammer_larp.checks import params, refuse, state
from lazaretto.rulesets.warhammer_larp.courses import (
    COURSE,
    admission,
    end_course,
    in_hospital,
    knows,
)
from lazaretto.rulesets.warhammer_larp.diseases import cure_disease, disease, ill_with
from lazaretto.rulesets.warhammer_larp.epidemics import check_after_cure
from lazaretto.rulesets.warhammer_larp.infection import deliver
from lazaretto.rulesets.warhammer_larp.journal import add_entry, record_outcome
from lazaretto.rulesets.warhammer_larp.state import REDUCERS, WarhammerState
from lazaretto.rulesets.warhammer_larp.stickers import mint
from lazaretto.rulesets.warhammer_larp.wounds import MASTERS, STAFF, become_heavy, die

STUDY_DONE = "study_done"


@REDUCERS.on("study.started")
def _started(st: WarhammerState, ev: Event) -> None:
    st.studies[ev.payload["id"]] = {**ev.payload, "status": "running"}


@REDUCERS.on("study.finished")
def _finished(st: WarhammerState, ev: Event) -> None:
    st.studies[ev.payload["id"]].update(status=ev.payload["result"], matches=ev.payload["matches"])


@REDUCERS.on("study.ruled")
def _ruled(st: WarhammerState, ev: Event) -> None:
    st.studies[ev.payload["id"]]["ruling"] = ev.payload["outcome"]


def matches(guess: list[str], real: list[str]) -> int:
    """Items of the experimental course that are in the real course (order free)."""
    return sum((Counter(guess) & Counter(real)).values())


def register(rs: Ruleset) -> None:
    """Declare ``start-study`` and ``rule-study``."""

    class StartStudy(BaseModel):
        hospital: str
        patient: str
        healer: str
        bed: str
        disease: str = Field(description="the unknown disease on the patient's sticker")
        treatise: str = Field(description="the treatise id (write-treatise)")
        course: list[str] = Field(
            min_length=1, max_length=20, description="the experimental course, 6 items"
        )
        master_present: bool = Field(False, description="the medical master is present")

    @rs.action(
        "start-study",
        StartStudy,
        roles=STAFF,
        summary=(
            "Study an unknown disease: a treatise and an experimental course",
            "Изучить неизвестную болезнь: трактат и экспериментальный курс",
        ),
        rule_ids=("W-STUDY-01", "W-STUDY-02", "W-STUDY-03", "W-DTRT-05"),
    )
    def start(ctx: ActionContext, a: StartStudy) -> None:
        p, st = params(ctx), state(ctx)
        healer, patient = ctx.character(a.healer), ctx.character(a.patient)
        h = in_hospital(ctx, a.hospital, healer, patient)
        adm = admission(ctx, h, patient)
        d = disease(ctx, a.disease)
        if not a.master_present:
            refuse(
                "An unknown disease is studied only with the medical master present",
                "Неизвестную болезнь изучают только в присутствии мастера по медицине",
                "W-STUDY-01",
            )
        tr = st.treatises.get(a.treatise)
        if tr is None or tr["author"] != healer.id:
            refuse(
                f"{healer.name} has no treatise {a.treatise!r}",
                f"У {healer.name} нет трактата {a.treatise!r}",
                "W-STUDY-02",
                "W-DEF-19",
                tip="Write one with `write-treatise`.",
                tip_ru="Напишите: `write-treatise`.",
            )
        if ill_with(patient, d.code) is None:
            refuse(
                f"{patient.name} is not ill with {d.name}",
                f"{patient.name} не болеет: {d.name}",
                "W-STUDY-03",
            )
        if knows(healer, d.code):
            refuse(
                f"{healer.name} already has {d.name} in their book: diagnose it",
                f"У {healer.name} в книге уже есть {d.name}: ставьте диагноз",
                "W-DTRT-04",
            )
        allowed = set(p.medical_actions) | set(p.medications)
        if len(a.course) != p.disease_course_items or not set(a.course) <= allowed:
            refuse(
                f"The experimental course has {p.disease_course_items} items from the rules' "
                f"lists ({', '.join(sorted(allowed))})",
                f"Экспериментальный курс — {p.disease_course_items} пунктов из перечней правил",
                "W-DTRT-08",
                "W-DTRT-09",
                "W-DTRT-16",
            )
        if patient.has("treatment") or patient.has("on_table") or patient.has(COURSE):
            refuse(
                f"{patient.name} is already in treatment",
                f"{patient.name} уже лечится",
                "W-DTRT-19",
                "W-DTRT-17",
            )
        checks.require_free_bed(ctx, h, a.bed, patient.id)
        sid = f"study-{len(st.studies) + 1}"
        t = ctx.schedule(
            STUDY_DONE,
            timedelta(minutes=p.study_course_minutes),
            patient.id,
            {"id": sid},
            ("A-W-19",),
        )
        ctx.emit(
            "study.started",
            {
                "id": sid,
                "patient": patient.id,
                "healer": healer.id,
                "hospital": h.id,
                "disease": d.code,
                "treatise": a.treatise,
                "course": a.course,
            },
            ("W-STUDY-01", "W-STUDY-02", "W-STUDY-03"),
        )
        ctx.emit(
            "disease_course.started",
            {
                "character": patient.id,
                "kind": "study",
                "study": sid,
                "hospital": h.id,
                "bed": a.bed,
                "healer": healer.id,
                "courses": {d.code: {"required": a.course, "done": [], "reduced": 0}},
                "paused": {},
                "deadline": t.deadline.isoformat(),
            },
            ("W-STUDY-03", "A-W-19"),
        )
        add_entry(
            ctx,
            h.id,
            adm.journal,
            "study",
            ("W-STUDY-02", "W-STUDY-03", "W-HOSP-06"),
            patient=patient.id,
            healer=healer.id,
            course=a.course,
            text=f"experimental course for {d.code} (treatise {a.treatise})",
            admission=adm.entry,
        )

    @rs.on_timer(STUDY_DONE)
    def done(ctx: ActionContext, t: Timer) -> None:
        st = state(ctx)
        s = st.studies[t.payload["id"]]
        d = disease(ctx, s["disease"])
        patient = ctx.character(s["patient"])
        if patient.condition(COURSE) is None:
            return
        n = matches(s["course"], d.course)
        ok = n >= params(ctx).study_success_min_matches
        ctx.emit(
            "study.finished",
            {
                "id": s["id"],
                "patient": patient.id,
                "matches": n,
                "of": len(d.course),
                "result": "success" if ok else "failure",
            },
            ("W-STUDY-04", "A-W-19") if ok else ("W-STUDY-05", "A-W-19"),
        )
        if not ok:
            end_course(ctx, patient.id, "failed", "few matches", ("W-STUDY-05",))
            return
        ctx.emit(
            "healer.book_entry_added",
            {
                "character": s["healer"],
                "code": d.code,
                "description": f"{d.name}: {d.symptoms}; course: {', '.join(d.course)}",
            },
            ("W-STUDY-04", "W-DEF-18"),
        )
        cure_disease(
            ctx,
            patient.id,
            d.code,
            "hospital",
            ("W-STUDY-04", "W-DTRT-20"),
            hospital=s["hospital"],
            healer=s["healer"],
        )
        end_course(ctx, patient.id, "completed", "study", ("W-STUDY-04",))
        number = st.hospitals[s["hospital"]].number
        record_outcome(
            ctx,
            patient.id,
            "recovered",
            ("W-STUDY-04",),
            diseases=[d.code],
            hospital_number=number,
            healer=s["healer"],
        )
        check_after_cure(ctx, d.code, s["hospital"])

    class RuleStudy(BaseModel):
        study: str
        outcome: Literal["stays_ill", "dies", "heavy_wound", "extra_disease"]
        extra_disease: str | None = Field(None, description="a non-lethal disease code")

    @rs.action(
        "rule-study",
        RuleStudy,
        roles=MASTERS,
        summary=(
            "The medical master rules on a study's mismatches",
            "Мастер по медицине решает исход несовпадений изучения",
        ),
        rule_ids=("W-STUDY-05", "W-STUDY-06"),
    )
    def rule(ctx: ActionContext, a: RuleStudy) -> None:
        st = state(ctx)
        s = st.studies.get(a.study)
        if s is None:
            raise NotFound(f"No study {a.study!r}", ru=f"Нет изучения {a.study!r}")
        if s["status"] == "running" or "ruling" in s:
            refuse(
                f"Study {a.study} is {'still running' if s['status'] == 'running' else 'ruled'}",
                f"Изучение {a.study}: {'ещё идёт' if s['status'] == 'running' else 'решено'}",
                "W-STUDY-05",
            )
        patient = ctx.character(s["patient"])
        checks.require_alive(patient)
        perfect = s["matches"] >= len(s["course"])
        if s["status"] == "success" and (a.outcome in ("stays_ill", "dies") or perfect):
            refuse(
                "A successful study cures; only mismatches may bring a complication",
                "Удачное изучение излечивает; осложнение дают только несовпадения",
                "W-STUDY-04",
                "W-STUDY-06",
            )
        rules: tuple[str, ...] = (
            ("W-STUDY-05",) if a.outcome in ("stays_ill", "dies") else ("W-STUDY-06",)
        )
        extra = disease(ctx, a.extra_disease or "") if a.outcome == "extra_disease" else None
        if extra is not None and extra.lethal:
            refuse(
                f"A complication is a non-lethal disease; {extra.name} is lethal",
                f"Осложнение — несмертельная болезнь; {extra.name} смертельна",
                "W-STUDY-06",
            )
        ctx.emit("study.ruled", {"id": a.study, "outcome": a.outcome, "patient": patient.id}, rules)
        if a.outcome == "dies":
            die(ctx, patient.id, "failed_study", rules)
        elif a.outcome == "heavy_wound":
            ctx.emit(
                "wound.hits_lost",
                {
                    "character": patient.id,
                    "lost": patient.hits,
                    "hits": 0,
                    "location": "complication",
                },
                rules,
            )
            become_heavy(ctx, patient.id, "study_complication", rules)
        elif extra is not None:
            codes = mint(ctx, extra.code, 1, rules)
            deliver(ctx, "master", patient, codes, None, f"study:{a.study}", rules)


__all__: list[Any] = ["register"]
