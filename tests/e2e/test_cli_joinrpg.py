"""``lazaretto character import --format joinrpg`` through the real CLI (issue 26, item
1): the report per character in both languages, the mapping options, re-import,
skipped NPCs and inactive characters, --checked-in, bad rows refusing the whole
import, and ``--from`` a small JoinRPG-shaped server run by the test."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from tests.e2e.clitools import Run, cli_runner, ok, ok_json

from lazaretto.core.errors import InvalidInput

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "joinrpg-roster.json"
ENV = {"LAZARETTO_CAMPAIGN": "g"}
TOKEN = "secret-token-42"


@pytest.fixture
def run(tmp_path: Path) -> Run:
    invoke = cli_runner(tmp_path / "c.db")
    ok(invoke("campaign", "create", "g", "--ruleset", "warhammer-larp", "--seed", "1"))

    def with_campaign(*args: str, lang: str = "en") -> Any:
        return invoke(*args, lang=lang, env=ENV)

    return with_campaign


def doc() -> dict[str, Any]:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


def write(tmp_path: Path, data: Any, name: str = "roster.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def imported(run: Run, *args: str, lang: str = "en") -> dict[str, Any]:
    found: dict[str, Any] = ok_json(
        run("character", "import", *args, "--format", "joinrpg", "--json", lang=lang)
    )
    return found


def ids(run: Run) -> list[str]:
    return sorted(c["id"] for c in ok_json(run("character", "list", "--json")))


def test_the_example_imports_and_reports_each_character_in_english(run: Run) -> None:
    out = ok(
        run("character", "import", str(EXAMPLE), "--format", "joinrpg", "--field", "age=Возраст")
    )
    assert "Вера Травница" in out and "added" in out
    assert "an NPC" in out and "inactive (deleted in JoinRPG)" in out
    assert "Imported (record" in out and "added: 2, skipped: 2" in out
    assert ids(run) == ["1001", "1002"]
    card = ok_json(run("character", "show", "1001", "--json"))
    assert (card["age"], card["hits_max"], card["race"]) == (34, 12, "человек")


def test_the_report_speaks_russian(run: Run) -> None:
    out = ok(
        run("character", "import", str(EXAMPLE), "--format", "joinrpg", "--dry-run", lang="ru")
    )
    assert "добавлен" in out and "пропущен" in out and "NPC" in out
    assert "ничего не добавлено (--dry-run)" in out
    assert ids(run) == []


def test_a_second_import_updates_nothing_twice_and_says_so(run: Run) -> None:
    imported(run, str(EXAMPLE), "--field", "age=Возраст")
    again = imported(run, str(EXAMPLE), "--field", "age=Возраст")
    assert (again["added"], again["unchanged"], again["skipped"]) == (0, 2, 2)
    assert again["record"] is None and again["imported"] == 0
    out = ok(run("character", "import", str(EXAMPLE), "--format", "joinrpg"))
    assert "changed in JoinRPG, kept" in out  # the age is not mapped this time
    assert "Nothing to add" in out
    assert ids(run) == ["1001", "1002"]


def test_npcs_and_inactive_ones_come_in_when_asked_for(run: Run) -> None:
    done = imported(run, str(EXAMPLE), "--include-npc", "--include-inactive")
    assert done["added"] == 4 and done["skipped"] == 0
    assert ids(run) == ["1001", "1002", "1003", "1004"]


def test_checked_in_imports_only_the_characters_in_game(run: Run) -> None:
    done = imported(run, str(EXAMPLE), "--checked-in")
    assert [r["status"] for r in done["rows"]] == ["added", "skipped", "skipped", "skipped"]
    assert done["rows"][1]["message"] == "not checked in (InGame is false)"
    assert ids(run) == ["1001"]


def test_the_two_answers_may_be_separate_files(run: Run, tmp_path: Path) -> None:
    data = doc()
    chars = write(tmp_path, data["characters"], "characters.json")
    meta = write(tmp_path, data["metadata"], "fields.json")
    done = imported(run, chars, "--metadata", meta)
    assert done["added"] == 2


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_bad_rows_each_get_their_error_and_nothing_is_imported(
    run: Run, tmp_path: Path, lang: str
) -> None:
    data = doc()
    data["characters"][0]["Fields"][0]["Value"] = "много"  # hits
    data["characters"][1]["CharacterName"] = ""
    result = run("character", "import", write(tmp_path, data), "--format", "joinrpg", lang=lang)
    assert result.exit_code == InvalidInput.exit_code
    err = result.stderr
    if lang == "en":
        assert "row 1 (1001 Вера Травница): Хиты (lazaretto:hits): 'много' is not a whole" in err
        assert "row 2 (1002): name:" in err
        assert "2 of 4 rows have errors: nothing was imported" in err
    else:
        assert "строка 1 (1001 Вера Травница): Хиты (lazaretto:hits): 'много' — не целое" in err
        assert "Строк с ошибками: 2 из 4 — ничего не добавлено" in err
    assert "Traceback" not in result.output
    assert ids(run) == []


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_hostile_files_are_refused_in_one_line(run: Run, tmp_path: Path, lang: str) -> None:
    for text in ("[" * 200_000, '{"characters": "x"}', '{"characters": [], "metadata": 5}'):
        path = tmp_path / "bomb.json"
        path.write_text(text, encoding="utf-8")
        result = run("character", "import", str(path), "--format", "joinrpg", lang=lang)
        assert result.exit_code == InvalidInput.exit_code, result.output
        assert "Traceback" not in result.output
        assert ("JoinRPG" in result.stderr) and len(result.stderr.strip().splitlines()) == 1
    assert ids(run) == []


def test_a_bad_field_option_is_refused(run: Run) -> None:
    result = run("character", "import", str(EXAMPLE), "--format", "joinrpg", "--field", "hits")
    assert result.exit_code == InvalidInput.exit_code
    assert "TARGET=FIELD NAME" in result.stderr


class JoinRpgHandler(http.server.BaseHTTPRequestHandler):
    """Answers as JoinRPG's game API does, for project 4242, to the right token only."""

    data: ClassVar[dict[str, Any]] = {}
    seen: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.seen.append(self.path)
        if self.headers.get("Authorization") != f"Bearer {TOKEN}":
            self.send_response(401)
            self.end_headers()
            return
        base = "/x-game-api/4242"
        by_id = {f"{base}/characters/{c['CharacterId']}/": c for c in self.data["characters"]}
        if self.path == f"{base}/metadata/fields":
            body: Any = self.data["metadata"]
        elif self.path == f"{base}/characters":
            body = [
                {
                    "CharacterId": c["CharacterId"],
                    "IsActive": c["IsActive"],
                    "UpdatedAt": c["UpdatedAt"],
                    "CharacterLink": f"{base}/characters/{c['CharacterId']}/",
                }
                for c in self.data["characters"]
            ]
        elif self.path in by_id:
            body = by_id[self.path]
        else:
            self.send_response(404)
            self.end_headers()
            return
        raw = json.dumps(body, ensure_ascii=False).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    JoinRpgHandler.data = doc()
    JoinRpgHandler.seen = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), JoinRpgHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/x-game-api/4242"
    httpd.shutdown()
    httpd.server_close()


