"""The engine (core/engine.py) on a tiny ruleset defined here: timers fire in deadline
order, each exactly once, also in one long jump; handlers may schedule and cancel
during a jump; actions fire what is due first; refusals; replay rebuilds the state."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest
from pydantic import BaseModel, Field

from lazaretto.core import engine
from lazaretto.core.character import Character
from lazaretto.core.clock import Clock
from lazaretto.core.engine import (
    ActionContext,
    add_character,
    advance_to,
    new_state,
    replay,
    run_action,
)
from lazaretto.core.errors import (
    ClockError,
    DataFileError,
    Forbidden,
    InvalidInput,
    NotFound,
    RuleViolation,
)
from lazaretto.core.events import Event, ReducerRegistry
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.core.state import CORE_REDUCERS, CampaignState
from lazaretto.core.timers import Timer

T0 = datetime(2026, 6, 13, 10, 0)
MIN = timedelta(minutes=1)


# --- a tiny ruleset ------------------------------------------------------------------


class EngineTestState(CampaignState):
    """Core state plus a list of what the ``ping`` timers and ``note`` action recorded."""

    log: list[str] = Field(default_factory=list)


class EngineTestParams(BaseModel):
    timer_boundary_inclusive: bool = False


class Schedule(BaseModel):
    label: str
    minutes: int = Field(ge=0)


class ScheduleMany(BaseModel):
    seconds: list[int]


class Chain(BaseModel):
    minutes: int = Field(ge=0)
    then_minutes: int = Field(ge=0)


class Canceller(BaseModel):
    minutes: int = Field(ge=0)
    target: str


class Note(BaseModel):
    text: str


class Empty(BaseModel):
    pass


REDUCERS = ReducerRegistry(CORE_REDUCERS)


@REDUCERS.on("test.pinged")
def _pinged(state: EngineTestState, ev: Event) -> None:
    state.log.append(f"ping {ev.payload['label']} at {ev.at:%H:%M:%S}")


@REDUCERS.on("test.noted")
def _noted(state: EngineTestState, ev: Event) -> None:
    state.log.append(f"note {ev.payload['text']} at {ev.at:%H:%M:%S}")


def build_ruleset() -> Ruleset:
    rs = Ruleset(
        id="engine-test",
        title_en="Engine test",
        title_ru="Тест движка",
        documents=(),
        state_model=EngineTestState,
        params=EngineTestParams(),
        reducers=REDUCERS,
    )

    @rs.action("schedule", Schedule, summary=("schedule a ping", "запланировать"))
    def schedule(ctx: ActionContext, a: Schedule) -> None:
        ctx.schedule("ping", a.minutes * MIN, subject=a.label, payload={"label": a.label})

    @rs.action("schedule-many", ScheduleMany, summary=("many pings", "много"))
    def schedule_many(ctx: ActionContext, a: ScheduleMany) -> None:
        for i, secs in enumerate(a.seconds):
            ctx.schedule("ping", timedelta(seconds=secs), payload={"label": str(i)})

    @rs.action("chain", Chain, summary=("a timer that schedules another", "цепочка"))
    def chain(ctx: ActionContext, a: Chain) -> None:
        ctx.schedule("chain", a.minutes * MIN, payload={"then": a.then_minutes})

    @rs.action("canceller", Canceller, summary=("a timer that cancels another", "отмена"))
    def canceller(ctx: ActionContext, a: Canceller) -> None:
        ctx.schedule("cancel-other", a.minutes * MIN, payload={"target": a.target})

    @rs.action("cancel", Note, summary=("cancel a timer", "отменить"))
    def cancel(ctx: ActionContext, a: Note) -> None:
        ctx.cancel(a.text)

    @rs.action("note", Note, summary=("note", "заметка"))
    def note(ctx: ActionContext, a: Note) -> None:
        ctx.emit("test.noted", {"text": a.text})

    @rs.action(
        "masters-note",
        Note,
        roles=frozenset({Role.MASTER}),
        summary=("masters only", "только мастер"),
    )
    def masters_note(ctx: ActionContext, a: Note) -> None:
        ctx.emit("test.noted", {"text": a.text})

    @rs.action("refuse", Empty, summary=("always refused", "всегда отказ"))
    def refuse(ctx: ActionContext, a: Empty) -> None:
        ctx.emit("test.noted", {"text": "half-done"})
        raise RuleViolation("refused on purpose", rule_ids=("T-ENG-01",))

    @rs.action("loop", Empty, summary=("a runaway timer", "бесконечный таймер"))
    def loop(ctx: ActionContext, a: Empty) -> None:
        ctx.schedule("loop", MIN)

    @rs.on_timer("ping")
    def ping(ctx: ActionContext, t: Timer) -> None:
        ctx.emit("test.pinged", {"label": t.payload["label"]})

    @rs.on_timer("chain")
    def chain_fired(ctx: ActionContext, t: Timer) -> None:
        ctx.schedule("ping", t.payload["then"] * MIN, payload={"label": "chained"})

    @rs.on_timer("cancel-other")
    def cancel_other(ctx: ActionContext, t: Timer) -> None:
        ctx.cancel(t.payload["target"])

    @rs.on_timer("loop")
    def loop_fired(ctx: ActionContext, t: Timer) -> None:
        ctx.schedule("loop", timedelta(0))

    return rs


RS = build_ruleset()


class Campaign:
    """An in-memory campaign of the test ruleset on a manual clock at 10:00."""

    def __init__(self, params: dict[str, object] | None = None) -> None:
        self.state: EngineTestState
        state, self.events = new_state(RS, "eng", Clock(anchor=T0), seed=1, params=params)
        assert isinstance(state, EngineTestState)
        self.state = state

    def act(
        self, action: str, at: datetime | None = None, role: Role = Role.MASTER, **raw: object
    ) -> list[Event]:
        evs = run_action(RS, self.state, action, raw, role=role, at=at)
        self.events += evs
        return evs

    def advance(self, when: datetime) -> list[Event]:
        evs = advance_to(RS, self.state, when)
        self.events += evs
        return evs

    def now(self) -> datetime:
        assert self.state.clock is not None
        return self.state.clock.now()


def fired(events: list[Event]) -> list[str]:
    """Labels of the pings in ``events``, in order."""
    return [e.payload["label"] for e in events if e.kind == "test.pinged"]


# --- order and exactly-once ----------------------------------------------------------


def test_timers_fire_in_deadline_order_not_creation_order() -> None:
    c = Campaign()
    c.act("schedule", label="c", minutes=30)
    c.act("schedule", label="a", minutes=10)
    c.act("schedule", label="b", minutes=20)
    evs = c.advance(T0 + timedelta(hours=1))
    assert fired(evs) == ["a", "b", "c"]
    assert c.state.log == ["ping a at 10:10:00", "ping b at 10:20:00", "ping c at 10:30:00"]


def test_timers_with_equal_deadlines_fire_in_creation_order() -> None:
    c = Campaign()
    for label in ("first", "second", "third"):
        c.act("schedule", label=label, minutes=15)
    assert fired(c.advance(T0 + 15 * MIN)) == ["first", "second", "third"]


def test_a_fired_timer_event_is_stamped_with_the_timers_deadline_not_the_jump_target() -> None:
    c = Campaign()
    c.act("schedule", label="a", minutes=10)
    evs = c.advance(T0 + timedelta(hours=2))
    [fire] = [e for e in evs if e.kind == "timer.fired"]
    assert fire.at == T0 + 10 * MIN
    assert fire.actor == "system"
    assert fire.action == "timer:ping"
    assert c.now() == T0 + timedelta(hours=2)


def test_each_timer_fires_exactly_once_across_repeated_clock_moves() -> None:
    c = Campaign()
    c.act("schedule", label="a", minutes=10)
    first = c.advance(T0 + 10 * MIN)
    again = c.advance(T0 + 10 * MIN)
    later = c.advance(T0 + timedelta(hours=3))
    assert fired(first) == ["a"]
    assert fired(again) == [] and again == []
    assert fired(later) == []
    assert c.state.timers == {}


def test_five_hundred_random_timers_fire_in_order_and_once_in_one_long_jump() -> None:
    rng = random.Random(20260613)
    seconds = [rng.randrange(0, 4 * 3600) for _ in range(490)] + [600] * 10  # with ties
    rng.shuffle(seconds)
    c = Campaign()
    c.act("schedule-many", seconds=seconds)
    assert len(c.state.timers) == 500

    evs = c.advance(T0 + timedelta(hours=5))

    fires = [e for e in evs if e.kind == "timer.fired"]
    ids = [e.payload["id"] for e in fires]
    assert len(ids) == 500
    assert len(set(ids)) == 500
    expected = sorted(range(500), key=lambda i: (seconds[i], i))  # deadline, then creation
    assert [int(label) for label in fired(evs)] == expected
    assert [e.at for e in fires] == sorted(T0 + timedelta(seconds=s) for s in seconds)
    assert c.state.timers == {}
    assert c.now() == T0 + timedelta(hours=5)


def test_a_clock_move_with_nothing_due_records_only_the_clock_change() -> None:
    c = Campaign()
    c.act("schedule", label="a", minutes=90)
    evs = c.advance(T0 + timedelta(hours=1))
    assert [e.kind for e in evs] == ["clock.changed"]
    assert list(c.state.timers) == ["t1"]


def test_moving_the_clock_to_where_it_already_is_records_nothing() -> None:
    assert Campaign().advance(T0) == []


def test_moving_the_clock_backwards_is_refused() -> None:
    c = Campaign()
    c.advance(T0 + timedelta(hours=1))
    with pytest.raises(ClockError):
        c.advance(T0)


# --- handlers acting during a jump ---------------------------------------------------


def test_a_timer_fired_mid_jump_can_schedule_a_later_one_that_fires_in_the_same_jump() -> None:
    c = Campaign()
    c.act("chain", minutes=10, then_minutes=20)
    c.act("schedule", label="late", minutes=40)
    c.act("schedule", label="early", minutes=20)
    evs = c.advance(T0 + timedelta(hours=1))
    assert fired(evs) == ["early", "chained", "late"]
    assert "ping chained at 10:30:00" in c.state.log
    assert c.state.timers == {}


def test_a_timer_scheduled_mid_jump_beyond_the_jump_stays_pending() -> None:
    c = Campaign()
    c.act("chain", minutes=10, then_minutes=120)
    evs = c.advance(T0 + timedelta(hours=1))
    assert fired(evs) == []
    [pending] = c.state.pending_timers()
    assert pending.kind == "ping"
    assert pending.deadline == T0 + 130 * MIN
    assert fired(c.advance(T0 + 130 * MIN)) == ["chained"]


def test_a_timer_fired_mid_jump_can_cancel_a_later_one_so_it_never_fires() -> None:
    c = Campaign()
    [target] = [
        e for e in c.act("schedule", label="doomed", minutes=30) if e.kind == "timer.scheduled"
    ]
    c.act("canceller", minutes=10, target=target.payload["timer"]["id"])
    c.act("schedule", label="survivor", minutes=40)
    evs = c.advance(T0 + timedelta(hours=1))
    assert fired(evs) == ["survivor"]
    assert [e.payload["id"] for e in evs if e.kind == "timer.cancelled"] == ["t1"]
    assert fired(c.advance(T0 + timedelta(hours=5))) == []


def test_a_timer_beyond_the_jump_stays_pending_and_the_clock_stops_at_the_target() -> None:
    c = Campaign()
    c.act("schedule", label="far", minutes=90)
    c.advance(T0 + timedelta(hours=1))
    assert [t.payload["label"] for t in c.state.pending_timers()] == ["far"]
    assert c.now() == T0 + timedelta(hours=1)


def test_cancelling_a_timer_that_already_fired_records_nothing() -> None:
    c = Campaign()
    c.act("schedule", label="a", minutes=10)
    c.advance(T0 + 10 * MIN)
    assert c.act("cancel", text="t1") == []


def test_a_runaway_timer_loop_ends_in_a_rule_violation_instead_of_hanging(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(engine, "MAX_FIRINGS", 50)
    c = Campaign()
    c.act("loop")
    with pytest.raises(RuleViolation, match="rescheduling itself"):
        c.advance(T0 + timedelta(hours=1))


def test_exactly_max_firings_due_timers_all_fire_without_a_rule_violation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bound is on *more than* MAX_FIRINGS firings (the error text says so)."""
    monkeypatch.setattr(engine, "MAX_FIRINGS", 5)
    c = Campaign()
    c.act("schedule-many", seconds=[60, 120, 180, 240, 300])
    evs = c.advance(T0 + timedelta(hours=1))
    assert fired(evs) == ["0", "1", "2", "3", "4"]


