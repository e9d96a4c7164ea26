"""Parameters of the fantasy-server ruleset (data file ``params.yaml``).

Every number of checklist-002 and every ambiguity default (``A-S-…``) is a field here;
the other readings of an ambiguity are the other values of its ``Literal``. Thresholds
that the rules call "medium", "hard" or "heavy" are written as those words in the data
files and resolved through :meth:`FantasyParams.threshold` (A-S-02), so every output can
show "medium (18)".
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from lazaretto.core.visibility import PlayerSight

Stat = Literal["STR", "END", "REF", "PER", "INT", "WIL", "DET", "MAG"]
STATS: tuple[str, ...] = ("STR", "END", "REF", "PER", "INT", "WIL", "DET", "MAG")
ThresholdName = Literal["medium", "hard", "heavy"]
Threshold = int | ThresholdName
"""A threshold: a number, or a named one resolved by the campaign's parameters."""


class CombatSlots(BaseModel):
    """Combat artifact slots of a character (S-ART-10)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    accessory: int = Field(ge=0)
    armor_clothing: int = Field(ge=0)
    weapon: int = Field(ge=0)
    shield: int = Field(ge=0)


class RoleplaySlots(BaseModel):
    """Non-combat (role-play) artifact slots of a character (S-ART-17)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    accessory: int = Field(ge=0)
    clothing: int = Field(ge=0)
    tool: int = Field(ge=0)


