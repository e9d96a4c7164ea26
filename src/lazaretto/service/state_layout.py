"""The state's parts as values: which fields of a state model are split into one row
per entity, what a change writes, and how parts make a state again.

What :mod:`lazaretto.service.state_store` stores with SQLAlchemy and
:mod:`lazaretto.cli.fastwrite` with the standard library's ``sqlite3`` (issue 17): both
write the rows :func:`part_rows` gives for :meth:`Layout.changes`, so only the
execution of the SQL differs. Imports no database library. How and why the state is
split is told in ``state_store``'s docstring.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import BaseModel, TypeAdapter

from lazaretto.core.state import CampaignState

GLOBAL = ""
"""The field name of the row that holds everything not split into entities."""

TOMBSTONES_KEPT = 500
"""Versions a tombstone is kept for: a reader that cached a state fewer versions ago
catches up from the rows written since; an older one reads the whole state."""

Written = dict[str, dict[str, str]]
"""The stored JSON of each part, by field and key (the global part under ``""``)."""

Change = dict[tuple[str, str], tuple[str | None, bool]]
"""Parts to write: (field, key) -> (JSON or None for a tombstone, whether the entry is
placed anew at the end of its mapping's order). Placed parts come in their order."""

Rows = Iterable[tuple[str, str, str | None, int]]
"""Parts as read: field, key, body (None: a tombstone) and order."""

ORDER_SCALE = 1_000_000
"""Entries one change may add to one mapping at most (a part's order is
``version * ORDER_SCALE + position``)."""


class Tracked(dict[str, Any]):
    """A state mapping that notes which entries a change may have modified.

    Looking an entry up counts (the caller may modify the value it got); iterating
    over values or items counts for all. Keys alone, ``in`` and ``len`` do not.
    Copies are plain dicts.
    """

    __slots__ = ("everything", "removed", "touched")

    def __init__(self, data: dict[str, Any]) -> None:
        super().__init__(data)
        self.touched: set[str] = set()
        self.removed: set[str] = set()  # taken out: if set again, it goes to the end
        self.everything = False

    def forget(self) -> None:
        """The marks are stored: start noting afresh."""
        self.touched, self.removed, self.everything = set(), set(), False

    def __getitem__(self, key: str) -> Any:
        self.touched.add(key)
        return dict.__getitem__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        self.touched.add(key)
        return dict.get(self, key, default)

    def __setitem__(self, key: str, value: Any) -> None:
        self.touched.add(key)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: str) -> None:
        self.touched.add(key)
        self.removed.add(key)
        dict.__delitem__(self, key)

    def pop(self, key: str, *default: Any) -> Any:
        self.touched.add(key)
        self.removed.add(key)
        return dict.pop(self, key, *default)

    def setdefault(self, key: str, default: Any = None) -> Any:
        self.touched.add(key)
        return dict.setdefault(self, key, default)

    def __iter__(self) -> Iterator[str]:
        # overridden so that dict(...) and {**...} go through __getitem__ (and count)
        return dict.__iter__(self)

    def values(self) -> Any:
        self.everything = True
        return dict.values(self)

    def items(self) -> Any:
        self.everything = True
        return dict.items(self)

    def popitem(self) -> tuple[str, Any]:
        self.everything = True
        return dict.popitem(self)

    def clear(self) -> None:
        self.everything = True
        dict.clear(self)

    def update(self, *args: Any, **kwargs: Any) -> None:
        self.everything = True
        dict.update(self, *args, **kwargs)

    def copy(self) -> dict[str, Any]:
        self.everything = True
        return dict(dict.items(self))

    def __reduce__(self) -> Any:  # copy.copy / deepcopy / pickle: a plain dict
        self.everything = True
        return (dict, (dict(dict.items(self)),))


