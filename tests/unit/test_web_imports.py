"""The web package has a direction (issue 27, item 2): the views import the helpers, the
helpers import no view, and one module (``lazaretto.web.app``) imports every view to add
its router to the app — no import cycle inside ``lazaretto.web``, counting imports at
the top, inside a function and under ``TYPE_CHECKING``.

The graph is the one ``scripts/import_graph.py lazaretto.web`` prints, read from the
sources with ``ast``; the script is loaded by its path (``scripts/`` is no package)."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from types import ModuleType

import lazaretto.web

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "import_graph.py"
WEB = "lazaretto.web"
APP = f"{WEB}.app"


def _graph_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("import_graph", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GRAPH = _graph_script()
ROOT = Path(lazaretto.web.__file__).resolve().parents[2]  # the installed sources' root
EDGES: dict[tuple[str, str], set[str]] = GRAPH.import_edges(WEB, [ROOT])
MODULES: dict[str, Path] = GRAPH.modules(WEB, GRAPH.package_dir(WEB, [ROOT]))
VIEWS = sorted(name for name in MODULES if name.rpartition(".")[2].startswith("views_"))


def test_the_graph_is_read_from_the_web_package_it_tests() -> None:
    assert GRAPH.package_dir(WEB, [ROOT]) == Path(lazaretto.web.__file__).resolve().parent
    assert len(VIEWS) >= 11 and (f"{WEB}.views_auth", f"{WEB}.pages") in EDGES


def test_the_web_package_has_no_import_cycle() -> None:
    assert GRAPH.cycles(EDGES) == []


def test_only_the_app_module_imports_a_view() -> None:
    """What the views share (rendering, the caller, forms' checks, redirects) lives in
    modules that import no view, and no view imports another: each is a leaf that
    only declares its pages."""
    wrong = sorted(f"{a} -> {b}" for a, b in EDGES if b in VIEWS and a != APP)
    assert wrong == []


def test_no_module_of_the_package_imports_the_app_module() -> None:
    assert sorted(a for a, b in EDGES if b == APP) == []


def test_a_cycle_through_a_function_level_import_is_found(tmp_path: Path) -> None:
    """The check sees a deferred import: a helper importing a view inside a function
    (as ``pages.mount`` once did) closes a cycle."""
    package = tmp_path / "demo_web"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "helpers.py").write_text("def mount():\n    from demo_web import views_a\n")
    (package / "views_a.py").write_text("from demo_web.helpers import mount\n")
    edges = GRAPH.import_edges("demo_web", [tmp_path])
    assert edges[("demo_web.helpers", "demo_web.views_a")] == {"function"}
    assert GRAPH.cycles(edges) == [["demo_web.helpers", "demo_web.views_a"]]


def test_the_app_adds_every_views_router_once() -> None:
    app = importlib.import_module(APP)
    routers = [importlib.import_module(name).ROUTER for name in VIEWS]
    assert sorted(map(id, app.ROUTERS)) == sorted(map(id, routers))
