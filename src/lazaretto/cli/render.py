"""Human output: events as lines, times, tables."""

from __future__ import annotations

import string
from datetime import datetime
from typing import Any

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


def timer_label(rs: Ruleset, kind: str, lang: str) -> str:
    """A countdown's human name."""
    return rs.text(f"timer:{kind}", lang) or kind


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
    ):
        if isinstance(values.get(key), str) and values[key] in state.characters:
            values[key] = state.characters[values[key]].name
    for key, value in list(values.items()):
        if isinstance(value, str):
            values[key] = rs.text(f"{key}:{value}", lang) or value
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
            subject=state.characters[subject].name if subject in state.characters else subject,
            deadline=hhmm(t.get("deadline", "")),
        )
    text = string.Formatter().vformat(template or ev.kind, (), values)
    rules = f"  [{', '.join(ev.rule_ids)}]" if ev.rule_ids else ""
    return f"{hhmm(ev.at)}  {text}{rules}"


def event_dict(ev: Event) -> dict[str, Any]:
    """An event as JSON."""
    return ev.model_dump(mode="json")


def remaining(deadline: datetime, now: datetime) -> str:
    """``12m30s`` until ``deadline``."""
    secs = int((deadline - now).total_seconds())
    sign = "-" if secs < 0 else ""
    secs = abs(secs)
    h, rem = divmod(secs, 3600)
    m, s = divmod(rem, 60)
    return f"{sign}{h}h{m:02d}m{s:02d}s" if h else f"{sign}{m}m{s:02d}s"
