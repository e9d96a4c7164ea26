"""What a form field may name, offered as a choice instead of a typed id.

A field that names something the campaign already has — a character, a hospital, its
tables and beds, a certificate, an epidemic, a lab, a game location — is a select of
those things *by name* (the id travels as the value; an ide4 check by whose and which
skill). Which field names what is
declared here, per ruleset, as data; a field that names something *new* (a journal
being opened, a disease being defined) or a word that only looks the same (a wound's
``location`` on the body, not a game location) is listed in :data:`NOT_PICKED` and
stays a text input with suggestions.

Every option comes from :class:`~lazaretto.web.prefill.Directory`, the public facts of
the campaign; a disease's name is offered to masters only.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel

from lazaretto.core.ruleset import Role
from lazaretto.web.forms import shape
from lazaretto.web.prefill import FIELD, Directory

SELECT_MAX = 150
"""Choices a select offers at most; past that (a LARP's 600 passports) a text input with
suggestions is quicker to use on a phone."""

CHARACTER = (
    "character",
    "patient",
    "healer",
    "supporter",
    "actor",
    "victim",
    "carrier",
    "author",
    "corpse",
    "taker",
    "holder",
    "attacker",
    "regional_master",
    "curator",
    "escort",
    "life_partner",
    "defender",
    "alchemist",
    "caster",
    "crafter",
    "mechanic",
)
"""Fields naming a character in every ruleset."""

KINDS: dict[str, dict[str, str]] = {
    "warhammer-larp": {
        "hospital": "hospital",
        "place": "place",
        "table": "table",
        "bed": "bed",
        "mat": "mat",
        "journal": "journal",
        "certificate": "certificate",
        "epidemic": "epidemic",
        "lab": "lab",
        "location": "location",
        "disease": "disease",
        "owner": "character",
    },
    "zone-larp": {"target": "character"},
    "fantasy-server": {"encounter": "encounter", "owner": "character"},
    "dnd5e-injuries": {},
    "ide4-survival": {"other": "character", "check": "check"},
}
"""Per ruleset, fields (beyond :data:`CHARACTER`) and the kind of thing they name."""

NOT_PICKED: frozenset[tuple[str, str]] = frozenset(
    {
        ("lose-hits", "location"),  # where on the body
        ("open-journal", "journal"),  # a journal being opened
        ("register-hospital", "journal"),  # its first journal, new
        ("define-disease", "code"),
        ("plan-raid", "owner"),  # the owner of a house, often unknown
        ("damage-property", "owner"),
    }
)
"""(action, field) pairs that name something new or something else."""

Options = list[tuple[str, str]]


def _characters(d: Directory) -> Options:
    return [(cid, f"{name} · {cid}" if name != cid else cid) for cid, name in d.characters]


def _hospitals(d: Directory) -> Options:
    return [(h.id, h.name) for h in d.hospitals]


def _place(d: Directory) -> Options:
    return [(FIELD, "field / поле"), *_hospitals(d)]


def _tables(d: Directory) -> Options:
    names = dict(d.characters)
    return [
        (t, f"{h.name}: {t}" + (f" ({names.get(o, o)})" if o else " ✓"))
        for h in d.hospitals
        for t, o in h.tables
    ]


def _beds(d: Directory) -> Options:
    names = dict(d.characters)
    return [
        (b, f"{h.name}: {b}" + (f" ({names.get(o, o)})" if o else " ✓"))
        for h in d.hospitals
        for b, o, _ in h.beds
    ]


def _mats(d: Directory) -> Options:
    names = dict(d.characters)
    return [(m, f"{m} ({names.get(who, who)})") for m, who, _ in d.mats]


def _journals(d: Directory) -> Options:
    return sorted({(j, f"{h.name}: {j}") for h in d.hospitals for j in h.journals})


def _certificates(d: Directory) -> Options:
    return list(d.certificates)


def _epidemics(d: Directory) -> Options:
    return list(d.epidemics)


def _labs(d: Directory) -> Options:
    return list(d.labs)


def _locations(d: Directory) -> Options:
    return list(d.locations)


def _encounters(d: Directory) -> Options:
    return list(d.encounters)


def _checks(d: Directory) -> Options:
    return list(d.checks)


def _diseases(d: Directory) -> Options:
    return [(c, f"{name} · {c}" if name != c else c) for c, name in d.diseases]


SOURCES: dict[str, Callable[[Directory], Options]] = {
    "character": _characters,
    "hospital": _hospitals,
    "place": _place,
    "table": _tables,
    "bed": _beds,
    "mat": _mats,
    "journal": _journals,
    "certificate": _certificates,
    "epidemic": _epidemics,
    "lab": _labs,
    "location": _locations,
    "encounter": _encounters,
    "disease": _diseases,
    "check": _checks,
}
MASTERS_ONLY = frozenset({"disease"})
"""Kinds whose names only masters may see offered (a disease's name is a secret)."""


def kind_of(ruleset: str, action: str, name: str) -> str | None:
    """The kind of thing field ``name`` of ``action`` names, or None."""
    if (action, name) in NOT_PICKED:
        return None
    if name in CHARACTER:
        return "character"
    return KINDS.get(ruleset, {}).get(name)


def picks(
    ruleset: str, action: str, model: type[BaseModel], role: Role, d: Directory
) -> dict[str, Options]:
    """Per field of ``model``, the choices a select offers (fields left out stay text)."""
    out: dict[str, Options] = {}
    for name, info in model.model_fields.items():
        base, many = shape(info.annotation)
        kind = kind_of(ruleset, action, name)
        if many or base is not str or kind is None:
            continue
        if kind in MASTERS_ONLY and role is not Role.MASTER:
            continue
        options = SOURCES[kind](d)
        if 0 < len(options) <= SELECT_MAX:
            out[name] = options
    return out
