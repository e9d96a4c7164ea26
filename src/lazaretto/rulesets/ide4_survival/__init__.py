"""Ruleset ``ide4-survival``: the IDE4 survival chapter (rules/004) — the game day, the
condition table, meals and meal rerolls, poisoning, sleep 3d10, calm points and stress,
the disease catalogue and immunity, travel and load, recovery, the hot reroll.

Modules: :mod:`.day` (the guided game day), :mod:`.meals`, :mod:`.water`,
:mod:`.poison`, :mod:`.sleep`, :mod:`.experience`, :mod:`.calm`, :mod:`.diseases`,
:mod:`.progression`, :mod:`.treatments`, :mod:`.exposure`, :mod:`.catalogue_admin`,
:mod:`.travel`, :mod:`.intimacy`, :mod:`.combat`; the core d100 check
— not part of rules/004 — is the parameterised stand-in :mod:`.d100` with its actions in
:mod:`.checks` and :mod:`.rerolls`. Data files: ``params.yaml`` (every number and
ambiguity default of checklist-004), ``conditions.yaml`` (the state table),
``diseases.yaml`` (the catalogue).
"""

from __future__ import annotations

from typing import cast

from lazaretto.core.datafile import load_package_yaml
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.rulesets.ide4_survival import (
    calm,
    catalogue_admin,
    checks,
    combat,
    day,
    diseases,
    experience,
    exposure,
    intimacy,
    meals,
    poison,
    progression,  # noqa: F401 - importing it declares what its checks do
    queries,
    sleep,
    travel,
    treatments,
    visibility,
    water,
)
from lazaretto.rulesets.ide4_survival.describe import describe
from lazaretto.rulesets.ide4_survival.params import IdeParams
from lazaretto.rulesets.ide4_survival.state import REDUCERS, Ide4State
from lazaretto.rulesets.ide4_survival.tables import catalogue, condition_table
from lazaretto.rulesets.ide4_survival.texts import texts


def load_params() -> IdeParams:
    """The bundled default parameters (validated)."""
    return load_package_yaml(__name__, "params.yaml", IdeParams)


def _build() -> Ruleset:
    condition_table()  # fail fast on a broken data file
    catalogue()
    rs = Ruleset(
        id="ide4-survival",
        title_en="IDE4 survival: the game day, meals, sleep, calm, diseases",
        title_ru="IDE4: игровой день, еда, сон, спокойствие, болезни",
        documents=("004",),
        state_model=cast(type[CampaignState], Ide4State),
        params=load_params(),
        reducers=REDUCERS,
        texts=texts(),
    )
    modules = (
        (checks, day, meals, water, poison, sleep, calm, diseases, treatments),
        (exposure, travel, intimacy, combat, queries, experience, catalogue_admin),
    )
    rs.declare_later(*(module.register for group in modules for module in group))
    rs.describe = lambda state, char_id, lang: describe(
        state, char_id, lang, rs.campaign_params(state.params)
    )
    rs.redact = visibility.redact
    return rs


RULESET = _build()
