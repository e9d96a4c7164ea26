"""The campaign page (characters, search, a master's clock and invites), the character
card and the printable passport.

Cards come from :meth:`PlayService.cards` / :meth:`PlayService.card`, so a player sees
their own disease penalties and nobody else's, and a healer never sees penalties; a
player sees the others only as far as the campaign's ``player_sight`` lets them
(service/sight.py): their own cards come first, marked, and a player with one
character who may open no other card lands on it.
"""

from __future__ import annotations

import importlib
import secrets
from datetime import datetime
from typing import Annotated, Any
from urllib.parse import quote, urlencode

from fastapi import Query, Request
from fastapi.responses import Response
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool

from lazaretto.api import routes
from lazaretto.api.context import lang, services
from lazaretto.api.schemas import ClockChange, InviteCreate
from lazaretto.core.errors import InvalidInput, LazarettoError
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.reading.corrections import correction_text
from lazaretto.reading.lines import event_line
from lazaretto.web import card_text, cards, prefill
from lazaretto.web.forms import subject_field
from lazaretto.web.pages import (
    FLASH,
    OUTBOX,
    check_csrf,
    flash_record,
    frame,
    pop_flash,
    public_url,
    redirect,
    render,
    router,
    set_flash,
    who,
)

ROUTER = router()
HISTORY = 12


def _rows(
    found: list[dict[str, Any]], rs: Ruleset, state: CampaignState, now: datetime, lang: str
) -> list[dict[str, Any]]:
    """The list's rows: the caller's own characters first, then by next countdown,
    which says what happens then and when."""
    rows = [{**c, "next": cards.next_deadline(c)} for c in found]
    for r in rows:
        if r["next"]:
            r["next_what"] = card_text.due_what(rs, state, r["id"], r["next"], lang)
            r["next_when"] = card_text.when(r["next"], now)
    rows.sort(key=lambda c: (not c.get("mine"), c["next"] is None, c["next"] or "", c["id"]))
    return rows


def _card_path(campaign: str, character: str) -> str:
    return f"/c/{quote(campaign)}/ch/{quote(character, safe='')}"


def _matching(found: list[dict[str, Any]], q: str) -> list[dict[str, Any]]:
    needle = q.casefold()
    return [c for c in found if needle in c["id"].casefold() or needle in c["name"].casefold()]


def _campaign_page(
    request: Request, campaign: str, q: str = "", status: int = 200, **extra: Any
) -> Response:
    caller = who(request)
    camp = frame(request, caller, campaign)
    svc = services(request)
    found = svc.play.cards(caller.user, campaign, lang(request))
    shown = {c["id"] for c in found}
    others = [n for n in svc.play.names(caller.user, campaign) if n["id"] not in shown]
    if q:
        found, others = _matching(found, q), _matching(others, q)
    rs, state, _ = svc.campaigns.load(campaign)
    hospitals = prefill.directory(state).hospitals if camp.staff else ()
    late = (
        _late_waiting(svc.campaigns.late_waiting(campaign, camp.now), camp.now)
        if camp.master
        else None
    )
    response = render(
        request,
        "campaign.html",
        caller=caller,
        camp=camp,
        live=True,
        status=status,
        rows=_rows(found, rs, state, camp.now, lang(request)),
        others=others,
        q=q,
        hospitals=hospitals,
        late=late,
        # an action about no one (the weather, a hospital) is confirmed here, where it
        # lands, not later on whichever card opens next
        flash=pop_flash(request, caller),
        undo=flash_record(request, caller),
        **extra,
    )
    _shown_once(request, response)
    return response


