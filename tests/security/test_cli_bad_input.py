"""Bad input on the command line: malformed, oversized or out-of-range arguments are
refused with one clear line (``error: …``) and the exit code of the error's class
(core/errors.py), never a traceback or an "internal error", and change nothing.

Arguments Typer itself cannot parse (a word for a number, a value out of an option's
declared range) are refused in the same one line (``cli/usage.py``), with exit code 2,
naming the option and where the command's help is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from typer.testing import CliRunner, Result

from lazaretto.cli.app import build
from lazaretto.service.campaigns import CampaignService
from lazaretto.store.db import Database

Run = Callable[..., Result]
USAGE = "usage"
"""What Click refuses while reading the command line (exit code 2, the help named)."""


@pytest.fixture(scope="module")
def run(module_database_url: str) -> Run:
    """The CLI on a campaign ``siege`` (manual clock, 09:00) with Rustam (c1); every case
    shares it, since none may change it."""
    app = build()
    runner = CliRunner()

    def invoke(*args: str) -> Result:
        env = {
            "LAZARETTO_DB": module_database_url,
            "LAZARETTO_LANG": "en",
            "LAZARETTO_CAMPAIGN": "siege",
        }
        return runner.invoke(app, list(args), env=env)

    for setup in (
        ("campaign", "create", "siege", "--start", "2026-06-13T09:00", "--seed", "1"),
        ("character", "add", "c1", "--name", "Rustam"),
    ):
        assert invoke(*setup).exit_code == 0
    return invoke


@pytest.fixture(scope="module")
def campaigns(module_database_url: str, run: Run) -> Iterator[CampaignService]:
    db = Database(module_database_url)
    yield CampaignService(db)
    db.close()


CASES: list[tuple[tuple[str, ...], int | str, str]] = [
    # (arguments, exit code or USAGE, a word the message must contain)
    (("roll", "1d"), 2, "after 'd'"),
    (("roll", "99999999d6"), 2, "max_dice"),
    (("roll", "(" * 5000), 2, "max_length"),
    (("roll", "1d6\x00"), 2, "unexpected character"),
    (("roll", "1d6", "--seed", "abc"), USAGE, "--seed"),
    (("odds", "dice", "1000d1000"), 2, "max_outcomes"),
    (("campaign", "create", "bad name!"), 2, "Campaign name"),
    (("campaign", "create", "c" * 100), 2, "Campaign name"),
    (("campaign", "create", "x", "--ruleset", "chess"), 4, "chess"),
    (("campaign", "create", "x", "--start", "25:99"), 2, "25:99"),
    (("campaign", "create", "x", "--clock", "sideways"), USAGE, "--clock"),
    (("campaign", "create", "x", "--param", "novalue"), 2, "NAME=VALUE"),
    (("campaign", "create", "x", "--param", "bleed_minutes=5"), 2, "bleed_minutes"),
    (("campaign", "create", "x", "--param", "light_to_heavy_unbandaged_minutes=-5"), 2,
     "light_to_heavy_unbandaged_minutes"),
    (("campaign", "create", "x", "--param", "healer_kit=[needle,"), 2, "healer_kit"),
    (("campaign", "create", "x", "--param", "light_to_heavy_unbandaged_minutes=" + "9" * 5000),
     2, "light_to_heavy_unbandaged_minutes"),
    (("character", "add", "c2", "--hits", "5000"), USAGE, "--hits"),
    (("character", "add", ""), 2, "Character id"),
    (("character", "add", "z" * 5000), 2, "Character id"),
    (("character", "add", "c2", "--stat", "str=abc"), 2, "NAME=NUMBER"),
    (("character", "show", "nobody"), 4, "nobody"),
    (("clock", "advance", "soon"), 2, "soon"),
    (("clock", "set", "08:00"), 2, "backwards"),
    (("clock", "advance", "99999999d"), 2, "99999999d"),
    (("clock", "set", "9999-12-30T00:00"), 2, "out of range"),
    (("act", "lose-hits", "--character", "c1", "--hits", "0"), 2, "hits"),
    (("act", "lose-hits", "--character", "c1", "--hits", "9" * 30), 2, "hits"),
    (("act", "lose-hits", "--character", "nobody", "--hits", "1"), 4, "nobody"),
    (("act", "lose-hits", "--input", "{not json"), 2, "JSON"),
    (("act", "lose-hits", "--input", "[1, 2]"), 2, "--input"),
    (("act", "nosuch"), 4, "nosuch"),
    (("query", "next-change"), 2, "character"),
    (("-c", "nope", "timers"), 4, "nope"),
    (("--lang", "xx", "campaign", "list"), USAGE, "--lang"),
    (("rules", "show", "NOPE-1"), 4, "NOPE-1"),
    (("restore", "/nonexistent/backup.db"), 4, "/nonexistent/backup.db"),
    (("backup", "/nonexistent/folder/backup.db"), 8, "/nonexistent/folder"),
]


def fingerprint(campaigns: CampaignService) -> list[tuple[str, int]]:
    """What a refused command must not change: the campaigns and their event logs."""
    return [(c.id, c.events) for c in campaigns.campaigns()]


@pytest.mark.parametrize(("args", "code", "word"), CASES, ids=[" ".join(c[0])[:48] for c in CASES])
def test_bad_input_is_refused_in_one_clear_line_and_changes_nothing(
    run: Run,
    campaigns: CampaignService,
    module_database_url: str,
    args: tuple[str, ...],
    code: int | str,
    word: str,
) -> None:
    if args[0] in ("backup", "restore") and not module_database_url.startswith("sqlite"):
        code, word = 2, "pg_dump"  # the SQLite file's commands say what to use instead
    before = fingerprint(campaigns)
    result = run(*args)
    everything = result.stdout + result.stderr
    assert "Traceback" not in everything
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), everything
    assert word in lines[0], lines[0]
    if code == USAGE:  # what Click refuses: the same line, with where the help is
        assert result.exit_code == 2 and "--help" in lines[0], lines[0]
    else:
        assert result.exit_code == code, everything
    assert fingerprint(campaigns) == before
