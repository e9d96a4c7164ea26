"""The wounded's way (warhammer-larp): hit → field healer → hospital table → bed → cured.

Every step is a ruleset action — ``lose-hits``, ``treat-light-wound``, ``apply-bandage``,
``start-operation``, ``finish-operation`` — so the countdowns are the ruleset's own
(light wound → 30 min → heavy wound → 15 min → death, W-WND-08/12), and so are the cures
(10 minutes on a mat, W-TRT-03; 20 minutes in bed after the operation, W-TRT-13).

Decisions the rules leave to players and masters, made here by a simple policy:

* a free field healer goes to the waiting wounded chosen by ``triage``: ``heavy_first``
  (unbandaged heavy wounds, nearest death first, then light ones by deadline), ``fifo``
  (order of wounding) or ``deadline`` (the nearest countdown of any kind);
* on arrival a light wound is treated on the spot, on one of the healer's mats; a heavy
  one is bandaged (which stops its countdown, A-W-06) and carried to a hospital; the
  healer is free again after ``bandage_minutes``, stretcher-bearers do the carrying;
* with every mat taken, the healer waits by the patient for the first mat to free;
* after an operation the patient goes to a free bed, or stays on the table (W-HOSP-14).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial

from lazaretto.core.character import Character
from lazaretto.rulesets.warhammer_larp.checks import wound_state
from lazaretto.rulesets.warhammer_larp.state import WarhammerState
from lazaretto.sim.hospital import OPERATION, HospitalDesk, Job, add_healer, warhammer_state
from lazaretto.sim.scenario import FieldCare, WoundSpec
from lazaretto.sim.tally import Tally
from lazaretto.sim.world import Agenda, World, draw

WOUNDS = ("light_wound", "heavy_wound")
WOUND_DEATH = "unbandaged_heavy"
"""The cause the ruleset gives a death from a wound's countdown (W-WND-12)."""


@dataclass
class Patient:
    """One wound of one character, as the simulation follows it."""

    cid: str
    wounded_at: float
    index: int = 0
    assigned: bool = False
    reached_at: float | None = None
    at_hospital: float | None = None


def is_wounded(ch: Character) -> bool:
    """Alive with a light or heavy wound."""
    return ch.alive and any(c.kind in WOUNDS for c in ch.conditions)


def is_fit(ch: Character) -> bool:
    """Alive and in no wound, treatment, operation or course: can be hit in a fight."""
    busy = ("light_wound", "heavy_wound", "treatment", "on_table", "disease_course")
    return ch.alive and not any(c.kind in busy for c in ch.conditions)


