"""A ruleset's actions, queries and timer handlers are declared when first asked for
(``Ruleset.declare_later``, issue 17): reading a character declares none, one action
declares the functions up to its own. What a command sees must be what it saw when
every function ran up front — the same names in the same order, the same models — and
a declaring function must declare and nothing else, or a command that never asked for
an action would miss what it set (a text, a check's consequence)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel

from lazaretto.core.registry import BUILTIN
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.rulesets.ide4_survival.checks import PURPOSES

BUILDERS: dict[str, Callable[[], Ruleset]] = {
    "warhammer-larp": importlib.import_module(BUILTIN["warhammer-larp"])._build,
    "zone-larp": importlib.import_module(BUILTIN["zone-larp"])._build,
    "dnd5e-injuries": importlib.import_module(BUILTIN["dnd5e-injuries"])._build,
    "ide4-survival": importlib.import_module(BUILTIN["ide4-survival"])._build,
    "fantasy-server": importlib.import_module("lazaretto.rulesets.fantasy_server.build").build,
}


def _declared(rs: Ruleset) -> dict[str, list[Any]]:
    def inputs(specs: Any) -> list[Any]:
        return [(n, s.input.__name__, list(s.input.model_fields)) for n, s in specs.items()]

    return {
        "actions": inputs(rs.actions),
        "queries": inputs(rs.queries),
        "timers": list(rs.timer_handlers),
    }


def _set_up_front(rs: Ruleset) -> dict[str, Any]:
    """What a ruleset must have before any declaring function runs."""
    return {
        "texts": dict(rs.texts),
        "describe": rs.describe,
        "redact": rs.redact,
        "hits": rs.new_character_hits,
        "params": rs.params.model_dump(),
        "reducers": rs.reducers.kinds(),
        "purposes": dict(PURPOSES),
    }


@pytest.mark.parametrize("ruleset_id", sorted(BUILDERS))
def test_declared_later_is_what_was_declared_up_front(ruleset_id: str) -> None:
    lazy = BUILDERS[ruleset_id]()
    assert lazy.actions._items == {} and lazy._pending, "nothing is declared on loading"
    before = _set_up_front(lazy)
    eager = BUILDERS[ruleset_id]()
    for declare in list(eager._pending):  # what _build did before: every function at once
        declare(eager)
    eager._pending.clear()
    assert _declared(lazy) == _declared(eager)
    assert lazy._pending == []
    assert _set_up_front(lazy) == before, "a declaring function set more than declarations"
    assert len(_declared(lazy)["actions"]) >= 10 and _declared(lazy)["timers"]


def test_one_action_declares_only_as_far_as_its_own_function() -> None:
    rs = BUILDERS["warhammer-larp"]()
    pending = len(rs._pending)
    spec = rs.actions["lose-hits"]  # warhammer's first declaring function (wounds)
    assert spec.name == "lose-hits" and 0 < len(rs._pending) == pending - 1
    assert "apply-bandage" in rs.actions and len(rs._pending) == pending - 1  # the same one
    assert rs.queries.get("no-such-query") is None and rs._pending == []  # unknown: all ran
    assert next(iter(rs.actions)) == "lose-hits"  # order of declaration


def test_an_unknown_name_is_looked_for_in_every_function_and_refused() -> None:
    rs = BUILDERS["zone-larp"]()
    assert "fly" not in rs.actions and rs._pending == []
    with pytest.raises(KeyError):
        rs.actions["fly"]
    assert rs.timer_handlers.get("no-such-timer") is None


class _Empty(BaseModel):
    pass


def _tiny() -> Ruleset:
    return Ruleset(
        id="tiny",
        title_en="t",
        title_ru="т",
        documents=(),
        state_model=CampaignState,
        params=_Empty(),
    )


def test_a_name_declared_twice_is_refused_naming_it() -> None:
    rs = _tiny()

    def first(r: Ruleset) -> None:
        r.action("wait", _Empty, summary=("wait", "ждать"))(lambda ctx, a: None)

    rs.declare_later(first, first)
    with pytest.raises(ValueError, match="tiny: action 'wait' is declared twice"):
        list(rs.actions)


def test_a_listing_runs_every_function_once_and_a_repr_none() -> None:
    rs = _tiny()
    ran: list[str] = []

    def one(name: str) -> Callable[[Ruleset], None]:
        def declare(r: Ruleset) -> None:
            ran.append(name)
            r.query(name, _Empty, summary=(name, name))(lambda ctx, q: {})

        return declare

    rs.declare_later(one("a"), one("b"), one("c"))
    assert repr(rs.queries) == "Declared(query: none yet)" and ran == []
    assert rs.queries["b"].name == "b" and ran == ["a", "b"]
    assert len(rs.queries) == 3 and list(rs.queries) == ["a", "b", "c"]
    assert dict(rs.queries).keys() == {"a", "b", "c"} and ran == ["a", "b", "c"]
