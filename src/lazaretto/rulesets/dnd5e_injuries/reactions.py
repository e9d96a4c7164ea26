"""Defensive reactions (защитные реакции): Dodge and Equal Exchange.

Both act on the injury waiting to be announced (the oldest pending one):

* Dodge (уклонение) avoids the injury from an attack entirely (D-DEF-01); by default it
  costs the reaction, needs no roll, leaves the damage, and works only against attacks
  (A-D-10).
* Equal Exchange (равноценный обмен), before the result is announced (D-DEF-02), names
  the body part that takes the blow: the injury lands there for certain (D-DEF-04) and
  a heavy result becomes medium (D-DEF-03, A-D-11). It and Dodge exclude each other.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from lazaretto.core.character import Character, Condition
from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.dnd5e_injuries.common import (
    REACTION_SPENT,
    lost_limbs,
    params,
    pending,
    refuse,
    require_alive,
    turn,
)
from lazaretto.rulesets.dnd5e_injuries.tables import LIMBS, Location
from lazaretto.rulesets.dnd5e_injuries.triggers import Side


def _pending_or_refuse(ch: Character, what_en: str, what_ru: str, rule: str) -> Condition:
    found = pending(ch)
    if found is None:
        refuse(
            f"No injury of {ch.name} is waiting to be announced: {what_en}",
            f"У {ch.name} нет травмы, ожидающей объявления: {what_ru}",
            rule,
        )
    return found


def register(rs: Ruleset) -> None:
    """Declare ``dodge`` and ``equal-exchange``."""

    class Dodge(BaseModel):
        character: str = Field(description="who dodges")
        roll: str | None = Field(
            None, max_length=60, description="the dodge roll, e.g. '1d20+3 >= 15' (if required)"
        )
        success: bool | None = Field(None, description="the dodge roll's result at the table")

    @rs.action(
        "dodge",
        Dodge,
        summary=(
            "Dodge: avoid the injury of an attack entirely (uses the reaction)",
            "Уклонение: полностью избежать травмы от атаки (тратит реакцию)",
        ),
        rule_ids=("D-DEF-01", "A-D-10"),
    )
    def dodge(ctx: ActionContext, a: Dodge) -> None:
        ch = ctx.character(a.character)
        require_alive(ch)
        p = params(ctx)
        pend = _pending_or_refuse(
            ch,
            "Dodge avoids an injury before it lands",
            "уклонение — до получения травмы",
            "D-DEF-01",
        )
        if p.dodge_applies_to == "attacks_only" and not pend.data.get("from_attack"):
            refuse(
                f"Dodge avoids only an injury from an attack; {ch.name}'s comes from "
                f"{', '.join(pend.data['triggers'])}",
                f"Уклонение спасает только от травмы от атаки; у {ch.name} причина: "
                f"{', '.join(pend.data['triggers'])}",
                "D-DEF-01",
                "A-D-10",
            )
        if pend.data.get("exchanged"):
            refuse(
                f"{ch.name} already used Equal Exchange on this injury",
                f"{ch.name} уже использовал равноценный обмен для этой травмы",
                "A-D-11",
                "D-DEF-01",
            )
        if p.dodge_cost == "reaction" and ch.has(REACTION_SPENT):
            refuse(
                f"{ch.name} has already used their reaction this round",
                f"{ch.name} уже потратил реакцию в этом раунде",
                "A-D-10",
                tip="The reaction comes back at the start of their turn (start-turn).",
                tip_ru="Реакция восстанавливается в начале хода (start-turn).",
            )
        success = True
        if p.dodge_requires_roll:
            if (a.roll is None) == (a.success is None):
                refuse(
                    "Dodge needs a roll here: give --roll (with a comparison) or --success",
                    "Здесь уклонение требует броска: укажите --roll (со сравнением) или --success",
                    "A-D-10",
                )
            success = bool(a.success) if a.roll is None else bool(ctx.roll(a.roll).success)
        if p.dodge_cost == "reaction":
            ctx.emit("reaction.spent", {"character": ch.id, "turn": turn(ch)}, ("A-D-10",))
        if not success:
            ctx.emit("dodge.failed", {"character": ch.id}, ("A-D-10",))
            return
        ctx.emit(
            "injury.dodged",
            {"character": ch.id, "pending": pend.data["id"]},
            ("D-DEF-01", "A-D-10"),
        )

    class EqualExchange(BaseModel):
        character: str = Field(description="who takes the blow")
        location: Location = Field(description="the body part that takes it")
        side: Side | None = Field(None, description="left or right arm/leg")

    @rs.action(
        "equal-exchange",
        EqualExchange,
        summary=(
            "Equal Exchange: choose the body part that takes the blow, before the result",
            "Равноценный обмен: выбрать часть тела, принимающую удар, до объявления",
        ),
        rule_ids=("D-DEF-02", "D-DEF-03", "D-DEF-04", "A-D-11"),
    )
    def equal_exchange(ctx: ActionContext, a: EqualExchange) -> None:
        ch = ctx.character(a.character)
        require_alive(ch)
        p = params(ctx)
        pend = _pending_or_refuse(
            ch,
            "Equal Exchange must be used before the result is announced",
            "равноценный обмен — только до объявления результата",
            "D-DEF-02",
        )
        data = pend.data
        if data.get("location_source") in ("rolled", "gm"):
            refuse(
                f"The location of {ch.name}'s injury is already rolled: too late to exchange",
                f"Локация травмы {ch.name} уже выброшена: обмен запоздал",
                "D-DEF-02",
            )
        if data.get("exchanged"):
            refuse(
                f"{ch.name} already chose {data['location']} for this injury",
                f"{ch.name} уже выбрал {data['location']} для этой травмы",
                "D-DEF-02",
            )
        if a.location not in p.equal_exchange_choices:
            choices = ", ".join(p.equal_exchange_choices)
            refuse(
                f"Equal Exchange may choose only {choices}, not {a.location}",
                f"Равноценным обменом можно выбрать только {choices}, не {a.location}",
                "D-DEF-02",
                "A-D-11",
            )
        if a.side is not None and a.location not in LIMBS:
            refuse(f"The {a.location} has no sides", f"У {a.location} нет сторон", "A-D-15")
        if a.location in LIMBS:
            limb = LIMBS[a.location]
            lost = lost_limbs(ch)
            gone = (
                f"{limb}:{a.side}" in lost
                if a.side and p.track_limb_side
                else lost.count(limb) + sum(1 for x in lost if x.startswith(f"{limb}:")) >= 2
            )
            if gone:
                refuse(
                    f"{ch.name} has no such {limb} left to take the blow",
                    f"У {ch.name} нет этой конечности, чтобы принять удар",
                    "D-DEF-02",
                    "A-D-15",
                )
        ctx.emit(
            "injury.exchanged",
            {
                "character": ch.id,
                "pending": data["id"],
                "location": a.location,
                "changes": {
                    "location": a.location,
                    "location_source": "equal_exchange",
                    "side": a.side,
                    "exchanged": True,
                },
            },
            ("D-DEF-02", "D-DEF-04", "A-D-11"),
        )
