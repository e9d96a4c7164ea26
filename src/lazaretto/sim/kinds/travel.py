"""The ``travel`` scenario (ide4-survival): a party's days on the road.

Every day is the ruleset's game day (I-DAY-01..09): ``morning``; three ``eat-meal``
windows; ``start-march`` / ``end-march`` at the pace (I-TRAVEL-03..07); a daily
``expose`` to a disease and a ``poison-risk`` from dirty water (Immunity checks); the
camp (``make-camp``), ``plan-sleep`` (3d10) and ``go-to-sleep``; ``end-day`` (disease
progress, water, sleep, recovery). Checks are rolled with the ruleset's ``band_table``
resolver — a placeholder d100 table, not from any IDE4 document (A-I-01): the odds of a
single check are only as good as that table.

Policy (the players' and GM's choices): each character independently has a full meal
at a window, the day's water, with the scenario's probabilities; the GM picks a normal
camp (or a damp one) at random; every player sleeps the highest of their three dice.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from lazaretto.sim.kind import Kind, Metric, one_part, ratio
from lazaretto.sim.kinds.common import REFUSALS, finish, refusals
from lazaretto.sim.scenario import TravelScenario
from lazaretto.sim.tally import Tally
from lazaretto.sim.world import World

DAY = 24 * 60
CONDITIONS = (
    "hungry",
    "dehydrated",
    "tired",
    "very_tired",
    "exhausted",
    "sleep_deprived",
    "sick",
    "poisoned",
)
FATIGUE = ("tired", "very_tired", "exhausted")

POLICY = (
    (
        "Each character has a full meal (500 ml, 1000 units) at a window and the day's water "
        "with the scenario's probabilities, independently.",
        "Каждый персонаж независимо от других ест полноценно (500 мл, 1000 единиц) в окно "
        "приёма пищи и получает дневную воду с заданными вероятностями.",
    ),
    (
        "The GM makes a normal camp or a bad one at random, sometimes damp; every player "
        "sleeps the highest of their 3d10.",
        "Мастер случайно выбирает нормальный или плохой лагерь, иногда сырой; каждый игрок "
        "спит по наибольшей из своих 3d10.",
    ),
    (
        "Checks are rolled on the ruleset's placeholder band table (A-I-01), not the core "
        "IDE4 check.",
        "Проверки бросаются по таблице-заглушке набора правил (A-I-01), а не по основной "
        "проверке IDE4.",
    ),
)

TABLE = (
    Metric("survival", "share of the party alive", "доля выживших", ("alive", "party")),
    Metric("deaths", "deaths", "смертей"),
    Metric("sick_days", "character-days sick", "человеко-дней болезни"),
    *(
        Metric(
            f"end_{c}",
            f"share {c.replace('_', ' ')} at the end",
            f"доля «{c}» в конце",
            (f"{c}_at_end", "alive"),
        )
        for c in CONDITIONS
    ),
    REFUSALS,
)

SERIES = {
    "alive": ("alive", "живы"),
    "sick": ("sick", "больны"),
    "fatigued": ("tired or worse", "усталость"),
    "hungry": ("hungry", "голодны"),
    "sleep_deprived": ("sleep-deprived", "не выспались"),
}


def _at(hhmm: str, day: int) -> int:
    hh, mm = hhmm.split(":")
    return day * DAY + (int(hh) - 6) * 60 + int(mm)  # minute 0 is 06:00 of day 1


class Journey:
    """One party on the road: the world, the dice of the players' and GM's choices."""

    def __init__(self, s: TravelScenario, seed: int) -> None:
        self.s, self.rng = s, random.Random(seed)
        params = {"check_resolver": "band_table", **s.params}
        self.world = World("ide4-survival", datetime.fromisoformat(s.start), seed, params)
        self.party = [f"p{i}" for i in range(1, s.party + 1)]
        for cid in self.party:
            self.world.add(cid)
        self.chars = self.world.state.characters
        self.series: dict[str, list[float]] = {k: [] for k in SERIES}

    def alive(self) -> list[str]:
        """The living members of the party."""
        return [c for c in self.party if self.chars[c].alive]

    def count(self, kind: str) -> int:
        """Living members in condition ``kind``."""
        return sum(self.chars[c].has(kind) for c in self.alive())

    def sample(self) -> None:
        """One point of every curve."""
        fatigued = sum(any(self.chars[c].has(f) for f in FATIGUE) for c in self.alive())
        self.series["alive"].append(len(self.alive()))
        self.series["sick"].append(self.count("sick"))
        self.series["fatigued"].append(fatigued)
        self.series["hungry"].append(self.count("hungry"))
        self.series["sleep_deprived"].append(self.count("sleep_deprived"))

    def some_act(self, action: str, share: float, minute: int, **fields: Any) -> None:
        """Each living member with probability ``share`` does ``action`` at ``minute``."""
        chosen = [c for c in self.alive() if self.rng.random() < share]
        if chosen:
            self.world.try_act(action, minute, characters=chosen, **fields)

    def meal(self, hhmm: str, day: int) -> None:
        """A meal window: those who have food and drink eat."""
        self.some_act(
            "eat-meal", self.s.meal_chance, _at(hhmm, day), liquid_ml=500, food_units=1000
        )

    def risks(self, day: int) -> None:
        """The day's exposure to the disease and the dirty water (Immunity checks)."""
        s, noon = self.s, _at("12:00", day)
        disease, water = s.disease, s.dirty_water
        self.some_act(
            "expose", disease.chance, noon, disease=disease.disease, difficulty=disease.difficulty
        )
        self.some_act(
            "poison-risk", water.chance, noon, source="dirty_water", difficulty=water.difficulty
        )

    def day(self, d: int) -> None:
        """Game day ``d`` (0-based), I-DAY-01..09, then the night until 06:20."""
        s, act, rng = self.s, self.world.try_act, self.rng
        if not self.alive():
            return
        act("morning", _at("06:30", d))
        self.meal("07:30", d)
        act("start-march", _at("08:00", d), characters=self.alive(), pace=s.pace)
        self.risks(d)
        self.meal("13:30", d)
        act("end-march", _at("18:00", d), characters=self.alive(), check=s.endurance_check)
        camp = "normal" if rng.random() < s.normal_camp_chance else "bad"
        damp = rng.random() < s.damp_chance
        act("make-camp", _at("19:00", d), characters=self.alive(), camp=camp, damp=damp)
        self.meal("19:30", d)
        if self.alive():
            act("plan-sleep", _at("21:00", d), characters=self.alive())
            act("go-to-sleep", _at("21:00", d), characters=self.alive(), pick="highest")
        dry = [c for c in self.alive() if rng.random() >= s.water_chance]
        act("end-day", _at("06:20", d + 1), no_water=dry)


