"""The import edges between the modules of one package, and its import cycles.

    .venv/bin/python scripts/import_graph.py lazaretto.core [--root src]

Reads the sources with :mod:`ast` (nothing of the package is imported) and counts every
import of one module of the package by another: at module level, inside a function, and
under ``if TYPE_CHECKING:`` — a deferred or type-only import still ties the two modules
together (a reader of one needs the other, and a refactor of one breaks the other). Each
edge is printed with where its imports are (``module``, ``function``, ``type-checking``);
then the cycles, the strongly connected components of more than one module. The exit
status is 1 when there is a cycle, so the script can guard a package in CI;
``tests/unit/test_core_imports.py`` loads :func:`import_edges` and :func:`cycles` from
here to keep ``lazaretto.core`` free of them.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

Edges = dict[tuple[str, str], set[str]]
"""(importer, imported) -> where the imports are: ``module``, ``function``, ``type-checking``."""

SRC = Path(__file__).resolve().parent.parent / "src"


def package_dir(package: str, roots: Iterable[Path | str] = ()) -> Path:
    """The directory of ``package`` under the first of ``roots`` (then the project's
    ``src``, then ``sys.path``) that holds it; nothing is imported."""
    parts = package.split(".")
    for root in [*map(Path, roots), SRC, *map(Path, filter(None, sys.path))]:
        candidate = root.joinpath(*parts)
        if (candidate / "__init__.py").is_file():
            return candidate
    raise SystemExit(f"no package {package!r} found (give its parent directory with --root)")


def modules(package: str, directory: Path) -> dict[str, Path]:
    """Every module of the package (its subpackages' too), by dotted name."""
    found: dict[str, Path] = {}
    for path in sorted(directory.rglob("*.py")):
        parts = list(path.relative_to(directory).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join([package, *parts])] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    """``TYPE_CHECKING`` or ``typing.TYPE_CHECKING``."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _imports(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
    """Every import statement of ``tree`` with where it is: ``function`` (in a function's
    body, however deep), else ``type-checking`` (under ``if TYPE_CHECKING:``), else
    ``module`` (run on import: at the top, in a class body, in a ``try``...)."""

    def walk(node: ast.AST, where: str) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child, where
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                yield from walk(child, "function")
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                inner = where if where == "function" else "type-checking"
                for stmt in child.body:
                    yield from walk(ast.Module(body=[stmt], type_ignores=[]), inner)
                for stmt in child.orelse:
                    yield from walk(ast.Module(body=[stmt], type_ignores=[]), where)
            else:
                yield from walk(child, where)

    yield from walk(tree, "module")


def _targets(
    node: ast.Import | ast.ImportFrom, importer: str, is_package: bool, known: Mapping[str, Path]
) -> Iterator[str]:
    """The modules of ``known`` that ``node`` (in module ``importer``) imports."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name in known:
                yield alias.name
        return
    base = node.module or ""
    if node.level:  # a relative import: from the importer's own package upward
        anchor = importer.split(".")
        if not is_package:
            anchor.pop()
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join([*anchor, *([base] if base else [])])
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        if sub in known:  # ``from pkg import module``
            yield sub
        elif base in known:  # ``from module import name``
            yield base


def import_edges(package: str, roots: Iterable[Path | str] = ()) -> Edges:
    """The import edges between the modules of ``package``."""
    known = modules(package, package_dir(package, roots))
    edges: Edges = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        for node, where in _imports(tree):
            for target in _targets(node, name, is_package, known):
                if target != name:
                    edges.setdefault((name, target), set()).add(where)
    return edges


def cycles(edges: Iterable[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted,
    the largest first."""
    graph: dict[str, list[str]] = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return sorted(found, key=lambda c: (-len(c), c))


ORDER = ("module", "function", "type-checking")


def report(package: str, edges: Edges) -> list[str]:
    """The lines the script prints: one per edge, then the cycles."""

    def short(name: str) -> str:
        return name[len(package) + 1 :] if name.startswith(package + ".") else name

    lines = [f"# imports between the modules of {package} ({len(edges)} edges)"]
    for a, b in sorted(edges):
        kinds = ", ".join(k for k in ORDER if k in edges[a, b])
        lines.append(f"{short(a):<24} -> {short(b):<24} [{kinds}]")
    found = cycles(edges)
    if not found:
        lines.append("# no cycles")
    for component in found:
        lines.append(f"# CYCLE of {len(component)}: {', '.join(map(short, component))}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("package", help="a dotted package name, e.g. lazaretto.core")
    parser.add_argument("--root", action="append", default=[], help="where the package is")
    args = parser.parse_args(argv)
    edges = import_edges(args.package, args.root)
    print("\n".join(report(args.package, edges)))
    return 1 if cycles(edges) else 0


if __name__ == "__main__":
    sys.exit(main())