class StageNumbers(BaseModel):
    """One number per addiction stage (S-ADD-04/07/10, S-ADD-05/08/11)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    stage1: int = Field(ge=0)
    stage2: int = Field(ge=0)
    heavy: int = Field(ge=0)


class FantasyParams(BaseModel):
    """Every number and ambiguity default of checklist-002 (see params.yaml)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # --- checks and criticals (A-S-01, A-S-02, A-S-14, A-S-18; S-CRIT) ---------------
    check_dice: str = Field(min_length=2)
    check_adds_stat: bool
    success_if_total_gte_threshold: bool
    crit_success_naturals: list[int]
    crit_failure_naturals: list[int]
    threshold_medium: int
    threshold_hard: int
    threshold_heavy: int
    opposed_tie_winner: Literal["defender", "active"]

    # --- artifacts (S-ART, S-STAT) ---------------------------------------------------
    combat_slots: CombatSlots
    rp_slots: RoleplaySlots
    tech_craft_skills: list[str] = Field(min_length=1)
    magic_craft_skills: list[str] = Field(min_length=1)
    max_properties_per_artifact: int | None = Field(default=None, ge=1)
    artifact_lockout_days: int = Field(ge=0)
    artifact_lockout_scope: Literal["perfect_item_only", "all_artifacts"]
    other_param_bonus_cap: int = Field(ge=0)
    artifact_stat_bonus_max: int = Field(ge=0)
    artifact_stat_bonus_max_crit: int = Field(ge=0)
    stat_bonus_mode: Literal["stepwise_target_band", "divide_by_base_band", "stepwise_current_band"]
    stat_band_costs: list[tuple[int, int | None, int]] = Field(min_length=1)
    stat_bonus_cap: int = Field(ge=0)

    # --- falling and collisions (S-FALL, S-COLL) -------------------------------------
    fall_die: str
    fall_trauma_step: int = Field(gt=0)
    fall_death_above: int = Field(ge=0)
    fall_actions_per_turn: int = Field(gt=0)
    fall_consumable_threshold: Threshold
    falling_allowed_actions: list[str]
    fall_trauma_table: list[str] = Field(min_length=1)
    collision_die: str
    collision_shared_roll: bool
    knockback_wall_pointblank_dice: str

    # --- breakage and repair (S-BRK, S-REP) ------------------------------------------
    break_counter_scope: Literal["encounter", "lifetime"]
    weapon_break_crits: int = Field(ge=1)
    weapon_penalty_step: int = Field(ge=0)
    shield_break_crits: int = Field(ge=1)
    shield_penalty_step: int = Field(ge=0)
    armor_break_crits: int = Field(ge=1)
    armor_penalty_step: int = Field(ge=0)
    artifact_partial_break_crits: int = Field(ge=1)
    tool_partial_break_crits: int = Field(ge=1)
    repair_requires_check: bool
    repair_check_stat: Stat
    repair_check_threshold: Threshold
    repair_restores_artifact_properties: bool
    repair_fraction: float = Field(gt=0, le=1)
    repair_rounding: Literal["ceil", "floor", "round"]
    repair_skills: dict[str, list[str]]

    # --- crime (S-CRIME) -------------------------------------------------------------
    theft_victim_bonus: int
    theft_victim_bonus_seeing: int
    theft_fall_trigger: Literal[
        "thief_crit_fail_or_victim_crit_success", "thief_crit_fail", "victim_crit_success"
    ]
    caught_red_handed_duration: Literal["scene", "next_fight"]
    robbery_per_threshold: Threshold
    robbery_requires_owner_online: bool
    visible_trace_threshold: Threshold
    invisible_trace_threshold_min: int
    trace_finding_skill: str
    lock_threshold_ref_lockpicks: int
    lock_threshold_str_unarmed: int
    lock_threshold_str_tool: int

    # --- stealth and torture (S-STEALTH, S-TORT) -------------------------------------
    stealth_group_min: int = Field(ge=2)
    crowd_size: int = Field(ge=2)
    ambush_first_roll_bonus: int
    torture_bonus_step: int
    torture_max_rounds: int = Field(ge=1)
    torture_cooldown: Literal["next_day", "24h"]

    # --- healing (S-HEAL, S-PHEAL, S-MHEAL, S-CLAR) ----------------------------------
    magic_several_hours: int = Field(ge=0)
    cumulative_threshold_one_roll_per_day: bool
    festering_alt_fail_hp_loss: int = Field(ge=0)
    retry_after_failed_treatment: Literal["next_day", "immediately"]
    limb_heal_skill_level: int = Field(ge=1)
    combat_heal_skill_cooldown_hours: int = Field(ge=0)
    construct_untreatable_threshold: Threshold
    construct_untreatable_days: int = Field(ge=0)

    # --- magical mutations (S-MUT, S-MUTT; A-S-25) -----------------------------------
    mutation_window_hours: int = Field(gt=0)
    mutation_trigger_ratio: float = Field(gt=0)
    mutation_counts_potions: bool
    self_heal_mutation: Literal["always_roll", "always_resisted"]
    mutation_half_rounding: Literal["floor", "ceil"]
    mutation_die: str
    mutation_next_roll_penalty: int
    mutation_skin_festering_hours: int = Field(gt=0)
    mutation_misknit_fix_threshold: int
    tumour_removal_threshold: Threshold
    tumour_max_armor: Literal["light", "medium", "heavy"]

    # --- alchemical addiction (S-ADD; A-S-26) ----------------------------------------
    addiction_stage1_ratio: float = Field(gt=0)
    addiction_stage2_ratio: float = Field(gt=0)
    addiction_heavy_trigger: Literal["any_potion_in_stage2", "gm"]
    addiction_daily_potions: StageNumbers
    addiction_treatment_days: StageNumbers
    addiction_heavy_ban_days_after: int = Field(ge=0)
    withdrawal_step: int = Field(lt=0)
    withdrawal_check_at: int = Field(lt=0)
    withdrawal_will_threshold: Threshold
    grave_condition_threshold: Threshold
    grave_condition_check: Literal["daily_hard_END", "once_hard_END"]

    # --- HP regeneration (S-REGEN; A-S-27) -------------------------------------------
    regen_rest_hp_per_hour: int = Field(ge=0)
    regen_norest_hp_per_hour: int = Field(ge=0)
    regen_cap: Literal["max_hp"]
    training_fight_recovery: Literal["immediate", "rest_rates"]
    player_sight: PlayerSight

    @field_validator("stat_band_costs")
    @classmethod
    def _bands_cover_every_value(
        cls, bands: list[tuple[int, int | None, int]]
    ) -> list[tuple[int, int | None, int]]:
        """Bands must start at 0, follow each other without gaps and end open (S-STAT-03)."""
        expected = 0
        for i, (low, high, cost) in enumerate(bands):
            if low != expected or cost < 1:
                raise ValueError(f"band {i} must start at {expected} and cost at least 1")
            if high is None:
                if i != len(bands) - 1:
                    raise ValueError("only the last band may be open-ended")
                return bands
            if high < low:
                raise ValueError(f"band {i} ends before it starts")
            expected = high + 1
        raise ValueError("the last band must be open-ended (null upper bound)")

    @model_validator(mode="after")
    def _sane(self) -> FantasyParams:
        if self.artifact_stat_bonus_max_crit < self.artifact_stat_bonus_max:
            raise ValueError("artifact_stat_bonus_max_crit must be >= artifact_stat_bonus_max")
        return self

    def threshold(self, value: Threshold) -> int:
        """The number of a threshold: named ones come from the parameters (A-S-02)."""
        if isinstance(value, int):
            return value
        return {
            "medium": self.threshold_medium,
            "hard": self.threshold_hard,
            "heavy": self.threshold_heavy,
        }[value]

    def threshold_label(self, value: Threshold) -> str:
        """``"medium (18)"`` for a named threshold, ``"26"`` for a number."""
        return str(value) if isinstance(value, int) else f"{value} ({self.threshold(value)})"
