"""The database handle: SQLite (WAL, synchronous commits) by default, PostgreSQL by URL.

``LAZARETTO_DB`` or ``--db`` give a file path or an SQLAlchemy URL; the default file
lives in the user's data folder. The schema is brought up to date with Alembic on open.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, Executable, Row, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DatabaseError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from lazaretto.core.errors import LazarettoError

_MIGRATION_LOCK = threading.Lock()
HEAD_REVISION = "0009"
"""The newest migration; a database already there skips Alembic (a CLI call stays quick).
tests/integration/test_store.py checks it matches the migrations folder."""


class StorageError(LazarettoError):
    """Raised when the database cannot be opened, read or written.

    Its message is for anyone (it names no table, query or driver); ``detail`` holds
    the driver's own words, for the server log and the operator's terminal."""

    exit_code = 8
    http_status = 503

    def __init__(self, message: str, *, ru: str | None = None, detail: str = "") -> None:
        super().__init__(message, ru=ru)
        self.detail = detail


class DamagedDatabase(StorageError):
    """Raised when the database file is not a database or its pages are corrupt: only
    a backup brings it back."""

    exit_code = 9


_SQLITE_DAMAGE = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
_PG_DAMAGE = ("XX001", "XX002")  # data_corrupted, index_corrupted


def is_damage(exc: BaseException) -> bool:
    """Whether a driver error says the database itself is damaged."""
    orig = getattr(exc, "orig", exc)
    code = getattr(orig, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in _SQLITE_DAMAGE:
        return True
    text = str(orig).lower()
    return (
        getattr(orig, "sqlstate", None) in _PG_DAMAGE
        or "file is not a database" in text
        or "database disk image is malformed" in text
    )


def damaged(detail: str = "") -> DamagedDatabase:
    """The refusal for a damaged database: restore a backup."""
    return DamagedDatabase(
        "The database is damaged: restore a backup (lazaretto restore FILE)",
        ru="База данных повреждена: восстановите резервную копию (lazaretto restore ФАЙЛ)",
        detail=detail,
    )


def storage_error(exc: BaseException) -> StorageError:
    """Our error for a driver's: generic words for the caller, the driver's in
    ``detail``."""
    detail = f"{type(exc).__name__}: {exc}"
    if is_damage(exc):
        return damaged(detail)
    return StorageError(
        "The database could not be read or written; try again in a moment",
        ru="Не удалось прочитать или записать базу данных; повторите через минуту",
        detail=detail,
    )


def _shown(url: str) -> str:
    """``url`` without its password, for messages."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ValueError, TypeError):
        return "the database"


def default_db_path() -> Path:
    """Where the database lives unless told otherwise."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "lazaretto" / "lazaretto.db"


def database_url(db: str | None = None) -> str:
    """An SQLAlchemy URL from ``--db``, ``LAZARETTO_DB`` or the default path."""
    value = db or os.environ.get("LAZARETTO_DB") or str(default_db_path())
    if "://" in value:
        return value
    path = Path(value).expanduser()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageError(
            f"Cannot create the folder for the database {path}: {exc.strerror}",
            ru=f"Не удалось создать папку для базы {path}: {exc.strerror}",
        ) from exc
    return f"sqlite:///{path}"


def _sqlite_pragmas(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=FULL")  # what we report as done survives power loss
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=10000")
        cur.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn: Any) -> None:
        if conn.get_execution_options().get("lazaretto_read"):
            conn.exec_driver_sql("BEGIN")  # readers share the WAL snapshot, no lock
        else:
            conn.exec_driver_sql("BEGIN IMMEDIATE")  # take the write lock up front


class Database:
    """An open, migrated database."""

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            self.engine = create_engine(url, future=True)
            if self.engine.dialect.name == "sqlite":
                _sqlite_pragmas(self.engine)
            self._migrate()
        except DatabaseError as exc:
            if is_damage(exc):
                raise damaged(f"{url}: {exc.orig}") from exc
            if not isinstance(exc, OperationalError):
                raise storage_error(exc) from exc
            raise StorageError(
                f"Cannot open the database {_shown(url)}: {exc.orig}",
                ru=f"Не удалось открыть базу {_shown(url)}: {exc.orig}",
                detail=str(exc),
            ) from exc
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        # one writer at a time inside this process: the others wait here, in order,
        # instead of polling SQLite's lock (which gives long tail latencies)
        self.write_lock = threading.RLock()
        self.read_engine = self.engine.execution_options(lazaretto_read=True)
        self.read_sessions = sessionmaker(self.read_engine, expire_on_commit=False)

    def _at_head(self) -> bool:
        try:
            with self.engine.connect() as raw:
                conn = raw.execution_options(lazaretto_read=True)
                version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
                conn.rollback()
        except SQLAlchemyError:
            return False
        return version == HEAD_REVISION

    def _migrate(self) -> None:
        if self._at_head():
            return
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option(
            "script_location", str(resources.files("lazaretto.store").joinpath("migrations"))
        )
        # Alembic's context is process-global: one migration at a time in this process;
        # across processes PostgreSQL serialises them with an advisory lock.
        with _MIGRATION_LOCK, self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7474747)")
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    @contextmanager
    def transaction(self, *, readonly: bool = False) -> Iterator[Session]:
        """A session in one transaction: committed on success, rolled back on error.

        ``readonly`` transactions do not take SQLite's write lock.
        """
        maker = self.read_sessions if readonly else self.sessions
        try:
            with maker() as session, session.begin():
                yield session
        except SQLAlchemyError as exc:
            raise storage_error(exc) from exc

    def read_first(self, query: Executable) -> Row[Any] | None:
        """The first row of a read-only ``query``, without an ORM session: for the
        small reads made on every request (a campaign's version)."""
        try:
            with self.read_engine.connect() as conn:
                return conn.execute(query).first()
        except SQLAlchemyError as exc:
            raise storage_error(exc) from exc

    def close(self) -> None:
        """Release connections."""
        self.engine.dispose()
