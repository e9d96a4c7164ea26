"""The ruleset registry: rulesets are found through Python entry points.

A third-party package adds a ruleset by declaring an entry point in the group
``lazaretto.rulesets`` that points at a :class:`~lazaretto.core.ruleset.Ruleset`.

The bundled rulesets are also known by module (:data:`BUILTIN`), so that a command on
one campaign imports that ruleset alone and skips the scan of every installed
distribution's metadata that finding an entry point costs (a CLI call pays it on each
run, issue 17). A bundled id always means the bundled ruleset.
"""

from __future__ import annotations

import importlib
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from lazaretto.core.errors import DataFileError, NotFound
from lazaretto.core.ruleset import Ruleset, models_built_on_first_use

GROUP = "lazaretto.rulesets"

BUILTIN: dict[str, str] = {
    "warhammer-larp": "lazaretto.rulesets.warhammer_larp",
    "zone-larp": "lazaretto.rulesets.zone_larp",
    "dnd5e-injuries": "lazaretto.rulesets.dnd5e_injuries",
    "fantasy-server": "lazaretto.rulesets.fantasy_server",
    "ide4-survival": "lazaretto.rulesets.ide4_survival",
}
"""The bundled rulesets' modules by id; each holds its ruleset as ``RULESET`` (the
entry points of ``pyproject.toml`` name the same; tests/unit/test_codebase.py checks)."""


def _checked(rs: Any, where: str) -> Ruleset:
    if not isinstance(rs, Ruleset):
        raise DataFileError(where, "entry point", "does not point at a Ruleset")
    return rs


def _load(ep: EntryPoint) -> Ruleset:
    return _checked(ep.load(), ep.value)


@cache
def rulesets() -> dict[str, Ruleset]:
    """Every installed ruleset by id."""
    found: dict[str, Ruleset] = {}
    for ep in entry_points(group=GROUP):
        if ep.name not in BUILTIN:  # a bundled one is loaded from its module below
            rs = _load(ep)
            found[rs.id] = rs
    for ruleset_id in BUILTIN:
        found[ruleset_id] = _builtin(ruleset_id)
    return dict(sorted(found.items()))


def _builtin(ruleset_id: str) -> Ruleset:
    module = BUILTIN[ruleset_id]
    with models_built_on_first_use():
        loaded = importlib.import_module(module)
    return _checked(loaded.RULESET, f"{module}:RULESET")


@cache
def _named(ruleset_id: str) -> Ruleset | None:
    """The ruleset whose entry point is named ``ruleset_id``, importing no other one (a
    command on one campaign need not pay for every game's tables)."""
    if ruleset_id in BUILTIN:
        return _builtin(ruleset_id)
    for ep in entry_points(group=GROUP, name=ruleset_id):
        rs = _load(ep)
        if rs.id == ruleset_id:
            return rs
    return None


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset ``ruleset_id``; NotFound lists the installed ones."""
    try:
        return _named(ruleset_id) or rulesets()[ruleset_id]
    except KeyError:
        known = ", ".join(rulesets()) or "none"
        raise NotFound(
            f"No ruleset {ruleset_id!r}; installed: {known}",
            ru=f"Нет набора правил {ruleset_id!r}; установлены: {known}",
        ) from None
