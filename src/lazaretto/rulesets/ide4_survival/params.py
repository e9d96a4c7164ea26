"""Parameters of the ide4-survival ruleset (data file ``params.yaml``).

Every number of checklist-004 §4 and every ambiguity default (A-I-01..31) is a field
here; the alternative readings are the other allowed values of a ``Literal``. The
numbers the source calls provisional (pace checks, sleep thresholds: A-I-27) are
parameters like the rest.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from lazaretto.core.visibility import PlayerSight

Outcome = Literal["triumph", "success", "medium", "failure", "tragedy"]
OUTCOMES: tuple[Outcome, ...] = ("triumph", "success", "medium", "failure", "tragedy")
"""The five outcome categories of the core IDE4 check, best first (A-I-01)."""
Pace = Literal["cautious", "normal", "fast", "forced"]
FatigueState = Literal["none", "tired", "very_tired", "exhausted"]


class Frozen(BaseModel):
    """A strict, immutable parameter block."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Band(Frozen):
    """One row of the placeholder band table: d100 (roll under) upper bounds per outcome.

    A roll ≤ ``triumph`` is a Triumph, ≤ ``success`` a Success, ≤ ``medium`` Medium,
    ≤ ``failure`` a Failure, anything higher a Tragedy.
    """

    difficulty: int
    triumph: int = Field(ge=0, le=100)
    success: int = Field(ge=0, le=100)
    medium: int = Field(ge=0, le=100)
    failure: int = Field(ge=0, le=100)


class PaceRow(Frozen):
    """One pace of the travel table (I-TRAVEL-03..06, I-TRAVEL-14..17)."""

    state: FatigueState = Field(description="end-of-day state")
    overloaded_state: FatigueState | None = Field(None, description="end-of-day if overloaded")
    check_skill: str | None = None
    check_difficulty: int | None = None
    failure_state: FatigueState | None = None
    skill_shifts: dict[str, int] = Field(default_factory=dict, description="while on the march")
    en: str
    ru: str


