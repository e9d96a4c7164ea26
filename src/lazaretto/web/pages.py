"""What every page needs: its router, the caller, the campaign frame, rendering, forms'
checks, the flash, redirects and the HTML error page.

Page handlers are thin: they ask the services (never the state) for what the caller may
see, and render a template. A Lazaretto error raised by a page becomes the error page
in the caller's language with the error's HTTP status; a page that needs a login sends
the browser to the login form and back.

The ``views_*`` modules declare their pages on routers made here; this module imports
none of them (:mod:`lazaretto.web.app` adds their routes to the app), so the package's
imports have one direction: views -> helpers.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.routing import APIRoute
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.datastructures import FormData

from lazaretto.api.context import Caller, Services, lang, optional_caller, services
from lazaretto.core.clock import ClockMode, campaign_local
from lazaretto.core.errors import Forbidden, InvalidInput, LazarettoError, problem_ru
from lazaretto.core.ruleset import Role
from lazaretto.reading.lines import hhmm
from lazaretto.service.accounts import Unauthenticated
from lazaretto.service.play import OUTBOX_MAX
from lazaretto.web import errtext, i18n
from lazaretto.web.cards import left

HERE = Path(__file__).parent
STATIC = HERE / "static"
ENV = Environment(
    loader=FileSystemLoader(HERE / "templates"),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)
ENV.filters["hhmm"] = hhmm
ENV.globals["left"] = left
ENV.globals["outbox_max"] = OUTBOX_MAX  # outbox.js sends at most this many taps at once


def answer_label(key: str, lang: str) -> str:
    """A query answer's key as a person reads it: a page word, else a form label."""
    return i18n.text(key, lang) if key in i18n.UI else i18n.field_label(key, lang)


ENV.globals["answer_label"] = answer_label
ENV.filters["urlq"] = lambda s: quote(str(s), safe="")


def _asset_versions() -> dict[str, str]:
    """A short content hash per static file, so browsers may cache them forever."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()[:10]
        for p in STATIC.iterdir()
        if p.is_file()
    }


ASSETS = _asset_versions()


class LoginRequired(Exception):
    """Raised by a page that needs a logged-in user; answered with a redirect."""


class PageRoute(APIRoute):
    """A page route: Lazaretto errors become the HTML error page, whatever ``Accept`` says."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        inner = super().get_route_handler()

        async def handler(request: Request) -> Response:
            try:
                return await inner(request)
            except LoginRequired:
                target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
                return RedirectResponse(f"/login?next={quote(target, safe='')}", status_code=303)
            except LazarettoError as err:
                return error_page(request, err)
            except RequestValidationError as exc:  # a query parameter out of bounds
                first = exc.errors()[0] if exc.errors() else {}
                where = ".".join(str(p) for p in first.get("loc", ()))
                msg = f"{where}: {first.get('msg', 'invalid')}"
                return error_page(request, InvalidInput(msg, ru=f"{where}: {problem_ru(first)}"))

        return handler


def router() -> APIRouter:
    """A router for pages (hidden from the OpenAPI document)."""
    return APIRouter(route_class=PageRoute, include_in_schema=False)


def who(request: Request) -> Caller:
    """The logged-in caller, or a redirect to the login page."""
    found = optional_caller(request)
    if found is None:
        raise LoginRequired
    return found


def check_csrf(form: FormData, caller: Caller) -> None:
    """A form's hidden ``csrf`` field must be the session's CSRF token."""
    sent = form.get("csrf")
    if not isinstance(sent, str) or not hmac.compare_digest(sent, caller.csrf):
        raise Forbidden(
            "The form is stale or forged (CSRF token missing or wrong): reload the page",
            ru="Форма устарела или подделана (нет или неверен CSRF-токен): обновите страницу",
        )


def tap_time(form: FormData) -> datetime | None:
    """The campaign time the phone's outbox says a tap was made (``x_at``, filled by
    static/outbox.js on every form it sends): a tap sent late is placed at it (a late
    record), within the campaign's window. None when the form came without it."""
    sent = form.get("x_at")
    if not isinstance(sent, str) or not sent:
        return None
    try:
        return campaign_local(datetime.fromisoformat(sent))  # as the API reads an offset
    except ValueError:
        raise InvalidInput(
            f"Tap time {sent[:40]!r} is not a time", ru=f"Время нажатия {sent[:40]!r} — не время"
        ) from None


def safe_next(target: str | None, default: str = "/") -> str:
    """A local path to go back to (never another site)."""
    if target and target.startswith("/") and not target.startswith(("//", "/\\")):
        return target
    return default


def redirect(url: str) -> RedirectResponse:
    """303 See Other: after a POST the browser GETs ``url``."""
    return RedirectResponse(url, status_code=303)


PUBLIC_URL = "LAZARETTO_PUBLIC_URL"
"""The environment setting ``serve --public-url`` sets: what QR codes open."""


