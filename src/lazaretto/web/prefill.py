"""What an action form is prefilled with, and the suggestions its inputs offer.

A healer at a wounded character should only have to press *Submit*: the patient comes
from the card, the healer is the user's own healer character, the bandage count is the
hits lost, the mat is the healer's, and in a hospital the first free bed or table is
proposed. These are suggestions only; the ruleset checks whatever is submitted.

:class:`Directory` holds the public facts the suggestions are made from — names and ids
of characters, hospitals, their beds and tables, mats, and where a patient is admitted —
never conditions or diseases, which only reach a user through the service's cards.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from lazaretto.core.ruleset import Role
from lazaretto.core.state import CampaignState
from lazaretto.service.accounts import Membership
from lazaretto.web.forms import SUBJECT_FIELDS, shape, subject_field

FIELD = "field"


@dataclass(frozen=True)
class Hospital:
    """A hospital's ids: its beds and tables (free or not), its journals."""

    id: str
    name: str
    closed: bool
    beds: tuple[tuple[str, str | None, bool], ...]  # (id, occupant, on the ground)
    tables: tuple[tuple[str, str | None], ...]  # (id, occupant)
    journals: tuple[str, ...]


@dataclass(frozen=True)
class Directory:
    """The public facts of a campaign that forms suggest from."""

    characters: tuple[tuple[str, str], ...]
    hospitals: tuple[Hospital, ...] = ()
    mats: tuple[tuple[str, str, bool], ...] = ()  # (id, healer, free)
    admitted: dict[str, str] = field(default_factory=dict)  # patient -> hospital
    diseases: tuple[tuple[str, str], ...] = ()  # (code, name): offered to masters only
    certificates: tuple[tuple[str, str], ...] = ()  # (id, label): the unused ones
    epidemics: tuple[tuple[str, str], ...] = ()  # (id, label)
    labs: tuple[tuple[str, str], ...] = ()  # (id, name)
    locations: tuple[tuple[str, str], ...] = ()  # (id, name): game locations
    encounters: tuple[tuple[str, str], ...] = ()  # (id, label): combats going on
    checks: tuple[tuple[str, str], ...] = ()  # (id, label): the latest d100 checks (ide4)

    def hospital(self, hid: str | None) -> Hospital | None:
        return next((h for h in self.hospitals if h.id == hid), None)


SOMEONE = "—"
"""Who occupies a bed or a table, or holds a mat, when the user may not know them."""


CHECKS = 30
"""The latest d100 checks a form offers to pick (a reroll goes on a recent one)."""


def directory(
    state: CampaignState,
    known: Collection[str] | None = None,
    skill: Callable[[str], str] | None = None,
) -> Directory:
    """The public facts of ``state`` (rulesets without hospitals or mats give none);
    with ``known``, only the characters whose names the user may know (a player: the
    campaign's ``player_sight``, :meth:`PlayService.names`): anyone else is
    :data:`SOMEONE` where a place is taken. ``skill`` names a check's skill in the
    reader's language (a check is offered as "Olga: Attention [0] · 08:00", never
    by its id)."""

    def who(char_id: str | None) -> str | None:
        return char_id if known is None or char_id is None or char_id in known else SOMEONE

    hospitals = []
    for h in getattr(state, "hospitals", {}).values():
        hospitals.append(
            Hospital(
                h.id,
                h.name,
                bool(h.closed),
                tuple((b.id, who(b.occupant), bool(b.on_ground)) for b in h.beds.values()),
                tuple((t.id, who(t.occupant)) for t in h.tables.values()),
                tuple(h.journals),
            )
        )
    mats = tuple(
        (m.id, who(m.healer) or SOMEONE, m.occupant is None)
        for m in getattr(state, "mats", {}).values()
    )
    admitted = {p: a.hospital for p, a in getattr(state, "admissions", {}).items() if who(p) == p}
    diseases = tuple((c, str(d.get("name", c))) for c, d in getattr(state, "diseases", {}).items())
    chars = tuple((c.id, c.name) for c in state.characters.values() if who(c.id) == c.id)
    names = dict(chars)

    def label(char_id: Any) -> Any:
        return names.get(char_id, char_id) if who(char_id) == char_id else SOMEONE

    places = {loc.id: loc.name for loc in getattr(state, "locations", {}).values()}
    certificates = tuple(
        (cid, f"{cid} · {c.get('kind', '')} · {label(c.get('holder'))}")
        for cid, c in getattr(state, "certificates", {}).items()
        if not c.get("used")
    )
    epidemics = tuple(
        (e.id, f"{e.id} · {places.get(e.location, e.location)}")
        for e in getattr(state, "epidemics", {}).values()
    )
    labs = tuple((lab.id, lab.name) for lab in getattr(state, "labs", {}).values())
    locations = tuple(places.items())
    encounters = tuple(
        (e.id, f"{e.id} · " + ", ".join(label(p) for p in e.participants))
        for e in getattr(state, "encounters", {}).values()
        if e.active
    )
    checks = tuple(
        (
            k.id,
            f"{names[k.character]}: {(skill or str)(k.skill)} [{k.difficulty}] · {k.at:%H:%M}"
            + (" …" if k.pending else ""),
        )
        for k in reversed(list(getattr(state, "checks", {}).values()))
        if k.character in names
    )[:CHECKS]
    return Directory(
        chars,
        tuple(hospitals),
        mats,
        admitted,
        diseases,
        certificates,
        epidemics,
        labs,
        locations,
        encounters,
        checks,
    )


