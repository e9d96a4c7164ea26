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
import re
import sys
from collections.abc import Callable, Sequence
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
    "export": ("lazaretto.cli.cmd_export", "Export results: each character's medical outcome."),
    "demo": ("lazaretto.cli.demo", "Run a scripted LARP campaign in the terminal."),
}


_PLAIN_INT = re.compile(r"-?(0|[1-9][0-9]{0,17})")


def _quick_coercion() -> Callable[[Any], None]:
    """What makes a command's parameters read plain text without Pydantic, for the Typer
    release this one is (a no-op for any other).

    Typer 0.2x checks every parameter's value through a Pydantic ``TypeAdapter``, built
    the first time the parameter is read, even when there is no value: ``roll 1d20``
    imported Pydantic and built six adapters (about half of what Python costs to start)
    to pass on a text unchanged and five Nones. A text for a text parameter
    (``str``, ``list[str]``, without a custom parser) is given back as the adapter
    gives it (the same string, the list as a list), and so is a whole number written
    plainly (``--seed 7``) for an ``int`` without bounds; no value is None as before;
    anything else (``7.0``, a path, a choice) goes to Typer's own adapter, built then.
    """
    try:
        from typer._coercion import RuntimeParam, build_runtime_param
        from typer.core import _TyperParameter
    except ImportError:  # another Typer: it coerces its own way
        return lambda command: None

    class QuickRuntimeParam(RuntimeParam):
        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            descriptor = param.type_descriptor
            info = self.parameter_info
            if descriptor.file_annotation is None and info.parser is None:
                if self.annotation is str and type(value) is str:
                    return value
                if (
                    self.annotation is int
                    and type(value) is str
                    and info.min is None
                    and info.max is None
                    and _PLAIN_INT.fullmatch(value)
                ):
                    return int(value)
                if (
                    self.annotation == list[str]
                    and isinstance(value, list | tuple)
                    and all(type(v) is str for v in value)
                ):
                    return list(value)
            return build_runtime_param(descriptor)._coerce_value(value, param, ctx)

    def quick(param: Any) -> None:
        if isinstance(param, _TyperParameter) and param._runtime_param is None:
            descriptor = param.type_descriptor
            param._runtime_param = QuickRuntimeParam(
                parameter_info=descriptor.parameter_info, annotation=descriptor.annotation
            )

    def quicken(command: Any) -> None:
        for param in command.params:
            quick(param)
        help_option = command.get_help_option  # made on first use, from the context

        def get_help_option(ctx: Any) -> Any:
            option = help_option(ctx)
            quick(option)
            return option

        command.get_help_option = get_help_option
        for sub in getattr(command, "commands", {}).values():
            quicken(sub)

    return quicken


quicken = _quick_coercion()


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
    command = group.commands[name]
    quicken(command)
    return command


class LazyGroup(TyperGroup):
    """The main group: commands are listed from :data:`COMMANDS` and imported on use."""

    _listing = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        quicken(self)  # its own options (--db, --lang, --campaign); commands on loading

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

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command line; a mistyped one is refused in one line in the chosen
        language, or as JSON with ``--json`` (``cli/usage.py``), exit code 2."""

        def run(standalone: bool) -> Any:
            return super(LazyGroup, self).main(
                args, prog_name, complete_var, standalone, windows_expand_args, **extra
            )

        if not standalone_mode:
            return run(False)
        exceptions = typer._click.exceptions
        try:
            code = run(False)
        except exceptions.NoArgsIsHelpError as exc:  # no command: the help, as asked
            shown = exc.format_message()
            if shown.strip():  # Rich has printed it already
                typer.echo(shown)
            sys.exit(exc.exit_code)
        except exceptions.ClickException as exc:
            from lazaretto.cli.usage import chosen_lang, usage_error

            given = sys.argv[1:] if args is None else list(args)
            env = Env(lang=chosen_lang(exc, given) or default_lang())
            env.fail(usage_error(exc), "--json" in given)
        except typer.Abort:  # end of input at a prompt
            typer.echo(Env(lang=default_lang()).tr("Aborted", "Прервано"), err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    name="lazaretto",  # as a test runner names it too (Click says "root")
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
    ctx.call_on_close(ctx.obj.close)


def build(argv: list[str] | None = None) -> typer.Typer:
    """The app (its commands are attached when they are used; ``argv`` is ignored and
    kept for callers of the earlier eager version)."""
    return app


def main() -> None:
    """Console entry point."""
    app(prog_name="lazaretto")
