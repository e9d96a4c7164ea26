"""Ruleset ``dnd5e-injuries``: rules/003 (work in progress: the declarations arrive with its issue)."""

from __future__ import annotations

from pydantic import BaseModel

from lazaretto.core.datafile import load_package_yaml
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.state import CampaignState


class _NoParams(BaseModel):
    """No parameters yet."""


RULESET = Ruleset(
    id="dnd5e-injuries",
    title_en="D&D 5e lingering injuries",
    title_ru="D&D 5e: длительные травмы",
    documents=("003",),
    state_model=CampaignState,
    params=load_package_yaml(__name__, "params.yaml", _NoParams),
)