@dataclass(frozen=True)
class Layout:
    """Which fields of a state model are split into entities, and how an entry of
    each is read and written."""

    model: type[CampaignState]
    split: tuple[str, ...]
    adapters: dict[str, TypeAdapter[Any]]

    def dump(self, field: str, value: Any) -> str:
        if isinstance(value, BaseModel):
            return value.model_dump_json()
        return self.adapters[field].dump_json(value).decode()

    def parse(self, field: str, body: str) -> Any:
        return self.adapters[field].validate_json(body)

    def globals_json(self, state: CampaignState) -> str:
        return state.model_dump_json(exclude=set(self.split))

    # --- whole states ------------------------------------------------------------
    def split_state(self, state: CampaignState) -> Written:
        """Every part of ``state``."""
        out: Written = {GLOBAL: {GLOBAL: self.globals_json(state)}}
        for f in self.split:
            mapping: dict[str, Any] = getattr(state, f)
            out[f] = {k: self.dump(f, v) for k, v in dict.items(mapping)}
        return out

    def assemble(self, written: Written) -> CampaignState:
        """The state the parts make, parsed as one document (the fast way)."""
        return self.model.model_validate_json(document(self.split, written))

    # --- changes -----------------------------------------------------------------
    def track(self, state: CampaignState) -> None:
        """Wrap ``state``'s mappings so that what a change touches is noted."""
        for f in self.split:
            mapping = state.__dict__[f]
            if type(mapping) is not Tracked:
                state.__dict__[f] = Tracked(mapping)

    def changes(self, state: CampaignState, written: Written) -> Change:
        """What differs between ``state`` and the stored parts ``written`` — looking
        only at what the tracked mappings say was touched — and forget the marks.
        ``written`` is brought up to date, in order (the caller stores the change or
        drops ``written``)."""
        out: Change = {}
        g = self.globals_json(state)
        if written[GLOBAL].get(GLOBAL) != g:
            out[(GLOBAL, GLOBAL)] = (g, False)
            written[GLOBAL][GLOBAL] = g
        for f in self.split:
            mapping = state.__dict__[f]
            stored = written.setdefault(f, {})
            if type(mapping) is Tracked and not mapping.everything:
                keys: Iterable[str] = mapping.touched
                placed = _placed_tracked(mapping, stored)
            else:  # iterated, or a new mapping altogether: compare all of it
                keys = set(dict.keys(mapping)) | set(stored)
                placed = _placed_by_order(list(dict.keys(mapping)), stored)
            for k in keys:
                if k in placed:
                    continue
                if dict.__contains__(mapping, k):
                    body = self.dump(f, dict.__getitem__(mapping, k))
                    if stored.get(k) != body:
                        out[(f, k)] = (body, False)
                        stored[k] = body
                elif k in stored:
                    del stored[k]
                    out[(f, k)] = (None, False)
            for k in placed:  # in the mapping's order, at the end of it
                body = self.dump(f, dict.__getitem__(mapping, k))
                stored.pop(k, None)
                stored[k] = body
                out[(f, k)] = (body, True)
            if type(mapping) is Tracked:
                mapping.forget()
            else:
                state.__dict__[f] = Tracked(mapping)
        return out

    def apply_in_place(self, state: CampaignState, written: Written, version: int,
                       rows: Rows) -> None:
        """Bring a writer's own ``state`` (stored at ``version``) and its ``written`` up
        to date with the parts ``rows`` another process wrote since (nothing is marked
        as touched)."""
        for f, k, body, order in sorted(rows, key=lambda r: r[3]):
            stored = written.setdefault(f, {})
            if f == GLOBAL:
                assert body is not None
                top = self.model.model_validate_json(body)
                for name in self.model.model_fields:
                    if name not in self.split:
                        state.__dict__[name] = top.__dict__[name]
                stored[GLOBAL] = body
                continue
            mapping = state.__dict__[f]
            if body is None or order // ORDER_SCALE > version:  # gone, or placed anew
                dict.pop(mapping, k, None)
                stored.pop(k, None)
            if body is not None:
                dict.__setitem__(mapping, k, self.parse(f, body))
                stored[k] = body
        state._index = None  # the timers' index is built again on first use

    def apply(self, old: CampaignState, version: int, rows: Rows) -> CampaignState:
        """A new state: ``old`` (stored at ``version``) with the parts ``rows`` written
        since. Unchanged entries are shared with ``old``, which is left as it was."""
        by_field: dict[str, list[tuple[str, str | None, int]]] = {}
        for f, k, body, order in sorted(rows, key=lambda r: r[3]):
            by_field.setdefault(f, []).append((k, body, order))
        top = next((body for _, body, _ in by_field.pop(GLOBAL, [])), None)
        new = old.model_copy() if top is None else self.model.model_validate_json(top)
        for f in self.split:
            if f not in by_field:
                if top is not None:  # the global part was parsed anew: keep the entries
                    new.__dict__[f] = old.__dict__[f]
                continue
            mapping = dict(dict.items(old.__dict__[f]))
            for k, body, order in by_field[f]:
                if body is None or order // ORDER_SCALE > version:  # gone, or placed anew
                    mapping.pop(k, None)
                if body is not None:
                    mapping[k] = self.parse(f, body)
            new.__dict__[f] = mapping
        new._index = None
        return new


