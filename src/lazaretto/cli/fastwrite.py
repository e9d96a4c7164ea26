"""An action recorded in SQLite without SQLAlchemy, for ``lazaretto act`` (issue 17).

Importing SQLAlchemy alone took longer than everything else an ``act`` does on a
phone-sized machine. What an in-order record writes is a handful of rows: the record,
its events and what they name, the state's parts it touched, the campaign's new
version (and, every so often, a checkpoint and a sweep of old tombstones). The rows'
values come from the same pure functions the service uses
(:mod:`lazaretto.service.state_layout`, :mod:`lazaretto.service.rows`,
:mod:`lazaretto.service.placing`); this module only executes them with the standard
library's ``sqlite3``, in one ``BEGIN IMMEDIATE`` transaction, with the service's
optimistic version check (a server may write the same file at the same time; SQLite's
write lock orders the two).

It answers only when the answer is certainly the service's own: a plain SQLite file
at the newest schema (in WAL mode), a campaign stored as parts, and a record that
comes after everything already derived (:func:`~lazaretto.service.placing.in_order`).
Anything else — PostgreSQL, a database to migrate, a record placed in the past (the
history runs again: the service's work), a damaged part, any driver error — rolls
back and gives None, and the caller asks the service; nothing is ever half written.
A refusal of the rules is raised as the service raises it (nothing is written).
``LAZARETTO_FASTWRITE=0`` turns it off.
"""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import datetime
from types import TracebackType
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from lazaretto.cli.fastread import _PARTS, GLOBAL, head_revision, sqlite_path
from lazaretto.core.gcpause import gc_paused

if TYPE_CHECKING:
    from lazaretto.core.events import Event
    from lazaretto.core.history import Checkpoint, Record
    from lazaretto.core.ruleset import Ruleset
    from lazaretto.core.state import CampaignState
    from lazaretto.service.placing import Draft, Head, Recorded
    from lazaretto.service.state_layout import Written

_HEAD = (
    "SELECT max(no) FROM records WHERE campaign_id = ?",
    # history_store.last_key: the latest record in the history, voids aside
    "SELECT at, no FROM records WHERE campaign_id = ? AND kind != 'void' "
    "ORDER BY at DESC, no DESC LIMIT 1",
)


def enabled() -> bool:
    """Whether the write path may be used (``LAZARETTO_FASTWRITE=0`` turns it off)."""
    return os.environ.get("LAZARETTO_FASTWRITE", "1") != "0"


def _insert(conn: sqlite3.Connection, table: str, rows: list[dict[str, Any]],
            upsert: tuple[str, ...] = ()) -> None:
    """Insert ``rows`` (dicts with the same keys) into ``table``, JSON columns encoded
    as SQLAlchemy encodes them (``json.dumps``); ``upsert`` (``state_parts`` only, as
    ``state_store.write``): on a part already stored, set these columns from the new
    row instead."""
    from lazaretto.service.rows import JSON_COLUMNS

    if not rows:
        return
    encoded = JSON_COLUMNS.get(table, ())
    cols = list(rows[0])
    names = ", ".join(f'"{c}"' for c in cols)
    sql = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' for _ in cols)})"
    if upsert:
        sets = ", ".join(f'"{c}" = excluded."{c}"' for c in upsert)
        sql += f' ON CONFLICT ("campaign_id", "field", "key") DO UPDATE SET {sets}'
    conn.executemany(
        sql, [tuple(json.dumps(r[c]) if c in encoded else r[c] for c in cols) for r in rows]
    )


