"""Parameters of the warhammer-larp ruleset (data file ``params.yaml``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class AllowedActivities(BaseModel):
    """What a character may do in each wound state (A-W-05)."""

    model_config = ConfigDict(extra="forbid")

    healthy: list[str]
    light: list[str]
    heavy_unbandaged: list[str]
    heavy_bandaged: list[str]
    dead: list[str]


class ChecklistItem(BaseModel):
    """A props requirement the software can only show and have confirmed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rule: str
    en: str
    ru: str


class WarhammerParams(BaseModel):
    """Every number and ambiguity default of checklist-000 §1–§3 (see params.yaml)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    light_to_heavy_unbandaged_minutes: int = Field(gt=0)
    heavy_death_unbandaged_minutes: int = Field(gt=0)
    light_timer_anchor: Literal["first_unbandaged_hit", "latest_hit"]
    timer_boundary_inclusive: bool
    bandage_duration_minutes: int | None = Field(default=None, gt=0)
    stabilise_requires_bandage_per_lost_hit: bool
    bandages_per_lost_hit: int = Field(ge=1)
    light_treatment_rest_minutes: int = Field(gt=0)
    stitches_per_lost_hit: int = Field(ge=1)
    stitches_per_plaster_max: int = Field(ge=1)
    plaster_fold_min_length_cm: float = Field(ge=0)
    plaster_fold_min_height_cm: float = Field(ge=0)
    heavy_post_op_rest_minutes: int = Field(gt=0)
    self_bandage_requires_mat: bool
    self_bandage_allowed_when_heavy: bool
    rain_move_keeps_progress: bool
    healer_skill: str = Field(min_length=1)
    healer_kit_check_required: bool
    carrier_skill: str = Field(min_length=1)
    healer_kit: list[str] = Field(min_length=1)
    mat_min_length_cm: float = Field(gt=0)
    mat_min_width_cm: float = Field(gt=0)
    hospital_min_operating_tables: int = Field(ge=0)
    hospital_min_beds: int = Field(ge=0)
    op_table_min_length_m: float = Field(gt=0)
    op_table_min_width_m: float = Field(gt=0)
    op_table_min_height_m: float = Field(gt=0)
    op_table_height_tolerance_m: float = Field(ge=0)
    bed_min_length_cm: float = Field(gt=0)
    bed_min_width_cm: float = Field(gt=0)
    bed_min_height_cm: float = Field(ge=0)
    allowed: AllowedActivities
    corpse_interactions: list[str]
    other_cure_means: list[str]
    props_checklists: dict[str, list[ChecklistItem]]
