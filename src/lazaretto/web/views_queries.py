"""Query pages: every read-only question a ruleset answers, with a generated form.

``GET /c/{campaign}/queries`` lists the queries the caller's role may ask;
``GET /c/{campaign}/query/{name}`` shows the form generated from the query's input
model (the same machinery as the action forms, prefilled from ``?character=``) and,
once asked, the answer: its one-line summary, its rule IDs and the rest of its data
rendered generically. Asking is a GET with the fields as query parameters — nothing
changes, so no CSRF token, and the answer is bookmarkable and reloadable. The page
takes part in the live update, so an epidemic or GM screen follows the campaign.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import Response
from starlette.datastructures import FormData

from lazaretto.api.context import Caller, lang, services
from lazaretto.core.errors import Forbidden, LazarettoError, NotFound
from lazaretto.core.registry import get_ruleset
from lazaretto.core.ruleset import QuerySpec
from lazaretto.service.accounts import Membership
from lazaretto.web import errtext, forms, picks, prefill
from lazaretto.web.pages import Frame, frame, known_to, render, router, who

ROUTER = router()

ASK = "ask"
"""The hidden field marking a submitted query form (the answer is shown even if empty)."""

MAX_ROWS = 500
"""Rows of one table shown at most (the page stays light)."""

MAX_TEXT = 300
"""Characters of one value shown at most (a base64 PDF is not for reading)."""


def _spec(camp: Frame, name: str) -> QuerySpec[Any]:
    rs = get_ruleset(camp.ruleset)
    spec = rs.queries.get(name)
    if spec is None:
        raise NotFound(f"No query {name!r} in {rs.id}", ru=f"Нет запроса {name!r} в {rs.id}")
    if camp.role not in spec.roles:
        raise Forbidden(
            f"A {camp.role.value} may not ask {name}",
            ru=f"Роль {camp.role.value}: нельзя запросить {name}",
        )
    return spec


def columns(rows: list[Mapping[str, Any]]) -> list[str]:
    """The union of the rows' keys, in order of first appearance."""
    seen: dict[str, None] = {}
    for row in rows:
        for key in row:
            seen.setdefault(str(key), None)
    return list(seen)


def kind(value: Any) -> str:
    """How the answer renderer shows ``value``: dict, table, list or text."""
    if isinstance(value, Mapping):
        return "dict"
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, Mapping) for v in value):
            return "table"
        return "list"
    return "text"


def scalar(value: Any) -> str:
    """A scalar as text (``None`` as a dash, booleans as ✓/✗, long text cut short)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "✓" if value else "✗"
    text = str(value)
    return text if len(text) <= MAX_TEXT else f"{text[:MAX_TEXT]}… (+{len(text) - MAX_TEXT})"


def _asked(spec: QuerySpec[Any], params: Mapping[str, str]) -> bool:
    """Whether to answer: the form was submitted, or every required field was given."""
    if ASK in params:
        return True
    required = [n for n, info in spec.input.model_fields.items() if info.is_required()]
    return all(params.get(n, "").strip() for n in required)


@ROUTER.get("/c/{campaign}/queries")
def queries(request: Request, campaign: str) -> Response:
    """Every query of the campaign's ruleset the caller's role may ask."""
    caller = who(request)
    camp = frame(request, caller, campaign)
    rs = get_ruleset(camp.ruleset)
    mine = [s for s in sorted(rs.queries.values(), key=lambda s: s.name) if camp.role in s.roles]
    return render(request, "queries.html", caller=caller, camp=camp, specs=mine)


def _page(request: Request, caller: Caller, camp: Frame, name: str) -> Response:
    svc = services(request)
    language = lang(request)
    spec = _spec(camp, name)
    params = {k: v for k, v in request.query_params.items() if k != "lang"}
    _, state, _ = svc.campaigns.load(camp.id)
    directory = prefill.directory(state, known_to(svc, caller, camp))
    member = Membership(camp.id, camp.role, camp.characters)
    about = params.get("character") or params.get(forms.subject_field(spec.input) or "")
    card = None
    if about:
        try:
            card = svc.play.card(caller.user, camp.id, about, language)
        except LazarettoError:  # not theirs to see: the query itself says why
            card = None
    values = prefill.defaults(spec.input, member, params, directory, card)
    answer: dict[str, Any] | None = None
    error, status = "", 200
    if _asked(spec, params):
        try:
            raw = forms.parse(spec.input, FormData(list(request.query_params.multi_items())))
            answer = svc.play.query(caller.user, camp.id, name, raw, language)
        except LazarettoError as err:
            error, status = (
                errtext.for_web(err.text(language), get_ruleset(camp.ruleset), language),
                err.http_status,
            )
    data = {}
    download = ""
    if answer is not None:
        data = {k: v for k, v in answer.items() if k not in ("summary", "rule_ids")}
        if data.pop("pdf_base64", None) is not None:  # a file, not text to read
            keep = [(k, v) for k, v in request.query_params.multi_items() if k != ASK]
            download = f"/c/{camp.id}/print/stickers.pdf?" + urlencode(keep)
    return render(
        request,
        "query.html",
        caller=caller,
        camp=camp,
        live=True,
        status=status,
        spec=spec,
        summary=spec.summary(language),
        fields=forms.fields(
            spec.input,
            values,
            language,
            picks.picks(camp.ruleset, name, spec.input, camp.role, directory),
        ),
        lists=prefill.suggestions(spec.input, member, directory),
        answer=answer,
        answer_summary=str(answer.get("summary", "")) if answer else "",
        answer_rules=list(answer.get("rule_ids") or []) if answer else [],
        data=data,
        kind=kind,
        scalar=scalar,
        columns=columns,
        max_rows=MAX_ROWS,
        ask=ASK,
        error=error,
        download=download,
    )


@ROUTER.get("/c/{campaign}/query/{name}")
def query_page(request: Request, campaign: str, name: str) -> Response:
    """The form of query ``name`` and, once asked (GET parameters), its answer."""
    caller = who(request)
    camp = frame(request, caller, campaign)
    return _page(request, caller, camp, name)
