"""Hospitals, their journals, field mats and healers' kits: checklist-000 §3.

A hospital is chipped by the medical master, who checks its tables and beds
(W-HOSP-03/12/15/17/18); patients are written into its journal (W-HOSP-04..10).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import Conflict, NotFound
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.rulesets.warhammer_larp import checks
from lazaretto.rulesets.warhammer_larp.checks import params, refuse, state
from lazaretto.rulesets.warhammer_larp.journal import add_entry
from lazaretto.rulesets.warhammer_larp.state import Hospital, Journal, Mat, Place
from lazaretto.rulesets.warhammer_larp.wounds import MASTERS, STAFF


class TableSpec(BaseModel):
    """An operating table as measured at registration (W-HOSP-12)."""

    id: str = Field(min_length=1, max_length=20)
    length_m: float = Field(2.0, gt=0, le=10)
    width_m: float = Field(1.0, gt=0, le=10)
    height_m: float = Field(1.0, gt=0, le=5)


class BedSpec(BaseModel):
    """A patient bed (лежак) as measured at registration (W-HOSP-15, W-HOSP-16)."""

    id: str = Field(min_length=1, max_length=20)
    length_cm: float = Field(190, gt=0, le=1000)
    width_cm: float = Field(70, gt=0, le=1000)
    height_cm: float = Field(40, ge=0, le=500)
    on_ground: bool = False


def register(rs: Ruleset) -> None:
    """Declare the hospital, journal, mat and healer actions on ``rs``."""

    class RegisterHospital(BaseModel):
        id: str = Field(min_length=1, max_length=40, description="short id, e.g. h1")
        name: str = Field(min_length=1, max_length=100)
        number: str = Field(min_length=1, max_length=20, description="hospital number (chip)")
        tables: list[TableSpec] = Field(min_length=0, max_length=50)
        beds: list[BedSpec] = Field(min_length=0, max_length=200)
        storage: bool = Field(True, description="a place for medicines and equipment")
        blankets: bool = Field(True, description="blankets in case of cold")
        journal: str = Field("main", min_length=1, max_length=40, description="first journal")
        location: str | None = Field(
            None, max_length=40, description="the location it serves (epidemics: W-EPI-08)"
        )

    @rs.action(
        "register-hospital",
        RegisterHospital,
        roles=MASTERS,
        summary=(
            "Chip a hospital: check its tables and beds, give it a number",
            "Чиповка госпиталя: проверка столов и лежаков, номер",
        ),
        rule_ids=("W-HOSP-01", "W-HOSP-03", "W-HOSP-18"),
    )
    def register_hospital(ctx: ActionContext, a: RegisterHospital) -> None:
        p = params(ctx)
        if a.id in state(ctx).hospitals:
            raise Conflict(f"Hospital {a.id!r} already exists", ru=f"Госпиталь {a.id!r} уже есть")
        if any(h.number == a.number for h in state(ctx).hospitals.values()):
            raise Conflict(
                f"Hospital number {a.number} is already issued",
                ru=f"Номер госпиталя {a.number} уже выдан",
            )
        if len(a.tables) < p.hospital_min_operating_tables or len(a.beds) < p.hospital_min_beds:
            refuse(
                f"A hospital needs at least {p.hospital_min_operating_tables} operating table(s) "
                f"and {p.hospital_min_beds} beds; given {len(a.tables)} and {len(a.beds)}",
                f"Госпиталю нужно не меньше {p.hospital_min_operating_tables} операционного "
                f"стола и {p.hospital_min_beds} лежаков; указано {len(a.tables)} и {len(a.beds)}",
                "W-HOSP-03",
                "W-DEF-16",
            )
        if not a.storage:
            refuse(
                "A hospital needs a place to store medicines and equipment",
                "Госпиталю нужно место для хранения лекарств и инструментов",
                "W-HOSP-02",
            )
        if not a.blankets:
            refuse(
                "A hospital must keep blankets in case of cold",
                "В госпитале должны быть пледы на случай холода",
                "W-HOSP-17",
            )
        for t in a.tables:
            low = p.op_table_min_height_m - p.op_table_height_tolerance_m
            if (
                t.length_m < p.op_table_min_length_m
                or t.width_m < p.op_table_min_width_m
                or t.height_m < low
            ):
                refuse(
                    f"Operating table {t.id} is {t.length_m:g}×{t.width_m:g} m, "
                    f"{t.height_m:g} m high: at least {p.op_table_min_length_m:g}×"
                    f"{p.op_table_min_width_m:g} m and {p.op_table_min_height_m:g} m high needed",
                    f"Операционный стол {t.id}: {t.length_m:g}×{t.width_m:g} м, высота "
                    f"{t.height_m:g} м; нужно не меньше {p.op_table_min_length_m:g}×"
                    f"{p.op_table_min_width_m:g} м и высота {p.op_table_min_height_m:g} м",
                    "W-HOSP-12",
                    "A-W-13",
                )
        for b in a.beds:
            if (
                b.length_cm < p.bed_min_length_cm
                or b.width_cm < p.bed_min_width_cm
                or (not b.on_ground and b.height_cm < p.bed_min_height_cm)
            ):
                refuse(
                    f"Bed {b.id} is {b.length_cm:g}×{b.width_cm:g} cm, {b.height_cm:g} cm high: "
                    f"at least {p.bed_min_length_cm:g}×{p.bed_min_width_cm:g} cm and "
                    f"{p.bed_min_height_cm:g} cm high (or marked as on the ground)",
                    f"Лежак {b.id}: {b.length_cm:g}×{b.width_cm:g} см, высота {b.height_cm:g} см; "
                    f"нужно не меньше {p.bed_min_length_cm:g}×{p.bed_min_width_cm:g} см и "
                    f"{p.bed_min_height_cm:g} см (или отметка «на земле»)",
                    "W-HOSP-15",
                )
        ids = [t.id for t in a.tables] + [b.id for b in a.beds]
        if len(set(ids)) != len(ids):
            raise Conflict(
                "Table and bed ids must be unique within a hospital",
                ru="Номера столов и лежаков в госпитале не должны повторяться",
            )
        h = Hospital(
            id=a.id,
            name=a.name,
            number=a.number,
            tables={t.id: Place(id=t.id) for t in a.tables},
            beds={b.id: Place(id=b.id, on_ground=b.on_ground) for b in a.beds},
            journals={a.journal: Journal(name=a.journal)},
            location=a.location,
        )
        ctx.emit(
            "hospital.registered",
            {"hospital": h.model_dump(mode="json")},
            ("W-HOSP-01", "W-HOSP-03", "W-HOSP-18", "W-DEF-16"),
        )

    class OpenJournal(BaseModel):
        hospital: str
        journal: str = Field(min_length=1, max_length=40)

    @rs.action(
        "open-journal",
        OpenJournal,
        roles=STAFF,
        summary=("Open another journal in a hospital", "Завести ещё один журнал госпиталя"),
        rule_ids=("W-HOSP-08",),
    )
    def open_journal(ctx: ActionContext, a: OpenJournal) -> None:
        h = checks.hospital(ctx, a.hospital)
        if a.journal in h.journals:
            raise Conflict(
                f"{h.name} already has a journal {a.journal!r}",
                ru=f"В {h.name} уже есть журнал {a.journal!r}",
            )
        ctx.emit(
            "hospital.journal_opened", {"hospital": h.id, "journal": a.journal}, ("W-HOSP-08",)
        )

    class Admit(BaseModel):
        hospital: str
        patient: str
        healer: str = Field(description="the healer writing the entry")
        journal: str = Field("main", description="which journal of the hospital")
        wounds: list[str] = Field(
            default_factory=list,
            max_length=50,
            description="wound locations (default: as recorded with hits)",
        )

    @rs.action(
        "admit",
        Admit,
        roles=STAFF,
        summary=(
            "Write a patient into the hospital journal",
            "Записать пациента в журнал госпиталя",
        ),
        rule_ids=("W-HOSP-04", "W-HOSP-05"),
    )
    def admit(ctx: ActionContext, a: Admit) -> None:
        h = checks.hospital(ctx, a.hospital)
        patient = ctx.character(a.patient)
        checks.require_alive(patient)
        journal = _journal(h, a.journal)
        if a.patient in state(ctx).admissions:
            adm = state(ctx).admissions[a.patient]
            raise Conflict(
                f"{patient.name} is already admitted (hospital {adm.hospital}, entry {adm.entry})",
                ru=f"{patient.name} уже записан (госпиталь {adm.hospital}, запись {adm.entry})",
            )
        wounds = a.wounds or list(patient.data.get("wound_locations", []))
        add_entry(
            ctx,
            h.id,
            journal,
            "admission",
            ("W-HOSP-04", "W-HOSP-05"),
            patient=patient.id,
            name=patient.name,
            race=patient.race,
            age=patient.age,
            admitted_at=ctx.now.isoformat(),
            wounds=wounds,
            healer=a.healer,
            state=checks.wound_state(patient),
        )

    class DiseaseCase(BaseModel):
        hospital: str
        patient: str
        healer: str
        anamnesis: str = Field("", max_length=4000, description="symptoms, past wounds, diseases")
        diagnosis: str = Field("", max_length=200, description="the disease (code or name)")
        course: list[str] = Field(
            default_factory=list, max_length=50, description="prescribed course items"
        )

    @rs.action(
        "record-disease-case",
        DiseaseCase,
        roles=STAFF,
        summary=(
            "Write a disease or poison case: anamnesis, diagnosis, course",
            "Записать случай болезни или яда: анамнез, диагноз, курс",
        ),
        rule_ids=("W-HOSP-06",),
    )
    def disease_case(ctx: ActionContext, a: DiseaseCase) -> None:
        h = checks.hospital(ctx, a.hospital)
        patient = ctx.character(a.patient)
        adm = state(ctx).admissions.get(patient.id)
        if adm is None or adm.hospital != h.id:
            refuse(
                f"{patient.name} is not admitted to {h.name}",
                f"{patient.name} не записан в {h.name}",
                "W-HOSP-04",
                tip="Use `admit` first.",
                tip_ru="Сначала `admit`.",
            )
        missing = [n for n in ("anamnesis", "diagnosis", "course") if not getattr(a, n)]
        if missing:
            refuse(
                f"A disease or poison entry must record the {', '.join(missing)}",
                f"В записи о болезни или яде нет: {', '.join(missing)}",
                "W-HOSP-06",
            )
        add_entry(
            ctx,
            h.id,
            adm.journal,
            "disease",
            ("W-HOSP-06",),
            patient=patient.id,
            anamnesis=a.anamnesis,
            diagnosis=a.diagnosis,
            course=a.course,
            healer=a.healer,
            admission=adm.entry,
        )

    class SignJournal(BaseModel):
        hospital: str
        patient: str = Field(description="the patient who signs")

    @rs.action(
        "sign-journal",
        SignJournal,
        summary=(
            "The patient signs the journal after treatment",
            "Пациент расписывается в журнале после лечения",
        ),
        rule_ids=("W-HOSP-10",),
    )
    def sign(ctx: ActionContext, a: SignJournal) -> None:
        h = checks.hospital(ctx, a.hospital)
        patient = ctx.character(a.patient)
        journal = h.awaiting_signature.get(patient.id)
        if journal is None:
            refuse(
                f"{patient.name} has no finished treatment to sign for in {h.name}",
                f"У {patient.name} нет законченного лечения в {h.name}, за которое "
                "нужно расписаться",
                "W-HOSP-10",
            )
        add_entry(
            ctx, h.id, journal, "signature", ("W-HOSP-10",), patient=patient.id, name=patient.name
        )

    class CorrectEntry(BaseModel):
        hospital: str
        journal: str = "main"
        entry: int = Field(ge=1, description="the entry being corrected")
        text: str = Field(min_length=1, max_length=1000, description="the correction")

    @rs.action(
        "correct-journal",
        CorrectEntry,
        roles=STAFF,
        summary=(
            "Correct a journal entry (a new entry; nothing is rewritten)",
            "Исправить запись журнала (новой записью; старая не меняется)",
        ),
        rule_ids=("W-HOSP-04",),
    )
    def correct(ctx: ActionContext, a: CorrectEntry) -> None:
        h = checks.hospital(ctx, a.hospital)
        journal = _journal(h, a.journal)
        if a.entry > h.journals[journal].entries:
            raise NotFound(
                f"Journal {journal!r} of {h.name} has no entry {a.entry}",
                ru=f"В журнале {journal!r} госпиталя {h.name} нет записи {a.entry}",
            )
        add_entry(ctx, h.id, journal, "correction", ("W-HOSP-04",), corrects=a.entry, text=a.text)

    class Penalize(BaseModel):
        hospital: str
        reason: str = Field(min_length=1, max_length=500)
        close: bool = Field(False, description="close the hospital")

    @rs.action(
        "penalize-hospital",
        Penalize,
        roles=MASTERS,
        summary=(
            "Penalise a hospital for a careless journal (up to closing it)",
            "Штраф госпиталю за небрежный журнал (вплоть до закрытия)",
        ),
        rule_ids=("W-HOSP-11",),
    )
    def penalize(ctx: ActionContext, a: Penalize) -> None:
        h = checks.hospital(ctx, a.hospital)
        ctx.emit(
            "hospital.penalized",
            {"hospital": h.id, "reason": a.reason, "close": a.close},
            ("W-HOSP-11",),
        )
        add_entry(
            ctx,
            h.id,
            next(iter(h.journals)),
            "penalty",
            ("W-HOSP-11",),
            text=a.reason,
            close=a.close,
        )

    class TakeJournal(BaseModel):
        hospital: str
        taker: str = Field(description="who tries to take it")

    @rs.action(
        "take-journal",
        TakeJournal,
        summary=(
            "Try to take or loot a hospital journal (always refused)",
            "Попытаться забрать журнал госпиталя (нельзя)",
        ),
        rule_ids=("W-HOSP-09",),
    )
    def take_journal(ctx: ActionContext, a: TakeJournal) -> None:
        h = checks.hospital(ctx, a.hospital)
        refuse(
            f"The journal of {h.name} is an in-game item that cannot be taken or looted",
            f"Журнал госпиталя {h.name} — игровой предмет, его нельзя забрать (непобираем)",
            "W-HOSP-09",
        )

    class RegisterMat(BaseModel):
        id: str = Field(min_length=1, max_length=40)
        healer: str = Field(description="whose mat it is")
        length_cm: float = Field(gt=0, le=1000)
        width_cm: float = Field(gt=0, le=1000)
        costume_item: bool = Field(False, description="is it a costume element (e.g. a cloak)?")

    @rs.action(
        "register-mat",
        RegisterMat,
        roles=STAFF,
        summary=("Register a healer's field mat", "Зарегистрировать подстилку лекаря"),
        rule_ids=("W-HEAL-06", "W-HEAL-07"),
    )
    def register_mat(ctx: ActionContext, a: RegisterMat) -> None:
        p = params(ctx)
        ctx.character(a.healer)
        if a.id in state(ctx).mats:
            raise Conflict(f"Mat {a.id!r} already exists", ru=f"Подстилка {a.id!r} уже есть")
        if a.costume_item:
            refuse(
                "A costume item such as a cloak may not be used as a mat",
                "Элементы антуража (например, плащ) нельзя использовать как подстилку",
                "W-HEAL-07",
            )
        if a.length_cm < p.mat_min_length_cm or a.width_cm < p.mat_min_width_cm:
            refuse(
                f"Mat {a.id} is {a.length_cm:g}×{a.width_cm:g} cm: at least "
                f"{p.mat_min_length_cm:g}×{p.mat_min_width_cm:g} cm is needed",
                f"Подстилка {a.id}: {a.length_cm:g}×{a.width_cm:g} см; нужно не меньше "
                f"{p.mat_min_length_cm:g}×{p.mat_min_width_cm:g} см",
                "W-HEAL-06",
            )
        ctx.emit(
            "mat.registered", {"mat": Mat(id=a.id, healer=a.healer).model_dump()}, ("W-HEAL-06",)
        )

    class CheckKit(BaseModel):
        healer: str
        items: list[str] = Field(
            default_factory=list, max_length=50, description="kit items the healer showed"
        )

    @rs.action(
        "check-kit",
        CheckKit,
        roles=MASTERS,
        summary=(
            "Check a healer's kit against the required list",
            "Проверить снаряжение лекаря по списку",
        ),
        rule_ids=("W-HEAL-01", "W-HEAL-02", "W-HOSP-19", "W-DEF-08"),
    )
    def check_kit(ctx: ActionContext, a: CheckKit) -> None:
        healer = ctx.character(a.healer)
        missing = [i for i in params(ctx).healer_kit if i not in a.items]
        ctx.emit(
            "healer.kit_checked",
            {"character": healer.id, "complete": not missing, "missing": missing},
            ("W-HEAL-01", "W-HEAL-02", "W-HOSP-19", "W-DEF-08"),
        )

    class AddToBook(BaseModel):
        healer: str
        code: str = Field(min_length=1, max_length=40, description="disease or poison code")
        description: str = Field("", max_length=4000, description="symptoms, treatment, factors")

    @rs.action(
        "add-to-book",
        AddToBook,
        roles=STAFF,
        summary=(
            "Write a disease or poison description into a healer's book",
            "Записать описание болезни или яда в книгу лекаря",
        ),
        rule_ids=("W-HEAL-03", "W-DEF-18"),
    )
    def add_to_book(ctx: ActionContext, a: AddToBook) -> None:
        healer = ctx.character(a.healer)
        if not healer.has_skill(params(ctx).healer_skill):
            refuse(
                f"{healer.name} is not a healer and keeps no healer's book",
                f"{healer.name} не лекарь, у него нет книги лекаря",
                "W-HEAL-03",
            )
        ctx.emit(
            "healer.book_entry_added",
            {"character": healer.id, "code": a.code, "description": a.description},
            ("W-HEAL-03", "W-DEF-18"),
        )


def _journal(h: Hospital, name: str) -> str:
    if name not in h.journals:
        raise NotFound(
            f"{h.name} has no journal {name!r}; journals: {', '.join(h.journals)}",
            ru=f"В {h.name} нет журнала {name!r}; журналы: {', '.join(h.journals)}",
        )
    return name


__all__ = ["Role", "register"]