def simulate(s: TravelScenario, seed: int, part: int) -> Tally:
    """One run of the journey."""
    j = Journey(s, seed)
    tally = Tally()
    j.world.act("set-load", 0, characters=j.party, load=s.load)
    j.sample()
    for d in range(s.days):
        j.day(d)
        tally.add("sick_days", j.count("sick"))
        j.sample()
    j.world.advance(s.horizon, final=True)
    tally.add("party", len(j.party))
    tally.add("alive", len(j.alive()))
    for c in CONDITIONS:
        tally.add(f"end_{c}", j.count(c))
    return finish(tally, j.series, j.world)


def metrics(s: TravelScenario, t: Tally) -> dict[str, float]:
    """The journey's numbers for one run."""
    alive = t.get("alive")
    out = {
        "survival": ratio(alive, t.get("party")),
        "alive": alive,
        "party": t.get("party"),
        "deaths": t.get("party") - alive,
        "sick_days": t.get("sick_days"),
    }
    for c in CONDITIONS:
        out[f"{c}_at_end"] = t.get(f"end_{c}")
        out[f"end_{c}"] = ratio(t.get(f"end_{c}"), alive)
    out["refusals"] = refusals(t)
    return out


def describe(s: TravelScenario, lang: str) -> str:
    """One line saying what is simulated."""
    if lang == "ru":
        return (
            f"Путешествие: отряд из {s.party}, {s.days} дн., темп {s.pace}, нагрузка {s.load}, "
            f"еда {s.meal_chance:.0%}, вода {s.water_chance:.0%}, болезнь {s.disease.disease} "
            f"({s.disease.chance:.0%} в день, [{s.disease.difficulty}])"
        )
    return (
        f"Travel: a party of {s.party}, {s.days} days, {s.pace} pace, {s.load} load, "
        f"meals {s.meal_chance:.0%}, water {s.water_chance:.0%}, disease {s.disease.disease} "
        f"({s.disease.chance:.0%} a day, [{s.disease.difficulty}])"
    )


KIND = Kind(
    simulate=simulate,
    parts=one_part,
    metrics=metrics,
    table=TABLE,
    series=SERIES,
    headline="deaths",
    curves=("alive", "sick", "fatigued", "hungry"),
    policy=POLICY,
    describe=describe,
)