def _lost(card: Mapping[str, Any] | None) -> int:
    if not card:
        return 0
    return max(0, int(card.get("hits_max", 0)) - int(card.get("hits", 0)))


def defaults(
    model: type[BaseModel],
    member: Membership,
    query: Mapping[str, str],
    d: Directory,
    card: Mapping[str, Any] | None,
) -> dict[str, str]:
    """The values a new form starts with (the query string wins over guesses)."""
    names = model.model_fields
    out = {k: v for k, v in query.items() if k in names and v}
    subject = subject_field(model)
    if subject and subject not in out:
        who = query.get("character") or (
            member.characters[0] if member.role is Role.PLAYER and member.characters else ""
        )
        if who:
            out[subject] = who
    patient = out.get(subject or "", "")
    mine = list(member.characters)
    with_mat = [c for c in mine if any(m[1] == c for m in d.mats)]
    for f in ("healer", "author"):
        if f in names and f not in out and f != subject and member.role is Role.HEALER and mine:
            out[f] = (with_mat or mine)[0]
    if "bandages" in names and "bandages" not in out and _lost(card):
        out["bandages"] = str(_lost(card))
    if "stitches" in names and "stitches" not in out and _lost(card) and card:
        places = [str(w) for w in card.get("wound_locations", [])] or [
            "location="
        ]  # one per lost hit
        out["stitches"] = "\n".join(places[i % len(places)] for i in range(_lost(card)))
    open_ = [h for h in d.hospitals if not h.closed]
    where = d.admitted.get(patient) or (open_[0].id if len(open_) == 1 else None)
    if "hospital" in names and "hospital" not in out and where:
        out["hospital"] = where
    if "place" in names and "place" not in out and d.admitted.get(patient):
        out["place"] = d.admitted[patient]
    hospital = d.hospital(out.get("hospital") or out.get("place") or d.admitted.get(patient))
    healer = out.get("healer", "")
    if "mat" in names and "mat" not in out and out.get("place", FIELD) == FIELD:
        free = [m[0] for m in d.mats if m[1] == healer] + [m[0] for m in d.mats if m[2]]
        if free:
            out["mat"] = free[0]
    if hospital is not None:
        beds = [b[0] for b in hospital.beds if b[1] is None and not b[2]] + [
            b[0] for b in hospital.beds if b[1] is None and b[2]
        ]
        if "bed" in names and "bed" not in out and beds:
            out["bed"] = beds[0]
        tables = [t[0] for t in hospital.tables if t[1] is None]
        if "table" in names and "table" not in out and tables:
            out["table"] = tables[0]
    return out


def suggestions(
    model: type[BaseModel], member: Membership, d: Directory
) -> dict[str, list[tuple[str, str]]]:
    """Per field, the values its input suggests (an HTML ``datalist``)."""
    out: dict[str, list[tuple[str, str]]] = {}
    hospitals = [(h.id, h.name) for h in d.hospitals]
    for name, info in model.model_fields.items():
        base, many = shape(info.annotation)
        if many or base is not str:
            continue
        if name in SUBJECT_FIELDS:
            out[name] = list(d.characters)
        elif name == "hospital":
            out[name] = hospitals
        elif name == "place":
            out[name] = [(FIELD, FIELD), *hospitals]
        elif name == "mat":
            out[name] = [(m[0], m[1]) for m in d.mats]
        elif name == "bed":
            out[name] = [(b[0], h.id) for h in d.hospitals for b in h.beds]
        elif name == "table":
            out[name] = [(t[0], h.id) for h in d.hospitals for t in h.tables]
        elif name == "journal":
            out[name] = sorted({(j, h.id) for h in d.hospitals for j in h.journals})
        elif name in ("disease", "code") and member.role is Role.MASTER:
            out[name] = list(d.diseases)
    return out
