"""The FastAPI application: API, live updates and (when present) the web pages.

One error handler maps every Lazaretto error to its HTTP status with a JSON body in
the caller's language; a storage error answers in the same shape with generic words
(the driver's details go to the log), a damaged database says to restore a backup;
anything unexpected is a 500 with no traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware

from lazaretto import __version__
from lazaretto.api import actions, exports, history, live, outbox, roster, routes
from lazaretto.api.context import Services, lang
from lazaretto.api.dispatch import index_routes
from lazaretto.api.docs import mount_docs
from lazaretto.api.guards import SECURITY_HEADERS, RefuseNul, SecurityHeaders
from lazaretto.api.limits import BodyLimit
from lazaretto.core import memtrim
from lazaretto.core.errors import InvalidInput, LazarettoError
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.group_commit import LINGER
from lazaretto.service.play import PlayService
from lazaretto.store.db import Database, StorageError, storage_error

log = logging.getLogger("lazaretto")
MAX_BODY_BYTES = 1_000_000
"""The largest request body accepted (a hospital's beds or a disease's texts are far
smaller); a larger one is refused with 413 before it is read into memory."""


def _error(request: Request, err: LazarettoError) -> Response:
    if isinstance(err, StorageError):
        log.error("storage error on %s: %s", request.url.path, err.detail or err.message)
    body = err.to_dict(lang(request))
    if request.url.path.startswith("/api") or "text/html" not in request.headers.get("accept", ""):
        return JSONResponse(body, status_code=err.http_status)
    from lazaretto.web.pages import error_page

    return error_page(request, err)


def create_app(
    db: Database, *, ticker: bool = True, secure_cookies: bool = False, warm: bool = False
) -> FastAPI:
    """The app over ``db``; ``ticker`` fires due countdowns in the background; ``warm``
    (a server) parses the campaigns played last before the first request is taken
    (:meth:`~lazaretto.service.campaigns.CampaignService.warm_up`) and keeps each
    campaign's writer thread between bursts of taps
    (:data:`~lazaretto.service.group_commit.LINGER`)."""
    campaigns = CampaignService(db)
    if warm:
        campaigns.linger = LINGER
    accounts = AccountService(db)
    svc = Services(campaigns, accounts, PlayService(campaigns, accounts), secure_cookies)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if warm:
            began = time.perf_counter()
            names = await asyncio.to_thread(campaigns.warm_up)
            if names:
                log.info("ready: %s parsed in %.1f s", ", ".join(names),
                         time.perf_counter() - began)
        stop = asyncio.Event()
        task = asyncio.create_task(live.ticker(svc, stop)) if ticker else None
        try:
            with live.stop_signals(app.state.watcher.close):  # live streams end on SIGTERM
                yield
        finally:
            campaigns.stop_writers()  # the process waits for them: idle ones end now
        stop.set()
        if task is not None:
            await task

    app = FastAPI(
        docs_url=None,  # served below from local files: the field site has no internet
        redoc_url=None,
        title="Lazaretto",
        version=__version__,
        lifespan=lifespan,
        description="Health, medicine, injuries and survival rules for role-playing "
        "games: the actions of every ruleset, countdowns, journals. Errors carry the "
        "rule IDs that produced them.",
    )
    app.state.services = svc
    # one layer that answers in our error shape (FastAPI's max_body_size adds three,
    # and answers in plain text from outside the app's error handlers)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES, answer=_error)
    # pages and JSON compressed for phones on a crowded field Wi-Fi (the overview of a
    # 600-character campaign: 157 KB of HTML, 14 KB sent); never the live stream, which
    # would be held back to fill a compression block
    app.add_middleware(
        GZipMiddleware,
        minimum_size=1400,  # about one packet: smaller answers gain nothing
        compresslevel=6,
        exclude_content_types=(*DEFAULT_EXCLUDED_CONTENT_TYPES, "application/pdf"),
    )
    app.add_middleware(RefuseNul, limit=MAX_BODY_BYTES, answer=_error)
    app.add_middleware(SecurityHeaders)  # outermost: on every answer, refusals too
    app.state.watcher = live.VersionWatcher(campaigns.news)

    @app.exception_handler(LazarettoError)
    async def lazaretto_error(request: Request, err: LazarettoError) -> Response:
        return _error(request, err)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, err: RequestValidationError) -> Response:
        first: dict[str, Any] = dict(err.errors()[0]) if err.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return JSONResponse(
            {"error": "InvalidInput", "message": f"{where}: {first.get('msg')}", "rule_ids": []},
            status_code=422,
        )

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, err: HTTPException) -> Response:
        """No such path or method, a body that cannot be read: our errors' JSON shape."""
        name = {400: "InvalidInput", 404: "NotFound", 405: "MethodNotAllowed", 413: "TooLarge"}.get(
            err.status_code, "HTTPError"
        )
        body = {"error": name, "message": str(err.detail), "rule_ids": []}
        return JSONResponse(body, status_code=err.status_code, headers=err.headers)

    @app.exception_handler(OverflowError)
    async def out_of_range(request: Request, err: OverflowError) -> Response:
        """A date past the calendar's end or a number too large to compute with: the
        input's fault, refused (the change it was part of is rolled back)."""
        return _error(
            request,
            InvalidInput(
                "A date or number is out of range (too far in the future, or too large)",
                ru="Дата или число вне допустимого (слишком далеко в будущем или слишком велико)",
            ),
        )

    @app.exception_handler(SQLAlchemyError)
    @app.exception_handler(sqlite3.Error)
    async def storage_failed(request: Request, err: Exception) -> Response:
        """A driver error that no transaction translated: generic words, details logged."""
        return _error(request, storage_error(err))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, err: Exception) -> Response:
        log.exception("unexpected error on %s", request.url.path)
        return JSONResponse(  # answered outside the middleware: its headers here
            {
                "error": "InternalError",
                "message": "internal error; it has been logged",
                "rule_ids": [],
            },
            status_code=500,
            headers=dict(SECURITY_HEADERS),
        )

    mount_docs(app)  # offline Swagger UI 5 (reads OpenAPI 3.1)
    for router in (
        routes.router,
        actions.build_router(),
        outbox.router,
        history.router,
        live.router,
        roster.router,
        exports.router,
    ):
        _add_routes(app, router)
    with contextlib.suppress(ImportError):
        from lazaretto.web.app import mount as mount_pages

        mount_pages(app)
    index_routes(app.router.routes)
    return app


