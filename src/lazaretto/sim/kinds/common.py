"""What several scenario kinds share (not a kind itself).

* every kind: the refusals metric, and handing a part's curves and the world's record
  to its tally at the end;
* ``battle`` and ``weekend``: the metrics of the wounded's care (field healers, tables);
* the warhammer-larp kinds (``battle``, ``epidemic``, ``weekend``): a location to
  simulate, with its hospitals, and (``epidemic``, ``weekend``) the scenario's epidemic
  in it.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import NamedTuple

from lazaretto.sim.epidemic import EpidemicFlow
from lazaretto.sim.hospital import HospitalDesk
from lazaretto.sim.kind import Metric, ratio
from lazaretto.sim.scenario import BattleScenario, EpidemicScenario, WeekendScenario
from lazaretto.sim.tally import Tally
from lazaretto.sim.world import Agenda, World

REFUSALS = Metric("refusals", "actions the ruleset refused", "действий, отклонённых правилами")

CARE = (
    Metric("field_wait", "minutes until a healer came", "минут до прихода лекаря"),
    Metric("hospital_wait", "minutes waiting for a table", "минут ожидания стола"),
    Metric("operations", "operations", "операций"),
)
"""The wounded's care (:class:`~lazaretto.sim.wounds.WoundFlow` and the hospitals)."""


def refusals(t: Tally) -> float:
    """The :data:`REFUSALS` metric: actions the ruleset refused (0 unless a policy errs)."""
    return float(sum(t.refused.values()))


def care(t: Tally) -> dict[str, float]:
    """The :data:`CARE` metrics: the mean waits for a field healer and a table, operations."""
    return {
        "field_wait": ratio(t.get("field_wait_minutes"), t.get("reached")),
        "hospital_wait": ratio(t.get("operation_wait_minutes"), t.get("operations")),
        "operations": t.get("operations"),
    }


def finish(tally: Tally, series: dict[str, list[float]], world: World) -> Tally:
    """The part's ``tally`` with its curves and the ``world``'s refusals and events."""
    tally.series, tally.refused, tally.events = series, world.refused, world.events
    return tally


class Site(NamedTuple):
    """One warhammer-larp location being simulated: the policies' dice, the counts, the
    campaign, the agenda of decisions and the location's hospitals."""

    rng: random.Random
    tally: Tally
    world: World
    agenda: Agenda
    desk: HospitalDesk


def open_site(
    s: BattleScenario | EpidemicScenario | WeekendScenario,
    seed: int,
    start: datetime,
    location: str | None = None,
    prefix: str = "",
) -> Site:
    """A new campaign from ``start`` with the scenario's parameters and hospitals
    (named ``{prefix}h1``, ``{prefix}h2``...)."""
    rng = random.Random(seed)
    tally = Tally()
    world = World("warhammer-larp", start, seed, s.params)
    agenda = Agenda()
    desk = HospitalDesk(world, agenda, tally, s.hospitals, location=location, prefix=f"{prefix}h")
    return Site(rng, tally, world, agenda, desk)


def epidemic_at(
    site: Site,
    s: EpidemicScenario | WeekendScenario,
    residents: list[str],
    location: str,
    start: float,
    prefix: str = "",
) -> EpidemicFlow:
    """The scenario's epidemic among ``residents`` of the site, from minute ``start``
    (its carrier named ``{prefix}carrier``)."""
    return EpidemicFlow(
        site.world,
        site.agenda,
        site.rng,
        site.tally,
        site.desk,
        residents=residents,
        location=location,
        disease=s.disease,
        waves=s.waves,
        treatment=s.treatment,
        protected_share=s.protected_share,
        start=start,
        prefix=prefix,
    )
