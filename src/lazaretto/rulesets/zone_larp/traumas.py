"""Traumas (травмы): checklist-001 Z-TRAUMA, A-Z-15.

A character has at most 5 traumas, physical or mental, one per peeled-off field of the
character card (Z-TRAUMA-01/04/05). A healer identifies a trauma by the medical model
(its type and consequences, Z-TRAUMA-06); it lasts until treated (Z-TRAUMA-02), and one
that cannot be healed stays for good (Z-TRAUMA-07).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.character import Character, Condition
from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import Conflict, NotFound
from lazaretto.core.ruleset import ALL_ROLES, Role, Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.zone_larp import checks
from lazaretto.rulesets.zone_larp.checks import params, refuse
from lazaretto.rulesets.zone_larp.params import ZoneParams
from lazaretto.rulesets.zone_larp.state import TRAUMA, conditions, trauma
from lazaretto.rulesets.zone_larp.wounds import clinical_death

STAFF = frozenset({Role.MASTER, Role.HEALER})
TRAUMA_DONE = "trauma_treatment_complete"
TraumaType = Literal["physical", "mental"]


def room_for_trauma(ch: Character, p: ZoneParams) -> bool:
    """Whether a card field is left for another trauma (Z-TRAUMA-01)."""
    return len(conditions(ch, TRAUMA)) < p.max_traumas


def refuse_over_cap(ch: Character, p: ZoneParams) -> None:
    """At the cap a new trauma goes to a master (A-Z-15), unless it kills."""
    if not room_for_trauma(ch, p) and p.trauma_over_cap == "master_decides":
        refuse(
            f"{ch.name} already has {p.max_traumas} traumas, the maximum",
            f"У {ch.name} уже {p.max_traumas} травм — это максимум",
            "Z-TRAUMA-01",
            "A-Z-15",
            tip="A master decides what happens now (e.g. `kill` or `sudden-state`).",
            tip_ru="Что происходит дальше, решает мастер (например, `kill` или `sudden-state`).",
        )


def add_trauma(
    ctx: ActionContext,
    char_id: str,
    kind: TraumaType,
    source: str,
    consequences: str,
    rule_ids: tuple[str, ...],
) -> None:
    """Give ``char_id`` a trauma in the first free card field."""
    p = params(ctx)
    ch = ctx.character(char_id)
    refuse_over_cap(ch, p)
    if not room_for_trauma(ch, p):  # trauma_over_cap: clinical_death
        clinical_death(ctx, char_id, "trauma_over_cap", False, ("Z-TRAUMA-01", "A-Z-15"))
        return
    used = {c.data["slot"] for c in conditions(ch, TRAUMA)}
    slot = min(set(range(1, p.max_traumas + 1)) - used)
    ctx.emit(
        "trauma.received",
        {
            "character": char_id,
            "slot": slot,
            "type": kind,
            "source": source,
            "consequences": consequences,
        },
        (*rule_ids, "Z-TRAUMA-01", "Z-TRAUMA-04", "Z-TRAUMA-05"),
    )


def register(rs: Ruleset) -> None:
    """Declare the trauma actions and their countdown."""

    class InflictTrauma(BaseModel):
        character: str = Field(description="who gets the trauma")
        type: TraumaType = Field(description="physical or mental")
        source: Literal["magic_weapon", "monster", "master"] = Field(
            description="a magical weapon, a monster, or a master's ruling"
        )
        consequences: str = Field("", max_length=500, description="what it does, if known")

    @rs.action(
        "inflict-trauma",
        InflictTrauma,
        roles=ALL_ROLES,
        summary=(
            "A trauma from a magical weapon or a monster: peel off a card field",
            "Травма от магического оружия или монстра: отклеить поле карточки",
        ),
        rule_ids=("Z-TRAUMA-01", "Z-TRAUMA-03", "Z-TRAUMA-04", "Z-TRAUMA-05"),
    )
    def inflict(ctx: ActionContext, a: InflictTrauma) -> None:
        ch = ctx.character(a.character)
        checks.require_in_game(ch)
        if a.source == "master" and ctx.role is not Role.MASTER:
            refuse(
                "Traumas come from a magical weapon or a monster; others only by a master",
                "Травмы наносит магическое оружие или монстр; иные — только мастер",
                "Z-TRAUMA-03",
            )
        add_trauma(ctx, ch.id, a.type, a.source, a.consequences, ("Z-TRAUMA-03",))

    class IdentifyTrauma(BaseModel):
        healer: str = Field(description="the healer who examines")
        patient: str = Field(description="whose trauma")
        slot: int = Field(ge=1, le=20, description="the card field of the trauma")
        type: TraumaType = Field(description="physical or mental, by the medical model")
        consequences: str = Field(min_length=1, max_length=500, description="its consequences")
        curable: bool = Field(True, description="false if it cannot be healed")

    @rs.action(
        "identify-trauma",
        IdentifyTrauma,
        roles=STAFF,
        summary=(
            "A healer identifies a trauma: type and consequences",
            "Лекарь устанавливает травму: тип и последствия",
        ),
        rule_ids=("Z-TRAUMA-06", "Z-TRAUMA-07"),
    )
    def identify(ctx: ActionContext, a: IdentifyTrauma) -> None:
        patient = ctx.character(a.patient)
        checks.require_healer(ctx.character(a.healer), params(ctx))
        _trauma(patient, a.slot)
        ctx.emit(
            "trauma.identified",
            {
                "character": patient.id,
                "healer": a.healer,
                "slot": a.slot,
                "type": a.type,
                "consequences": a.consequences,
                "curable": a.curable,
            },
            ("Z-TRAUMA-05", "Z-TRAUMA-06"),
        )

    class TreatTrauma(BaseModel):
        healer: str = Field(description="the treating healer")
        patient: str = Field(description="whose trauma")
        slot: int = Field(ge=1, le=20, description="the card field of the trauma")
        minutes: int = Field(ge=1, le=24 * 60, description="how long the treatment takes")

    @rs.action(
        "treat-trauma",
        TreatTrauma,
        roles=STAFF,
        summary=("Treat an identified trauma", "Лечить установленную травму"),
        rule_ids=("Z-TRAUMA-02", "Z-TRAUMA-07", "A-Z-15"),
    )
    def treat(ctx: ActionContext, a: TreatTrauma) -> None:
        patient = ctx.character(a.patient)
        checks.require_in_game(patient)
        checks.require_healer(ctx.character(a.healer), params(ctx))
        cond = _trauma(patient, a.slot)
        if not cond.data.get("identified"):
            refuse(
                f"Trauma {a.slot} of {patient.name} has not been identified yet",
                f"Травма {a.slot} у {patient.name} ещё не установлена",
                "Z-TRAUMA-06",
                tip="A healer identifies it first (`identify-trauma`).",
                tip_ru="Сначала лекарь её устанавливает (`identify-trauma`).",
            )
        if cond.deadline is not None:
            raise Conflict(
                f"Trauma {a.slot} is already being treated", ru=f"Травму {a.slot} уже лечат"
            )
        t = ctx.schedule(
            TRAUMA_DONE,
            timedelta(minutes=a.minutes),
            patient.id,
            {"slot": a.slot},
            ("Z-TRAUMA-02", "A-Z-15"),
        )
        ctx.emit(
            "trauma.treatment_started",
            {
                "character": patient.id,
                "healer": a.healer,
                "slot": a.slot,
                "deadline": t.deadline.isoformat(),
            },
            ("Z-TRAUMA-02", "A-Z-15"),
        )

    @rs.on_timer(TRAUMA_DONE)
    def treated(ctx: ActionContext, t: Timer) -> None:
        slot = int(t.payload["slot"])
        cond = trauma(ctx.character(t.subject), slot)
        if cond is None:
            return
        if cond.data.get("curable", True):
            ctx.emit("trauma.healed", {"character": t.subject, "slot": slot}, ("Z-TRAUMA-02",))
        else:
            ctx.emit(
                "trauma.treatment_failed", {"character": t.subject, "slot": slot}, ("Z-TRAUMA-07",)
            )


def _trauma(ch: Character, slot: int) -> Condition:
    cond = trauma(ch, slot)
    if cond is None:
        raise NotFound(
            f"{ch.name} has no trauma in card field {slot}",
            ru=f"У {ch.name} нет травмы в поле карточки {slot}",
        )
    return cond
