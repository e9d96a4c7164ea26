"""The GM screen of a tabletop campaign: the party at a glance, the common actions one
tap from each character, the dice roller with exact odds, and the game day.

``GET /c/{campaign}/gm`` (masters of a dnd5e-injuries, ide4-survival or fantasy-server
campaign); ``?dice=EXPR`` rolls the expression once (not recorded: a table roll, like
dice on the table) and shows its exact odds from :mod:`lazaretto.core.dice`. The page
follows the campaign live, like the character list. Its buttons open action forms that
come back here (``back=gm``), where what was recorded is confirmed; ``POST
/c/{campaign}/gm/clock`` moves the game clock on from here.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Annotated, Any

from fastapi import Query, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from lazaretto.api import routes
from lazaretto.api.context import lang, services
from lazaretto.api.schemas import ClockChange
from lazaretto.core.dice import parse
from lazaretto.core.errors import InvalidInput, LazarettoError, NotFound
from lazaretto.core.registry import get_ruleset
from lazaretto.core.ruleset import Role
from lazaretto.reading.lines import hhmm
from lazaretto.service import menus
from lazaretto.web import cards, gm
from lazaretto.web.pages import (
    FLASH,
    OUTBOX,
    check_csrf,
    flash_record,
    frame,
    pop_flash,
    redirect,
    render,
    router,
    set_flash,
    who,
)

ROUTER = router()
BARS = 40
"""Totals drawn as bars at most (a 10d10's 91 totals are summed up, not drawn)."""
STEPS = ("1h", "3h", "6h")
"""The clock's one-tap steps on the GM screen (any duration can be typed)."""


def dice_answer(text: str) -> dict[str, Any]:
    """One roll of ``text`` and its exact odds: mean, range, success, the distribution."""
    expr = parse(text)
    result = expr.roll(random.SystemRandom())
    dist = expr.distribution()
    mean = sum((Fraction(k) * p for k, p in dist.items()), Fraction(0))
    success = expr.probability_of_success() if result.success is not None else None
    top = max(dist.values()) if dist else Fraction(1)
    bars = (
        [(k, float(p * 100), float(p / top * 100)) for k, p in dist.items()]
        if len(dist) <= BARS
        else []
    )
    return {
        "text": text,
        "roll": result.to_dict(),
        "mean": float(mean),
        "min": expr.min(),
        "max": expr.max(),
        "success": None if success is None else (str(success), float(success * 100)),
        "bars": bars,
    }


@ROUTER.get("/c/{campaign}/gm")
def gm_screen(
    request: Request, campaign: str, dice: Annotated[str, Query(max_length=80)] = ""
) -> Response:
    """The party, their common actions, the dice roller and the game day (masters)."""
    caller = who(request)
    camp = frame(request, caller, campaign)
    svc = services(request)
    svc.play.require(caller.user, campaign, Role.MASTER)
    if camp.ruleset not in gm.TABLETOP:
        raise NotFound(
            f"No GM screen for {camp.ruleset}: it is for tabletop rulesets "
            f"({', '.join(gm.TABLETOP)})",
            ru=f"Для {camp.ruleset} нет экрана ведущего: он для настольных правил "
            f"({', '.join(gm.TABLETOP)})",
        )
    language = lang(request)
    rs = get_ruleset(camp.ruleset)
    _, state, _ = svc.campaigns.load(campaign)
    found = svc.play.cards(caller.user, campaign, language)
    today: dict[str, Any] = {}
    if camp.ruleset in gm.DAY_QUERY:
        today = svc.play.query(caller.user, campaign, gm.DAY_QUERY[camp.ruleset], {}, language)
    table = gm.Table(
        rs,
        state,
        camp.now,
        language,
        {c["id"]: gm.due_lines(today, c, rs, language) for c in found},
    )
    columns = gm.COLUMNS[camp.ruleset]
    # the party in a steady order (by name), so a row does not move after a tap
    party = [
        {
            "card": c,
            "cells": columns(c, table),
            "next": cards.next_deadline(c),
            "quick": gm.quick(c, table),
        }
        for c in sorted(found, key=lambda c: (not c.get("mine"), str(c["name"]).casefold()))
    ]
    answer: dict[str, Any] | None = None
    error = ""
    if dice.strip():
        try:
            answer = dice_answer(dice.strip())
        except LazarettoError as err:
            error = err.text(language)
    common = [
        (rs.actions[a], "characters" if gm.list_field(rs, a) else "character")
        for a in menus.COMMON[camp.ruleset]
        if a in rs.actions
    ]
    wide = [rs.actions[a] for a in menus.PARTY_WIDE[camp.ruleset] if a in rs.actions]
    response = render(
        request,
        "gm.html",
        caller=caller,
        camp=camp,
        live=not dice,
        status=422 if error else 200,
        party=party,
        common=common,
        wide=wide,
        day=gm.game_day(state, camp.now, language),
        steps=gm.day_steps(today),
        clock_steps=STEPS,
        dice=dice,
        answer=answer,
        error=error,
        short=menus.short,
        flash=pop_flash(request, caller),
        undo=flash_record(request, caller),
    )
    if FLASH in request.cookies and OUTBOX not in request.headers:
        response.delete_cookie(FLASH, path="/")  # the confirmation has been shown
    return response


@ROUTER.post("/c/{campaign}/gm/clock")
async def gm_clock(request: Request, campaign: str) -> Response:
    """The GM moves the game clock on by a duration (``1h``, ``30m``) and comes back to
    the GM screen, where the new time and what fell due are shown."""
    caller = who(request)
    form = await request.form()
    check_csrf(form, caller)
    by = str(form.get("by") or "").strip()
    svc = services(request)
    language = lang(request)
    if not by or len(by) > 20:
        raise InvalidInput(
            "The clock moves on by a duration, e.g. 1h or 30m",
            ru="Часы переводятся на длительность, например 1h или 30m",
        )
    await run_in_threadpool(routes.clock, campaign, "advance", ClockChange(by=by), svc, caller)
    now = await run_in_threadpool(lambda: svc.campaigns.clock(campaign).now())
    response = redirect(f"/c/{campaign}/gm")
    line = f"+{by} → {hhmm(now)}"
    set_flash(response, caller, [f"{'Время' if language == 'ru' else 'Game time'} {line}"])
    return response