def _placed_tracked(mapping: Tracked, stored: dict[str, str]) -> list[str]:
    """The entries a tracked mapping gained during the change (new, or taken out and
    set again), in their order: they are the last ones of the mapping."""
    gained = {
        k for k in mapping.touched
        if dict.__contains__(mapping, k) and (k not in stored or k in mapping.removed)
    }
    if not gained:
        return []
    tail: list[str] = []
    for k in reversed(dict.keys(mapping)):
        if len(tail) == len(gained):
            break
        tail.append(k)
    if set(tail) != gained:  # not at the end after all: place from the first of them
        return _placed_by_order(list(dict.keys(mapping)), stored, gained)
    return tail[::-1]


def _placed_by_order(keys: list[str], stored: dict[str, str],
                     gained: set[str] | None = None) -> list[str]:
    """The entries of a mapping (``keys``, in order) to place anew so that the stored
    order matches: everything from the first entry that is not where the stored order
    has it (or that was ``gained``)."""
    present = set(keys)
    surviving = [k for k in stored if k in present]
    for i, k in enumerate(keys):
        if i >= len(surviving) or surviving[i] != k or (gained and k in gained):
            return keys[i:]
    return []


@cache
def split_fields(model: type[CampaignState]) -> tuple[str, ...]:
    """The fields of a state model stored one entry per part: every ``dict[str, ...]``
    field but ``params``."""
    hints = typing.get_type_hints(model)
    return tuple(
        name
        for name in model.model_fields
        if name != "params" and typing.get_origin(hints[name]) is dict
    )


def document(split: tuple[str, ...], written: Written) -> str:
    """The JSON document of the whole state that the parts ``written`` make: the global
    part with each split field's entries put back, in their stored order."""
    inner = written[GLOBAL][GLOBAL].strip()[1:-1].strip()
    pieces = [inner] if inner else []
    for f in split:
        entries = written.get(f, {})
        body = ",".join(f"{json.dumps(k)}:{v}" for k, v in entries.items())
        pieces.append(f"{json.dumps(f)}:{{{body}}}")
    return "{" + ",".join(pieces) + "}"


@cache
def layout(model: type[CampaignState]) -> Layout:
    """The layout of a state model: its :func:`split_fields`, each read and written
    through a ``TypeAdapter`` of its entries."""
    split = split_fields(model)
    hints = typing.get_type_hints(model)
    adapters = {name: TypeAdapter(typing.get_args(hints[name])[1]) for name in split}
    return Layout(model, split, adapters)


TOMBSTONE_SWEEP = 100
"""Every this many versions a campaign's old tombstones are dropped."""


def part_rows(
    campaign: str, version: int, change: Change
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The rows of ``change`` written by ``version``: those that keep their order when
    they are already stored (an upsert that leaves ``ord``), and those placed anew at
    the end of their mapping (an upsert that sets it), in their order."""
    last = version * ORDER_SCALE + ORDER_SCALE - 1  # (a part new to the table: at the end)
    placed: list[dict[str, Any]] = []
    kept: list[dict[str, Any]] = []
    for (f, k), (body, anew) in change.items():
        row = {"campaign_id": campaign, "field": f, "key": k, "version": version,
               "body": body, "ord": version * ORDER_SCALE + len(placed) if anew else last}
        (placed if anew else kept).append(row)
    return kept, placed


def tombstone_floor(
    version: int, *, every: int = TOMBSTONE_SWEEP, kept: int = TOMBSTONES_KEPT
) -> int | None:
    """The campaign's new ``parts_floor`` when writing ``version`` sweeps tombstones
    (every ``every`` versions, keeping ``kept`` versions of them): those older than it
    are dropped; None when this version sweeps nothing."""
    if version % every != 0:
        return None
    floor = version - kept
    return floor if floor > 0 else None
