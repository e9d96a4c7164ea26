"""Reducers of the character sheet, the Hospital and the short states (zone-larp).

Traumas, infections and implants on the sheet; arrival, examination and release in the
Hospital (мертвяк); unconsciousness, knockdown, sudden states; exclusion. Registered on
``state.REDUCERS`` when the package is imported.
"""

from __future__ import annotations

from lazaretto.core.character import Condition, Visibility
from lazaretto.core.events import Event
from lazaretto.rulesets.zone_larp.state import (
    CLINICAL,
    EXCLUDED,
    HOSPITAL,
    INFECTION,
    KNOCKDOWN,
    OVERLAYS,
    REDUCERS,
    SUDDEN,
    TRAUMA,
    UNCONSCIOUS,
    WOUNDS,
    ZoneLarpState,
    add_memory_gap,
    conditions,
    parse_when,
    subject,
    trauma,
)


@REDUCERS.on("trauma.received")
def _trauma(state: ZoneLarpState, ev: Event) -> None:
    p = ev.payload
    subject(state, ev).conditions.append(
        Condition(
            kind=TRAUMA,
            started=ev.at,
            source=p["source"],
            visibility=Visibility.OWNER,
            data={
                "slot": p["slot"],
                "type": p["type"],
                "consequences": p.get("consequences", ""),
                "identified": False,
                "curable": True,
            },
        )
    )


@REDUCERS.on("trauma.identified")
def _trauma_identified(state: ZoneLarpState, ev: Event) -> None:
    cond = trauma(subject(state, ev), ev.payload["slot"])
    if cond is not None:
        cond.data.update(
            identified=True,
            type=ev.payload["type"],
            consequences=ev.payload["consequences"],
            curable=ev.payload["curable"],
        )


@REDUCERS.on("trauma.treatment_started")
def _trauma_treatment(state: ZoneLarpState, ev: Event) -> None:
    cond = trauma(subject(state, ev), ev.payload["slot"])
    if cond is not None:
        cond.deadline = parse_when(ev.payload["deadline"])
        cond.data["healer"] = ev.payload["healer"]


@REDUCERS.on("trauma.healed")
def _trauma_healed(state: ZoneLarpState, ev: Event) -> None:
    ch = subject(state, ev)
    ch.conditions = [
        c for c in ch.conditions if not (c.kind == TRAUMA and c.data["slot"] == ev.payload["slot"])
    ]


@REDUCERS.on("trauma.treatment_failed")
def _trauma_failed(state: ZoneLarpState, ev: Event) -> None:
    cond = trauma(subject(state, ev), ev.payload["slot"])
    if cond is not None:
        cond.deadline = None


@REDUCERS.on("infection.exposed")
def _exposed(state: ZoneLarpState, ev: Event) -> None:
    subject(state, ev).conditions.append(
        Condition(
            kind=INFECTION,
            started=ev.at,
            source=ev.payload["source"],
            visibility=Visibility.OWNER,
            data={"code": ev.payload["infection"], "identified": False},
        )
    )


@REDUCERS.on("infection.identified")
def _identified(state: ZoneLarpState, ev: Event) -> None:
    for c in conditions(subject(state, ev), INFECTION):
        if c.data["code"] in ev.payload["infections"]:
            c.data["identified"] = True


@REDUCERS.on("infection.cured")
def _cured(state: ZoneLarpState, ev: Event) -> None:
    ch = subject(state, ev)
    code = ev.payload["infection"]
    ch.conditions = [
        c for c in ch.conditions if not (c.kind == INFECTION and c.data["code"] == code)
    ]


@REDUCERS.on("implant.installed")
def _implant(state: ZoneLarpState, ev: Event) -> None:
    subject(state, ev).data.setdefault("implants", []).append(dict(ev.payload["implant"]))


@REDUCERS.on("implant.damaged")
def _implant_damaged(state: ZoneLarpState, ev: Event) -> None:
    for imp in subject(state, ev).data.get("implants", []):
        if imp["name"] == ev.payload["name"]:
            imp["damaged"] = True


@REDUCERS.on("implant.repaired")
def _implant_repaired(state: ZoneLarpState, ev: Event) -> None:
    for imp in subject(state, ev).data.get("implants", []):
        if imp["name"] == ev.payload["name"]:
            imp["damaged"] = False