def _add_routes(app: FastAPI, router: APIRouter) -> None:
    """Add ``router``'s API routes to the app itself rather than including the router.

    FastAPI matches an included router by scanning all its routes once to decide that
    it matches and again to pick the route; with one route per ruleset action (over two
    hundred) that scan was the largest cost of recording a wound (bench_http.py:
    496 -> 784 wounds/s, p99 418 -> 90 ms). The routes' paths already carry the
    router's prefix, and these routers add no dependencies of their own."""
    assert not router.dependencies, "included routes would lose the router's dependencies"
    app.router.routes.extend(router.routes)


GC_THRESHOLDS = (10_000, 10, 10)


def tune_gc() -> None:
    """Cycle-collector settings for a server process, once everything is imported.

    The collector walks every tracked object it has not been told to skip; a loaded
    server holds hundreds of thousands of them (rulesets, schemas, templates) that live
    as long as the process. Freezing them, and collecting the young generation every
    10,000 allocations instead of 700, took the longest collection pause under a
    battle's load from 80 ms to 3 ms (bench/bench_load.py: the wounds' p99). Large
    blocks are mapped on their own, so what a re-run borrowed goes back to the system
    (:mod:`lazaretto.core.memtrim`).
    """
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    memtrim.settle()


def app_from_env() -> FastAPI:
    """The app as each of ``lazaretto serve --workers N``'s processes builds it:
    the database from ``LAZARETTO_DB``, Secure cookies if ``LAZARETTO_SECURE_COOKIES=1``."""
    import os

    from lazaretto.store.db import database_url

    app = create_app(
        Database(database_url()),
        secure_cookies=os.environ.get("LAZARETTO_SECURE_COOKIES") == "1",
        warm=True,
    )
    tune_gc()
    return app
