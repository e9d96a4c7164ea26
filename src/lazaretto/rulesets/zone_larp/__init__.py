"""Ruleset ``zone-larp``: rules/001 (work in progress: the declarations arrive with its issue)."""

from __future__ import annotations

from pydantic import BaseModel

from lazaretto.core.datafile import load_package_yaml
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.state import CampaignState


class _NoParams(BaseModel):
    """No parameters yet."""


RULESET = Ruleset(
    id="zone-larp",
    title_en="Zone LARP: hits, traumas, rehabilitation",
    title_ru="Зона-ролевая: хиты, травмы, реабилитация",
    documents=("001",),
    state_model=CampaignState,
    params=load_package_yaml(__name__, "params.yaml", _NoParams),
)
