"""Action forms: one per ruleset action, generated from its declaration.

``GET /c/{campaign}/act/{action}?character=ID`` shows the form prefilled for that
character; ``POST`` runs the action through :meth:`PlayService.act` with the form's
idempotency key, so a double tap or a retried request records it once. A refusal
re-renders the form with the one-line message (rule IDs included) and the error's
status (409 for a rule, 422 for bad input); success goes (303) to the character's card,
which shows once what was recorded.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
from typing import Any
from urllib.parse import parse_qsl

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile

from lazaretto.api.context import Caller, committed, lang, services
from lazaretto.core.errors import Forbidden, InvalidInput, LazarettoError, NotFound
from lazaretto.core.events import Event
from lazaretto.core.registry import get_ruleset
from lazaretto.core.ruleset import ActionSpec, Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.reading.lines import event_line
from lazaretto.service import menus
from lazaretto.service.accounts import Membership
from lazaretto.service.play import OUTBOX_MAX, queue_in_order
from lazaretto.web import errtext, forms, picks, prefill
from lazaretto.web.pages import (
    Frame,
    check_csrf,
    frame,
    known_to,
    redirect,
    render,
    router,
    set_flash,
    tap_time,
    who,
)

ROUTER = router()
BACK = {"gm": "gm", "epidemics": "epidemics"}
"""Screens a form may send the user back to after recording (``?back=gm``): the GM
screen or the epidemics screen, where the confirmation is shown, instead of the
character's card."""


def _spec(camp: Frame, action: str) -> tuple[Ruleset, ActionSpec[Any]]:
    rs = get_ruleset(camp.ruleset)
    spec = rs.actions.get(action)
    if spec is None:
        raise NotFound(f"No action {action!r} in {rs.id}", ru=f"Нет действия {action!r} в {rs.id}")
    if camp.role not in spec.roles:
        raise Forbidden(
            f"A {camp.role.value} may not {action}", ru=f"Роль {camp.role.value}: нельзя {action}"
        )
    return rs, spec


def _form_page(
    request: Request,
    caller: Caller,
    camp: Frame,
    action: str,
    values: Mapping[str, str] | None,
    *,
    key: str | None = None,
    error: str = "",
    status: int = 200,
    back: str | None = None,
) -> Response:
    """The form, with ``values`` (a re-render) or prefilled from the query string."""
    svc = services(request)
    language = lang(request)
    rs, spec = _spec(camp, action)
    _, state, _ = svc.campaigns.load(camp.id)

    def skill(name: str) -> str:  # a check is offered by whose and which skill
        return rs.text(f"skill:{name}", language) or name

    directory = prefill.directory(state, known_to(svc, caller, camp), skill)
    member = Membership(camp.id, camp.role, camp.characters)
    back = back or request.query_params.get("back") or ""
    if values is None:
        query = {k: v for k, v in request.query_params.items() if k not in ("lang", "back")}
        about = query.get("character") or query.get(forms.subject_field(spec.input) or "")
        card = svc.play.card(caller.user, camp.id, about, language) if about else None
        values = prefill.defaults(spec.input, member, query, directory, card)
    params = rs.campaign_params(state.params)
    checklist = getattr(params, "props_checklists", {}).get(action, [])
    return render(
        request,
        "action.html",
        caller=caller,
        camp=camp,
        status=status,
        spec=spec,
        summary=spec.summary(language),
        fields=forms.fields(
            spec.input,
            values,
            language,
            picks.picks(rs.id, action, spec.input, camp.role, directory),
        ),
        lists=prefill.suggestions(spec.input, member, directory),
        checklist=[
            (getattr(c, "rule", ""), getattr(c, language, "") or getattr(c, "en", ""))
            for c in checklist
        ],
        key=key or secrets.token_urlsafe(16),
        error=errtext.for_web(error, rs, language),
        back=back if back in BACK else "",
    )


@ROUTER.get("/c/{campaign}/actions")
def actions(request: Request, campaign: str, q: str = "") -> Response:
    """The actions the caller's role may perform, in their groups (service/menus.py);
    ``q`` keeps those whose name, summary or group contains it."""
    caller = who(request)
    camp = frame(request, caller, campaign)
    rs = get_ruleset(camp.ruleset)
    language = lang(request)
    needle = q.strip().casefold()[:80]
    mine = {
        s.name: s
        for s in rs.actions.values()
        if camp.role in s.roles
        and (
            not needle
            or needle in s.name
            or needle in s.summary(language).casefold()
            or needle in menus.group_name(menus.group_of(rs.id, s.name), language).casefold()
        )
    }
    groups = [
        (menus.group_name(g, language), [mine[n] for n in sorted(names)])
        for g, names in menus.grouped(rs.id, list(mine))
    ]
    return render(
        request, "actions.html", caller=caller, camp=camp, groups=groups, q=q, count=len(mine)
    )


@ROUTER.get("/c/{campaign}/act/{action}")
def action_form(request: Request, campaign: str, action: str) -> Response:
    """The form of ``action``, prefilled (``?character=ID`` and any field by name)."""
    caller = who(request)
    camp = frame(request, caller, campaign)
    return _form_page(request, caller, camp, action, None)


def _run(
    request: Request, caller: Caller, camp: Frame, action: str, form: FormData
) -> tuple[str, list[str], int | None]:
    """Run the action; the page to go to, the lines of what was recorded, its record."""
    tap = _submit(request, caller, camp, action, form)
    events = tap.sent.result()
    return _told(request, camp, services(request).campaigns.load(camp.id)[1], tap, events)


@dataclass
class _Tap:
    """A form's action queued for its group commit."""

    action: str
    form: FormData
    raw: dict[str, Any]
    sent: Future[list[Event]]


