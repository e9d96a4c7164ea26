"""``undo``, ``records`` and ``log --corrections``: the history's records and what late
records and undos changed (see docs/late-records.md)."""

from __future__ import annotations

from typing import Annotated

import typer

from lazaretto.cli.app import JsonOpt
from lazaretto.cli.env import Env, get_env, guarded
from lazaretto.reading.corrections import ROLES_RU
from lazaretto.reading.corrections import cause_text as cause_text
from lazaretto.reading.corrections import correction_text as correction_text
from lazaretto.reading.lines import hhmm


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
    # one wording with docs/late-records.md: "refused on re-run" (issue 27)
    words = {"ok": ("ok", "ок"), "refused": ("refused on re-run", "отказ при пересчёте"),
             "undone": ("undone", "отменена")}
    _, state, _ = env.load(env.campaign_name())
    now = state.clock.now() if state.clock is not None else None  # other days: dated
    times = [hhmm(r["at"], now) if r["at"] else "?" for r in found]
    width = max(map(len, times), default=0)
    for r, at in zip(found, times, strict=True):
        what = r["action"] or r["kind"]
        status = words.get(r["status"], (r["status"],) * 2)[env.lang == "ru"]
        actor = ROLES_RU.get(r["actor"], r["actor"]) if env.lang == "ru" else r["actor"]
        line = f"r{r['record']:<5} {at:<{width}}  {what:<24} {actor:<16} {status}"
        if r["status"] == "refused" and r["refusal"]:
            line += f" — {r['refusal'].get(env.lang, r['refusal'].get('en'))}"
        if r["undone_by"]:
            line += f" (r{r['undone_by']})"
        env.say(line, one_line=True)


def register(app: typer.Typer) -> None:
    app.command("undo")(guarded(undo_cmd))
    app.command("records")(guarded(records_cmd))
