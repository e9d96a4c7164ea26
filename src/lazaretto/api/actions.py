"""``POST /api/campaigns/{campaign}/actions/{action}``: one endpoint per ruleset action,
generated from its declaration (typed body, documented in OpenAPI)."""

import asyncio
from typing import Annotated, Any, Union

from fastapi import APIRouter, Header, Query
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel

from lazaretto.api.context import CallerDep, LangDep, ServicesDep
from lazaretto.api.routes import ChangerDep, event_public
from lazaretto.api.schemas import ActionResult
from lazaretto.core.clock import parse_time
from lazaretto.core.registry import rulesets
from lazaretto.core.ruleset import ActionSpec


def _endpoint(name: str, body_model: Any) -> Any:
    async def run(
        campaign: str,
        body: body_model,
        svc: ServicesDep,
        who: ChangerDep,
        at: Annotated[
            str | None,
            Query(
                max_length=40,
                description="campaign time it happened (HH:MM, ISO, +30m); a time in the "
                "past places it there and re-runs what follows (healers and players up to "
                "the campaign's late_record_minutes back)",
            ),
        ] = None,
        idempotency_key: Annotated[str | None, Header(max_length=100)] = None,
    ) -> ActionResult:
        # async, so a request waits for its group commit without holding a thread; the
        # checks before it read only cached sessions and memberships (a miss is one
        # indexed read)
        raw = body.model_dump(exclude_unset=True) if isinstance(body, BaseModel) else dict(body)
        when = None
        if at:
            clock = await run_in_threadpool(svc.campaigns.clock, campaign)  # may parse
            when = parse_time(at, reference=clock.now())
        committed = svc.play.submit_act(
            who.user, campaign, name, raw, at=when, idempotency_key=idempotency_key
        )
        # shielded: a client that hangs up does not take back a change being committed
        events = await asyncio.shield(asyncio.wrap_future(committed))
        return ActionResult(
            action=name,
            record=getattr(events, "record", None),
            events=[event_public(e) for e in events],
            now=svc.campaigns.clock(campaign, just_changed=True).now().isoformat(),
        )

    return run


def _query_endpoint(name: str, body_model: Any) -> Any:
    def ask(
        campaign: str, body: body_model, svc: ServicesDep, who: CallerDep, lang: LangDep
    ) -> dict[str, Any]:
        raw = body.model_dump(exclude_unset=True) if isinstance(body, BaseModel) else dict(body)
        return svc.play.query(who.user, campaign, name, raw, lang)

    return ask


def _body(models: tuple[type[BaseModel], ...]) -> Any:
    """The body of a route: the input model, or, for a name that rulesets share, any of
    their models (each refuses fields it does not have); the campaign's own ruleset's
    model checks it again before anything is done."""
    return models[0] if len(models) == 1 else Union[models]  # noqa: UP007


def build_router() -> APIRouter:
    """Routes for every action of every installed ruleset."""
    router = APIRouter(prefix="/api/campaigns/{campaign}", tags=["actions"])
    specs: dict[str, list[ActionSpec[Any]]] = {}
    for rs in rulesets().values():
        for name, spec in rs.actions.items():
            specs.setdefault(name, []).append(spec)
    for name, same in sorted(specs.items()):
        models = tuple(dict.fromkeys(s.input for s in same))
        body = _body(models)
        rules = ", ".join(same[0].rule_ids)
        router.add_api_route(
            f"/actions/{name}",
            _endpoint(name, body),
            methods=["POST"],
            response_model=ActionResult,
            summary=same[0].summary_en,
            name=f"action_{name.replace('-', '_')}",
            description=f"{same[0].summary_en} / {same[0].summary_ru}. Rules: {rules}. Send an "
            "Idempotency-Key header so a retried request is recorded once.",
        )
    queries: dict[str, list[Any]] = {}
    for rs in rulesets().values():
        for name, qspec in rs.queries.items():
            queries.setdefault(name, []).append(qspec)
    for name, same_q in sorted(queries.items()):
        qmodels = tuple(dict.fromkeys(s.input for s in same_q))
        qbody = _body(qmodels)
        router.add_api_route(
            f"/queries/{name}",
            _query_endpoint(name, qbody),
            methods=["POST"],
            summary=same_q[0].summary_en,
            name=f"query_{name.replace('-', '_')}",
            description=f"{same_q[0].summary_en} / {same_q[0].summary_ru}. Read-only.",
            tags=["queries"],
        )
    return router
