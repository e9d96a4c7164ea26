"""The ide4-survival campaign state and its reducers.

The states of the condition table (сыт, голоден, устал…) live on the characters as
conditions, each with the source and rule IDs that produced it (``data.rules``,
``data.why_en``/``why_ru``). Everything else a character carries through the game day
— calm points, rerolls, meals, sleep, load, poison points — is its :class:`Survivor`
record. Checks, disease cases and exposures are campaign collections.

Events carry results: a survivor event's ``set`` holds the new field values, so
replaying the log rebuilds the same state without re-running any rule.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field
from pydantic_core import to_jsonable_python

from lazaretto.core.character import Condition, Visibility
from lazaretto.core.events import Event, ReducerRegistry
from lazaretto.core.state import CORE_REDUCERS, CampaignState


class Reroll(BaseModel):
    """A held reroll: meal (обеденный), pacified (умиротворённый), hot (горячий) or an
    Immunity reroll given by a treatment."""

    kind: Literal["meal", "pacified", "hot", "immunity"]
    gained: datetime
    usable_from: datetime
    expires: datetime | None = None
    source: str = ""
    case: str | None = None


class LastSleep(BaseModel):
    """The last finished sleep."""

    hours: int
    planned: int
    camp: str
    interrupted: bool = False
    ended: datetime
    xp_hours: int = 0


class MarchDay(BaseModel):
    """One day of travel and the camp of its night (I-COND-06, I-TRAVEL-07)."""

    day: int
    pace: str
    camp: str | None = None


class Survivor(BaseModel):
    """Everything the survival rules track for one character."""

    joined: datetime | None = None
    # the sheet
    body_food_norm: int = 1000
    sex: Literal["male", "female", "other"] = "other"
    hot_cooldown_minutes: int | None = None
    caster: bool = False
    life_partner: str | None = None
    love_lost: bool = False
    # calm points (очки спокойствия)
    calm: int = 3
    turn: str = ""
    lost_in_turn: int = 0
    gained_in_turn: int = 0
    carry: int = 0
    scene_events: list[str] = Field(default_factory=list)
    calm_capped_until: datetime | None = None
    quiet_minutes: float = 0
    adrenaline: int = 0
    replacements: int = 0
    zero_since: datetime | None = None
    pacified_used: datetime | None = None
    # rerolls
    rerolls: list[Reroll] = Field(default_factory=list)
    # meals and water
    meals: dict[str, str] = Field(default_factory=dict)
    consecutive_skips: int = 0
    food_marks: dict[str, str] = Field(default_factory=dict)
    hungry_days: int = 0
    dry_days: int = 0
    liquid_today_ml: float = 0
    clean_water_ml: float = 0
    rest_minutes: float = 0
    # sleep
    sleep_options: list[int] = Field(default_factory=list)
    sleep_planned: int | None = None
    sleep_started: datetime | None = None
    sleep_camp: str | None = None
    asleep: bool = False
    lady_luck: bool = False
    camp: str | None = None
    last_sleep: LastSleep | None = None
    sleep_log: list[int] = Field(default_factory=list)
    slept_today: bool = False
    last_woke: datetime | None = None
    deprived_days: int = 0
    # experience
    xp_pending: int = 0
    xp_banked: int = 0
    # poisoning (extended: points)
    poison_points: int = 0
    vomits: int = 0
    # load and travel
    load: Literal["light", "equipped", "loaded", "overloaded"] = "equipped"
    slots: dict[str, float] = Field(default_factory=dict)
    pace: str | None = None
    marches: list[MarchDay] = Field(default_factory=list)
    # intimacy
    last_counted_act: datetime | None = None
    # combat stamina pool (kept by the Combat rules)
    stamina: int | None = None
    # misc
    burns: float = 0


class ShiftItem(BaseModel):
    """One difficulty shift applied to a check, with where it came from."""

    source: str
    amount: int
    rules: list[str] = Field(default_factory=list)


class CheckRecord(BaseModel):
    """A d100 check (A-I-01): request, shifts, difficulty and outcome."""

    id: str
    character: str
    skill: str
    group: str | None = None
    tags: list[str] = Field(default_factory=list)
    base: int = 0
    shifts: list[ShiftItem] = Field(default_factory=list)
    difficulty: int = 0
    at: datetime
    purpose: str = ""
    payload: dict[str, Any] = Field(default_factory=dict)
    pending: bool = False
    roll: int | None = None
    outcome: str | None = None
    history: list[str] = Field(default_factory=list)
    replaced: bool = False
    replacements: int = 0
    energy_spent: int = 0
    adrenaline_used: int = 0
    triumph_downgraded: bool = False
    energy_limit: int = 3
    notes: list[str] = Field(default_factory=list)


class Case(BaseModel):
    """One character's disease, from exposure to cure or death."""

    id: str
    character: str
    disease: str
    status: Literal["incubating", "sick", "resisted", "cured", "dead"] = "incubating"
    stage: int = 0
    exposed: datetime
    sick_since: datetime | None = None
    death_at: datetime | None = None
    stage1_group: str = "body"
    suppressed_until: datetime | None = None
    suppresses: list[str] = Field(default_factory=list)
    reductions: dict[str, int] = Field(default_factory=dict)
    check_modifier: int = 0
    no_worsening: bool = False
    cure_at: datetime | None = None
    treatments: list[str] = Field(default_factory=list)
    relieved: list[str] = Field(default_factory=list)
    source: str = ""
    difficulty: int = 0
    checks: list[str] = Field(default_factory=list)


