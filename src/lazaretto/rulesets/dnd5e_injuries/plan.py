"""The input of ``roll-injury`` and its checks, all made before the first die is
rolled, so that a refusal leaves no trace.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.character import Character, Condition
from lazaretto.core.engine import ActionContext
from lazaretto.rulesets.dnd5e_injuries.caution import combat_caution, fraction_text
from lazaretto.rulesets.dnd5e_injuries.common import lost_limbs, params, refuse
from lazaretto.rulesets.dnd5e_injuries.params import DamageType, DndParams
from lazaretto.rulesets.dnd5e_injuries.tables import LIMBS, TABLES, Location, Severity
from lazaretto.rulesets.dnd5e_injuries.triggers import Side

Trigger = Literal["critical_hit", "zero_hp", "death_save_1", "failed_save"]


class RollInjury(BaseModel):
    """Input of ``roll-injury``."""

    character: str = Field(description="who is injured")
    trigger: Trigger | None = Field(
        None, description="roll an injury directly: why (only when none is pending)"
    )
    damage: int | None = Field(None, ge=0, le=10000, description="damage of the hit, if unknown")
    damage_type: DamageType | None = Field(None, description="damage type, if unknown")
    location_roll: int | None = Field(
        None, ge=1, le=100, description="the location die as rolled at the table"
    )
    location: Location | None = Field(None, description="the GM's location (A-D-08 gm)")
    sub_table: str | None = Field(None, description="the GM's sub-table for unmapped damage")
    severity: Severity | None = Field(None, description="the GM's severity, where it is theirs")
    side: Side | None = Field(None, description="left/right arm or leg as declared")
    gm_amounts: list[int] = Field(
        default_factory=list, description="numbers for the row's unquantified effects (A-D-13)"
    )


class Plan(BaseModel):
    """What every check before the dice found out."""

    damage: int | None
    damage_type: str
    caution: str | None
    caution_value: tuple[int, int] | None
    severity_from_gm: bool


def plan(ctx: ActionContext, ch: Character, pend: Condition | None, a: RollInjury) -> Plan:
    """Every refusal of ``roll-injury``, before anything is rolled or recorded."""
    p = params(ctx)
    data = pend.data if pend is not None else {}
    if pend is None and a.trigger is None:
        refuse(
            f"No injury is pending for {ch.name}, and no trigger was given",
            f"У {ch.name} нет ожидающей травмы, и не указана причина",
            "D-COND-05",
            tip="An injury needs a critical hit, 0 HP, a death-save 1 or a failed save: "
            "record it (take-damage...) or give --trigger.",
            tip_ru="Травма бывает от крита, 0 хитов, 1 на спасброске от смерти или провала "
            "спасброска: запишите это (take-damage...) или укажите --trigger.",
        )
    if pend is not None and a.trigger is not None:
        refuse(
            f"An injury of {ch.name} is already waiting to be rolled",
            f"Травма {ch.name} уже ждёт броска",
            "D-COND-05",
            tip="Roll it without --trigger.",
            tip_ru="Бросьте без --trigger.",
        )
    damage = data.get("damage")
    damage_type = data.get("damage_type")
    for field, known, given in (
        ("damage", damage, a.damage),
        ("damage type", damage_type, a.damage_type),
    ):
        if given is not None and known is not None and given != known:
            refuse(
                f"The {field} is already known from what triggered the injury: {known}",
                f"Это уже известно из того, что вызвало травму: {known}",
                "A-D-03",
            )
    damage = a.damage if damage is None else damage
    damage_type = a.damage_type if damage_type is None else damage_type
    if damage_type is None:
        refuse(
            "The damage type picks the injury table: it is not known here",
            "Тип урона определяет таблицу травм, а он неизвестен",
            "D-ROLL-02",
            tip="Give --damage-type.",
            tip_ru="Укажите --damage-type.",
        )
    gm_severity = (damage is None and p.severity_when_no_damage == "gm") or (
        bool(data.get("exchanged")) and p.equal_exchange_severity_effect == "gm"
    )
    if gm_severity and a.severity is None:
        refuse(
            f"The GM sets the severity of {ch.name}'s injury here",
            f"Тяжесть травмы {ch.name} здесь задаёт мастер",
            "A-D-03",
            "A-D-11",
            tip="Give --severity light|medium|heavy.",
            tip_ru="Укажите --severity light|medium|heavy.",
        )
    if a.severity is not None and not gm_severity:
        refuse(
            "The severity follows from the damage and the combat caution",
            "Тяжесть следует из урона и боевой осторожности",
            "D-SEV-01",
            "D-SEV-02",
        )
    caution = None
    if damage is not None and not gm_severity:
        caution = combat_caution(ch.name, ch.stats, p).value
    fixed = data.get("location")
    gm_location = bool(data.get("aimed_missed")) and p.aimed_fail_target == "gm" and not fixed
    if a.location is not None and not gm_location:
        refuse(
            "The location is rolled, aimed or exchanged, not set",
            "Локация определяется броском, прицелом или обменом, а не назначается",
            "D-ROLL-01",
            "A-D-08",
        )
    if gm_location and a.location is None:
        refuse(
            "The aimed attack missed: the GM picks the location",
            "Прицельная атака не удалась: локацию выбирает мастер",
            "D-AIM-04",
            "A-D-08",
            tip="Give --location.",
            tip_ru="Укажите --location.",
        )
    if a.location_roll is not None and (fixed or gm_location):
        refuse(
            f"The location is already {fixed or a.location}",
            f"Локация уже определена: {fixed or a.location}",
            "D-ROLL-01",
        )
    if a.location_roll is not None and a.location_roll not in p.location_map:
        refuse(
            f"{a.location_roll} is not a face of {p.location_die}",
            f"{a.location_roll} — не грань {p.location_die}",
            "D-ROLL-01",
            "A-D-01",
        )
    where = fixed or a.location
    if a.sub_table is not None:
        if where is None:
            refuse(
                "A sub-table is picked only once the location is known",
                "Подтаблицу выбирают, когда локация уже известна",
                "A-D-05",
            )
        if p.sub_table(where, damage_type) is not None:
            refuse(
                f"{damage_type} damage to the {where} has its own table",
                f"Для урона {damage_type} по локации {where} есть своя таблица",
                "A-D-05",
            )
        if a.sub_table not in TABLES.sub_tables[where]:
            choices = ", ".join(TABLES.sub_tables[where])
            refuse(
                f"The {where} has no sub-table {a.sub_table!r}; choose one of {choices}",
                f"У локации {where} нет подтаблицы {a.sub_table!r}; варианты: {choices}",
                "A-D-05",
            )
    if a.side is not None and where is not None and where not in LIMBS:
        refuse(f"The {where} has no sides", f"У локации {where} нет сторон", "A-D-15")
    value = None if caution is None else (caution.numerator, caution.denominator)
    return Plan(
        damage=damage,
        damage_type=damage_type,
        caution=None if caution is None else _cc_text(caution.numerator, caution.denominator),
        caution_value=value,
        severity_from_gm=gm_severity,
    )


def _cc_text(num: int, den: int) -> str:
    return fraction_text(Fraction(num, den))


def limb_free(ch: Character, location: str, side: str | None, p: DndParams) -> bool:
    """Whether the limb the injury would take is still there (A-D-15)."""
    limb = LIMBS[location]
    lost = lost_limbs(ch)
    if p.track_limb_side:
        return f"{limb}:{side}" not in lost
    return lost.count(limb) < 2
