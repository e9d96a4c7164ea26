"""``character import``: a whole roster from a CSV or JSON file, in one change.

Every row is checked first and shown with its own error; only a roster without
errors is imported, as one record of the campaign (all the characters or none), the
way the web's roster page does it (:mod:`lazaretto.service.roster`). Rows are counted
from the first character: in a CSV, row 1 is the line after the header.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from lazaretto.cli.app import JsonOpt
from lazaretto.cli.env import Env, get_env, guarded
from lazaretto.cli.render import clean
from lazaretto.core.errors import InvalidInput, NotFound
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.core.state import CampaignState

if TYPE_CHECKING:  # imported when a roster is imported: the other `character` commands
    # (show, on SQLite without SQLAlchemy: cli/fastread.py) need neither
    from lazaretto.service import roster

MAX_FILE_BYTES = 5_000_000
"""Bytes of a roster file read at most (5,000 rows of the documented columns are far
less); a bigger file is refused before it is parsed."""
PREVIEW_ROWS = 5
"""Rows the preview shows."""
LISTED_ERRORS = 20
"""Rows with errors listed one per line (``--json`` lists them all)."""


class RosterFormat(StrEnum):
    """The formats a roster file may have."""

    CSV = "csv"
    JSON = "json"
    JOINRPG = "joinrpg"
    """JoinRPG's game API answers saved as JSON (docs/joinrpg.md)."""


def read_file(file: str) -> tuple[str, str]:
    """The text of ``file`` (``-``: standard input) and a name for it."""
    if file == "-":
        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        name = "stdin"
    else:
        path = Path(file)
        if not path.is_file():
            raise NotFound(
                f"No roster file {file!r}",
                ru=f"Нет файла списка {file!r}",
                tip="Give the path of a .csv or .json file, or - for standard input.",
                tip_ru="Укажите путь к файлу .csv или .json или - для стандартного ввода.",
            )
        try:
            with path.open("rb") as f:
                data = f.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            raise InvalidInput(
                f"The roster file {file!r} cannot be read: {exc.strerror}",
                ru=f"Файл списка {file!r} не читается: {exc.strerror}",
            ) from exc
        name = path.name
    if len(data) > MAX_FILE_BYTES:
        raise InvalidInput(
            f"The roster {name} is over {MAX_FILE_BYTES // 1_000_000} MB",
            ru=f"Список {name} больше {MAX_FILE_BYTES // 1_000_000} МБ",
        )
    try:
        return data.decode("utf-8-sig"), name
    except UnicodeDecodeError as exc:
        raise InvalidInput(
            f"The roster {name} is not UTF-8 text: save it as CSV (UTF-8) or JSON",
            ru=f"Список {name} — не текст UTF-8: сохраните его как CSV (UTF-8) или JSON",
        ) from exc


def _format(file: str, given: RosterFormat | None) -> RosterFormat | None:
    """``--format``, else the file's extension; None: the content decides (stdin)."""
    if given is not None:
        return given
    suffix = Path(file).suffix.lower().lstrip(".")
    if file != "-" and suffix in ("csv", "json"):
        return RosterFormat(suffix)
    if file != "-":
        raise InvalidInput(
            f"{file}: a roster file is .csv or .json "
            + (f"(this one is .{suffix})" if suffix else "(this one has no extension)"),
            ru=f"{file}: файл списка — .csv или .json "
            + (f"(у этого .{suffix})" if suffix else "(у этого нет расширения)"),
            tip="Rename it, or say which it is with --format csv or --format json.",
            tip_ru="Переименуйте его или укажите --format csv или --format json.",
        )
    return None


def _check_format(text: str, fmt: RosterFormat | None, name: str) -> None:
    """Refuse a roster whose content is not the format it is said to be (the service
    reads JSON when the text starts with ``[`` or ``{``, CSV otherwise)."""
    looks_json = text.lstrip("\ufeff").strip().startswith(("[", "{"))
    if fmt in (RosterFormat.JSON, RosterFormat.JOINRPG) and not looks_json:
        raise InvalidInput(
            f"{name} is read as JSON but is not a JSON list or object (it must start with [)",
            ru=f"{name} читается как JSON, но это не список или объект JSON (начало — [)",
            tip="For a CSV file use --format csv.",
            tip_ru="Для файла CSV укажите --format csv.",
        )
    if fmt is RosterFormat.CSV and looks_json:
        raise InvalidInput(
            f"{name} is read as CSV but holds JSON",
            ru=f"{name} читается как CSV, но в нём JSON",
            tip="For a JSON file use --format json.",
            tip_ru="Для файла JSON укажите --format json.",
        )


