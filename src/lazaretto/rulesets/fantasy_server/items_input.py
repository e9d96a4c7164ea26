"""Input models shared by the item actions: an item's description as a GM or a crafter
types it (CLI options, API body, web form)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, field_validator

from lazaretto.rulesets.fantasy_server.common import parse_pairs
from lazaretto.rulesets.fantasy_server.state import ItemKind, Property, Resource


class ResourceIn(BaseModel):
    """A crafting resource: ``name=ingot,amount=4[,unique=true][,material=ore]``."""

    name: str = Field(min_length=1, max_length=80)
    amount: int = Field(ge=0, le=10_000)
    unique: bool = Field(False, description="hard or impossible to obtain (S-REP-02)")
    material: str | None = Field(
        None, max_length=80, description="a skill-made ingot's raw material (S-REP-04)"
    )


class ItemSpec(BaseModel):
    """What an item is: kind, bonuses, properties, slots, resources."""

    item: str = Field(min_length=1, max_length=40, description="item id")
    name: str = Field(min_length=1, max_length=120, description="item name")
    kind: ItemKind = Field(description="weapon, shield, armor, clothing, accessory, tool, other")
    stat_bonus: list[str] = Field(
        default_factory=list, description="passive stat bonus, e.g. STR=2 (S-STAT-01/02)"
    )
    param_bonus: list[str] = Field(
        default_factory=list, description="other passive bonus, e.g. melee_accuracy=1 (S-ART-20)"
    )
    magical: list[str] = Field(default_factory=list, description="magical properties (S-ART-06a)")
    technological: list[str] = Field(
        default_factory=list, description="technological properties (S-ART-06b)"
    )
    material: list[str] = Field(
        default_factory=list, description="properties from rare materials (S-ART-06c)"
    )
    critical: list[str] = Field(
        default_factory=list, description="properties from a critical success (S-ART-06d)"
    )
    activation: Literal["passive", "active"] = Field(
        "passive", description="passive acts by itself; active is used (S-ART-15/16)"
    )
    mechanic: str = Field("", max_length=500, description="how an active artifact works")
    slot_size: int = Field(1, ge=1, le=5, description="slots taken; bulky: 2+ (S-ART-11)")
    slot_roles: Literal["combat", "rp", "both"] | None = Field(
        None, description="combat, rp or both slots (S-ART-18/19); default: rp for tools"
    )
    armor_weight: Literal["light", "medium", "heavy"] | None = Field(
        None, description="armour weight (S-STEALTH-09, S-MUTT-06)"
    )
    silent: bool = Field(False, description="light, silent armour such as leather (S-STEALTH-09)")
    one_handed: bool = Field(True, description="a one-handed weapon (S-STEALTH-11)")
    defense_bonus: int = Field(0, ge=0, le=100, description="a shield's parry/block bonus")
    armor_value: int = Field(0, ge=0, le=100, description="armour value")
    resources: list[ResourceIn] = Field(
        default_factory=list, description="crafting resources (S-REP)"
    )
    repair_skill: str | None = Field(None, max_length=60, description="the craft that repairs it")
    event_item: bool = Field(False, description="an event item never breaks (S-BRK-11)")

    @field_validator("stat_bonus")
    @classmethod
    def _stats(cls, v: list[str]) -> list[str]:
        parse_pairs(v, stats_only=True, field="stat_bonus")
        return v

    @field_validator("param_bonus")
    @classmethod
    def _params(cls, v: list[str]) -> list[str]:
        parse_pairs(v, stats_only=False, field="param_bonus")
        return v

    def stats(self) -> dict[str, int]:
        """The stat bonus as a dict."""
        return parse_pairs(self.stat_bonus, stats_only=True, field="stat_bonus")

    def params(self) -> dict[str, int]:
        """The other bonuses as a dict."""
        return parse_pairs(self.param_bonus, stats_only=False, field="param_bonus")

    def properties(self) -> list[Property]:
        """Every declared property with its origin."""
        out: list[Property] = []
        for origin in ("magical", "technological", "material", "critical"):
            out += [Property(origin=origin, text=t) for t in getattr(self, origin)]
        return out

    def resource_list(self) -> list[Resource]:
        """The resources as state records."""
        return [Resource(**r.model_dump()) for r in self.resources]
