"""API request and response models (families: ...Create, ...Public)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class LoginRequest(BaseModel):
    username: str = Field(min_length=1, max_length=80)
    password: str = Field(min_length=1, max_length=200)


class UserCreate(LoginRequest):
    invite: str | None = Field(None, max_length=40, description="an invite code to join with")


class SessionPublic(BaseModel):
    username: str
    token: str = Field(description="use as `Authorization: Bearer <token>` from scripts")
    csrf: str = Field(description="send as X-CSRF-Token with cookie-authenticated changes")


class JoinRequest(BaseModel):
    code: str = Field(min_length=1, max_length=40)


class MembershipPublic(BaseModel):
    campaign: str
    role: str
    characters: list[str]


class CampaignPublic(BaseModel):
    id: str
    ruleset: str
    clock: str
    paused: bool
    now: str
    role: str
    damaged: str | None = Field(
        None, description="set when the stored state cannot be read: how to repair it"
    )


class CampaignCreate(BaseModel):
    name: str = Field(min_length=1, max_length=80)
    ruleset: str = "warhammer-larp"
    clock: str = Field("realtime", pattern="^(manual|realtime)$")
    start: str | None = Field(None, max_length=40, description="ISO date-time")
    seed: int | None = None
    params: dict[str, Any] = Field(default_factory=dict)


class CharacterCreate(BaseModel):
    id: str = Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.-]+$")
    name: str = Field(min_length=1, max_length=100)
    hits: int = Field(3, ge=0, le=1000)
    race: str = Field("", max_length=60)
    age: int | None = Field(None, ge=0, le=100000)
    skills: list[str] = Field(default_factory=list, max_length=20)


class InviteCreate(BaseModel):
    role: str = Field(pattern="^(master|healer|player)$")
    character: str | None = Field(None, max_length=40)


class InvitePublic(BaseModel):
    code: str
    role: str
    character: str | None


class ClockChange(BaseModel):
    to: str | None = Field(None, max_length=40, description="HH:MM[:SS] or ISO (set)")
    by: str | None = Field(None, max_length=20, description="e.g. 30m (advance)")


class EventPublic(BaseModel):
    seq: int
    kind: str
    at: str
    actor: str
    action: str
    payload: dict[str, Any]
    dice: list[dict[str, Any]]
    rule_ids: list[str]


class ActionResult(BaseModel):
    action: str
    record: int | None = Field(
        default=None, description="the record of this change: undo it with POST …/records/N/void"
    )
    events: list[EventPublic]
    now: str


class VoidRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: str = Field(default="", max_length=500, description="why it is taken back")


class VoidResult(BaseModel):
    record: int | None = Field(description="the undo's own record")
    voids: int
    events: list[EventPublic]


class TimerPublic(BaseModel):
    id: str
    kind: str
    what: str
    subject: str
    name: str
    deadline: str
    remaining_seconds: int


class TimersPublic(BaseModel):
    now: str
    timers: list[TimerPublic]


class ActionInfo(BaseModel):
    name: str
    summary: str
    roles: list[str]
    rule_ids: list[str]
    input_schema: dict[str, Any]


class ErrorPublic(BaseModel):
    error: str
    message: str
    rule_ids: list[str]
