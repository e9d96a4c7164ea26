"""The world the security tests run in: the demo LARP campaign plus one campaign of every
other ruleset, users in every role, and an outsider who is master of a campaign of
their own.

=========  ===========================================================================
user       what they are
=========  ===========================================================================
master     master of every campaign below except ``elsewhere``
healer     healer playing 1004 and 1005 (demo) or ``doc`` (the other rulesets)
healer2    healer playing 1007 (demo) or ``doc2``
player     player of 1002 (demo) or ``pc``
player2    player of 1001 (demo) or ``pc2``
outsider   master of ``elsewhere`` only: a stranger to all the others
=========  ===========================================================================
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from lazaretto.api.app import create_app
from lazaretto.core.character import Character
from lazaretto.core.clock import ClockMode
from lazaretto.core.registry import rulesets
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService, LoginSession, User
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN, seed
from lazaretto.store.db import Database

ELSEWHERE = "elsewhere"
"""The outsider's own campaign."""
LOBBY = "lobby"
"""A campaign whose invite codes the join endpoints use (joining changes no real role)."""
START = datetime(2026, 6, 13, 9, 0)
USERS = ("master", "healer", "healer2", "player", "player2", "outsider")


def password(user: str) -> str:
    """Every test user's password (the demo's convention)."""
    return f"{user}-demo"


@dataclass(frozen=True)
class Cast:
    """The characters of one campaign, by who plays them."""

    campaign: str
    ruleset: str
    pc_own: str  # the player's
    pc_other: str  # player2's
    doc_own: str  # the healer's
    doc_other: str  # healer2's


@dataclass
class World:
    """Everything a security test needs, over one database."""

    db: Database
    app: FastAPI
    client: TestClient
    accounts: AccountService
    campaigns: CampaignService
    sessions: dict[str, LoginSession]
    casts: dict[str, Cast]
    users: dict[str, User]
    _serial: itertools.count[int] = field(default_factory=itertools.count)

    @property
    def demo(self) -> Cast:
        """The demo LARP campaign (warhammer-larp), where the pages have most to show."""
        return self.casts["warhammer-larp"]

    def bearer(self, user: str) -> dict[str, str]:
        """The Authorization header of ``user``'s standing session."""
        return {"Authorization": f"Bearer {self.sessions[user].token}"}

    def fresh_session(self, user: str) -> LoginSession:
        """A new session of ``user`` (for requests that end their session)."""
        return self.accounts.login(user, password(user))

    def unique(self, prefix: str) -> str:
        """A name no earlier call returned."""
        return f"{prefix}{next(self._serial)}"

    def invite_code(self, role: Role = Role.PLAYER) -> str:
        """A one-use invite code to the lobby campaign."""
        return self.accounts.invite(LOBBY, role)


def _cast_campaign(
    campaigns: CampaignService, accounts: AccountService, users: dict[str, User], rs: str
) -> Cast:
    name = f"authz-{rs}"
    campaigns.create_campaign(name, rs, clock=ClockMode.MANUAL, start=START, seed=1)
    for cid, char_name, skills in (
        ("pc", "Pavel", []),
        ("pc2", "Petra", []),
        ("doc", "Darya", ["Healer"]),
        ("doc2", "Denis", ["Healer"]),
    ):
        campaigns.add_character(
            name,
            Character(id=cid, name=char_name, hits_max=3, hits=3, age=30, skills=skills),
        )
    members: dict[str, tuple[Role, tuple[str, ...]]] = {
        "master": (Role.MASTER, ()),
        "healer": (Role.HEALER, ("doc",)),
        "healer2": (Role.HEALER, ("doc2",)),
        "player": (Role.PLAYER, ("pc",)),
        "player2": (Role.PLAYER, ("pc2",)),
    }
    for user, (role, chars) in members.items():
        accounts.add_member(users[user], name, role, chars)
    return Cast(name, rs, "pc", "pc2", "doc", "doc2")


def build_world(url: str, *, other_rulesets: bool = True) -> World:
    """Seed the demo, add the users and campaigns of the table above, log everyone in."""
    db = Database(url)
    campaigns, accounts = CampaignService(db), AccountService(db)
    seed(campaigns, accounts)
    sessions: dict[str, LoginSession] = {}
    for user in USERS:
        if user not in ("master", "healer", "player"):
            accounts.create_user(user, password(user))
        sessions[user] = accounts.login(user, password(user))
    users = {user: s.user for user, s in sessions.items()}
    campaigns.add_character(
        CAMPAIGN, Character(id="1007", name="Greta", hits_max=3, hits=3, skills=["Healer"])
    )
    accounts.add_member(users["player2"], CAMPAIGN, Role.PLAYER, ("1001",))
    accounts.add_member(users["healer2"], CAMPAIGN, Role.HEALER, ("1007",))
    campaigns.create_campaign(ELSEWHERE, "warhammer-larp", clock=ClockMode.MANUAL, start=START)
    accounts.add_member(users["outsider"], ELSEWHERE, Role.MASTER)
    campaigns.create_campaign(LOBBY, "warhammer-larp", clock=ClockMode.MANUAL, start=START)
    casts = {"warhammer-larp": Cast(CAMPAIGN, "warhammer-larp", "1002", "1001", "1004", "1007")}
    if other_rulesets:
        for rs in rulesets():
            if rs not in casts:
                casts[rs] = _cast_campaign(campaigns, accounts, users, rs)
    app = create_app(db, ticker=False)
    return World(
        db=db,
        app=app,
        client=TestClient(app, raise_server_exceptions=False),
        accounts=accounts,
        campaigns=campaigns,
        sessions=sessions,
        casts=casts,
        users=users,
    )


def act(world: World, campaign: str, action: str, **body: Any) -> None:
    """Run an action as the master, straight through the service (setting the scene)."""
    world.campaigns.act(campaign, action, body)
