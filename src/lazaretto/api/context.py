"""Application wiring shared by the API and the pages: services, settings, the caller."""

from __future__ import annotations

import asyncio
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Request, Response

from lazaretto.api.fresh import FreshVersions, read_aside
from lazaretto.core.errors import LazarettoError
from lazaretto.core.events import Event
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService, LoginSession, Unauthenticated, User
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.login_limits import DEVICE_COOKIE, DEVICE_DAYS
from lazaretto.service.play import PlayService

COOKIE = "lazaretto_session"
LANGS = ("en", "ru")


@dataclass
class Services:
    """What the app runs on."""

    campaigns: CampaignService
    accounts: AccountService
    play: PlayService
    secure_cookies: bool = False
    versions: FreshVersions = field(init=False)
    """Campaign versions read off the event loop, shared by the requests waiting."""

    def __post_init__(self) -> None:
        self.versions = FreshVersions(self.campaigns.version)


def services(request: Request) -> Services:
    """The app's services."""
    svc: Services = request.app.state.services
    return svc


async def committed(sent: Future[list[Event]] | LazarettoError) -> list[Event] | LazarettoError:
    """What a queued change committed, or why it was refused (an outbox's tap, issue 25).
    Shielded: a client that hangs up does not take back a change being committed."""
    if isinstance(sent, LazarettoError):
        return sent
    try:
        return await asyncio.shield(asyncio.wrap_future(sent))
    except LazarettoError as exc:
        return exc


def lang(request: Request) -> str:
    """The caller's language: ``?lang=``, the ``lang`` cookie, then Accept-Language."""
    chosen = request.query_params.get("lang") or request.cookies.get("lang")
    if chosen in LANGS:
        return chosen
    accept = request.headers.get("accept-language", "").lower()
    return "ru" if accept.startswith("ru") else "en"


def client_address(request: Request) -> str:
    """The caller's address (a proxy's X-Forwarded-For is honoured only from the
    addresses given to ``serve --forwarded-allow-ips``; by default from none)."""
    return request.client.host if request.client is not None else ""


def device_of(request: Request) -> str | None:
    """The browser's device token (a cookie set at its first login), if any."""
    return request.cookies.get(DEVICE_COOKIE)


def set_login_cookies(
    response: Response, session: LoginSession, *, secure: bool, session_cookie: bool = True
) -> None:
    """The session cookie (unless a script asked for a token only) and the device
    cookie, both HttpOnly and SameSite=Lax (Secure behind HTTPS)."""
    if session_cookie:
        response.set_cookie(
            COOKIE, session.token, httponly=True, samesite="lax", secure=secure,
            max_age=7 * 24 * 3600, path="/",
        )  # fmt: skip
    if session.device:
        response.set_cookie(
            DEVICE_COOKIE, session.device, httponly=True, samesite="lax", secure=secure,
            max_age=DEVICE_DAYS * 24 * 3600, path="/",
        )  # fmt: skip


@dataclass(frozen=True)
class Caller:
    """The logged-in user of a request and how they authenticated.

    ``token`` is the session token the request authenticated with: what a logout ends
    (never another session the request happens to carry)."""

    user: User
    csrf: str
    by_cookie: bool
    token: str = field(default="", repr=False)


def token_of(request: Request) -> tuple[str | None, bool]:
    """The session token (Bearer header first, then cookie) and whether it was a cookie.

    The one place a request's token is read: ``Bearer`` (any case) then the token,
    however many spaces between them (RFC 6750 says one; clients vary)."""
    scheme, _, rest = request.headers.get("authorization", "").strip().partition(" ")
    if scheme.lower() == "bearer":
        return rest.strip() or None, False
    return request.cookies.get(COOKIE), True


def optional_caller(request: Request) -> Caller | None:
    """The caller, if logged in."""
    token, by_cookie = token_of(request)
    found = services(request).accounts.session(token)
    if found is None or token is None:
        return None
    return Caller(found[0], found[1], by_cookie, token)


def caller(request: Request) -> Caller:
    """The caller; 401 if not logged in."""
    c = optional_caller(request)
    if c is None:
        raise Unauthenticated("Log in first", ru="Сначала войдите")
    return c


# The dependencies are async: FastAPI runs a plain function dependency in the thread
# pool, a hop per dependency per request (the largest cost of a request after the
# action itself); these do no blocking work: a session not in memory (every few
# seconds for each phone) is read in a thread of its own (api/fresh.py), as a read on
# the event loop waits for the interpreter lock behind the writer at every step
# (issue 25).


async def _caller(request: Request) -> Caller:
    token, _ = token_of(request)
    if token and not services(request).accounts.session_cached(token):
        return await read_aside(caller, request)
    return caller(request)


async def _lang(request: Request) -> str:
    return lang(request)


async def _services(request: Request) -> Services:
    return services(request)


CallerDep = Annotated[Caller, Depends(_caller)]
LangDep = Annotated[str, Depends(_lang)]
ServicesDep = Annotated[Services, Depends(_services)]

__all__ = ["COOKIE", "CallerDep", "LangDep", "Role", "Services", "ServicesDep"]
