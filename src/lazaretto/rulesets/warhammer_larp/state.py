"""The warhammer-larp campaign state and its reducers.

Hospitals (госпиталь) with numbered operating tables and beds, field mats
(подстилка), the weather, and per-patient admissions to a hospital journal. Wound
states live on the characters as conditions:

* ``light_wound`` (лёгкое ранение) — deadline = when it turns heavy, ``None`` if bandaged;
* ``heavy_wound`` (тяжёлое ранение) — deadline = death, ``None`` if bandaged;
* ``treatment`` (лечение) — a light-wound rest or post-operation bed rest;
* ``on_table`` — on an operating table; ``supporting`` — holding up a wounded one;
* ``dead`` (смерть персонажа).
"""

from __future__ import annotations

import weakref
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field, PrivateAttr

from lazaretto.core.character import Character, Condition
from lazaretto.core.events import Event, ReducerRegistry
from lazaretto.core.state import CORE_REDUCERS, CampaignState
from lazaretto.rulesets.warhammer_larp.hands import Hands
from lazaretto.rulesets.warhammer_larp.models import Epidemic, Lab, Location, Sticker
from lazaretto.rulesets.warhammer_larp.occupancy import Lying, bed_spot, forget, release, seat

WOUND_KINDS = ("light_wound", "heavy_wound")


class Place(BaseModel):
    """An operating table or a bed; one patient at a time (W-HOSP-13)."""

    id: str
    on_ground: bool = False
    occupant: str | None = None


class Journal(BaseModel):
    """A hospital journal (журнал госпиталя): entries are events; this keeps the count."""

    name: str
    entries: int = 0


class Hospital(BaseModel):
    """A registered (chipped) hospital with its number (W-HOSP-18)."""

    id: str
    name: str
    number: str
    tables: dict[str, Place] = Field(default_factory=dict)
    beds: dict[str, Place] = Field(default_factory=dict)
    journals: dict[str, Journal] = Field(default_factory=dict)
    closed: bool = False
    location: str | None = None
    awaiting_signature: dict[str, str] = Field(default_factory=dict)  # patient -> journal

    def place(self, place_id: str) -> Place | None:
        """A bed, or a table used as a bed (W-HOSP-14)."""
        return self.beds.get(place_id) or self.tables.get(place_id)


class Mat(BaseModel):
    """A healer's field mat (подстилка): one patient at a time (W-HEAL-08)."""

    id: str
    healer: str
    occupant: str | None = None


class Admission(BaseModel):
    """Where a patient's current stay is written."""

    hospital: str
    journal: str
    entry: int
    anamnesis: bool = False
    diagnoses: list[str] = Field(default_factory=list)


class WarhammerState(CampaignState):
    """warhammer-larp state: hospitals, mats, weather, admissions; the disease catalogue,
    stickers, certificates, labs, outbreaks, epidemics, locations and armies' convoys."""

    hospitals: dict[str, Hospital] = Field(default_factory=dict)
    mats: dict[str, Mat] = Field(default_factory=dict)
    raining: bool = False
    admissions: dict[str, Admission] = Field(default_factory=dict)
    diseases: dict[str, dict[str, Any]] = Field(default_factory=dict)
    certificates: dict[str, dict[str, Any]] = Field(default_factory=dict)
    stickers: dict[str, Sticker] = Field(default_factory=dict)
    sticker_serial: int = 0
    labs: dict[str, Lab] = Field(default_factory=dict)
    epidemics: dict[str, Epidemic] = Field(default_factory=dict)
    outbreaks: dict[str, dict[str, Any]] = Field(default_factory=dict)
    locations: dict[str, Location] = Field(default_factory=dict)
    convoys: dict[str, int] = Field(default_factory=dict)
    treatises: dict[str, dict[str, Any]] = Field(default_factory=dict)
    studies: dict[str, dict[str, Any]] = Field(default_factory=dict)
    cures: list[dict[str, Any]] = Field(default_factory=list)
    journal_cures: list[dict[str, Any]] = Field(default_factory=list)
    contacts: dict[str, datetime] = Field(default_factory=dict)
    # who lies where and whose hand each sticker is in, for this very object
    # (occupancy.py, hands.py)
    _lying: tuple[weakref.ref[WarhammerState], Lying] | None = PrivateAttr(default=None)
    _hands: tuple[weakref.ref[WarhammerState], Hands] | None = PrivateAttr(default=None)


REDUCERS = ReducerRegistry(CORE_REDUCERS)


def _char(state: WarhammerState, ev: Event) -> Character:
    return state.characters[ev.payload["character"]]


def _when(value: Any) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


@REDUCERS.on("wound.hits_lost")
def _hits_lost(state: WarhammerState, ev: Event) -> None:
    ch = _char(state, ev)
    ch.hits = ev.payload["hits"]
    if ev.payload.get("location"):
        ch.data.setdefault("wound_locations", []).append(ev.payload["location"])


