"""``clock``, ``timers``, ``journal`` and ``log`` commands."""

from __future__ import annotations

import csv
import sys
from datetime import datetime
from typing import Annotated, Any

import typer

from lazaretto.cli.app import JsonOpt
from lazaretto.cli.env import Env, get_env, guarded
from lazaretto.cli.render import (
    event_dict,
    event_line,
    hhmm,
    remaining,
    reread,
    subject_name,
    timer_label,
)
from lazaretto.core.clock import Clock, parse_duration, parse_time
from lazaretto.core.errors import InvalidInput
from lazaretto.core.events import Event

clock_app = typer.Typer(no_args_is_help=True, help="Show and move the campaign clock.")


def _print_events(
    env: Env, events: list[Event], as_json: bool, since: datetime | None = None
) -> None:
    """What a clock move did; an event on another day than the move's start (``since``)
    is printed with its date."""
    name = env.campaign_name()
    if as_json:
        rs, state, _ = env.service.load(name)
        assert state.clock is not None
        env.emit_json(
            {"now": state.clock.now().isoformat(), "events": [event_dict(e) for e in events]}
        )
        return
    rs, state, _ = env.service.load(name)
    timers: dict[str, dict[str, Any]] = {}
    for ev in events:
        line = event_line(rs, state, ev, env.lang, timers, on=since)
        if line:
            env.say(line, one_line=True)
    assert state.clock is not None
    env.show(
        env.tr(
            f"clock: {state.clock.now():%Y-%m-%d %H:%M:%S}",
            f"часы: {state.clock.now():%Y-%m-%d %H:%M:%S}",
        )
    )


@clock_app.command("show")
@guarded
def clock_show(as_json: JsonOpt = False) -> None:
    """Show the campaign time."""
    env = get_env()
    name = env.campaign_name()
    env.catch_up(name)
    _, state, _ = env.service.load(name)
    assert state.clock is not None
    data = {
        "mode": state.clock.mode.value,
        "paused": state.clock.paused,
        "now": state.clock.now().isoformat(),
    }
    if as_json:
        env.emit_json(data)
    else:
        paused = env.tr(" (paused)", " (пауза)") if state.clock.paused else ""
        env.show(f"{state.clock.now():%Y-%m-%d %H:%M:%S} {state.clock.mode.value}{paused}")


@clock_app.command("advance")
@guarded
def clock_advance(
    by: Annotated[str, typer.Argument(help="e.g. 30m, 1h15m, 90s")], as_json: JsonOpt = False
) -> None:
    """Move time forward, firing every countdown that comes due, in order."""
    env = get_env()
    name = env.campaign_name()
    _, state, _ = env.service.load(name)
    assert state.clock is not None
    try:
        when = state.clock.now() + parse_duration(by)
    except OverflowError as exc:
        raise InvalidInput(
            f"Cannot advance by {by}: past the end of the calendar",
            ru=f"Нельзя сдвинуть на {by}: за концом календаря",
        ) from exc
    events = env.service.advance_to(name, when)
    _print_events(env, events, as_json, since=state.clock.now())


@clock_app.command("set")
@guarded
def clock_set(
    to: Annotated[str, typer.Argument(help="HH:MM[:SS] or ISO date-time")], as_json: JsonOpt = False
) -> None:
    """Move time forward to a given moment (never backwards)."""
    env = get_env()
    name = env.campaign_name()
    _, state, _ = env.service.load(name)
    assert state.clock is not None
    events = env.service.advance_to(name, parse_time(to, reference=state.clock.now()))
    _print_events(env, events, as_json, since=state.clock.now())


@clock_app.command("pause")
@guarded
def clock_pause(as_json: JsonOpt = False) -> None:
    """Pause a realtime clock (countdowns stop)."""
    env = get_env()
    _print_events(env, env.service.set_clock(env.campaign_name(), Clock.pause), as_json)