class Exposure(BaseModel):
    """A running condition of infection (I-IMM-03..06)."""

    id: str
    character: str
    kind: Literal["cold_no_clothes", "cold_warm_clothes", "wet", "sick_contact"]
    disease: str
    difficulty: int
    started: datetime


class Ide4State(CampaignState):
    """ide4-survival state: survivors, checks, disease cases, exposures, the game day."""

    survivors: dict[str, Survivor] = Field(default_factory=dict)
    checks: dict[str, CheckRecord] = Field(default_factory=dict)
    cases: dict[str, Case] = Field(default_factory=dict)
    exposures: dict[str, Exposure] = Field(default_factory=dict)
    custom_diseases: dict[str, dict[str, Any]] = Field(default_factory=dict)
    dropped_diseases: list[str] = Field(default_factory=list)
    day: int = 0
    day_started: datetime | None = None
    day_steps: list[str] = Field(default_factory=list)
    day_ended: bool = False
    counter: int = 0


REDUCERS = ReducerRegistry(CORE_REDUCERS)


def jsonable(value: Any) -> Any:
    """A JSON-able copy (datetimes as ISO strings) for event payloads."""
    return to_jsonable_python(value)


def survivor(state: Ide4State, char_id: str) -> Survivor:
    """The survivor record of ``char_id`` — a fresh default when there is none yet.

    Read-only: handlers change it only through events.
    """
    return state.survivors.get(char_id) or Survivor()


def _survivor_update(state: Ide4State, ev: Event) -> None:
    cid = ev.payload["character"]
    current = state.survivors.get(cid) or Survivor()
    changes = ev.payload.get("set") or {}
    state.survivors[cid] = Survivor.model_validate({**current.model_dump(), **changes})
    state.counter = max(state.counter, int(ev.payload.get("counter", 0)))


SURVIVOR_KINDS: set[str] = set()


def survivor_events(*kinds: str) -> None:
    """Register ``kinds`` as events whose payload ``set`` updates one survivor."""
    for kind in kinds:
        if kind not in SURVIVOR_KINDS:
            SURVIVOR_KINDS.add(kind)
            REDUCERS.on(kind)(_survivor_update)


survivor_events("survivor.joined", "sheet.set")


@REDUCERS.on("condition.gained")
def _gained(state: Ide4State, ev: Event) -> None:
    p = ev.payload
    ch = state.characters[p["character"]]
    key = p.get("key")
    ch.conditions = [
        c for c in ch.conditions if not (c.kind == p["kind"] and c.data.get("key") == key)
    ]
    deadline = p.get("deadline")
    ch.conditions.append(
        Condition(
            kind=p["kind"],
            started=ev.at,
            deadline=None if deadline is None else datetime.fromisoformat(deadline),
            source=p.get("source", ""),
            visibility=Visibility(p.get("visibility", "all")),
            data={
                "key": key,
                "why_en": p.get("why_en", ""),
                "why_ru": p.get("why_ru", ""),
                "rules": list(ev.rule_ids),
                **(p.get("data") or {}),
            },
        )
    )


