"""The GM screen of a tabletop campaign: the party at a glance, the common actions one
tap from each character, the dice roller with exact odds, and the game day.

``GET /c/{campaign}/gm`` (masters of a dnd5e-injuries, ide4-survival or fantasy-server
campaign); ``?dice=EXPR`` rolls the expression once (not recorded: a table roll, like
dice on the table) and shows its exact odds from :mod:`lazaretto.core.dice`. The page
follows the campaign live, like the character list.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Annotated, Any

from fastapi import Query, Request
from fastapi.responses import Response

from lazaretto.api.context import lang, services
from lazaretto.core.dice import parse
from lazaretto.core.errors import LazarettoError, NotFound
from lazaretto.core.registry import get_ruleset
from lazaretto.core.ruleset import Role
from lazaretto.service import menus
from lazaretto.web import cards, gm
from lazaretto.web.pages import frame, render, router, who

ROUTER = router()
BARS = 40
"""Totals drawn as bars at most (a 10d10's 91 totals are summed up, not drawn)."""


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
    columns = gm.COLUMNS[camp.ruleset]
    party = [
        {"card": c, "cells": columns(c, state, language), "next": cards.next_deadline(c)}
        for c in svc.play.cards(caller.user, campaign, language)
    ]
    answer: dict[str, Any] | None = None
    error = ""
    if dice.strip():
        try:
            answer = dice_answer(dice.strip())
        except LazarettoError as err:
            error = err.text(language)
    common = [rs.actions[a] for a in menus.COMMON[camp.ruleset] if a in rs.actions]
    wide = [rs.actions[a] for a in menus.PARTY_WIDE[camp.ruleset] if a in rs.actions]
    return render(
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
        dice=dice,
        answer=answer,
        error=error,
        short=menus.short,
    )
