"""Diseases and poisons (болезни и яды): the catalogue, falling ill, being cured.

A disease restricts a character's game abilities and comes with symptoms to roleplay
(W-DEF-09); a poisoning is handled the same way (W-DEF-13). It spreads as stickers
(W-DIS-01) whose penalties are hidden from everyone but the infected player and the
masters (W-DIS-05). A lethal one kills on its timer from the moment of infection
(W-DIS-09); a non-lethal one lasts until cured (W-DIS-08). Also here: the treatise
(трактат, W-DEF-19/20) and the eugenics hook (евгеника, W-DEF-17; A-W-33).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.character import Character, Condition, Visibility
from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import Conflict, NotFound
from lazaretto.core.events import Event
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.warhammer_larp import checks
from lazaretto.rulesets.warhammer_larp.checks import params, refuse, state
from lazaretto.rulesets.warhammer_larp.models import StickerStep
from lazaretto.rulesets.warhammer_larp.state import REDUCERS, WarhammerState
from lazaretto.rulesets.warhammer_larp.stickers import held, move
from lazaretto.rulesets.warhammer_larp.wounds import MASTERS, STAFF, die

DISEASE_DEATH = "disease_death"


class Disease(BaseModel):
    """A catalogue entry: what the sticker says and what the master knows."""

    code: str = Field(min_length=1, max_length=40)
    name: str = Field(min_length=1, max_length=100)
    kind: Literal["disease", "poison"] = "disease"
    symptoms: str = Field("", max_length=2000, description="what the player roleplays")
    penalties: str = Field("", max_length=2000, description="hidden game penalties")
    lethal: bool = False
    minutes_to_death: int | None = Field(None, ge=1, le=100_000)
    races: list[str] = Field(
        default_factory=list, max_length=50, description="empty: affects everyone"
    )
    contagious: bool = False
    course: list[str] = Field(
        default_factory=list,
        max_length=20,
        description="the treatment course: 6 medical actions and medications",
    )
    reduction_medication: str | None = Field(
        None, max_length=40, description="a medication that takes 20 minutes off the course"
    )
    recipe: list[str] = Field(
        default_factory=list, max_length=20, description="alchemical components (lab recipe)"
    )


def disease(ctx: ActionContext, code: str) -> Disease:
    """The catalogue entry ``code``; NotFound otherwise."""
    raw = state(ctx).diseases.get(code)
    if raw is None:
        raise NotFound(
            f"No disease {code!r} in the catalogue",
            ru=f"Нет болезни {code!r} в каталоге",
            tip="Add it with `define-disease`.",
            tip_ru="Добавьте: `define-disease`.",
        )
    return Disease.model_validate(raw)


def ill_with(ch: Character, code: str) -> Condition | None:
    """``ch``'s condition of disease ``code``, if ill with it."""
    return next(
        (c for c in ch.conditions if c.kind == "disease" and c.data.get("code") == code), None
    )


def susceptible(d: Disease, ch: Character) -> bool:
    """Whether the disease acts on ``ch``'s race (W-DIS-04: no races listed = everyone)."""
    return not d.races or ch.race.casefold() in {r.casefold() for r in d.races}


@REDUCERS.on("disease.defined")
def _defined(st: WarhammerState, ev: Event) -> None:
    d = Disease.model_validate(ev.payload["disease"])
    st.diseases[d.code] = d.model_dump()


@REDUCERS.on("disease.infected")
def _infected(st: WarhammerState, ev: Event) -> None:
    p = ev.payload
    deadline = p.get("deadline")
    st.characters[p["character"]].conditions.append(
        Condition(
            kind="disease",
            started=ev.at,
            source=p["source"],
            visibility=Visibility.OWNER,
            deadline=None if deadline is None else datetime.fromisoformat(deadline),
            data={"code": p["code"], "affected": p["affected"], "sticker": p.get("sticker")},
        )
    )
    code = p.get("sticker")
    if code in st.stickers:
        s = st.stickers[code]
        s.status, s.holder, s.infected = "stuck", p["character"], p["character"]
        s.affected = p["affected"]
        s.history.append(
            _step(ev, "stuck", p["source"], p["character"], "back of the game passport")
        )


