"""Parameters of the dnd5e-injuries ruleset (data file ``params.yaml``).

Every number of checklist-003 §4 and every ambiguity default (A-D-01..19) is a field;
the alternative readings are the other allowed values of its ``Literal``.
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from lazaretto.core.dice import parse
from lazaretto.core.errors import DiceError
from lazaretto.core.visibility import PlayerSight
from lazaretto.rulesets.dnd5e_injuries.tables import LOCATIONS, TABLES, Location

DamageType = Literal[
    "acid",
    "bludgeoning",
    "cold",
    "fire",
    "force",
    "lightning",
    "necrotic",
    "piercing",
    "poison",
    "psychic",
    "radiant",
    "slashing",
    "thunder",
]
"""The thirteen damage types of D&D 5e."""


class DndParams(BaseModel):
    """Every number and ambiguity default of checklist-003 (see params.yaml)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # D-ROLL-01, A-D-01: the die and what its faces mean
    location_die: str = Field(min_length=1)
    location_map: dict[int, Location]
    # D-SEV-01, A-D-02: combat caution
    caution_con_mode: Literal["score", "modifier"]
    caution_level_divisor: int = Field(ge=1)
    caution_level_rounding: Literal["floor", "exact", "ceil"]
    caution_level_source_for_monsters: Literal["cr_floor", "hit_dice"]
    # D-SEV-03, D-SEV-04: thresholds as multiples of combat caution
    severity_medium_min_cc: float = Field(gt=0)
    severity_heavy_min_cc: float = Field(gt=0)
    # D-COND-01..04, A-D-03, A-D-04: triggers and which damage sets the severity
    critical_damage_trigger: Literal["critical_hit_received"]
    injury_hp_trigger_self: int
    death_save_injury_natural: int = Field(ge=1, le=20)
    severity_damage_source: Literal["last_damage_taken", "gm"]
    severity_when_no_damage: Literal["gm", "light"]
    # A-D-05: which 5e damage types each sub-table covers, per location
    damage_type_map: dict[Location, dict[str, list[DamageType]]]
    unmapped_damage_policy: Literal["gm", "no_injury"]
    # D-INF-01..03, A-D-06, A-D-07, A-D-08: injuring an enemy, aimed attacks
    enemy_injury_hp_fraction: float = Field(gt=0, le=1)
    enemy_injury_trigger: Literal["any_hit_at_or_below", "crossing_only"]
    enemy_injury_requires_aim: bool
    aimed_roll_adds_damage: bool
    aimed_fail_target: Literal["location_die", "gm"]
    # D-AIM-05, D-AIM-06, A-D-09: equipment instead of an injury
    knock_shield_effect: Literal["unequip"]
    armor_damage_ac_penalty: int = Field(ge=0)
    # D-DEF-01, A-D-10: Dodge
    dodge_cost: Literal["reaction", "none"]
    dodge_requires_roll: bool
    dodge_applies_to: Literal["attacks_only", "any"]
    # D-DEF-02..04, A-D-11: Equal Exchange
    equal_exchange_choices: list[Location] = Field(min_length=1)
    equal_exchange_severity_effect: Literal["downgrade_heavy_to_medium", "none", "gm"]
    # A-D-12: treatment
    medicine_successes_per_day: int = Field(ge=1)
    # A-D-13, A-D-18, A-D-19: effects
    bleed_period: Literal["turn"]
    stun_unit: Literal["turn", "minute"]
    half_damage_rounding: Literal["floor", "ceil"]
    roll_durations_on_apply: bool
    # A-D-15: sides and repeated injuries
    track_limb_side: bool
    duplicate_injury_policy: Literal["stack", "replace"]
    player_sight: PlayerSight

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        try:
            die = parse(self.location_die)
        except DiceError as exc:
            raise ValueError(f"location_die: {exc.message}") from exc
        faces = set(range(die.min(), die.max() + 1))
        if set(self.location_map) != faces:
            raise ValueError(
                f"location_map must map every face {min(faces)}..{max(faces)} of "
                f"{self.location_die} to a location"
            )
        for loc, subs in self.damage_type_map.items():
            known = set(TABLES.sub_tables[loc])
            unknown = sorted(set(subs) - known)
            if unknown:
                raise ValueError(f"damage_type_map.{loc}: no sub-table {unknown[0]!r}")
            types = [t for ts in subs.values() for t in ts]
            if len(types) != len(set(types)):
                raise ValueError(f"damage_type_map.{loc}: a damage type is mapped twice")
        if set(self.damage_type_map) != set(LOCATIONS):
            raise ValueError("damage_type_map must name every location")
        if self.severity_heavy_min_cc <= self.severity_medium_min_cc:
            raise ValueError("severity_heavy_min_cc must exceed severity_medium_min_cc")
        return self

    def sub_table(self, location: str, damage_type: str) -> str | None:
        """The sub-table of ``location`` covering ``damage_type``; None if unmapped (A-D-05)."""
        subs: dict[str, list[str]] = dict(self.damage_type_map.get(location, {}))  # type: ignore[call-overload]
        return next((sub for sub, types in subs.items() if damage_type in types), None)
