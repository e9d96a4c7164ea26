"""The hospitals of a simulated location: who waits, and which table, bed and healer is free.

Tables and beds are read from the ruleset's state (who lies where is the ruleset's
business: W-HOSP-13, a treatment's end frees the bed). Which healer is busy is the
simulation's: a healer is busy while operating or carrying out a course's items.

Policy (the rules leave it to the hospital staff): a newcomer queues at the hospital
with the shortest queue; operations come before disease courses; within a kind, first
come, first served.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from lazaretto.rulesets.warhammer_larp.state import Hospital, WarhammerState
from lazaretto.sim.scenario import HospitalSpec
from lazaretto.sim.tally import Tally
from lazaretto.sim.world import Agenda, World

OPERATION = "operation"
COURSE = "course"


def warhammer_state(world: World) -> WarhammerState:
    """The ruleset's state of a warhammer-larp ``world``."""
    st = world.state
    assert isinstance(st, WarhammerState)
    return st


def add_healer(world: World, cid: str) -> None:
    """Add a healer (of a hospital or in the field) whose kit is checked (W-HEAL-04)."""
    kit = list(world.rs.params.healer_kit)  # type: ignore[attr-defined]
    world.add(cid, skills=("Healer",))
    world.act("check-kit", 0, healer=cid, items=kit)


@dataclass
class Job:
    """A patient waiting for a hospital: an operation (needs a table) or a course (a bed).

    ``begin(minute, hospital, healer, place)`` starts the work through the ruleset and
    returns the minute the healer is free again, or None if the ruleset refused.
    ``ready(minute)`` says whether the patient can be taken now; ``gone()`` whether they
    will never be (dead, cured meanwhile).
    """

    patient: str
    kind: str
    arrived: float
    begin: Callable[[float, str, str, str], float | None]
    ready: Callable[[], bool]
    gone: Callable[[], bool]


class HospitalDesk:
    """Registers the hospitals and their healers, queues patients and dispatches them."""

    def __init__(
        self,
        world: World,
        agenda: Agenda,
        tally: Tally,
        spec: HospitalSpec,
        *,
        location: str | None = None,
        prefix: str = "h",
    ) -> None:
        self.world, self.agenda, self.tally = world, agenda, tally
        self.ids: list[str] = []
        self.healers: dict[str, list[str]] = {}
        self.busy_until: dict[str, float] = {}
        self.queues: dict[str, list[Job]] = {}
        self._retry: dict[str, float] = {}
        for i in range(1, spec.count + 1):
            hid = f"{prefix}{i}"
            world.act(
                "register-hospital",
                0,
                id=hid,
                name=f"Hospital {hid}",
                number=hid,
                tables=[{"id": f"t{j}"} for j in range(1, spec.tables + 1)],
                beds=[{"id": f"b{j}"} for j in range(1, spec.beds + 1)],
                location=location,
            )
            self.ids.append(hid)
            self.queues[hid] = []
            self.healers[hid] = []
            for k in range(1, spec.healers + 1):
                cid = f"{hid}-healer{k}"
                add_healer(world, cid)
                self.healers[hid].append(cid)
                self.busy_until[cid] = 0.0

    @property
    def state(self) -> WarhammerState:
        """The ruleset's state."""
        return warhammer_state(self.world)

    def hospital(self, hid: str) -> Hospital:
        """The ruleset's record of hospital ``hid``."""
        return self.state.hospitals[hid]

    def free_bed(self, hid: str) -> str | None:
        """A free bed of ``hid`` (the first by number), if any."""
        return next((b for b, p in self.hospital(hid).beds.items() if p.occupant is None), None)

    def free_table(self, hid: str) -> str | None:
        """A free operating table of ``hid``, if any."""
        return next((t for t, p in self.hospital(hid).tables.items() if p.occupant is None), None)

    def occupied(self, what: str) -> int:
        """Beds (``"beds"``) or tables (``"tables"``) taken in every hospital."""
        return sum(
            p.occupant is not None
            for h in self.state.hospitals.values()
            for p in getattr(h, what).values()
        )

    def waiting(self) -> int:
        """Patients queued at every hospital."""
        return sum(len(q) for q in self.queues.values())

    def submit(self, job: Job, minute: float) -> bool:
        """Queue ``job`` at the hospital with the shortest queue; False if there is none."""
        if not self.ids:
            return False
        hid = min(self.ids, key=lambda h: (len(self.queues[h]), self.ids.index(h)))
        self.queues[hid].append(job)
        self.dispatch(hid, minute)
        return True

    def dispatch(self, hid: str, minute: float) -> None:
        """Start whatever can start now at ``hid``; plan a retry if someone still waits."""
        queue = self.queues[hid]
        queue[:] = [j for j in queue if not j.gone()]
        queue.sort(key=lambda j: (j.kind != OPERATION, j.arrived))
        for job in list(queue):
            healer = next((h for h in self.healers[hid] if self.busy_until[h] <= minute), None)
            if healer is None:
                break
            place = self.free_table(hid) if job.kind == OPERATION else self.free_bed(hid)
            if place is None or not job.ready():
                continue
            queue.remove(job)
            free_at = job.begin(minute, hid, healer, place)
            if free_at is None:
                continue
            self.tally.add(f"{job.kind}_wait_minutes", minute - job.arrived)
            self.tally.add(f"{job.kind}s")
            self.busy_until[healer] = free_at
            self.agenda.at(free_at, partial(self.dispatch, hid))
        if queue:
            self._plan_retry(hid, minute)

    def _plan_retry(self, hid: str, minute: float) -> None:
        """Come back when a healer, a bed or a table is next expected to be free."""
        h = self.hospital(hid)
        soon = [b for b in (self.busy_until[x] for x in self.healers[hid]) if b > minute]
        for place in (*h.beds.values(), *h.tables.values()):
            if place.occupant is None:
                continue
            ch = self.world.state.characters.get(place.occupant)
            for cond in ch.conditions if ch else ():
                if cond.kind in ("treatment", "disease_course") and cond.deadline is not None:
                    soon.append(self.world.minute(cond.deadline))
        later = [m for m in soon if m > minute]
        when = min(later) if later else minute + 1
        planned = self._retry.get(hid)
        if planned is not None and minute < planned <= when:
            return
        self._retry[hid] = when
        self.agenda.at(when, partial(self.dispatch, hid))
