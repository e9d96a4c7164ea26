"""The ruleset's tables as validated data files: the trauma catalogue with its physical
and magical treatments (``traumas.yaml``; S-PHEAL, S-MHEAL, A-S-24) and the magical
mutation table (``mutations.yaml``; S-MUTT).

A treatment is one of four kinds (A-S-21..A-S-23):

* ``single`` — one roll at the end of ``hours`` (a failed roll may be retried, A-S-23);
* ``successes`` — one roll per ``interval`` until ``successes`` rolls succeeded;
* ``cumulative`` — one roll per day, totals summed until ``threshold`` (суммарный порог);
* ``untreatable`` — this method cannot heal it; ``remedy`` says what can be done.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, model_validator

from lazaretto.core.datafile import load_package_yaml
from lazaretto.rulesets.fantasy_server.params import Stat, Threshold


class Treatment(BaseModel):
    """How one method treats one trauma (a row of S-PHEAL or S-MHEAL)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rule: str
    kind: Literal["single", "successes", "cumulative", "untreatable"]
    stat: Stat | None = None
    threshold: Threshold | None = None
    hours: int = Field(0, ge=0)
    several_hours: bool = False
    successes: int = Field(0, ge=0)
    interval: Literal["day", "24h"] = "day"
    fail_hp_loss: int = Field(0, ge=0)
    death_at_zero: bool = False
    no_heavy_work_days: int = Field(0, ge=0)
    no_heavy_work_rest_of_day: bool = False
    becomes: str | None = None
    combined: bool = False
    remedy_en: str = ""
    remedy_ru: str = ""

    @model_validator(mode="after")
    def _complete(self) -> Treatment:
        if self.kind != "untreatable" and (self.stat is None or self.threshold is None):
            raise ValueError(f"{self.rule}: a {self.kind} treatment needs a stat and a threshold")
        if self.kind == "successes" and self.successes < 1:
            raise ValueError(f"{self.rule}: successes must be at least 1")
        return self


class TraumaKind(BaseModel):
    """A trauma (травма) of the catalogue and its treatments, by method (A-S-24)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    en: str
    ru: str
    limb: bool = False
    physical: Treatment | None = None
    physical_alt: Treatment | None = None
    magical: Treatment | None = None
    acid_only: bool = False


class TraumaCatalogue(RootModel[dict[str, TraumaKind]]):
    """Every trauma by key."""

    @model_validator(mode="after")
    def _targets_exist(self) -> TraumaCatalogue:
        for key, t in self.root.items():
            for tr in (t.physical, t.physical_alt, t.magical):
                if tr is not None and tr.becomes is not None and tr.becomes not in self.root:
                    raise ValueError(
                        f"{key}: becomes {tr.becomes!r}, which is not in the catalogue"
                    )
        return self


class MutationRow(BaseModel):
    """One row of the magical mutation table (S-MUTT)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rule: str
    effect: Literal["damage", "half", "skin_layer", "misknit", "rudimentary_limb", "tumour"]
    en: str
    ru: str


class MutationTable(RootModel[dict[int, MutationRow]]):
    """The d6 table by face."""

    @model_validator(mode="after")
    def _faces(self) -> MutationTable:
        if sorted(self.root) != list(range(1, len(self.root) + 1)):
            raise ValueError("faces must be 1..N without gaps")
        return self


PACKAGE = "lazaretto.rulesets.fantasy_server"


@cache
def traumas() -> dict[str, TraumaKind]:
    """The bundled trauma catalogue (validated)."""
    return load_package_yaml(PACKAGE, "traumas.yaml", TraumaCatalogue).root


@cache
def mutations() -> dict[int, MutationRow]:
    """The bundled mutation table (validated)."""
    return load_package_yaml(PACKAGE, "mutations.yaml", MutationTable).root