@REDUCERS.on("disease.cured")
def _cured(st: WarhammerState, ev: Event) -> None:
    p = ev.payload
    ch = st.characters[p["character"]]
    ch.conditions = [
        c for c in ch.conditions if not (c.kind == "disease" and c.data.get("code") == p["code"])
    ]
    code = p.get("sticker")
    if code in st.stickers:
        s = st.stickers[code]
        s.status = "cured"
        s.cure = {
            k: str(p[k])
            for k in ("hospital_number", "code", "healer", "signature", "how")
            if p.get(k) is not None
        }
        s.history.append(_step(ev, "cured", p.get("healer") or "", p["character"], p["how"]))
    st.cures.append(
        {
            "patient": p["character"],
            "disease": p["code"],
            "how": p["how"],
            "hospital": p.get("hospital"),
            "at": ev.at.isoformat(),
        }
    )


@REDUCERS.on("disease.countdown_paused")
@REDUCERS.on("disease.countdown_resumed")
def _countdown(st: WarhammerState, ev: Event) -> None:
    p = ev.payload
    cond = ill_with(st.characters[p["character"]], p["code"])
    if cond is not None:
        cond.deadline = None if p.get("deadline") is None else datetime.fromisoformat(p["deadline"])


@REDUCERS.on("certificate.issued")
def _certificate(st: WarhammerState, ev: Event) -> None:
    st.certificates[ev.payload["id"]] = {"stickers": [], **ev.payload}


@REDUCERS.on("certificate.changed")
def _certificate_changed(st: WarhammerState, ev: Event) -> None:
    st.certificates[ev.payload["id"]].update(ev.payload["changes"])


@REDUCERS.on("treatise.written")
def _treatise(st: WarhammerState, ev: Event) -> None:
    tid = ev.payload.get("id") or f"tr-{len(st.treatises) + 1}"
    st.treatises[tid] = {**ev.payload, "id": tid}


@REDUCERS.on("eugenics.recorded")
def _recorded(st: WarhammerState, ev: Event) -> None:
    """Facts for the log only: no built-in effect (A-W-33)."""


def _step(ev: Event, what: str, by: str, to: str, note: str = "") -> StickerStep:
    return StickerStep(at=ev.at, what=what, by=by, to=to, note=note, rule_ids=list(ev.rule_ids))


def validate_disease(ctx: ActionContext, a: Disease) -> None:
    """Catalogue checks: time to death, course items, recipe size."""
    p = params(ctx)
    if a.lethal and a.minutes_to_death is None:
        refuse(
            "A lethal disease needs its time to death",
            "Смертельной болезни нужно время до смерти",
            "W-DIS-09",
            tip="Give --minutes-to-death.",
            tip_ru="Укажите --minutes-to-death.",
        )
    allowed = set(p.medical_actions) | set(p.medications)
    wrong = [i for i in a.course if i not in allowed]
    if wrong:
        refuse(
            f"{', '.join(wrong)} is not a medical action or medication of the rules; "
            f"allowed: {', '.join(sorted(allowed))}",
            f"{', '.join(wrong)} — нет в перечне медицинских действий и препаратов; "
            f"можно: {', '.join(sorted(allowed))}",
            "W-DTRT-09",
            "W-DTRT-16",
        )
    if a.course and len(a.course) != p.disease_course_items:
        refuse(
            f"A course has {p.disease_course_items} items, not {len(a.course)}",
            f"В курсе лечения {p.disease_course_items} пунктов, а не {len(a.course)}",
            "W-DTRT-08",
        )
    if a.reduction_medication is not None and a.reduction_medication not in p.medications:
        refuse(
            f"{a.reduction_medication} is not one of the medications ({', '.join(p.medications)})",
            f"{a.reduction_medication} — не из перечня препаратов ({', '.join(p.medications)})",
            "W-DTRT-15",
            "W-DTRT-16",
        )
    lo, hi = p.recipe_components_lethal if a.lethal else p.recipe_components_nonlethal
    if a.recipe and not lo <= len(a.recipe) <= hi:
        kind = ("lethal", "смертельной") if a.lethal else ("non-lethal", "несмертельной")
        refuse(
            f"A {kind[0]} disease's recipe has {lo}-{hi} components, not {len(a.recipe)}",
            f"Рецепт {kind[1]} болезни — {lo}-{hi} компонентов, а не {len(a.recipe)}",
            "W-LAB-21",
        )


