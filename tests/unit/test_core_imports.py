"""The core has a direction (issue 27, item 1): no two of its modules import each other,
however indirectly — at the top, inside a function or under ``TYPE_CHECKING`` — and the
ruleset protocol is below the engine, which is below the history.

The graph is the one ``scripts/import_graph.py lazaretto.core`` prints, read from the
sources with ``ast``; the script is loaded by its path (``scripts/`` is no package)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import lazaretto.core

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "import_graph.py"
CORE = "lazaretto.core"


def _graph_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("import_graph", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GRAPH = _graph_script()
ROOT = Path(lazaretto.core.__file__).resolve().parents[2]  # the installed sources' root
EDGES: dict[tuple[str, str], set[str]] = GRAPH.import_edges(CORE, [ROOT])


def _imports(module: str) -> set[str]:
    """The core modules ``module`` imports, at any level."""
    return {b.removeprefix(CORE + ".") for a, b in EDGES if a == f"{CORE}.{module}"}


def test_the_graph_is_read_from_the_core_it_tests() -> None:
    assert GRAPH.package_dir(CORE, [ROOT]) == Path(lazaretto.core.__file__).resolve().parent
    assert ("lazaretto.core.history", "lazaretto.core.engine") in EDGES


def test_the_core_has_no_import_cycle() -> None:
    assert GRAPH.cycles(EDGES) == []


def test_the_ruleset_protocol_imports_neither_the_engine_nor_the_history_nor_visibility() -> None:
    assert _imports("ruleset") & {"engine", "history", "visibility"} == set()


def test_the_engine_does_not_import_the_history() -> None:
    assert "history" not in _imports("engine")


def test_what_both_sides_speak_in_imports_nothing_above_the_ruleset_protocol() -> None:
    """The contexts, who acts and looks, and the history's settings stand below the
    ruleset protocol: none of them imports it, the engine, the history or visibility."""
    above = {"ruleset", "engine", "history", "visibility", "registry"}
    for low in ("contexts", "roles", "history_params"):
        assert _imports(low) & above == set(), low


def test_the_graph_counts_imports_in_functions_and_under_type_checking() -> None:
    """A cycle closed only by a deferred or a type-only import is still a cycle."""
    assert GRAPH.cycles([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]) == [["a", "b", "c"]]
    assert EDGES[f"{CORE}.ruleset", f"{CORE}.contexts"] == {"type-checking"}
    assert EDGES[f"{CORE}.ruleset", f"{CORE}.history_params"] == {"function"}


def test_the_old_homes_still_give_the_names_that_moved() -> None:
    """Other layers import these from where they were first; each is the same object."""
    from lazaretto.core import contexts, engine, history, history_params, roles, ruleset, visibility

    assert engine.ActionContext is contexts.ActionContext
    assert engine.QueryContext is contexts.QueryContext
    assert engine.find_character is contexts.find_character
    assert engine.timer_id is contexts.timer_id
    assert history.HistoryParams is history_params.HistoryParams
    assert history.HISTORY_PARAMS is history_params.HISTORY_PARAMS
    assert history.history_params is history_params.history_params
    assert ruleset.Role is roles.Role and ruleset.ALL_ROLES is roles.ALL_ROLES
    assert visibility.Viewer is roles.Viewer and visibility.PlayerSight is roles.PlayerSight
