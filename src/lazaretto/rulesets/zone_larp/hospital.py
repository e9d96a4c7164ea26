"""The Hospital (Госпиталь, «мертвяк»): arrival, examination, the stay, release.

The administrator logs the arrival (Z-REHAB-04); the Chief Doctor reads the character
sheet and examines (Z-REHAB-05, Z-HOSP-04), rolls the damaged zone after a death from
wounds (Z-CD-06, A-Z-20) and sets the stay from the six zones (Z-ZONE, rehab.py),
counted from the arrival (A-Z-31). At the end the patient pays — insurance, game money or
work — and is released: rehabilitated, or reanimated after clinical death (Z-HOSP-05).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, Field

from lazaretto.core.character import Condition
from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import Conflict
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.zone_larp import checks
from lazaretto.rulesets.zone_larp.checks import params, refuse
from lazaretto.rulesets.zone_larp.params import ZONES, PaymentMethod, StaffRole, Zone, ZoneState
from lazaretto.rulesets.zone_larp.rehab import implants_of, infection_counts, rehab_minutes
from lazaretto.rulesets.zone_larp.state import CLINICAL, HEAVY, HOSPITAL, INFECTION, conditions
from lazaretto.rulesets.zone_larp.wounds import HEAVY_WAIT, WAIT_RULE, stop_death_timer

STAFF = frozenset({Role.MASTER, Role.HEALER})
REHAB_DONE = "rehab_complete"


class ZoneMark(BaseModel):
    """One zone's state as found on the sheet or at the examination."""

    zone: Zone = Field(description="head, torso, right_arm, left_arm, right_leg or left_leg")
    state: ZoneState = Field(description="intact, damaged or infected (infected or worsening)")


def stay(ctx: ActionContext, char_id: str) -> Condition:
    """The patient's Hospital stay; refused if they are not in the Hospital."""
    ch = ctx.character(char_id)
    cond = ch.condition(HOSPITAL)
    if cond is None:
        refuse(
            f"{ch.name} is not in the Hospital",
            f"{ch.name} не в Госпитале",
            "Z-REHAB-01",
            "Z-REHAB-04",
            tip="The administrator logs the arrival first (`arrive-hospital`).",
            tip_ru="Сначала администратор фиксирует прибытие (`arrive-hospital`).",
        )
    return cond


def schedule_release(
    ctx: ActionContext, char_id: str, cond: Condition, zones: dict[str, str], worsening: bool
) -> dict[str, Any]:
    """The stay's minutes and release time for ``zones`` (not yet scheduled)."""
    p = params(ctx)
    ch = ctx.character(char_id)
    est = rehab_minutes(zones, infection_counts(ch, p, worsening), implants_of(ch), p)
    start = datetime.fromisoformat(cond.data["arrived"])
    if p.rehab_clock_start == "examination":  # A-Z-31 alternative
        examined = cond.data.get("examined_at")
        start = datetime.fromisoformat(examined) if examined else ctx.now
    release = start + timedelta(minutes=est.minutes)
    return {"minutes": est.minutes, "release_at": release.isoformat(), "estimate": est}