# --- actions at a given time ---------------------------------------------------------


def test_an_action_at_time_t_first_fires_timers_due_before_t() -> None:
    c = Campaign()
    c.act("schedule", label="a", minutes=10)
    c.act("schedule", label="b", minutes=50)
    evs = c.act("note", at=T0 + 30 * MIN, text="n")
    assert [e.kind for e in evs] == ["timer.fired", "test.pinged", "clock.changed", "test.noted"]
    assert c.state.log == ["ping a at 10:10:00", "note n at 10:30:00"]
    assert c.now() == T0 + 30 * MIN
    assert [t.payload["label"] for t in c.state.pending_timers()] == ["b"]


def test_a_timer_due_exactly_at_the_actions_time_fires_before_the_action_by_default() -> None:
    c = Campaign()
    c.act("schedule", label="edge", minutes=30)
    evs = c.act("note", at=T0 + 30 * MIN, text="n")
    kinds = [e.kind for e in evs]
    assert kinds.index("test.pinged") < kinds.index("test.noted")
    assert c.state.log == ["ping edge at 10:30:00", "note n at 10:30:00"]


def test_with_an_inclusive_boundary_a_timer_due_exactly_at_t_fires_after_the_action() -> None:
    c = Campaign(params={"timer_boundary_inclusive": True})
    c.act("schedule", label="before", minutes=29)
    c.act("schedule", label="edge", minutes=30)
    evs = c.act("note", at=T0 + 30 * MIN, text="n")
    assert fired(evs) == ["before"]
    assert [e.kind for e in evs][-1] == "test.noted"
    assert [t.payload["label"] for t in c.state.pending_timers()] == ["edge"]
    assert fired(c.advance(T0 + 30 * MIN)) == ["edge"]
    assert c.state.log == ["ping before at 10:29:00", "note n at 10:30:00", "ping edge at 10:30:00"]


