"""The epidemics screen (warhammer-larp masters): each epidemic as a task, not a table.

Waves, infected, cured, the next wave as a live countdown and the stickers left, from
the ruleset's ``epidemic-status`` query (so the page says what the API says); the labs
of the campaign with their points and batches below, each opening its ``lab-status``.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import Response

from lazaretto.api.context import lang, services
from lazaretto.core.errors import NotFound
from lazaretto.core.registry import get_ruleset
from lazaretto.core.ruleset import Role
from lazaretto.web.pages import FLASH, flash_record, frame, pop_flash, render, router, who
from lazaretto.web.views_campaign import OUTBOX

ROUTER = router()


@ROUTER.get("/c/{campaign}/epidemics")
def epidemics(request: Request, campaign: str) -> Response:
    """Every epidemic with its next wave counting down; the labs' points and batches."""
    caller = who(request)
    camp = frame(request, caller, campaign)
    svc = services(request)
    svc.play.require(caller.user, campaign, Role.MASTER)
    if "epidemic-status" not in get_ruleset(camp.ruleset).queries:
        raise NotFound(f"No epidemics in {camp.ruleset}", ru=f"В {camp.ruleset} нет эпидемий")
    language = lang(request)
    answer = svc.play.query(caller.user, campaign, "epidemic-status", {}, language)
    _, state, _ = svc.campaigns.load(campaign)
    places = {loc.id: loc.name for loc in getattr(state, "locations", {}).values()}
    rows: list[dict[str, Any]] = [
        {**e, "place": places.get(e["location"], e["location"])} for e in answer["epidemics"]
    ]
    labs = [
        {"id": lab.id, "name": lab.name, "points": lab.points, "batches": lab.batches}
        for lab in getattr(state, "labs", {}).values()
    ]
    response = render(
        request,
        "epidemics.html",
        caller=caller,
        camp=camp,
        live=True,
        rows=rows,
        labs=labs,
        flash=pop_flash(request, caller),  # a wave run from here is confirmed here
        undo=flash_record(request, caller),
    )
    if FLASH in request.cookies and OUTBOX not in request.headers:
        response.delete_cookie(FLASH, path="/")
    return response
