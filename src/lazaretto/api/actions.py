"""``POST /api/campaigns/{campaign}/actions/{action}``: one endpoint per ruleset action,
generated from its declaration (typed body, documented in OpenAPI).

The body is the action's input and, in an optional ``at`` field, the campaign time it
happened: a phone that was offline or a paper log typed in later sends the time of the
tap, and the record is placed there (core/history.py). ``?at=`` in the query, the first
way of saying it, still works for the scripts written against it, and is marked
deprecated in the schema; a request giving both is refused rather than guessed at.
"""

import asyncio
import types
from datetime import datetime
from functools import cache
from typing import Annotated, Any, Union

from fastapi import APIRouter, Header, Query
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from lazaretto.api.context import CallerDep, LangDep, ServicesDep
from lazaretto.api.routes import ChangerDep, event_public
from lazaretto.api.schemas import ActionResult
from lazaretto.core.clock import parse_time
from lazaretto.core.errors import ClockError, InvalidInput
from lazaretto.core.registry import rulesets
from lazaretto.core.ruleset import ActionSpec

AT = "at"
"""The body field with the campaign time of a change (no action has an input of that
name: tests/e2e/test_api_late.py checks)."""

_AT_FIELD = Field(
    None,
    max_length=40,
    description="The campaign time it happened: HH:MM or HH:MM:SS (on the campaign "
    "clock's date), an ISO date-time, or +30m (from now). Left out: now. A time in the "
    "past places the record there and runs again what follows (a phone that was offline, "
    "a paper log typed in after the battle); healers and players at most the campaign's "
    "late_record_minutes back on a running clock, masters and manual clocks without "
    "limit. / Время в кампании, когда это произошло (ЧЧ:ММ, ЧЧ:ММ:СС, дата-время ISO "
    "или +30m); без него — сейчас; время в прошлом ставит запись туда.",
    examples=["12:29", "2026-06-13T12:29:00"],
)

MOVE = "move_clock"
"""The body field a master sets to confirm that ``at`` ahead of a manual clock moves
the clock there (issue 28: without it such a record is refused, naming what the move
would fire; for anyone else, and on a running clock, it is refused anyway)."""

_MOVE_FIELD = Field(
    False,
    description="A master's confirmation that an `at` ahead of a manual campaign clock "
    "moves the clock there (and fires the countdowns due on the way); without it such a "
    "record is refused with what it would fire. Nobody records ahead of a running clock. "
    "/ Подтверждение мастера: `at` позже ручных часов переводит часы туда.",
)


@cache
def with_time(model: type[BaseModel]) -> type[BaseModel]:
    """The request body of an action: its input model and the optional ``at``, named
    ``<input>Request`` (a family, as ``VoidRequest``: a model that is also a query's
    input keeps its own name there); one per input model, however many actions share
    it."""

    def namespace(ns: dict[str, Any]) -> None:
        ns.update(
            __module__=model.__module__,
            __qualname__=f"{model.__qualname__}Request",
            __doc__=model.__doc__,
            __annotations__={AT: str | None, MOVE: bool},
            at=_AT_FIELD,
            move_clock=_MOVE_FIELD,
        )

    made: type[BaseModel] = types.new_class(f"{model.__name__}Request", (model,), {}, namespace)
    return made


def _time_given(body_at: str | None, query_at: str | None) -> str | None:
    if body_at and query_at:
        raise InvalidInput(
            "The time is given twice (in the body's 'at' and in ?at=); send it once, in the body",
            ru="Время указано дважды (в поле 'at' и в ?at=); укажите его один раз, в теле запроса",
        )
    return body_at or query_at


def parsed_at(text: str, now: datetime) -> datetime:
    """The campaign time ``text`` says; one that cannot be read is bad input (422),
    not a clock that refuses to move."""
    try:
        return parse_time(text, reference=now)
    except ClockError as exc:
        raise InvalidInput(f"at: {exc.message}", ru=f"at: {exc.ru}") from exc


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
                deprecated=True,
                description="Deprecated: send the time in the body's `at` field. The "
                "campaign time it happened (HH:MM, ISO, +30m); refused together with `at` "
                "in the body.",
            ),
        ] = None,
        idempotency_key: Annotated[str | None, Header(max_length=100)] = None,
    ) -> ActionResult:
        # async, so a request waits for its group commit without holding a thread; the
        # checks before it read only cached sessions and memberships (a miss is one
        # indexed read)
        raw = body.model_dump(exclude_unset=True) if isinstance(body, BaseModel) else dict(body)
        given = _time_given(raw.pop(AT, None), at)
        moves_clock = bool(raw.pop(MOVE, False))
        when = None
        if given:
            clock = await run_in_threadpool(svc.campaigns.clock, campaign)  # may parse
            when = parsed_at(given, clock.now())
        committed = svc.play.submit_act(
            who.user, campaign, name, raw, at=when, idempotency_key=idempotency_key,
            moves_clock=moves_clock,
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


def _action_body(models: tuple[type[BaseModel], ...]) -> Any:
    """The body of an action's route: :func:`_body` of the input models with ``at``."""
    return _body(tuple(with_time(m) for m in models))


def build_router() -> APIRouter:
    """Routes for every action of every installed ruleset."""
    router = APIRouter(prefix="/api/campaigns/{campaign}", tags=["actions"])
    specs: dict[str, list[ActionSpec[Any]]] = {}
    for rs in rulesets().values():
        for name, spec in rs.actions.items():
            specs.setdefault(name, []).append(spec)
    for name, same in sorted(specs.items()):
        models = tuple(dict.fromkeys(s.input for s in same))
        body = _action_body(models)
        rules = ", ".join(same[0].rule_ids)
        router.add_api_route(
            f"/actions/{name}",
            _endpoint(name, body),
            methods=["POST"],
            response_model=ActionResult,
            summary=same[0].summary_en,
            name=f"action_{name.replace('-', '_')}",
            description=f"{same[0].summary_en} / {same[0].summary_ru}. Rules: {rules}. Send an "
            "Idempotency-Key header so a retried request is recorded once; put the campaign time "
            "it happened in the body's `at` (a late record is placed at that time).",
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
