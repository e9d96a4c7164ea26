"""The zone-larp campaign state and its reducers.

The character sheet (чарлист) lives on each :class:`Character`: ``hits``, the six body
zones in ``zones`` (intact / damaged / infected), implants, insurance and memory gaps
in ``data``. Health states are conditions:

* ``light_wound`` (лёгкое ранение) — deadline = end of the first-aid-kit window;
* ``heavy_wound`` (тяжёлое ранение, «при смерти») — deadline = death without medicine;
* ``treatment`` — the 15-minute rest after a bandage, or the 25 minutes after an
  operation; ``on_table`` — being operated on;
* ``in_hospital`` (Госпиталь, мертвяк) — deadline = release; ``clinical_death``;
  ``excluded`` (исключение из игры);
* ``unconscious``, ``knockdown``, ``sudden_state`` — short states a master or a weapon
  causes; ``trauma`` and ``infection`` — one condition each, several may coexist.

The reducers of the wound state machine are here; those of the sheet, the Hospital and
the short states are in ``sheet_reducers.py``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from lazaretto.core.character import Character, Condition
from lazaretto.core.events import Event, ReducerRegistry
from lazaretto.core.state import CORE_REDUCERS, CampaignState
from lazaretto.rulesets.zone_larp.params import ZONES

LIGHT = "light_wound"
HEAVY = "heavy_wound"
TREATMENT = "treatment"
ON_TABLE = "on_table"
HOSPITAL = "in_hospital"
CLINICAL = "clinical_death"
EXCLUDED = "excluded"
UNCONSCIOUS = "unconscious"
KNOCKDOWN = "knockdown"
SUDDEN = "sudden_state"
TRAUMA = "trauma"
INFECTION = "infection"
WOUNDS = (LIGHT, HEAVY, TREATMENT, ON_TABLE)
OVERLAYS = (UNCONSCIOUS, KNOCKDOWN, SUDDEN)


class ZoneLarpState(CampaignState):
    """zone-larp state: whether a fight is going on (A-Z-07, Z-HW-03)."""

    combat_ongoing: bool = False


REDUCERS = ReducerRegistry(CORE_REDUCERS)


def subject(state: ZoneLarpState, ev: Event, key: str = "character") -> Character:
    """The character an event is about."""
    return state.characters[ev.payload[key]]


def parse_when(value: Any) -> datetime | None:
    """An ISO time from a payload, or None."""
    return None if value is None else datetime.fromisoformat(value)


def add_memory_gap(ch: Character, gap: dict[str, Any] | None) -> None:
    """Record a span the character does not remember (Z-HW-13, Z-STATE-12)."""
    if gap:
        ch.data.setdefault("memory_gaps", []).append(gap)


def conditions(ch: Character, kind: str) -> list[Condition]:
    """Every condition of ``kind`` (traumas and infections may be several)."""
    return [c for c in ch.conditions if c.kind == kind]


def trauma(ch: Character, slot: int) -> Condition | None:
    """The trauma in card field ``slot``, if any."""
    return next((c for c in conditions(ch, TRAUMA) if c.data["slot"] == slot), None)


@REDUCERS.on("character.added")
def _added(state: ZoneLarpState, ev: Event) -> None:
    """A new character's sheet shows all six zones, intact unless given (Z-ZONE-01)."""
    ch = Character.model_validate(ev.payload["character"])
    ch.zones = {z: ch.zones.get(z, "intact") for z in ZONES} | ch.zones
    state.characters[ch.id] = ch


@REDUCERS.on("charsheet.issued")
def _sheet(state: ZoneLarpState, ev: Event) -> None:
    ch = subject(state, ev)
    ch.hits_max = ch.hits = ev.payload["hits"]
    ch.zones = dict(ev.payload["zones"])
    ch.data["insurance"] = ev.payload["insurance"]


@REDUCERS.on("zone.marked")
def _zone(state: ZoneLarpState, ev: Event) -> None:
    subject(state, ev).zones[ev.payload["zone"]] = ev.payload["state"]


@REDUCERS.on("wound.hits_lost")
def _hits_lost(state: ZoneLarpState, ev: Event) -> None:
    ch = subject(state, ev)
    ch.hits = ev.payload["hits"]
    if ev.payload.get("zone_damaged"):
        ch.zones[ev.payload["zone"]] = "damaged"