def register(rs: Ruleset) -> None:
    """Declare the catalogue, certificates by a master, treatise and eugenics actions."""

    @rs.action(
        "define-disease",
        Disease,
        roles=MASTERS,
        summary=(
            "Add a disease or poison to the campaign's catalogue",
            "Добавить болезнь или яд в каталог кампании",
        ),
        rule_ids=("W-DEF-09", "W-DEF-10", "W-DEF-13", "W-DIS-03", "W-DIS-07", "W-LAB-21"),
    )
    def define(ctx: ActionContext, a: Disease) -> None:
        if a.code in state(ctx).diseases:
            raise Conflict(
                f"Disease {a.code!r} is already in the catalogue",
                ru=f"Болезнь {a.code!r} уже есть в каталоге",
            )
        validate_disease(ctx, a)
        ctx.emit("disease.defined", {"disease": a.model_dump()}, ("W-DEF-09", "W-DIS-07"))

    class IssueCertificate(BaseModel):
        kind: Literal["outbreak", "epidemic"]
        disease: str
        holder: str = Field(description="the carrier who will use it")

    @rs.action(
        "issue-certificate",
        IssueCertificate,
        roles=MASTERS,
        summary=(
            "Issue an outbreak or epidemic certificate (a mass-infection marker)",
            "Выдать сертификат вспышки или эпидемии (маркер массового заражения)",
        ),
        rule_ids=("W-DEF-11",),
    )
    def issue_certificate(ctx: ActionContext, a: IssueCertificate) -> None:
        ctx.character(a.holder)
        disease(ctx, a.disease)
        issue(ctx, a.kind, a.disease, a.holder, None, ("W-DEF-11",))

    @rs.on_timer(DISEASE_DEATH)
    def disease_death(ctx: ActionContext, t: Timer) -> None:
        die(ctx, t.subject, "lethal_disease", ("W-DIS-09",))

    class WriteTreatise(BaseModel):
        author: str
        topic: str = Field(min_length=1, max_length=200)
        question: str = Field(min_length=1, max_length=200, description="what is researched")
        pages: float = Field(ge=0, le=1000, description="notebook pages, handwritten")

    @rs.action(
        "write-treatise",
        WriteTreatise,
        roles=STAFF,
        summary=(
            "Record a handwritten treatise on a medical question",
            "Записать рукописный трактат по медицинскому вопросу",
        ),
        rule_ids=("W-DEF-19", "W-DEF-20"),
    )
    def treatise(ctx: ActionContext, a: WriteTreatise) -> None:
        ctx.character(a.author)
        if a.pages < 1:
            refuse(
                f"A treatise must be at least one notebook page long, not {a.pages:g}",
                f"Трактат — не меньше одной тетрадной страницы, а не {a.pages:g}",
                "W-DEF-20",
            )
        tid = f"tr-{len(state(ctx).treatises) + 1}"
        ctx.emit("treatise.written", {"id": tid, **a.model_dump()}, ("W-DEF-19", "W-DEF-20"))

    class Eugenics(BaseModel):
        patient: str
        change: str = Field(min_length=1, max_length=1000, description="what was sewn on")
        donor: str | None = None

    @rs.action(
        "record-eugenics",
        Eugenics,
        roles=MASTERS,
        summary=(
            "Record a eugenics change (the master rules on its effect)",
            "Записать евгеническое изменение (эффект определяет мастер)",
        ),
        rule_ids=("W-DEF-17",),
    )
    def eugenics(ctx: ActionContext, a: Eugenics) -> None:
        checks.require_alive(ctx.character(a.patient))
        if a.donor:
            ctx.character(a.donor)
        ctx.emit("eugenics.recorded", a.model_dump(), ("W-DEF-17", "A-W-33"))


def issue(
    ctx: ActionContext,
    kind: str,
    code: str,
    holder: str,
    lab: str | None,
    rule_ids: tuple[str, ...],
) -> str:
    """Create an outbreak or epidemic certificate; returns its id."""
    cid = f"{kind[:3]}-{len(state(ctx).certificates) + 1}"
    ctx.emit(
        "certificate.issued",
        {"id": cid, "kind": kind, "disease": code, "holder": holder, "used": False, "lab": lab},
        rule_ids,
    )
    return cid


