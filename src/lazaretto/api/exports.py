"""``GET /api/campaigns/{campaign}/export/characters``: the results, for a spreadsheet.

The API side of ``lazaretto export characters`` (:mod:`lazaretto.service.outcomes`):
each character's medical outcome after the game, as CSV (headers in the caller's
language, cells neutralised against formulas, as the journal's export) or JSON.
Masters only: it names every character's state, death and diseases.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Query, Response

from lazaretto.api.context import CallerDep, LangDep, ServicesDep
from lazaretto.core.ruleset import Role
from lazaretto.service.exports import character_outcomes, content_disposition, outcomes_csv

router = APIRouter(prefix="/api/campaigns/{campaign}", tags=["export"])

_CSV_EXAMPLE = (
    "id,name,group,state,alive,died at (campaign time),cause of death,diseases had,"
    "diseases cured,days in hospital\n1001,Vera,Hospital,dead,no,2026-06-13T14:05,"
    "unbandaged_heavy,GF-1,,0.25\n"
)


@router.get(
    "/export/characters",
    summary="Each character's medical outcome (CSV or JSON), for the masters",
    responses={
        200: {
            "description": "one row per character: id, name, group, state, alive, died at, "
            "cause, diseases had, diseases cured, days in hospital",
            "content": {"text/csv": {"example": _CSV_EXAMPLE}, "application/json": {}},
        },
        403: {"description": "only the campaign's masters export"},
    },
)
def export_characters(
    campaign: str,
    svc: ServicesDep,
    who: CallerDep,
    lang: LangDep,
    format: Literal["csv", "json"] = Query("csv", description="csv or json"),
) -> Any:
    """The outcome per character after the game; CSV downloads as a file."""
    svc.play.require(who.user, campaign, Role.MASTER)
    svc.campaigns.catch_up(campaign)
    rows = character_outcomes(svc.campaigns, campaign, lang)
    if format == "json":
        return rows
    name = content_disposition(f"characters-{campaign}.csv")
    return Response(
        outcomes_csv(rows, lang),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": name},
    )
