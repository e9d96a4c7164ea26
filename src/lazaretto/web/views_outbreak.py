"""The outbreak screen (warhammer-larp masters): pick the people around from a list.

An outbreak's input names everyone near the carrier with their distance; the
generated form asks for them as ``character=…, distance_m=…`` lines. Here each
character is a row — a tick for "there", a distance in metres, inside or not — and
the answer lists, from the outbreak's own events, who got a sticker and why the
others did not. The action is the ruleset's ``start-outbreak`` run through
:meth:`PlayService.act`, with the form's idempotency key (a double tap records once).
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from lazaretto.api.context import Caller, lang, services
from lazaretto.core.errors import InvalidInput, LazarettoError, NotFound
from lazaretto.core.registry import get_ruleset
from lazaretto.core.ruleset import Role
from lazaretto.reading.lines import event_line
from lazaretto.web import errtext, prefill
from lazaretto.web.pages import Frame, check_csrf, frame, render, router, tap_time, who

ROUTER = router()
ACTION = "start-outbreak"


def _page(
    request: Request,
    caller: Caller,
    camp: Frame,
    *,
    sent: dict[str, Any] | None = None,
    lines: list[str] | None = None,
    error: str = "",
    status: int = 200,
) -> Response:
    svc = services(request)
    svc.play.require(caller.user, camp.id, Role.MASTER)
    rs = get_ruleset(camp.ruleset)
    if ACTION not in rs.actions:
        raise NotFound(f"No outbreaks in {rs.id}", ru=f"В {rs.id} нет вспышек заражения")
    _, state, _ = svc.campaigns.load(camp.id)
    d = prefill.directory(state)
    certificates = [
        (cid, label)
        for cid, label in d.certificates
        if getattr(state, "certificates", {}).get(cid, {}).get("kind") == "outbreak"
    ]
    return render(
        request,
        "outbreak.html",
        caller=caller,
        camp=camp,
        status=status,
        characters=d.characters,
        certificates=certificates,
        diseases=d.diseases,
        sent=sent or {},
        lines=lines,
        error=errtext.for_web(error, rs, lang(request)),
        key=secrets.token_urlsafe(16),
    )


@ROUTER.get("/c/{campaign}/outbreak")
def outbreak_page(request: Request, campaign: str) -> Response:
    """The outbreak form: carrier, place, certificate and the people around."""
    caller = who(request)
    return _page(request, caller, frame(request, caller, campaign))


def _raw(form: FormData) -> dict[str, Any]:
    """The action's input from the form (only what was filled in or ticked)."""
    text = {k: str(v).strip() for k, v in form.items() if isinstance(v, str)}
    raw: dict[str, Any] = {"carrier": text.get("carrier", ""), "place": text.get("place", "")}
    for name in ("certificate", "disease", "building"):
        if text.get(name):
            raw[name] = text[name]
    if text.get("distance_from_entrance_m"):
        raw["distance_from_entrance_m"] = text["distance_from_entrance_m"]
    if "1" in form.getlist("announced"):
        raw["announced"] = True
    people = []
    for cid in form.getlist("here"):
        distance = text.get(f"d.{cid}", "")
        if not distance:
            raise InvalidInput(
                f"Character {cid} is ticked as there: give their distance in metres",
                ru=f"Персонаж {cid} отмечен как присутствующий: укажите расстояние в метрах",
            )
        people.append(
            {"character": str(cid), "distance_m": distance, "inside": f"in.{cid}" in form}
        )
    raw["people"] = people
    return raw


@ROUTER.post("/c/{campaign}/outbreak")
async def run_outbreak(request: Request, campaign: str) -> Response:
    """Start the outbreak; show who got a sticker and why not, or the refusal."""
    caller = who(request)
    form = await request.form()
    check_csrf(form, caller)
    camp = await run_in_threadpool(frame, request, caller, campaign)
    svc = services(request)
    language = lang(request)
    sent = {k: v for k, v in form.multi_items() if isinstance(v, str)}
    try:
        raw = _raw(form)
        key = form.get("idem")
        events = await run_in_threadpool(
            lambda: svc.play.act(
                caller.user,
                campaign,
                ACTION,
                raw,
                at=tap_time(form),
                idempotency_key=key if isinstance(key, str) and key else None,
            )
        )
    except LazarettoError as err:
        message, status = err.text(language), err.http_status
        return await run_in_threadpool(
            lambda: _page(request, caller, camp, sent=sent, error=message, status=status)
        )
    rs, state, _ = await run_in_threadpool(svc.campaigns.load, campaign)
    lines = [
        ln
        for ln in (event_line(rs, state, e, language, {}) for e in events if e.action == ACTION)
        if ln
    ]
    return await run_in_threadpool(lambda: _page(request, caller, camp, lines=lines))
