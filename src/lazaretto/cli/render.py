"""Human output: events as lines, times, and :func:`clean`, which every line the CLI
prints for a person passes through."""

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

# Terminal control characters: C0 (but tab and newline), DEL, C1 (ESC and CSI start
# escape sequences that move the cursor, clear the screen, set the window title...), and
# the bidirectional overrides that make a name read backwards.
_CONTROL = "\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"
_UNSAFE = re.compile(f"[{_CONTROL}]")
_UNSAFE_ONE_LINE = re.compile(f"[{_CONTROL}\t\n]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return {9: "\\t", 10: "\\n"}.get(code) or (
        f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    )


def clean(text: str, *, keep_newlines: bool = True) -> str:
    """``text`` with every terminal control character shown as an escape (``\\x1b``).

    Names, wound locations and journal corrections are typed by players and masters:
    printed raw, an escape sequence in one could clear a GM's screen or forge a line.
    ``keep_newlines=False`` escapes tabs and line breaks too, for one-line output.
    """
    return (_UNSAFE if keep_newlines else _UNSAFE_ONE_LINE).sub(_escape, text)


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


def hhmm(value: Any) -> str:
    """A campaign time as HH:MM:SS (the date is shown only in full listings)."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return str(value)
    return str(value.strftime("%H:%M:%S")) if isinstance(value, datetime) else str(value)


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
    rs: Ruleset, state: CampaignState, ev: Event, lang: str, timers: dict[str, dict[str, Any]]
) -> str | None:
    """One line for a human, or None for bookkeeping events."""
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
            values[key] = hhmm(value)
        elif isinstance(value, str):
            values[key] = rs.text(f"{key}:{value}", lang) or value
        elif value is None or isinstance(value, bool):  # words, not a repr
            values[key] = words(value, lang)
        elif isinstance(value, dict):  # still indexable by a template: {epidemic[id]}
            values[key] = _WordsDict(value, words(value, lang, _labeller(rs, key, lang)))
        elif isinstance(value, list):
            values[key] = _WordsList(value, words(value, lang, _labeller(rs, key, lang)))
    if "deadline" in values:
        values["deadline"] = hhmm(values["deadline"])
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
            deadline=hhmm(t.get("deadline", "")),
        )
    text = string.Formatter().vformat(template or ev.kind, (), values)
    rules = f"  [{', '.join(dict.fromkeys(ev.rule_ids))}]" if ev.rule_ids else ""
    return f"{hhmm(ev.at)}  {text}{rules}"


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


def event_dict(ev: Event) -> dict[str, Any]:
    """An event as JSON (with the record that produced it, when known)."""
    out = ev.model_dump(mode="json")
    if ev.record is not None:
        out["record"] = ev.record
    return out


def remaining(deadline: datetime, now: datetime) -> str:
    """``12m30s`` until ``deadline``."""
    secs = int((deadline - now).total_seconds())
    sign = "-" if secs < 0 else ""
    secs = abs(secs)
    h, rem = divmod(secs, 3600)
    m, s = divmod(rem, 60)
    return f"{sign}{h}h{m:02d}m{s:02d}s" if h else f"{sign}{m}m{s:02d}s"


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


def safe_console() -> Any:
    """A Rich console that prints nothing raw: strings are cleaned (:func:`clean`), and so
    are a table's title, headers and cells, which are shown as plain text, so a name like
    ``[blink]Boris`` is not read as Rich markup either. (A line break inside a cell only
    makes the cell taller: it cannot forge a line outside the table.)"""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    def plain(cell: Any) -> Any:
        return Text(clean(cell)) if isinstance(cell, str) else cell

    class SafeConsole(Console):
        def print(self, *objects: Any, **kwargs: Any) -> None:
            safe: list[Any] = []
            for obj in objects:
                if isinstance(obj, str):
                    obj = clean(obj)
                elif isinstance(obj, Table):
                    obj.title = plain(obj.title) if obj.title is not None else None
                    for column in obj.columns:
                        column.header = plain(column.header)
                        column._cells = [plain(c) for c in column._cells]
                safe.append(obj)
            super().print(*safe, **kwargs)

    return SafeConsole(highlight=False, soft_wrap=True)


def plain_table(headers: list[str], rows: list[list[str]], *, title: str | None = None) -> str:
    """A table drawn like Rich's default (heavy head), without importing Rich: for the
    commands that must start at once (``odds``). Cells are cleaned to one line each;
    numbers-looking columns are not re-aligned (the caller formats them)."""
    head = [clean(h, keep_newlines=False) for h in headers]
    body = [[clean(c, keep_newlines=False) for c in row] for row in rows]
    widths = [max([len(h), *(len(r[i]) for r in body)]) for i, h in enumerate(head)]

    def line(left: str, fill: str, mid: str, right: str) -> str:
        return left + mid.join(fill * (w + 2) for w in widths) + right

    def cells(bar: str, values: list[str]) -> str:
        return bar + bar.join(f" {v:<{w}} " for v, w in zip(values, widths, strict=True)) + bar

    out = []
    if title:
        total = sum(widths) + 3 * len(widths) + 1
        out.append(clean(title, keep_newlines=False).center(total).rstrip())
    out += [line("┏", "━", "┳", "┓"), cells("┃", head), line("┡", "━", "╇", "┩")]
    out += [cells("│", r) for r in body]
    out.append(line("└", "─", "┴", "┘"))
    return "\n".join(out)