def test_from_fetches_the_roster_from_a_joinrpg_server(
    run: Run, tmp_path: Path, server: str
) -> None:
    token = tmp_path / "token"
    token.write_text(TOKEN + "\n", encoding="utf-8")
    done = ok_json(
        run(
            "character",
            "import",
            "--from",
            server,
            "--token-file",
            str(token),
            "--field",
            "age=Возраст",
            "--json",
        )
    )
    assert done["added"] == 2 and done["skipped"] == 2
    assert ids(run) == ["1001", "1002"]
    assert "/x-game-api/4242/metadata/fields" in JoinRpgHandler.seen
    assert "/x-game-api/4242/characters/1001/" in JoinRpgHandler.seen


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_from_with_a_wrong_token_is_refused_in_one_line(
    run: Run, tmp_path: Path, server: str, lang: str
) -> None:
    token = tmp_path / "token"
    token.write_text("wrong", encoding="utf-8")
    result = run("character", "import", "--from", server, "--token-file", str(token), lang=lang)
    assert result.exit_code == InvalidInput.exit_code
    assert ("token is refused" if lang == "en" else "токен не принят") in result.stderr
    assert "Traceback" not in result.output and TOKEN not in result.output


def test_from_needs_a_token_file(run: Run, server: str) -> None:
    result = run("character", "import", "--from", server)
    assert result.exit_code == InvalidInput.exit_code
    assert "--token-file" in result.stderr
