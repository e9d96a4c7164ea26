"""The ruleset registry: rulesets are found through Python entry points.

A third-party package adds a ruleset by declaring an entry point in the group
``lazaretto.rulesets`` that points at a :class:`~lazaretto.core.ruleset.Ruleset`.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points

from lazaretto.core.errors import DataFileError, NotFound
from lazaretto.core.ruleset import Ruleset

GROUP = "lazaretto.rulesets"


def _load(ep: EntryPoint) -> Ruleset:
    rs = ep.load()
    if not isinstance(rs, Ruleset):
        raise DataFileError(ep.value, "entry point", "does not point at a Ruleset")
    return rs


@cache
def rulesets() -> dict[str, Ruleset]:
    """Every installed ruleset by id."""
    found: dict[str, Ruleset] = {}
    for ep in entry_points(group=GROUP):
        rs = _load(ep)
        found[rs.id] = rs
    return dict(sorted(found.items()))


@cache
def _named(ruleset_id: str) -> Ruleset | None:
    """The ruleset whose entry point is named ``ruleset_id``, importing no other one (a
    command on one campaign need not pay for every game's tables)."""
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
