"""The ``lazaretto`` command: campaigns, characters, actions, clock, timers, journal, dice,
rules. Every command that prints data takes ``--json``; errors are one line and a
non-zero exit code, never a traceback.

A command's module is imported only when that command runs (or shows its help), so a
``roll`` never imports the database and ``--help`` imports no command at all. A new
command is one module with a ``register(app)`` function plus one line in
:data:`COMMANDS`.
"""

from __future__ import annotations

import importlib
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from lazaretto.cli.env import CURRENT, Env, default_lang

JsonOpt = Annotated[bool, typer.Option("--json", help="machine-readable JSON output")]

#: Every top-level command: its name, the module whose ``register(app)`` attaches it,
#: and the one line ``lazaretto --help`` shows for it (without importing the module).
COMMANDS: dict[str, tuple[str, str]] = {
    "campaign": ("lazaretto.cli.cmd_campaign", "Create, list and show campaigns."),
    "character": ("lazaretto.cli.cmd_campaign", "Add, list and show characters."),
    "act": ("lazaretto.cli.actions", "Run an action of the campaign's ruleset."),
    "query": ("lazaretto.cli.actions", "Ask the campaign's ruleset a question."),
    "clock": ("lazaretto.cli.cmd_play", "Show and move the campaign clock."),
    "timers": ("lazaretto.cli.cmd_play", "Pending countdowns, soonest first."),
    "journal": ("lazaretto.cli.cmd_play", "The hospital journal; corrections are entries too."),
    "log": ("lazaretto.cli.cmd_play", "The campaign's whole event log, in order."),
    "replay": ("lazaretto.cli.cmd_play", "Check that replaying the log rebuilds the state."),
    "repair": ("lazaretto.cli.cmd_repair", "Rebuild a campaign's state from its event log."),
    "undo": ("lazaretto.cli.cmd_history", "Take back a record; the history runs again."),
    "records": ("lazaretto.cli.cmd_history", "The campaign's records and their status."),
    "roll": ("lazaretto.cli.cmd_dice", "Roll dice: every die is shown."),
    "odds": ("lazaretto.cli.cmd_odds", "Exact odds of dice and of a ruleset's rolls."),
    "rules": ("lazaretto.cli.cmd_rules", "Read the rules: English and Russian original."),
    "sim": ("lazaretto.cli.cmd_sim", "Monte Carlo simulation of whole scenarios."),
    "serve": ("lazaretto.cli.cmd_serve", "Serve the web app and the API."),
    "backup": ("lazaretto.cli.cmd_backup", "Copy the database; safe while the server runs."),
    "restore": ("lazaretto.cli.cmd_backup", "Replace the database with a backup."),
    "demo": ("lazaretto.cli.demo", "Run a scripted LARP campaign in the terminal."),
}


def load_command(name: str) -> Any:
    """The Click command ``name``, from its module's ``register(app)``. Only that one is
    built: a module registers several (``timers`` beside ``clock``, ``journal``...), and
    Typer reads every signature of what it builds."""
    module = importlib.import_module(COMMANDS[name][0])
    one = typer.Typer(add_completion=False)
    module.register(one)
    only = typer.Typer(add_completion=False)
    only.registered_commands = [c for c in one.registered_commands if c.name == name]
    only.registered_groups = [g for g in one.registered_groups if g.name == name]
    if only.registered_commands or only.registered_groups:
        one = only  # else a name Typer derives itself: build them all
    group = typer.main.get_group(one)
    return group.commands[name]


class LazyGroup(TyperGroup):
    """The main group: commands are listed from :data:`COMMANDS` and imported on use."""

    _listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        if cmd_name not in COMMANDS:
            return None
        if self._listing:  # the help needs only the name and one line
            return TyperCommand(cmd_name, help=COMMANDS[cmd_name][1])
        self.commands[cmd_name] = load_command(cmd_name)
        return self.commands[cmd_name]

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


app = typer.Typer(
    cls=LazyGroup,
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


def build(argv: list[str] | None = None) -> typer.Typer:
    """The app (its commands are attached when they are used; ``argv`` is ignored and
    kept for callers of the earlier eager version)."""
    return app


def main() -> None:
    """Console entry point."""
    app(prog_name="lazaretto")
