"""The fantasy-server campaign state: items and their wear, combat encounters, trauma
treatments, raids, crime scenes, doors, torture sessions, and the per-character
bookkeeping of magical healing and alchemical addiction.

Character facts (checklist-002 A-S-29):

* ``Character.stats`` — ``STR END REF PER INT WIL DET MAG``, the base values without
  artifacts (A-S-04);
* ``Character.hits`` / ``hits_max`` — current and maximum HP (здоровье);
* ``Character.skills`` — crafts and abilities (``Smith``, ``Enchanter``, ``Trace finding``…);
* ``Character.data`` — ``reduced_magic`` (заниженная магия), ``is_construct`` (конструкт),
  ``healing_skill_level``, ``perks``;
* ``Character.conditions`` — traumas (``trauma``, one per trauma with ``data.id``) and
  states such as ``caught_red_handed``, ``fallen_down``, ``hidden``, ``ambush_ready``,
  ``artifact_lockout``, ``torture_lockout``, ``no_heavy_work``, ``next_roll_penalty``,
  ``rudimentary_limb``, ``grave_condition``, ``disease``, ``neurosis``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.state import CampaignState

ItemKind = Literal["weapon", "shield", "armor", "clothing", "accessory", "tool", "other"]
SlotSet = Literal["combat", "rp"]


class Property(BaseModel):
    """A special property of an artifact, by origin (S-ART-01, S-ART-06)."""

    origin: Literal["magical", "technological", "material", "critical"]
    text: str


class Resource(BaseModel):
    """A crafting resource of an item (S-REP-02..04)."""

    name: str
    amount: int = Field(ge=0)
    unique: bool = False
    material: str | None = None  # S-REP-04: what a skill-made special ingot is made from


class Item(BaseModel):
    """An equipment item (предмет экипировки), possibly an artifact, with its wear."""

    id: str
    name: str
    kind: ItemKind
    owner: str | None = None
    properties: list[Property] = Field(default_factory=list)
    stat_bonus: dict[str, int] = Field(default_factory=dict)
    param_bonus: dict[str, int] = Field(default_factory=dict)
    activation: Literal["passive", "active"] = "passive"
    mechanic: str = ""
    slot_size: int = 1
    slot_roles: Literal["combat", "rp", "both"] = "combat"
    armor_weight: Literal["light", "medium", "heavy"] | None = None
    silent: bool = False
    one_handed: bool = True
    defense_bonus: int = 0
    armor_value: int = 0
    resources: list[Resource] = Field(default_factory=list)
    repair_skill: str | None = None
    event_item: bool = False
    crafted_by: str | None = None
    crit_created: bool = False
    perfect: bool = False
    approval: Literal["not_needed", "pending", "approved", "rejected"] = "not_needed"
    curator: str | None = None
    status: Literal["intact", "partially_broken", "broken", "destroyed"] = "intact"
    crits: int = 0
    crit_encounter: str | None = None
    penalty: int = 0
    properties_lost: bool = False
    equipped: list[SlotSet] = Field(default_factory=list)

    @property
    def is_artifact(self) -> bool:
        """An item with any special property, bonus or active mechanic (артефакт)."""
        return bool(
            self.properties
            or self.stat_bonus
            or self.param_bonus
            or self.perfect
            or self.activation == "active"
        )

    @property
    def nature(self) -> str:
        """``mundane``, ``technological``, ``magical`` or ``techno_magical`` (S-ART-01/03)."""
        origins = {p.origin for p in self.properties}
        tech, magic = "technological" in origins, "magical" in origins
        if tech and magic:
            return "techno_magical"
        return "technological" if tech else "magical" if magic else "mundane"

    @property
    def works(self) -> bool:
        """Whether its artifact properties act: approved, not broken or destroyed."""
        return (
            self.approval in ("not_needed", "approved")
            and not self.properties_lost
            and self.status != "destroyed"
        )


class Encounter(BaseModel):
    """A combat encounter (боевое столкновение)."""

    id: str
    participants: list[str]
    started: datetime
    active: bool = True


class TraumaTreatment(BaseModel):
    """A trauma treatment in progress (S-PHEAL, S-MHEAL; A-S-21..A-S-23)."""

    id: str
    trauma: str  # the trauma condition's id
    key: str  # catalogue key
    patient: str
    healer: str
    method: Literal["physical", "physical_alt", "magical"]
    rule: str
    started: datetime
    roll_due: datetime
    successes: int = 0
    total: int = 0
    last_roll: datetime | None = None
    done: bool = False


class Raid(BaseModel):
    """A robbery or raid agreed with a GM (S-CRIME-07..14)."""

    id: str
    target: str
    owner: str | None = None
    curator: str
    status: Literal["approved", "committed", "closed"] = "approved"
    outcome: str = ""


class Trace(BaseModel):
    """A trace (след) at a scene (S-CRIME-16..24)."""

    id: str
    visibility: Literal["visible", "invisible"]
    threshold: int
    description: str = ""
    info_on_discovery: str = ""
    info_after_study: str = ""
    needs_lab: bool = False
    found_by: list[str] = Field(default_factory=list)
    locked_out: list[str] = Field(default_factory=list)
    collected_by: str | None = None
    studied: bool = False


class Scene(BaseModel):
    """A place where evidence may be searched."""

    id: str
    traces: dict[str, Trace] = Field(default_factory=dict)


class Door(BaseModel):
    """A door or lock (S-CRIME-25..30); thresholds ``None`` use the parameters."""

    id: str
    reinforced: bool = False
    lockpicks: int | None = None
    str_unarmed: int | None = None
    str_tool: int | None = None
    open: bool = False


class TortureSession(BaseModel):
    """A torture of one victim (S-TORT)."""

    victim: str
    torturer: str
    rounds: int = 0
    started: datetime


class HealRecord(BaseModel):
    """Magical healing received, for the mutation window (S-MUT-01, A-S-25)."""

    at: datetime
    amount: int


class Addiction(BaseModel):
    """Alchemical addiction bookkeeping of one character (S-ADD, A-S-26)."""

    stage: Literal["none", "stage1", "stage2", "heavy"] = "none"
    potion_hp: int = 0  # HP restored by potions since the character was last addiction-free
    stage1_hp: int = 0  # HP restored by potions during stage 1
    potions_by_day: dict[str, int] = Field(default_factory=dict)
    withdrawal: int = 0  # the penalty on all rolls (<= 0)
    withdrawal_state: Literal["none", "growing", "check_due", "improving", "grave"] = "none"
    course_until: datetime | None = None
    spiritual_sessions: int = 0  # spiritual healing recorded during the course
    ban_until: datetime | None = None
    last_grave_check: str | None = None


class FantasyState(CampaignState):
    """fantasy-server state."""

    items: dict[str, Item] = Field(default_factory=dict)
    encounters: dict[str, Encounter] = Field(default_factory=dict)
    treatments: dict[str, TraumaTreatment] = Field(default_factory=dict)
    raids: dict[str, Raid] = Field(default_factory=dict)
    scenes: dict[str, Scene] = Field(default_factory=dict)
    doors: dict[str, Door] = Field(default_factory=dict)
    tortures: dict[str, TortureSession] = Field(default_factory=dict)
    last_checks: dict[str, str] = Field(default_factory=dict)  # "char:purpose" -> crit or ""
    magic_heals: dict[str, list[HealRecord]] = Field(default_factory=dict)
    addictions: dict[str, Addiction] = Field(default_factory=dict)

    def combat_of(self, char_id: str) -> Encounter | None:
        """The active encounter ``char_id`` takes part in, if any."""
        return next(
            (e for e in self.encounters.values() if e.active and char_id in e.participants), None
        )

    def addiction(self, char_id: str) -> Addiction:
        """The addiction record of ``char_id`` (a fresh one if none)."""
        return self.addictions.get(char_id) or Addiction()
