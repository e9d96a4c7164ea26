"""Treating diseases and poisons in hospital: checklist-000 §5.2–§5.3; A-W-34.

Anamnesis → diagnosis → course → cure, in that order (W-DTRT-02), each written in the
hospital journal (W-HOSP-06). A healer diagnoses only a disease whose description is in
their book (W-DTRT-04/05); descriptions may be copied by hand from a book one holds
(A-W-34, ``books.py``). Potions and spells cure too (W-DTRT-01). The course itself is
in ``courses.py``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext, QueryContext
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.rulesets.warhammer_larp import books, checks
from lazaretto.rulesets.warhammer_larp.checks import refuse, state
from lazaretto.rulesets.warhammer_larp.courses import (
    COURSE,
    admission,
    end_course,
    in_hospital,
    knows,
)
from lazaretto.rulesets.warhammer_larp.diseases import (
    cure_disease,
    disease,
    ill_with,
)
from lazaretto.rulesets.warhammer_larp.epidemics import check_after_cure
from lazaretto.rulesets.warhammer_larp.journal import add_entry
from lazaretto.rulesets.warhammer_larp.state import WarhammerState
from lazaretto.rulesets.warhammer_larp.wounds import MASTERS, STAFF


def register(rs: Ruleset) -> None:
    """Declare anamnesis, diagnosis, other cures, copying descriptions, the look-up."""

    class Anamnesis(BaseModel):
        hospital: str
        patient: str
        healer: str
        symptoms: str = Field("", max_length=4000, description="default: what the stickers say")
        history: str = Field("", max_length=4000, description="default: past wounds and cures")

    @rs.action(
        "record-anamnesis",
        Anamnesis,
        roles=STAFF,
        summary=("Write the anamnesis in the journal", "Записать анамнез в журнал"),
        rule_ids=("W-DTRT-02", "W-DTRT-03", "W-HOSP-06"),
    )
    def anamnesis(ctx: ActionContext, a: Anamnesis) -> None:
        healer, patient = ctx.character(a.healer), ctx.character(a.patient)
        h = in_hospital(ctx, a.hospital, healer, patient)
        adm = admission(ctx, h, patient)
        st = state(ctx)
        symptoms = a.symptoms or "; ".join(
            str(st.diseases.get(str(c.data.get("code")), {}).get("symptoms", ""))
            for c in patient.conditions
            if c.kind == "disease"
        )
        past = sorted({s.disease for s in st.stickers.values() if s.infected == patient.id})
        wounds = ", ".join(patient.data.get("wound_locations", [])) or "-"
        history = a.history or f"wounds: {wounds}; diseases: {', '.join(past) or '-'}"
        add_entry(
            ctx,
            h.id,
            adm.journal,
            "anamnesis",
            ("W-DTRT-03", "W-HOSP-06"),
            patient=patient.id,
            healer=healer.id,
            anamnesis=f"{symptoms} | {history}",
            text=symptoms,
            admission=adm.entry,
        )

    class Diagnose(BaseModel):
        hospital: str
        patient: str
        healer: str
        disease: str = Field(description="disease or poison code")

    @rs.action(
        "diagnose",
        Diagnose,
        roles=STAFF,
        summary=(
            "Diagnose from the healer's book and prescribe its course",
            "Поставить диагноз по книге лекаря и назначить курс",
        ),
        rule_ids=("W-DTRT-02", "W-DTRT-04", "W-DTRT-05", "W-HOSP-06"),
    )
    def diagnose(ctx: ActionContext, a: Diagnose) -> None:
        healer, patient = ctx.character(a.healer), ctx.character(a.patient)
        h = in_hospital(ctx, a.hospital, healer, patient)
        adm = admission(ctx, h, patient)
        d = disease(ctx, a.disease)
        if not adm.anamnesis:
            refuse(
                "The anamnesis comes before the diagnosis",
                "Сначала анамнез, потом диагноз",
                "W-DTRT-02",
                tip="Use `record-anamnesis`.",
                tip_ru="`record-anamnesis`.",
            )
        if not knows(healer, d.code):
            refuse(
                f"{healer.name}'s book has no description of this disease: it must be studied",
                f"В книге {healer.name} нет описания этой болезни: её нужно изучить",
                "W-DTRT-05",
                "W-HEAL-03",
                tip="Write a treatise and use `start-study` with the medical master.",
                tip_ru="Напишите трактат и проведите `start-study` при мастере.",
            )
        if ill_with(patient, d.code) is None:
            refuse(
                f"{patient.name} is not ill with {d.name}",
                f"{patient.name} не болеет: {d.name}",
                "W-DTRT-04",
            )
        add_entry(
            ctx,
            h.id,
            adm.journal,
            "diagnosis",
            ("W-DTRT-04", "W-HOSP-06"),
            patient=patient.id,
            healer=healer.id,
            diagnosis=d.code,
            course=list(d.course),
            text=f"{d.code}: {', '.join(d.course)}",
            admission=adm.entry,
        )

    class OtherCure(BaseModel):
        patient: str
        disease: str
        means: Literal["potion", "spell"]
        note: str = Field("", max_length=300)

    @rs.action(
        "cure-disease-by-other-means",
        OtherCure,
        roles=MASTERS,
        summary=(
            "A special potion or spell cures a disease (master's ruling)",
            "Особое зелье или заклинание излечивает болезнь",
        ),
        rule_ids=("W-DTRT-01",),
    )
    def other(ctx: ActionContext, a: OtherCure) -> None:
        patient = ctx.character(a.patient)
        checks.require_alive(patient)
        d = disease(ctx, a.disease)
        if ill_with(patient, d.code) is None:
            refuse(
                f"{patient.name} is not ill with {d.name}",
                f"{patient.name} не болеет: {d.name}",
                "W-DTRT-01",
            )
        if patient.has(COURSE) and d.code in patient.condition(COURSE).data.get("courses", {}):  # type: ignore[union-attr]
            end_course(ctx, patient.id, "interrupted", a.means, ("W-DTRT-01",))
        cure_disease(ctx, patient.id, d.code, a.means, ("W-DTRT-01",))
        check_after_cure(ctx, d.code, None)

    books.register(rs)  # lending a book and copying from it (A-W-34)

    class DiseaseInfo(BaseModel):
        code: str = Field(description="disease code")
        healer: str | None = Field(None, description="the healer asking (their book decides)")

    @rs.query(
        "disease-info",
        DiseaseInfo,
        roles=STAFF,
        summary=(
            "A disease description: the course only from the healer's book",
            "Описание болезни: курс — только из книги лекаря",
        ),
        rule_ids=("W-HEAL-03", "W-DTRT-04", "W-DIS-05"),
    )
    def info(ctx: QueryContext, a: DiseaseInfo) -> dict[str, Any]:
        st: WarhammerState = ctx.state  # type: ignore[assignment]
        d = st.diseases.get(a.code)
        if d is None:
            from lazaretto.core.errors import NotFound

            raise NotFound(f"No disease {a.code!r}", ru=f"Нет болезни {a.code!r}")
        master = ctx.role is Role.MASTER
        healer = ctx.character(a.healer) if a.healer else None
        known = master or (healer is not None and knows(healer, a.code))
        out: dict[str, Any] = {
            "summary": f"{d['code']}: {d['name']} — {d['symptoms']}",
            "code": d["code"],
            "name": d["name"],
            "kind": d["kind"],
            "symptoms": d["symptoms"],
            "known": known,
        }
        if known:  # W-HEAL-03: the course comes from the healer's book
            out.update(course=d["course"], reduction_medication=d["reduction_medication"])
        if master:  # W-DIS-05: penalties, lethality and races are the masters' only
            out.update(
                penalties=d["penalties"],
                lethal=d["lethal"],
                minutes_to_death=d["minutes_to_death"],
                races=d["races"],
                contagious=d["contagious"],
                recipe=d["recipe"],
            )
        return out
