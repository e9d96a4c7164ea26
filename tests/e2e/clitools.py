"""The CLI tests' runner and checks: the real ``lazaretto`` app through Typer's runner
on a database file of the test's own."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import Result
from typer.testing import CliRunner

from lazaretto.cli.app import build

Run = Callable[..., Result]


def cli_runner(db_file: Path) -> Run:
    """Invoke the CLI on ``db_file``; ``lang`` picks LAZARETTO_LANG, ``env`` sets more."""
    app = build()
    runner = CliRunner()

    def invoke(*args: str, lang: str = "en", env: dict[str, str] | None = None) -> Result:
        settings: dict[str, str | None] = {
            "LAZARETTO_DB": str(db_file),
            "LAZARETTO_LANG": lang,
            "LAZARETTO_CAMPAIGN": None,
            **(env or {}),
        }
        return runner.invoke(app, list(args), env=settings)

    return invoke


def ok(result: Result) -> str:
    """The stdout of a successful command (fails the test with the output otherwise)."""
    assert result.exit_code == 0, (result.exit_code, result.output, result.exception)
    return result.stdout


def ok_json(result: Result) -> Any:
    return json.loads(ok(result))


def refused(result: Result, exit_code: int) -> str:
    """The one error line of a refused command, after checking how it failed."""
    assert result.exit_code == exit_code, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    everything = result.stdout + result.stderr
    assert "Traceback" not in everything
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    return lines[0]
