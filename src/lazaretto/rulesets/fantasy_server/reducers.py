"""The fantasy-server reducers: how each event kind changes the state (DESIGN.md,
principle 2). Payloads carry results, so replaying the log rebuilds the same state."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from lazaretto.core.character import Character, Condition
from lazaretto.core.events import Event, ReducerRegistry
from lazaretto.core.state import CORE_REDUCERS
from lazaretto.rulesets.fantasy_server.state import (
    Addiction,
    Door,
    Encounter,
    FantasyState,
    HealRecord,
    Item,
    Property,
    Raid,
    Scene,
    TortureSession,
    Trace,
    TraumaTreatment,
)

REDUCERS = ReducerRegistry(CORE_REDUCERS)
Reducer = Callable[[Any, Event], None]


def on(*kinds: str) -> Callable[[Reducer], Reducer]:
    """Register one reducer for several event kinds."""

    def register(fn: Reducer) -> Reducer:
        for kind in kinds:
            REDUCERS.on(kind)(fn)
        return fn

    return register


def _when(value: Any) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def _char(state: FantasyState, ev: Event) -> Character:
    return state.characters[ev.payload["character"]]


@on("sheet.set")
def _sheet(state: FantasyState, ev: Event) -> None:
    ch = _char(state, ev)
    ch.stats.update(ev.payload.get("stats", {}))
    ch.data.update(ev.payload.get("data", {}))
    for skill in ev.payload.get("skills", []):
        if not ch.has_skill(skill):
            ch.skills.append(skill)


@on(
    "hp.damaged",
    "hp.healed",
    "hp.regenerated",
    "fall.resolved",
    "collision.resolved",
    "treatment.hp_lost",
)
def _hp(state: FantasyState, ev: Event) -> None:
    """Every HP change carries the resulting HP of each character it touches."""
    for char_id, hits in ev.payload.get("hits_after", {}).items():
        state.characters[char_id].hits = hits


@on("character.died")
def _died(state: FantasyState, ev: Event) -> None:
    ch = _char(state, ev)
    ch.alive = False
    ch.hits = 0
    ch.put(Condition(kind="dead", started=ev.at, source=ev.payload.get("cause", "")))


@on("condition.added")
def _condition_added(state: FantasyState, ev: Event) -> None:
    ch = _char(state, ev)
    cond = Condition.model_validate(ev.payload["condition"])
    if ev.payload.get("replace", True) and cond.kind != "trauma":
        ch.drop(cond.kind)
    ch.conditions.append(cond)


@on("condition.removed", "condition.expired")
def _condition_removed(state: FantasyState, ev: Event) -> None:
    ch = _char(state, ev)
    cid = ev.payload.get("id")
    kind = ev.payload["kind"]
    ch.conditions = [
        c
        for c in ch.conditions
        if not (c.kind == kind and (cid is None or c.data.get("id") == cid))
    ]


@on("condition.changed")
def _condition_changed(state: FantasyState, ev: Event) -> None:
    ch = _char(state, ev)
    cid = ev.payload.get("id")
    for c in ch.conditions:
        if c.kind == ev.payload["kind"] and (cid is None or c.data.get("id") == cid):
            c.data.update(ev.payload.get("data", {}))
            if "deadline" in ev.payload:
                c.deadline = _when(ev.payload["deadline"])


@on("check.rolled")
def _check(state: FantasyState, ev: Event) -> None:
    p = ev.payload
    state.last_checks[f"{p['character']}:{p['purpose']}"] = p.get("crit") or ""
    for consumed in p.get("consumed", []):
        state.characters[p["character"]].drop(consumed)


# --- items and encounters ------------------------------------------------------------------


@on("item.registered", "item.crafted")
def _item_added(state: FantasyState, ev: Event) -> None:
    item = Item.model_validate(ev.payload["item"])
    state.items[item.id] = item


@on(
    "item.approved",
    "item.rejected",
    "item.equipped",
    "item.unequipped",
    "item.critical_logged",
    "item.broke",
    "item.partially_broke",
    "item.destroyed",
    "item.repaired",
    "item.transferred",
    "item.used",
)
def _item_changed(state: FantasyState, ev: Event) -> None:
    item = state.items[ev.payload["item"]]
    for key, value in ev.payload.get("set", {}).items():
        if key == "properties":
            item.properties = [Property.model_validate(p) for p in value]
        else:
            setattr(item, key, value)


@on("combat.started")
def _combat_started(state: FantasyState, ev: Event) -> None:
    enc = Encounter.model_validate(ev.payload["encounter_record"])
    state.encounters[enc.id] = enc


@on("combat.ended")
def _combat_ended(state: FantasyState, ev: Event) -> None:
    state.encounters[ev.payload["encounter"]].active = False


@on("combat.fled")
def _combat_fled(state: FantasyState, ev: Event) -> None:
    enc = state.encounters[ev.payload["encounter"]]
    enc.participants = [c for c in enc.participants if c != ev.payload["character"]]


# --- healing -------------------------------------------------------------------------------


@on("treatment.opened")
def _treatment_opened(state: FantasyState, ev: Event) -> None:
    t = TraumaTreatment.model_validate(ev.payload["treatment"])
    state.treatments[t.id] = t


@on("treatment.rolled", "treatment.completed")
def _treatment_progress(state: FantasyState, ev: Event) -> None:
    t = state.treatments[ev.payload["treatment"]]
    for key, value in ev.payload.get("set", {}).items():
        setattr(t, key, _when(value) if key in ("roll_due", "last_roll") else value)


@on("magic_heal.recorded")
def _magic_heal(state: FantasyState, ev: Event) -> None:
    log = state.magic_heals.setdefault(ev.payload["character"], [])
    log.append(HealRecord(at=ev.at, amount=ev.payload["amount"]))
    horizon = ev.payload.get("window_start")
    if horizon:
        start = datetime.fromisoformat(horizon)
        state.magic_heals[ev.payload["character"]] = [r for r in log if r.at > start]


@on(
    "addiction.potion_counted",
    "addiction.stage_reached",
    "addiction.day_evaluated",
    "addiction.withdrawal_checked",
    "addiction.grave_checked",
    "addiction.treatment_started",
    "addiction.treatment_interrupted",
    "addiction.cured",
    "addiction.ban_ended",
    "addiction.spiritual_counted",
    "addiction.ban_broken",
)
def _addiction(state: FantasyState, ev: Event) -> None:
    rec = state.addictions.setdefault(ev.payload["character"], Addiction())
    for key, value in ev.payload.get("set", {}).items():
        setattr(rec, key, _when(value) if key in ("course_until", "ban_until") else value)


# --- crime -----------------------------------------------------------------------------------


@on("raid.approved")
def _raid_approved(state: FantasyState, ev: Event) -> None:
    raid = Raid.model_validate(ev.payload["raid"])
    state.raids[raid.id] = raid


@on("raid.committed", "raid.closed")
def _raid_changed(state: FantasyState, ev: Event) -> None:
    raid = state.raids[ev.payload["raid"]]
    for key, value in ev.payload.get("set", {}).items():
        setattr(raid, key, value)


@on("trace.left")
def _trace_left(state: FantasyState, ev: Event) -> None:
    scene = state.scenes.setdefault(ev.payload["scene"], Scene(id=ev.payload["scene"]))
    trace = Trace.model_validate(ev.payload["trace"])
    scene.traces[trace.id] = trace


@on("evidence.searched", "trace.collected", "trace.studied")
def _trace_changed(state: FantasyState, ev: Event) -> None:
    scene = state.scenes[ev.payload["scene"]]
    for trace_id, changes in ev.payload.get("traces_set", {}).items():
        trace = scene.traces[trace_id]
        for key, value in changes.items():
            setattr(trace, key, value)


@on("door.registered")
def _door(state: FantasyState, ev: Event) -> None:
    door = Door.model_validate(ev.payload["door"])
    state.doors[door.id] = door


@on("lock.attempted")
def _lock(state: FantasyState, ev: Event) -> None:
    door_id = ev.payload.get("door")
    if door_id and ev.payload.get("opened"):
        state.doors[door_id].open = True


@on("torture.round_resolved")
def _torture_round(state: FantasyState, ev: Event) -> None:
    p = ev.payload
    session = state.tortures.get(p["victim"])
    if session is None:
        session = TortureSession(victim=p["victim"], torturer=p["actor"], started=ev.at)
        state.tortures[p["victim"]] = session
    session.rounds = p["round"]


@on("torture.ended")
def _torture_ended(state: FantasyState, ev: Event) -> None:
    state.tortures.pop(ev.payload["victim"], None)


@on(
    "theft.resolved",
    "robbery.resolved",
    "property.damage_recorded",
    "stealth.resolved",
    "ambush.declared",
    "fall.action_resolved",
    "heal.spiritual_recorded",
    "mutation.rolled",
    "mutation.resisted",
    "skill.used",
    "contest.resolved",
    "item.craft_failed",
)
def _record_only(state: FantasyState, ev: Event) -> None:
    """Facts recorded for the log; their state changes come in their own events."""
