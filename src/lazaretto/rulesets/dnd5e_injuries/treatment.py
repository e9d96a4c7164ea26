"""Treating an injury (лечение): the treatment cell of its row, read as A-D-12 says.

"Медицина N" is a Wisdom (Medicine) check with DC N; "лечение N+" healing magic of
level N or higher; "10 успехов Медицины (15)" ten DC 15 successes, one a day,
cumulative; "Хирургия" a Medicine check at the GM's DC; "Регенерация", "Магия",
"Шина", "сильное зелье", "Ампутация", "Действие союзника" succeed when done. A bare
time is natural recovery (a timer, ``effects.py``); "—" and "Без лечения" cannot be
treated. Any one alternative suffices.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.rulesets.dnd5e_injuries.common import (
    find_injury,
    params,
    refuse,
    require_alive,
)
from lazaretto.rulesets.dnd5e_injuries.effects import heal, row_of

TreatMethod = Literal[
    "medicine",
    "medicine_series",
    "healing",
    "regeneration",
    "surgery",
    "ally_action",
    "splint",
    "magic",
    "strong_potion",
    "amputation",
]
CHECKED = ("medicine", "medicine_series", "surgery")
MASTERS = frozenset({Role.MASTER})


def register(rs: Ruleset) -> None:
    """Declare ``treat-injury`` and ``end-injury``."""

    class TreatInjury(BaseModel):
        patient: str = Field(description="whose injury")
        healer: str | None = Field(None, description="who treats (a character)")
        injury: str | None = Field(None, description="the injury id (i3); omit if only one")
        method: TreatMethod = Field(description="how (see the injury's treatment)")
        spell_level: int | None = Field(None, ge=1, le=9, description="level of the healing")
        medicine_bonus: int | None = Field(
            None, ge=-5, le=30, description="Wisdom (Medicine) bonus: rolls 1d20 + it"
        )
        check_total: int | None = Field(
            None, ge=-10, le=60, description="the Medicine check's total as rolled at the table"
        )
        dc: int | None = Field(None, ge=1, le=40, description="the GM's DC (surgery, Medicine)")

    @rs.action(
        "treat-injury",
        TreatInjury,
        summary=(
            "Treat an injury: Medicine check, healing magic, surgery, regeneration...",
            "Лечить травму: проверка Медицины, лечебная магия, хирургия, регенерация...",
        ),
        rule_ids=("D-ROLL-02", "A-D-12"),
    )
    def treat(ctx: ActionContext, a: TreatInjury) -> None:
        patient = ctx.character(a.patient)
        require_alive(patient)
        if a.healer is not None:
            require_alive(ctx.character(a.healer))
        cond = find_injury(patient, a.injury)
        data = cond.data
        row = row_of(cond)
        rule = data["row"]
        if row.untreatable is not None:
            refuse(
                f"{data['name_en']} has no treatment ({row.treatment.en}): it ends with "
                "its durations",
                f"У травмы «{data['name_ru']}» нет лечения ({row.treatment.ru}): она проходит сама",
                rule,
                "A-D-12",
            )
        cure = row.cure(a.method)
        if cure is None:
            ways = ", ".join(c.method for c in row.cures if c.method != "natural")
            refuse(
                f"{data['name_en']} is treated by {row.treatment.en} ({ways}), not {a.method}",
                f"«{data['name_ru']}» лечится так: {row.treatment.ru} ({ways}), не {a.method}",
                rule,
                "A-D-12",
            )
        if a.method == "healing":
            assert cure.min_level is not None
            if a.spell_level is None or a.spell_level < cure.min_level:
                refuse(
                    f"{data['name_en']} needs healing of level {cure.min_level} or higher"
                    + (f", not {a.spell_level}" if a.spell_level else ""),
                    f"«{data['name_ru']}» лечится магией уровня {cure.min_level} и выше",
                    rule,
                    "A-D-12",
                    tip="Give --spell-level.",
                    tip_ru="Укажите --spell-level.",
                )
            heal(ctx, patient, cond, "treated", (rule, "A-D-12"), "healing")
            return
        if a.method not in CHECKED:
            heal(ctx, patient, cond, "treated", (rule, "A-D-12"), a.method)
            return
        if cure.dc is not None and a.dc is not None and a.dc != cure.dc:
            refuse(
                f"The table sets the DC: {cure.dc}",
                f"Сл задана таблицей: {cure.dc}",
                rule,
                "A-D-12",
            )
        dc = cure.dc if cure.dc is not None else a.dc
        if dc is None:
            refuse(
                f"The GM sets the DC of {a.method} for {data['name_en']}",
                f"Сл ({a.method}) для «{data['name_ru']}» задаёт мастер",
                rule,
                "A-D-12",
                tip="Give --dc.",
                tip_ru="Укажите --dc.",
            )
        if (a.check_total is None) == (a.medicine_bonus is None):
            refuse(
                "A Medicine check: give --medicine-bonus (rolled here) or --check-total",
                "Проверка Медицины: укажите --medicine-bonus (бросок здесь) или --check-total",
                rule,
                "A-D-12",
            )
        today = ctx.now.date().isoformat()
        days = list(data.get("success_days", []))
        per_day = params(ctx).medicine_successes_per_day
        if a.method == "medicine_series" and days.count(today) >= per_day:
            refuse(
                f"{patient.name} already had {per_day} successful check(s) for "
                f"{data['name_en']} today",
                f"Сегодня у {patient.name} уже была успешная проверка для «{data['name_ru']}»",
                rule,
                "A-D-12",
                tip="Try again tomorrow.",
                tip_ru="Попробуйте завтра.",
            )
        if a.check_total is not None:
            total, passed = a.check_total, a.check_total >= dc
        else:
            assert a.medicine_bonus is not None
            result = ctx.roll(f"1d20{a.medicine_bonus:+d} >= {dc}")
            total, passed = int(result.total), bool(result.success)
        check = {"total": total, "dc": dc, "passed": passed}
        if not passed:
            ctx.emit(
                "injury.treatment_failed",
                {
                    "character": patient.id,
                    "injury": data["id"],
                    "method": a.method,
                    "name_en": data["name_en"],
                    "name_ru": data["name_ru"],
                    **check,
                },
                (rule, "A-D-12"),
            )
            return
        if a.method == "medicine_series":
            assert cure.successes is not None
            days.append(today)
            ctx.emit(
                "injury.treatment_progress",
                {
                    "character": patient.id,
                    "injury": data["id"],
                    "successes": len(days),
                    "needed": cure.successes,
                    "success_days": days,
                    "name_en": data["name_en"],
                    "name_ru": data["name_ru"],
                    **check,
                },
                (rule, "A-D-12"),
            )
            if len(days) < cure.successes:
                return
        heal(ctx, patient, cond, "treated", (rule, "A-D-12"), a.method)

    class EndInjury(BaseModel):
        patient: str = Field(description="whose injury")
        injury: str | None = Field(None, description="the injury id; omit if only one")
        reason: str = Field("", max_length=200, description="why (the GM's ruling)")

    @rs.action(
        "end-injury",
        EndInjury,
        roles=MASTERS,
        summary=(
            "End an injury by the GM's ruling (a GM-adjudicated effect is over)",
            "Завершить травму решением мастера",
        ),
        rule_ids=("A-D-12", "A-D-13", "A-D-19"),
    )
    def end(ctx: ActionContext, a: EndInjury) -> None:
        patient = ctx.character(a.patient)
        cond = find_injury(patient, a.injury)
        heal(ctx, patient, cond, "gm", (cond.data["row"], "A-D-12"), None)