def _late_waiting(
    waiting: tuple[int, datetime | None], now: datetime
) -> dict[str, Any] | None:
    """For the master's board during a Wi-Fi storm: how many late records (outboxes,
    a paper log) wait to be placed, and how far back in campaign time the oldest
    reaches; None when none waits."""
    count, oldest = waiting
    if not count or oldest is None:
        return None
    back = max(0, int((now - oldest).total_seconds() // 60))
    return {"count": count, "at": oldest.isoformat(), "back": back}


def _shown_once(request: Request, response: Response) -> None:
    """The confirmation has been shown: forget it. The outbox's fetch follows the
    redirect first, then the phone opens the page: the confirmation is for that page,
    so the fetch leaves it in place."""
    if FLASH in request.cookies and OUTBOX not in request.headers:
        response.delete_cookie(FLASH, path="/")


@ROUTER.get("/c/{campaign}")
def campaign_page(request: Request, campaign: str) -> Response:
    """Characters with state and next countdown; a master's clock and invites. A player
    with one character who may know of nobody else lands on their card."""
    caller = who(request)
    svc = services(request)
    mine = svc.play.landing(caller.user, campaign)
    if mine is not None and [n["id"] for n in svc.play.names(caller.user, campaign)] == [mine]:
        return redirect(_keeping_lang(request, _card_path(campaign, mine)))
    return _campaign_page(request, campaign)


@ROUTER.get("/c/{campaign}/find")
def find(request: Request, campaign: str, q: Annotated[str, Query(max_length=80)] = "") -> Response:
    """Find by passport number or by part of a name: one match opens the card."""
    caller = who(request)
    q = q.strip()
    if q:
        found = services(request).play.cards(caller.user, campaign, lang(request))
        exact = [c["id"] for c in found if c["id"] == q] or [c["id"] for c in _matching(found, q)]
        if len(exact) == 1:
            return redirect(_keeping_lang(request, _card_path(campaign, exact[0])))
    return _campaign_page(request, campaign, q=q)


def _keeping_lang(request: Request, path: str) -> str:
    """``path``, with the ``?lang=`` the request was asked in (a redirect keeps it)."""
    chosen = request.query_params.get("lang")
    return f"{path}?{urlencode({'lang': chosen})}" if chosen else path


CORRECTIONS = 5


def _corrections(
    request: Request, user: Any, campaign: str, character: str, language: str
) -> list[str]:
    """The latest corrections about the character, as lines (what a late record or
    an undo changed of what the card showed before)."""
    svc = services(request)
    found = svc.play.corrections(user, campaign, about=character)[-CORRECTIONS:]
    if not found:
        return []
    rs, state, _ = svc.campaigns.load(campaign)
    return [correction_text(rs, state, c, language) for c in reversed(found)]


@ROUTER.post("/c/{campaign}/records/{record}/undo")
async def undo(request: Request, campaign: str, record: int) -> Response:
    """The confirmation's Undo: take the record back, show what that changed."""
    caller = who(request)
    form = await request.form()
    check_csrf(form, caller)
    svc = services(request)
    back = form.get("back")
    target = (
        f"/c/{quote(campaign)}/ch/{quote(back, safe='')}"
        if isinstance(back, str) and back
        else f"/c/{quote(campaign)}"
    )
    language = lang(request)
    await run_in_threadpool(svc.play.void, caller.user, campaign, record, "undo on the web")
    response = redirect(target)
    set_flash(
        response,
        caller,
        [f"запись {record} отменена" if language == "ru" else f"record {record} undone"],
    )
    return response


@ROUTER.get("/c/{campaign}/ch/{character}")
def card_page(request: Request, campaign: str, character: str) -> Response:
    """A character's card: state, hits, countdowns, may/may not, quick buttons."""
    caller = who(request)
    camp = frame(request, caller, campaign)
    svc = services(request)
    language = lang(request)
    card = svc.play.card(caller.user, campaign, character, language)
    rs, state, _ = svc.campaigns.load(campaign)  # for the unhurt baseline and the master's log
    quick = [
        (q, rs.actions[q.action], subject_field(rs.actions[q.action].input))
        for q in cards.quick_buttons(rs, camp.role, card, state)
    ]
    history: list[str] = []
    if camp.role is Role.MASTER:  # the event log is the master's (it shows everything)
        # the latest events naming the character, through the subject index (a weekend's
        # log is tens of thousands of events); some kinds print no line, hence the slack
        mine = svc.campaigns.events(campaign, about=character, limit=4 * HISTORY, latest=True)
        lines = (event_line(rs, state, e, language, {}) for e in reversed(mine))
        history = [ln for ln in lines if ln][:HISTORY]
    response = render(
        request,
        "card.html",
        caller=caller,
        camp=camp,
        live=True,
        about=character,
        **card_text.readable(
            rs,
            state,
            card,
            svc.play.card(caller.user, campaign, character, card_text.other(language)),
            cards.forbidden(card, cards.baseline(rs, state, language)),
            card_text.Names.known(state, camp.staff, camp.characters),
            camp.now,
            language,
        ),
        quick=quick,
        actions=cards.card_actions(rs, camp.role, card),
        history=history,
        flash=pop_flash(request, caller),
        undo=flash_record(request, caller),
        corrections=_corrections(request, caller.user, campaign, character, language),
        key=lambda: secrets.token_urlsafe(12),
    )
    _shown_once(request, response)
    return response


def _qr_svg(url: str) -> Markup | None:
    """An inline SVG QR code of ``url`` if the optional ``segno`` package is installed."""
    try:
        segno: Any = importlib.import_module("segno")
    except ImportError:
        return None
    svg = segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff")
    return Markup(str(svg))  # segno's own SVG markup (the URL is escaped inside)


@ROUTER.get("/c/{campaign}/ch/{character}/passport")
def passport(request: Request, campaign: str, character: str) -> Response:
    """A printable passport with a QR code that opens the card."""
    caller = who(request)
    camp = frame(request, caller, campaign)
    card = services(request).play.card(caller.user, campaign, character, lang(request))
    url = public_url(request) + f"/c/{campaign}/ch/{character}"
    return render(
        request, "passport.html", caller=caller, camp=camp, card=card, url=url, qr=_qr_svg(url)
    )


@ROUTER.post("/c/{campaign}/clock")
async def clock(request: Request, campaign: str) -> Response:
    """A master moves the clock: advance by a duration, pause or resume (as the API)."""
    caller = who(request)
    form = await request.form()
    check_csrf(form, caller)
    op, by = str(form.get("op") or ""), str(form.get("by") or "").strip() or None
    svc = services(request)
    try:
        if op not in ("advance", "pause", "resume") or len(by or "") > 20:
            raise InvalidInput(
                "Clock: advance by a duration (e.g. 10m), pause or resume",
                ru="Часы: перевести на длительность (например, 10m), пауза или продолжить",
            )
        await run_in_threadpool(routes.clock, campaign, op, ClockChange(by=by), svc, caller)
    except LazarettoError as err:
        return await run_in_threadpool(
            _campaign_page, request, campaign, "", err.http_status, error=err.text(lang(request))
        )
    return redirect(f"/c/{campaign}")


@ROUTER.post("/c/{campaign}/invite")
async def invite(request: Request, campaign: str) -> Response:
    """A master creates a one-use invite code (role, optionally a character)."""
    caller = who(request)
    form = await request.form()
    check_csrf(form, caller)
    role = str(form.get("role") or "player")
    character = str(form.get("character") or "").strip() or None
    svc = services(request)
    try:
        if role not in ("master", "healer", "player") or len(character or "") > 40:
            raise InvalidInput(
                "An invite is for a master, a healer or a player",
                ru="Приглашение — для мастера, лекаря или игрока",
            )
        body = InviteCreate(role=role, character=character)
        made = await run_in_threadpool(routes.invite, campaign, body, svc, caller)
    except LazarettoError as err:
        return await run_in_threadpool(
            _campaign_page, request, campaign, "", err.http_status, error=err.text(lang(request))
        )
    return await run_in_threadpool(
        _campaign_page, request, campaign, "", 201, invite=made.code, invite_role=made.role
    )