def row_error(checked: roster.Checked) -> dict[str, Any]:
    """A rejected row as ``--json`` lists it: its number, its id, the problem."""
    raw_id = checked.raw.get("id")
    return {
        "line": checked.line,
        "id": raw_id if isinstance(raw_id, str) else None,
        "message": checked.error,
    }


def _row_line(env: Env, error: dict[str, Any]) -> str:
    """A rejected row as one line (a line break in a value cannot forge a second one)."""
    named = " ".join(str(error[k]) for k in ("id", "name") if error.get(k))
    who = f" ({named})" if named else ""
    line = env.tr(f"row {error['line']}", f"строка {error['line']}")
    return clean(f"{line}{who}: {error['message']}", keep_newlines=False)


def _cell(value: Any) -> str:
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    return "" if value is None else str(value)


def _preview(
    env: Env, rs: Ruleset, state: CampaignState, checked: list[roster.Checked], name: str
) -> None:
    """How many characters the roster has, and its first rows as they will be added."""
    env.say(env.tr(f"{name}: {len(checked)} rows read", f"{name}: прочитано строк: {len(checked)}"))
    from rich.table import Table

    table = Table(
        "№",
        "id",
        env.tr("name", "имя"),
        env.tr("hits", "хиты"),
        env.tr("race", "раса"),
        env.tr("age", "возраст"),
        env.tr("skills", "навыки"),
        "",
    )
    for c in checked[:PREVIEW_ROWS]:
        raw = c.raw
        hits = _cell(raw.get("hits"))
        if c.row is not None:
            hits = str(rs.starting_hits(state.params, c.row.hits))
        fields = ("id", "name", "race", "age", "skills")
        cells = [_cell(raw.get(k)) for k in fields]
        mark = "✗" if c.error else "✓"
        table.add_row(str(c.line), *cells[:2], hits, *cells[2:], mark)
    env.console.print(table)
    if len(checked) > PREVIEW_ROWS:
        more = len(checked) - PREVIEW_ROWS
        env.say(env.tr(f"… and {more} more", f"… и ещё {more}"))


def refuse_rows(env: Env, errors: list[dict[str, Any]], total: int, as_json: bool) -> None:
    """Every row's error and one line saying nothing was imported; exits non-zero."""
    one = len(errors) == 1
    err = InvalidInput(
        f"{len(errors)} of {total} rows {'has an error' if one else 'have errors'}: "
        "nothing was imported",
        ru=f"Строк с ошибками: {len(errors)} из {total} — ничего не добавлено",
        tip="Fix the rows and run the import again.",
        tip_ru="Исправьте строки и запустите импорт снова.",
    )
    if as_json:
        env.emit_json({**err.to_dict(env.lang), "imported": 0, "record": None, "errors": errors})
        sys.exit(err.exit_code)
    for error in errors[:LISTED_ERRORS]:
        typer.echo(_row_line(env, error), err=True)
    if len(errors) > LISTED_ERRORS:
        more = len(errors) - LISTED_ERRORS
        typer.echo(
            env.tr(f"… and {more} more rows with errors", f"… и ещё строк с ошибками: {more}"),
            err=True,
        )
    env.fail(err, False)


