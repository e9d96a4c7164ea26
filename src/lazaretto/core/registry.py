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
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from pydantic import BaseModel

from lazaretto.core.errors import DataFileError, NotFound
from lazaretto.core.ruleset import Ruleset

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


@contextmanager
def models_built_on_first_use() -> Iterator[None]:
    """Pydantic models declared inside are built when first used, not when declared
    (Pydantic's ``defer_build``; they validate, refuse and dump exactly the same).

    A ruleset declares a hundred models (the input of every action and query, its
    state, its tables), and building them all cost more than Python's start-up and any
    command's own work: a command uses its campaign's state and one action at most
    (issue 17). The setting is the default a model takes from ``BaseModel``'s
    configuration while inside; on leaving it is restored, and taken off the models
    declared inside (no bundled model declares it): they stay unbuilt until first
    used, but behave from then on as any model, so a ``TypeAdapter`` of one (FastAPI
    makes one per request body) is built when made, as before, and a model declared
    later from one of them is built when declared.
    """
    with _DEFERRING:  # one thread at a time changes the default
        config = BaseModel.model_config
        before = config.get("defer_build")
        known = _models(BaseModel)
        config["defer_build"] = True
        try:
            yield
        finally:
            if before is None:
                config.pop("defer_build", None)
            else:
                config["defer_build"] = before
            for model in _models(BaseModel) - known:
                model.model_config.pop("defer_build", None)


_DEFERRING = threading.RLock()


def _models(root: type[BaseModel]) -> set[type[BaseModel]]:
    """Every class derived from ``root``."""
    found: set[type[BaseModel]] = set()
    todo = [root]
    while todo:
        sub: type[BaseModel]
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return found


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
