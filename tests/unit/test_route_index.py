"""The route index (api/dispatch.py) picks, for every path of the app, the route the
router's own scan would pick, and leaves what no route takes fully to that scan."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.routing import BaseRoute, Match, Route

from lazaretto.api.app import create_app
from lazaretto.api.dispatch import RouteIndex
from lazaretto.store.db import Database


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    db = Database(f"sqlite:///{tmp_path_factory.mktemp('ix') / 'ix.db'}")
    return create_app(db, ticker=False)


def _scope(path: str, method: str) -> dict[str, Any]:
    return {"type": "http", "path": path, "root_path": "", "method": method}


def _scanned(routes: list[BaseRoute], scope: dict[str, Any]) -> BaseRoute | None:
    """The route Starlette's linear scan takes fully, without the index."""
    for route in routes:
        if isinstance(route, RouteIndex):
            continue
        if route.matches(scope)[0] is Match.FULL:
            return route
    return None


def _concrete(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "x1", path)


def test_every_route_is_found_by_the_index_as_by_the_scan(app: FastAPI) -> None:
    routes = app.router.routes
    index = routes[0]
    assert isinstance(index, RouteIndex)
    checked = 0
    for route in routes:
        if not isinstance(route, Route):
            continue
        for method in sorted(route.methods or {"GET"}):
            scope = _scope(_concrete(route.path), method)
            expected = _scanned(routes, scope)
            match, child = index.matches(scope)
            assert match is Match.FULL
            assert child["lazaretto.route"] is expected
            assert child["path_params"] == expected.matches(scope)[1]["path_params"]
            checked += 1
    assert checked > 250  # every action, query, page and API route


def test_the_index_asks_few_routes_for_an_action(app: FastAPI) -> None:
    index = app.router.routes[0]
    assert isinstance(index, RouteIndex)
    asked = index.candidates("/api/campaigns/siege/actions/lose-hits")
    assert len(asked) < 10 < len(app.router.routes) // 20


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/api/campaigns/siege/actions/lose-hits", 405),  # wrong method
        ("POST", "/api/no/such/path", 404),
        ("GET", "/api/campaigns/", 307),  # redirected to drop the trailing slash
    ],
)
def test_what_no_route_takes_fully_is_answered_by_the_router(
    app: FastAPI, method: str, path: str, status: int
) -> None:
    index = app.router.routes[0]
    assert isinstance(index, RouteIndex)
    assert index.matches(_scope(path, method))[0] is Match.NONE
    with TestClient(app) as client:
        r = client.request(method, path, follow_redirects=False)
    assert r.status_code == status
    if status == 307:
        assert r.headers["location"].endswith("/api/campaigns")
    else:
        assert r.json()["rule_ids"] == []


def test_routes_added_later_are_indexed(tmp_path: Path) -> None:
    app = create_app(Database(f"sqlite:///{tmp_path / 'late.db'}"), ticker=False)

    @app.get("/late/{thing}")
    async def late(thing: str) -> dict[str, str]:
        return {"thing": thing}

    with TestClient(app) as client:
        assert client.get("/late/owl").json() == {"thing": "owl"}
