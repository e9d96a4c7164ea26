"""``lazaretto character import``: a roster from CSV, JSON or standard input, checked row
by row and added in ONE record (all or none), through the real CLI on SQLite."""

from __future__ import annotations

import json
import time
from pathlib import Path

from click.testing import Result
from tests.e2e.clitools import Run, cli_runner, ok, ok_json, refused
from typer.testing import CliRunner

from lazaretto.cli.app import build

HEADER = "id,name,hits,race,age,skills\n"


def roster_csv(n: int, start: int = 1) -> str:
    """``n`` characters: every third one without hits (the ruleset's default)."""
    rows = (
        f"P{i:04d},Name {i},{'' if i % 3 == 0 else 4},human,{20 + i % 50},medicine;herbs\n"
        for i in range(start, start + n)
    )
    return HEADER + "".join(rows)


def campaign(run: Run) -> None:
    ok(run("campaign", "create", "big", "--ruleset", "warhammer-larp", "--seed", "1"))


def records(run: Run) -> list[dict[str, object]]:
    found: list[dict[str, object]] = ok_json(run("records", "--json"))
    return found


def characters(run: Run) -> int:
    shown: dict[str, int] = ok_json(run("campaign", "show", "--json"))
    return shown["characters"]


def test_a_roster_of_3000_characters_is_imported_as_one_record(run: Run, tmp_path: Path) -> None:
    campaign(run)
    file = tmp_path / "roster.csv"
    file.write_text(roster_csv(3000), encoding="utf-8")
    began = time.perf_counter()
    answer = ok_json(run("character", "import", str(file), "--json"))
    took = time.perf_counter() - began
    print(f"\nCLI import of 3,000 characters: {took:.2f} s")
    assert answer["imported"] == 3000 and answer["errors"] == []
    (record,) = records(run)  # one record for all of them
    assert record["record"] == answer["record"] and record["kind"] == "character"
    assert len(record["input"]["characters"]) == 3000  # type: ignore[index]
    assert characters(run) == 3000
    given = ok_json(run("character", "show", "P2999", "--json"))
    default = ok_json(run("character", "show", "P3000", "--json"))  # hits left empty
    assert (given["hits"], given["hits_max"]) == (4, 4)
    assert default["hits"] == default["hits_max"] == 3  # warhammer-larp's starting hits


def test_the_import_says_how_many_and_which_record_in_english_and_russian(
    run: Run, tmp_path: Path
) -> None:
    campaign(run)
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    first.write_text(roster_csv(7), encoding="utf-8")
    second.write_text(roster_csv(2, start=100), encoding="utf-8")
    out = ok(run("character", "import", str(first)))
    assert "a.csv: 7 rows read" in out
    assert "P0001" in out and "P0005" in out and "P0006" not in out  # the first five rows
    assert "… and 2 more" in out
    assert out.rstrip().endswith("Imported 7 characters (record 1)")
    out_ru = ok(run("character", "import", str(second), lang="ru"))
    assert "b.csv: прочитано строк: 2" in out_ru and "имя" in out_ru
    assert out_ru.rstrip().endswith("Добавлено персонажей: 2 (запись 2)")
    assert characters(run) == 9


def test_a_bad_row_refuses_the_whole_roster_naming_its_row(run: Run, tmp_path: Path) -> None:
    campaign(run)
    ok(run("character", "add", "P0001", "--name", "Already here"))
    file = tmp_path / "bad.csv"
    file.write_text(
        HEADER + "P0100,Vera,5,,,\nP0101,Boris,lots,,,\nP0001,Twin,,,,\nP0102,Karl,2,,,\n",
        encoding="utf-8",
    )
    result = run("character", "import", str(file))
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert lines == [
        "row 2 (P0101): hits: Input should be a valid integer, unable to parse string as an "
        "integer",
        "row 3 (P0001): id 'P0001' is taken in the campaign",
        "error: 2 of 4 rows have errors: nothing was imported. "
        "Fix the rows and run the import again.",
    ]
    ru = run("character", "import", str(file), lang="ru")
    assert ru.exit_code == 2
    assert ru.stderr.splitlines()[1:] == [
        "строка 3 (P0001): id 'P0001' уже есть в кампании",
        "ошибка: Строк с ошибками: 2 из 4 — ничего не добавлено. "
        "Исправьте строки и запустите импорт снова.",
    ]
    assert ru.stderr.startswith("строка 2 (P0101): hits:")
    assert characters(run) == 1  # neither Vera nor Karl: all or none
    assert len(records(run)) == 1  # only the one added by hand


