"""The ``epidemic`` scenario: sticker waves in one location until the epidemic ends."""

from __future__ import annotations

from datetime import datetime

from lazaretto.sim.kind import Kind, Metric, one_part, peak, ratio
from lazaretto.sim.kinds.common import REFUSALS, epidemic_at, finish, open_site, refusals
from lazaretto.sim.scenario import EpidemicScenario
from lazaretto.sim.tally import Tally
from lazaretto.sim.world import Sampler

POLICY = (
    (
        "Each wave the masters meet a random set of living characters (not those lying in a "
        "hospital); each wears the full plague outfit with the scenario's probability.",
        "В каждую волну мастера встречают случайных живых персонажей (кроме лежащих в "
        "госпитале); каждый носит полный костюм чумного доктора с заданной вероятностью.",
    ),
    (
        "An infected character goes to the hospital with the shortest queue with the "
        "scenario's probability and delay; a free healer on a free bed records the anamnesis "
        "and diagnosis and plays the six course items one after another.",
        "Заражённый идёт в госпиталь с самой короткой очередью с заданной вероятностью и "
        "задержкой; свободный лекарь на свободном лежаке записывает анамнез и диагноз и "
        "проводит шесть пунктов курса один за другим.",
    ),
    (
        "The next wave comes as soon as the rules allow (W-EPI-02).",
        "Следующая волна — как только позволяют правила (W-EPI-02).",
    ),
)

TABLE = (
    Metric("infected", "infected", "заражено"),
    Metric("waves", "waves", "волн"),
    Metric("ended", "share of runs where it ended", "доля прогонов, где она кончилась"),
    Metric("end_hours", "hours until it ended", "часов до её конца"),
    Metric("by_quarantine", "ended by quarantine", "окончена карантином"),
    Metric("by_intensive", "ended by intensive treatment", "окончена усиленным лечением"),
    Metric("cured", "cured in hospitals", "вылечено в госпиталях"),
    Metric("cure_share", "share of the infected cured", "доля вылеченных", ("cured", "infected")),
    Metric("deaths", "deaths", "смертей"),
    Metric("peak_ill", "most ill at once", "больше всего больных сразу"),
    Metric("course_wait", "minutes waiting for a bed", "минут ожидания лежака"),
    Metric("peak_beds", "most beds taken at once", "больше всего занятых лежаков"),
    REFUSALS,
)

SERIES = {
    "ill": ("ill now", "больны сейчас"),
    "infected": ("infected so far", "заражено всего"),
    "in_course": ("in a course of treatment", "на курсе лечения"),
    "beds": ("beds taken", "занято лежаков"),
    "dead": ("dead", "мертвы"),
}


def simulate(s: EpidemicScenario, seed: int, part: int) -> Tally:
    """One run of the epidemic."""
    site = open_site(s, seed, datetime.fromisoformat(s.start), location=s.location)
    rng, tally, world, agenda, desk = site
    races = list(s.races)
    weights = [s.races[r] for r in races]
    residents = [f"r{i}" for i in range(1, s.population + 1)]
    for cid in residents:
        world.add(cid, race=rng.choices(races, weights)[0])
    flow = epidemic_at(site, s, residents, s.location, start=0)
    chars = world.state.characters
    sampler = Sampler(s.sample_minutes, s.horizon)
    sampler.probe("ill", flow.ill_now)
    sampler.probe("infected", lambda: tally.get("infected"))
    sampler.probe("in_course", lambda: sum(chars[c].has("disease_course") for c in residents))
    sampler.probe("beds", lambda: desk.occupied("beds"))
    sampler.probe("dead", lambda: sum(not chars[c].alive for c in residents))
    sampler.plan(agenda)
    agenda.run(world, s.horizon)
    flow.finish(s.horizon)
    return finish(tally, sampler.series, world)


def metrics(s: EpidemicScenario, t: Tally) -> dict[str, float]:
    """The epidemic's numbers for one run."""
    return {
        "infected": t.get("infected"),
        "waves": t.get("waves"),
        "ended": t.get("ended"),
        "end_hours": t.get("end_minutes") / 60,
        "by_quarantine": t.get("ended_by_quarantine"),
        "by_intensive": t.get("ended_by_intensive_treatment"),
        "cured": t.get("cured"),
        "cure_share": ratio(t.get("cured"), t.get("infected")),
        "deaths": t.get("epidemic_deaths"),
        "peak_ill": peak(t.series.get("ill", [])),
        "course_wait": ratio(t.get("course_wait_minutes"), t.get("courses")),
        "peak_beds": peak(t.series.get("beds", [])),
        "refusals": refusals(t),
    }


def describe(s: EpidemicScenario, lang: str) -> str:
    """One line saying what is simulated."""
    w, h = s.waves, s.hospitals
    lethal = (
        (
            f", смертельна за {s.disease.minutes_to_death} мин"
            if lang == "ru"
            else f", lethal in {s.disease.minutes_to_death} min"
        )
        if s.disease.lethal
        else ""
    )
    if lang == "ru":
        return (
            f"Эпидемия «{s.disease.name}»{lethal} в локации {s.location}: {s.population} "
            f"жителей, волна каждые {w.interval_minutes} мин по {w.stickers} наклеек, "
            f"защищены {s.protected_share:.0%}, госпиталей {h.count} × (лежаков {h.beds}, "
            f"лекарей {h.healers})"
        )
    return (
        f"Epidemic of {s.disease.name}{lethal} in {s.location}: {s.population} residents, "
        f"a wave every {w.interval_minutes} min with {w.stickers} stickers, "
        f"{s.protected_share:.0%} protected, {h.count} hospital(s) × ({h.beds} beds, "
        f"{h.healers} healers)"
    )


KIND = Kind(
    simulate=simulate,
    parts=one_part,
    metrics=metrics,
    table=TABLE,
    series=SERIES,
    headline="infected",
    curves=("ill", "infected", "in_course"),
    policy=POLICY,
    describe=describe,
)
