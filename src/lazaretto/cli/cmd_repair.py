"""``repair``: rebuild a campaign's stored state from its event log (service/repair.py).

Safe while ``lazaretto serve`` runs: the campaign's row is locked while the rebuilt
state is written, and the version bump makes every server process read it anew.
"""

from __future__ import annotations

from typing import Annotated

import typer

from lazaretto.cli.app import JsonOpt
from lazaretto.cli.env import get_env, guarded


@guarded
def repair_cmd(
    campaign: Annotated[
        str | None, typer.Argument(help="the campaign (default: --campaign or the only one)")
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="show what differs, store nothing")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Rebuild CAMPAIGN's stored state by replaying its event log; show what differed."""
    from lazaretto.service.repair import repair

    env = get_env()
    name = campaign or env.campaign_name()
    done = repair(env.service, name, write=not dry_run)
    if as_json:
        env.emit_json(done.to_dict())
        if not done.stored and (done.problem or done.differences):
            raise typer.Exit(9)
        return
    if done.problem:
        say(
            f"{name}: the stored state cannot be read: {done.problem}",
            f"{name}: сохранённое состояние не читается: {done.problem}",
        )
    for line in done.differences:
        say(f"{name}: differs: {line}", f"{name}: отличается: {line}")
    if not (done.problem or done.differences):
        say(
            f"{name}: the stored state matches its {done.events} events; nothing to do",
            f"{name}: состояние совпадает с {done.events} событиями; чинить нечего",
        )
    elif done.stored:
        say(
            f"{name}: rebuilt from {done.events} events and stored (version {done.version})",
            f"{name}: восстановлено из {done.events} событий и сохранено (версия {done.version})",
        )
    else:
        say(f"{name}: not stored (--dry-run)", f"{name}: не сохранено (--dry-run)")
        raise typer.Exit(9)  # like `replay` when it differs


def say(en: str, ru: str) -> None:
    """One line of the report, in the user's language (no Rich markup: names are data)."""
    env = get_env()
    env.console.print(env.tr(en, ru), markup=False)


def register(app: typer.Typer) -> None:
    """Attach ``repair`` to the main app."""
    app.command("repair")(repair_cmd)
