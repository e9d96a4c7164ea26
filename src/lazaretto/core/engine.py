"""The engine: run an action or move the clock on an in-memory campaign state.

Pure and synchronous: no database. The service layer loads a state, calls these
functions, and stores the returned state and events in one transaction; tests and
simulations call them directly.

Order of things (DESIGN.md, principle 3): before anything happens at campaign time
``T``, every timer due at or before ``T`` fires, in deadline order, each exactly once;
a timer fired in the middle of a jump may schedule or cancel later ones.

The contexts handlers run in are :mod:`lazaretto.core.contexts`, below the ruleset
protocol; they are importable from here too, where they were first.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ValidationError

from lazaretto.core.character import Character
from lazaretto.core.clock import Clock, ClockMode, wall_now
from lazaretto.core.contexts import ActionContext as ActionContext
from lazaretto.core.contexts import QueryContext as QueryContext
from lazaretto.core.contexts import find_character as find_character
from lazaretto.core.contexts import timer_id as timer_id
from lazaretto.core.errors import Forbidden, InvalidInput, NotFound, RuleViolation, problem_ru
from lazaretto.core.events import Event
from lazaretto.core.roles import Role
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.state import CampaignState

MAX_FIRINGS = 100_000
"""A bound on timers fired by one clock move, so a handler loop cannot run forever."""


def run_query(
    ruleset: Ruleset,
    state: CampaignState,
    name: str,
    raw: dict[str, Any],
    *,
    role: Role = Role.MASTER,
    lang: str = "en",
    wall: datetime | None = None,
) -> dict[str, Any]:
    """Answer a read-only query; the state is not changed."""
    data = parse_query(ruleset, name, raw, role)
    spec = ruleset.queries[name]
    assert state.clock is not None
    ctx = QueryContext(
        ruleset, state, ruleset.campaign_params(state.params), state.clock.now(wall), role, lang
    )
    result = spec.handler(ctx, data)
    result.setdefault("rule_ids", list(spec.rule_ids))
    return result


def parse_query(ruleset: Ruleset, name: str, raw: dict[str, Any], role: Role) -> BaseModel:
    """Validate a query's input for ``role``: NotFound for no such query, Forbidden for
    a role that may not ask it, InvalidInput naming the field."""
    spec = ruleset.queries.get(name)
    if spec is None:
        known = ", ".join(sorted(ruleset.queries)) or "none"
        raise NotFound(
            f"Ruleset {ruleset.id!r} has no query {name!r}; queries: {known}",
            ru=f"В наборе правил {ruleset.id!r} нет запроса {name!r}; запросы: {known}",
        )
    if role not in spec.roles:
        raise Forbidden(
            f"A {role.value} may not ask {name}", ru=f"Роль {role.value} не может запросить {name}"
        )
    try:
        data: BaseModel = spec.input.model_validate(raw)
        return data
    except ValidationError as exc:
        raise input_error(name, spec.input, exc) from exc


def add_character(
    ruleset: Ruleset,
    state: CampaignState,
    character: Character,
    wall: datetime | None = None,
    actor: str = "master",
) -> list[Event]:
    """Add a character (hits start full); Conflict if the id is taken."""
    from lazaretto.core.errors import Conflict

    refuse_nul("character", character.model_dump(mode="json"))
    if character.id in state.characters:
        raise Conflict(
            f"Character {character.id!r} already exists", ru=f"Персонаж {character.id!r} уже есть"
        )
    wall = wall or wall_now()
    assert state.clock is not None
    ctx = _ctx(ruleset, state, state.clock.now(wall), wall, actor, Role.MASTER, "character.add")
    ctx.emit("character.added", {"character": character.model_dump(mode="json")})
    return ctx.events


def _ctx(
    ruleset: Ruleset,
    state: CampaignState,
    now: datetime,
    wall: datetime,
    actor: str,
    role: Role,
    action: str,
    key: str | None = None,
) -> ActionContext:
    params = ruleset.campaign_params(state.params)
    return ActionContext(ruleset, state, params, now, wall, actor, role, action, key=key)


def _move_clock(
    ruleset: Ruleset,
    state: CampaignState,
    clock: Clock,
    wall: datetime,
    actor: str,
    events: list[Event],
) -> None:
    ctx = _ctx(ruleset, state, clock.now(wall), wall, actor, Role.MASTER, "clock")
    ctx.emit("clock.changed", {"clock": clock.model_dump(mode="json")})
    events.extend(ctx.events)


def fire_due(
    ruleset: Ruleset,
    state: CampaignState,
    until: datetime,
    wall: datetime,
    events: list[Event],
    *,
    strict: bool = False,
    keyed: bool = False,
) -> None:
    """Fire, in deadline order, every timer due at or before ``until`` (in place).

    With ``strict``, a timer due exactly at ``until`` is left for later: an action at
    that very second still comes first (a ruleset's ``timer_boundary_inclusive``).
    ``keyed``: each timer's dice and the countdowns it starts are named by its id.
    """
    fired = 0
    while True:
        timer = state.next_timer()  # log n: the state keeps its timers in a heap
        if timer is None:
            return
        if timer.deadline > until or (strict and timer.deadline == until):
            return
        if fired == MAX_FIRINGS:
            raise RuleViolation(
                f"More than {MAX_FIRINGS} timers fired in one clock move; "
                "a timer handler is probably rescheduling itself forever"
            )
        fired += 1
        ctx = _ctx(
            ruleset,
            state,
            timer.deadline,
            wall,
            "system",
            Role.MASTER,
            f"timer:{timer.kind}",
            timer.id if keyed else None,
        )
        ctx.emit("timer.fired", {"id": timer.id, "kind": timer.kind, "subject": timer.subject})
        handler = ruleset.timer_handlers.get(timer.kind)
        if handler is not None:
            handler(ctx, timer)
        events.extend(ctx.events)


def advance_to(
    ruleset: Ruleset,
    state: CampaignState,
    when: datetime,
    wall: datetime | None = None,
    actor: str = "system",
    *,
    strict: bool = False,
    keyed: bool = False,
) -> list[Event]:
    """Move the clock to ``when`` firing due timers on the way; returns the new events.

    ``state`` is changed in place: call on a copy if the caller may need to roll back.
    """
    wall = wall or wall_now()
    assert state.clock is not None
    target = state.clock.set(when, wall)  # refuses going backwards
    events: list[Event] = []
    fire_due(ruleset, state, when, wall, events, strict=strict, keyed=keyed)
    if when != state.clock.now(wall):
        _move_clock(ruleset, state, target, wall, actor, events)
    return events


def catch_up(
    ruleset: Ruleset, state: CampaignState, wall: datetime | None = None, *, keyed: bool = False
) -> list[Event]:
    """Fire the timers that came due on a running clock (realtime); no clock change."""
    wall = wall or wall_now()
    assert state.clock is not None
    events: list[Event] = []
    fire_due(ruleset, state, state.clock.now(wall), wall, events, keyed=keyed)
    return events


def change_clock(
    ruleset: Ruleset,
    state: CampaignState,
    clock: Clock,
    wall: datetime | None = None,
    actor: str = "system",
    *,
    keyed: bool = False,
) -> list[Event]:
    """Replace the clock (pause, resume, mode change); fires what is due first."""
    wall = wall or wall_now()
    events = catch_up(ruleset, state, wall, keyed=keyed)
    _move_clock(ruleset, state, clock, wall, actor, events)
    return events


def emit_kept(
    ruleset: Ruleset,
    state: CampaignState,
    at: datetime,
    wall: datetime,
    actor: str,
    kept: dict[str, Any],
) -> list[Event]:
    """The ``undo.kept`` event at an undone record's place: what the ruleset keeps of
    it (``Ruleset.kept_after_undo``), reduced by the ruleset's own reducer."""
    ctx = _ctx(ruleset, state, at, wall, actor, Role.MASTER, "undo")
    ctx.emit("undo.kept", kept)
    return ctx.events


def check_role(ruleset: Ruleset, action: str, role: Role) -> None:
    """Forbidden unless ``role`` may perform ``action`` (an unknown action is left to
    :func:`parse_input`, which names the ones there are)."""
    spec = ruleset.actions.get(action)
    if spec is not None and role not in spec.roles:
        allowed = ", ".join(sorted(r.value for r in spec.roles))
        raise Forbidden(
            f"A {role.value} may not {action}; allowed: {allowed}",
            ru=f"Роль {role.value} не может выполнить {action}; можно: {allowed}",
        )


def _has_nul(value: Any, depth: int = 0) -> bool:
    """Whether a NUL character hides in ``value`` (PostgreSQL cannot store one)."""
    if isinstance(value, str):
        return "\x00" in value
    if depth > 50:
        return False
    if isinstance(value, dict):
        return any(_has_nul(k, depth + 1) or _has_nul(v, depth + 1) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_has_nul(v, depth + 1) for v in value)
    return False


def refuse_nul(what: str, raw: Any) -> None:
    """InvalidInput if ``raw`` holds a NUL character, from any interface."""
    if _has_nul(raw):
        raise InvalidInput(
            f"{what}: the text holds a NUL character (\\0); remove it",
            ru=f"{what}: в тексте символ NUL (\\0); уберите его",
        )


def parse_input(ruleset: Ruleset, action: str, raw: dict[str, Any]) -> BaseModel:
    """Validate an action's raw input; InvalidInput names the field and the problem."""
    refuse_nul(action, raw)
    spec = ruleset.actions.get(action)
    if spec is None:
        known = ", ".join(sorted(ruleset.actions))
        raise NotFound(
            f"Ruleset {ruleset.id!r} has no action {action!r}; actions: {known}",
            ru=f"В наборе правил {ruleset.id!r} нет действия {action!r}; действия: {known}",
        )
    try:
        model: BaseModel = spec.input.model_validate(raw)
        return model
    except ValidationError as exc:
        raise input_error(action, spec.input, exc) from exc


def input_error(name: str, model: type[BaseModel], exc: ValidationError) -> InvalidInput:
    """The first problem of ``exc`` as one line: the field and what is wrong with it; a
    field the input does not have is named with the list of those it has."""
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "input"
    if err["type"] == "extra_forbidden" and len(err["loc"]) == 1:
        fields = ", ".join(model.model_fields) or "none"
        return InvalidInput(
            f"{name} has no field {where!r}; its fields: {fields}",
            ru=f"У {name} нет поля {where!r}; его поля: {fields}",
        )
    return InvalidInput(
        f"{name}: {where}: {err['msg']}", ru=f"{name}: {where}: {problem_ru(dict(err))}"
    )


def run_action(
    ruleset: Ruleset,
    state: CampaignState,
    action: str,
    raw: dict[str, Any],
    *,
    actor: str = "master",
    role: Role = Role.MASTER,
    at: datetime | None = None,
    wall: datetime | None = None,
    key: str | None = None,
) -> list[Event]:
    """Run ``action`` at campaign time ``at`` (default: now) and return its events.

    Due timers fire first (a bandage logged at the very second a wound worsens is too
    late: A-W-11). ``state`` is changed in place. With a ``key`` (a record of the
    history), the dice and countdowns are named by it, and on a running realtime clock
    the action is placed at ``at`` without moving the clock (it may be a moment ago).
    """
    wall = wall or wall_now()
    check_role(ruleset, action, role)  # who may act, before what they typed
    data = parse_input(ruleset, action, raw)
    spec = ruleset.actions[action]
    assert state.clock is not None
    when = at if at is not None else state.clock.now(wall)
    strict = bool(getattr(ruleset.campaign_params(state.params), "timer_boundary_inclusive", False))
    keyed = key is not None
    if keyed and state.clock.mode is ClockMode.REALTIME and not state.clock.paused:
        events: list[Event] = []
        fire_due(ruleset, state, when, wall, events, strict=strict, keyed=True)
    else:
        events = advance_to(ruleset, state, when, wall, actor, strict=strict, keyed=keyed)
    ctx = _ctx(ruleset, state, when, wall, actor, role, action, key)
    spec.handler(ctx, data)
    events.extend(ctx.events)
    return events


def new_state(
    ruleset: Ruleset,
    campaign: str,
    clock: Clock,
    seed: int,
    params: dict[str, Any] | None = None,
    wall: datetime | None = None,
) -> tuple[CampaignState, list[Event]]:
    """A new campaign's state and its first event."""
    wall = wall or wall_now()
    ruleset.campaign_params(params or {})  # validate overrides now
    state = ruleset.state_model()
    ev = Event(
        kind="campaign.created",
        at=clock.now(wall),
        wall=wall,
        actor="master",
        action="campaign.create",
        seq=1,
        payload={
            "campaign": campaign,
            "ruleset": ruleset.id,
            "seed": seed,
            "clock": clock.model_dump(mode="json"),
            "params": params or {},
        },
    )
    ruleset.reducers.apply(state, ev)
    state.last_seq = 1
    return state, [ev]


def replay(ruleset: Ruleset, events: list[Event]) -> CampaignState:
    """Rebuild a campaign's state from its events alone."""
    state = ruleset.state_model()
    for ev in events:
        ruleset.reducers.apply(state, ev)
        state.last_seq = ev.seq
    return state
