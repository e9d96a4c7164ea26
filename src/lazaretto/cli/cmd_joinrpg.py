"""``character import --format joinrpg``: a roster from JoinRPG's game API answers.

The file (or ``--from`` a server) holds JoinRPG's characters and field metadata
(docs/joinrpg.md). Every character is checked and classified first: ``added`` (a new
CharacterId), ``unchanged`` or ``changed`` (already in the campaign: never added
twice), ``skipped`` (inactive, NPC, without a player, not checked in). A character
with an error refuses the whole import; otherwise the added ones are imported as ONE
record (:func:`lazaretto.service.roster.import_roster`), or none with ``--dry-run``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lazaretto.cli.env import Env
from lazaretto.core.errors import InvalidInput, NotFound
from lazaretto.core.ruleset import Role
from lazaretto.service.joinrpg import STATUS_WORDS

if TYPE_CHECKING:
    from lazaretto.service import roster

STATUSES = ("added", "unchanged", "changed", "skipped")
MAX_TOKEN_BYTES = 10_000


def field_options(given: list[str] | None) -> dict[str, str]:
    """``--field hits=Хиты`` options as ``{"hits": "Хиты"}``."""
    out: dict[str, str] = {}
    for option in given or []:
        target, eq, name = option.partition("=")
        target = target.strip().removeprefix("lazaretto:")
        if not eq or not target or not name.strip():
            raise InvalidInput(
                f"--field {option!r}: write TARGET=FIELD NAME, e.g. --field hits=Хиты",
                ru=f"--field {option!r}: пишется ЦЕЛЬ=ИМЯ ПОЛЯ, например --field hits=Хиты",
            )
        out[target] = name.strip().strip('"')
    return out


def token_of(file: str | None) -> str:
    """The token in ``file`` (its first line)."""
    if file is None:
        raise InvalidInput(
            "--from needs --token-file: a file with the JoinRPG token",
            ru="Для --from нужен --token-file: файл с токеном JoinRPG",
        )
    path = Path(file)
    if not path.is_file():
        raise NotFound(f"No token file {file!r}", ru=f"Нет файла токена {file!r}")
    token = path.read_bytes()[:MAX_TOKEN_BYTES].decode("utf-8", "replace").strip()
    if not token or "\n" in token:
        raise InvalidInput(
            f"The token file {file!r} must hold the token alone on one line",
            ru=f"В файле токена {file!r} должен быть один токен в одной строке",
        )
    return token


def fetched_text(url: str, token_file: str | None) -> str:
    """The roster document fetched from the JoinRPG project at ``url``, as JSON text."""
    import json

    from lazaretto.service.joinrpg_fetch import fetch_roster

    return json.dumps(fetch_roster(url, token_of(token_file)), ensure_ascii=False)


def report_row(c: roster.Checked) -> dict[str, Any]:
    """A row as ``--json`` lists it: number, CharacterId, name, status, note or error."""
    status = "error" if c.error else c.status
    return {
        "line": c.line,
        "id": c.raw.get("id"),
        "name": c.raw.get("name"),
        "status": status,
        "message": c.error or c.note,
    }


def _table(env: Env, rows: list[dict[str, Any]], name: str) -> None:
    env.say(
        env.tr(f"{name}: {len(rows)} characters read", f"{name}: прочитано персонажей: {len(rows)}")
    )
    lines = [
        [
            str(r["line"]),
            r["id"] or "",
            r["name"] or "",
            env.tr(*STATUS_WORDS.get(r["status"], (r["status"], r["status"]))),
            r["message"],
        ]
        for r in rows
    ]
    headers = [
        "№",
        "CharacterId",
        env.tr("name", "имя"),
        env.tr("status", "итог"),
        env.tr("note", "примечание"),
    ]
    env.table(headers, lines)


def _summary(env: Env, counts: Counter[str]) -> str:
    parts = [f"{env.tr(*STATUS_WORDS[s])}: {counts[s]}" for s in STATUSES if counts[s]]
    return ", ".join(parts) or env.tr("nothing", "ничего")


def run_import(
    env: Env,
    text: str,
    name: str,
    options: Any,
    metadata: str | None,
    *,
    dry_run: bool,
    actor: str | None,
    as_json: bool,
) -> None:
    """Check, report and (unless a dry run) import a JoinRPG roster."""
    from lazaretto.cli.cmd_roster import refuse_rows
    from lazaretto.service import roster

    campaign = env.campaign_name()
    done = roster.import_joinrpg(
        env.service,
        campaign,
        text,
        lang=env.lang,
        options=options,
        metadata=metadata,
        dry_run=dry_run,
        actor=actor or Role.MASTER.value,
    )
    rows = [report_row(c) for c in done.checked]
    if not as_json:
        _table(env, rows, name)
    if done.errors:
        refuse_rows(env, [r for r in rows if r["status"] == "error"], len(rows), as_json)
    counts = Counter(r["status"] for r in rows)
    added, record = done.added, done.record
    if as_json:
        env.emit_json(
            {
                **{s: counts[s] for s in STATUSES},
                "imported": 0 if dry_run else len(added),
                "record": record,
                "dry_run": dry_run,
                "errors": [],
                "rows": rows,
            }
        )
        return
    if dry_run:
        env.say(
            env.tr(
                f"Checked: {_summary(env, counts)}; nothing imported (--dry-run)",
                f"Проверено: {_summary(env, counts)}; ничего не добавлено (--dry-run)",
            )
        )
    elif record is None:
        env.say(
            env.tr(
                f"Nothing to add: {_summary(env, counts)}",
                f"Добавлять нечего: {_summary(env, counts)}",
            )
        )
    else:
        env.say(
            env.tr(
                f"Imported (record {record}): {_summary(env, counts)}",
                f"Импортировано (запись {record}): {_summary(env, counts)}",
            )
        )


def read_metadata(file: str | None) -> str | None:
    """The text of a separate metadata file (``--metadata``), if given."""
    if file is None:
        return None
    from lazaretto.cli.cmd_roster import read_file

    return read_file(file)[0]
