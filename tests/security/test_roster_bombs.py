"""A roster built to break the importer is refused as bad input (issue 28 M4).

JSON nested 100,000 deep made the parser raise RecursionError, and a CSV cell over the
csv module's field limit (131,072 characters) ``_csv.Error``: the API and the page
answered 500 and the CLI "internal error" with exit code 70. Each is now a 422 (the
CLI: the exit code of bad input) with one clear line in the caller's language, and
nothing is imported.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lazaretto.core.errors import InvalidInput
from lazaretto.service.demo import CAMPAIGN
from tests.e2e.clitools import cli_runner, ok
from tests.security.calls import Viewer, send
from tests.security.world import World

DEEP = "[" * 100_000 + "]" * 100_000
LONG = "id,name,hits\nc9,Boris," + "9" * 140_000 + "\n"
BOMBS = {
    "json": (DEEP, "nested too deep", "вложен слишком глубоко"),
    "csv": (LONG, "cannot be read at line 2", "не читается в строке 2"),
}


@pytest.mark.parametrize("kind", sorted(BOMBS))
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_api_answers_a_roster_bomb_with_422(world: World, kind: str, lang: str) -> None:
    text, en, ru = BOMBS[kind]
    before = world.campaigns.version(CAMPAIGN)
    r = world.client.post(
        f"/api/campaigns/{CAMPAIGN}/characters/import",
        params={"lang": lang},
        json={"text": text, "format": kind},
        headers=world.bearer("master"),
    )
    assert r.status_code == 422, r.text[:300]
    assert (en if lang == "en" else ru) in r.json()["message"]
    assert world.campaigns.version(CAMPAIGN) == before


@pytest.mark.parametrize("kind", sorted(BOMBS))
def test_the_roster_page_answers_a_roster_bomb_with_422(world: World, kind: str) -> None:
    text, en, ru = BOMBS[kind]
    before = world.campaigns.version(CAMPAIGN)
    for lang, words in (("en", en), ("ru", ru)):
        page = send(world, Viewer.MASTER, "POST", f"/c/{CAMPAIGN}/roster/import", page=True,
                    form={"text": text}, params={"lang": lang})
        assert page.status == 422, page.text[:300]
        assert words in page.text
    assert world.campaigns.version(CAMPAIGN) == before


@pytest.mark.parametrize("kind", sorted(BOMBS))
def test_the_cli_refuses_a_roster_bomb_in_one_line(tmp_path: Path, kind: str) -> None:
    text, en, ru = BOMBS[kind]
    roster = tmp_path / f"roster.{kind}"
    roster.write_text(text, encoding="utf-8")
    run = cli_runner(tmp_path / "c.db")
    ok(run("campaign", "create", "t", "--start", "2026-06-13T09:00"))
    env = {"LAZARETTO_CAMPAIGN": "t"}
    for lang, words in (("en", en), ("ru", ru)):
        result = run("character", "import", str(roster), lang=lang, env=env)
        assert result.exit_code == InvalidInput.exit_code, result.output[-300:]
        assert words in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1
    assert ok(run("character", "list", "--json", env=env)).strip() in ("[]", "")