def test_one_row_repeated_in_the_roster_is_its_rows_error(run: Run, tmp_path: Path) -> None:
    campaign(run)
    file = tmp_path / "twice.csv"
    file.write_text(HEADER + "A1,Vera,,,,\nA2,Boris,,,,\nA1,Vera again,,,,\n", encoding="utf-8")
    result = run("character", "import", str(file), "--json")
    assert result.exit_code == 2
    answer = json.loads(result.stdout)
    assert answer["imported"] == 0 and answer["record"] is None
    assert answer["error"] == "InvalidInput"
    assert answer["errors"] == [
        {"line": 3, "id": "A1", "message": "id 'A1' is taken by a row above"}
    ]
    assert characters(run) == 0


def test_many_bad_rows_are_listed_up_to_twenty_then_counted(run: Run, tmp_path: Path) -> None:
    campaign(run)
    file = tmp_path / "many.csv"
    file.write_text(HEADER + "".join(f"B{i},,,,,\n" for i in range(25)), encoding="utf-8")
    lines = run("character", "import", str(file)).stderr.splitlines()
    assert len(lines) == 22  # 20 rows, the count of the rest, the error
    assert lines[19].startswith("row 20 (B19): name:")
    assert lines[20] == "… and 5 more rows with errors"
    assert lines[21].startswith("error: 25 of 25 rows have errors")
    everything = json.loads(run("character", "import", str(file), "--json").stdout)
    assert [e["line"] for e in everything["errors"]] == list(range(1, 26))


def test_a_dry_run_checks_every_row_and_stores_nothing(run: Run, tmp_path: Path) -> None:
    campaign(run)
    file = tmp_path / "roster.csv"
    file.write_text(roster_csv(40), encoding="utf-8")
    out = ok(run("character", "import", str(file), "--dry-run"))
    assert "Checked 40 rows: no errors; nothing imported (--dry-run)" in out
    checked = ok_json(run("character", "import", str(file), "--dry-run", "--json"))
    assert checked == {"imported": 0, "record": None, "errors": [], "checked": 40, "dry_run": True}
    assert records(run) == [] and characters(run) == 0
    ok(run("character", "import", str(file)))  # the same file, for real
    assert characters(run) == 40


def test_a_dry_run_of_a_bad_roster_fails_like_the_import(run: Run, tmp_path: Path) -> None:
    campaign(run)
    file = tmp_path / "bad.csv"
    file.write_text(HEADER + "C1,Vera,-1,,,\n", encoding="utf-8")
    result = run("character", "import", str(file), "--dry-run")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == (
        "row 1 (C1): hits: Input should be greater than or equal to 0"
    )


def test_a_json_roster_file(run: Run, tmp_path: Path) -> None:
    campaign(run)
    file = tmp_path / "party.json"
    party = [
        {"id": "J1", "name": "Vera", "hits": 6, "race": "elf", "age": 120, "skills": ["Healer"]},
        {"id": "J2", "name": "Boris"},
    ]
    file.write_text(json.dumps(party), encoding="utf-8")
    answer = ok_json(run("character", "import", str(file), "--json"))
    assert answer == {
        "imported": 2,
        "record": 1,
        "errors": [],
        "checked": 2,
        "dry_run": False,
    }
    vera = ok_json(run("character", "show", "J1", "--json"))
    assert (vera["name"], vera["hits_max"]) == ("Vera", 6)
    stored = records(run)[0]["input"]["characters"]  # type: ignore[index]
    assert stored[0]["race"] == "elf" and stored[0]["age"] == 120
    assert stored[0]["skills"] == ["Healer"] and stored[1]["skills"] == []


