"""The ``battle`` scenario: K wounded over a window, F field healers, H hospitals."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from lazaretto.sim.kind import Kind, Metric, one_part, peak, ratio
from lazaretto.sim.kinds.common import CARE, REFUSALS, care, finish, open_site, refusals
from lazaretto.sim.scenario import BattleScenario
from lazaretto.sim.tally import Tally
from lazaretto.sim.world import Sampler
from lazaretto.sim.wounds import WoundFlow, is_wounded

POLICY = (
    (
        "Field healers go first to the wounded chosen by the triage rule; light wounds are "
        "treated on the spot on a healer's mat, heavy ones bandaged and carried to the "
        "hospital with the shortest queue.",
        "Полевые лекари идут к раненым в порядке сортировки (triage); лёгкие ранения лечат "
        "на месте на подстилке лекаря, тяжёлых перевязывают и несут в госпиталь с самой "
        "короткой очередью.",
    ),
    (
        "In a hospital the first free healer operates on the first arrival on a free table; "
        "after the operation the patient goes to a free bed or stays on the table (W-HOSP-14).",
        "В госпитале первый свободный лекарь оперирует первого пришедшего на свободном столе; "
        "после операции пациента кладут на свободный лежак или оставляют на столе (W-HOSP-14).",
    ),
    (
        "The wounded do not walk to a hospital by themselves and are not hit again.",
        "Раненые не идут в госпиталь сами и повторно не ранятся.",
    ),
)

TABLE = (
    Metric("wounds", "wounded", "раненых"),
    Metric("deaths", "deaths", "смертей"),
    Metric("death_share", "share of the wounded who died", "доля умерших", ("deaths", "wounds")),
    Metric("deaths_field", "died before reaching a hospital", "умерли до госпиталя"),
    Metric("deaths_hospital", "died at a hospital", "умерли в госпитале"),
    Metric(
        "heavy_share",
        "share heavily wounded at once",
        "доля сразу тяжелораненых",
        ("heavy_at_once", "wounds"),
    ),
    *CARE,
    Metric("peak_beds", "most beds taken at once", "больше всего занятых лежаков"),
    Metric("peak_tables", "most tables taken at once", "больше всего занятых столов"),
    Metric("still_wounded", "still wounded at the end", "ещё ранены в конце"),
    Metric("all_treated", "minutes until nobody is wounded", "минут до конца лечения всех"),
    REFUSALS,
)

SERIES = {
    "wounded_now": ("wounded now", "ранено сейчас"),
    "waiting_field": ("waiting for a field healer", "ждут полевого лекаря"),
    "waiting_hospital": ("waiting at a hospital", "ждут в госпитале"),
    "beds": ("beds taken", "занято лежаков"),
    "tables": ("tables taken", "занято столов"),
    "dead": ("dead", "мертвы"),
}


def simulate(s: BattleScenario, seed: int, part: int) -> Tally:
    """One run of the battle."""
    rng, tally, world, agenda, desk = open_site(s, seed, datetime.fromisoformat(s.start))
    flow = WoundFlow(world, agenda, rng, tally, s.wounds, s.field, desk)
    wounded = [f"w{i}" for i in range(1, s.wounded + 1)]
    for cid in wounded:
        world.add(cid, hits=s.wounds.hits)
    chars = world.state.characters
    sampler = Sampler(s.sample_minutes, s.horizon)
    sampler.probe("wounded_now", lambda: sum(is_wounded(chars[c]) for c in wounded))
    sampler.probe("waiting_field", flow.waiting_in_field)
    sampler.probe("waiting_hospital", desk.waiting)
    sampler.probe("beds", lambda: desk.occupied("beds"))
    sampler.probe("tables", lambda: desk.occupied("tables"))
    sampler.probe("dead", lambda: sum(not chars[c].alive for c in wounded))
    sampler.plan(agenda)
    times = sorted(rng.uniform(0, s.window_minutes) for _ in wounded)
    for cid, minute in zip(wounded, times, strict=True):
        agenda.at(minute, partial(flow.wound, cid))
    agenda.run(world, s.horizon)
    flow.count_outcomes()
    return finish(tally, sampler.series, world)


def all_treated(curve: list[float], step: int, after: float, horizon: int) -> float:
    """The first grid minute after ``after`` with nobody wounded (``horizon`` if never)."""
    for i, v in enumerate(curve):
        if i * step >= after and v == 0:
            return float(i * step)
    return float(horizon)


def metrics(s: BattleScenario, t: Tally) -> dict[str, float]:
    """The battle's numbers for one run."""
    return {
        "wounds": t.get("wounds"),
        "deaths": t.get("deaths"),
        "death_share": ratio(t.get("deaths"), t.get("wounds")),
        "deaths_field": t.get("deaths_field"),
        "deaths_hospital": t.get("deaths_hospital"),
        "heavy_at_once": t.get("heavy_at_once"),
        "heavy_share": ratio(t.get("heavy_at_once"), t.get("wounds")),
        **care(t),
        "peak_beds": peak(t.series.get("beds", [])),
        "peak_tables": peak(t.series.get("tables", [])),
        "still_wounded": t.get("still_wounded"),
        "all_treated": all_treated(
            t.series.get("wounded_now", []), s.sample_minutes, s.window_minutes, s.horizon
        ),
        "refusals": refusals(t),
    }


def describe(s: BattleScenario, lang: str) -> str:
    """One line saying what is simulated."""
    h = s.hospitals
    if lang == "ru":
        return (
            f"Бой: {s.wounded} раненых за {s.window_minutes} мин, полевых лекарей "
            f"{s.field.healers}, госпиталей {h.count} × (столов {h.tables}, лежаков {h.beds}, "
            f"лекарей {h.healers}), сортировка {s.field.triage}"
        )
    return (
        f"Battle: {s.wounded} wounded over {s.window_minutes} min, {s.field.healers} field "
        f"healers, {h.count} hospital(s) × ({h.tables} table(s), {h.beds} beds, "
        f"{h.healers} healers), triage {s.field.triage}"
    )


KIND = Kind(
    simulate=simulate,
    parts=one_part,
    metrics=metrics,
    table=TABLE,
    series=SERIES,
    headline="deaths",
    curves=("wounded_now", "waiting_field", "beds", "tables"),
    policy=POLICY,
    describe=describe,
)
