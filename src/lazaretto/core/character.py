"""Characters and their conditions.

A character has ruleset-defined stats, hits, body zones and conditions. A condition
(состояние) has a start, an optional deadline, a source and a visibility: who may see
it (DESIGN.md, principle 6).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field


class Visibility(StrEnum):
    """Who may see a piece of information."""

    ALL = "all"  # everyone
    OWNER = "owner"  # the character's player and masters
    HEALERS = "healers"  # healers who know it, and masters
    MASTERS = "masters"  # masters only


class Condition(BaseModel):
    """A state a character is in, e.g. a light wound (лёгкое ранение)."""

    kind: str
    started: datetime
    deadline: datetime | None = None
    source: str = ""
    visibility: Visibility = Visibility.ALL
    data: dict[str, Any] = Field(default_factory=dict)


class Character(BaseModel):
    """A player or non-player character.

    ``id`` is the short handle used everywhere (e.g. a passport number).
    """

    id: str
    name: str
    race: str = ""
    age: int | None = None
    player: str | None = None
    skills: list[str] = Field(default_factory=list)
    stats: dict[str, int] = Field(default_factory=dict)
    hits_max: int = 0
    hits: int = 0
    zones: dict[str, str] = Field(default_factory=dict)
    conditions: list[Condition] = Field(default_factory=list)
    alive: bool = True
    data: dict[str, Any] = Field(default_factory=dict)

    def has_skill(self, skill: str) -> bool:
        """Whether the character has ``skill`` (case-insensitive)."""
        return skill.casefold() in {s.casefold() for s in self.skills}

    def condition(self, kind: str) -> Condition | None:
        """The first condition of ``kind``, if any."""
        return next((c for c in self.conditions if c.kind == kind), None)

    def has(self, kind: str) -> bool:
        """Whether the character has a condition of ``kind``."""
        return self.condition(kind) is not None

    def drop(self, *kinds: str) -> None:
        """Remove every condition of the given kinds."""
        self.conditions = [c for c in self.conditions if c.kind not in kinds]

    def put(self, condition: Condition) -> None:
        """Set a condition, replacing any of the same kind."""
        self.drop(condition.kind)
        self.conditions.append(condition)