@REDUCERS.on("hospital.arrived")
def _arrived(state: ZoneLarpState, ev: Event) -> None:
    p = ev.payload
    ch = subject(state, ev)
    clinical = ch.condition(CLINICAL)
    ch.drop(*WOUNDS, *OVERLAYS, CLINICAL)
    ch.put(
        Condition(
            kind=HOSPITAL,
            started=ev.at,
            source=p["staff"],
            data={
                "arrived": ev.at.isoformat(),
                "clinical_death": clinical is not None,
                "wounds": bool(clinical.data.get("wounds")) if clinical else True,
                "examined": False,
                "done": False,
                "prescriptions": [],
            },
        )
    )


@REDUCERS.on("hospital.examined")
def _examined(state: ZoneLarpState, ev: Event) -> None:
    p = ev.payload
    ch = subject(state, ev)
    ch.zones.update(p["zones"])
    cond = ch.condition(HOSPITAL)
    if cond is not None:
        cond.deadline = parse_when(p["deadline"])
        cond.data.update(
            examined=True,
            examined_at=ev.at.isoformat(),
            minutes=p["minutes"],
            release_at=p["deadline"],
            decision=p["decision"],
            worsening=p.get("worsening", False),
            prescriptions=list(p.get("prescriptions", [])),
            rolled=list(p.get("rolled", [])),
        )


@REDUCERS.on("hospital.stay_recomputed")
def _recomputed(state: ZoneLarpState, ev: Event) -> None:
    cond = subject(state, ev).condition(HOSPITAL)
    if cond is not None:
        cond.deadline = parse_when(ev.payload["deadline"])
        cond.data.update(minutes=ev.payload["minutes"], release_at=ev.payload["deadline"])


@REDUCERS.on("hospital.instructed")
def _instructed(state: ZoneLarpState, ev: Event) -> None:
    cond = subject(state, ev).condition(HOSPITAL)
    if cond is not None:
        cond.data.setdefault("prescriptions", []).append(ev.payload["instruction"])


@REDUCERS.on("rehab.completed")
def _rehab_done(state: ZoneLarpState, ev: Event) -> None:
    cond = subject(state, ev).condition(HOSPITAL)
    if cond is not None:
        cond.data["done"] = True


@REDUCERS.on("hospital.discharged")
def _discharged(state: ZoneLarpState, ev: Event) -> None:
    p = ev.payload
    ch = subject(state, ev)
    ch.hits = ch.hits_max
    ch.drop(HOSPITAL, *WOUNDS, *OVERLAYS)
    ch.zones = dict(p["zones"])
    if p.get("replaced"):
        ch.drop(TRAUMA, INFECTION)
        ch.data.pop("implants", None)
        ch.data.pop("memory_gaps", None)
        ch.data["replaced"] = int(ch.data.get("replaced", 0)) + 1


@REDUCERS.on("state.unconscious")
def _unconscious(state: ZoneLarpState, ev: Event) -> None:
    ch = subject(state, ev)
    ch.put(Condition(kind=UNCONSCIOUS, started=ev.at, deadline=parse_when(ev.payload["deadline"])))
    add_memory_gap(ch, ev.payload.get("memory_gap"))


@REDUCERS.on("state.knocked_down")
def _knocked_down(state: ZoneLarpState, ev: Event) -> None:
    subject(state, ev).put(
        Condition(kind=KNOCKDOWN, started=ev.at, deadline=parse_when(ev.payload["deadline"]))
    )


@REDUCERS.on("sudden_state.declared")
def _sudden(state: ZoneLarpState, ev: Event) -> None:
    subject(state, ev).put(
        Condition(
            kind=SUDDEN,
            started=ev.at,
            deadline=parse_when(ev.payload.get("deadline")),
            source=ev.payload.get("master", ""),
            visibility=Visibility.OWNER,
            data={"description": ev.payload["description"]},
        )
    )


@REDUCERS.on("state.ended")
def _ended(state: ZoneLarpState, ev: Event) -> None:
    subject(state, ev).drop(ev.payload["state"])


@REDUCERS.on("character.excluded")
def _excluded(state: ZoneLarpState, ev: Event) -> None:
    ch = subject(state, ev)
    ch.alive = False
    ch.hits = 0
    ch.conditions = [
        Condition(
            kind=EXCLUDED,
            started=ev.at,
            source=ev.payload.get("by", ""),
            data={"reason": ev.payload["reason"]},
        )
    ]


@REDUCERS.on("combat.changed")
def _combat(state: ZoneLarpState, ev: Event) -> None:
    state.combat_ongoing = ev.payload["ongoing"]


@REDUCERS.on("strike.parried")
@REDUCERS.on("operation.finished")
@REDUCERS.on("interaction.recorded")
def _record_only(state: ZoneLarpState, ev: Event) -> None:
    """Facts kept for the log; they change no state."""