def test_an_action_without_a_time_happens_at_the_clocks_current_reading() -> None:
    c = Campaign()
    c.advance(T0 + 5 * MIN)
    [ev] = c.act("note", text="now")
    assert ev.at == T0 + 5 * MIN
    assert ev.actor == "master"
    assert ev.action == "note"
    assert ev.seq == c.state.last_seq


def test_an_action_before_the_clocks_reading_is_refused() -> None:
    c = Campaign()
    c.advance(T0 + 30 * MIN)
    with pytest.raises(ClockError):
        c.act("note", at=T0 + 10 * MIN, text="late")


# --- refusals ------------------------------------------------------------------------


def test_a_role_not_allowed_to_perform_the_action_is_forbidden() -> None:
    c = Campaign()
    with pytest.raises(Forbidden) as info:
        c.act("masters-note", role=Role.PLAYER, text="x")
    assert "player" in info.value.message
    assert "masters-note" in info.value.message
    assert "allowed: master" in info.value.message
    assert c.act("masters-note", role=Role.MASTER, text="x")


def test_bad_input_is_refused_naming_the_field() -> None:
    c = Campaign()
    with pytest.raises(InvalidInput) as info:
        c.act("schedule", label="a", minutes="soon")
    assert "schedule: minutes:" in info.value.message
    with pytest.raises(InvalidInput, match="label"):
        c.act("schedule", minutes=5)
    with pytest.raises(InvalidInput, match="minutes"):
        c.act("schedule", label="a", minutes=-1)


