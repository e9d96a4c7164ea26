"""Reading a campaign's history: its records, the corrections late records and undos
made, the event log, the hospital journal as a book, and news for live pages."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from sqlalchemy import Row, func, select

from lazaretto.core import engine
from lazaretto.core.events import Event, named_in
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.core.visibility import Viewer, maker
from lazaretto.service import history_store
from lazaretto.service.event_log import event_of
from lazaretto.store.db import Database
from lazaretto.store.models import CampaignRow, CorrectionRow, EventRow, EventSubjectRow

MASTER = Viewer(Role.MASTER)
"""Whose terms the campaign's own reads speak in (the CLI, the master's pages)."""


class HistoryReads:
    """The reading half of :class:`~lazaretto.service.campaigns.CampaignService`."""

    db: Database
    _corrections_seen: dict[str, int]
    _head: Callable[[str], Row[tuple[int, str]]]
    load: Callable[..., tuple[Ruleset, CampaignState, int]]

    def records(self, campaign: str, after: int = 0, limit: int = 1000) -> list[dict[str, Any]]:
        """The campaign's records in arrival order, with what the history made of
        each (ok, refused on re-run with the reason, or undone by a later record)."""
        self._head(campaign)
        with self.db.transaction(readonly=True) as s:
            rows = history_store.records(s, campaign, after, limit)
            undone = history_store.voided(s, campaign)
        return [
            {
                "record": r.no,
                "kind": r.kind,
                "action": r.action,
                "input": r.input,
                "at": r.at,
                "wall": r.wall,
                "actor": r.actor,
                "role": r.role,
                "status": "undone" if r.no in undone else r.status,
                "undone_by": undone[r.no].no if r.no in undone else None,
                "voids": r.voids,
                "reason": r.reason,
                "refusal": r.refusal,
            }
            for r in rows
        ]

    def corrections(self, campaign: str, about: str | None = None) -> list[dict[str, Any]]:
        """What late records and undos changed of what had been shown, oldest first:
        each with the event undone or now happened and the record that caused it."""
        self._head(campaign)
        with self.db.transaction(readonly=True) as s:
            rows = history_store.corrections(s, campaign, about)
            causes = {r.cause for r in rows}
            by_no = {no: history_store.get_record(s, campaign, no) for no in causes}
        out = []
        for r in rows:
            cause = by_no.get(r.cause)
            out.append(
                {
                    "id": r.id,
                    "change": r.change,
                    "event": r.event,
                    "wall": r.wall,
                    "subjects": r.subjects,
                    "cause": {
                        "record": r.cause,
                        "kind": cause.kind if cause else "",
                        "action": cause.action if cause else "",
                        "actor": cause.actor if cause else "",
                        "role": cause.role if cause else "",
                        "user": cause.user_id if cause else None,
                        "by": maker(MASTER, cause.role, cause.actor, True) if cause else "",
                        "at": cause.at if cause else "",
                        "wall": cause.wall if cause else "",
                        "voids": cause.voids if cause else None,
                    },
                }
            )
        return out

    def events(
        self,
        campaign: str,
        kinds: tuple[str, ...] = (),
        *,
        after: int = 0,
        limit: int | None = None,
        about: str | None = None,
        latest: bool = False,
    ) -> list[Event]:
        """The campaign's event log (optionally only some kinds), in order: the events
        after seq ``after``, at most ``limit`` of them (a page of a long log) — the
        last ``limit`` if ``latest`` — and only those naming ``about`` if given (see
        :func:`~lazaretto.core.events.named_in`; read through the subject index)."""
        self._head(campaign)  # NotFound for no such campaign
        q = select(EventRow).where(EventRow.campaign_id == campaign, EventRow.seq > after)
        if kinds:
            q = q.where(EventRow.kind.in_(kinds))
        if about is not None:
            q = q.where(
                EventRow.seq.in_(
                    select(EventSubjectRow.seq).where(
                        EventSubjectRow.campaign_id == campaign, EventSubjectRow.subject == about
                    )
                )
            )
        q = q.order_by(EventRow.seq.desc() if latest else EventRow.seq)
        if limit is not None:
            q = q.limit(limit)
        with self.db.transaction(readonly=True) as s:
            found = [event_of(r) for r in s.scalars(q)]
        return found[::-1] if latest else found

    def replay_matches(self, campaign: str) -> bool:
        """Whether replaying the event log rebuilds exactly the stored state."""
        rs, state, _ = self.load(campaign)
        return engine.replay(rs, self.events(campaign)) == state

    def journal(self, campaign: str, hospital: str | None = None) -> list[dict[str, Any]]:
        """Hospital journal entries (every field the rules require), in order.

        The journal is a book: an entry a late record or an undo took back stays, marked
        ``correction: "struck"`` with when and why (the record), and an entry that only
        a late record brought is marked ``correction: "added"`` — as a healer corrects
        a paper journal, never by tearing out a page."""
        _, state, _ = self.load(campaign)

        def key(ev: Event) -> str:
            return json.dumps([ev.at.isoformat(), ev.payload], sort_keys=True, default=str)

        book: list[tuple[Event, str, dict[str, Any] | None]] = [
            (ev, "", None) for ev in self.events(campaign, ("journal.entry_added",))
        ]
        added: dict[str, dict[str, Any]] = {}
        for c in self.corrections(campaign):
            if c["event"]["kind"] != "journal.entry_added":
                continue
            ev = Event.model_validate(c["event"])
            by = c["cause"] | {"wall": c["wall"]}
            if c["change"] == "undone":
                book.append((ev, "struck", by))
                added.pop(key(ev), None)
            else:
                added[key(ev)] = by
        rows = []
        for ev, mark, by in sorted(book, key=lambda entry: (entry[0].at, entry[0].seq)):
            p = ev.payload
            if hospital and p["hospital"] != hospital:
                continue
            patient = p.get("patient")
            name = p.get("name") or (
                state.characters[patient].name if patient in state.characters else None
            )
            row = {**p, "name": name, "time": ev.at.isoformat(), "rule_ids": list(ev.rule_ids)}
            if not mark and key(ev) in added:
                mark, by = "added", added[key(ev)]
            if mark:
                row["correction"], row["corrected_by"] = mark, by
            rows.append(row)
        return rows

    NEWS_LIMIT = 500

    def news(
        self, campaign: str, after_seq: int | None
    ) -> tuple[int | None, int, frozenset[str] | None]:
        """For live pages: the campaign's version (None if it is gone), the seq of its
        last event, and what the events after ``after_seq`` name (see
        :func:`~lazaretto.core.events.named_in`); None when one of them is about the
        whole campaign, when there are too many to tell, or on the first look."""
        with self.db.transaction(readonly=True) as s:
            version = s.scalar(select(CampaignRow.version).where(CampaignRow.id == campaign))
            last = s.scalar(select(func.max(EventRow.seq)).where(EventRow.campaign_id == campaign))
            if version is None or after_seq is None or last is None or last < after_seq:
                return version, last or 0, None  # (a re-run may leave fewer events)
            # what late records and undos corrected since the last look: their cards too
            seen = self._corrections_seen.get(campaign, 0)
            corrected = list(
                s.execute(
                    select(CorrectionRow.id, CorrectionRow.subjects)
                    .where(CorrectionRow.campaign_id == campaign, CorrectionRow.id > seen)
                    .order_by(CorrectionRow.id)
                )
            )
            rows = list(
                s.execute(
                    select(EventRow.payload)
                    .where(EventRow.campaign_id == campaign, EventRow.seq > after_seq)
                    .order_by(EventRow.seq)
                    .limit(self.NEWS_LIMIT + 1)
                )
            )
        if corrected:
            self._corrections_seen[campaign] = corrected[-1].id
        if len(rows) > self.NEWS_LIMIT:
            return version, last, None
        named: set[str] = {n for row in corrected for n in row.subjects}
        for (payload,) in rows:
            these = named_in(payload)
            if these is None:
                return version, last, None
            named |= these
        return version, last, frozenset(named)
