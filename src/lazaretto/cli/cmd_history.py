"""``undo``, ``records`` and ``log --corrections``: the history's records and what late
records and undos changed (see docs/late-records.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import typer

from lazaretto.cli.app import JsonOpt
from lazaretto.cli.env import Env, get_env, guarded
from lazaretto.cli.render import event_line
from lazaretto.core.events import Event
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.state import CampaignState

#: A record made without ``--as`` names its role; Russian names the role in Russian.
ROLES_RU = {"master": "мастер", "healer": "лекарь", "player": "игрок"}


def _hms(iso: str) -> str:
    return datetime.fromisoformat(iso).strftime("%H:%M:%S") if iso else "?"


def cause_text(cause: dict[str, Any], lang: str, names: dict[str, str] | None = None) -> str:
    """The record behind a correction, for a person: what, when, by whom (a
    character's name where ``names`` knows it), and when it was entered."""
    ru = lang == "ru"
    who = str(cause.get("actor", "")).split(":")[-1]
    who = (names or {}).get(who, who)
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
        f"{what} в {_hms(cause.get('at', ''))}, {who} (внесено в {entered_at}, "
        f"запись {cause.get('record')})"
        if ru
        else f"{what} at {_hms(cause.get('at', ''))} by {who} (entered {entered_at}, "
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
    if lang == "ru":
        head = "ОТМЕНЕНО" if undone else "ТЕПЕРЬ"
        return f"{head}: {line} — из-за: {cause_text(correction['cause'], lang, names)}"
    head = "UNDONE" if undone else "NOW"
    return f"{head}: {line} — because of: {cause_text(correction['cause'], lang, names)}"


def print_corrections(env: Env, as_json: bool, about: str | None = None) -> None:
    """Print the campaign's corrections (``log --corrections``)."""
    campaign = env.campaign_name()
    found = env.service.corrections(campaign, about)
    if as_json:
        env.emit_json(found)
        return
    if not found:
        env.say(env.tr("no corrections", "исправлений нет"))
        return
    rs, state, _ = env.service.load(campaign)
    for c in found:
        env.say(correction_text(rs, state, c, env.lang), one_line=True)


def undo_cmd(
    record: Annotated[int, typer.Argument(help="the record to take back (see `records`)")],
    reason: Annotated[str, typer.Option("--reason", help="why (kept with the undo)")] = "",
    as_json: JsonOpt = False,
) -> None:
    """Take back RECORD: the history runs again without it; what changes is listed."""
    env = get_env()
    campaign = env.campaign_name()
    before = len(env.service.corrections(campaign))
    done = env.service.void(campaign, record, reason=reason)
    after = env.service.corrections(campaign)[before:]
    if as_json:
        env.emit_json(
            {"record": getattr(done, "record", None), "voids": record, "corrections": after}
        )
        return
    env.say(
        env.tr(
            f"record {record} undone (record {getattr(done, 'record', '?')})",
            f"запись {record} отменена (запись {getattr(done, 'record', '?')})",
        )
    )
    rs, state, _ = env.service.load(campaign)
    for c in after:
        env.say(correction_text(rs, state, c, env.lang), one_line=True)


def records_cmd(
    after: Annotated[int, typer.Option("--after", help="only records after this one")] = 0,
    as_json: JsonOpt = False,
) -> None:
    """The campaign's records in arrival order: what was recorded, when, by whom, and
    what the history made of it (ok, refused on re-run, undone)."""
    env = get_env()
    found = env.service.records(env.campaign_name(), after)
    if as_json:
        env.emit_json(found)
        return
    status_ru = {"ok": "ок", "refused": "отказ при пересчёте", "undone": "отменена"}
    for r in found:
        what = r["action"] or r["kind"]
        status = r["status"] if env.lang != "ru" else status_ru.get(r["status"], r["status"])
        actor = ROLES_RU.get(r["actor"], r["actor"]) if env.lang == "ru" else r["actor"]
        line = f"r{r['record']:<5} {_hms(r['at'])}  {what:<24} {actor:<16} {status}"
        if r["status"] == "refused" and r["refusal"]:
            line += f" — {r['refusal'].get(env.lang, r['refusal'].get('en'))}"
        if r["undone_by"]:
            line += f" (r{r['undone_by']})"
        env.say(line, one_line=True)


def register(app: typer.Typer) -> None:
    app.command("undo")(guarded(undo_cmd))
    app.command("records")(guarded(records_cmd))
