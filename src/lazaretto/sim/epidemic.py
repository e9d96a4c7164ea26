"""An epidemic's way through a location (warhammer-larp): certificate → waves → hospital
courses → the end, by quarantine or by intensive treatment.

The masters' side is ruleset actions: ``issue-certificate`` and ``attach-stickers``
(30 stickers, W-LAB-16), ``start-epidemic`` (W-EPI-06/07), ``epidemic-wave`` every
interval (W-EPI-02..05); the ruleset decides who is protected (only the full plague
outfit blocks an epidemic, W-PROT-01, A-W-20) and when the epidemic is over (W-EPI-08..10).
The hospital side is ``admit``, ``record-anamnesis``, ``diagnose``,
``start-disease-course`` and the six ``course-item``\\ s (W-DTRT-02..08); the cure, its
journal entry and the intensive-treatment count are the ruleset's.

Policy (the masters' and players' choices):

* the masters meet ``met`` living characters per wave, chosen at random, in random order,
  skipping patients lying in a hospital; each wears the full plague outfit with
  probability ``protected_share``;
* an infected character seeks treatment with probability ``seek_share``, after
  ``seek_minutes``; a hospital healer then records the anamnesis and the diagnosis (they
  know the disease when ``healers_know``) and plays the six items one after another,
  each ``item_minutes`` or the rules' minimum (W-DTRT-10);
* the next wave comes as soon as the rules allow (W-EPI-02).
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

from lazaretto.rulesets.warhammer_larp.state import WarhammerState
from lazaretto.sim.hospital import COURSE, HospitalDesk, Job, warhammer_state
from lazaretto.sim.scenario import DiseaseSpec, TreatmentSpec, WaveSpec
from lazaretto.sim.tally import Tally
from lazaretto.sim.world import Agenda, World, draw
from lazaretto.sim.wounds import is_fit

FULL_OUTFIT = ["hooded_robe", "gloves", "plague_mask"]


class EpidemicFlow:
    """One epidemic in ``location``, started at ``start`` (minutes) by a carrier."""

    def __init__(
        self,
        world: World,
        agenda: Agenda,
        rng: random.Random,
        tally: Tally,
        desk: HospitalDesk,
        *,
        residents: list[str],
        location: str,
        disease: DiseaseSpec,
        waves: WaveSpec,
        treatment: TreatmentSpec,
        protected_share: float,
        start: float,
        prefix: str = "",
    ) -> None:
        self.world, self.agenda, self.rng, self.tally, self.desk = world, agenda, rng, tally, desk
        self.residents = residents
        self.location, self.disease, self.waves = location, disease, waves
        self.treatment, self.protected_share = treatment, protected_share
        self.start_minute = start
        self.eid: str | None = None
        self.ended_at: float | None = None
        st = self.state
        if disease.code not in st.diseases:
            world.act(
                "define-disease",
                0,
                code=disease.code,
                name=disease.name,
                symptoms="coughs, shivers",
                lethal=disease.lethal,
                minutes_to_death=disease.minutes_to_death,
                races=disease.races,
                contagious=disease.contagious,
                course=disease.course,
            )
        self.carrier = f"{prefix}carrier"
        world.add(self.carrier, skills=("Carrier",))
        world.act(
            "issue-certificate", 0, kind="epidemic", disease=disease.code, holder=self.carrier
        )
        self.certificate = next(reversed(self.state.certificates))
        needed = world.rs.params.epidemic_required_stickers  # type: ignore[attr-defined]
        world.act("attach-stickers", 0, certificate=self.certificate, count=needed, source="master")
        if treatment.healers_know:
            for healers in desk.healers.values():
                for h in healers:
                    if disease.code not in self.world.character(h).data.get("book", {}):
                        world.act("add-to-book", 0, healer=h, code=disease.code)
        agenda.at(start, self._start)

    @property
    def state(self) -> WarhammerState:
        """The ruleset's state."""
        return warhammer_state(self.world)

    def _start(self, minute: float) -> None:
        done = self.world.try_act(
            "start-epidemic",
            minute,
            carrier=self.carrier,
            certificate=self.certificate,
            location=self.location,
            regional_master="regional master",
            interval_minutes=self.waves.interval_minutes,
            wave_stickers=self.waves.stickers,
        )
        if done is None:
            return
        self.eid = next(e.payload["epidemic"]["id"] for e in done if e.kind == "epidemic.started")
        self.tally.add("epidemics")
        self._wave(minute)

    def _over(self) -> bool:
        assert self.eid is not None
        epi = self.state.epidemics[self.eid]
        if epi.status == "active":
            return False
        if self.ended_at is None and epi.ended_at is not None:
            self.ended_at = self.world.minute(epi.ended_at)
        return True

    def _wave(self, minute: float) -> None:
        if self._over():
            return
        chars = self.world.state.characters
        can_meet = [
            c for c in self.residents if chars[c].alive and not chars[c].has("disease_course")
        ]
        met = self.rng.sample(can_meet, min(draw(self.waves.met, self.rng), len(can_meet), 1000))
        present: list[dict[str, Any]] = [
            {
                "character": c,
                "outfit": FULL_OUTFIT if self.rng.random() < self.protected_share else [],
            }
            for c in met
        ]
        assert self.eid is not None
        done = self.world.try_act(
            "epidemic-wave", minute, epidemic=self.eid, present=present, minutes=self.waves.minutes
        )
        if done is not None:
            wave = next(e.payload for e in done if e.kind == "epidemic.wave_started")
            self.tally.add("waves")
            self.tally.add("protected_met", sum(1 for p in present if p["outfit"]))
            for cid in wave["infected"]:
                self.tally.add("infected")
                if self.rng.random() < self.treatment.seek_share:
                    later = minute + draw(self.treatment.seek_minutes, self.rng)
                    self.agenda.at(later, partial(self._seek, cid))
        gap = max(self.waves.interval_minutes, self.waves.minutes)
        self.agenda.at(minute + gap, self._wave)

    def _ill(self, cid: str) -> bool:
        """Alive and ill with the disease; a spared race's sticker does not count (W-DIS-04)."""
        ch = self.world.character(cid)
        code = self.disease.code
        return ch.alive and any(
            c.kind == "disease" and c.data.get("code") == code and c.data.get("affected")
            for c in ch.conditions
        )

    def _can_start(self, cid: str) -> bool:
        """Wounds first: no course beside a wound or its treatment (W-DTRT-19)."""
        return is_fit(self.world.character(cid))

    def _cured_or_dead(self, cid: str) -> bool:
        return not self._ill(cid)

    def _seek(self, cid: str, minute: float) -> None:
        if not self._ill(cid):
            return
        self.tally.add("sought_treatment")
        if not self.treatment.healers_know:  # W-DTRT-05: no diagnosis without the book
            self.tally.add("no_diagnosis")
            return
        job = Job(
            patient=cid,
            kind=COURSE,
            arrived=minute,
            begin=partial(self._course, cid),
            ready=partial(self._can_start, cid),
            gone=partial(self._cured_or_dead, cid),
        )
        self.desk.submit(job, minute)

    def _course(self, cid: str, minute: float, hid: str, healer: str, bed: str) -> float | None:
        w, code = self.world, self.disease.code
        if cid not in self.state.admissions:
            w.try_act("admit", minute, hospital=hid, patient=cid, healer=healer)
        adm = self.state.admissions.get(cid)
        if adm is None or adm.hospital != hid:
            return None
        steps: list[tuple[str, dict[str, Any]]] = [
            ("record-anamnesis", {}),
            ("diagnose", {"disease": code}),
            ("start-disease-course", {"bed": bed, "diseases": [code]}),
        ]
        for action, extra in steps:
            if w.try_act(action, minute, hospital=hid, patient=cid, healer=healer, **extra) is None:
                return None
        least: dict[str, float] = w.rs.params.medical_action_min_minutes  # type: ignore[attr-defined]
        t = minute
        for item in self.disease.course:
            t += max(self.treatment.item_minutes, least.get(item, 0))
            self.agenda.at(t, partial(self._item, cid, item, least))
        return t

    def _item(self, cid: str, item: str, least: dict[str, float], minute: float) -> None:
        ch = self.world.character(cid)
        if not ch.alive or not ch.has("disease_course"):
            return
        minutes = max(self.treatment.item_minutes, least.get(item, 0))
        self.world.try_act(
            "course-item",
            minute,
            patient=cid,
            disease=self.disease.code,
            item=item,
            minutes=minutes,
        )

    def ill_now(self) -> int:
        """Residents ill with the epidemic's disease now."""
        return sum(1 for c in self.residents if self._ill(c))

    def finish(self, horizon: float) -> None:
        """Count how (and whether) it ended, the cures and the deaths."""
        if self.eid is None:
            return
        self._over()
        epi = self.state.epidemics[self.eid]
        if self.ended_at is not None:
            self.tally.add("ended")
            self.tally.add("end_minutes", self.ended_at - self.start_minute)
            self.tally.add(f"ended_by_{epi.end_reason}")
        else:
            self.tally.add("end_minutes", horizon - self.start_minute)  # censored
        self.tally.add("stickers_left", len(epi.stickers))
        infected = set(epi.infected)
        cured = sum(  # its own infected: other locations may share the campaign
            1
            for c in self.state.cures
            if c["disease"] == self.disease.code
            and c["how"] == "hospital"
            and c["patient"] in infected
        )
        self.tally.add("cured", cured)
        self.tally.add(
            "epidemic_deaths", sum(1 for c in infected if not self.world.character(c).alive)
        )