def register(rs: Ruleset) -> None:
    """Declare the Hospital actions and the end of a stay."""

    class ArriveHospital(BaseModel):
        patient: str = Field(description="who arrives at the Hospital")
        staff: StaffRole = Field("administrator", description="who logs the arrival")
        escort: str | None = Field(None, max_length=80, description="who brought them")

    @rs.action(
        "arrive-hospital",
        ArriveHospital,
        roles=STAFF,
        summary=(
            "Log a patient's arrival at the Hospital (мертвяк)",
            "Зафиксировать прибытие в Госпиталь (мертвяк)",
        ),
        rule_ids=("Z-REHAB-01", "Z-REHAB-04", "Z-HW-11", "A-Z-31"),
    )
    def arrive(ctx: ActionContext, a: ArriveHospital) -> None:
        p = params(ctx)
        ch = ctx.character(a.patient)
        checks.require_in_game(ch)
        admin: StaffRole = (
            "administrator" if "administrator" in p.hospital_staff_roles else "chief_doctor"
        )
        checks.require_staff(p, a.staff, admin)
        if ch.has(HOSPITAL):
            raise Conflict(f"{ch.name} is already in the Hospital", ru=f"{ch.name} уже в Госпитале")
        clinical = ch.has(CLINICAL)
        heavy = ch.condition(HEAVY)
        if not clinical:
            if heavy is None or p.wound_model == "hits_only":
                refuse(
                    f"{ch.name} has neither a heavy wound nor a clinical death",
                    f"У {ch.name} нет ни тяжёлого ранения, ни клинической смерти",
                    "Z-HW-01",
                    "Z-REHAB-01",
                    "A-Z-01",
                    tip="A light wound is treated with a first-aid kit or by a healer.",
                    tip_ru="Лёгкое ранение лечат аптечкой или у лекаря.",
                )
            mode = p.heavy_wait_mode
            may_go = (
                heavy.data.get("en_route")
                or mode == "leave_within"
                or (mode == "until_help" and a.escort)
            )
            if not may_go:
                wait = str(heavy.data.get("wait_until") or "")
                refuse(
                    f"{ch.name} must first stay put ({wait[11:19] or 'until help comes'})",
                    f"{ch.name} должен сначала оставаться на месте ({wait[11:19] or 'до помощи'})",
                    WAIT_RULE[mode],
                    "Z-HW-07",
                    "A-Z-07",
                )
        stopped = stop_death_timer(ctx, ch.id, "hospital_arrival")
        ctx.cancel_all(ch.id, HEAVY_WAIT)
        ctx.emit(
            "hospital.arrived",
            {
                "character": ch.id,
                "staff": a.staff,
                "escort": a.escort,
                "death_timer_stopped": stopped,
            },
            ("Z-REHAB-01", "Z-REHAB-04", "Z-HOSP-01", "A-Z-31", "A-Z-32")
            + (("Z-CD-01",) if clinical else ("Z-HW-11",)),
        )

    class Examine(BaseModel):
        patient: str = Field(description="the patient")
        staff: StaffRole = Field("chief_doctor", description="who examines")
        charsheet: bool = Field(True, description="the player handed over the character sheet")
        zones: list[ZoneMark] = Field(
            default_factory=list, max_length=6, description="zone states found: zone=..,state=.."
        )
        identify_infections: bool = Field(False, description="identify the patient's infections")
        worsening: bool = Field(False, description="health is getting worse (counts as infection)")
        wounds: bool | None = Field(
            None, description="the death involved wounds (default: as recorded)"
        )
        prescriptions: list[str] = Field(
            default_factory=list, max_length=20, description="rehabilitation instructions"
        )

    @rs.action(
        "examine",
        Examine,
        roles=STAFF,
        summary=(
            "The Chief Doctor examines: zones, infections, the stay",
            "Осмотр у Главного Врача: зоны, инфекции, срок",
        ),
        rule_ids=("Z-REHAB-05", "Z-REHAB-06", "Z-HOSP-04", "Z-HOSP-05", "Z-CD-05", "Z-CD-06"),
    )
    def examine(ctx: ActionContext, a: Examine) -> None:
        p = params(ctx)
        ch = ctx.character(a.patient)
        cond = stay(ctx, ch.id)
        checks.require_staff(p, a.staff, "chief_doctor")
        if cond.data.get("examined"):
            raise Conflict(f"{ch.name} was already examined", ru=f"{ch.name} уже осмотрен")
        if not a.charsheet:
            refuse(
                "The Chief Doctor works from the character sheet: it must be handed over",
                "Главный Врач работает по чарлисту: его нужно предъявить",
                "Z-CD-04",
                "Z-HOSP-04",
                "Z-REHAB-13",
            )
        unknown = [c.data["code"] for c in conditions(ch, INFECTION) if not c.data["identified"]]
        if a.identify_infections and unknown:
            ctx.emit(
                "infection.identified",
                {"character": ch.id, "infections": unknown},
                ("Z-INF-02", "A-Z-27"),
            )
        zones: dict[str, str] = {z: ch.zones.get(z, "intact") for z in ZONES}
        zones.update({m.zone: m.state for m in a.zones})
        clinical = bool(cond.data.get("clinical_death"))
        wounds = cond.data.get("wounds", True) if a.wounds is None else a.wounds
        rolled: list[dict[str, Any]] = []
        rules = ["Z-REHAB-05", "Z-REHAB-06", "Z-HOSP-04", "Z-HOSP-05", "Z-REHAB-13"]
        if clinical:
            rules += ["Z-CD-04", "Z-CD-05", "A-Z-19"]
        if clinical and wounds:
            for _ in range(p.zone_rolls):
                r = ctx.roll(p.zone_die)
                zone = p.zone_die_map.get(r.total)
                rolled.append({"roll": r.total, "zone": zone})
                if zone is not None and zones[zone] == "intact":
                    zones[zone] = "damaged"
            rules += ["Z-CD-06", "A-Z-20"]
        found = schedule_release(ctx, ch.id, cond, zones, a.worsening)
        ctx.emit(
            "hospital.examined",
            {
                "character": ch.id,
                "staff": a.staff,
                "zones": zones,
                "rolled": rolled,
                "minutes": found["minutes"],
                "deadline": found["release_at"],
                "decision": "reanimation" if clinical else "rehabilitation",
                "worsening": a.worsening,
                "prescriptions": a.prescriptions,
                "estimate": found["estimate"].to_dict(),
            },
            tuple(dict.fromkeys((*rules, *found["estimate"].rule_ids))),
        )
        _schedule(ctx, ch.id, found["release_at"])

    class Instruct(BaseModel):
        patient: str = Field(description="the patient")
        staff: StaffRole = Field("chief_doctor", description="who gives the instruction")
        instruction: str = Field(min_length=1, max_length=500, description="what to do")

    @rs.action(
        "instruct",
        Instruct,
        roles=STAFF,
        summary=(
            "Hospital staff give a patient an instruction",
            "Указание пациенту от персонала Госпиталя",
        ),
        rule_ids=("Z-REHAB-02", "Z-HOSP-03", "Z-REHAB-06"),
    )
    def instruct(ctx: ActionContext, a: Instruct) -> None:
        ch = ctx.character(a.patient)
        stay(ctx, ch.id)
        checks.require_staff(params(ctx), a.staff)
        ctx.emit(
            "hospital.instructed",
            {"character": ch.id, "staff": a.staff, "instruction": a.instruction},
            ("Z-REHAB-02", "Z-HOSP-03", "Z-REHAB-06"),
        )

    class Discharge(BaseModel):
        patient: str = Field(description="the patient")
        payment: PaymentMethod = Field(description="insurance, money or work in the Hospital")
        amount: int | None = Field(None, ge=0, le=10**9, description="game money paid")
        staff: StaffRole = Field("administrator", description="who releases")

    @rs.action(
        "discharge",
        Discharge,
        roles=STAFF,
        summary=(
            "Pay and leave the Hospital: rehabilitated or reanimated",
            "Оплата и выход из Госпиталя: реабилитация или реанимация завершена",
        ),
        rule_ids=("Z-REHAB-11", "Z-HOSP-05", "A-Z-18", "A-Z-19"),
    )
    def discharge(ctx: ActionContext, a: Discharge) -> None:
        p = params(ctx)
        ch = ctx.character(a.patient)
        cond = stay(ctx, ch.id)
        checks.require_staff(p, a.staff)
        if not cond.data.get("examined"):
            refuse(
                f"{ch.name} has not been examined yet",
                f"{ch.name} ещё не осмотрен",
                "Z-REHAB-05",
                tip="The Chief Doctor examines first (`examine`).",
                tip_ru="Сначала осмотр у Главного Врача (`examine`).",
            )
        if not cond.data.get("done"):
            until = str(cond.data.get("release_at", ""))[11:19]
            refuse(
                f"{ch.name}'s stay lasts until {until}",
                f"{ch.name} находится в Госпитале до {until}",
                "Z-HOSP-05",
                "Z-REHAB-12",
                "A-Z-31",
            )
        checks.require_payment(ch, a.payment, a.amount, p)
        clinical = bool(cond.data.get("clinical_death"))
        replaced = clinical and p.clinical_death_replaces_character
        # A-Z-19: after reanimation the zones the Chief Doctor set stay (a lasting decline)
        keep = not replaced and (clinical or not p.discharge_heals_zones)
        zones = dict(ch.zones) if keep else dict.fromkeys(ZONES, "intact")
        rules = ["Z-REHAB-11", "Z-HOSP-05", "A-Z-18"]
        if clinical:
            rules += ["Z-CD-01", "Z-CD-03", "A-Z-19"]
        ctx.emit(
            "hospital.discharged",
            {
                "character": ch.id,
                "payment": a.payment,
                "amount": a.amount,
                "staff": a.staff,
                "decision": cond.data.get("decision"),
                "replaced": replaced,
                "zones": zones,
            },
            tuple(rules),
        )

    @rs.on_timer(REHAB_DONE)
    def rehab_done(ctx: ActionContext, t: Timer) -> None:
        if ctx.character(t.subject).has(HOSPITAL):
            ctx.emit("rehab.completed", {"character": t.subject}, ("Z-HOSP-05", "Z-REHAB-11"))


def _schedule(ctx: ActionContext, char_id: str, release_at: str) -> None:
    ctx.cancel_all(char_id, REHAB_DONE)
    delay = max(timedelta(0), datetime.fromisoformat(release_at) - ctx.now)
    ctx.schedule(REHAB_DONE, delay, char_id, rule_ids=("Z-HOSP-05", "A-Z-31"))


def reschedule(ctx: ActionContext, char_id: str) -> None:
    """Recompute an examined, unfinished stay (an infection identified later: Z-INF-05)."""
    cond = ctx.character(char_id).condition(HOSPITAL)
    if cond is None or not cond.data.get("examined") or cond.data.get("done"):
        return
    found = schedule_release(
        ctx, char_id, cond, dict(ctx.character(char_id).zones), bool(cond.data.get("worsening"))
    )
    if found["release_at"] == cond.data.get("release_at"):
        return
    ctx.emit(
        "hospital.stay_recomputed",
        {"character": char_id, "minutes": found["minutes"], "deadline": found["release_at"]},
        ("Z-INF-05", *found["estimate"].rule_ids),
    )
    _schedule(ctx, char_id, found["release_at"])