def _submit(request: Request, caller: Caller, camp: Frame, action: str, form: FormData) -> _Tap:
    """Queue the form's action (the checks are made now; a refusal is raised here)."""
    svc = services(request)
    _, spec = _spec(camp, action)
    raw = forms.parse(spec.input, form)
    key = form.get("idem")
    sent = svc.play.submit_act(
        caller.user,
        camp.id,
        action,
        raw,
        at=tap_time(form),
        idempotency_key=key if isinstance(key, str) and key else None,
    )
    return _Tap(action, form, raw, sent)


def _told(
    request: Request, camp: Frame, state: CampaignState, tap: _Tap, events: list[Event]
) -> tuple[str, list[str], int | None]:
    """The page to go to after ``tap`` recorded ``events``, the lines of what it
    recorded (named as in ``state``, read after it) and its record."""
    rs, spec = _spec(camp, tap.action)
    language = lang(request)
    own = (
        event_line(rs, state, e, language, {})
        for e in events
        if e.action == tap.action and not e.kind.startswith("timer.")  # its own line says when
    )
    subject = tap.raw.get(forms.subject_field(spec.input) or "")
    target = f"/c/{camp.id}/ch/{subject}" if isinstance(subject, str) else f"/c/{camp.id}"
    back = tap.form.get("back")
    if isinstance(back, str) and back in BACK:  # the screen the form was opened from
        target = f"/c/{camp.id}/{BACK[back]}"
    return target, [ln for ln in own if ln], getattr(events, "record", None)


@ROUTER.post("/c/{campaign}/act/{action}")
async def run_action(request: Request, campaign: str, action: str) -> Response:
    """Run the action from the form; on a refusal show the form again with the reason."""
    caller = who(request)
    form = await request.form()
    check_csrf(form, caller)
    camp = await run_in_threadpool(frame, request, caller, campaign)
    try:
        target, lines, record = await run_in_threadpool(_run, request, caller, camp, action, form)
    except LazarettoError as err:
        _, spec = _spec(camp, action)
        key = form.get("idem")
        again = partial(
            _form_page,
            request,
            caller,
            camp,
            action,
            forms.submitted(spec.input, form),
            key=key if isinstance(key, str) else None,
            error=err.text(lang(request)),
            status=err.http_status,
            back=str(form.get("back") or ""),
        )
        return await run_in_threadpool(again)
    response = redirect(target)
    if lines:
        set_flash(response, caller, lines, record)
    return response


def _form(body: str) -> FormData:
    """A form as the browser would have posted it (url-encoded)."""
    fields: list[tuple[str, str | UploadFile]] = []
    fields += parse_qsl(body, keep_blank_values=True)
    return FormData(fields)


async def _outbox_of(
    request: Request, caller: Caller, campaign: str
) -> tuple[Frame, list[tuple[str, FormData]]]:
    """The campaign and the taps (action, form) of an outbox request, checked whole."""
    try:
        taps = (await request.json())["taps"]
        items = [(str(t["action"]), _form(str(t["body"]))) for t in taps]
    except (ValueError, KeyError, TypeError) as exc:
        raise InvalidInput("Not an outbox", ru="Это не очередь отправки") from exc
    if not 1 <= len(items) <= OUTBOX_MAX:
        raise InvalidInput(
            f"An outbox sends 1 to {OUTBOX_MAX} taps at once",
            ru=f"Очередь отправляет за раз от 1 до {OUTBOX_MAX} нажатий",
        )
    for _, form in items:
        check_csrf(form, caller)
    return await run_in_threadpool(frame, request, caller, campaign), items


def _answers(
    request: Request,
    camp: Frame,
    done: list[tuple[_Tap | LazarettoError, list[Event] | LazarettoError]],
) -> list[dict[str, Any]]:
    """Each outbox tap's answer, as its form would be answered: where to go and the
    lines of what it recorded, or its refusal in the page's language."""
    language = lang(request)
    state = services(request).campaigns.load(camp.id)[1]  # read once, after them all
    answers: list[dict[str, Any]] = []
    for tap, events in done:
        if isinstance(events, LazarettoError):
            answers.append({"status": events.http_status, "error": events.text(language)})
        else:
            assert isinstance(tap, _Tap)  # committed: it was queued
            go, lines, record = _told(request, camp, state, tap, events)
            answers.append({"status": 200, "lines": lines, "record": record, "go": go})
    return answers


@ROUTER.post("/c/{campaign}/outbox")
async def send_outbox(request: Request, campaign: str) -> Response:
    """A phone's waiting taps at once (``static/outbox.js``, issue 25): JSON ``{"taps":
    [{"action": …, "body": <the form, url-encoded>}, …]}``, in the order they were made.
    Each is queued in turn and answered as its form would be: ``{"status": 200, "lines",
    "record", "go"}`` or its refusal's status and words in the page's language. A tap
    that finds no turn (429) holds back those after it, so the order is kept. An outbox
    refused whole (a stale page, not an outbox) is answered in JSON too."""
    caller = who(request)
    language = lang(request)
    try:
        camp, items = await _outbox_of(request, caller, campaign)
    except LazarettoError as err:
        return JSONResponse(err.to_dict(language), status_code=err.http_status)
    submits = [partial(_submit, request, caller, camp, action, form) for action, form in items]
    sent = await run_in_threadpool(queue_in_order, submits)
    done = [(one, await committed(one.sent if isinstance(one, _Tap) else one)) for one in sent]
    answers = await run_in_threadpool(_answers, request, camp, done)
    response = JSONResponse({"answers": answers})
    told = [a for a in answers if a["status"] == 200]
    if told:  # the page reloaded after them shows once what was recorded
        set_flash(response, caller, [ln for a in told for ln in a["lines"]], told[-1]["record"])
    return response
