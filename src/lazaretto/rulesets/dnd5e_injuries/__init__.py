"""Ruleset ``dnd5e-injuries``: lingering injuries for D&D 5e (rules/003, checklist-003).

When a creature receives an injury (``triggers``), Dodge and Equal Exchange
(``reactions``), announcing it from the location die, combat caution and the injury
tables (``injuries``, ``caution``, ``tables.yaml``), what it does over time
(``effects``), treating it (``treatment``), injuring enemies with aimed attacks and
equipment (``enemies``), and the exact odds (``queries``). Parameters and ambiguity
defaults: ``params.yaml``; where things live on a character: ``common``.
"""

from __future__ import annotations

from typing import cast

from lazaretto.core.datafile import load_package_yaml
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.rulesets.dnd5e_injuries import (
    effects,
    enemies,
    injuries,
    queries,
    reactions,
    stats,
    treatment,
    triggers,
)
from lazaretto.rulesets.dnd5e_injuries.describe import TEXTS, describe
from lazaretto.rulesets.dnd5e_injuries.params import DndParams
from lazaretto.rulesets.dnd5e_injuries.state import REDUCERS, DndState


def load_params() -> DndParams:
    """The bundled default parameters (validated)."""
    return load_package_yaml(__name__, "params.yaml", DndParams)


def _build() -> Ruleset:
    rs = Ruleset(
        id="dnd5e-injuries",
        title_en="D&D 5e lingering injuries",
        title_ru="D&D 5e: длительные травмы",
        documents=("003",),
        state_model=cast(type[CampaignState], DndState),
        params=load_params(),
        reducers=REDUCERS,
        texts=TEXTS,
    )
    modules = (stats, triggers, reactions, injuries, effects, treatment, enemies, queries)
    rs.declare_later(*(module.register for module in modules))
    rs.describe = lambda state, char_id, lang: describe(
        state, char_id, lang, cast(DndParams, rs.campaign_params(state.params))
    )
    rs.new_character_hits = _no_hit_points
    return rs


def _no_hit_points(_: object) -> int:
    """A new creature has no hit points until its sheet's are entered (``set-dnd-stats
    --hp-max``): D&D has no common number, and 3 of 3 would trigger D-COND-02 at once."""
    return 0


RULESET = _build()
