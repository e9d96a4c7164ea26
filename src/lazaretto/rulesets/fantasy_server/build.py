"""Assemble the fantasy-server ruleset from its modules."""

from __future__ import annotations

from typing import cast

from lazaretto.core.datafile import load_package_yaml
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.rulesets.fantasy_server import (
    addiction,
    artifacts,
    breakage,
    combat,
    crafting,
    crime,
    damage,
    evidence,
    general,
    healing,
    lockpicking,
    stealth,
    torture,
    trauma_care,
    withdrawal,
)
from lazaretto.rulesets.fantasy_server.describe import describe
from lazaretto.rulesets.fantasy_server.params import FantasyParams
from lazaretto.rulesets.fantasy_server.reducers import REDUCERS
from lazaretto.rulesets.fantasy_server.state import FantasyState
from lazaretto.rulesets.fantasy_server.tables import mutations, traumas
from lazaretto.rulesets.fantasy_server.texts import TEXTS

PACKAGE = "lazaretto.rulesets.fantasy_server"


def load_params() -> FantasyParams:
    """The bundled default parameters (validated)."""
    return load_package_yaml(PACKAGE, "params.yaml", FantasyParams)


def build() -> Ruleset:
    """The fantasy-server ruleset with every action, query, timer and text."""
    traumas()  # validate the tables at start-up (fail fast naming the file)
    mutations()
    rs = Ruleset(
        id="fantasy-server",
        title_en="Fantasy role-play server: items, crime, healing",
        title_ru="Фэнтези-сервер: предметы, преступления, лечение",
        documents=("002",),
        state_model=cast(type[CampaignState], FantasyState),
        params=load_params(),
        reducers=REDUCERS,
        texts=TEXTS,
    )
    modules = (
        (general, combat, crafting, artifacts, breakage, damage, crime, evidence),
        (lockpicking, stealth, torture, trauma_care, healing, addiction, withdrawal),
    )
    rs.declare_later(*(m.register for group in modules for m in group))
    rs.describe = lambda state, char_id, lang: describe(
        state, char_id, lang, rs.campaign_params(state.params)
    )
    return rs
