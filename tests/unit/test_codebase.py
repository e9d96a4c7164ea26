"""Tests about the codebase: every action and query is reachable from the CLI and the
API (the pages' forms are checked in tests/e2e/test_web_pages.py); rulesets sharing an
action or query name agree on its fields; every declaration has help in both languages."""

from __future__ import annotations

from typing import Any

import pytest

from lazaretto.api.app import create_app
from lazaretto.cli.app import build
from lazaretto.core.registry import rulesets
from lazaretto.store.db import Database

RULESETS = list(rulesets().values())


def _shared(kind: str) -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {}
    for rs in RULESETS:
        for name, spec in (rs.actions if kind == "actions" else rs.queries).items():
            found.setdefault(name, []).append(spec)
    return found


@pytest.mark.parametrize("kind", ["actions", "queries"])
def test_rulesets_that_share_a_name_agree_on_every_shared_field(kind: str) -> None:
    for name, specs in _shared(kind).items():
        fields: dict[str, Any] = {}
        for spec in specs:
            for field, info in spec.input.model_fields.items():
                seen = fields.setdefault(field, info.annotation)
                assert seen == info.annotation, (kind, name, field, seen, info.annotation)


def test_every_action_and_query_has_a_cli_command() -> None:
    import typer

    app = build()
    groups = {g.name: g.typer_instance for g in app.registered_groups}
    for kind, group in (("actions", "act"), ("queries", "query")):
        commands = {c.name for c in groups[group].registered_commands}  # type: ignore[union-attr]
        assert set(_shared(kind)) <= commands, kind
    assert isinstance(app, typer.Typer)


def test_every_action_and_query_has_an_api_endpoint(tmp_path: Any) -> None:
    app = create_app(Database(f"sqlite:///{tmp_path / 'c.db'}"), ticker=False)
    paths = set(app.openapi()["paths"])
    for name in _shared("actions"):
        assert f"/api/campaigns/{{campaign}}/actions/{name}" in paths, name
    for name in _shared("queries"):
        assert f"/api/campaigns/{{campaign}}/queries/{name}" in paths, name


@pytest.mark.parametrize("rs", RULESETS, ids=lambda r: r.id)
def test_every_ruleset_describes_its_actions_in_both_languages(rs: Any) -> None:
    for spec in [*rs.actions.values(), *rs.queries.values()]:
        assert spec.summary_en and spec.summary_ru, spec.name
        assert spec.summary_en != spec.summary_ru or not spec.summary_en.isascii(), spec.name
