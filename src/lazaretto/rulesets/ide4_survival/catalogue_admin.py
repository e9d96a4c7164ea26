"""The campaign's disease catalogue: additions and the GM's explicit drops (I-DIS-14).

Every record needs what I-DIS-02 lists: name, transmission, incubation, symptoms,
mechanical effect, stages, treatment and what happens untreated.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.ide4_survival.common import MASTERS, disease, refuse


def register(rs: Ruleset) -> None:
    """Declare define-disease and drop-disease (I-DIS-02, I-DIS-14)."""
    from lazaretto.rulesets.ide4_survival.tables import Disease, Shift, Text

    class PenaltyInput(BaseModel):
        target: str = Field(description="group:body, skill:Attention, physical…")
        amount: int = Field(ge=-5, le=5)

    class DefineDisease(BaseModel):
        code: str = Field(pattern=r"^[a-z0-9_]{1,40}$")
        name_en: str = Field(min_length=1, max_length=100)
        name_ru: str = Field(min_length=1, max_length=100)
        transmission: str = Field(min_length=1, max_length=300)
        incubation_min: int | None = Field(None, ge=0, le=365)
        incubation_max: int | None = Field(None, ge=0, le=365)
        symptoms: str = Field(min_length=1, max_length=500)
        penalties: list[PenaltyInput] = Field(default_factory=list)
        stages: str = Field("the four stages of the basic scheme", max_length=300)
        treatment: str = Field(min_length=1, max_length=500)
        untreated: str = Field(min_length=1, max_length=300)
        death_after: str | None = Field(None, max_length=20, description="dice, e.g. 1d8")
        sexual: bool = False

    @rs.action(
        "add-disease",
        DefineDisease,
        roles=MASTERS,
        summary=("Add a disease to the campaign's catalogue", "Добавить болезнь в каталог"),
        rule_ids=("I-DIS-01", "I-DIS-02", "I-DIS-14"),
    )
    def define(ctx: ActionContext, a: DefineDisease) -> None:
        from lazaretto.core.errors import InvalidInput

        inc = None
        if a.incubation_min is not None:
            inc = (a.incubation_min, a.incubation_max or a.incubation_min)
        try:
            d = Disease(
                category="custom",
                canonical=False,
                name=Text(en=a.name_en, ru=a.name_ru),
                transmission=Text(en=a.transmission, ru=a.transmission),
                incubation_days=inc,
                symptoms=Text(en=a.symptoms, ru=a.symptoms),
                penalties=[Shift(target=x.target, amount=x.amount) for x in a.penalties],
                penalties_text=Text(en=a.treatment, ru=a.treatment),
                stages=Text(en=a.stages, ru=a.stages),
                untreated=Text(en=a.untreated, ru=a.untreated),
                death_after=a.death_after,
                sexual=a.sexual,
            )
        except ValueError as exc:
            raise InvalidInput(f"add-disease: {exc}", ru=f"add-disease: {exc}") from exc
        ctx.emit(
            "disease.defined",
            {"code": a.code, "disease": d.model_dump(mode="json")},
            ("I-DIS-02", "I-DIS-14"),
        )

    class DropDisease(BaseModel):
        code: str
        gm_decision: bool = Field(False, description="the GM explicitly drops it")

    @rs.action(
        "drop-disease",
        DropDisease,
        roles=MASTERS,
        summary=(
            "Drop a disease from the catalogue (explicit GM decision)",
            "Исключить болезнь из каталога (явное решение мастера)",
        ),
        rule_ids=("I-DIS-14",),
    )
    def drop(ctx: ActionContext, a: DropDisease) -> None:
        d = disease(ctx, a.code)
        if d.canonical and not a.gm_decision:
            refuse(
                f"{d.name.en} is in the canonical catalogue: dropping it needs the GM's "
                "explicit decision",
                f"{d.name.ru} — из канонического каталога: исключить можно только явным "
                "решением мастера",
                "I-DIS-14",
                tip="Add --gm-decision.",
                tip_ru="Добавьте --gm-decision.",
            )
        ctx.emit("disease.dropped", {"code": a.code}, ("I-DIS-14",))
