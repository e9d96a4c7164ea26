"""The countdown board shows a viewer exactly the deadlines their cards show (issue 18).

The board no longer builds a card per character with a countdown
(:mod:`lazaretto.service.countdowns`); these tests derive the board the old way, from
the cards, for the demo LARP and every ruleset's showcase campaign and for every role,
and require the same countdowns, in the same order. The demo gets a lethal disease as
well, so a healer has a countdown to be kept from (W-DIS-03/05).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pytest

from lazaretto.core.errors import Forbidden
from lazaretto.core.ruleset import Role
from lazaretto.core.state import CampaignState
from lazaretto.core.timers import Timer
from lazaretto.service import sight
from lazaretto.service.accounts import AccountService, Membership, User
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.countdowns import shown_deadlines, visible_timers
from lazaretto.service.demo import CAMPAIGN, seed
from lazaretto.service.play import PlayService, card_for
from lazaretto.service.showcase import TABLES, seed_tables
from lazaretto.store.db import Database

PASSWORD = "countdown-board-test"


@dataclass
class World:
    campaigns: CampaignService
    accounts: AccountService
    play: PlayService
    users: dict[tuple[str, str], User]
    """(campaign, who) → the user: master, healer (no character of their own),
    own-healer (a healer whose own character is ill), player."""


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    db = Database(f"sqlite:///{Path(tmp_path_factory.mktemp('board')) / 'board.db'}")
    campaigns, accounts = CampaignService(db), AccountService(db)
    seed(campaigns, accounts)
    master = accounts.login("master", "master-demo").user
    seed_tables(campaigns, accounts, master)
    # a lethal disease on a patient and on one of the demo healer's own characters
    campaigns.act(
        CAMPAIGN,
        "define-disease",
        {
            "code": "RD-1",
            "name": "Red death",
            "symptoms": "red spots",
            "penalties": "dies",
            "lethal": True,
            "minutes_to_death": 90,
        },
    )
    for cid in ("1001", "1004"):
        campaigns.act(CAMPAIGN, "infect", {"character": cid, "disease": "RD-1"})
    users: dict[tuple[str, str], User] = {}
    for name, people in [(CAMPAIGN, ["1001", "1004"])] + [
        (camp, [p[0] for p in ppl]) for camp, ppl, _ in TABLES.values()
    ]:
        users[name, "master"] = master
        for who, role, chars in (
            ("healer", Role.HEALER, []),
            ("own-healer", Role.HEALER, people[1:2]),
            ("player", Role.PLAYER, people[:1]),
        ):
            user = accounts.create_user(f"{who}-{name}", PASSWORD)
            accounts.add_member(user, name, role, chars)
            users[name, who] = user
    yield World(campaigns, accounts, PlayService(campaigns, accounts), users)
    db.close()


@pytest.fixture
def w(world: World) -> World:
    return world


CAMPAIGNS = [CAMPAIGN, *(camp for camp, _, _ in TABLES.values())]
WHO = ["master", "healer", "own-healer", "player"]


def by_cards(w: World, campaign: str, member: Membership, state: CampaignState) -> list[Timer]:
    """The board as it was built before: the pending countdowns whose deadline the
    card of their character shows the member."""
    rs, _, _ = w.campaigns.load(campaign)
    pending = state.pending_timers()
    if member.role is Role.MASTER:
        return pending
    shown = {
        (cid, c.get("deadline"))
        for cid in {t.subject for t in pending if t.subject in state.characters}
        for c in card_for(rs, state, cid, member, "en")["conditions"]
    }
    return [t for t in pending if (t.subject, t.deadline.isoformat()) in shown]


@pytest.mark.parametrize("campaign", CAMPAIGNS)
@pytest.mark.parametrize("who", ["master", "healer", "own-healer"])
def test_the_board_shows_the_countdowns_the_cards_show(w: World, campaign: str, who: str) -> None:
    user = w.users[campaign, who]
    state, _, board = w.play.timers(user, campaign)
    member = w.play.member(user, campaign)
    assert [t.id for t in board] == [t.id for t in by_cards(w, campaign, member, state)]


def test_the_campaigns_compared_have_countdowns_shown_and_hidden(w: World) -> None:
    """The comparison above is not of empty boards: each campaign with countdowns keeps
    some from a healer (a condition meant for its owner or the master, a countdown no
    card states), shows a healer some in the LARPs, and a healer's own character shows
    them more (the dnd5e showcase has no countdown at all)."""

    def board(campaign: str, who: str) -> set[str]:
        return {t.id for t in w.play.timers(w.users[campaign, who], campaign)[2]}

    for campaign in (CAMPAIGN, "show-zone", "show-fantasy", "show-ide4"):
        assert board(campaign, "healer") < board(campaign, "master"), campaign
    for campaign in (CAMPAIGN, "show-zone"):
        assert board(campaign, "healer"), campaign
    for campaign in (CAMPAIGN, "show-fantasy"):
        assert board(campaign, "healer") < board(campaign, "own-healer"), campaign


@pytest.mark.parametrize("campaign", CAMPAIGNS)
@pytest.mark.parametrize("who", WHO)
def test_each_card_shows_the_deadlines_the_board_decides_by(
    w: World, campaign: str, who: str
) -> None:
    """For every role, players included (they have no board, but the rule is one)."""
    rs, state, _ = w.campaigns.load(campaign)
    member = w.play.member(w.users[campaign, who], campaign)
    viewer = sight.viewer_in(rs, state, member)
    for cid in sight.known(viewer, state):
        card = card_for(rs, state, cid, member, "en")
        on_card = {
            datetime.fromisoformat(c["deadline"]) for c in card["conditions"] if c.get("deadline")
        }
        assert shown_deadlines(state, cid, viewer) == on_card, (cid, who)


def test_a_player_has_no_board(w: World) -> None:
    with pytest.raises(Forbidden):
        w.play.timers(w.users[CAMPAIGN, "player"], CAMPAIGN)


def test_a_healer_never_sees_a_lethal_disease_countdown_unless_it_is_their_own(w: World) -> None:
    """W-DIS-03/05: the master's board has both Red death countdowns; a healer's has
    neither of the patients', and the own-healer's has the one of their own character."""
    deaths = {
        who: sorted(
            t.subject
            for t in w.play.timers(w.users[CAMPAIGN, who], CAMPAIGN)[2]
            if t.kind == "disease_death"
        )
        for who in ("master", "healer", "own-healer")
    }
    assert deaths == {"master": ["1001", "1004"], "healer": [], "own-healer": ["1004"]}


def test_a_healer_sees_no_countdown_of_what_is_not_a_character(w: World) -> None:
    """A countdown of a place (a hospital, a lab) is a master's, even at the very
    moment a countdown the healer sees ends."""
    rs, state, _ = w.campaigns.load(CAMPAIGN)
    shown = w.play.timers(w.users[CAMPAIGN, "healer"], CAMPAIGN)[2][0]
    place = shown.model_copy(update={"id": "x-place", "subject": "h1"})
    healer, master = (
        sight.viewer_in(rs, state, w.play.member(w.users[CAMPAIGN, who], CAMPAIGN))
        for who in ("healer", "master")
    )
    assert visible_timers(state, [shown, place], healer) == [shown]
    assert visible_timers(state, [shown, place], master) == [shown, place]
