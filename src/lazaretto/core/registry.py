"""The ruleset registry: rulesets are found through Python entry points.

A third-party package adds a ruleset by declaring an entry point in the group
``lazaretto.rulesets`` that points at a :class:`~lazaretto.core.ruleset.Ruleset`.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from lazaretto.core.errors import DataFileError, NotFound
from lazaretto.core.ruleset import Ruleset

GROUP = "lazaretto.rulesets"


@cache
def rulesets() -> dict[str, Ruleset]:
    """Every installed ruleset by id."""
    found: dict[str, Ruleset] = {}
    for ep in entry_points(group=GROUP):
        rs = ep.load()
        if not isinstance(rs, Ruleset):
            raise DataFileError(ep.value, "entry point", "does not point at a Ruleset")
        found[rs.id] = rs
    return dict(sorted(found.items()))


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset ``ruleset_id``; NotFound lists the installed ones."""
    try:
        return rulesets()[ruleset_id]
    except KeyError:
        known = ", ".join(rulesets()) or "none"
        raise NotFound(
            f"No ruleset {ruleset_id!r}; installed: {known}",
            ru=f"Нет набора правил {ruleset_id!r}; установлены: {known}",
        ) from None