def import_cmd(
    file: Annotated[
        str | None,
        typer.Argument(help="a .csv or .json roster, or - to read standard input"),
    ] = None,
    fmt: Annotated[
        RosterFormat | None,
        typer.Option("--format", help="csv, json or joinrpg (default: the file's extension)"),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="check every row and import nothing")
    ] = False,
    actor: Annotated[
        str | None, typer.Option("--as", help="who imports (recorded in the log)")
    ] = None,
    field: Annotated[
        list[str] | None,
        typer.Option("--field", help="joinrpg: TARGET=FIELD NAME, e.g. hits=Хиты (repeatable)"),
    ] = None,
    metadata: Annotated[
        str | None,
        typer.Option("--metadata", help="joinrpg: the fields metadata answer as its own file"),
    ] = None,
    include_inactive: Annotated[
        bool, typer.Option("--include-inactive", help="joinrpg: import inactive characters")
    ] = False,
    include_npc: Annotated[
        bool, typer.Option("--include-npc", help="joinrpg: import NPCs and unclaimed ones")
    ] = False,
    checked_in: Annotated[
        bool, typer.Option("--checked-in", help="joinrpg: only characters checked in (InGame)")
    ] = False,
    url: Annotated[
        str | None,
        typer.Option("--from", help="joinrpg: fetch from https://SERVER/x-game-api/PROJECT"),
    ] = None,
    token_file: Annotated[
        str | None, typer.Option("--token-file", help="joinrpg: a file holding the token")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Import a roster of characters from CSV, JSON or JoinRPG, all in one change.
    Columns: id and name (required), hits (empty: the ruleset's default), race, age,
    skills (separated by ;, in JSON a list). Every row is checked first; if any has an
    error, each is listed with its row number (row 1 is the first character, the line
    after a CSV's header) and nothing is imported. --format joinrpg reads JoinRPG's
    characters and field metadata (docs/joinrpg.md), or fetches them with --from.
    """
    if url is not None or fmt is RosterFormat.JOINRPG:
        _joinrpg(
            file,
            url,
            token_file,
            metadata,
            field,
            include_inactive,
            include_npc,
            checked_in,
            dry_run,
            actor,
            as_json,
        )
        return
    if file is None:
        raise InvalidInput(
            "Give the roster file (or - for standard input)",
            ru="Укажите файл списка (или - для стандартного ввода)",
        )
    from lazaretto.service import roster

    env = get_env()
    campaign = env.campaign_name()
    declared = _format(file, fmt)
    text, name = read_file(file)
    _check_format(text, declared, name)
    rs, state, _ = env.service.load(campaign)
    checked = roster.read_roster(text, set(state.characters), env.lang)
    if not checked:
        raise InvalidInput("The roster has no characters", ru="В списке нет персонажей")
    if not as_json:
        _preview(env, rs, state, checked, name)
    errors = [row_error(c) for c in checked if c.error]
    if errors:
        refuse_rows(env, errors, len(checked), as_json)
    if dry_run:
        if as_json:
            env.emit_json(
                {
                    "imported": 0,
                    "record": None,
                    "errors": [],
                    "checked": len(checked),
                    "dry_run": True,
                }
            )
        else:
            env.say(
                env.tr(
                    f"Checked {len(checked)} rows: no errors; nothing imported (--dry-run)",
                    f"Проверено строк: {len(checked)}, ошибок нет; ничего не добавлено (--dry-run)",
                )
            )
        return
    rows = [c.row for c in checked if c.row is not None]
    # the record names who imported, as an action's names who acted (``act --as``)
    done = roster.import_roster(env.service, campaign, rows, actor=actor or Role.MASTER.value)
    record = getattr(done, "record", None)
    if as_json:
        env.emit_json(
            {
                "imported": len(rows),
                "record": record,
                "errors": [],
                "checked": len(checked),
                "dry_run": False,
            }
        )
        return
    env.say(
        env.tr(
            f"Imported {len(rows)} characters (record {record})",
            f"Добавлено персонажей: {len(rows)} (запись {record})",
        )
    )


def _joinrpg(
    file: str | None,
    url: str | None,
    token_file: str | None,
    metadata: str | None,
    fields: list[str] | None,
    include_inactive: bool,
    include_npc: bool,
    checked_in: bool,
    dry_run: bool,
    actor: str | None,
    as_json: bool,
) -> None:
    """``--format joinrpg``: read the file (or fetch ``--from``) and import."""
    from lazaretto.cli import cmd_joinrpg
    from lazaretto.service.joinrpg import Options

    env = get_env()
    options = Options(cmd_joinrpg.field_options(fields), include_inactive, include_npc, checked_in)
    if url is not None:
        text, name = cmd_joinrpg.fetched_text(url, token_file), url
    elif file is not None:
        text, name = read_file(file)
        _check_format(text, RosterFormat.JOINRPG, name)
    else:
        raise InvalidInput(
            "Give the JoinRPG file, or --from the project's address",
            ru="Укажите файл JoinRPG или --from с адресом проекта",
        )
    cmd_joinrpg.run_import(
        env,
        text,
        name,
        options,
        cmd_joinrpg.read_metadata(metadata),
        dry_run=dry_run,
        actor=actor,
        as_json=as_json,
    )


def attach(character_app: typer.Typer) -> None:
    """Attach ``import`` to the ``character`` command group (once, however often the
    group's module registers its commands)."""
    if any(c.name == "import" for c in character_app.registered_commands):
        return
    character_app.command("import")(guarded(import_cmd))
