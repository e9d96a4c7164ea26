"""The injury tables of rules/003 (травмы, сокращённая таблица) as validated data.

``tables.yaml`` holds all 57 rows of checklist-003 §2.7 (D-TAB-01..57) and
Disfigurement (D-DISF-01). A row is found by location, sub-table (the damage group of
that location) and severity; :data:`TABLES` is loaded and checked at import, so a
broken file stops the start-up naming the file and the field.
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from lazaretto.core.datafile import load_package_yaml

Location = Literal["head", "arms", "legs", "torso"]
Severity = Literal["light", "medium", "heavy"]
Unit = Literal["turn", "minute", "hour", "day", "week"]
Method = Literal[
    "medicine",
    "medicine_series",
    "healing",
    "regeneration",
    "surgery",
    "ally_action",
    "splint",
    "magic",
    "strong_potion",
    "amputation",
    "natural",
]
EffectKind = Literal[
    "none",
    "disadvantage",
    "advantage",
    "condition",
    "amnesia",
    "max_hp_loss",
    "max_hp_set",
    "max_hp_drain",
    "hp_drain",
    "bleeding",
    "speed",
    "speed_set",
    "speed_factor",
    "ac",
    "ability",
    "damage_factor",
    "exhaustion",
    "no_proficiency",
    "cannot_hold",
    "auto_fail",
    "limb_lost",
    "limb_useless",
    "hp_loss",
    "gm",
]
LOCATIONS: tuple[Location, ...] = ("head", "arms", "legs", "torso")
SEVERITIES: tuple[Severity, ...] = ("light", "medium", "heavy")
LIMBS: dict[str, str] = {"arms": "arm", "legs": "leg"}
"""Locations with a left and a right side (A-D-15), and the name of one limb."""


class Text(BaseModel):
    """A cell in English and Russian."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    en: str = Field(min_length=1)
    ru: str = Field(min_length=1)

    def get(self, lang: str) -> str:
        """The text in ``lang``."""
        return self.ru if lang == "ru" else self.en


class Effect(BaseModel):
    """One part of an effect cell, with what the engine does with it (tables.yaml)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: EffectKind
    en: str
    ru: str
    target: str | None = None
    name: str | None = None
    dice: str | None = None
    unit: Unit | None = None
    amount: int | None = None
    factor: float | None = None
    every_hours: int | None = Field(default=None, gt=0)
    gm: bool = False

    @model_validator(mode="after")
    def _complete(self) -> Self:
        needs_dice = {"max_hp_loss", "hp_drain", "bleeding", "amnesia"}
        if self.kind in needs_dice and not self.dice:
            raise ValueError(f"a {self.kind} effect needs dice")
        if self.kind in ("max_hp_drain", "hp_drain") and self.every_hours is None:
            raise ValueError(f"a {self.kind} effect needs every_hours")
        if self.kind == "condition" and not self.name:
            raise ValueError("a condition effect needs its name")
        return self

    @property
    def timed(self) -> bool:
        """Whether it lasts a rolled time and then ends by itself (A-D-19)."""
        return self.kind in ("condition", "amnesia") and self.dice is not None


class Cure(BaseModel):
    """One alternative of a treatment cell; any one suffices (A-D-12)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    method: Method
    dc: int | None = Field(default=None, ge=1)
    min_level: int | None = Field(default=None, ge=1, le=9)
    successes: int | None = Field(default=None, ge=1)
    dice: str | None = None
    unit: Unit | None = None

    @model_validator(mode="after")
    def _complete(self) -> Self:
        if self.method == "healing" and self.min_level is None:
            raise ValueError("a healing cure needs min_level")
        if self.method == "medicine_series" and (self.successes is None or self.dc is None):
            raise ValueError("a medicine_series cure needs successes and dc")
        if self.method == "natural" and (self.dice is None or self.unit is None):
            raise ValueError("a natural cure needs dice and unit")
        return self


class Row(BaseModel):
    """One row of the injury table: for this location, damage group and severity, the
    injury has exactly this effect and this treatment (D-TAB-NN)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^D-(TAB|DISF)-\d\d$")
    location: Location | None = None
    damage: str | None = None
    severity: Severity | None = None
    name: Text
    effect: Text
    treatment: Text
    effects: list[Effect] = Field(min_length=1)
    cures: list[Cure] = Field(default_factory=list)
    untreatable: Literal["none_listed", "no_treatment"] | None = None

    @model_validator(mode="after")
    def _treatment_or_none(self) -> Self:
        if bool(self.cures) == bool(self.untreatable):
            raise ValueError("a row has either cures or untreatable, exactly one")
        return self

    def cure(self, method: str) -> Cure | None:
        """The cure of ``method``, if the row lists it."""
        return next((c for c in self.cures if c.method == method), None)

    @property
    def natural(self) -> Cure | None:
        """Natural recovery, if the treatment cell gives a time."""
        return self.cure("natural")


class Tables(BaseModel):
    """The whole data file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    sub_tables: dict[Location, dict[str, Text]]
    methods: dict[Method, Text]
    rows: list[Row]
    disfigurement: Row

    @model_validator(mode="after")
    def _every_cell_once(self) -> Self:
        seen: set[tuple[str | None, str | None, str | None]] = set()
        ids: set[str] = set()
        for row in self.rows:
            key = (row.location, row.damage, row.severity)
            if row.location is None or row.severity is None or row.damage is None:
                raise ValueError(f"{row.id}: a table row needs location, damage and severity")
            if row.damage not in self.sub_tables.get(row.location, {}):
                raise ValueError(f"{row.id}: {row.location} has no sub-table {row.damage!r}")
            if key in seen or row.id in ids:
                raise ValueError(f"{row.id}: a second row for {key}")
            seen.add(key)
            ids.add(row.id)
        for loc, subs in self.sub_tables.items():
            for sub in subs:
                for sev in SEVERITIES:
                    if (loc, sub, sev) not in seen:
                        raise ValueError(f"no {sev} row for {loc}/{sub}")
        return self

    def row(self, location: str, sub_table: str, severity: str) -> Row:
        """The row for a location, sub-table and severity (KeyError if there is none)."""
        for r in self.rows:
            if (r.location, r.damage, r.severity) == (location, sub_table, severity):
                return r
        raise KeyError((location, sub_table, severity))

    def by_id(self, row_id: str) -> Row:
        """The row ``D-TAB-NN`` (or ``D-DISF-01``)."""
        if row_id == self.disfigurement.id:
            return self.disfigurement
        return next(r for r in self.rows if r.id == row_id)


TABLES = load_package_yaml(__name__.rsplit(".", 1)[0], "tables.yaml", Tables)
"""The bundled injury tables (validated at import)."""
