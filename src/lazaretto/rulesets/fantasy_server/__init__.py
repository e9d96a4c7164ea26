"""Ruleset ``fantasy-server``: rules/002 (its declarations arrive with its issue)."""

from __future__ import annotations

from pydantic import BaseModel

from lazaretto.core.datafile import load_package_yaml
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.state import CampaignState


class _NoParams(BaseModel):
    """No parameters yet."""


RULESET = Ruleset(
    id="fantasy-server",
    title_en="Fantasy role-play server: items, crime, healing",
    title_ru="Фэнтези-сервер: предметы, преступления, лечение",
    documents=("002",),
    state_model=CampaignState,
    params=load_package_yaml(__name__, "params.yaml", _NoParams),
)
