"""The part-2 objects of the warhammer-larp state: stickers, labs, epidemics, locations.

Every disease sticker (наклейка болезни) is tracked from where it was made to where it
ended, with its history; labs (ЛСБ) keep their productivity points and quests; an
epidemic keeps its waves; a location keeps its hidden wealth and its looting.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

StickerStatus = Literal[
    "stock",  # made, in a lab's or the masters' stock
    "held",  # in a character's hand, to infect others
    "certificate",  # attached to an outbreak or epidemic certificate
    "epidemic",  # with the regional master, for the waves
    "stuck",  # in a passport: the character is ill
    "cured",  # the cure is written on it
    "vanished",  # a held sticker of a cured disease (W-CARR-06)
    "discarded",  # unused, thrown away (A-W-21 alternative)
]


class StickerStep(BaseModel):
    """One line of a sticker's history."""

    at: datetime
    what: str
    by: str = ""
    to: str = ""
    note: str = ""
    rule_ids: list[str] = Field(default_factory=list)


class Sticker(BaseModel):
    """A disease sticker with its unique printed code (W-DIS-01)."""

    code: str
    disease: str
    lab: str | None = None
    batch: str | None = None
    status: StickerStatus = "stock"
    holder: str = ""
    infected: str | None = None
    affected: bool = True
    cure: dict[str, str] | None = None
    history: list[StickerStep] = Field(default_factory=list)


class LabQuestState(BaseModel):
    """A quest handed to a lab (W-LAB-06)."""

    no: int
    title: str
    reward: int
    done: bool = False


class Lab(BaseModel):
    """A disease-creation laboratory (ЛСБ) and its productivity points (W-LAB-03)."""

    id: str
    name: str
    owner: str | None = None
    capacity: int
    points: int
    day: str
    quests: list[LabQuestState] = Field(default_factory=list)
    quest_rounds: int = 0
    batches: int = 0
    known_recipes: dict[str, list[str]] = Field(default_factory=dict)
    experiments: dict[str, dict[str, Any]] = Field(default_factory=dict)


class Wave(BaseModel):
    """One wave of an epidemic (W-EPI-02..05)."""

    no: int
    started: datetime
    ends: datetime
    infected: list[str] = Field(default_factory=list)
    handed: list[str] = Field(default_factory=list)
    closed: bool = False


class Epidemic(BaseModel):
    """An epidemic in one location (W-EPI-01)."""

    id: str
    certificate: str
    disease: str
    location: str
    regional_master: str
    carrier: str
    started: datetime
    interval_minutes: int
    wave_stickers: int
    stickers: list[str] = Field(default_factory=list)
    waves: list[Wave] = Field(default_factory=list)
    infected: list[str] = Field(default_factory=list)
    next_wave_at: datetime
    status: Literal["active", "ended"] = "active"
    ended_at: datetime | None = None
    end_reason: str | None = None
    end_rule_ids: list[str] = Field(default_factory=list)


class Looting(BaseModel):
    """The looting of a stormed location (Looting §5)."""

    army: str
    started: datetime
    search_until: datetime
    supplies: int
    units: list[str] = Field(default_factory=list)
    residents: dict[str, str] = Field(default_factory=dict)
    declared_at: datetime | None = None
    search_ended_at: datetime | None = None
    army_left_at: datetime | None = None


class Location(BaseModel):
    """A game location with its hidden wealth (W-LOOT-04/05)."""

    id: str
    name: str
    wealth: int = 0
    wealth_cycle: int | None = None
    regional_master: str = ""
    residents: list[str] = Field(default_factory=list)
    assault: dict[str, Any] | None = None
    looting: Looting | None = None
    protected_until: datetime | None = None


def slug(code: str) -> str:
    """A disease code made safe for a printed sticker code and a URL."""
    return re.sub(r"[^A-Za-z0-9]+", "", code).upper()[:12] or "D"


def game_day(now: datetime, reset: str) -> str:
    """The game day (ISO date) ``now`` falls in, days starting at ``reset`` (HH:MM)."""
    hh, mm = (int(x) for x in reset.split(":"))
    shifted = now - timedelta(hours=hh, minutes=mm)
    return shifted.date().isoformat()


def day_start(day: str, reset: str) -> datetime:
    """When game day ``day`` starts."""
    hh, mm = (int(x) for x in reset.split(":"))
    return datetime.combine(date.fromisoformat(day), time(hh, mm))
