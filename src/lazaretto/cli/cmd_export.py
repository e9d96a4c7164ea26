"""``export characters``: the medical outcome of every character, for a spreadsheet.

After the game the masters paste it into JoinRPG or a spreadsheet: id, name, group,
state, alive or dead with the campaign time and cause, diseases had and cured, days
in hospital (:mod:`lazaretto.service.outcomes`). Headers in the user's language
(``--lang``); CSV cells neutralised as the journal's are (a name ``=HYPERLINK(...)``
reads as text).
"""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from lazaretto.cli.env import get_env, guarded
from lazaretto.core.errors import InvalidInput

export_app = typer.Typer(help="Export a campaign's results for a spreadsheet or JoinRPG.")


class ExportFormat(StrEnum):
    """The formats an export may have."""

    CSV = "csv"
    JSON = "json"


def characters_cmd(
    fmt: Annotated[ExportFormat, typer.Option("--format", help="csv or json")] = ExportFormat.CSV,
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="write to this file (default: stdout)")
    ] = None,
) -> None:
    """The medical outcome per character: id, name, group, state, alive, time and cause
    of death, diseases had and cured, days in hospital."""
    import json

    from lazaretto.service.exports import character_outcomes, outcomes_csv

    env = get_env()
    campaign = env.campaign_name()
    env.catch_up(campaign)
    rows = character_outcomes(env.service, campaign, env.lang)
    if fmt is ExportFormat.JSON:
        text = json.dumps(rows, ensure_ascii=False, indent=2) + "\n"
    else:
        text = outcomes_csv(rows, env.lang)
    if output is None:
        sys.stdout.write(text)
        return
    try:
        Path(output).write_text(text, encoding="utf-8-sig" if fmt is ExportFormat.CSV else "utf-8")
    except OSError as exc:
        raise InvalidInput(
            f"Cannot write {output!r}: {exc.strerror}",
            ru=f"Не удаётся записать {output!r}: {exc.strerror}",
        ) from exc
    env.say(
        env.tr(
            f"{len(rows)} characters written to {output}",
            f"Записано персонажей: {len(rows)} в {output}",
        )
    )


def register(app: typer.Typer) -> None:
    """Attach the ``export`` group."""
    export_app.command("characters")(guarded(characters_cmd))
    app.add_typer(export_app, name="export")
