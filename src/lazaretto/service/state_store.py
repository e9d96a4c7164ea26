"""How a campaign's state is stored: one row per entity, written when it changes.

A big LARP keeps 3,000 characters in one campaign; a wound touches one of them. So
the state is not one JSON document rewritten on every change but *parts*
(table ``state_parts``): every entry of every mapping field of the state model
(characters, timers, hospitals, stickers, ...; all but ``params``) is a row of its own,
keyed by (field, key), and what is left (clock, counters, lists, parameters) is one
small row with field ``""``. Each row carries the campaign version that wrote it:

* a **change** writes the parts it touched. The writer's working state wraps its
  mappings in :class:`Tracked` dicts that note which keys were looked up or set;
  those entries (and any entry of a mapping that was iterated over its values) are
  serialised and compared with what is stored, and only differing ones are written.
  An entry that went away is written as a tombstone (``body`` NULL).
* a **reader** that holds the state of an earlier version reads only the rows written
  since (an index on version) and makes a new state object that shares every
  unchanged entry with the old one (copy on write: readers never modify a state).
* a reader with nothing cached, or one older than the oldest tombstone kept
  (``campaigns.parts_floor``), reads every live row and parses them as one document.

Order is kept: a mapping's entries keep the order they were added in (rules that look
for "the first free bed" see the same order live, after a restart and on replay). A
part's ``ord`` is ``version * ORDER_SCALE + position`` of the version that added it;
an entry added again (after it was taken out) gets a new one, and a reader moves an
entry added after its own version to the end, in ``ord`` order.

The history's checkpoints (``core/history.py``) keep whole states; they are written
once every ``checkpoint_every`` records, not on every change.

What the rows are (the layout, :class:`Tracked`, what a change writes) is pure and
lives in :mod:`lazaretto.service.state_layout`, shared with the CLI's SQLite write
path (``cli/fastwrite.py``); this module executes it with SQLAlchemy, on SQLite and
PostgreSQL alike.
"""

from __future__ import annotations

from sqlalchemy import delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from lazaretto.core.state import CampaignState
from lazaretto.service.state_layout import (
    GLOBAL,
    ORDER_SCALE,
    TOMBSTONES_KEPT,
    Change,
    Layout,
    Rows,
    Tracked,
    Written,
    layout,
    part_rows,
)
from lazaretto.store.models import CampaignRow, StatePartRow

__all__ = [
    "GLOBAL", "ORDER_SCALE", "TOMBSTONES_KEPT", "Change", "Layout", "Rows", "Tracked",
    "Written", "drop_tombstones", "layout", "read_all", "read_since", "write", "write_whole",
]


def read_all(s: Session, campaign: str) -> Written:
    """Every live part of ``campaign``, in order (empty if it has none)."""
    out: Written = {}
    rows = s.execute(
        select(StatePartRow.field, StatePartRow.key, StatePartRow.body)
        .where(StatePartRow.campaign_id == campaign, StatePartRow.body.is_not(None))
        .order_by(StatePartRow.ord)
    )
    for f, k, body in rows:
        if body is not None:
            out.setdefault(f, {})[k] = body
    return out


def read_since(s: Session, campaign: str, version: int) -> list[tuple[str, str, str | None, int]]:
    """The parts written after ``version`` (tombstones too), in order."""
    rows = s.execute(
        select(StatePartRow.field, StatePartRow.key, StatePartRow.body, StatePartRow.ord)
        .where(StatePartRow.campaign_id == campaign, StatePartRow.version > version)
        .order_by(StatePartRow.ord)
    )
    return [(f, k, body, order) for f, k, body, order in rows]


def write(s: Session, campaign: str, version: int, change: Change) -> None:
    """Store ``change`` as written by ``version`` (an upsert per part); placed parts
    get their order from ``version``, the others keep theirs."""
    if not change:
        return
    dialect = s.get_bind().dialect.name
    ins = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(StatePartRow)
    kept, placed = part_rows(campaign, version, change)
    for rows, keep_order in ((kept, True), (placed, False)):
        if not rows:
            continue
        new = {"version": ins.excluded.version, "body": ins.excluded.body}
        if not keep_order:
            new["ord"] = ins.excluded.ord
        s.execute(
            ins.on_conflict_do_update(
                index_elements=["campaign_id", "field", "key"], set_=new
            ),
            rows,
        )


def write_whole(s: Session, campaign: str, version: int, state: CampaignState) -> Written:
    """Store all of ``state`` (a new campaign, a repair): parts it no longer has
    become tombstones. Returns what is now stored."""
    lay = layout(type(state))
    stored = read_all(s, campaign)
    stored.setdefault(GLOBAL, {})
    whole = state.model_copy()
    for f in lay.split:  # plain mappings: every entry and the order are compared
        whole.__dict__[f] = dict(dict.items(state.__dict__[f]))
    write(s, campaign, version, lay.changes(whole, stored))
    return stored


def drop_tombstones(s: Session, campaign: str, floor: int) -> None:
    """Drop the tombstones written before version ``floor`` and raise the campaign's
    floor to it (``state_layout.tombstone_floor``): readers older than it read the
    whole state."""
    s.execute(
        delete(StatePartRow).where(
            StatePartRow.campaign_id == campaign,
            StatePartRow.body.is_(None),
            StatePartRow.version < floor,
        )
    )
    s.execute(update(CampaignRow).where(CampaignRow.id == campaign).values(parts_floor=floor))
