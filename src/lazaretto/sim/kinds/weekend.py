"""The ``weekend`` scenario: a LARP weekend of many locations.

Each location has its residents, field healers, hospital and (for the first
``epidemics`` locations) an epidemic. The rules let a location run alone: a wound is
bandaged and treated by the healers and hospital where it happens, and an epidemic
infects one location (W-EPI-01); nobody moves between locations in this model. So by
default each location is its own campaign, simulated in parallel, and the cost grows
linearly with the characters. With ``one_campaign`` every location lives in one
campaign, as a big LARP runs one medical system for the whole game: one part, whose
cost grows linearly only if no action's cost grows with the campaign's size.

Policy on top of the battle's and the epidemic's: wounds fall on characters able to
fight (alive, not wounded, not in treatment or a course), partly in the day's battles
and partly at random through the game hours; a dead character's player comes back as a
new character after ``reentry_minutes`` (a LARP "dead zone"), who can be wounded again.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial

from lazaretto.core.character import Character
from lazaretto.sim.epidemic import EpidemicFlow
from lazaretto.sim.hospital import HospitalDesk
from lazaretto.sim.kind import Kind, Metric, peak, ratio
from lazaretto.sim.kinds import battle
from lazaretto.sim.kinds.common import (
    CARE,
    REFUSALS,
    Site,
    care,
    epidemic_at,
    finish,
    open_site,
    refusals,
)
from lazaretto.sim.scenario import WeekendScenario, minute_of_day
from lazaretto.sim.tally import Tally
from lazaretto.sim.world import Agenda, Sampler, World
from lazaretto.sim.wounds import WoundFlow, is_fit, is_wounded

DAY = 24 * 60

POLICY = (
    *battle.POLICY[:2],
    (
        "Wounds fall on characters able to fight, in the day's battles and at random through "
        "the game hours; a dead character's player returns as a new character after the "
        "re-entry time. Each location runs as its own campaign.",
        "Ранения получают боеспособные персонажи — в дневных боях и случайно в игровые часы; "
        "игрок погибшего персонажа возвращается новым персонажем через время выхода из "
        "мертвятника. Каждая локация — отдельная кампания.",
    ),
)

TABLE = (
    Metric("characters", "characters at the start", "персонажей в начале"),
    Metric("wounds", "wounds", "ранений"),
    Metric("deaths", "deaths", "смертей"),
    Metric("death_share", "share of wounds that killed", "доля смертельных", ("deaths", "wounds")),
    *CARE,
    Metric("epidemics", "epidemics", "эпидемий"),
    Metric("epidemics_ended", "epidemics ended", "эпидемий окончено"),
    Metric("infected", "infected", "заражено"),
    Metric("cured", "cured of the disease", "вылечено от болезни"),
    Metric("reentries", "characters re-entered", "новых персонажей после смерти"),
    Metric("events", "ruleset events", "событий правил"),
    REFUSALS,
)

SERIES = {
    "wounded_now": ("wounded now", "ранено сейчас"),
    "beds": ("beds taken", "занято лежаков"),
    "tables": ("tables taken", "занято столов"),
    "ill": ("ill now", "больны сейчас"),
}


def parts(s: WeekendScenario) -> int:
    """One part per location, or one for all when they share one campaign."""
    return 1 if s.one_campaign else s.locations


def _wound_times(s: WeekendScenario, size: int, rng: random.Random) -> list[float]:
    """When the location's wounds fall: in battles and spread over the game hours."""
    day_len = minute_of_day(s.day_end) - minute_of_day(s.day_start)
    total = round(s.wounds_per_character * size)
    battles = [
        d * DAY + rng.uniform(0, max(0, day_len - s.battle_minutes))
        for d in range(s.days)
        for _ in range(s.battles_per_day)
    ]
    in_battle = round(total * s.battle_share) if battles else 0
    times = [rng.choice(battles) + rng.uniform(0, s.battle_minutes) for _ in range(in_battle)]
    times += [
        rng.randrange(s.days) * DAY + rng.uniform(0, day_len) for _ in range(total - in_battle)
    ]
    return sorted(times)


@dataclass
class Location:
    """One location of the weekend: its residents (by the player's current character),
    its field healers and hospitals, and its epidemic if it has one."""

    name: str
    prefix: str
    residents: list[str]
    flow: WoundFlow
    desk: HospitalDesk
    epidemic: EpidemicFlow | None
    newcomers: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    seat: dict[str, int] = field(default_factory=dict)
    """Where each resident stands in ``residents`` (a re-entered player takes the seat)."""


def _open_location(s: WeekendScenario, site: Site, part: int, prefix: str) -> Location:
    """Location ``part`` in ``site``'s campaign; ``prefix`` names its people and places
    apart from the other locations' when they share the campaign."""
    loc = f"loc{part + 1}"
    rng, tally, world, agenda, desk = site
    flow = WoundFlow(world, agenda, rng, tally, s.wounds, s.field, desk, prefix=prefix)
    size = min(s.location_size, s.characters - part * s.location_size)
    residents = [f"{prefix}r{i}" for i in range(1, size + 1)]
    for cid in residents:
        world.add(cid, hits=s.wounds.hits)
    tally.add("characters", size)
    epidemic = None
    if part < s.epidemics:
        begin = minute_of_day(s.epidemic_start) - minute_of_day(s.day_start)
        epidemic = epidemic_at(site, s, residents, loc, start=begin, prefix=prefix)
    seat = {cid: i for i, cid in enumerate(residents)}
    return Location(loc, prefix, residents, flow, desk, epidemic, seat=seat)


