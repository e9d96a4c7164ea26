"""Files a master takes home after the game: each character's medical outcome as CSV.

``/c/{campaign}/outcomes.csv`` is the campaign page's download of what
``lazaretto export characters`` and ``GET /api/campaigns/{campaign}/export/characters``
give (:mod:`lazaretto.service.exports`, docs/joinrpg.md), masters only: it names every
character's state, death and diseases. The API answer would do for a browser too (it
takes the session cookie), but a page's download is opened in a spreadsheet: it gets a
UTF-8 BOM, as the journal's CSV and the CLI's file do, so that Excel reads the
Cyrillic headers and names right, and a refusal is the HTML error page in the page's
language rather than JSON.
"""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import Response

from lazaretto.api.context import lang, services
from lazaretto.core.ruleset import Role
from lazaretto.service.exports import character_outcomes, content_disposition, outcomes_csv
from lazaretto.web.pages import router, who

ROUTER = router()


@ROUTER.get("/c/{campaign}/outcomes.csv")
def outcomes(request: Request, campaign: str) -> Response:
    """Every character's outcome (masters), headers in the page's language."""
    caller = who(request)
    svc = services(request)
    svc.play.require(caller.user, campaign, Role.MASTER)
    svc.campaigns.catch_up(campaign)  # a countdown that ran out is a death in the table
    language = lang(request)
    rows = character_outcomes(svc.campaigns, campaign, language)
    return Response(
        "\ufeff" + outcomes_csv(rows, language),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": content_disposition(f"characters-{campaign}.csv")},
    )
