"""Timers: stored deadlines, not sleeping threads (DESIGN.md, principle 3).

Whoever advances the clock fires the due timers in deadline order, so the same code
serves tabletop, LARP, tests and simulations, and a restart loses nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Timer(BaseModel):
    """A pending countdown.

    Attributes:
        id: unique within the campaign.
        kind: what fires, e.g. ``"light_wound_expires"``; the ruleset handles it.
        deadline: the campaign time it fires at.
        subject: the character (or other object) it concerns.
        payload: whatever the handler needs.
        seq: creation order, to break ties between equal deadlines.
    """

    model_config = ConfigDict(frozen=True)

    id: str
    kind: str
    deadline: datetime
    subject: str = ""
    payload: dict[str, Any] = Field(default_factory=dict)
    seq: int = 0

    def sort_key(self) -> tuple[datetime, int]:
        """Order of firing: deadline, then creation order."""
        return (self.deadline, self.seq)