def stick(
    ctx: ActionContext, ch: Character, code: str, source: str, rule_ids: tuple[str, ...]
) -> None:
    """Sticker ``code`` goes into ``ch``'s passport: ``ch`` is ill from now (W-DIS-10);
    a lethal disease's countdown starts now (W-DIS-09); a race the disease does not list
    keeps the sticker without effect (W-DIS-04, A-W-25)."""
    s = state(ctx).stickers[code]
    d = disease(ctx, s.disease)
    affected = susceptible(d, ch)
    deadline = None
    if d.lethal and affected and d.minutes_to_death:
        t = ctx.schedule(
            DISEASE_DEATH,
            timedelta(minutes=d.minutes_to_death),
            ch.id,
            {"code": d.code},
            ("W-DIS-09",),
        )
        deadline = t.deadline.isoformat()
    ctx.emit(
        "disease.infected",
        {
            "character": ch.id,
            "code": d.code,
            "sticker": code,
            "source": source,
            "affected": affected,
            "deadline": deadline,
        },
        ("W-DIS-10", "W-DIS-04", *rule_ids),
    )


def cure_disease(
    ctx: ActionContext,
    char_id: str,
    code: str,
    how: str,
    rule_ids: tuple[str, ...],
    *,
    hospital: str | None = None,
    healer: str | None = None,
) -> None:
    """``char_id`` is cured of disease ``code``: its countdown stops, the cure is written
    on the sticker (W-DTRT-20) and the stickers of it still held vanish (W-CARR-06)."""
    ch = ctx.character(char_id)
    cond = ill_with(ch, code)
    if cond is None:
        return
    for t in ctx.state.timers_for(char_id, DISEASE_DEATH):
        if t.payload.get("code") == code:
            ctx.cancel(t.id, ("W-DIS-09",))
    st = state(ctx)
    h = st.hospitals.get(hospital) if hospital else None
    doctor = ctx.character(healer) if healer else None
    ctx.emit(
        "disease.cured",
        {
            "character": char_id,
            "code": code,
            "sticker": cond.data.get("sticker"),
            "how": how,
            "hospital": hospital,
            "hospital_number": h.number if h else None,
            "healer": healer,
            "signature": doctor.name if doctor else None,
        },
        ("W-DEF-15", *rule_ids),
    )
    spare = [s.code for s in held(st, char_id, code)]
    if spare:
        ctx.emit(
            "sticker.vanished",
            {
                "codes": spare,
                "reason": f"{char_id} cured of {code}",
                "character": char_id,
                "code": code,
            },
            ("W-CARR-06",),
        )


def pause_countdowns(ctx: ActionContext, char_id: str, codes: list[str]) -> dict[str, float]:
    """Stop the lethal countdowns of ``codes`` for the course (A-W-18 alternative);
    returns the seconds each had left."""
    paused: dict[str, float] = {}
    for t in ctx.state.timers_for(char_id, DISEASE_DEATH):
        if t.payload.get("code") in codes:
            left = (t.deadline - ctx.now).total_seconds()
            paused[t.payload["code"]] = left
            ctx.cancel(t.id, ("A-W-18",))
            ctx.emit(
                "disease.countdown_paused",
                {"character": char_id, "code": t.payload["code"], "left_seconds": left},
                ("A-W-18",),
            )
    return paused


def resume_countdowns(ctx: ActionContext, char_id: str) -> None:
    """Restart the countdowns paused by :func:`pause_countdowns`."""
    ch = ctx.character(char_id)
    course = ch.condition("disease_course")
    if course is None:
        return
    for code, left in dict(course.data.get("paused", {})).items():
        if ill_with(ch, code) is None:
            continue
        t = ctx.schedule(
            DISEASE_DEATH, timedelta(seconds=float(left)), char_id, {"code": code}, ("A-W-18",)
        )
        ctx.emit(
            "disease.countdown_resumed",
            {"character": char_id, "code": code, "deadline": t.deadline.isoformat()},
            ("A-W-18",),
        )


__all__ = ["Disease", "cure_disease", "disease", "ill_with", "issue", "move", "stick"]
