"""The ``lazaretto`` command: campaigns, characters, actions, clock, timers, journal, dice,
rules. Every command that prints data takes ``--json``; errors are one line and a
non-zero exit code, never a traceback.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from lazaretto.cli.env import CURRENT, Env, default_lang

JsonOpt = Annotated[bool, typer.Option("--json", help="machine-readable JSON output")]


app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    help="Lazaretto: health, medicine, injuries and survival rules for "
    "role-playing games. / Медицина, ранения и выживание для ролевых игр.",
)


@app.callback()
def main_options(
    ctx: typer.Context,
    db: Annotated[str | None, typer.Option(help="database file or URL (env LAZARETTO_DB)")] = None,
    lang: Annotated[str | None, typer.Option(help="en or ru (env LAZARETTO_LANG)")] = None,
    campaign: Annotated[
        str | None,
        typer.Option("--campaign", "-c", envvar="LAZARETTO_CAMPAIGN", help="campaign to work on"),
    ] = None,
) -> None:
    """Options for every command."""
    chosen = (lang or default_lang()).lower()
    if chosen not in ("en", "ru"):
        raise typer.BadParameter("use en or ru", param_hint="--lang")
    ctx.obj = Env(db=db, lang=chosen, campaign=campaign)
    CURRENT.set(ctx.obj)


_registered = False


def build(argv: list[str] | None = None) -> typer.Typer:
    """The app with every command attached.

    The ``act`` and ``query`` commands are generated from every installed ruleset's
    declarations; given the command line (``argv``), they are generated only when it
    asks for them, which keeps every other command quick to start.
    """
    global _registered
    if not _registered:
        from lazaretto.cli import (
            actions,
            cmd_backup,
            cmd_campaign,
            cmd_dice,
            cmd_play,
            cmd_rules,
            cmd_serve,
            cmd_sim,
            demo,
        )

        for module in (
            cmd_campaign,
            cmd_play,
            cmd_dice,
            cmd_rules,
            demo,
            cmd_serve,
            cmd_backup,
            cmd_sim,
        ):
            module.register(app)
        words = [a for a in (argv or []) if not a.startswith("-")]
        actions.register(app, populate=argv is None or bool({"act", "query"} & set(words)))
        _registered = True
    return app


def main() -> None:
    """Console entry point."""
    build(sys.argv[1:])(prog_name="lazaretto")