@REDUCERS.on("wound.light_started")
def _light_started(state: WarhammerState, ev: Event) -> None:
    _char(state, ev).put(
        Condition(
            kind="light_wound",
            started=ev.at,
            deadline=_when(ev.payload["deadline"]),
            source=ev.payload.get("source", ""),
            data={"bandaged": False},
        )
    )


@REDUCERS.on("wound.became_heavy")
def _became_heavy(state: WarhammerState, ev: Event) -> None:
    ch = _char(state, ev)
    ch.hits = 0
    ch.drop("light_wound")
    ch.put(
        Condition(
            kind="heavy_wound",
            started=ev.at,
            deadline=_when(ev.payload["deadline"]),
            source=ev.payload.get("source", ""),
            data={"bandaged": False},
        )
    )


@REDUCERS.on("wound.bandaged")
def _bandaged(state: WarhammerState, ev: Event) -> None:
    ch = _char(state, ev)
    for c in ch.conditions:
        if c.kind in WOUND_KINDS:
            c.deadline = None
            c.data["bandaged"] = True
            c.data["bandages"] = ev.payload.get("bandages", 0)


@REDUCERS.on("wound.bandage_expired")
def _bandage_expired(state: WarhammerState, ev: Event) -> None:
    ch = _char(state, ev)
    for c in ch.conditions:
        if c.kind in WOUND_KINDS:
            c.deadline = _when(ev.payload["deadline"])
            c.data["bandaged"] = False


@REDUCERS.on("character.died")
def _died(state: WarhammerState, ev: Event) -> None:
    ch = _char(state, ev)
    ch.alive = False
    ch.hits = 0
    ch.conditions = [Condition(kind="dead", started=ev.at, source=ev.payload.get("cause", ""))]
    release(state, ch.id)
    _let_go(state, ch)


def _let_go(state: WarhammerState, patient: Character) -> None:
    """Whoever holds ``patient`` up lets go (a death, a cure): the patient keeps who
    supports them, so this does not look at every character (W-WND-10)."""
    for sid in patient.data.pop("supported_by", []):
        other = state.characters.get(sid)
        sup = other.condition("supporting") if other is not None else None
        if other is not None and sup is not None and sup.data.get("patient") == patient.id:
            other.drop("supporting")


@REDUCERS.on("character.cured")
def _cured(state: WarhammerState, ev: Event) -> None:
    ch = _char(state, ev)
    ch.hits = ch.hits_max
    ch.drop(*WOUND_KINDS, "treatment", "on_table")
    ch.data.pop("wound_locations", None)
    ch.data.pop("stitches", None)
    if not ch.has("disease_course"):  # W-DTRT-19: no wound treatment runs beside a course
        release(state, ch.id)
    _let_go(state, ch)


@REDUCERS.on("treatment.started")
def _treatment_started(state: WarhammerState, ev: Event) -> None:
    p = ev.payload
    ch = _char(state, ev)
    ch.put(
        Condition(
            kind="treatment",
            started=ev.at,
            deadline=_when(p["deadline"]),
            source=p["healer"],
            data={k: p.get(k) for k in ("kind", "healer", "hospital", "bed", "mat")},
        )
    )
    _occupy(state, ch.id, p.get("hospital"), p.get("bed"), p.get("mat"))


def _occupy(
    state: WarhammerState, char_id: str, hospital: str | None, bed: str | None, mat: str | None
) -> None:
    if mat:
        seat(state, ("mats", "", mat), char_id)
    if hospital and bed:
        spot = bed_spot(state.hospitals[hospital], bed)
        if spot is not None:
            seat(state, spot, char_id)


@REDUCERS.on("treatment.interrupted")
def _treatment_interrupted(state: WarhammerState, ev: Event) -> None:
    ch = _char(state, ev)
    ch.drop("treatment", "on_table")
    release(state, ch.id)


@REDUCERS.on("treatment.rescheduled")
def _treatment_rescheduled(state: WarhammerState, ev: Event) -> None:
    cond = _char(state, ev).condition("treatment")
    if cond is not None:
        cond.deadline = _when(ev.payload["deadline"])
        cond.started = _when(ev.payload["started"]) or cond.started


@REDUCERS.on("patient.moved")
def _moved(state: WarhammerState, ev: Event) -> None:
    ch = _char(state, ev)
    release(state, ch.id)
    _occupy(state, ch.id, ev.payload["hospital"], ev.payload["bed"], None)
    cond = ch.condition("treatment")
    if cond is not None:
        cond.data.update(hospital=ev.payload["hospital"], bed=ev.payload["bed"], mat=None)


