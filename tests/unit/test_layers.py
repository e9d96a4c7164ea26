"""The direction of dependencies (DESIGN, STYLE "Layout"): the web pages and the HTTP API
are entry points beside the CLI, not above it — what they share with it (how an event,
a time, a countdown or a correction reads) lives below all three, in
``lazaretto.reading``, which imports only the core."""

from __future__ import annotations

import ast
from pathlib import Path

import lazaretto

PACKAGE = Path(lazaretto.__file__).parent


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def _layer(name: str) -> list[Path]:
    return sorted((PACKAGE / name).rglob("*.py"))


def test_the_web_and_the_api_import_nothing_from_the_cli() -> None:
    wrong = {
        f"{path.relative_to(PACKAGE)}: {module}"
        for layer in ("web", "api")
        for path in _layer(layer)
        for module in _imports(path)
        if module == "lazaretto.cli" or module.startswith("lazaretto.cli.")
    }
    assert not wrong, sorted(wrong)


def test_how_things_read_imports_only_the_core() -> None:
    allowed = ("lazaretto.core", "lazaretto.reading")
    wrong = {
        f"{path.relative_to(PACKAGE)}: {module}"
        for path in _layer("reading")
        for module in _imports(path)
        if module.startswith("lazaretto") and not module.startswith(allowed)
    }
    assert _layer("reading") and not wrong, sorted(wrong)
