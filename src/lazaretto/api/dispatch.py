"""Finding a request's route without trying every route.

Starlette picks a route by trying each route's regular expression in turn. The app has
one route per ruleset action and per query, over three hundred in all, so a request
for the last of them paid for three hundred failed matches before its own: a fifth of
the server's time when recording wounds (bench/bench_http.py).

:class:`RouteIndex` sits first in the app's route list. It narrows the candidates by
the parts of the path that cannot vary (how many segments, and the last one when it is
fixed text), then asks only those candidates, in their original order, exactly as the
router would. A request none of them takes fully (a wrong method, a missing trailing
slash, an unknown path) is left to the router's own scan, which answers it as before.
The routes themselves stay where they are, so OpenAPI and ``url_path_for`` see them.
"""

from __future__ import annotations

import re
from collections import defaultdict

from starlette._utils import get_route_path
from starlette.routing import BaseRoute, Match, Route
from starlette.types import Receive, Scope, Send

_PARAM = re.compile(r"^\{[^}:]+(?::(?!path\})[^}]+)?\}$")
"""A path segment that is one parameter (any converter but ``path``, which spans
segments)."""

_ROUTE_KEY = "lazaretto.route"


def _segments(path: str) -> list[str]:
    return path.split("/")


class RouteIndex(BaseRoute):
    """The app's routes indexed by segment count and fixed last segment."""

    def __init__(self, routes: list[BaseRoute]) -> None:
        self._routes = routes
        self._indexed = -1  # how many routes the index was built from
        self._by_last: dict[tuple[int, str], list[tuple[int, BaseRoute]]] = {}
        self._by_count: dict[int, list[tuple[int, BaseRoute]]] = {}
        self._always: list[tuple[int, BaseRoute]] = []

    def _build(self) -> None:
        by_last: dict[tuple[int, str], list[tuple[int, BaseRoute]]] = defaultdict(list)
        by_count: dict[int, list[tuple[int, BaseRoute]]] = defaultdict(list)
        always: list[tuple[int, BaseRoute]] = []
        for i, route in enumerate(self._routes):
            if route is self:
                continue
            if not isinstance(route, Route):  # mounts, websockets: always asked
                always.append((i, route))
                continue
            parts = _segments(route.path)
            if any("{" in p and not _PARAM.match(p) for p in parts):
                always.append((i, route))  # a parameter spanning or sharing segments
            elif _PARAM.match(parts[-1]):
                by_count[len(parts)].append((i, route))
            else:
                by_last[(len(parts), parts[-1])].append((i, route))
        self._by_last, self._by_count, self._always = dict(by_last), dict(by_count), always
        self._indexed = len(self._routes)

    def candidates(self, path: str) -> list[BaseRoute]:
        """The routes that might take ``path``, in the router's order."""
        if self._indexed != len(self._routes):  # routes were added since
            self._build()
        parts = _segments(path)
        found = (
            self._by_last.get((len(parts), parts[-1]), [])
            + self._by_count.get(len(parts), [])
            + self._always
        )
        found.sort(key=lambda pair: pair[0])
        return [route for _, route in found]

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] != "http":
            return Match.NONE, {}
        for route in self.candidates(get_route_path(scope)):
            match, child_scope = route.matches(scope)
            if match is Match.FULL:
                return Match.FULL, {**child_scope, _ROUTE_KEY: route}
        return Match.NONE, {}  # the router's own scan answers (405, redirect, 404)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        route: BaseRoute = scope[_ROUTE_KEY]
        await route.handle(scope, receive, send)


def index_routes(routes: list[BaseRoute]) -> None:
    """Put a :class:`RouteIndex` over ``routes`` (the app's route list) in front of them."""
    if not any(isinstance(r, RouteIndex) for r in routes):
        routes.insert(0, RouteIndex(routes))
