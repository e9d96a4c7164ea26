"""A campaign's stored state read back, and a campaign whose stored state cannot be.

What the campaign service (``service/campaigns.py``) and ``lazaretto repair``
(``service/repair.py``) both need, below both of them: how the stored parts
(``service/state_store.py``) make a state again, how a campaign is listed, and how a
campaign whose stored state no longer parses is recognised and listed as damaged
instead of breaking every list it is in.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from pydantic import ValidationError
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from lazaretto.core.clock import Clock
from lazaretto.core.errors import CampaignDamaged, Conflict, NotFound
from lazaretto.core.gcpause import gc_paused
from lazaretto.core.registry import get_ruleset
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.service import state_store
from lazaretto.store.db import Database
from lazaretto.store.models import CampaignRow, EventRow


@dataclass(frozen=True)
class CampaignInfo:
    """A campaign as listed."""

    id: str
    ruleset: str
    clock: Clock
    now: datetime
    characters: int
    pending_timers: int
    events: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "ruleset": self.ruleset,
            "clock": self.clock.mode.value,
            "paused": self.clock.paused,
            "now": self.now.isoformat(),
            "characters": self.characters,
            "pending_timers": self.pending_timers,
            "events": self.events,
        }


def read_state(s: Session, row: CampaignRow) -> tuple[Ruleset, CampaignState, state_store.Written]:
    """The ruleset, the state as stored and its parts: the parts, or (a campaign whose
    state was damaged before they existed) its old document, split as parts would be.

    Raises :class:`CampaignDamaged` when the stored JSON does not parse (garbage, or a
    wrong shape); its ``__cause__`` is the parser's error (``lazaretto repair`` rebuilds
    the state).
    """
    rs = get_ruleset(row.ruleset)
    written = state_store.read_all(s, row.id)
    lay = state_store.layout(rs.state_model)
    try:
        with gc_paused():
            if state_store.GLOBAL not in written:
                state = rs.state_model.model_validate_json(row.state)
                written = lay.split_state(state)
            else:
                state = lay.assemble(written)
    except ValueError as exc:  # pydantic's ValidationError: the stored JSON is damaged
        raise CampaignDamaged(row.id, str(exc).split("\n", 1)[0]) from exc
    return rs, state, written


def damaged_text(name: str, lang: str = "en") -> str:
    """How a damaged campaign is listed, in ``lang``."""
    if lang == "ru":
        return f"повреждена: почините командой `lazaretto repair {name}`"
    return f"damaged: repair it with `lazaretto repair {name}`"


@dataclass(frozen=True)
class DamagedCampaign(CampaignInfo):
    """A campaign whose stored state cannot be read, as listed: what the row itself
    says (its ruleset, when it was created, how many events), and the problem."""

    problem: str = ""
    damaged: ClassVar[bool] = True

    def listed(self, lang: str = "en") -> str:
        """The listing line, "damaged: repair it with ...", in ``lang``."""
        return damaged_text(self.id, lang)

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "damaged": True, "repair": damaged_text(self.id)}


def problem_of(exc: BaseException) -> str:
    """One line saying why a stored state does not parse."""
    if isinstance(exc, ValidationError) and exc.errors():
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        return f"{first['msg']}" + (f" (at {where})" if where else "")
    return str(exc).split("\n", 1)[0] or type(exc).__name__


def cause_of(exc: CampaignDamaged) -> BaseException:
    """The parser's error behind ``exc`` (or ``exc`` itself if it has none)."""
    cause = exc.__cause__
    return cause if isinstance(cause, Exception) else exc


def damaged_info(db: Database, name: str, exc: BaseException) -> DamagedCampaign:
    """The listing of campaign ``name``, whose stored state does not parse (``exc``)."""
    problem = problem_of(exc)
    with db.transaction(readonly=True) as s:
        row = s.execute(
            select(CampaignRow.ruleset, CampaignRow.created_wall).where(CampaignRow.id == name)
        ).first()
        if row is None:
            raise NotFound(f"No campaign {name!r}", ru=f"Нет кампании {name!r}")
        events = s.scalar(select(func.count()).where(EventRow.campaign_id == name)) or 0
    created = datetime.fromisoformat(row.created_wall).replace(tzinfo=None, microsecond=0)
    return DamagedCampaign(name, row.ruleset, Clock(anchor=created), created, 0, 0, events, problem)


def damaged(name: str, lang: str = "en") -> Conflict:
    """The error a page of a damaged campaign answers with."""
    return Conflict(
        f"Campaign {name!r} is {damaged_text(name)}",
        ru=f"Кампания {name!r} {damaged_text(name, 'ru')}",
    )