class IdeParams(Frozen):
    """Every number and ambiguity default of checklist-004 (see ``params.yaml``)."""

    # --- modes (I-GEN-04/08/10/11) ---------------------------------------------------
    mode: Literal["basic", "extended", "simplified"]
    meal_mode: Literal["auto", "detailed", "quick"]
    stress_mode: Literal["auto", "points", "simplified"]
    travel_mode: Literal["auto", "standard", "quick"]
    water_accounting: Literal["auto", "on", "off"]
    poison_points_rule: Literal["auto", "on", "off"]
    load_slots: Literal["auto", "on", "off"]

    # --- the core d100 check (A-I-01..03, A-I-22, A-I-28) -----------------------------
    check_resolver: Literal["manual", "band_table"]
    reroll_policy: Literal["take_new", "take_better"]
    shift_sign: Literal["plus_is_harder"]
    band_table: list[Band] = Field(min_length=1)
    energy_limit_base: int = Field(ge=1)
    energy_limit_min: int = Field(ge=0)
    sleep_deprivation_penalty_basic: int = Field(ge=0)
    sleep_deprivation_penalty_extended: int = Field(ge=0)
    sleep_deprivation_stacks: bool
    sleep_deprived_effect: Literal["energy_limit", "concentration"]
    energy_die_restricted_from: int = Field(ge=2)
    attribute_groups: list[str]
    skill_groups: dict[str, str]
    calm1_d8_skills: list[str]
    immunity_skill: str
    courage_skill: str
    will_skill: str
    endurance_skill: str
    negotiation_skill: str
    state_group: str

    # --- meals and water (I-MEAL, A-I-04..09, A-I-31) -------------------------------------
    meal_windows: list[str] = Field(min_length=1)
    meal_liquid_min_ml: int = Field(ge=0)
    food_norms_units: list[int] = Field(min_length=1)
    units_per_gram: float = Field(gt=0)
    meal_reroll_expiry: Literal["next_window_start", "next_meal_completed"]
    meal_rerolls_per_meal: int = Field(ge=0)
    bonus_food_extra_rerolls: int = Field(ge=0)
    meal_reroll_carryover: bool
    exhausted_after_consecutive_skips: int = Field(ge=1)
    exhausted_after_days_without_food: int = Field(ge=1)
    exhausted_skip_exception: Literal["none", "full_meal_in_period"]
    fed_requires_consecutive_meals: int = Field(ge=1)
    daily_water_norm_ml: int = Field(ge=0)
    useful_liquid_ratio: dict[str, float]
    dehydration_cure_water_ml: int = Field(ge=0)
    dehydration_cure_rest_hours: float = Field(ge=0)
    visible_hunger_shift: int

    # --- poisoning (I-POIS, A-I-12, A-I-23) ---------------------------------------------
    poison_outcome_map: dict[str, Literal["poisoned", "poisoned_gm_escalation", "none"]]
    poison_points_on_failure: int = Field(ge=1)
    poison_decay_hours: float = Field(gt=0)
    poison_decay_vomits: int = Field(ge=1)
    reroll_loss_order: list[Literal["meal", "pacified"]]

    # --- sleep (I-SLEEP, A-I-10/11) ------------------------------------------------------
    sleep_plan_dice: str
    sleep_interrupted_dice: str
    sleep_deprived_below_hours: int = Field(ge=0)
    sleep_deprived_remove_hours: int = Field(ge=0)
    sleep_deprived_rule: Literal["table", "eight_hour"]
    very_tired_cure_sleep_hours: int = Field(ge=0)
    normal_sleep_hours: int = Field(ge=0)
    interrupted_sleep_is_bad_camp: bool
    forced_march_worsens_sleep: bool
    sick_sleep_is_bad: bool
    xp_burn_deadline: str
    full_camp_equals: Literal["normal_camp"]

    # --- fatigue, travel, load (I-TRAVEL, I-LOAD, A-I-21/29/30) ---------------------------
    fatigue_scale: list[Literal["tired", "very_tired", "exhausted"]]
    fatigue_degrees_exclusive: bool
    forced_march_state: Literal["very_tired", "exhausted"]
    travel_check_mode: Literal["optional", "always", "never"]
    paces: dict[str, PaceRow]
    fast_days_for_very_tired: int = Field(ge=2)
    march_days_without_camp_for_very_tired: int = Field(ge=2)
    overload_outside_travel_state: Literal["very_tired", "tired", "none"]
    quick_travel_costs: list[str]
    load_shifts: dict[str, dict[str, int]]
    loaded_fatigue_check_shift: int = Field(ge=0, le=10)

    # --- calm points and stress (I-CALM, A-I-13..16, A-I-26) -------------------------------
    calm_points_max: int = Field(ge=1)
    calm_loss_per_turn_cap: int = Field(ge=1)
    calm_gain_per_turn_cap: int = Field(ge=1)
    calm_loss_overflow: Literal["discard", "carry_over"]
    calm_events: dict[str, int]
    calm_quiet_hours_per_point: float = Field(gt=0)
    calm_sleep_restore_min_hours: int = Field(ge=0)
    adrenaline_d20: dict[int, int]
    adrenaline_grant: Literal["on_enter_level", "on_enter_level_cumulative"]
    adrenaline_expires_at_full_calm: bool
    tragedy_replacements_dice: str
    energy_dice_after_replacement: int = Field(ge=0)
    tragedy_replacements_per_check: int = Field(ge=1)
    zero_calm_health_penalty: int
    zero_calm_penalty_delay_hours: float = Field(gt=0)
    zero_calm_penalty_target: Literal["health_attribute", "hp"]
    caster_calm1_multiplier: int = Field(ge=1)
    simplified_stress_map: dict[int, str]
    simplified_keeps_adrenaline: bool

    # --- diseases and immunity (I-DIS, I-IMM, A-I-17..20) --------------------------------
    daily_progress_map: dict[str, int]
    stage2_shift: int = Field(ge=1, le=2)
    disease_fatigue_on_worsening: bool
    death_timer_start: Literal["on_sick", "on_exposure"]
    infection_outcome_map: dict[str, int]
    stage4_failure_result: Literal["death", "irreversible_consequence"]
    immunity_intervals_min: dict[str, int]
    cold_warm_clothes_grace_hours: float = Field(ge=0)
    immunity_conditions_stack: Literal["independent_schedules", "difficulty"]
    black_torpor_will_target: int = Field(ge=1, le=99)
    expulsion_calm_loss: int = Field(ge=0)
    expulsion_calm_days: int = Field(ge=0)
    full_cure_available: list[
        Literal["magic", "medicine", "magic_medicine", "alchemy", "technology"]
    ]

    # --- intimacy (I-HOT, A-I-24) ----------------------------------------------------------
    hot_reroll_expiry_hours: float = Field(gt=0)
    hot_reroll_cooldown_male_min: int = Field(ge=0)
    hot_reroll_cooldown_female_h: float = Field(ge=0)
    hot_reroll_limit: int = Field(ge=1)
    hot_reroll_limit_love: int = Field(ge=1)

    # --- combat stamina, recovery (I-DAY-10, A-I-25) -------------------------------------
    combat_stamina_tokens: tuple[int, int]
    combat_stamina_costs: dict[str, int]
    recovery_modifiers: dict[str, int]
    player_sight: PlayerSight

    def resolved(self, area: str) -> str:
        """The effective sub-mode of ``area`` (``meal``, ``stress``, ``travel``,
        ``water``, ``poison_points``, ``load_slots``): ``auto`` follows ``mode``."""
        value = str(getattr(self, AREAS[area]))
        if value != "auto":
            return value
        return AUTO[area][self.mode]


AREAS = {
    "meal": "meal_mode",
    "stress": "stress_mode",
    "travel": "travel_mode",
    "water": "water_accounting",
    "poison_points": "poison_points_rule",
    "load_slots": "load_slots",
}
AUTO: dict[str, dict[str, str]] = {
    # I-MEAL-16, I-CALM-31, I-TRAVEL-11: the light campaign uses the quick variants;
    # I-GEN-11, I-MEAL-18, I-POIS-07, I-LOAD-01: extended mode counts water, poison points, slots
    "meal": {"basic": "detailed", "extended": "detailed", "simplified": "quick"},
    "stress": {"basic": "points", "extended": "points", "simplified": "simplified"},
    "travel": {"basic": "standard", "extended": "standard", "simplified": "quick"},
    "water": {"basic": "off", "extended": "on", "simplified": "off"},
    "poison_points": {"basic": "off", "extended": "on", "simplified": "off"},
    "load_slots": {"basic": "off", "extended": "on", "simplified": "off"},
}