@clock_app.command("resume")
@guarded
def clock_resume(as_json: JsonOpt = False) -> None:
    """Resume a paused realtime clock."""
    env = get_env()
    _print_events(env, env.service.set_clock(env.campaign_name(), Clock.resume), as_json)


def timers_cmd(as_json: JsonOpt = False) -> None:
    """Pending countdowns, soonest first."""
    env = get_env()
    name = env.campaign_name()
    env.catch_up(name)
    rs, state, _ = env.load(name)  # on SQLite without SQLAlchemy
    assert state.clock is not None
    now = state.clock.now()
    rows: list[dict[str, Any]] = [
        {
            "id": t.id,
            "kind": t.kind,
            "what": timer_label(rs, t.kind, env.lang),
            "subject": t.subject,
            "name": state.characters[t.subject].name if t.subject in state.characters else "",
            "deadline": t.deadline.isoformat(),
            "remaining_seconds": int((t.deadline - now).total_seconds()),
        }
        for t in state.pending_timers()
    ]
    if as_json:
        env.emit_json({"now": now.isoformat(), "timers": rows})
        return
    if not rows:
        env.show(
            env.tr(
                f"No pending countdowns ({now:%H:%M:%S})", f"Нет идущих отсчётов ({now:%H:%M:%S})"
            )
        )
        return
    env.table(  # drawn without Rich when it can be (issue 17)
        [env.tr("at", "в"), env.tr("in", "через"), env.tr("what", "что"), env.tr("who", "кто")],
        [
            [
                hhmm(r["deadline"], now),
                remaining(datetime.fromisoformat(r["deadline"]), now),
                r["what"],
                f"{r['name']} ({r['subject']})"
                if r["name"]
                else subject_name(rs, state, r["subject"], env.lang),
            ]
            for r in rows
        ],
        title=env.tr(f"Countdowns at {now:%H:%M:%S}", f"Отсчёты на {now:%H:%M:%S}"),
    )


ENTRY_TYPES = {
    "admission": ("admission", "поступление"),
    "outcome": ("outcome", "исход"),
    "signature": ("signature", "подпись"),
    "correction": ("correction", "исправление"),
    "penalty": ("penalty", "штраф"),
    "anamnesis": ("anamnesis", "анамнез"),
    "diagnosis": ("diagnosis", "диагноз"),
    "course": ("course", "курс"),
    "disease": ("disease case", "случай болезни"),
    "study": ("study", "изучение"),
}
OUTCOMES = {"recovered": ("recovered", "выздоровел"), "died": ("died", "умер")}


def _journal_rows(env: Env, hospital: str | None) -> list[dict[str, Any]]:
    keys = (
        "hospital",
        "journal",
        "no",
        "time",
        "type",
        "patient",
        "name",
        "race",
        "age",
        "wounds",
        "outcome",
        "corrects",
        "text",
        "healer",
        "anamnesis",
        "diagnosis",
        "course",
        "rule_ids",
    )
    marks = ("correction", "corrected_by")  # what a late record or an undo did to it
    return [
        {k: r.get(k) for k in keys} | {k: r[k] for k in marks if k in r}
        for r in env.service.journal(env.campaign_name(), hospital)
    ]


