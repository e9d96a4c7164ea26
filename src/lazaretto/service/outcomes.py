"""The medical outcome of each character after the game (итоги по персонажам).

What the masters paste back into JoinRPG or a spreadsheet: per character its id,
name, group (from a JoinRPG import), state, alive or dead with the campaign time and
cause of death, the diseases it had and those cured, and its days in hospital. Read
from the campaign's state and its event log, whichever ruleset made them: the event
kinds below are those the bundled rulesets emit.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from lazaretto.core.character import Character
from lazaretto.core.events import Event

COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("id", "id", "id"),
    ("name", "name", "имя"),
    ("group", "group", "группа"),
    ("state", "state", "состояние"),
    ("alive", "alive", "жив"),
    ("died_at", "died at (campaign time)", "время смерти (игровое)"),
    ("cause", "cause of death", "причина смерти"),
    ("diseases", "diseases had", "болезни"),
    ("cured", "diseases cured", "вылеченные болезни"),
    ("hospital_days", "days in hospital", "дней в госпитале"),
)
"""The export's columns: key, English and Russian header."""

DIED = ("character.died",)
FELL_ILL = ("disease.infected", "infection.exposed", "case.sick")
CURED = ("disease.cured", "infection.cured", "case.cured")
ADMITTED = ("hospital.arrived",)
LEFT = ("hospital.discharged",)
JOURNAL = "journal.entry_added"
"""warhammer-larp: a journal entry ``admission`` opens a stay, ``outcome`` ends it."""
KINDS = (*DIED, *FELL_ILL, *CURED, *ADMITTED, *LEFT, JOURNAL)
DAY_S = 86_400


def headers(lang: str) -> list[str]:
    """The column headers in ``lang``."""
    return [ru if lang == "ru" else en for _, en, ru in COLUMNS]


def _who(ev: Event) -> str | None:
    p = ev.payload
    who = p.get("patient") if ev.kind == JOURNAL else p.get("character")
    return who if isinstance(who, str) else None


def _disease(ev: Event) -> str:
    p = ev.payload
    for key in ("code", "infection", "disease", "name"):
        if isinstance(p.get(key), str) and p[key]:
            return str(p[key])
    return "?"


def _group(ch: Character) -> str:
    joinrpg = ch.data.get("joinrpg")
    groups = joinrpg.get("groups") if isinstance(joinrpg, dict) else None
    return "; ".join(g for g in groups if isinstance(g, str)) if isinstance(groups, list) else ""


class _Tally:
    def __init__(self) -> None:
        self.diseases: list[str] = []
        self.cured: list[str] = []
        self.died: Event | None = None
        self.since: datetime | None = None
        self.seconds = 0.0

    def enter(self, at: datetime) -> None:
        if self.since is None:
            self.since = at

    def leave(self, at: datetime) -> None:
        if self.since is not None:
            self.seconds += max(0.0, (at - self.since).total_seconds())
            self.since = None


def outcomes(
    characters: dict[str, Character],
    events: list[Event],
    now: datetime,
    states: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """One row per character (keys: :data:`COLUMNS`), in id order. ``events`` is the
    log (of :data:`KINDS`, in order); ``now`` the campaign time an open hospital stay
    is counted to; ``states`` the ruleset's word for each one's state, if it has one."""
    tallies = {cid: _Tally() for cid in characters}
    for ev in events:
        t = tallies.get(_who(ev) or "")
        if t is None:
            continue
        if ev.kind in FELL_ILL and _disease(ev) not in t.diseases:
            t.diseases.append(_disease(ev))
        elif ev.kind in CURED and _disease(ev) not in t.cured:
            t.cured.append(_disease(ev))
        elif ev.kind in DIED:
            t.died = ev
            t.leave(ev.at)
        elif ev.kind in ADMITTED or (ev.kind == JOURNAL and ev.payload.get("type") == "admission"):
            t.enter(ev.at)
        elif ev.kind in LEFT or (ev.kind == JOURNAL and ev.payload.get("type") == "outcome"):
            t.leave(ev.at)
    rows = []
    for cid in sorted(characters):
        ch, t = characters[cid], tallies[cid]
        t.leave(now)
        died = t.died if not ch.alive else None
        rows.append(
            {
                "id": ch.id,
                "name": ch.name,
                "group": _group(ch),
                "state": (states or {}).get(cid) or ("dead" if not ch.alive else "alive"),
                "alive": ch.alive,
                "died_at": died.at.isoformat(timespec="minutes") if died else "",
                "cause": str(died.payload.get("cause") or "") if died else "",
                "diseases": t.diseases,
                "cured": t.cured,
                "hospital_days": round(t.seconds / DAY_S, 2),
            }
        )
    return rows
