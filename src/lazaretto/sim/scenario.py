"""Scenario files (YAML) for ``lazaretto sim``: what is simulated, with which numbers.

Every section refuses keys it does not know; :mod:`lazaretto.sim.files` reads a file and
turns any problem into a DataFileError naming the file and the field. Four kinds:

* ``battle`` (warhammer-larp) — wounded arriving over a window, field healers,
  hospitals with operating tables and beds;
* ``epidemic`` (warhammer-larp) — sticker waves in a location, protection, hospital
  courses, until the epidemic ends;
* ``travel`` (ide4-survival) — a party's days on the road: meals, water, camp, sleep,
  the march, disease and dirty water;
* ``weekend`` (warhammer-larp) — a LARP weekend of many locations, each one a battle
  flow and, for a few, an epidemic; the locations run as independent parts, or all in
  one campaign (``one_campaign``, a big LARP's one medical system).

Durations are whole minutes; random ones are dice expressions (``"1d6+2"``) of the
project's dice engine, so their exact odds are known.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

RULESETS = {
    "battle": "warhammer-larp",
    "epidemic": "warhammer-larp",
    "weekend": "warhammer-larp",
    "travel": "ide4-survival",
}


def _dice(text: str) -> str:
    """A dice expression the engine can roll (``"3"``, ``"1d6+2"``), never below zero."""
    from lazaretto.core.dice import parse
    from lazaretto.core.errors import DiceError

    try:
        expr = parse(text)
    except DiceError as exc:
        raise ValueError(exc.message) from exc
    if expr.min() < 0:
        raise ValueError(f"{text!r} can be negative (smallest total {expr.min()})")
    return text


def _time(text: str) -> str:
    hh, _, mm = text.partition(":")
    if not (hh.isdigit() and mm.isdigit() and int(hh) < 24 and int(mm) < 60):
        raise ValueError(f"{text!r} is not a time of day HH:MM")
    return text


Dice = Annotated[str, AfterValidator(_dice)]
TimeOfDay = Annotated[str, AfterValidator(_time)]
Share = Annotated[float, Field(ge=0, le=1)]


class Strict(BaseModel):
    """Every scenario section refuses keys it does not know (a typo is an error)."""

    model_config = ConfigDict(extra="forbid")


class Common(Strict):
    """What every scenario has."""

    name: str = Field("", max_length=200, description="a title for the report")
    runs: int = Field(100, ge=1, le=1_000_000, description="replicate runs (CLI --runs)")
    seed: int = Field(0, ge=0, le=2**63 - 1, description="master seed (CLI --seed)")
    start: str = Field("2026-06-13T10:00", description="campaign time of minute 0 (ISO)")
    sample_minutes: int = Field(10, ge=1, le=1440, description="time step of the curves")
    params: dict[str, Any] = Field(
        default_factory=dict, description="ruleset parameter overrides (params.yaml names)"
    )


class HospitalSpec(Strict):
    """Hospitals (госпиталь) of a location, all alike (W-HOSP-03: ≥ 1 table, ≥ 2 beds)."""

    count: int = Field(1, ge=0, le=50)
    tables: int = Field(1, ge=1, le=50, description="operating tables each")
    beds: int = Field(4, ge=2, le=200, description="beds each")
    healers: int = Field(2, ge=1, le=50, description="healers working inside each")


class FieldCare(Strict):
    """Field healers (полевые лекари) and how long their work takes."""

    healers: int = Field(4, ge=0, le=1000)
    mats: int = Field(3, ge=1, le=20, description="field mats each healer carries")
    reach_minutes: Dice = Field("1d6+1", description="from the call to the wounded")
    bandage_minutes: Dice = Field("2", description="the healer is busy bandaging")
    carry_minutes: Dice = Field("1d6+4", description="a bandaged heavy one to a hospital")
    triage: Literal["heavy_first", "fifo", "deadline"] = Field(
        "heavy_first", description="whom a free healer goes to first"
    )


class WoundSpec(Strict):
    """How hard people are hit and how long an operation takes."""

    hits: int = Field(3, ge=1, le=20, description="hits of every character")
    hits_lost: Dice = Field("1d3", description="hits one wound takes (all = heavy wound)")
    operation_minutes: Dice = Field("1d6+6", description="on the table, before the stitches")


class BattleScenario(Common):
    """A battle's wounded flowing through field healers and hospitals (warhammer-larp)."""

    kind: Literal["battle"]
    wounded: int = Field(40, ge=1, le=10_000, description="characters wounded")
    window_minutes: int = Field(30, ge=0, le=24 * 60, description="they fall over this time")
    horizon_minutes: int | None = Field(
        None, ge=1, le=7 * 24 * 60, description="simulated time (default window + 180)"
    )
    wounds: WoundSpec = Field(default_factory=WoundSpec)
    field: FieldCare = Field(default_factory=FieldCare)
    hospitals: HospitalSpec = Field(default_factory=HospitalSpec)

    @property
    def horizon(self) -> int:
        """Minutes simulated."""
        return self.horizon_minutes or self.window_minutes + 180