def journal_cmd(
    hospital: Annotated[str | None, typer.Option(help="only this hospital")] = None,
    csv_out: Annotated[bool, typer.Option("--csv", help="CSV for printing")] = False,
    as_json: JsonOpt = False,
) -> None:
    """The hospital journal: every entry, in order; corrections are entries too."""
    env = get_env()
    env.catch_up(env.campaign_name())
    rows = _journal_rows(env, hospital)
    rs = env.service.ruleset(env.campaign_name())
    if as_json:
        env.emit_json(rows)
        return
    if csv_out:
        from lazaretto.service.exports import csv_cell  # cells no spreadsheet runs

        w = csv.DictWriter(
            sys.stdout,
            fieldnames=[k for k in rows[0] if k != "rule_ids"] if rows else ["hospital"],
            extrasaction="ignore",
        )
        w.writeheader()
        w.writerows({k: csv_cell(v) for k, v in r.items()} for r in rows)
        return
    if not rows:
        env.console.print(env.tr("The journal is empty", "Журнал пуст"))
        return
    from rich.table import Table  # eight columns: wider than a terminal, Rich fits them

    table = Table(
        env.tr("hospital", "госпиталь"),
        "№",
        env.tr("time", "время"),
        env.tr("entry", "запись"),
        env.tr("patient", "пациент"),
        env.tr("race", "раса"),
        env.tr("age", "возраст"),
        env.tr("wounds / outcome", "раны / исход"),
    )
    from lazaretto.reading.corrections import journal_mark

    _, state, _ = env.load(env.campaign_name())
    names = {cid: ch.name for cid, ch in state.characters.items()}
    for r in rows:
        tr = ENTRY_TYPES.get(r["type"], (r["type"], r["type"]))
        detail = (
            ", ".join(r["wounds"] or [])
            if r["type"] == "admission"
            else (
                env.tr(*OUTCOMES.get(r["outcome"], (r["outcome"], r["outcome"])))
                if r["type"] == "outcome"
                else (
                    f"→ №{r['corrects']}: {r['text']}"
                    if r["type"] == "correction"
                    else reread(rs, f"journal:{r['type']}", r["text"] or "", env.lang)
                )
            )
        )
        mark = journal_mark(r, env.lang, names)  # the book keeps a struck entry, and says so
        struck = r.get("correction") == "struck"
        table.add_row(
            f"{r['hospital']}/{r['journal']}",
            str(r["no"]),
            hhmm(r["time"], state.clock.now() if state.clock is not None else None),
            env.tr(*tr),
            r["name"] or r["patient"] or "",
            r["race"] or "",
            "" if r["age"] is None else str(r["age"]),
            f"{detail}\n{mark}" if mark and detail else mark or detail,
            style="strike" if struck else None,
        )
    env.console.print(table)


def log_cmd(
    as_json: JsonOpt = False,
    corrections: Annotated[
        bool,
        typer.Option(
            "--corrections",
            help="what late records and undos changed of what had been shown",
        ),
    ] = False,
) -> None:
    """The campaign's whole event log, in order, each line with its record."""
    env = get_env()
    if corrections:
        from lazaretto.cli.cmd_history import print_corrections

        print_corrections(env, as_json)
        return
    events = env.service.events(env.campaign_name())
    if as_json:
        env.emit_json([event_dict(e) for e in events])
        return
    rs, state, _ = env.service.load(env.campaign_name())
    timers: dict[str, dict[str, Any]] = {}
    day = None
    for ev in events:
        line = event_line(rs, state, ev, env.lang, timers)
        if line:
            if ev.at.date() != day:  # a day's heading: the lines give the time of day only
                day = ev.at.date()
                env.say(f"— {day.isoformat()} —", one_line=True)
            rec = f"r{ev.record}" if ev.record is not None else ""
            env.say(f"#{ev.seq:<5} {rec:<6} {line}", one_line=True)


def replay_cmd(as_json: JsonOpt = False) -> None:
    """Check that replaying the event log rebuilds exactly the stored state."""
    env = get_env()
    ok = env.service.replay_matches(env.campaign_name())
    if as_json:
        env.emit_json({"replay_matches": ok})
    else:
        env.console.print(
            env.tr(
                "replay matches the stored state" if ok else "REPLAY DIFFERS",
                "повтор событий совпадает с состоянием" if ok else "ПОВТОР НЕ СОВПАДАЕТ",
            )
        )
    if not ok:
        raise typer.Exit(9)


def register(app: typer.Typer) -> None:
    """Attach these commands to the main app."""
    app.add_typer(clock_app, name="clock")
    app.command("timers")(guarded(timers_cmd))
    app.command("journal")(guarded(journal_cmd))
    app.command("log")(guarded(log_cmd))
    app.command("replay")(guarded(replay_cmd))
