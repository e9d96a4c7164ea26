"""``backup`` and ``restore``: copies of the SQLite database that are safe while the
server runs (SQLite's online backup: a consistent snapshot, writers keep going)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Annotated

import typer

from lazaretto.cli.app import JsonOpt
from lazaretto.cli.env import get_env, guarded
from lazaretto.core.errors import Conflict, InvalidInput, NotFound
from lazaretto.store.db import Database, StorageError, database_url


def _sqlite_path(url: str) -> Path:
    if not url.startswith("sqlite:///"):
        raise InvalidInput(
            "backup and restore handle the SQLite file; for PostgreSQL use pg_dump/pg_restore",
            ru="backup и restore работают с файлом SQLite; для PostgreSQL — pg_dump/pg_restore",
        )
    return Path(url.removeprefix("sqlite:///"))


def _copy(source: Path, target: Path) -> int:
    """An online, consistent copy of ``source`` into ``target``; returns pages copied."""
    src = sqlite3.connect(source)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst, pages=256)
        pages = int(dst.execute("PRAGMA page_count").fetchone()[0])
        ok = dst.execute("PRAGMA integrity_check").fetchone()[0]
        if ok != "ok":
            raise Conflict(
                f"The copy failed its integrity check: {ok}",
                ru=f"Копия не прошла проверку целостности: {ok}",
            )
        return pages
    finally:
        dst.close()
        src.close()


@guarded
def backup_cmd(
    target: Annotated[Path, typer.Argument(help="the backup file to write")],
    as_json: JsonOpt = False,
) -> None:
    """Copy the database to TARGET; safe while `lazaretto serve` is running."""
    env = get_env()
    source = _sqlite_path(database_url(env.db))
    if not source.exists():
        raise NotFound(f"No database at {source}", ru=f"Нет базы {source}")
    if target.exists():
        raise Conflict(
            f"{target} exists; choose a new file", ru=f"{target} уже есть; выберите новый файл"
        )
    if not target.parent.is_dir():
        raise StorageError(
            f"Cannot write the backup: no folder {target.parent}",
            ru=f"Не удалось записать копию: нет папки {target.parent}",
        )
    pages = _copy(source, target)
    if as_json:
        env.emit_json({"backup": str(target), "pages": pages})
    else:
        env.console.print(
            env.tr(
                f"Backed up to {target} ({pages} pages, integrity ok)",
                f"Копия сохранена в {target} ({pages} стр., целостность в порядке)",
            ),
            markup=False,
        )


@guarded
def restore_cmd(
    source: Annotated[Path, typer.Argument(help="a backup written by `lazaretto backup`")],
    force: Annotated[bool, typer.Option(help="replace an existing database")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Replace the database with a backup (stop the server first)."""
    env = get_env()
    target = _sqlite_path(database_url(env.db))
    if not source.exists():
        raise NotFound(f"No backup at {source}", ru=f"Нет копии {source}")
    if target.exists() and not force:
        raise Conflict(
            f"{target} exists: stop the server and give --force to replace it",
            ru=f"{target} уже есть: остановите сервер и укажите --force",
        )
    pages = _copy(source, target)  # the backup API rewrites it in place, WAL and all
    Database(f"sqlite:///{target}").close()  # brings an older backup up to date
    if as_json:
        env.emit_json({"restored": str(target), "pages": pages})
    else:
        env.console.print(
            env.tr(f"Restored {target} from {source}", f"База {target} восстановлена из {source}"),
            markup=False,
        )


def register(app: typer.Typer) -> None:
    """Attach backup and restore."""
    app.command("backup")(backup_cmd)
    app.command("restore")(restore_cmd)