def test_an_unknown_action_is_not_found_and_the_known_actions_are_listed() -> None:
    c = Campaign()
    with pytest.raises(NotFound) as info:
        c.act("teleport")
    assert "'teleport'" in info.value.message
    assert "schedule" in info.value.message and "note" in info.value.message


def test_an_unknown_character_is_not_found_by_name() -> None:
    with pytest.raises(NotFound, match="'ghost'"):
        engine.find_character(Campaign().state, "ghost")


def test_adding_a_character_twice_is_a_conflict() -> None:
    from lazaretto.core.errors import Conflict

    c = Campaign()
    add_character(RS, c.state, Character(id="a", name="A"))
    with pytest.raises(Conflict):
        add_character(RS, c.state, Character(id="a", name="Other"))


def test_an_unknown_campaign_parameter_is_refused_when_the_campaign_is_created() -> None:
    with pytest.raises(InvalidInput) as info:
        Campaign(params={"timer_boundary_inclusive": "sometimes"})
    assert "'timer_boundary_inclusive'" in info.value.message


def test_two_reducers_for_one_event_kind_are_refused() -> None:
    reg = ReducerRegistry(CORE_REDUCERS)
    reg.on("x.happened")(lambda state, ev: None)
    with pytest.raises(DataFileError, match="two reducers"):
        reg.on("x.happened")(lambda state, ev: None)


# --- replay --------------------------------------------------------------------------


def test_replaying_the_events_of_a_mixed_sequence_rebuilds_the_same_state() -> None:
    c = Campaign()
    c.events += add_character(RS, c.state, Character(id="a", name="Anna", hits_max=3, hits=3))
    c.act("schedule", label="a", minutes=10)
    c.act("schedule", label="b", minutes=70)
    c.act("chain", minutes=20, then_minutes=5)
    c.act("canceller", minutes=30, target="t2")
    c.act("note", at=T0 + 15 * MIN, text="n1")
    c.advance(T0 + timedelta(hours=2))
    c.act("schedule", label="pending", minutes=45)
    c.act("cancel", text="t999")

    rebuilt = replay(RS, c.events)

    assert rebuilt == c.state
    assert isinstance(rebuilt, EngineTestState)
    assert rebuilt.log == ["ping a at 10:10:00", "note n1 at 10:15:00", "ping chained at 10:25:00"]
    assert [e.seq for e in c.events] == list(range(1, len(c.events) + 1))
    assert rebuilt.last_seq == len(c.events)


def test_every_event_kind_the_test_ruleset_emits_has_a_reducer() -> None:
    c = Campaign()
    c.act("schedule", label="a", minutes=10)
    c.act("chain", minutes=1, then_minutes=1)
    c.act("note", text="x")
    c.advance(T0 + timedelta(hours=1))
    assert {e.kind for e in c.events} <= RS.reducers.kinds()