def test_a_roster_from_standard_input(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    campaign(cli_runner(db))
    env = {"LAZARETTO_DB": str(db), "LAZARETTO_LANG": "en", "LAZARETTO_CAMPAIGN": None}

    def piped(text: str, *more: str) -> Result:
        args = ["character", "import", "-", *more]
        return CliRunner().invoke(build(), args, input=text.encode(), env=env)

    assert json.loads(ok(piped(roster_csv(3), "--json")))["imported"] == 3
    party = json.dumps([{"id": "S1", "name": "Sigrun"}])
    assert json.loads(ok(piped(party, "--json")))["imported"] == 1  # JSON, told by its content
    told = piped(party, "--format", "csv")
    assert refused(told, 2) == (
        "error: stdin is read as CSV but holds JSON. For a JSON file use --format json."
    )
    assert cli_runner(db)("character", "show", "S1").exit_code == 0


def test_a_file_that_is_not_what_its_name_says_is_refused_in_one_line(
    run: Run, tmp_path: Path
) -> None:
    campaign(run)
    fake = tmp_path / "roster.json"
    fake.write_text(roster_csv(2), encoding="utf-8")
    assert refused(run("character", "import", str(fake)), 2) == (
        "error: roster.json is read as JSON but is not a JSON list or object "
        "(it must start with [). For a CSV file use --format csv."
    )
    assert (
        ok_json(run("character", "import", str(fake), "--format", "csv", "--json"))["imported"] == 2
    )
    text = tmp_path / "roster.txt"
    text.write_text(roster_csv(1), encoding="utf-8")
    line = refused(run("character", "import", str(text), lang="ru"), 2)
    assert line.startswith("ошибка: ") and "файл списка — .csv или .json (у этого .txt)" in line
    broken = tmp_path / "broken.json"
    broken.write_text('[{"id": "X1", "name": "Vera"', encoding="utf-8")
    assert "not valid JSON (line 1" in refused(run("character", "import", str(broken)), 2)
    assert refused(run("character", "import", str(tmp_path / "none.csv")), 4) == (
        "error: No roster file 'none.csv'. Give the path of a .csv or .json file, or - for "
        "standard input."
    ).replace("'none.csv'", repr(str(tmp_path / "none.csv")))
    latin = tmp_path / "latin.csv"
    latin.write_bytes((HEADER + "L1,Jos\xe9,,,,\n").encode("latin-1"))
    assert "not UTF-8 text" in refused(run("character", "import", str(latin)), 2)
    empty = tmp_path / "empty.csv"
    empty.write_text(HEADER, encoding="utf-8")
    assert refused(run("character", "import", str(empty)), 2) == (
        "error: The roster has no characters"
    )
    assert characters(run) == 2


def test_the_import_names_who_made_it_as_an_action_does(run: Run, tmp_path: Path) -> None:
    """``character import --as Olga`` (and ``character add --as``) records Olga as who
    imported, as ``act --as`` records who acted; without ``--as`` it is the master, as an
    action's is; ``records`` shows them in both languages."""
    campaign(run)
    file, more = tmp_path / "a.csv", tmp_path / "b.csv"
    file.write_text(roster_csv(2), encoding="utf-8")
    more.write_text(roster_csv(1, start=10), encoding="utf-8")
    ok(run("character", "import", str(file), "--as", "Olga"))
    ok(run("character", "import", str(more)))
    ok(run("act", "lose-hits", "--character", "P0001", "--hits", "1", "--as", "Olga"))
    ok(run("character", "add", "K9", "--name", "Kai"))
    ok(run("character", "add", "K10", "--name", "Kim", "--as", "Olga"))
    found = records(run)
    assert [(r["kind"], r["actor"], r["role"]) for r in found] == [
        ("character", "Olga", "master"),
        ("character", "master", "master"),
        ("act", "Olga", "master"),
        ("character", "master", "master"),
        ("character", "Olga", "master"),
    ]
    lines = ok(run("records")).splitlines()
    assert "Olga" in lines[0] and "Olga" in lines[2] and "master" in lines[1]
    assert "мастер" in ok(run("records", lang="ru")).splitlines()[1]
