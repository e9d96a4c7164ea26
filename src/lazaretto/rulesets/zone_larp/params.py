"""Parameters of the zone-larp ruleset (data file ``params.yaml``).

Every number of checklist-001 and every ambiguity default (A-Z-..) is a field here; the
alternative readings of the text are the other allowed values of a ``Literal``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from lazaretto.core.visibility import PlayerSight

Zone = Literal["head", "torso", "right_arm", "left_arm", "right_leg", "left_leg"]
ZONES: tuple[Zone, ...] = ("head", "torso", "right_arm", "left_arm", "right_leg", "left_leg")
"""The six body zones of the character sheet, in the order of L77 (Z-ZONE-01)."""

ZoneState = Literal["intact", "damaged", "infected"]
Activity = Literal[
    "run",
    "walk",
    "crawl",
    "stand_up",
    "melee",
    "shoot",
    "radio",
    "first_aid_kit",
    "other_items",
    "speak",
    "drop_items",
    "treat_others",
    "suicide",
    "comment_ooc",
]
WoundModel = Literal["unified", "hits_only", "light_heavy_only"]
RehabMode = Literal["sum_nonintact", "all_zones_L60", "additive_L77"]
WaitMode = Literal["stay_then_go", "until_combat_end", "leave_within", "until_help"]
StopsOn = Literal["hospital_arrival", "operation_start"]
PaymentMethod = Literal["insurance", "money", "work"]
StaffRole = Literal["administrator", "chief_doctor", "medic"]
RoleName = Literal["master", "healer", "player"]


class Frozen(BaseModel):
    """A strict, immutable part of the data file."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class RehabTable(Frozen):
    """Minutes one body zone adds to a stay in each state, and the shortest stay (A-Z-11)."""

    intact: int = Field(ge=0)
    damaged: int = Field(ge=0)
    infected: int = Field(ge=0)
    min_minutes: int = Field(ge=0)

    def minutes(self, state: ZoneState) -> int:
        """The minutes of a zone in ``state``."""
        return int(getattr(self, state))


class ImplantSpec(Frozen):
    """What an implant does to a stay in the Hospital (A-Z-28, Z-IMPL-01..03).

    ``containment`` (купирование) makes its zone count one state milder; every implant
    then takes ``minutes`` off its zone after multiplying it by ``factor``; a zone never
    goes below 0.
    """

    zone: Zone | Literal["all"]
    mechanism: Literal["containment", "regeneration"]
    minutes: int = Field(0, ge=0, le=600)
    factor: float = Field(1.0, ge=0, le=1)


class Allowed(Frozen):
    """What a character may do in each state (A-Z-04, A-Z-05, A-Z-23; Z-LW, Z-HW)."""

    healthy: list[Activity]
    wounded: list[Activity]
    light: list[Activity]
    light_kit: list[Activity]
    heavy_waiting: list[Activity]
    heavy_en_route: list[Activity]
    dying: list[Activity]
    in_treatment: list[Activity]
    on_table: list[Activity]
    in_hospital: list[Activity]
    clinical_death: list[Activity]
    excluded: list[Activity]
    unconscious: list[Activity]
    knockdown_forbids: list[Activity]


class Label(Frozen):
    """A state's name in English and Russian (A-Z-02)."""

    en: str = Field(min_length=1)
    ru: str = Field(min_length=1)


class ChecklistItem(Frozen):
    """A props requirement the software can only show (a [props] rule)."""

    rule: str
    en: str
    ru: str


class ZoneParams(Frozen):
    """Every number and ambiguity default of checklist-001 (see params.yaml)."""

    wound_model: WoundModel
    base_hits: int = Field(ge=1, le=100)
    hit_loss_normal: int = Field(ge=1)
    hit_loss_red_ribbon: int = Field(ge=1)
    pyro_causes_heavy: bool
    trauma_strike_removes_hits: bool
    hittable_zones: list[str] = Field(min_length=1)
    forbidden_zones: list[str]
    unconscious_seconds: int = Field(gt=0)
    knockdown_seconds: int = Field(gt=0)
    light_kit_window_minutes: int = Field(gt=0)
    timer_boundary_inclusive: bool
    light_after_kit_can_run: bool
    healer_skill: str | None
    heal_rest_minutes: int = Field(gt=0)
    heal_step2_required: bool
    post_operation_rest_minutes: int = Field(gt=0)
    ordinary_operation_death_chance: int = Field(ge=0, le=100)
    operation_location: Literal["any", "hospital"]
    heavy_wait_mode: WaitMode
    heavy_wait_minutes: int = Field(gt=0)
    dying_death_minutes: int = Field(gt=0)
    dying_timer_stops_on: list[StopsOn]
    armband_at: Literal["end_of_wait", "immediately"]
    heavy_can_speak: bool
    heavy_may_crawl_during_wait: bool
    heavy_items_locked: bool
    amnesia_window_minutes: int = Field(ge=0)
    amnesia_applies_to: list[Literal["heavy_wound", "clinical_death"]]
    max_traumas: int = Field(ge=1)
    trauma_over_cap: Literal["master_decides", "clinical_death"]
    hospital_staff_roles: list[StaffRole] = Field(min_length=1)
    patients_may_chat_ooc: bool
    rehab_clock_start: Literal["arrival", "examination"]
    rehab_mode: RehabMode
    rehab_modes: dict[RehabMode, RehabTable]
    infection_rule: Literal["multiply", "zone_20"]
    infection_multiplier: int = Field(ge=1)
    infection_requires_identification: bool
    infection_resource_cost: int = Field(ge=0)
    discharge_heals_zones: bool
    rehab_payment_methods: list[PaymentMethod] = Field(min_length=1)
    rehab_price: int | None = Field(ge=0)
    clinical_death_replaces_character: bool
    zone_die: str = Field(min_length=2)
    zone_die_map: dict[int, Zone]
    zone_rolls: int = Field(ge=0, le=6)
    implant_effects: dict[str, ImplantSpec]
    exclusion_roles: list[RoleName] = Field(min_length=1)
    state_labels: dict[str, Label]
    allowed: Allowed
    state_props: dict[str, list[ChecklistItem]]
    props_checklists: dict[str, list[ChecklistItem]]
    player_sight: PlayerSight

    @model_validator(mode="after")
    def _complete(self) -> ZoneParams:
        modes = ("sum_nonintact", "all_zones_L60", "additive_L77")
        missing = [m for m in modes if m not in self.rehab_modes]
        if missing:
            raise ValueError(f"rehab_modes has no table for {', '.join(missing)}")
        if self.rehab_mode not in self.rehab_modes:
            raise ValueError(f"rehab_mode {self.rehab_mode!r} has no table in rehab_modes")
        return self

    @property
    def rehab_table(self) -> RehabTable:
        """The minutes table of the chosen ``rehab_mode``."""
        return self.rehab_modes[self.rehab_mode]