@REDUCERS.on("condition.removed")
def _removed(state: Ide4State, ev: Event) -> None:
    p = ev.payload
    ch = state.characters[p["character"]]
    key = p.get("key", "*")
    ch.conditions = [
        c
        for c in ch.conditions
        if not (c.kind == p["kind"] and (key == "*" or c.data.get("key") == key))
    ]


def _check_recorded(state: Ide4State, ev: Event) -> None:
    rec = CheckRecord.model_validate(ev.payload["check"])
    state.checks[rec.id] = rec
    state.counter = max(state.counter, int(ev.payload.get("counter", 0)))


for _kind in (
    "check.made",
    "check.pending",
    "check.resolved",
    "check.rerolled",
    "check.tragedy_replaced",
    "check.energy_spent",
):
    REDUCERS.on(_kind)(_check_recorded)


def _case_recorded(state: Ide4State, ev: Event) -> None:
    case = Case.model_validate(ev.payload["case"])
    state.cases[case.id] = case
    state.counter = max(state.counter, int(ev.payload.get("counter", 0)))


CASE_KINDS = (
    "case.exposed",
    "case.sick",
    "case.resisted",
    "case.stage_changed",
    "case.cured",
    "case.treated",
    "case.ended",
)
for _kind in CASE_KINDS:
    REDUCERS.on(_kind)(_case_recorded)


@REDUCERS.on("exposure.started")
def _exposure_started(state: Ide4State, ev: Event) -> None:
    exp = Exposure.model_validate(ev.payload["exposure"])
    state.exposures[exp.id] = exp
    state.counter = max(state.counter, int(ev.payload.get("counter", 0)))


@REDUCERS.on("exposure.ended")
def _exposure_ended(state: Ide4State, ev: Event) -> None:
    state.exposures.pop(ev.payload["id"], None)


@REDUCERS.on("character.died")
def _died(state: Ide4State, ev: Event) -> None:
    ch = state.characters[ev.payload["character"]]
    ch.alive = False
    ch.conditions = [
        Condition(
            kind="dead",
            started=ev.at,
            source=ev.payload.get("cause", ""),
            data={
                "why_en": ev.payload.get("why_en", ""),
                "why_ru": ev.payload.get("why_ru", ""),
                "rules": list(ev.rule_ids),
            },
        )
    ]


@REDUCERS.on("day.started")
def _day_started(state: Ide4State, ev: Event) -> None:
    state.day = ev.payload["day"]
    state.day_started = ev.at
    state.day_steps = ["morning"]
    state.day_ended = False


@REDUCERS.on("day.step_done")
def _step_done(state: Ide4State, ev: Event) -> None:
    if ev.payload["step"] not in state.day_steps:
        state.day_steps.append(ev.payload["step"])


@REDUCERS.on("day.ended")
def _day_ended(state: Ide4State, ev: Event) -> None:
    state.day_ended = True
    if "end" not in state.day_steps:
        state.day_steps.append("end")


@REDUCERS.on("disease.defined")
def _defined(state: Ide4State, ev: Event) -> None:
    state.custom_diseases[ev.payload["code"]] = ev.payload["disease"]
    if ev.payload["code"] in state.dropped_diseases:
        state.dropped_diseases.remove(ev.payload["code"])


@REDUCERS.on("disease.dropped")
def _dropped(state: Ide4State, ev: Event) -> None:
    if ev.payload["code"] not in state.dropped_diseases:
        state.dropped_diseases.append(ev.payload["code"])
    state.custom_diseases.pop(ev.payload["code"], None)


def _record_only(state: Ide4State, ev: Event) -> None:
    """Facts recorded for the log and the GM; they change no state."""


for _kind in (
    "day.reminder",
    "pregnancy.checked",
    "disease.rage",
    "travel.quick",
    "risk.noted",
    "poison.escalation",
):
    REDUCERS.on(_kind)(_record_only)
