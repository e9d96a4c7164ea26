"""The two data files of ide4-survival: the condition table and the disease catalogue.

``conditions.yaml`` is the one state table of rules/004 (Таблица состояний, I-COND-01..10):
how each state is gained, the shift it gives and how it is removed; every check's
state shifts are computed from it (I-STATE-05, I-GEN-02). ``diseases.yaml`` is the
canonical IDE4 disease catalogue (Каталог болезней, I-CAT-01..08) with its treatments
(I-CURE-01..31). Both are validated at start-up; a broken file names the file and field.

A shift target (``Shift.target``) is one of:

* a check tag: ``long_physical``, ``physical``, ``concentration``, ``related``,
  ``movement``, ``run``, ``climb``, ``swim``, ``stealth``, ``strength``;
* ``group:<name>`` — checks of an attribute group (``body``, ``intellect``,
  ``sociality``, ``combat``, ``seduction``; A-I-28);
* ``skill:<Name>`` — checks of one skill (``skill:Endurance``).
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from lazaretto.core.datafile import load_package_yaml

TAGS = (
    "long_physical",
    "physical",
    "concentration",
    "related",
    "movement",
    "run",
    "climb",
    "swim",
    "stealth",
    "strength",
    "heavy",
)
"""Check tags a shift may target (see the module docstring)."""
GROUPS = ("body", "intellect", "sociality", "combat", "seduction")


class Text(BaseModel):
    """A text in both languages."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    en: str = Field(min_length=1)
    ru: str = Field(min_length=1)


class Shift(BaseModel):
    """A difficulty shift: ``amount`` added to checks matching ``target`` (A-I-02: + is harder)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    target: str
    amount: int

    @field_validator("target")
    @classmethod
    def _target(cls, v: str) -> str:
        kind, _, name = v.partition(":")
        if v in TAGS or (kind == "group" and name in GROUPS) or (kind == "skill" and name):
            return v
        raise ValueError(f"unknown shift target {v!r}: a tag, group:<group> or skill:<Skill>")


class ConditionRow(BaseModel):
    """One row of the state table: a state, how it is gained, its shift, how it is removed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rule: str = Field(pattern=r"^I-COND-\d\d$")
    name: Text
    gained: Text
    shift: Text
    removed: Text
    source_ru: str = Field(min_length=1, description="the source row, verbatim")
    shifts: list[Shift] = Field(default_factory=list)
    fatigue_degree: int | None = Field(None, ge=1, le=3, description="A-I-30 scale position")


class ConditionTable(BaseModel):
    """The state table (I-COND-01..10) plus the other states a card may show."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    states: dict[str, ConditionRow]
    other: dict[str, Text] = Field(default_factory=dict, description="labels of other states")

    def label(self, kind: str, lang: str) -> str:
        """The name of state ``kind`` in ``lang``."""
        row = self.states.get(kind)
        text = row.name if row else self.other.get(kind)
        if text is None:
            return kind
        return text.ru if lang == "ru" else text.en


Effect = Literal[
    "unspecified",  # the source names the method without an effect: the GM adjudicates (A-I-20)
    "no_effect",  # «не помогает»
    "doubtful",  # «сомнительно»: the GM adjudicates
    "symptom_relief",  # removes/reduces a symptom, does not cure
    "symptom_worse",  # makes a symptom worse
    "worsen",  # the disease gets one stage worse
    "cure",  # cures now
    "cure_after_days",  # cures after ``days`` game days (worsening stops meanwhile)
    "suppress",  # suppresses symptoms and/or penalties for ``hours``
    "penalty_reduction",  # ``amount`` off the penalties on ``targets``
    "extend_death",  # +``days`` to the death timer and ``burn`` burns, per application
    "transfer",  # parasites move into another body (cure); risk of calm loss
    "cure_with_risk",  # cure, with a risk the GM decides (nerve damage)
]


class Treatment(BaseModel):
    """One treatment record of the catalogue (I-CURE-NN)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rule: str = Field(pattern=r"^I-CURE-\d\d$")
    kind: Literal["folk", "magic", "medicine", "magic_medicine", "alchemy", "technology"]
    name: Text
    effect: Effect
    implied: str = Field("", description="what the GM would usually rule for 'unspecified'")
    days: float | None = Field(None, gt=0)
    hours: float | None = Field(None, gt=0)
    suppresses: list[Literal["symptoms", "penalties"]] = Field(default_factory=list)
    targets: list[str] = Field(default_factory=list, description="shift targets reduced")
    amount: int = 0
    burn: float = 0
    rare: bool = False
    source_ru: str = Field(min_length=1)


class Disease(BaseModel):
    """A disease record with every field rules/004 requires (I-DIS-02)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rule: str = Field("", description="I-CAT-NN for catalogue entries, empty for added ones")
    category: Literal["common", "venereal", "deadly", "basic", "custom"]
    name: Text
    latin: str = ""
    folk_names: list[str] = Field(default_factory=list)
    transmission: Text
    sexual: bool = Field(False, description="transmitted by sexual contact (I-HOT-10)")
    incubation_days: tuple[int, int] | None = Field(
        None, description="[min, max] game days; none = check at once (A-I-20)"
    )
    symptoms: Text
    penalties: list[Shift] = Field(default_factory=list)
    penalties_text: Text
    stages: Text
    untreated: Text
    poison_points: int = Field(0, ge=0, description="permanent poisoning units while sick")
    daily_will_target: int | None = Field(None, ge=1, le=99)
    death_after: str | None = Field(None, description="dice expression, e.g. '2+1d6'")
    death_unit: Literal["days", "weeks"] = "days"
    stage2_shift: int | None = Field(None, ge=1, le=2, description="A-I-17: +1 unless +2 here")
    treatments: list[Treatment] = Field(default_factory=list)
    canonical: bool = True


class Catalogue(BaseModel):
    """The disease catalogue (I-DIS-14: additions allowed, drops only by the GM)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    diseases: dict[str, Disease]


@cache
def condition_table() -> ConditionTable:
    """The bundled state table (validated)."""
    return load_package_yaml(__package__ or __name__, "conditions.yaml", ConditionTable)


@cache
def catalogue() -> Catalogue:
    """The bundled disease catalogue (validated)."""
    return load_package_yaml(__package__ or __name__, "diseases.yaml", Catalogue)
