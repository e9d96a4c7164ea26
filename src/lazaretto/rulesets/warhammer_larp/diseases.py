"""Diseases and poisons (болезни и яды), part 1: the catalogue and a master's infection.

A disease restricts a character's game abilities and comes with symptoms to roleplay
(W-DEF-09); a poisoning is handled the same way (W-DEF-13). Its penalties are hidden
from everyone but the infected player and the masters (W-DIS-05). A lethal one kills
on its timer from the moment of infection (W-DIS-09). Also here: the treatise
(трактат, W-DEF-19/20) and the eugenics hook (евгеника, W-DEF-17; A-W-33).
Stickers, carriers, outbreaks, epidemics and hospital courses build on this.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.character import Condition, Visibility
from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import Conflict, NotFound
from lazaretto.core.events import Event
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.warhammer_larp import checks
from lazaretto.rulesets.warhammer_larp.checks import refuse, state
from lazaretto.rulesets.warhammer_larp.state import REDUCERS, WarhammerState
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
    races: list[str] = Field(default_factory=list, description="empty: affects everyone")
    contagious: bool = False


@REDUCERS.on("disease.defined")
def _defined(st: WarhammerState, ev: Event) -> None:
    d = Disease.model_validate(ev.payload["disease"])
    st.diseases[d.code] = d.model_dump()


@REDUCERS.on("disease.infected")
def _infected(st: WarhammerState, ev: Event) -> None:
    p = ev.payload
    st.characters[p["character"]].conditions.append(
        Condition(
            kind="disease",
            started=ev.at,
            source=p["source"],
            visibility=Visibility.OWNER,
            deadline=None if p.get("deadline") is None else ev.at.fromisoformat(p["deadline"]),
            data={"code": p["code"], "affected": p["affected"]},
        )
    )


@REDUCERS.on("certificate.issued")
def _certificate(st: WarhammerState, ev: Event) -> None:
    st.certificates[ev.payload["id"]] = dict(ev.payload)


@REDUCERS.on("treatise.written")
@REDUCERS.on("eugenics.recorded")
def _recorded(st: WarhammerState, ev: Event) -> None:
    """Facts for the log only: no built-in effect (A-W-33)."""


def register(rs: Ruleset) -> None:
    """Declare the disease catalogue, infection, treatise and eugenics actions."""

    @rs.action(
        "define-disease",
        Disease,
        roles=MASTERS,
        summary=(
            "Add a disease or poison to the campaign's catalogue",
            "Добавить болезнь или яд в каталог кампании",
        ),
        rule_ids=("W-DEF-09", "W-DEF-10", "W-DEF-13", "W-DIS-03", "W-DIS-07"),
    )
    def define(ctx: ActionContext, a: Disease) -> None:
        if a.code in state(ctx).diseases:
            raise Conflict(
                f"Disease {a.code!r} is already in the catalogue",
                ru=f"Болезнь {a.code!r} уже есть в каталоге",
            )
        if a.lethal and a.minutes_to_death is None:
            refuse(
                "A lethal disease needs its time to death",
                "Смертельной болезни нужно время до смерти",
                "W-DIS-09",
                tip="Give --minutes-to-death.",
                tip_ru="Укажите --minutes-to-death.",
            )
        ctx.emit("disease.defined", {"disease": a.model_dump()}, ("W-DEF-09", "W-DIS-07"))

    class Infect(BaseModel):
        character: str
        disease: str = Field(description="disease code")

    @rs.action(
        "infect",
        Infect,
        roles=MASTERS,
        summary=(
            "A master hands a disease sticker to a character (punishment)",
            "Мастер вручает персонажу наклейку болезни (наказание)",
        ),
        rule_ids=("W-INF-01", "W-DIS-10", "W-DIS-09"),
    )
    def infect(ctx: ActionContext, a: Infect) -> None:
        give_disease(ctx, a.character, a.disease, "master")

    class CarrierTouch(BaseModel):
        carrier: str = Field(description="the character with the carrier skill")
        victim: str
        disease: str = Field(description="one disease per touch")

    @rs.action(
        "carrier-touch",
        CarrierTouch,
        roles=MASTERS,
        summary=(
            "A disease carrier infects someone by touch (recorded by a master)",
            "Разносчик заражает касанием (фиксирует мастер)",
        ),
        rule_ids=("W-DEF-12", "W-CARR-01", "W-CARR-09"),
    )
    def carrier_touch(ctx: ActionContext, a: CarrierTouch) -> None:
        carrier, victim = ctx.character(a.carrier), ctx.character(a.victim)
        checks.require_alive(carrier)
        skill = checks.params(ctx).carrier_skill
        if not carrier.has_skill(skill):
            refuse(
                f"{carrier.name} does not have the {skill} skill and cannot spread diseases",
                f"У {carrier.name} нет умения «Разносчик болезни», заражать нельзя",
                "W-DEF-12",
            )
        give_disease(ctx, victim.id, a.disease, f"carrier:{carrier.id}")

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
        if a.disease not in state(ctx).diseases:
            raise NotFound(
                f"No disease {a.disease!r} in the catalogue",
                ru=f"Нет болезни {a.disease!r} в каталоге",
            )
        cid = f"{a.kind[:3]}-{len(state(ctx).certificates) + 1}"
        ctx.emit("certificate.issued", {"id": cid, **a.model_dump(), "used": False}, ("W-DEF-11",))

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
        ctx.emit("treatise.written", a.model_dump(), ("W-DEF-19", "W-DEF-20"))

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


def give_disease(ctx: ActionContext, character: str, code: str, source: str) -> None:
    """Infect ``character`` with disease ``code`` now (W-DIS-10); a lethal one starts its
    countdown from this moment (W-DIS-09)."""
    ch = ctx.character(character)
    checks.require_alive(ch)
    raw = state(ctx).diseases.get(code)
    if raw is None:
        raise NotFound(
            f"No disease {code!r} in the catalogue",
            ru=f"Нет болезни {code!r} в каталоге",
        )
    d = Disease.model_validate(raw)
    if any(c.kind == "disease" and c.data["code"] == d.code for c in ch.conditions):
        refuse(f"{ch.name} already has {d.name}", f"{ch.name} уже болеет: {d.name}", "W-DIS-11")
    # W-DIS-04: no races listed means everyone; otherwise others keep it without effect
    affected = not d.races or ch.race.casefold() in {r.casefold() for r in d.races}
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
            "source": source,
            "affected": affected,
            "deadline": deadline,
        },
        ("W-INF-01", "W-DIS-10", "W-DIS-04"),
    )
