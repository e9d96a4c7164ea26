"""Parameters of the warhammer-larp ruleset (data file ``params.yaml``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from lazaretto.core.visibility import PlayerSight


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


class LabQuest(BaseModel):
    """A quest of the laboratories' list (W-LAB-06) and the points it brings (W-LAB-05)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    title: str = Field(min_length=1)
    title_ru: str | None = Field(None, min_length=1)
    """The title in Russian; a quest without one reads in English in both languages."""
    reward: int = Field(ge=1, le=2)


Route = Literal["touch", "combat", "outbreak", "epidemic"]
ProtectionLevel = Literal["full", "mask_gloves"]


class WarhammerParams(BaseModel):
    """Every number and ambiguity default of checklist-000 (see params.yaml)."""

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

    # --- diseases, stickers, infection (part 2) ---------------------------------------
    saboteur_skill: str = Field(min_length=1)
    alchemist_skill: str = Field(min_length=1)
    carrier_max_stickers_per_victim: int = Field(ge=1)
    noncontagious_max_per_victim: int = Field(ge=1)
    held_stickers_per_disease_max: int = Field(ge=0)
    contact_cooldown_seconds: int = Field(ge=0)
    finish_off_stickers: int = Field(ge=1)
    finish_off_infects_from_contagious: bool
    finish_off_excluded_weapons: list[str]
    full_protection_items: list[str] = Field(min_length=1)
    ordinary_masks: list[str] = Field(min_length=1)
    gloves_item: str = Field(min_length=1)
    protection_matrix: dict[Route, list[ProtectionLevel]]
    outbreak_building_max_characters: int = Field(ge=1)
    outbreak_min_distance_from_entrance_m: float = Field(ge=0)
    outbreak_outdoor_radius_m: float = Field(gt=0)
    outbreak_outdoor_max_stickers: int = Field(ge=1)
    outbreak_requires_certificate: bool
    outbreak_unused_stickers: Literal["returned_to_carrier", "discarded"]
    epidemic_wave_max_minutes: int = Field(gt=0)
    epidemic_wave_interval_minutes: int | None = Field(default=None, gt=0)
    epidemic_wave_stickers: int | None = Field(default=None, gt=0)
    epidemic_total_stickers: int = Field(gt=0)
    quarantine_mode: Literal["sum", "each"]
    quarantine_waves: int = Field(ge=1)
    quarantine_max_infected: int = Field(ge=0)
    intensive_threshold: float = Field(ge=0, le=1)
    intensive_counts_nonhospital_cures: bool
    count_nonsusceptible_as_infected: bool
    disease_course_minutes: int = Field(gt=0)
    disease_course_items: int = Field(ge=1)
    medication_reduction_minutes: int = Field(ge=0)
    medication_reduction_stackable: bool
    parallel_courses_time: Literal["max", "sum"]
    bandage_allowed_during_disease_course: bool
    lethal_timer_pauses_in_treatment: bool
    medical_actions: list[str] = Field(min_length=1)
    medications: list[str] = Field(min_length=1)
    medical_action_min_minutes: dict[str, float]
    study_success_min_matches: int = Field(ge=1)
    study_course_minutes: int = Field(gt=0)
    allow_description_copy: bool
    # --- laboratories (ЛСБ) -------------------------------------------------------------
    lab_start_points: int = Field(ge=0)
    lab_quest_points_permanent: bool
    lab_day_reset_time: str = Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$")
    lab_quest_batch: int = Field(ge=1)
    lab_quests: list[LabQuest] = Field(min_length=1)
    sticker_batch_cost: int = Field(ge=0)
    nonlethal_stickers_per_batch: int = Field(ge=1)
    lethal_stickers_per_batch: int = Field(ge=1)
    outbreak_certificate_cost: int = Field(ge=0)
    epidemic_certificate_cost: int = Field(ge=0)
    outbreak_max_stickers: int = Field(ge=1)
    epidemic_required_stickers: int = Field(ge=1)
    recipe_components_nonlethal: tuple[int, int]
    recipe_components_lethal: tuple[int, int]
    recipe_max_sacrifice_substitutions: int | None = Field(default=None, ge=0)
    recipe_try_cost: int = Field(ge=0)
    # --- looting a stormed location -----------------------------------------------------
    loot_search_minutes: int = Field(gt=0)
    loot_max_minutes: int = Field(gt=0)
    loot_search_ends_on_declaration: bool
    loot_protection_hours: float = Field(gt=0)
    loot_protection_anchor: Literal["army_exit", "declared_looted"]
    resident_no_damage_until: Literal["army_exit", "declared_looted"]
    player_sight: PlayerSight