class Change:
    """One campaign's state in an open write transaction (the write lock held): record
    on it, then :meth:`commit`; leaving the ``with`` block without committing rolls
    back and closes."""

    def __init__(self, conn: sqlite3.Connection, campaign: str, rs: Ruleset,
                 state: CampaignState, written: Written, version: int, head: Head) -> None:
        self._conn = conn
        self.campaign = campaign
        self.rs = rs
        self.state = state
        self._written = written
        self._version = version
        self._head = head
        self._done = False

    def __enter__(self) -> Change:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Roll back what is not committed, and close the connection."""
        try:
            if not self._done:
                self._conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass
        finally:
            self._done = True
            self._conn.close()

    def record(self, draft: Draft) -> Recorded | None:
        """Record the action ``draft`` as ``recorder.record`` does when it is in order,
        its rows written but not committed; None when it is not in order (the service
        must place it). Raises the rules' refusal."""
        from lazaretto.core import history
        from lazaretto.core.clock import wall_now
        from lazaretto.service.placing import (
            Recorded,
            check_window,
            in_order,
            new_record,
            run_in_order,
        )

        assert draft.kind == "act" and draft.make_input is None
        state = self.state
        wall = wall_now()
        params = history.history_params(state.params)
        rec = new_record(draft, state, self._head.next_no, wall)
        check_window(state, rec, params, wall, moves_clock=draft.moves_clock)
        if not in_order(self.rs, state, rec, self._head.last):
            return None
        with gc_paused():
            events, cp = run_in_order(self.rs, state, rec, params)
        self._store(rec, events, cp)
        self._head.took(rec)
        return Recorded(state, events, rec.no)

    def _store(self, rec: Record, events: list[Event], cp: Checkpoint | None) -> None:
        """The rows ``group_commit._commit_batch`` writes for one in-order record."""
        from lazaretto.service import rows, state_layout

        conn, name, version = self._conn, self.campaign, self._version
        _insert(conn, "records", [rows.record_row(name, rec)])
        if cp is not None:
            _insert(conn, "checkpoints", [rows.checkpoint_row(name, cp)])
        bumped = conn.execute(
            "UPDATE campaigns SET version = ?, next_due_wall = ? WHERE id = ? AND version = ?",
            (version + 1, rows.next_due_wall(self.state), name, version),
        )
        if bumped.rowcount != 1:  # cannot be under the write lock; if it were: the service
            raise sqlite3.OperationalError("the campaign changed under the write lock")
        lay = state_layout.layout(self.rs.state_model)
        with gc_paused():
            change = lay.changes(self.state, self._written)
        kept, placed = state_layout.part_rows(name, version + 1, change)
        _insert(conn, "state_parts", kept, upsert=("version", "body"))
        _insert(conn, "state_parts", placed, upsert=("version", "body", "ord"))
        floor = state_layout.tombstone_floor(version + 1)
        if floor is not None:
            conn.execute(
                "DELETE FROM state_parts WHERE campaign_id = ? AND body IS NULL AND version < ?",
                (name, floor),
            )
            conn.execute("UPDATE campaigns SET parts_floor = ? WHERE id = ?", (floor, name))
        owner = {e.seq: rec.no for e in events}
        _insert(conn, "events", rows.event_rows(name, events, owner))
        _insert(conn, "event_subjects", rows.subject_rows(name, events))

    def commit(self) -> None:
        """Make the recorded rows durable (raises a driver error: nothing is stored)."""
        self._conn.execute("COMMIT")
        self._done = True


def _connect(db: str | None) -> sqlite3.Connection | None:
    """A read-write connection to the existing SQLite file ``db`` names, set up as the
    service sets up its own (``store/db.py``), or None."""
    path = sqlite_path(db)
    if path is None or not os.path.isfile(path):
        return None
    conn = sqlite3.connect(
        f"file:{quote(path)}?mode=rw", uri=True, timeout=10, isolation_level=None
    )
    try:
        mode = conn.execute("PRAGMA journal_mode").fetchone()
        if mode is None or str(mode[0]).lower() != "wal":  # the service sets it: its work
            conn.close()
            return None
        conn.execute("PRAGMA synchronous=FULL")  # what we report as done survives power loss
        conn.execute("PRAGMA foreign_keys=ON")
    except BaseException:
        conn.close()
        raise
    return conn


def open_change(db: str | None, campaign: str) -> Change | None:
    """Campaign ``campaign`` of the database ``--db``/``LAZARETTO_DB`` names, loaded in
    an open write transaction; None when the service must write (turned off, not an
    SQLite file at the newest schema, no such campaign, not stored as parts, any
    driver error)."""
    if not enabled():
        return None
    try:
        conn = _connect(db)
    except sqlite3.Error:
        return None
    if conn is None:
        return None
    try:
        conn.execute("BEGIN IMMEDIATE")  # the write lock first, as the service takes it
        loaded = _load(conn, campaign)
    except (sqlite3.Error, ValueError):
        loaded = None
    except BaseException:
        conn.close()
        raise
    if loaded is None:
        conn.close()  # (rolls the transaction back)
        return None
    return Change(conn, campaign, *loaded)


def _load(conn: sqlite3.Connection, campaign: str) -> (
    tuple[Ruleset, CampaignState, Written, int, Head] | None
):
    """The campaign's ruleset, state (tracked, to be changed), stored parts, version and
    the end of its history, as the service's ``_writable`` and ``read_head`` give them;
    None at another schema, for no such campaign or one not stored as parts."""
    from lazaretto.core.registry import get_ruleset
    from lazaretto.service.placing import Head
    from lazaretto.service.state_layout import layout

    row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    if row is None or row[0] != head_revision():
        return None
    found = conn.execute(
        "SELECT version, ruleset FROM campaigns WHERE id = ?", (campaign,)
    ).fetchone()
    if found is None:
        return None
    version, ruleset = int(found[0]), str(found[1])
    written: Written = {}
    for f, k, body in conn.execute(_PARTS, (campaign,)):
        written.setdefault(f, {})[k] = body
    if GLOBAL not in written:
        return None
    top = conn.execute(_HEAD[0], (campaign,)).fetchone()
    last = conn.execute(_HEAD[1], (campaign,)).fetchone()
    head = Head(
        int(top[0] or 0) + 1 if top else 1,
        None if last is None else (datetime.fromisoformat(last[0]), int(last[1])),
    )
    rs = get_ruleset(ruleset)
    lay = layout(rs.state_model)
    with gc_paused():
        state = lay.assemble(written)
    lay.track(state)
    return rs, state, written, version, head