@REDUCERS.on("wound.light_started")
def _light(state: ZoneLarpState, ev: Event) -> None:
    subject(state, ev).put(
        Condition(
            kind=LIGHT,
            started=ev.at,
            deadline=parse_when(ev.payload["deadline"]),
            source=ev.payload.get("source", ""),
            data={"kit": False},
        )
    )


@REDUCERS.on("wound.kit_applied")
def _kit(state: ZoneLarpState, ev: Event) -> None:
    light = subject(state, ev).condition(LIGHT)
    if light is not None:
        light.deadline = None
        light.data.update(kit=True, kit_at=ev.at.isoformat(), by=ev.payload.get("by", "kit"))


@REDUCERS.on("wound.became_heavy")
def _heavy(state: ZoneLarpState, ev: Event) -> None:
    p = ev.payload
    ch = subject(state, ev)
    ch.hits = 0
    ch.drop(LIGHT, TREATMENT, ON_TABLE)
    ch.put(
        Condition(
            kind=HEAVY,
            started=ev.at,
            deadline=parse_when(p["deadline"]),
            source=p.get("source", ""),
            data={
                "wait_until": p.get("wait_until"),
                "armband": p.get("armband", False),
                "en_route": False,
                "extended": False,
            },
        )
    )
    add_memory_gap(ch, p.get("memory_gap"))


@REDUCERS.on("wound.wait_extended")
def _extended(state: ZoneLarpState, ev: Event) -> None:
    heavy = subject(state, ev).condition(HEAVY)
    if heavy is not None:
        heavy.data["extended"] = True


@REDUCERS.on("wound.set_off")
def _set_off(state: ZoneLarpState, ev: Event) -> None:
    heavy = subject(state, ev).condition(HEAVY)
    if heavy is not None:
        heavy.data.update(
            en_route=True, armband=True, extended=False, escort=ev.payload.get("escort")
        )


@REDUCERS.on("wound.death_timer_stopped")
def _stopped(state: ZoneLarpState, ev: Event) -> None:
    heavy = subject(state, ev).condition(HEAVY)
    if heavy is not None:
        heavy.deadline = None


@REDUCERS.on("character.clinical_death")
def _clinical(state: ZoneLarpState, ev: Event) -> None:
    ch = subject(state, ev)
    ch.hits = 0
    ch.drop(*WOUNDS, *OVERLAYS, HOSPITAL)
    ch.put(
        Condition(
            kind=CLINICAL,
            started=ev.at,
            source=ev.payload.get("cause", ""),
            data={"wounds": ev.payload.get("wounds", True)},
        )
    )
    add_memory_gap(ch, ev.payload.get("memory_gap"))


@REDUCERS.on("character.recovered")
def _recovered(state: ZoneLarpState, ev: Event) -> None:
    ch = subject(state, ev)
    ch.hits = ch.hits_max
    ch.drop(*WOUNDS)


@REDUCERS.on("treatment.started")
def _treatment(state: ZoneLarpState, ev: Event) -> None:
    p = ev.payload
    ch = subject(state, ev)
    ch.drop(ON_TABLE)
    if p["kind"] == "post_op":
        ch.drop(HEAVY)
    ch.put(
        Condition(
            kind=TREATMENT,
            started=ev.at,
            deadline=parse_when(p["deadline"]),
            source=p["healer"],
            data={"kind": p["kind"], "healer": p["healer"], "cared": False},
        )
    )


@REDUCERS.on("treatment.cared")
def _cared(state: ZoneLarpState, ev: Event) -> None:
    cond = subject(state, ev).condition(TREATMENT)
    if cond is not None:
        cond.data["cared"] = True


@REDUCERS.on("treatment.interrupted")
def _interrupted(state: ZoneLarpState, ev: Event) -> None:
    subject(state, ev).drop(TREATMENT, ON_TABLE)


@REDUCERS.on("operation.started")
def _op_started(state: ZoneLarpState, ev: Event) -> None:
    ch = subject(state, ev)
    ch.put(
        Condition(
            kind=ON_TABLE,
            started=ev.at,
            source=ev.payload["healer"],
            data={"healer": ev.payload["healer"], "measure": ev.payload["measure"]},
        )
    )
