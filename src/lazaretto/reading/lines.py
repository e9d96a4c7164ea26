"""How what happened reads to a person, in English or Russian: an event as one line
(the ruleset's ``event:KIND`` template filled from its payload, names for ids, times
as times), a countdown's name, a campaign time as HH:MM:SS, a value as words, and
English a rule wrote re-read in the reader's language. The CLI, the HTTP API and the
web pages all read events through here (it imports only :mod:`lazaretto.core`)."""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lazaretto.core.events import Event
    from lazaretto.core.ruleset import Ruleset
    from lazaretto.core.state import CampaignState

CORE_TEXTS = {
    "event:campaign.created": ("campaign created", "кампания создана"),
    "event:character.added": ("character {name} added", "добавлен персонаж {name}"),
    "event:clock.changed": ("clock moved", "часы переведены"),
    "event:timer.scheduled": (
        "countdown: {what} — {subject} at {deadline}",
        "отсчёт: {what} — {subject} в {deadline}",
    ),
    "event:timer.cancelled": (
        "countdown cancelled: {what} — {subject}",
        "отсчёт отменён: {what} — {subject}",
    ),
}
HIDDEN = {"timer.fired", "clock.changed"}
# a campaign time inside a payload or an answer, as JSON gives it: 2026-06-13T08:45:00
_ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)?")


