"""A small campaign of each of the other rulesets, next to the demo LARP campaign
(:mod:`lazaretto.service.demo`), with characters in telling states: a wound on its
countdown, one in treatment, a trauma, an injury, a disease. For screenshots of every
card (``scripts/screens.py``) and for tests that crawl every page of every ruleset.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from lazaretto.core.character import Character
from lazaretto.core.clock import ClockMode
from lazaretto.core.errors import Conflict
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService, User
from lazaretto.service.campaigns import CampaignService

START = datetime(2026, 6, 13, 18, 0)

Act = tuple[str, dict[str, Any]]

TABLES: dict[str, tuple[str, list[tuple[str, str, int]], list[Act]]] = {
    "zone-larp": (
        "show-zone",
        [("z1", "Артём", 3), ("z2", "Lena", 3), ("z3", "Gleb", 3), ("z4", "Vika", 3)],
        [
            ("strike", {"character": "z1"}),  # a light wound, its first-aid-kit window
            ("strike", {"character": "z2", "weapon": "pyrotechnics"}),  # heavy: dying
            ("inflict-trauma", {"character": "z3", "type": "physical", "source": "master"}),
            ("knock-out", {"character": "z3"}),
            ("mark-zone", {"character": "z3", "zone": "left_arm", "state": "damaged"}),
        ],
    ),
    "fantasy-server": (
        "show-fantasy",
        [("f1", "Eryk", 20), ("f2", "Mira", 15)],
        [
            ("lose-hp", {"character": "f1", "amount": 12, "cause": "arrow"}),
            ("give-trauma", {"character": "f1", "trauma": "lameness"}),
            ("record-condition", {"character": "f2", "kind": "no_heavy_work", "days": 2}),
        ],
    ),
    "ide4-survival": (
        "show-ide4",
        [("i1", "Фарамир", 10), ("i2", "Beren", 10)],
        [
            ("expose", {"characters": ["i2"], "disease": "iron_fever", "outcome": "failure"}),
            ("calm-event", {"characters": ["i1"], "events": ["monster"]}),
        ],
    ),
    "dnd5e-injuries": (
        "show-dnd5e",
        [("d1", "Thorin", 12), ("d2", "Лия", 9)],
        [
            ("set-dnd-stats", {"character": "d1", "con": 14, "level": 3, "proficiency": 2}),
            ("take-damage", {"character": "d1", "damage": 12, "damage_type": "slashing"}),
            ("roll-injury", {"character": "d1"}),
        ],
    ),
}
"""Ruleset → (campaign, characters (id, name, hits), actions recorded in order)."""


def seed_tables(campaigns: CampaignService, accounts: AccountService, master: User) -> list[str]:
    """Create the showcase campaigns unless they exist, with ``master`` as their
    master; returns the campaigns' names."""
    names = []
    for ruleset, (name, people, acts) in TABLES.items():
        names.append(name)
        try:
            campaigns.create_campaign(name, ruleset, clock=ClockMode.MANUAL, start=START, seed=3)
        except Conflict:
            continue
        for cid, who, hits in people:
            campaigns.add_character(name, Character(id=cid, name=who, hits_max=hits, hits=hits))
        for action, raw in acts:
            campaigns.act(name, action, raw)
        accounts.add_member(master, name, Role.MASTER)
    return names
