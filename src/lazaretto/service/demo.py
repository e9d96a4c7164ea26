"""Demo data for ``lazaretto serve --demo``: a running LARP campaign with a master, a
healer and a player, and characters in interesting states."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lazaretto.core.character import Character
from lazaretto.core.clock import ClockMode
from lazaretto.core.errors import Conflict
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService

CAMPAIGN = "demo-larp"


@dataclass(frozen=True)
class DemoLogin:
    """A demo account (shown when the server starts)."""

    username: str
    password: str
    role: str


LOGINS = (
    DemoLogin("master", "master-demo", "master"),
    DemoLogin("healer", "healer-demo", "healer"),
    DemoLogin("player", "player-demo", "player"),
)


def seed(campaigns: CampaignService, accounts: AccountService) -> list[DemoLogin]:
    """Create the demo campaign and accounts unless they exist; returns the logins."""
    try:
        campaigns.create_campaign(CAMPAIGN, "warhammer-larp", clock=ClockMode.REALTIME, seed=7)
    except Conflict:
        return list(LOGINS)
    people = [
        ("1001", "Rustam", 3, "human", 34, []),
        ("1002", "Boris", 3, "dwarf", 61, []),
        ("1003", "Dmitri", 3, "human", 27, []),
        ("1004", "Anna", 2, "human", 29, ["Healer"]),
        ("1005", "Sigrun", 3, "elf", 140, ["Healer"]),
        ("1006", "Karl", 3, "human", 40, ["Carrier"]),
    ]
    for cid, name, hits, race, age, skills in people:
        campaigns.add_character(
            CAMPAIGN,
            Character(
                id=cid, name=name, hits_max=hits, hits=hits, race=race, age=age, skills=skills
            ),
        )
    rs, _, _ = campaigns.load(CAMPAIGN)
    kit = list(rs.params.model_dump()["healer_kit"])

    def act(action: str, **kw: Any) -> None:
        campaigns.act(CAMPAIGN, action, kw)

    act(
        "register-hospital",
        id="h1",
        name="Shallya's House",
        number="7",
        tables=[{"id": "t1"}, {"id": "t2"}],
        beds=[
            {"id": "b1"},
            {"id": "b2"},
            {"id": "b3"},
            {"id": "g1", "on_ground": True, "height_cm": 0},
        ],
    )
    for healer in ("1004", "1005"):
        act("check-kit", healer=healer, items=kit)
    act("register-mat", id="mat-anna", healer="1004", length_cm=180, width_cm=60)
    act(
        "define-disease",
        code="GF-1",
        name="Grey fever",
        symptoms="cough, shiver",
        penalties="cannot run; -1 hit in combat",
        contagious=True,
    )
    act("lose-hits", character="1001", hits=2, location="left arm")  # countdown running
    act("lose-hits", character="1002", hits=1, location="right leg")
    act("apply-bandage", healer="1004", patient="1002", bandages=1, mat="mat-anna")
    act("infect", character="1002", disease="GF-1")
    act("lose-hits", character="1003", hits=3, location="chest")
    act("apply-bandage", healer="1004", patient="1003", bandages=3, mat="mat-anna")
    act("admit", hospital="h1", patient="1003", healer="1005")
    act("start-operation", healer="1005", patient="1003", hospital="h1", table="t1")
    act("finish-operation", patient="1003", bed="b1", stitches=[{"location": "chest"}] * 3)

    roles = {
        "master": (Role.MASTER, ()),
        "healer": (Role.HEALER, ("1004", "1005")),
        "player": (Role.PLAYER, ("1002",)),
    }
    for login in LOGINS:
        try:
            user = accounts.create_user(login.username, login.password)
        except Conflict:
            continue
        role, chars = roles[login.username]
        accounts.add_member(user, CAMPAIGN, role, chars)
    return list(LOGINS)