def _moment(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            return value
    return value


def hhmm(value: Any, on: Any = None) -> str:
    """A campaign time as HH:MM:SS; with the date too when it falls on another day than
    ``on`` (the moment it is read against: now, or the event that set it), so that a
    countdown of a day does not read "since 19:00:00 → 19:00:00"."""
    value = _moment(value)
    if not isinstance(value, datetime):
        return str(value)
    reference = _moment(on)
    if isinstance(reference, datetime) and reference.date() != value.date():
        return str(value.strftime("%Y-%m-%d %H:%M:%S"))
    return str(value.strftime("%H:%M:%S"))


class _Default(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


class _WordsDict(dict[str, Any]):
    """A payload mapping that a template may index but that prints as words."""

    def __init__(self, value: dict[str, Any], shown: str) -> None:
        super().__init__(value)
        self.shown = shown

    def __str__(self) -> str:
        return self.shown

    def __format__(self, spec: str) -> str:
        return format(self.shown, spec)


class _WordsList(list[Any]):
    """A payload list that a template may index but that prints as words."""

    def __init__(self, value: list[Any], shown: str) -> None:
        super().__init__(value)
        self.shown = shown

    def __str__(self) -> str:
        return self.shown

    def __format__(self, spec: str) -> str:
        return format(self.shown, spec)


def _labeller(rs: Ruleset, key: str, lang: str) -> Callable[[str], str | None]:
    """Names the words inside the value of payload field ``key`` (``key:WORD`` texts)."""

    def label(word: str) -> str | None:
        return rs.text(f"{key}:{word}", lang)

    return label


def timer_label(rs: Ruleset, kind: str, lang: str) -> str:
    """A countdown's human name."""
    return rs.text(f"timer:{kind}", lang) or kind


def subject_name(rs: Ruleset, state: CampaignState, subject: str, lang: str) -> str:
    """Whom a countdown is about: a character's name, else the ruleset's word for a
    subject that is no character (ide4's ``party``, the whole group), else as stored."""
    if subject in state.characters:
        return state.characters[subject].name
    return rs.text(f"subject:{subject}", lang) or subject


def event_line(
    rs: Ruleset,
    state: CampaignState,
    ev: Event,
    lang: str,
    timers: dict[str, dict[str, Any]],
    on: datetime | None = None,
) -> str | None:
    """One line for a human, or None for bookkeeping events; its time has the date too
    when the event falls on another day than ``on`` (a clock moved past midnight)."""
    if ev.kind in HIDDEN:
        return None
    pair = CORE_TEXTS.get(f"event:{ev.kind}")
    template = (pair[1] if lang == "ru" else pair[0]) if pair else rs.text(f"event:{ev.kind}", lang)
    values = _Default({k: v for k, v in ev.payload.items()})
    for key in (
        "character",
        "healer",
        "patient",
        "supporter",
        "actor",
        "corpse",
        "subject",
        "victim",
        "target",
        "observer",
        "defender",
        "carrier",
        "author",
        "holder",
        "giver",
        "attacker",
        "resident",
        "donor",
        "taker",
        "crafter",
        "owner",
        "thief",
        "healed",
    ):
        if isinstance(values.get(key), str) and values[key] in state.characters:
            values[key] = state.characters[values[key]].name
    for key, value in list(values.items()):
        if isinstance(value, str) and _ISO.fullmatch(value):
            values[key] = hhmm(value, ev.at)
        elif isinstance(value, str):
            values[key] = rs.text(f"{key}:{value}", lang) or value
        elif value is None or isinstance(value, bool):  # words, not a repr
            values[key] = words(value, lang)
        elif isinstance(value, dict):  # still indexable by a template: {epidemic[id]}
            values[key] = _WordsDict(value, words(value, lang, _labeller(rs, key, lang)))
        elif isinstance(value, list):
            values[key] = _WordsList(value, words(value, lang, _labeller(rs, key, lang)))
    if "deadline" in values:
        values["deadline"] = hhmm(values["deadline"], ev.at)
    if ev.kind == "treatment.started":
        values["kind"] = rs.text(f"treatment:{ev.payload['kind']}", lang) or values["kind"]
    if ev.kind == "character.added":
        values["name"] = ev.payload["character"]["name"]
    if ev.kind in ("timer.scheduled", "timer.cancelled"):
        t = ev.payload.get("timer") or {**timers.get(ev.payload["id"], {}), **ev.payload}
        timers[t.get("id", "")] = t
        subject = t.get("subject", "")
        values.update(
            what=timer_label(rs, t.get("kind", "?"), lang),
            subject=subject_name(rs, state, subject, lang),
            deadline=hhmm(t.get("deadline", ""), ev.at),
        )
    text = string.Formatter().vformat(template or ev.kind, (), values)
    rules = f"  [{', '.join(dict.fromkeys(ev.rule_ids))}]" if ev.rule_ids else ""
    return f"{hhmm(ev.at, on)}  {text}{rules}"


def reread(rs: Ruleset, key: str, text: str, lang: str) -> str:
    """``text`` that a rule wrote in English from the ruleset's template ``key``
    (``journal:course`` is ``until {until}``), read in ``lang``: the values are taken out
    of the English and put into the template of ``lang``. A text the template does not
    match (a person wrote it, or an older rule) stays as it was written."""
    pair = rs.texts.get(key)
    if pair is None or lang != "ru" or not text:
        return text
    en, ru = pair
    pattern = "".join(
        re.escape(literal) + (f"(?P<{field}>.*?)" if field else "")
        for literal, field, _, _ in string.Formatter().parse(en)
    )
    found = re.fullmatch(pattern, text)
    return ru.format(**found.groupdict()) if found else text


def words(value: Any, lang: str, label: Callable[[str], str | None] | None = None) -> str:
    """A value as a person reads it, never a Python repr: ``STR 10, DEX 12`` for a
    mapping, ``P1, P2`` for a list, yes/no (да/нет) for a flag, ``—`` for nothing, a
    campaign time as ``2026-06-13 08:40:00``. ``label`` names a key or a word in the
    reader's language (None: keep it); a mapping's value is first named together with
    its key (``status:held``), so one word can read differently under two keys."""

    def name(word: Any, key: str | None = None) -> str:
        text = str(word)
        if label is None:
            return text
        return (label(f"{key}:{text}") if key else None) or label(text) or text

    def key_name(key: Any) -> str:
        text = str(key)
        return (label(text) if label is not None else None) or text.replace("_", " ")

    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if isinstance(value, bool):
        return ("да" if value else "нет") if lang == "ru" else ("yes" if value else "no")
    if isinstance(value, dict):
        parts = []
        for k, v in value.items():
            if isinstance(v, dict | list):
                parts.append(f"{key_name(k)}: {words(v, lang, label)}")
            elif isinstance(v, str) and v and not _ISO.fullmatch(v):
                parts.append(f"{key_name(k)} {name(v, str(k))}")
            else:
                parts.append(f"{key_name(k)} {words(v, lang, label)}")
        return "; ".join(parts)
    if isinstance(value, list | tuple | set | frozenset):
        inner = [words(v, lang, label) for v in value]
        nested = any(isinstance(v, dict | list) for v in value)
        return ("; " if nested else ", ").join(f"({w})" if nested else w for w in inner)
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, str):
        if _ISO.fullmatch(value):
            return datetime.fromisoformat(value).strftime("%Y-%m-%d %H:%M:%S")
        return name(value)
    return str(value)
