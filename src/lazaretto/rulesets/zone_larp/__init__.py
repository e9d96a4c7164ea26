"""Ruleset ``zone-larp``: hits, health states, wounds and the Hospital of a combat LARP
(rules/001, checklist-001).

Hit loss by weapon, light and heavy wounds with their countdowns, a healer's treatment
and operations, traumas, the Hospital ("мертвяк") with the stay computed from six body
zones, infections and implants, clinical death and exclusion. Parameters and the
ambiguity defaults, with the text's other readings beside them: ``params.yaml``.
"""

from __future__ import annotations

from typing import cast

from lazaretto.core.datafile import load_package_yaml
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.rulesets.zone_larp import (
    combat,
    conduct,
    hospital,
    infections,
    queries,
    sheet_reducers,
    traumas,
    treatment,
    wounds,
)
from lazaretto.rulesets.zone_larp.describe import describe
from lazaretto.rulesets.zone_larp.params import ZoneParams
from lazaretto.rulesets.zone_larp.state import REDUCERS, ZoneLarpState
from lazaretto.rulesets.zone_larp.texts import TEXTS

__all__ = ["RULESET", "load_params", "sheet_reducers"]  # sheet_reducers registers reducers


def load_params() -> ZoneParams:
    """The bundled default parameters (validated)."""
    return load_package_yaml(__name__, "params.yaml", ZoneParams)


def _build() -> Ruleset:
    rs = Ruleset(
        id="zone-larp",
        title_en="Zone LARP: hits, traumas, rehabilitation",
        title_ru="Зона-ролевая: хиты, травмы, реабилитация",
        documents=("001",),
        state_model=cast(type[CampaignState], ZoneLarpState),
        params=load_params(),
        reducers=REDUCERS,
        texts=TEXTS,
    )
    rs.declare_later(
        wounds.register_timers,
        combat.register,
        treatment.register,
        traumas.register,
        hospital.register,
        infections.register,
        conduct.register,
        queries.register,
    )
    rs.describe = lambda state, char_id, lang: describe(
        state, char_id, lang, rs.campaign_params(state.params)
    )
    rs.new_character_hits = _base_hits
    return rs


def _base_hits(p: object) -> int:
    """A new character has the campaign's base hits (A-Z-03), as ``issue-charsheet``."""
    return cast(ZoneParams, p).base_hits


RULESET = _build()
