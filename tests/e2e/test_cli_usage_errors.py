"""A mistyped command line is refused like every other error (``cli/usage.py``): one
line in the chosen language, naming what was wrong and where the command's help is,
exit code 2, JSON with ``--json`` — not Click's five-line English box."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.e2e.clitools import Run, cli_runner, ok, refused

CASES = [
    (
        ("character", "add", "X", "--hits", "5000"),
        "error: Invalid value for '--hits': Input should be less than or equal to 1000. "
        "Help: lazaretto character add --help",
        "ошибка: Неверное значение '--hits': должно быть не больше 1000. "
        "Справка: lazaretto character add --help",
    ),
    (
        ("character", "add", "X", "--hits", "-1"),
        "error: Invalid value for '--hits': Input should be greater than or equal to 0. "
        "Help: lazaretto character add --help",
        "ошибка: Неверное значение '--hits': должно быть не меньше 0. "
        "Справка: lazaretto character add --help",
    ),
    (
        ("character", "add", "X", "--hits", "many"),
        "error: Invalid value for '--hits': Input should be a valid integer, unable to parse "
        "string as an integer. Help: lazaretto character add --help",
        "ошибка: Неверное значение '--hits': нужно целое число. "
        "Справка: lazaretto character add --help",
    ),
    (
        ("campaign", "create", "q", "--clock", "sideways"),
        "error: Invalid value for '--clock': 'sideways' is not one of 'manual', 'realtime'. "
        "Help: lazaretto campaign create --help",
        "ошибка: Неверное значение '--clock': «sideways» — такого нет; можно: 'manual', "
        "'realtime'. Справка: lazaretto campaign create --help",
    ),
    (
        ("character", "show"),
        "error: Missing argument 'id'. Help: lazaretto character show --help",
        "ошибка: Не указан аргумент 'id'. Справка: lazaretto character show --help",
    ),
    (
        ("timers", "--bogus"),
        "error: No such option: --bogus. Help: lazaretto timers --help",
        "ошибка: Нет параметра --bogus. Справка: lazaretto timers --help",
    ),
    (
        ("timers", "--jsn"),
        "error: No such option: --jsn (did you mean --json?). Help: lazaretto timers --help",
        "ошибка: Нет параметра --jsn (может быть, --json?). Справка: lazaretto timers --help",
    ),
    (
        ("roll", "1d6", "again"),
        "error: Unexpected extra argument(s): again. Help: lazaretto roll --help",
        "ошибка: Лишние аргументы: again. Справка: lazaretto roll --help",
    ),
    (
        ("tmers",),
        "error: No such command 'tmers' (did you mean 'timers'?). Help: lazaretto --help",
        "ошибка: Нет команды 'tmers' (может быть, 'timers'?). Справка: lazaretto --help",
    ),
    (
        ("clock", "advnce"),
        "error: No such command 'advnce' (did you mean 'advance'?). "
        "Help: lazaretto clock --help",
        "ошибка: Нет команды 'advnce' (может быть, 'advance'?). Справка: lazaretto clock --help",
    ),
    (
        ("character", "add", "X", "--name"),
        "error: Option '--name' needs a value",
        "ошибка: Параметру '--name' нужно значение",
    ),
]


@pytest.fixture
def run(tmp_path: Path) -> Run:
    run = cli_runner(tmp_path / "u.db")
    ok(run("campaign", "create", "z", "--ruleset", "warhammer-larp", "--clock", "manual"))
    return run


@pytest.mark.parametrize(("args", "en", "ru"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_a_mistyped_command_line_is_one_line_in_the_chosen_language(
    run: Run, args: tuple[str, ...], en: str, ru: str
) -> None:
    assert refused(run(*args), 2) == en
    assert refused(run(*args, lang="ru"), 2) == ru
    assert refused(run("--lang", "ru", *args), 2) == ru  # --lang is read before the mistake
    box = run(*args)
    assert "╭" not in box.stdout + box.stderr and box.stdout == ""


def test_a_mistake_is_json_with_json(run: Run) -> None:
    result = run("character", "show", "--json", lang="ru")
    assert result.exit_code == 2
    assert json.loads(result.stdout) == {
        "error": "InvalidInput",
        "message": "Не указан аргумент 'id'. Справка: lazaretto character show --help",
        "rule_ids": [],
    }


def test_an_unknown_language_is_refused_in_english_naming_the_two(run: Run) -> None:
    line = refused(run("--lang", "fr", "timers"), 2)
    assert line == "error: Invalid value for --lang: use en or ru. Help: lazaretto --help"
    assert refused(run("--lang", "fr", "timers", lang="ru"), 2) == (
        "ошибка: Неверное значение --lang: укажите en или ru. Справка: lazaretto --help"
    )


def test_no_command_still_shows_the_help(run: Run) -> None:
    result = run("clock")
    assert result.exit_code == 2 and "advance" in result.output and "error" not in result.output
