"""Pages for accounts: log in, log out, register, join with an invite code, the
campaign list, and the language switch.

The session cookie is the API's (HttpOnly, SameSite=Lax). The login and register forms
come before any session, so they carry a one-off token that must match a cookie set
with the form (a login CSRF guard); every later form carries the session's CSRF token.
"""

from __future__ import annotations

import functools
import hmac
import secrets
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import Query, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from lazaretto.api.context import (
    COOKIE,
    Services,
    client_address,
    device_of,
    lang,
    optional_caller,
    services,
    set_login_cookies,
)
from lazaretto.core.errors import Forbidden, LazarettoError
from lazaretto.service.accounts import LoginSession, User
from lazaretto.web import i18n
from lazaretto.web.pages import check_csrf, redirect, render, router, safe_next, who

ROUTER = router()
PRE = "lazaretto_pre"


def _session_cookie(request: Request, response: Response, session: LoginSession) -> None:
    set_login_cookies(response, session, secure=services(request).secure_cookies)


def _pre_form(request: Request, template: str, status: int = 200, **ctx: Any) -> Response:
    token = request.cookies.get(PRE) or secrets.token_urlsafe(16)
    response = render(request, template, status=status, pre=token, **ctx)
    response.set_cookie(PRE, token, httponly=True, samesite="strict", max_age=3600, path="/")
    return response


def _check_pre(request: Request, form: FormData) -> None:
    sent, kept = form.get("pre"), request.cookies.get(PRE)
    if not (isinstance(sent, str) and kept and hmac.compare_digest(sent, kept)):
        raise Forbidden(
            "The form is stale (reload the page and try again)",
            ru="Форма устарела (обновите страницу и повторите)",
        )


def _text(form: FormData, name: str) -> str:
    value = form.get(name)
    return value.strip() if isinstance(value, str) else ""


@ROUTER.get("/")
def home(request: Request) -> Response:
    """The caller's campaigns with their role and clock; a player with one character in
    a campaign opens it on their card."""
    caller = who(request)
    svc = services(request)
    rows = [(m, svc.campaigns.info(m.campaign)) for m in svc.accounts.memberships(caller.user)]
    return render(
        request, "campaigns.html", caller=caller, rows=rows, cards=_cards(svc, caller.user)
    )


def _cards(svc: Services, user: User) -> dict[str, str]:
    """Per campaign where ``user`` is a player with one character, its card's path."""
    out: dict[str, str] = {}
    for m in svc.accounts.memberships(user):
        info = svc.campaigns.info(m.campaign)
        mine = None if getattr(info, "damaged", False) else svc.play.landing(user, m.campaign)
        if mine is not None:
            out[m.campaign] = f"/c/{quote(m.campaign)}/ch/{quote(mine, safe='')}"
    return out


def _landing(svc: Services, user: User) -> str:
    """Where a login with nowhere else to go lands: the card of a player whose only
    campaign gives them one character, else the list of campaigns."""
    cards = _cards(svc, user)
    if len(cards) == 1 and len(svc.accounts.memberships(user)) == 1:
        return next(iter(cards.values()))
    return "/"


@ROUTER.get("/login")
def login_form(request: Request, next: Annotated[str | None, Query()] = None) -> Response:
    """The login form (straight on if already logged in)."""
    if optional_caller(request) is not None:
        return redirect(safe_next(next))
    return _pre_form(request, "login.html", next=safe_next(next))


@ROUTER.post("/login")
async def login(request: Request) -> Response:
    """Check the password, set the session cookie, go back to where the user was."""
    form = await request.form()
    target = safe_next(_text(form, "next"))
    try:
        _check_pre(request, form)
        svc = services(request)
        sess = await run_in_threadpool(
            functools.partial(
                svc.accounts.login,
                _text(form, "username"),
                str(form.get("password") or ""),
                client=client_address(request),
                device=device_of(request),
            )
        )
    except LazarettoError as err:
        msg = err.text(lang(request))
        user = _text(form, "username")
        return _pre_form(request, "login.html", err.http_status, next=target, error=msg, user=user)
    if target == "/":
        target = await run_in_threadpool(_landing, services(request), sess.user)
    response = redirect(target)
    _session_cookie(request, response, sess)
    return response


@ROUTER.post("/logout")
async def logout(request: Request) -> Response:
    """End the session and forget the cookie."""
    caller = who(request)
    check_csrf(await request.form(), caller)
    await run_in_threadpool(services(request).accounts.logout, caller.token)
    response = redirect("/login")
    response.delete_cookie(COOKIE, path="/")
    return response


@ROUTER.get("/register")
def register_form(request: Request, code: Annotated[str | None, Query()] = None) -> Response:
    """Create an account (with an invite code, joining its campaign)."""
    return _pre_form(request, "register.html", code=code or "")


@ROUTER.post("/register")
async def register(request: Request) -> Response:
    """Create the account, join with the code if any, and log in."""
    form = await request.form()
    user, password = _text(form, "username"), str(form.get("password") or "")
    code = _text(form, "code")
    svc = services(request)

    def create() -> tuple[LoginSession, str]:
        sess = svc.accounts.register(
            user,
            password,
            invite=code or None,
            client=client_address(request),
            device=device_of(request),
        )  # limited per address before anything is created
        joined = svc.accounts.memberships(sess.user)  # the invite's campaign, if any
        return sess, joined[0].campaign if joined else ""

    try:
        _check_pre(request, form)
        sess, campaign = await run_in_threadpool(create)
    except LazarettoError as err:
        msg = err.text(lang(request))
        return _pre_form(request, "register.html", err.http_status, error=msg, user=user, code=code)
    response = redirect(f"/c/{campaign}" if campaign else "/")
    _session_cookie(request, response, sess)
    return response


@ROUTER.get("/join")
def join_form(request: Request, code: Annotated[str | None, Query()] = None) -> Response:
    """Enter an invite code (logged in), or register with it."""
    caller = optional_caller(request)
    if caller is None:
        return redirect(f"/register?code={code}" if code else "/login?next=/join")
    return render(request, "join.html", caller=caller, code=code or "")


@ROUTER.post("/join")
async def join(request: Request) -> Response:
    """Use an invite code and open the campaign."""
    caller = who(request)
    form = await request.form()
    check_csrf(form, caller)
    code = _text(form, "code")
    try:
        member = await run_in_threadpool(services(request).accounts.join, caller.user, code)
    except LazarettoError as err:
        msg = err.text(lang(request))
        return render(
            request, "join.html", caller=caller, code=code, error=msg, status=err.http_status
        )
    return redirect(f"/c/{member.campaign}")


@ROUTER.get("/lang/{code}")
def switch_language(
    request: Request, code: str, next: Annotated[str | None, Query()] = None
) -> Response:
    """Remember the language in a cookie and go back."""
    response = redirect(safe_next(next))
    if code in i18n.LANGS:
        response.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="lax", path="/")
    return response
