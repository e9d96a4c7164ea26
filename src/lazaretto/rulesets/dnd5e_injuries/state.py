"""The dnd5e-injuries campaign state and its reducers.

Injuries live on the characters as conditions (see ``common.py`` for the layout); the
state itself only numbers them. Every payload carries results (new hit points, rolled
durations, deadlines as ISO strings), so replaying the log rebuilds the same state.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from lazaretto.core.character import Character, Condition
from lazaretto.core.events import Event, ReducerRegistry
from lazaretto.core.state import CORE_REDUCERS, CampaignState
from lazaretto.rulesets.dnd5e_injuries.common import (
    ARMOR_DAMAGED,
    INJURY,
    PENDING,
    REACTION_SPENT,
    SHIELD_KNOCKED,
)


class DndState(CampaignState):
    """dnd5e-injuries state: counters for injury and pending-injury ids."""

    injury_count: int = 0
    pending_count: int = 0


REDUCERS = ReducerRegistry(CORE_REDUCERS)


def _char(state: DndState, ev: Event, key: str = "character") -> Character:
    return state.characters[ev.payload[key]]


def _when(value: Any) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def _by_id(ch: Character, kind: str, ident: str) -> Condition | None:
    return next((c for c in ch.conditions if c.kind == kind and c.data.get("id") == ident), None)


def _remove(ch: Character, kind: str, ident: str) -> None:
    ch.conditions = [c for c in ch.conditions if not (c.kind == kind and c.data.get("id") == ident)]


def next_deadline(data: dict[str, Any]) -> datetime | None:
    """The injury's next change on the clock: an effect ending or natural recovery."""
    times = [e["ends_at"] for e in data.get("effects", []) if e.get("ends_at") and not e["ended"]]
    if data.get("natural_at"):
        times.append(data["natural_at"])
    return min((datetime.fromisoformat(t) for t in times), default=None)


@REDUCERS.on("dnd.stats_set")
def _stats_set(state: DndState, ev: Event) -> None:
    ch = _char(state, ev)
    ch.stats = dict(ev.payload["stats"])
    ch.hits_max = ev.payload["hits_max"]
    ch.hits = ev.payload["hits"]
    ch.data["enemy"] = ev.payload["enemy"]


@REDUCERS.on("damage.taken")
def _damage_taken(state: DndState, ev: Event) -> None:
    p = ev.payload
    ch = _char(state, ev)
    ch.hits = p["hits"]
    ch.data["last_damage"] = {"damage": p["damage"], "damage_type": p["damage_type"]}
    if p.get("attack"):
        ch.data["last_hit"] = {
            k: p.get(k) for k in ("attacker", "damage", "damage_type", "critical", "hits_before")
        } | {"hits": p["hits"], "attempt_allowed": p.get("attempt_allowed", False), "used": False}


@REDUCERS.on("injury.triggered")
def _triggered(state: DndState, ev: Event) -> None:
    data = dict(ev.payload["pending"])
    state.pending_count = max(state.pending_count, int(data["id"][1:]))
    _char(state, ev).conditions.append(
        Condition(kind=PENDING, started=ev.at, source=",".join(data["triggers"]), data=data)
    )


@REDUCERS.on("injury.located")
@REDUCERS.on("injury.exchanged")
@REDUCERS.on("injury.needs_gm")
def _pending_updated(state: DndState, ev: Event) -> None:
    cond = _by_id(_char(state, ev), PENDING, ev.payload["pending"])
    if cond is not None:
        cond.data.update(ev.payload["changes"])


@REDUCERS.on("injury.dodged")
@REDUCERS.on("injury.unmapped")
def _pending_dropped(state: DndState, ev: Event) -> None:
    _remove(_char(state, ev), PENDING, ev.payload["pending"])


@REDUCERS.on("injury.attempted")
def _attempted(state: DndState, ev: Event) -> None:
    hit = _char(state, ev, "target").data.get("last_hit")
    if hit is not None:
        hit["used"] = True


