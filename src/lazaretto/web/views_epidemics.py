"""The epidemics screen (warhammer-larp masters): each epidemic as a task, not a table.

Waves, infected, cured, the next wave as a live countdown and the stickers left, from
the ruleset's ``epidemic-status`` query (so the page says what the API says); the labs
of the campaign with their points and batches below, each opening its ``lab-status``.

A wave is run from its own screen (``/epidemics/{id}/wave``), like the outbreak's: the
characters are a list to tick by name and passport number, in the order the masters met
them (A-W-22: when the wave's stickers run short, the first met get them), each with
whether they wear full protection right now (W-PROT-01). The action is the ruleset's
``epidemic-wave`` run through :meth:`PlayService.act` with the form's idempotency key and
the tap time the phone's outbox gives it.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from lazaretto.api.context import Caller, Services, lang, services
from lazaretto.core.errors import LazarettoError, NotFound
from lazaretto.core.registry import get_ruleset
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.reading.lines import event_line
from lazaretto.rulesets.warhammer_larp.epidemics import disease_name
from lazaretto.rulesets.warhammer_larp.params import WarhammerParams
from lazaretto.rulesets.warhammer_larp.protection import outfit_level
from lazaretto.rulesets.warhammer_larp.state import WarhammerState
from lazaretto.web import errtext, prefill
from lazaretto.web.pages import (
    FLASH,
    OUTBOX,
    Frame,
    check_csrf,
    flash_record,
    frame,
    pop_flash,
    redirect,
    render,
    router,
    set_flash,
    tap_time,
    who,
)

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


WAVE = "epidemic-wave"


def _warhammer(svc: Services, campaign: str) -> tuple[Ruleset, WarhammerState, WarhammerParams]:
    """The campaign's ruleset, state and parameters, if it runs epidemics."""
    rs, state, _ = svc.campaigns.load(campaign)
    p = rs.campaign_params(state.params)
    if WAVE not in rs.actions or not isinstance(state, WarhammerState):
        raise NotFound(f"No epidemics in {rs.id}", ru=f"В {rs.id} нет эпидемий")
    assert isinstance(p, WarhammerParams)
    return rs, state, p


def _wave_page(
    request: Request,
    caller: Caller,
    camp: Frame,
    eid: str,
    *,
    sent: FormData | None = None,
    error: str = "",
    status: int = 200,
) -> Response:
    """The wave form of epidemic ``eid``: the people met, ticked from the list."""
    svc = services(request)
    svc.play.require(caller.user, camp.id, Role.MASTER)
    rs, state, p = _warhammer(svc, camp.id)
    epi = state.epidemics.get(eid)
    if epi is None:
        raise NotFound(f"No epidemic {eid!r}", ru=f"Нет эпидемии {eid!r}")
    protected = _fully_protected(state, p)
    met = set(sent.getlist("met")) if sent is not None else set()
    order = _order(sent) if sent is not None else []
    people = [
        {
            "id": cid,
            "name": name,
            "met": cid in met,
            "no": order.index(cid) + 1 if cid in order else None,
            "full": (f"full.{cid}" in sent) if sent is not None else cid in protected,
        }
        for cid, name in prefill.directory(state).characters
    ]
    places = {loc.id: loc.name for loc in state.locations.values()}
    minutes = str(sent.get("minutes") or "") if sent is not None else ""
    return render(
        request,
        "epidemic_wave.html",
        caller=caller,
        camp=camp,
        status=status,
        epi=epi,
        disease=disease_name(state, epi.disease),
        place=places.get(epi.location, epi.location),
        wave_no=len(epi.waves) + 1,
        max_minutes=p.epidemic_wave_max_minutes,
        minutes=minutes or str(p.epidemic_wave_max_minutes),
        order=json.dumps(order),
        people=people,
        error=errtext.for_web(error, rs, lang(request)),
        key=secrets.token_urlsafe(16),
    )


