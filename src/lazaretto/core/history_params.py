"""The history's settings: how far back a record may be placed, how long one may be
taken back, how often the state is kept.

A campaign overrides them like a ruleset's own parameters, so the ruleset protocol
(which validates a campaign's overrides, :meth:`lazaretto.core.ruleset.Ruleset.campaign_params`)
and the history (:mod:`lazaretto.core.history`, which runs the records) both read them:
they live here, below both.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class HistoryParams(BaseModel):
    """The history's settings, overridable per campaign like a ruleset's parameters.

    Attributes:
        late_record_minutes: how far back in campaign time a healer or a player may
            place a record (a phone that was offline); masters and manual-clock
            campaigns have no limit.
        undo_minutes: how long (wall time) the one who made a record may take it back;
            a master may at any time.
        checkpoint_every: records between two stored checkpoints.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    late_record_minutes: int = Field(default=120, ge=0, le=100_000)
    undo_minutes: int = Field(default=10, ge=0, le=100_000)
    checkpoint_every: int = Field(default=100, ge=1, le=100_000)

    @property
    def late_window(self) -> timedelta:
        return timedelta(minutes=self.late_record_minutes)

    @property
    def undo_window(self) -> timedelta:
        return timedelta(minutes=self.undo_minutes)


HISTORY_PARAMS = frozenset(HistoryParams.model_fields)


def history_params(overrides: dict[str, Any]) -> HistoryParams:
    """The history settings of a campaign with these parameter overrides."""
    return HistoryParams.model_validate({k: v for k, v in overrides.items() if k in HISTORY_PARAMS})