def public_url(request: Request) -> str:
    """The address QR codes encode: the server's public one, else this request's."""
    return (os.environ.get(PUBLIC_URL) or str(request.base_url)).rstrip("/")


@dataclass(frozen=True)
class Frame:
    """The campaign a page shows: who the caller is there and the clock the page runs on."""

    id: str
    ruleset: str
    role: Role
    characters: tuple[str, ...]
    now: datetime
    running: bool
    mode: str
    paused: bool
    version: int

    @property
    def staff(self) -> bool:
        """Masters and healers (who see boards and the journal)."""
        return self.role in (Role.MASTER, Role.HEALER)

    @property
    def master(self) -> bool:
        """Masters (clock, invites, the event log)."""
        return self.role is Role.MASTER


def frame(request: Request, caller: Caller, campaign: str) -> Frame:
    """The caller's membership in ``campaign`` and its clock (Forbidden if not a member)."""
    svc = services(request)
    member = svc.play.member(caller.user, campaign)
    version = svc.campaigns.version(campaign) or 0  # read first: the page is at least this new
    info = svc.campaigns.info(campaign)
    running = info.clock.mode is ClockMode.REALTIME and not info.clock.paused
    return Frame(
        campaign,
        info.ruleset,
        member.role,
        member.characters,
        info.now,
        running,
        info.clock.mode.value,
        info.clock.paused,
        version,
    )


def known_to(svc: Services, caller: Caller, camp: Frame) -> set[str] | None:
    """The characters a player's choices may name (the campaign's ``player_sight``)."""
    if camp.role is not Role.PLAYER:
        return None
    return {n["id"] for n in svc.play.names(caller.user, camp.id)}


def render(
    request: Request,
    template: str,
    *,
    caller: Caller | None = None,
    camp: Frame | None = None,
    live: bool = False,
    about: str | None = None,
    status: int = 200,
    **context: Any,
) -> HTMLResponse:
    """Render ``template`` with the page frame (language, user, campaign clock).

    ``live`` pages refresh themselves when the campaign changes; a page ``about`` one
    character only when a change may show on it."""
    language = lang(request)
    stream = ""
    if camp and live:
        stream = f"/api/campaigns/{quote(camp.id)}/stream"
        if about is not None:
            stream += f"?character={quote(about, safe='')}"
    query = urlencode([(k, v) for k, v in request.query_params.multi_items() if k != "lang"])
    here = request.url.path + (f"?{query}" if query else "")
    html = ENV.get_template(template).render(
        t=i18n.translator(language),
        lang=language,
        caller=caller,
        camp=camp,
        stream=stream,
        here=quote(here, safe=""),
        assets=ASSETS,
        **context,
    )
    return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})


FLASH = "lazaretto_flash"
OUTBOX = "x-lazaretto-outbox"
"""The header static/outbox.js sends its taps with."""


def _sign(caller: Caller, payload: str) -> str:
    return hmac.new(caller.csrf.encode(), payload.encode(), hashlib.sha256).hexdigest()[:32]


def set_flash(
    response: Response, caller: Caller, lines: list[str], record: int | None = None
) -> None:
    """Lines to show once on the next page (what was just recorded), signed for this
    session; ``record``: the record they tell of, which the page offers to undo."""
    shown = [ln[:200] for ln in lines[:8]]
    body = {"lines": shown, "record": record} if record is not None else shown
    payload = base64.urlsafe_b64encode(json.dumps(body).encode())
    text = payload.decode()
    response.set_cookie(
        FLASH, f"{text}.{_sign(caller, text)}", httponly=True, samesite="lax", path="/"
    )


def pop_flash(request: Request, caller: Caller) -> list[str]:
    """The lines left by :func:`set_flash` (empty if none or not signed for this session)."""
    return _flash(request, caller)[0]


def flash_record(request: Request, caller: Caller) -> int | None:
    """The record the flash tells of (for its Undo button), if any."""
    return _flash(request, caller)[1]


def _flash(request: Request, caller: Caller) -> tuple[list[str], int | None]:
    text, _, sig = request.cookies.get(FLASH, "").partition(".")
    if not text or not hmac.compare_digest(sig, _sign(caller, text)):
        return [], None
    try:
        body = json.loads(base64.urlsafe_b64decode(text.encode()))
    except ValueError:
        return [], None
    record = None
    if isinstance(body, dict):
        record = body.get("record") if isinstance(body.get("record"), int) else None
        body = body.get("lines")
    return ([str(ln) for ln in body] if isinstance(body, list) else []), record


def error_page(request: Request, err: LazarettoError) -> Response:
    """The HTML page for an error: its one-line message in the caller's language."""
    try:
        caller = optional_caller(request)
    except LazarettoError:  # the database itself may be what failed
        caller = None
    return render(
        request,
        "error.html",
        caller=caller,
        status=err.http_status,
        message=errtext.for_web(err.text(lang(request)), None, lang(request)),
        kind=type(err).__name__,
        login=isinstance(err, Unauthenticated) or caller is None,
    )
