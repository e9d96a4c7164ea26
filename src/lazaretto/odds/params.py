"""A ruleset's parameters for an odds question: the defaults, or a campaign's overrides.

The odds of a roll depend on the ruleset's parameters (which naturals are criticals, the
thresholds, the sleep dice...); ``overrides`` are validated exactly as a campaign's
``--param NAME=VALUE`` are, so the odds match a campaign that uses the same overrides.
Each ruleset is imported lazily, on first use, and only the one asked for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

if TYPE_CHECKING:
    from lazaretto.core.ruleset import Ruleset
    from lazaretto.rulesets.dnd5e_injuries.params import DndParams
    from lazaretto.rulesets.fantasy_server.params import FantasyParams
    from lazaretto.rulesets.ide4_survival.params import IdeParams

P = TypeVar("P", bound=BaseModel)
Overrides = Mapping[str, Any] | None


def _params(ruleset: Ruleset, model: type[P], overrides: Overrides) -> P:
    # No overrides: the defaults, validated when the ruleset was built.
    params = ruleset.campaign_params(dict(overrides)) if overrides else ruleset.params
    assert isinstance(params, model), (ruleset.id, type(params))
    return params


def fantasy(overrides: Overrides = None) -> FantasyParams:
    """The fantasy-server parameters (checks, crime, torture).

    Raises:
        InvalidInput: an override names no parameter or does not validate.
    """
    from lazaretto.rulesets.fantasy_server import RULESET
    from lazaretto.rulesets.fantasy_server.params import FantasyParams

    return _params(RULESET, FantasyParams, overrides)


def ide4(overrides: Overrides = None) -> IdeParams:
    """The ide4-survival parameters (the d100 band table, sleep)."""
    from lazaretto.rulesets.ide4_survival import RULESET
    from lazaretto.rulesets.ide4_survival.params import IdeParams

    return _params(RULESET, IdeParams, overrides)


def dnd(overrides: Overrides = None) -> DndParams:
    """The dnd5e-injuries parameters (combat caution, severity thresholds)."""
    from lazaretto.rulesets.dnd5e_injuries import RULESET
    from lazaretto.rulesets.dnd5e_injuries.params import DndParams

    return _params(RULESET, DndParams, overrides)
