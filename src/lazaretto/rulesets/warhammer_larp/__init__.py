"""Ruleset ``warhammer-larp``: the medicine rules of a Warhammer-like mass LARP (rules/000).

Part 1: wounds and bandaging with real-time countdowns, light and heavy wound treatment,
field medicine, hospitals and the hospital journal (checklist-000 §1–§3). Part 2:
diseases as tracked stickers, infection and protection, outbreaks, epidemics, disease
treatment and study, laboratories (ЛСБ), looting and printed sticker sheets (§4–§6 and
the looting fragment). Parameters and ambiguity defaults: ``params.yaml``.
"""

from __future__ import annotations

from typing import cast

from lazaretto.core.datafile import load_package_yaml
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.rulesets.warhammer_larp import (
    books,
    certificates,
    courses,
    disease_treatment,
    diseases,
    epidemics,
    hospitals,
    infection,
    journal,
    labs,
    looting,
    outbreaks,
    printing,
    protection,
    stickers,
    study,
    treatment,
    wounds,
)
from lazaretto.rulesets.warhammer_larp.describe import TEXTS, describe
from lazaretto.rulesets.warhammer_larp.params import WarhammerParams
from lazaretto.rulesets.warhammer_larp.state import REDUCERS, WarhammerState
from lazaretto.rulesets.warhammer_larp.values import VALUE_TEXTS


def load_params() -> WarhammerParams:
    """The bundled default parameters (validated)."""
    return load_package_yaml(__name__, "params.yaml", WarhammerParams)


def _build() -> Ruleset:
    rs = Ruleset(
        id="warhammer-larp",
        title_en="Warhammer LARP: wounds, hospitals, diseases",
        title_ru="Warhammer-ролевая: ранения, госпитали, болезни",
        documents=("000",),
        state_model=cast(type[CampaignState], WarhammerState),
        params=load_params(),
        reducers=REDUCERS,
        texts={**TEXTS, **books.TEXTS, **VALUE_TEXTS},
    )
    rs.declare_later(
        wounds.register,
        wounds.register_queries,
        treatment.register,
        hospitals.register,
        diseases.register,
        stickers.register,
        protection.register,
        infection.register,
        outbreaks.register,
        epidemics.register,
        disease_treatment.register,
        courses.register,
        study.register,
        labs.register,
        certificates.register,
        looting.register,
        printing.register,
    )
    rs.kept_after_undo = journal.kept_after_undo
    rs.describe = lambda state, char_id, lang: describe(
        state, char_id, lang, rs.campaign_params(state.params)
    )
    return rs


RULESET = _build()