@REDUCERS.on("operation.started")
def _op_started(state: WarhammerState, ev: Event) -> None:
    p = ev.payload
    ch = _char(state, ev)
    release(state, ch.id)
    ch.put(
        Condition(
            kind="on_table",
            started=ev.at,
            source=p["healer"],
            data={"hospital": p["hospital"], "table": p["table"], "healer": p["healer"]},
        )
    )
    seat(state, ("tables", p["hospital"], p["table"]), ch.id)


@REDUCERS.on("operation.finished")
def _op_finished(state: WarhammerState, ev: Event) -> None:
    ch = _char(state, ev)
    ch.drop("on_table")
    release(state, ch.id)
    ch.data["stitches"] = ev.payload["stitches"]


@REDUCERS.on("support.started")
def _support_started(state: WarhammerState, ev: Event) -> None:
    supporter, patient = ev.payload["supporter"], ev.payload["patient"]
    state.characters[supporter].put(
        Condition(kind="supporting", started=ev.at, data={"patient": patient})
    )
    held_by = state.characters[patient].data.setdefault("supported_by", [])
    if supporter not in held_by:
        held_by.append(supporter)


@REDUCERS.on("support.ended")
def _support_ended(state: WarhammerState, ev: Event) -> None:
    supporter = state.characters[ev.payload["supporter"]]
    sup = supporter.condition("supporting")
    supporter.drop("supporting")
    patient = state.characters.get(str(sup.data.get("patient"))) if sup is not None else None
    if patient is not None and supporter.id in patient.data.get("supported_by", []):
        patient.data["supported_by"].remove(supporter.id)


@REDUCERS.on("hospital.registered")
def _hospital_registered(state: WarhammerState, ev: Event) -> None:
    h = Hospital.model_validate(ev.payload["hospital"])
    state.hospitals[h.id] = h
    forget(state)  # its places may come with occupants


@REDUCERS.on("hospital.journal_opened")
def _journal_opened(state: WarhammerState, ev: Event) -> None:
    name = ev.payload["journal"]
    state.hospitals[ev.payload["hospital"]].journals[name] = Journal(name=name)


@REDUCERS.on("hospital.penalized")
def _penalized(state: WarhammerState, ev: Event) -> None:
    if ev.payload.get("close"):
        state.hospitals[ev.payload["hospital"]].closed = True


@REDUCERS.on("undo.kept")
def _numbers_kept(state: WarhammerState, ev: Event) -> None:
    """A struck entry keeps its number (see ``journal.kept_after_undo``)."""
    for n in ev.payload.get("journal_numbers", []):
        h = state.hospitals.get(n["hospital"])
        book = h.journals.get(n["journal"]) if h is not None else None
        if book is not None:
            book.entries = max(book.entries, n["no"])


@REDUCERS.on("journal.entry_added")
def _entry_added(state: WarhammerState, ev: Event) -> None:
    p = ev.payload
    h = state.hospitals[p["hospital"]]
    h.journals[p["journal"]].entries = p["no"]
    patient = p.get("patient")
    if p["type"] == "admission" and patient:
        state.admissions[patient] = Admission(hospital=h.id, journal=p["journal"], entry=p["no"])
    elif p["type"] == "outcome" and patient:
        state.admissions.pop(patient, None)
        if p.get("outcome") == "recovered":
            h.awaiting_signature[patient] = p["journal"]
            for code in p.get("diseases", []):  # W-EPI-09: cures are counted from journals
                state.journal_cures.append(
                    {"hospital": h.id, "patient": patient, "disease": code, "at": ev.at.isoformat()}
                )
    elif p["type"] == "anamnesis" and patient and patient in state.admissions:
        state.admissions[patient].anamnesis = True
    elif p["type"] == "diagnosis" and patient and patient in state.admissions:
        state.admissions[patient].diagnoses.append(p["diagnosis"])
    elif p["type"] == "signature" and patient:
        h.awaiting_signature.pop(patient, None)


@REDUCERS.on("mat.registered")
def _mat_registered(state: WarhammerState, ev: Event) -> None:
    m = Mat.model_validate(ev.payload["mat"])
    state.mats[m.id] = m
    forget(state)


@REDUCERS.on("weather.changed")
def _weather(state: WarhammerState, ev: Event) -> None:
    state.raining = ev.payload["raining"]


@REDUCERS.on("healer.kit_checked")
def _kit_checked(state: WarhammerState, ev: Event) -> None:
    _char(state, ev).data["kit"] = {
        "complete": ev.payload["complete"],
        "missing": ev.payload["missing"],
    }


@REDUCERS.on("healer.book_entry_added")
def _book_entry(state: WarhammerState, ev: Event) -> None:
    book = _char(state, ev).data.setdefault("book", {})
    book[ev.payload["code"]] = ev.payload.get("description", "")


@REDUCERS.on("corpse.interacted")
def _record_only(state: WarhammerState, ev: Event) -> None:
    """Facts recorded for the log; they change no state."""