class DiseaseSpec(Strict):
    """The epidemic's disease, as the masters define it (W-DIS-03, W-DTRT-08)."""

    code: str = Field("GF", min_length=1, max_length=40)
    name: str = Field("Grey fever", min_length=1, max_length=100)
    lethal: bool = False
    minutes_to_death: int | None = Field(None, ge=1, le=100_000)
    contagious: bool = False
    races: list[str] = Field(default_factory=list, description="empty: every race")
    course: list[str] = Field(
        default_factory=lambda: [
            "drip",
            "enema",
            "herbal_drink",
            "inhalation",
            "psychotherapy",
            "sedative",
        ],
        description="the six course items (no operation: it needs a table)",
    )


class WaveSpec(Strict):
    """The masters' choices for the waves (W-EPI-02..05, A-W-22)."""

    interval_minutes: int = Field(30, ge=1, le=10_000)
    stickers: int = Field(10, ge=1, le=1000, description="stickers per wave")
    minutes: int = Field(5, ge=1, le=60, description="how long a wave lasts")
    met: Dice = Field("20", description="characters the masters meet in a wave")


class TreatmentSpec(Strict):
    """Who goes to a hospital, when, and how long the course items take."""

    seek_share: Share = Field(0.8, description="share of the infected who seek treatment")
    seek_minutes: Dice = Field("1d20+10", description="from infection to the hospital door")
    healers_know: bool = Field(True, description="hospital healers have it in their book")
    item_minutes: int = Field(2, ge=1, le=60, description="per course item (or its minimum)")


class EpidemicScenario(Common):
    """An epidemic in one location (warhammer-larp)."""

    kind: Literal["epidemic"]
    location: str = Field("town", min_length=1, max_length=40)
    population: int = Field(100, ge=1, le=10_000)
    races: dict[str, float] = Field(
        default_factory=lambda: {"human": 1.0}, description="race -> share of the population"
    )
    protected_share: Share = Field(0.1, description="wear the full plague outfit when met")
    disease: DiseaseSpec = Field(default_factory=DiseaseSpec)
    waves: WaveSpec = Field(default_factory=WaveSpec)
    treatment: TreatmentSpec = Field(default_factory=TreatmentSpec)
    hospitals: HospitalSpec = Field(default_factory=HospitalSpec)
    horizon_minutes: int = Field(24 * 60, ge=1, le=30 * 24 * 60)

    @property
    def horizon(self) -> int:
        """Minutes simulated."""
        return self.horizon_minutes


class Exposure(Strict):
    """A daily risk of a disease or of poisoning, per character (an Immunity check)."""

    chance: Share = 0.1
    difficulty: int = Field(2, ge=-10, le=20)


class DiseaseExposure(Exposure):
    """A daily risk of infection with a catalogue disease (I-DIS-03)."""

    disease: str = Field("basic", min_length=1, max_length=40)