def simulate(s: WeekendScenario, seed: int, part: int) -> Tally:
    """One location of the weekend in its own campaign, or (``one_campaign``) every
    location in one."""
    start = datetime.fromisoformat(s.start)
    start = start.replace(hour=0, minute=0) + timedelta(minutes=minute_of_day(s.day_start))
    parts = range(s.locations) if s.one_campaign else [part]
    prefixes = [f"loc{p + 1}-" if s.one_campaign else "" for p in parts]
    first = open_site(s, seed, start, location=f"loc{parts[0] + 1}", prefix=prefixes[0])
    rng, tally, world, agenda, _ = first
    places: list[Location] = []
    for p, prefix in zip(parts, prefixes, strict=True):
        site = first
        if places:  # another location of the same campaign: its own hospitals
            desk = HospitalDesk(
                world, agenda, tally, s.hospitals, location=f"loc{p + 1}", prefix=f"{prefix}h"
            )
            site = first._replace(desk=desk)
        places.append(_open_location(s, site, p, prefix))
    chars = world.state.characters
    epidemics = [place.epidemic for place in places if place.epidemic is not None]
    sampler = Sampler(s.sample_minutes, s.horizon)
    sampler.probe(
        "wounded_now",
        lambda: sum(is_wounded(chars[c]) for place in places for c in place.residents),
    )
    sampler.probe("beds", lambda: first.desk.occupied("beds"))  # every hospital of the campaign
    sampler.probe("tables", lambda: first.desk.occupied("tables"))
    sampler.probe("ill", lambda: sum(e.ill_now() for e in epidemics))
    sampler.plan(agenda)
    for place in places:
        hit = partial(_hit, rng, tally, chars, place)
        for minute in _wound_times(s, len(place.residents), rng):
            agenda.at(minute, hit)
    if s.reentry_minutes is not None:
        _plan_reentry(s.reentry_minutes, world, agenda, places, s.horizon, tally)
    agenda.run(world, s.horizon)
    for place in places:
        place.flow.count_outcomes()
    for e in epidemics:
        e.finish(s.horizon)
    return finish(tally, sampler.series, world)


def _hit(
    rng: random.Random,
    tally: Tally,
    chars: dict[str, Character],
    place: Location,
    minute: float,
) -> None:
    """A random resident of ``place`` able to fight is wounded: draw until one is
    (uniform over the fit ones), looking through everyone only when few are left."""
    residents = place.residents
    for _ in range(20):
        cid = rng.choice(residents)
        if is_fit(chars[cid]):
            place.flow.wound(cid, minute)
            return
    fit = [c for c in residents if is_fit(chars[c])]
    if fit:
        place.flow.wound(rng.choice(fit), minute)
    else:
        tally.add("wounds_missed")


def _plan_reentry(
    after: int,
    world: World,
    agenda: Agenda,
    places: list[Location],
    horizon: int,
    tally: Tally,
) -> None:
    """Every 10 minutes, the newly dead players come back ``after`` minutes after dying."""
    seen = 0
    home = {cid: place for place in places for cid in place.residents}

    def look(minute: float) -> None:
        nonlocal seen
        for cid, died in world.died[seen:]:
            if cid in home:
                back = max(minute, died + after)
                agenda.at(back, partial(come_back, cid))
        seen = len(world.died)
        if minute + 10 <= horizon:
            agenda.at(minute + 10, look)

    def come_back(cid: str, minute: float) -> None:
        place = home.pop(cid)
        new = f"{place.prefix}n{next(place.newcomers)}"
        world.add(new, hits=world.character(cid).hits_max)
        i = place.seat.pop(cid)
        place.residents[i], place.seat[new], home[new] = new, i, place
        tally.add("reentries")

    agenda.at(0, look)


def metrics(s: WeekendScenario, t: Tally) -> dict[str, float]:
    """The weekend's numbers for one run (all locations together)."""
    return {
        "characters": t.get("characters"),
        "wounds": t.get("wounds"),
        "wounds_missed": t.get("wounds_missed"),
        "deaths": t.get("deaths"),
        "death_share": ratio(t.get("deaths"), t.get("wounds")),
        **care(t),
        "epidemics": t.get("epidemics"),
        "epidemics_ended": t.get("ended"),
        "infected": t.get("infected"),
        "cured": t.get("cured"),
        "reentries": t.get("reentries"),
        "peak_beds": peak(t.series.get("beds", [])),
        "events": float(t.events),
        "refusals": refusals(t),
    }


def describe(s: WeekendScenario, lang: str) -> str:
    """One line saying what is simulated."""
    if lang == "ru":
        where = ", все в одной кампании" if s.one_campaign else ""
        return (
            f"Выходные ролевой игры: {s.characters} персонажей в {s.locations} локациях по "
            f"{s.location_size}{where}, {s.days} дня, ~{s.wounds_per_character:g} ранений на "
            f"персонажа, эпидемий {min(s.epidemics, s.locations)}"
        )
    where = ", all in one campaign" if s.one_campaign else ""
    return (
        f"LARP weekend: {s.characters} characters in {s.locations} locations of "
        f"{s.location_size}{where}, {s.days} days, ~{s.wounds_per_character:g} wounds per "
        f"character, {min(s.epidemics, s.locations)} epidemic(s)"
    )


KIND = Kind(
    simulate=simulate,
    parts=parts,
    metrics=metrics,
    table=TABLE,
    series=SERIES,
    headline="deaths",
    curves=("wounded_now", "beds", "ill"),
    policy=POLICY,
    describe=describe,
)
