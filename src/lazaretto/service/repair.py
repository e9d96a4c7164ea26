"""Rebuilding a campaign's stored state from its event log (``lazaretto repair``).

The event log is the source (DESIGN.md, principle 2): the stored state is only its fold,
kept so a change need not replay the whole log. When the stored state is damaged (it no
longer parses, or it differs from the fold of the log), the campaign is listed as
damaged (``service/stored.py``) instead of breaking every list it is in, and :func:`repair`
replays the log with :func:`lazaretto.core.engine.replay`, says what differed, and stores
the rebuilt state with a version bump, so every process (and its cached copy) notices.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from sqlalchemy import func, select

from lazaretto.core import engine
from lazaretto.core.errors import CampaignDamaged, Conflict, NotFound
from lazaretto.core.registry import get_ruleset
from lazaretto.core.state import CampaignState
from lazaretto.service import state_store
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.event_log import next_due_wall
from lazaretto.service.stored import (  # how a damaged campaign is listed, as before
    DamagedCampaign,
    cause_of,
    damaged,
    damaged_text,
    problem_of,
    read_state,
)
from lazaretto.store.models import CampaignRow, EventRow

__all__ = [
    "SHOWN", "DamagedCampaign", "Repair", "damaged", "damaged_text", "differ", "problem_of",
    "repair",
]

SHOWN = 8
"""At most this many differing keys are named per field."""


@dataclass(frozen=True)
class Repair:
    """What :func:`repair` found and did."""

    campaign: str
    problem: str
    """Why the stored state could not be read ("" if it could)."""
    differences: list[str]
    """What the stored state had otherwise than the log's fold (field: keys)."""
    events: int
    stored: bool
    """Whether the rebuilt state was written."""
    version: int
    """The campaign's version afterwards."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "campaign": self.campaign,
            "problem": self.problem,
            "differences": self.differences,
            "events": self.events,
            "stored": self.stored,
            "version": self.version,
        }


def repair(svc: CampaignService, name: str, *, write: bool = True) -> Repair:
    """Rebuild ``name``'s state from its event log; store it if it differs (``write``).

    The log is read first, then the campaign's row is locked and the log checked to be
    unchanged (a change recorded in between: :class:`Conflict`, run it again).
    """
    events = svc.events(name)
    last = events[-1].seq if events else 0
    with svc.db.write_lock, svc.db.transaction() as s:
        row = s.get(CampaignRow, name, with_for_update=True)
        if row is None:
            raise NotFound(f"No campaign {name!r}", ru=f"Нет кампании {name!r}")
        newest = s.scalar(select(func.max(EventRow.seq)).where(EventRow.campaign_id == name))
        if (newest or 0) != last:
            raise Conflict(
                f"Campaign {name!r} changed while it was being rebuilt; run repair again",
                ru=f"Кампания {name!r} изменилась во время восстановления; повторите",
            )
        rs = get_ruleset(row.ruleset)
        rebuilt = engine.replay(rs, events)
        problem, differences = "", []
        try:
            _, stored, _ = read_state(s, row)
        except CampaignDamaged as exc:  # garbage, or a wrong shape
            problem = problem_of(cause_of(exc))
        else:
            differences = differ(stored, rebuilt)
        store = write and bool(problem or differences)
        if store:
            row.version += 1  # every process's cached copy is now stale
            row.next_due_wall = next_due_wall(rebuilt)
            s.flush()
            state_store.write_whole(s, name, row.version, rebuilt)
        version = row.version
    return Repair(name, problem, differences, len(events), store, version)


def differ(stored: CampaignState, rebuilt: CampaignState) -> list[str]:
    """The fields where ``stored`` differs from ``rebuilt``; for mappings, which keys."""
    out = []
    for field in type(rebuilt).model_fields:
        a, b = getattr(stored, field, None), getattr(rebuilt, field, None)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            keys = sorted(str(k) for k in a.keys() | b.keys() if a.get(k) != b.get(k))
            more = f" (+{len(keys) - SHOWN})" if len(keys) > SHOWN else ""
            out.append(f"{field}: {', '.join(keys[:SHOWN])}{more}")
        elif isinstance(a, BaseModel | list) or isinstance(b, BaseModel | list):
            out.append(field)
        else:
            out.append(f"{field}: {a!r} -> {b!r}")
    return out
