"""Shared pieces of the part-2 warhammer tests: a disease catalogue and a ready campaign."""

from __future__ import annotations

from typing import Any

from lazaretto.core.engine import run_query
from lazaretto.core.ruleset import Role
from tests.game import Game
from tests.unit.warhammer.conftest import hospital

COURSE = ["drip", "enema", "herbal_drink", "inhalation", "psychotherapy", "sedative"]
COURSE_N = ["drip", "enema", "herbal_drink", "operation", "psychotherapy", "painkiller"]
RECIPE = ["salt", "rat tail", "mould", "ash", "bile"]
LETHAL_RECIPE = [*RECIPE, "nightshade", "grave dust", "toad"]
MINUTES = {"drip": 3, "inhalation": 3, "psychotherapy": 3}


def define(g: Game, code: str = "GF", **kw: Any) -> None:
    """Grey fever (contagious, non-lethal) unless ``kw`` says otherwise."""
    spec: dict[str, Any] = {
        "code": code,
        "name": "Grey fever" if code == "GF" else f"Disease {code}",
        "symptoms": "cough loudly",
        "penalties": "cannot run",
        "contagious": True,
        "course": COURSE,
        "recipe": RECIPE,
    }
    spec.update(kw)
    g.act("define-disease", **spec)


def game(**params: Any) -> Game:
    """Healers H and H2, carrier K, hospital h1 (number 7, location 'town'), people p0..p14."""
    g = Game(start="08:00", params=params or None)
    g.healer("H")
    g.healer("H2")
    g.add("K", "Karl", skills=("Carrier",))
    for i in range(15):
        g.add(f"p{i}")
    hospital(g, location="town")
    return g


def q(g: Game, name: str, role: Role = Role.MASTER, **kw: Any) -> dict[str, Any]:
    """Ask a query of the campaign."""
    return run_query(g.rs, g.state, name, kw, role=role)


def sticker_of(g: Game, char: str, code: str = "GF") -> str:
    """The code of the sticker of ``code`` in ``char``'s passport."""
    cond = next(c for c in g.ch(char).conditions if c.kind == "disease" and c.data["code"] == code)
    return str(cond.data["sticker"])


def held_codes(g: Game, char: str, code: str | None = None) -> list[str]:
    """Stickers in ``char``'s hand."""
    return sorted(
        s.code
        for s in g.state.stickers.values()
        if s.status == "held" and s.holder == char and (code is None or s.disease == code)
    )


def ill(g: Game, char: str, code: str = "GF") -> bool:
    """Whether ``char`` is ill with ``code``."""
    return any(c.kind == "disease" and c.data["code"] == code for c in g.ch(char).conditions)


def cure_in_hospital(
    g: Game,
    patient: str,
    codes: list[str],
    healer: str = "H",
    bed: str = "b1",
    at: str | None = None,
    hospital: str = "h1",
) -> None:
    """Admit, anamnesis, diagnosis, course and every item: the full hospital path."""
    g.act("admit", at=at, hospital=hospital, patient=patient, healer=healer)
    g.act("record-anamnesis", hospital=hospital, patient=patient, healer=healer)
    for code in codes:
        if code not in g.ch(healer).data.get("book", {}):
            g.act("add-to-book", healer=healer, code=code, description="from the scroll")
        g.act("diagnose", hospital=hospital, patient=patient, healer=healer, disease=code)
    g.act(
        "start-disease-course",
        hospital=hospital,
        patient=patient,
        healer=healer,
        bed=bed,
        diseases=codes,
    )
    for code in codes:
        items = g.state.diseases[code]["course"]
        for item in items:
            kw: dict[str, Any] = {"minutes": MINUTES.get(item)}
            if item == "operation":
                kw["table"] = "t1"
            g.act("course-item", patient=patient, disease=code, item=item, **kw)
