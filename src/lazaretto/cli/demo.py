"""``lazaretto demo``: a scripted warhammer-larp campaign on a manual clock.

It shows a wound's whole timeline through the same service the other commands use:
an unbandaged light wound turning heavy and killing, a bandage at 12:29 that saves,
a heavy wound operated on in a hospital, the countdowns and the journal.
"""

from __future__ import annotations

import tempfile
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from lazaretto.cli.env import Env, get_env, guarded
from lazaretto.cli.render import event_line
from lazaretto.core.character import Character
from lazaretto.core.events import Event
from lazaretto.service.campaigns import CampaignService
from lazaretto.store.db import Database

DAY = "2026-06-13"
SCRIPT: list[tuple[str, str, str, dict[str, Any]]] = [
    # (time, what to say en, ru, action+input) — action "" means: advance the clock
    (
        "11:55",
        "The medical master chips a hospital and a healer's kit.",
        "Мастер по медицине чипует госпиталь и проверяет снаряжение лекаря.",
        {},
    ),
    (
        "12:00",
        "Rustam (3 hits) and Boris (3 hits) each lose 2 hits in a skirmish.",
        "Рустам (3 хита) и Борис (3 хита) теряют по 2 хита в стычке.",
        {},
    ),
    (
        "12:29",
        "Healer Anna bandages Boris on her mat; nobody reaches Rustam.",
        "Лекарь Анна перевязывает Бориса на подстилке; до Рустама никто не добрался.",
        {},
    ),
    ("12:45", "Rustam's countdown has run out.", "Время Рустама вышло.", {}),
    (
        "13:00",
        "Dmitri loses all 3 hits; Anna bandages him at 13:10 and brings him in.",
        "Дмитрий теряет все 3 хита; Анна перевязывает его в 13:10 и несёт в госпиталь.",
        {},
    ),
    (
        "14:00",
        "Operated on at 13:25–13:40, Dmitri rests 20 minutes and signs the journal.",
        "Дмитрия оперируют в 13:25–13:40, он 20 минут лежит и расписывается в журнале.",
        {},
    ),
]


def _say(env: Env, en: str, ru: str) -> None:
    env.console.print(f"\n[bold]{env.tr(en, ru)}[/bold]")


def _show(env: Env, svc: CampaignService, events: list[Event]) -> None:
    rs, state, _ = svc.load("demo")
    timers: dict[str, dict[str, Any]] = {}
    for ev in events:
        line = event_line(rs, state, ev, env.lang, timers)
        if line:
            env.say("  " + line, one_line=True)


def run_demo(env: Env, svc: CampaignService) -> None:
    """Play the script against ``svc`` and print what happens."""
    from lazaretto.cli.cmd_play import journal_cmd, timers_cmd

    def at(hhmm: str) -> datetime:
        return datetime.fromisoformat(f"{DAY}T{hhmm}")

    svc.create_campaign("demo", "warhammer-larp", start=at("11:50"), seed=7)
    env.campaign = "demo"
    for cid, name, skills in (
        ("R", "Rustam", []),
        ("B", "Boris", []),
        ("D", "Dmitri", []),
        ("A", "Anna", ["Healer"]),
        ("S", "Sigrun", ["Healer"]),
    ):
        svc.add_character(
            "demo",
            Character(id=cid, name=name, hits_max=3, hits=3, race="human", age=30, skills=skills),
        )
    kit = list(svc.load("demo")[0].params.model_dump()["healer_kit"])

    def act(action: str, when: str, **kw: Any) -> None:
        _show(env, svc, svc.act("demo", action, kw, at=at(when)))

    _say(env, *SCRIPT[0][1:3])
    act(
        "register-hospital",
        "11:55",
        id="h1",
        name="Shallya's House",
        number="7",
        tables=[{"id": "t1"}],
        beds=[{"id": "b1"}, {"id": "b2"}],
    )
    act("check-kit", "11:55", healer="A", items=kit)
    act("check-kit", "11:55", healer="S", items=kit)
    act("register-mat", "11:55", id="mat-A", healer="A", length_cm=180, width_cm=60)
    _say(env, *SCRIPT[1][1:3])
    act("lose-hits", "12:00", character="R", hits=2, location="left arm")
    act("lose-hits", "12:00", character="B", hits=2, location="right leg")
    env.console.print()
    timers_cmd()
    _say(env, *SCRIPT[2][1:3])
    act("apply-bandage", "12:29", healer="A", patient="B", bandages=2, mat="mat-A")
    _say(env, "The clock moves on to 12:45.", "Часы идут до 12:45.")
    _show(env, svc, svc.advance_to("demo", at("12:45")))
    _say(env, *SCRIPT[4][1:3])
    act("lose-hits", "13:00", character="D", hits=3, location="chest")
    act("apply-bandage", "13:10", healer="A", patient="D", bandages=3, mat="mat-A")
    act("admit", "13:25", hospital="h1", patient="D", healer="S")
    act("start-operation", "13:25", healer="S", patient="D", hospital="h1", table="t1")
    act("finish-operation", "13:40", patient="D", bed="b1", stitches=[{"location": "chest"}] * 3)
    env.console.print()
    timers_cmd()
    _say(env, *SCRIPT[5][1:3])
    _show(env, svc, svc.advance_to("demo", at("14:00")))
    act("sign-journal", "14:00", hospital="h1", patient="D")
    env.console.print()
    journal_cmd()
    ok = svc.replay_matches("demo")
    env.console.print(
        env.tr(
            f"\nReplaying the event log rebuilds the same state: {ok}",
            f"\nПовтор журнала событий даёт то же состояние: {ok}",
        )
    )


@guarded
def demo_cmd(
    keep: Annotated[bool, typer.Option(help="keep the demo database and print its path")] = False,
) -> None:
    """Run a scripted LARP campaign: a wound's whole timeline and the hospital journal."""
    env = get_env()
    folder = Path(tempfile.mkdtemp(prefix="lazaretto-demo-"))
    db = Database(f"sqlite:///{folder / 'demo.db'}")
    svc = CampaignService(db)
    env._service = svc
    env.db = str(folder / "demo.db")
    run_demo(env, svc)
    db.close()
    if keep:
        env.console.print(
            env.tr(
                f"\nDemo database: {folder / 'demo.db'} — try\n"
                f"  LAZARETTO_DB={folder / 'demo.db'} lazaretto journal",
                f"\nБаза демо: {folder / 'demo.db'} — попробуйте\n"
                f"  LAZARETTO_DB={folder / 'demo.db'} lazaretto journal",
            ),
            markup=False,
        )
    else:
        for f in folder.iterdir():
            f.unlink()
        folder.rmdir()


def register(app: typer.Typer) -> None:
    """Attach the demo command."""
    app.command("demo")(demo_cmd)
