"""Ruleset ``ide4-survival``: rules/004 (its declarations arrive with its issue)."""

from __future__ import annotations

from pydantic import BaseModel

from lazaretto.core.datafile import load_package_yaml
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.state import CampaignState


class _NoParams(BaseModel):
    """No parameters yet."""


RULESET = Ruleset(
    id="ide4-survival",
    title_en="IDE4 survival: the game day, meals, sleep, diseases",
    title_ru="IDE4: игровой день, еда, сон, болезни",
    documents=("004",),
    state_model=CampaignState,
    params=load_package_yaml(__name__, "params.yaml", _NoParams),
)
