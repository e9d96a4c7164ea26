"""Healing of HP (Лечение; Восстановление здоровья): physical, magical and spiritual
healing, combat healing skills, constructs and regeneration — checklist-002 §2.15,
§2.20, §2.21. Traumas are treated in ``trauma_care.py``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext, QueryContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.fantasy_server.addiction import count_spiritual
from lazaretto.rulesets.fantasy_server.common import (
    add_condition,
    flag,
    fstate,
    hp_change,
    params,
    refuse,
    require_alive,
)
from lazaretto.rulesets.fantasy_server.mutations import (
    magical_heal,
    require_magic_ok,
    triggered,
    window_total,
)
from lazaretto.rulesets.fantasy_server.params import FantasyParams


def register(rs: Ruleset) -> None:
    """Declare the HP healing actions and queries."""

    class HealPhysically(BaseModel):
        patient: str = Field(description="who is healed")
        healer: str | None = Field(None, description="who heals (anyone, skills not required)")
        amount: int = Field(ge=0, le=1000, description="HP restored (item data)")
        means: Literal[
            "bandage", "medication", "surgery", "fracture_setting", "food", "preparation",
            "repair_kit", "other",
        ] = Field("bandage", description="how")  # fmt: skip

    @rs.action(
        "heal-physically",
        HealPhysically,
        summary=("Restore HP without magic", "Восстановить здоровье без магии"),
        rule_ids=("S-HEAL-02", "S-HEAL-03", "S-HEAL-04", "S-REGEN-04", "S-CLAR-06"),
    )
    def heal_physically(ctx: ActionContext, a: HealPhysically) -> None:
        ch = ctx.character(a.patient)
        require_alive(ch)
        construct = flag(ch, "is_construct")
        if construct and a.means in ("bandage", "medication", "preparation"):
            refuse(
                f"{ch.name} is a construct: a repair kit replaces bandages and consumables",
                f"{ch.name} — конструкт: вместо бинтов и расходников — ремонтный набор",
                "S-CLAR-06",
                tip="Use --means repair_kit.",
                tip_ru="Используйте --means repair_kit.",
            )
        if a.means == "repair_kit" and not construct:
            refuse(
                "A repair kit is for constructs",
                "Ремонтный набор — для конструктов",
                "S-CLAR-06",
            )
        after, real = hp_change(ctx, {ch.id: a.amount})
        rules = ["S-HEAL-02", "S-HEAL-04", "S-REGEN-04"]
        if flag(ch, "reduced_magic"):
            rules.append("S-HEAL-03")
        if construct:
            rules.append("S-CLAR-06")
        ctx.emit(
            "hp.healed",
            {
                "character": ch.id,
                "healer": a.healer or ch.id,
                "means": a.means,
                "amount": a.amount,
                "restored": real[ch.id],
                "hits_after": after,
                "hp": after[ch.id],
                "mutation": "-",
            },
            tuple(rules),
        )

    class HealMagically(BaseModel):
        patient: str = Field(description="who is healed")
        healer: str | None = Field(None, description="the healer (none or the patient: self)")
        amount: int = Field(ge=0, le=1000, description="HP the healing restores")
        means: Literal["spell", "ritual", "combat_skill", "other"] = Field(
            "spell", description="spell, ritual, combat_skill or other (potions: drink-potion)"
        )
        skill: str | None = Field(None, max_length=80, description="the combat healing skill")
        limited_uses: bool = Field(False, description="the skill has limited uses")
        healer_roll: int | None = Field(None, description="the healer's MAG die (masters)")
        patient_roll: int | None = Field(None, description="the patient's WIL die (masters)")
        mutation_roll: int | None = Field(None, description="the mutation d6 (masters)")

    @rs.action(
        "heal-magically",
        HealMagically,
        summary=(
            "Restore HP by magic; may cause a mutation",
            "Восстановить здоровье магией; возможна мутация",
        ),
        rule_ids=("S-HEAL-06", "S-HEAL-07", "S-HEAL-08", "S-MUT-01", "S-MUT-03", "S-CLAR-05"),
    )
    def heal_magically(ctx: ActionContext, a: HealMagically) -> None:
        p = params(ctx)
        ch = ctx.character(a.patient)
        require_alive(ch)
        require_magic_ok(ch.id, ch.name, flag(ch, "reduced_magic"), flag(ch, "is_construct"))
        healer = a.healer or ch.id
        require_alive(ctx.character(healer))
        rules = ["S-HEAL-07", "S-HEAL-08"]
        if a.means == "combat_skill":
            rules.append("S-MUT-04")
            out_of_combat = fstate(ctx).combat_of(healer) is None
            if out_of_combat:
                rules.append("S-CLAR-02")
            name = a.skill or "combat healing"
            if a.limited_uses and out_of_combat:
                cd = next(
                    (
                        c
                        for c in ctx.character(healer).conditions
                        if c.kind == "skill_cooldown" and c.data.get("id") == name
                    ),
                    None,
                )
                if cd is not None:
                    refuse(
                        f"{name} is recharging until {cd.deadline:%Y-%m-%d %H:%M}",
                        f"{name} перезаряжается до {cd.deadline:%Y-%m-%d %H:%M}",
                        "S-CLAR-03",
                    )
        magical_heal(
            ctx, ch.id, healer, a.amount, a.means, tuple(rules), healer_roll=a.healer_roll,
            patient_roll=a.patient_roll, mutation_roll=a.mutation_roll,
        )  # fmt: skip
        if a.means == "combat_skill" and a.limited_uses and fstate(ctx).combat_of(healer) is None:
            ctx.emit(
                "skill.used",
                {"character": healer, "skill": a.skill or "combat healing"},
                ("S-CLAR-03",),
            )
            add_condition(
                ctx, healer, "skill_cooldown", ("S-CLAR-03",),
                deadline=ctx.now + timedelta(hours=p.combat_heal_skill_cooldown_hours),
                data={"id": a.skill or "combat healing"}, replace=False,
            )  # fmt: skip

    class HealSpiritually(BaseModel):
        patient: str = Field(description="who is helped")
        healer: str | None = Field(None, description="who helps (skills not required)")
        how: Literal["talk", "meditation", "narcotic_preparation", "other"] = Field(
            "talk", description="talk, meditation, narcotic_preparation, other"
        )
        note: str = Field("", max_length=500, description="what was done")

    @rs.action(
        "heal-spiritually",
        HealSpiritually,
        summary=("Record spiritual healing", "Записать духовное лечение"),
        rule_ids=("S-HEAL-09", "S-CLAR-08"),
    )
    def heal_spiritually(ctx: ActionContext, a: HealSpiritually) -> None:
        ch = ctx.character(a.patient)
        require_alive(ch)
        ctx.emit(
            "heal.spiritual_recorded",
            {"character": ch.id, "healer": a.healer or "-", "how": a.how, "note": a.note},
            ("S-HEAL-01", "S-HEAL-09"),
        )
        count_spiritual(ctx, ch.id)

    class Regenerate(BaseModel):
        character: str = Field(description="who recovers")
        hours: int = Field(ge=0, le=1000, description="full game hours")
        resting: bool = Field(True, description="rest in a bed or tended by a healer")
        fight: Literal["full", "training"] = Field(
            "full", description="a full fight, or a training/fist fight"
        )

    @rs.action(
        "regenerate",
        Regenerate,
        summary=("HP regeneration after a fight", "Восстановление здоровья после драки"),
        rule_ids=("S-REGEN-01", "S-REGEN-02", "S-REGEN-03", "S-REGEN-05"),
    )
    def regenerate(ctx: ActionContext, a: Regenerate) -> None:
        p = params(ctx)
        ch = ctx.character(a.character)
        require_alive(ch)
        gain, rules = regen_amount(p, ch.hits_max - ch.hits, a.hours, a.resting, a.fight)
        after, real = hp_change(ctx, {ch.id: gain})
        ctx.emit(
            "hp.regenerated",
            {
                "character": ch.id,
                "hours": a.hours,
                "resting": a.resting,
                "fight": a.fight,
                "restored": real[ch.id],
                "hits_after": after,
                "hp": after[ch.id],
            },
            (*rules, "A-S-27"),
        )

    class MutationRisk(BaseModel):
        patient: str = Field(description="who would be healed")

    @rs.query(
        "mutation-risk",
        MutationRisk,
        summary=(
            "Whether the next magical healing risks a mutation",
            "Грозит ли мутация при следующем магическом лечении",
        ),
        rule_ids=("S-MUT-01", "S-MUT-02", "A-S-25"),
    )
    def mutation_risk(ctx: QueryContext, a: MutationRisk) -> dict[str, Any]:
        p = params(ctx)
        ch = ctx.character(a.patient)
        total = window_total(ctx, ch.id)
        risk = triggered(ctx, ch.id)
        return {
            "summary": ctx.tr(
                f"{ch.name}: {total} HP of magical healing in {p.mutation_window_hours} h "
                f"(max HP {ch.hits_max}): "
                + ("the next one is resisted WIL vs MAG" if risk else "no mutation risk"),
                f"{ch.name}: магического лечения {total} ХП за {p.mutation_window_hours} ч "
                f"(макс. {ch.hits_max}): "
                + ("следующее — бросок WIL против MAG" if risk else "мутации не грозят"),
            ),
            "window_total": total,
            "at_risk": risk,
        }


def regen_amount(
    p: FantasyParams, missing: int, hours: int, resting: bool, fight: str
) -> tuple[int, list[str]]:
    """HP regenerated over ``hours`` full hours, capped at what is missing (S-REGEN, A-S-27)."""
    if fight == "training" and p.training_fight_recovery == "immediate":
        return missing, ["S-REGEN-05"]
    rate = p.regen_rest_hp_per_hour if resting else p.regen_norest_hp_per_hour
    rules = ["S-REGEN-01", "S-REGEN-02" if resting else "S-REGEN-03"]
    if fight == "training":
        rules.append("S-REGEN-05")
    return min(missing, rate * hours), rules