class TravelScenario(Common):
    """A party's days of IDE4 survival travel (ide4-survival)."""

    kind: Literal["travel"]
    start: str = Field("2026-06-13T06:00", description="campaign time of minute 0 (ISO)")
    sample_minutes: Literal[1440] = Field(1440, description="one point a day, after end-day")
    party: int = Field(4, ge=1, le=200)
    days: int = Field(7, ge=1, le=60)
    pace: Literal["cautious", "normal", "fast", "forced"] = "normal"
    load: Literal["light", "equipped", "loaded", "overloaded"] = "equipped"
    meal_chance: Share = Field(0.8, description="a character has a full meal at a window")
    water_chance: Share = Field(0.9, description="a character has the day's water")
    normal_camp_chance: Share = Field(0.7, description="the night's camp is normal")
    damp_chance: Share = Field(0.2, description="the camp is damp (bad sleep)")
    endurance_check: bool = Field(True, description="roll the optional Endurance check")
    disease: DiseaseExposure = Field(default_factory=DiseaseExposure)
    dirty_water: Exposure = Field(default_factory=Exposure)

    @property
    def horizon(self) -> int:
        """Minutes simulated: the days and the last morning."""
        return self.days * 24 * 60 + 60


class WeekendScenario(Common):
    """A LARP weekend of many locations (warhammer-larp): independent campaigns, or
    one campaign for all (``one_campaign``)."""

    kind: Literal["weekend"]
    sample_minutes: int = Field(60, ge=1, le=1440)
    characters: int = Field(2000, ge=1, le=100_000)
    location_size: int = Field(100, ge=1, le=5000, description="characters per location")
    one_campaign: bool = Field(
        False,
        description="every location in one campaign (one medical system for the whole "
        "game), simulated as one part; otherwise one campaign per location, in parallel",
    )
    days: int = Field(3, ge=1, le=14)
    day_start: TimeOfDay = "10:00"
    day_end: TimeOfDay = "22:00"
    wounds_per_character: float = Field(10.0, ge=0, le=100, description="over the weekend")
    battles_per_day: int = Field(1, ge=0, le=10)
    battle_share: Share = Field(0.3, description="share of the wounds taken in battles")
    battle_minutes: int = Field(30, ge=1, le=600)
    reentry_minutes: int | None = Field(
        60, ge=0, le=24 * 60, description="a dead character's player comes back as a new one"
    )
    epidemics: int = Field(3, ge=0, le=1000, description="locations with an epidemic")
    epidemic_start: TimeOfDay = "14:00"
    wounds: WoundSpec = Field(default_factory=WoundSpec)
    field: FieldCare = Field(default_factory=lambda: FieldCare(healers=8))
    hospitals: HospitalSpec = Field(
        default_factory=lambda: HospitalSpec(count=1, tables=3, beds=10, healers=4)
    )
    disease: DiseaseSpec = Field(default_factory=DiseaseSpec)
    waves: WaveSpec = Field(default_factory=lambda: WaveSpec(interval_minutes=60, stickers=8))
    treatment: TreatmentSpec = Field(default_factory=TreatmentSpec)
    protected_share: Share = 0.1

    @model_validator(mode="after")
    def _day(self) -> WeekendScenario:
        if minute_of_day(self.day_end) <= minute_of_day(self.day_start):
            raise ValueError("day_end must come after day_start")
        return self

    @property
    def locations(self) -> int:
        """How many locations the characters fill."""
        return -(-self.characters // self.location_size)

    @property
    def horizon(self) -> int:
        """Minutes simulated: from the first morning to three hours after the last evening."""
        day = minute_of_day(self.day_end) - minute_of_day(self.day_start)
        return (self.days - 1) * 24 * 60 + day + 180


def minute_of_day(hhmm: str) -> int:
    """Minutes since midnight of a time of day ``"HH:MM"``."""
    hh, mm = hhmm.split(":")
    return int(hh) * 60 + int(mm)


Scenario = Annotated[
    BattleScenario | EpidemicScenario | TravelScenario | WeekendScenario,
    Field(discriminator="kind"),
]


def ruleset_id(scenario: Scenario) -> str:
    """The ruleset a scenario runs on."""
    return RULESETS[scenario.kind]