@REDUCERS.on("injury.received")
@REDUCERS.on("injury.disfigured")
def _received(state: DndState, ev: Event) -> None:
    p = ev.payload
    ch = _char(state, ev)
    record = dict(p["injury"])
    state.injury_count = max(state.injury_count, int(record["id"][1:]))
    if p.get("pending"):
        _remove(ch, PENDING, p["pending"])
    ch.conditions.append(
        Condition(kind=INJURY, started=ev.at, deadline=next_deadline(record), data=record)
    )
    ch.hits_max, ch.hits = p["hits_max"], p["hits"]
    if p.get("lost_limb"):
        ch.data.setdefault("lost_limbs", []).append(p["lost_limb"])


@REDUCERS.on("injury.effect_ended")
def _effect_ended(state: DndState, ev: Event) -> None:
    cond = _by_id(_char(state, ev), INJURY, ev.payload["injury"])
    if cond is not None:
        for index in ev.payload["effects"]:
            cond.data["effects"][index]["ended"] = True
        cond.deadline = next_deadline(cond.data)


@REDUCERS.on("injury.healed")
def _healed(state: DndState, ev: Event) -> None:
    p = ev.payload
    ch = _char(state, ev)
    _remove(ch, INJURY, p["injury"])
    ch.hits_max, ch.hits = p["hits_max"], p["hits"]
    if p.get("limb_restored") in ch.data.get("lost_limbs", []):
        ch.data["lost_limbs"].remove(p["limb_restored"])


@REDUCERS.on("injury.treatment_progress")
def _progress(state: DndState, ev: Event) -> None:
    cond = _by_id(_char(state, ev), INJURY, ev.payload["injury"])
    if cond is not None:
        cond.data["medicine_successes"] = ev.payload["successes"]
        cond.data["success_days"] = ev.payload["success_days"]


@REDUCERS.on("injury.drained")
@REDUCERS.on("injury.bled")
def _hp_changed(state: DndState, ev: Event) -> None:
    p = ev.payload
    ch = _char(state, ev)
    ch.hits_max, ch.hits = p["hits_max"], p["hits"]
    cond = _by_id(ch, INJURY, p["injury"])
    if cond is not None and "max_hp_loss" in p:
        cond.data["max_hp_loss"] = p["max_hp_loss"]


@REDUCERS.on("turn.started")
def _turn_started(state: DndState, ev: Event) -> None:
    ch = _char(state, ev)
    ch.data["turn"] = ev.payload["turn"]
    ch.drop(REACTION_SPENT)  # a creature regains its reaction at the start of its turn


@REDUCERS.on("reaction.spent")
def _reaction_spent(state: DndState, ev: Event) -> None:
    _char(state, ev).put(
        Condition(kind=REACTION_SPENT, started=ev.at, data={"turn": ev.payload["turn"]})
    )


@REDUCERS.on("shield.knocked_away")
def _shield_knocked(state: DndState, ev: Event) -> None:
    _char(state, ev).put(
        Condition(kind=SHIELD_KNOCKED, started=ev.at, data={"bonus": ev.payload["bonus"]})
    )


@REDUCERS.on("armor.damaged")
def _armor_damaged(state: DndState, ev: Event) -> None:
    _char(state, ev).put(
        Condition(kind=ARMOR_DAMAGED, started=ev.at, data={"penalty": ev.payload["penalty"]})
    )


@REDUCERS.on("equipment.restored")
def _equipment_restored(state: DndState, ev: Event) -> None:
    kind = SHIELD_KNOCKED if ev.payload["item"] == "shield" else ARMOR_DAMAGED
    _char(state, ev).drop(kind)


@REDUCERS.on("character.died")
def _died(state: DndState, ev: Event) -> None:
    ch = _char(state, ev)
    ch.alive = False
    ch.hits = 0
    ch.drop(PENDING, REACTION_SPENT)


@REDUCERS.on("death_save.rolled")
@REDUCERS.on("save.failed")
@REDUCERS.on("injury.not_triggered")
@REDUCERS.on("injury.treatment_failed")
@REDUCERS.on("dodge.failed")
def _record_only(state: DndState, ev: Event) -> None:
    """Facts recorded for the log; they change no state."""