class WoundFlow:
    """Field healers with their mats, and the way of every wound through them."""

    def __init__(
        self,
        world: World,
        agenda: Agenda,
        rng: random.Random,
        tally: Tally,
        wounds: WoundSpec,
        field: FieldCare,
        desk: HospitalDesk,
        *,
        prefix: str = "",
    ) -> None:
        self.world, self.agenda, self.rng, self.tally = world, agenda, rng, tally
        self.spec, self.field, self.desk = wounds, field, desk
        self.patients: list[Patient] = []
        self.waiting: list[Patient] = []
        self.unreached: set[int] = set()
        self.free: list[str] = []
        self.mats: dict[str, list[str]] = {}
        for i in range(1, field.healers + 1):
            cid = f"{prefix}fh{i}"
            add_healer(world, cid)
            self.mats[cid] = []
            for k in range(1, field.mats + 1):
                mat = f"{cid}-m{k}"
                world.act("register-mat", 0, id=mat, healer=cid, length_cm=180, width_cm=60)
                self.mats[cid].append(mat)
            self.free.append(cid)

    @property
    def state(self) -> WarhammerState:
        """The ruleset's state."""
        return warhammer_state(self.world)

    def wound(self, cid: str, minute: float) -> None:
        """``cid`` is hit now: the hits lost are rolled and recorded, the healers called."""
        ch = self.world.character(cid)
        lost = min(draw(self.spec.hits_lost, self.rng), ch.hits)
        if lost < 1 or not ch.alive:
            return
        if self.world.try_act("lose-hits", minute, character=cid, hits=lost) is None:
            return
        self.tally.add("wounds")
        if wound_state(ch) == "heavy_unbandaged":
            self.tally.add("heavy_at_once")
        p = Patient(cid, minute, index=len(self.patients))
        self.unreached.add(len(self.patients))
        self.patients.append(p)
        self.waiting.append(p)
        self.dispatch(minute)

    # --- field healers ---------------------------------------------------------------

    def _deadline(self, p: Patient) -> float:
        ch = self.world.character(p.cid)
        cond = next((c for c in ch.conditions if c.kind in WOUNDS), None)
        if cond is None or cond.deadline is None:
            return float("inf")
        return self.world.minute(cond.deadline)

    def _priority(self, p: Patient) -> tuple[float, float]:
        if self.field.triage == "fifo":
            return (p.wounded_at, 0.0)
        if self.field.triage == "deadline":
            return (self._deadline(p), p.wounded_at)
        heavy = self.world.character(p.cid).has("heavy_wound")
        return (0.0 if heavy else 1.0, self._deadline(p))

    def dispatch(self, minute: float) -> None:
        """Send free field healers to the waiting wounded, by triage."""
        self.waiting = [p for p in self.waiting if is_wounded(self.world.character(p.cid))]
        while self.free and self.waiting:
            p = min(self.waiting, key=self._priority)
            self.waiting.remove(p)
            healer = self.free.pop(0)
            p.assigned = True
            arrive = minute + draw(self.field.reach_minutes, self.rng)
            self.agenda.at(arrive, partial(self._arrive, healer, p))

    def _release(self, healer: str, minute: float) -> None:
        self.free.append(healer)
        self.dispatch(minute)

    def _free_mat(self, healer: str) -> str | None:
        return next((m for m in self.mats[healer] if self.state.mats[m].occupant is None), None)

    def _mat_free_at(self, healer: str, minute: float) -> float:
        ends = []
        for m in self.mats[healer]:
            occupant = self.state.mats[m].occupant
            cond = self.world.character(occupant).condition("treatment") if occupant else None
            if cond is not None and cond.deadline is not None:
                ends.append(self.world.minute(cond.deadline))
        later = [e for e in ends if e > minute]
        return min(later) if later else minute + 1

    def _arrive(self, healer: str, p: Patient, minute: float) -> None:
        ch = self.world.character(p.cid)
        if not is_wounded(ch):  # died (or was cured) before the healer came
            self.tally.add("trips_too_late")
            self._release(healer, minute)
            return
        if p.reached_at is None:
            p.reached_at = minute
            self.unreached.discard(p.index)
            self.tally.add("field_wait_minutes", minute - p.wounded_at)
            self.tally.add("reached")
        mat = self._free_mat(healer)
        if mat is None:  # every mat taken: wait by the patient for the first to free
            self.tally.add("mat_waits")
            later = self._mat_free_at(healer, minute)
            self.agenda.at(later, partial(self._arrive, healer, p))
            return
        busy = minute + draw(self.field.bandage_minutes, self.rng)
        light = wound_state(ch) == "light"  # treated on the spot; a heavy one bandaged
        done = self.world.try_act(
            "treat-light-wound" if light else "apply-bandage",
            minute,
            healer=healer,
            patient=p.cid,
            bandages=ch.hits_max - ch.hits,
            place="field",
            mat=mat,
        )
        if light:
            self.tally.add("field_treatments")
        elif done is not None:
            self.tally.add("bandaged_heavy")
            carry = busy + draw(self.field.carry_minutes, self.rng)
            self.agenda.at(carry, partial(self._to_hospital, p))
        self.agenda.at(busy, partial(self._release, healer))

    # --- hospital --------------------------------------------------------------------

    def _to_hospital(self, p: Patient, minute: float) -> None:
        ch = self.world.character(p.cid)
        if not is_wounded(ch):
            return
        p.at_hospital = minute
        job = Job(
            patient=p.cid,
            kind=OPERATION,
            arrived=minute,
            begin=partial(self._operate, p),
            ready=partial(self._not_in_course, p),
            gone=partial(self._healed_or_dead, p),
        )
        if not self.desk.submit(job, minute):
            self.tally.add("no_hospital")

    def _not_in_course(self, p: Patient) -> bool:
        return not self.world.character(p.cid).has("disease_course")  # W-DTRT-19

    def _healed_or_dead(self, p: Patient) -> bool:
        return not is_wounded(self.world.character(p.cid))

    def _operate(
        self, p: Patient, minute: float, hid: str, healer: str, table: str
    ) -> float | None:
        done = self.world.try_act(
            "start-operation", minute, healer=healer, patient=p.cid, hospital=hid, table=table
        )
        if done is None:
            return None
        end = minute + draw(self.spec.operation_minutes, self.rng)
        self.agenda.at(end, partial(self._finish, p, hid, table))
        return end

    def _finish(self, p: Patient, hid: str, table: str, minute: float) -> None:
        ch = self.world.character(p.cid)
        if not ch.alive or not ch.has("on_table"):
            return
        bed = self.desk.free_bed(hid) or table  # W-HOSP-14: the table serves as a bed
        stitches = [{"location": "wound"}] * (ch.hits_max - ch.hits)
        self.world.try_act("finish-operation", minute, patient=p.cid, stitches=stitches, bed=bed)
        self.tally.add("table_as_bed" if bed == table else "to_bed")

    # --- the end -----------------------------------------------------------------------

    def count_outcomes(self) -> None:
        """Deaths from wounds of everyone wounded (by their last wound), counted once at the
        end; a death of another cause (a lethal disease) is counted apart."""
        last = {p.cid: p for p in self.patients}
        for p in last.values():
            ch = self.world.character(p.cid)
            dead = ch.condition("dead")
            if dead is not None and dead.source != WOUND_DEATH:
                self.tally.add("deaths_other")
            elif not ch.alive:
                where = "deaths_field" if p.at_hospital is None else "deaths_hospital"
                self.tally.add(where)
                self.tally.add("deaths")
            elif is_wounded(ch):
                self.tally.add("still_wounded")

    def waiting_in_field(self) -> int:
        """Wounded, alive and not yet reached by a healer."""
        dead = [i for i in self.unreached if not self.world.character(self.patients[i].cid).alive]
        self.unreached.difference_update(dead)
        return len(self.unreached)
