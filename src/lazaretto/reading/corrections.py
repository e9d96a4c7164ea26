"""A correction as a person reads it: what a late record or an undo changed of what
had been shown (the event undone or now happening) and the record behind it — who,
when, entered when (see docs/late-records.md). Shared by the CLI, the API and the web."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from lazaretto.core.events import Event
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.reading.lines import event_line

#: A record made without naming a character names its role; Russian names the role in Russian.
ROLES_RU = {"master": "мастер", "healer": "лекарь", "player": "игрок"}


def hms(iso: str) -> str:
    """A stored ISO time as HH:MM:SS ("?" when there is none)."""
    return datetime.fromisoformat(iso).strftime("%H:%M:%S") if iso else "?"


def cause_text(cause: dict[str, Any], lang: str, names: dict[str, str] | None = None) -> str:
    """The record behind a correction, for a person: what, when, by whom (``by``: the
    maker in the reader's terms, a character's name where ``names`` knows it), and
    when it was entered; a master's record told to a healer or a player
    (``hidden``: :func:`lazaretto.core.visibility.correction_for`) says only that the
    master corrected it."""
    ru = lang == "ru"
    if cause.get("hidden"):  # a master's record, told to a healer or a player
        return "исправлено мастером" if ru else "corrected by the master"
    who = str(cause.get("by") or str(cause.get("actor", "")).split(":")[-1])
    who = (names or {}).get(who) or (ROLES_RU.get(who, who) if ru else who)
    entered = cause.get("wall", "")
    entered_at = datetime.fromisoformat(entered).astimezone().strftime("%H:%M") if entered else "?"
    if cause.get("kind") == "void":
        return (
            f"запись {cause.get('voids')} отменена ({who}, в {entered_at})"
            if ru
            else f"record {cause.get('voids')} undone ({who}, at {entered_at})"
        )
    what = cause.get("action") or cause.get("kind", "")
    return (
        f"{what} в {hms(cause.get('at', ''))}, {who} (внесено в {entered_at}, "
        f"запись {cause.get('record')})"
        if ru
        else f"{what} at {hms(cause.get('at', ''))} by {who} (entered {entered_at}, "
        f"record {cause.get('record')})"
    )


def correction_text(
    rs: Ruleset, state: CampaignState, correction: dict[str, Any], lang: str
) -> str:
    """One correction as a line: the outcome, undone or now happening, and why."""
    event = Event.model_validate(correction["event"])
    line = event_line(rs, state, event, lang, {}) or event.kind
    undone = correction["change"] == "undone"
    names = {cid: ch.name for cid, ch in state.characters.items()}
    head = ("ОТМЕНЕНО" if undone else "ТЕПЕРЬ") if lang == "ru" else (
        "UNDONE" if undone else "NOW")
    return f"{head}: {line} — {_why(correction['cause'], lang, names)}"


def _why(cause: dict[str, Any], lang: str, names: dict[str, str] | None) -> str:
    """"because of: <the record>", or "corrected by the master" alone when the record
    is the master's and kept from the reader."""
    told = cause_text(cause, lang, names)
    if cause.get("hidden"):
        return told
    return f"{'из-за' if lang == 'ru' else 'because of'}: {told}"


def journal_mark(row: dict[str, Any], lang: str, names: dict[str, str] | None = None) -> str:
    """A journal entry's mark (service ``journal``): struck out or added by a
    correction, and the record why (``struck out — because of: record 27 undone
    (master, at 09:59)``); empty for an entry nothing corrected."""
    change = row.get("correction")
    if change not in ("struck", "added"):
        return ""
    head = {
        "struck": ("struck out", "зачёркнуто"),
        "added": ("added by a correction", "добавлено исправлением"),
    }[change][lang == "ru"]
    return f"{head} — {_why(row.get('corrected_by') or {}, lang, names)}"
