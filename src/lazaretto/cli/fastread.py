"""A campaign read from SQLite without SQLAlchemy, for the commands that only read.

``lazaretto timers`` or ``character show`` on a phone-sized machine spent more time
importing SQLAlchemy than doing anything else (issue 17). What they need is a
campaign's version, ruleset and state parts (``service/state_store.py``: table
``state_parts``, one row per entity, field ``""`` for the rest), which the standard
library's ``sqlite3`` reads in a read-only connection; the ruleset's state model
parses them as one document, exactly as the service does (``service/state_layout.py``,
shared with the service, says which fields are split and makes the document).

It answers only when the answer is certainly the service's own: a plain SQLite file
that exists and whose schema is at the newest migration, a campaign stored as parts.
Anything else — a PostgreSQL URL, a database to migrate, a missing or damaged part,
any driver error — gives None, and the caller asks the service (which migrates,
refuses or repairs as it always does). ``LAZARETTO_FASTREAD=0`` turns it off.

It reads the same rows with the same query as ``state_store.read_all``, so entities
come in the same order; tests/e2e/test_cli_fastread.py checks both paths print the
same, and tests/unit/test_codebase.py that this module's copies of the head revision
and the database path agree with the service's (the service's modules that hold them
import SQLAlchemy).
"""

from __future__ import annotations

import os
import sqlite3
import typing
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from lazaretto.core.gcpause import gc_paused

if TYPE_CHECKING:
    from lazaretto.core.ruleset import Ruleset
    from lazaretto.core.state import CampaignState

GLOBAL = ""
"""The field of the part that holds everything not split into entities
(``state_layout.GLOBAL``: that module imports Pydantic, this one only when parsing)."""

_MIGRATIONS = Path(__file__).resolve().parent.parent / "store" / "migrations" / "versions"

# the query state_store.read_all makes (SQLAlchemy renders it so): the same rows in the
# same order, hence characters and timers listed in the same order
_PARTS = (
    "SELECT state_parts.field, state_parts.key, state_parts.body FROM state_parts "
    "WHERE state_parts.campaign_id = ? AND state_parts.body IS NOT NULL "
    "ORDER BY state_parts.ord"
)


def enabled() -> bool:
    """Whether the read path may be used (``LAZARETTO_FASTREAD=0`` turns it off)."""
    return os.environ.get("LAZARETTO_FASTREAD", "1") != "0"


def sqlite_path(db: str | None) -> str | None:
    """The SQLite file ``store.db.database_url(db)`` would open, or None when it would
    open something else (a PostgreSQL URL, an SQLite URL with options or escapes).
    Creates nothing."""
    value = db or os.environ.get("LAZARETTO_DB") or str(_default_db_path())
    if "://" not in value:
        return str(Path(value).expanduser())
    prefix = "sqlite:///"
    if not value.startswith(prefix) or any(c in value for c in "?%#"):
        return None
    return value.removeprefix(prefix) or None


def _default_db_path() -> Path:
    """``store.db.default_db_path`` (without importing SQLAlchemy)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "lazaretto" / "lazaretto.db"


@cache
def head_revision() -> str:
    """The newest migration's revision: its file name's number (``0009_state_parts.py``
    is revision ``0009``)."""
    return max(p.name[:4] for p in _MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.py"))


def assemble(model: type[CampaignState], written: dict[str, dict[str, str]]) -> CampaignState:
    """The state the parts ``written`` (by field and key) make, parsed as one document,
    as ``state_layout.Layout.assemble`` does (without building its adapters, which the
    service needs for writing entries one by one)."""
    from lazaretto.service.state_layout import document, split_fields

    with gc_paused():
        return model.model_validate_json(document(split_fields(model), written))


class Reader:
    """Read-only access to one SQLite database at the newest schema.

    Each method reads in one transaction of its own (a consistent snapshot, no lock
    held between calls), and answers None when the service must answer instead.
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._parsed: dict[str, tuple[int, Ruleset, CampaignState]] = {}

    def campaign_ids(self) -> list[str]:
        """Every campaign's id, in order."""
        rows = self._read(lambda c: c.execute("SELECT id FROM campaigns ORDER BY id").fetchall())
        return [r[0] for r in rows]

    def ruleset_id(self, name: str) -> str | None:
        """The campaign's ruleset id; None if there is no such campaign."""
        row = self._read(
            lambda c: c.execute("SELECT ruleset FROM campaigns WHERE id = ?", (name,)).fetchone()
        )
        return None if row is None else str(row[0])

    def load(self, name: str) -> tuple[Ruleset, CampaignState, int] | None:
        """The campaign's ruleset, state and version, as ``CampaignService.load`` gives
        them (for reading only: the state may be shared by later calls); None for a
        campaign that does not exist or is not stored as parts."""
        from lazaretto.core.registry import get_ruleset

        def read(c: sqlite3.Connection) -> tuple[int, str, dict[str, dict[str, str]]] | None:
            row = c.execute("SELECT version, ruleset FROM campaigns WHERE id = ?", (name,))
            head = row.fetchone()
            if head is None:
                return None
            version, ruleset = int(head[0]), str(head[1])
            known = self._parsed.get(name)
            if known is not None and known[0] == version:
                return version, ruleset, {}
            written: dict[str, dict[str, str]] = {}
            for f, k, body in c.execute(_PARTS, (name,)):
                written.setdefault(f, {})[k] = body
            return version, ruleset, written

        got = self._read(read)
        if got is None:
            return None
        version, ruleset, written = got
        known = self._parsed.get(name)
        if known is not None and known[0] == version:
            return known[1], known[2], version
        if GLOBAL not in written:  # stored before the parts, or damaged: the service's
            return None
        rs = get_ruleset(ruleset)
        state = assemble(rs.state_model, written)
        self._parsed[name] = (version, rs, state)
        return rs, state, version

    def _read(self, fn: typing.Callable[[sqlite3.Connection], typing.Any]) -> typing.Any:
        self._conn.execute("BEGIN")
        try:
            return fn(self._conn)
        finally:
            self._conn.execute("COMMIT")

    def close(self) -> None:
        self._conn.close()


def open_reader(db: str | None) -> Reader | None:
    """A reader of the database ``--db``/``LAZARETTO_DB`` names, or None when the
    service must be used (not an existing SQLite file at the newest schema, turned off,
    or anything going wrong)."""
    if not enabled():
        return None
    path = sqlite_path(db)
    if path is None or not os.path.isfile(path):
        return None
    try:
        conn = sqlite3.connect(
            f"file:{quote(path)}?mode=ro", uri=True, timeout=10, isolation_level=None
        )
    except sqlite3.Error:
        return None
    try:
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        if row is None or row[0] != head_revision():
            conn.close()
            return None
    except (sqlite3.Error, ValueError):
        conn.close()
        return None
    return Reader(conn)