def _fully_protected(state: WarhammerState, p: WarhammerParams) -> set[str]:
    """The characters whose recorded outfit is full protection (W-PROT-01)."""
    return {
        c.id
        for c in state.characters.values()
        if outfit_level(p, c.data.get("outfit", [])) == "full"
    }


def _order(form: FormData) -> list[str]:
    """The ticked characters in the order they were ticked (static/wave.js keeps it in
    ``order``); without the script, or past what it knew, the list's order."""
    ticked = [str(c) for c in form.getlist("met")]
    try:
        kept = json.loads(str(form.get("order") or "[]"))
    except ValueError:
        kept = []
    first = (
        [c for c in kept if isinstance(c, str) and c in ticked] if isinstance(kept, list) else []
    )
    return list(dict.fromkeys([*first, *ticked]))


def _wave_input(eid: str, form: FormData, protected: set[str], full: list[str]) -> dict[str, Any]:
    """The ``epidemic-wave`` input: each ticked character in the order met, with their
    outfit only where the master saw other than what is recorded (W-PROT-01)."""
    present: list[dict[str, Any]] = []
    for cid in _order(form):
        person: dict[str, Any] = {"character": cid}
        wears = f"full.{cid}" in form
        if wears != (cid in protected):
            person["outfit"] = list(full) if wears else []
        present.append(person)
    raw: dict[str, Any] = {"epidemic": eid, "present": present}
    minutes = str(form.get("minutes") or "").strip()
    if minutes:
        raw["minutes"] = minutes
    return raw


@ROUTER.get("/c/{campaign}/epidemics/wave")
def wave_page(request: Request, campaign: str, epidemic: str = "") -> Response:
    """The wave form of ``epidemic``: how long it lasts and the people the masters meet.
    Without one named, the only epidemic going on, or the epidemics screen to pick from."""
    caller = who(request)
    camp = frame(request, caller, campaign)
    svc = services(request)
    svc.play.require(caller.user, campaign, Role.MASTER)
    if not epidemic:
        _, state, _ = _warhammer(svc, campaign)
        going = [e.id for e in state.epidemics.values() if e.status == "active"]
        if len(going) != 1:
            return redirect(f"/c/{camp.id}/epidemics")
        epidemic = going[0]
    return _wave_page(request, caller, camp, epidemic)


@ROUTER.post("/c/{campaign}/epidemics/wave")
async def run_wave(request: Request, campaign: str) -> Response:
    """Run the wave; back to the epidemics screen with what it did, or the refusal."""
    caller = who(request)
    form = await request.form()
    check_csrf(form, caller)
    camp = await run_in_threadpool(frame, request, caller, campaign)
    svc = services(request)
    await run_in_threadpool(svc.play.require, caller.user, campaign, Role.MASTER)
    language = lang(request)
    epidemic = str(form.get("epidemic") or "")

    def run() -> tuple[list[str], int | None]:
        _, state, p = _warhammer(svc, campaign)
        raw = _wave_input(epidemic, form, _fully_protected(state, p), p.full_protection_items)
        key = form.get("idem")
        events = svc.play.act(
            caller.user,
            campaign,
            WAVE,
            raw,
            at=tap_time(form),
            idempotency_key=key if isinstance(key, str) and key else None,
        )
        rs, after, _ = svc.campaigns.load(campaign)
        lines = (
            event_line(rs, after, e, language, {})
            for e in events
            if e.action == WAVE and not e.kind.startswith("timer.")
        )
        return [ln for ln in lines if ln], getattr(events, "record", None)

    try:
        lines, record = await run_in_threadpool(run)
    except LazarettoError as err:
        message, status = err.text(language), err.http_status
        return await run_in_threadpool(
            lambda: _wave_page(
                request, caller, camp, epidemic, sent=form, error=message, status=status
            )
        )
    response = redirect(f"/c/{camp.id}/epidemics")
    if lines:
        set_flash(response, caller, lines, record)
    return response
