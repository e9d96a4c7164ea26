"""The web pages on the app: ``/static`` and every view's router, in one place.

Each ``views_*`` module declares its pages on its own router
(:func:`lazaretto.web.pages.router`) and imports no other view; this module is the only
one that imports them all, and nothing in the package imports it back, so the package's
imports have one direction (``tests/unit/test_web_imports.py``).

The order below is the order the routes are tried in: keep it (a path that two routers
could take goes to the first).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles

from lazaretto.reading import fields
from lazaretto.web import (
    views_actions,
    views_auth,
    views_boards,
    views_campaign,
    views_epidemics,
    views_exports,
    views_gm,
    views_offline,
    views_outbreak,
    views_print,
    views_queries,
    views_setup,
)
from lazaretto.web.pages import STATIC

ROUTERS: tuple[APIRouter, ...] = (
    views_auth.ROUTER,
    views_campaign.ROUTER,
    views_boards.ROUTER,
    views_actions.ROUTER,
    views_queries.ROUTER,
    views_setup.ROUTER,
    views_gm.ROUTER,
    views_print.ROUTER,
    views_outbreak.ROUTER,
    views_epidemics.ROUTER,
    views_exports.ROUTER,
    views_offline.ROUTER,
)
"""Every view's router, in the order its routes are tried."""


class Assets(StaticFiles):
    """The package's CSS and script; URLs carry a content hash, so caching is safe."""

    async def get_response(self, path: str, scope: Any) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code == 200:
            response.headers["Cache-Control"] = "public, max-age=86400"
        return response


def include(app: FastAPI, router: APIRouter) -> None:
    """Add ``router``'s routes to the app itself, as ``api/app.py`` adds the API's.

    ``app.include_router`` would add the router as one nested route (FastAPI 0.165):
    ``app.routes`` would list the router instead of its pages, and the route index in
    front of the app (:mod:`lazaretto.api.dispatch`), which narrows the app's own
    routes, would have to try it on every request. The page routers add no prefix or
    dependencies of their own."""
    assert not router.dependencies, "included routes would lose the router's dependencies"
    assert not router.prefix, "the routes' paths would lose the router's prefix"
    app.router.routes.extend(router.routes)


def mount(app: FastAPI) -> None:
    """Add ``/static`` and the pages to ``app``."""
    fields.translations()  # a broken catalogue stops the server now, not on a healer's phone
    app.mount("/static", Assets(directory=STATIC), name="static")
    for router in ROUTERS:
        include(app, router)
