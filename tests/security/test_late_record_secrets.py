"""Late records and undos keep the game's secrets (issue 28, H2, L5, L6).

Corrections pass the same view filter as the cards (``core/visibility.py``): what a
late record changed of a hidden disease is told to no player or healer, and a master's
record behind a correction is "corrected by the master" to them, never what the master
recorded or when. The maker of a record is named as who made it (a master's record is
the master's, not the character it names). Undo answers another's record exactly as a
missing one.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from httpx import Response

from lazaretto.core.character import Character
from lazaretto.core.clock import ClockMode
from lazaretto.core.ruleset import Role
from tests.security.calls import Viewer, send
from tests.security.world import World

NINE = datetime(2026, 6, 13, 9, 0)
SECRET = ("lethal", "Black lung", "infect at", "W-DIS-09", "смертельн", "из-за: infect",
          "Corrected", "Исправлено")
"""Words of the hidden disease and of a corrections section on a card page (a healer's
card lists every action, diseases' among them, so the word "disease" alone is not one):
none may reach a player or a healer."""


OTHER_RULESETS = False
"""The ``world`` fixture's demo campaign is enough: these tests make their own."""


def plague(world: World) -> str:
    """The probe's H2 on a fresh manual campaign: a lethal disease defined (hidden
    from players and healers, W-DIS-03/05), Pavel (the player's) wounded at 09:00,
    the clock moved 40 minutes, then the master infects Pavel with a late record at
    09:05 (a paper slip): he died of it at 09:35, a correction nobody had seen."""
    name = world.unique("plague-")
    world.campaigns.create_campaign(name, "warhammer-larp", clock=ClockMode.MANUAL, start=NINE)
    for cid, who, skills in (("pc", "Pavel", []), ("doc", "Darya", ["Healer"])):
        world.campaigns.add_character(
            name, Character(id=cid, name=who, hits_max=3, hits=3, age=30, skills=skills)
        )
    for user, role, chars in (
        ("master", Role.MASTER, ()),
        ("player", Role.PLAYER, ("pc",)),
        ("healer", Role.HEALER, ("doc",)),
    ):
        world.accounts.add_member(world.users[user], name, role, chars)
    world.campaigns.act(name, "define-disease", {
        "code": "LD", "name": "Black lung", "symptoms": "cough", "penalties": "dies",
        "lethal": True, "minutes_to_death": 30,
    })  # fmt: skip
    world.campaigns.act(name, "lose-hits", {"character": "pc", "hits": 1})
    world.campaigns.advance_to(name, NINE + timedelta(minutes=40))
    r = world.client.post(
        f"/api/campaigns/{name}/actions/infect",
        json={"character": "pc", "disease": "LD", "at": "09:05"},
        headers=world.bearer("master"),
    )
    assert r.status_code == 200, r.text
    return name


def corrections(world: World, user: str, campaign: str, about: str) -> Response:
    r: Response = world.client.get(
        f"/api/campaigns/{campaign}/corrections",
        params={"about": about},
        headers=world.bearer(user),
    )
    return r


def test_the_master_sees_the_correction_and_that_the_master_made_it(world: World) -> None:
    """The master is told all of it; the record is credited to the master who made it,
    not to Pavel, whom it names (L6: "infect … by Pavel", actor ``master:pc``)."""
    campaign = plague(world)
    found = corrections(world, "master", campaign, "pc").json()
    assert [(c["change"], c["event"]["kind"], c["event"]["payload"]["cause"]) for c in found] == [
        ("happened", "character.died", "lethal_disease")
    ]
    cause = found[0]["cause"]
    assert (cause["action"], cause["at"], cause["by"]) == ("infect", "2026-06-13T09:05:00",
                                                          "master")
    card = send(world, Viewer.MASTER, "GET", f"/c/{campaign}/ch/pc", page=True)
    assert "infect at 09:05:00 by master" in card.text and "by Pavel" not in card.text


@pytest.mark.parametrize("user", ["player", "healer"])
def test_a_hidden_disease_reaches_no_player_or_healer_through_corrections(
    world: World, user: str
) -> None:
    """The probe's H2: P1's player and a healer got ``"cause": "lethal_disease"`` and
    ``"action": "infect"`` from the corrections, and the card said "Pavel died:
    lethal disease [W-DIS-09] — because of: infect at 09:05:00 by Pavel". Now neither
    the API nor the card page says a word of it, in either language."""
    campaign = plague(world)
    r = corrections(world, user, campaign, "pc")
    assert r.status_code == 200, r.text
    assert r.json() == []
    viewer = Viewer.PLAYER_OWN if user == "player" else Viewer.HEALER_OWN
    for lang in ("en", "ru"):
        card = send(world, viewer, "GET", f"/c/{campaign}/ch/pc", page=True,
                    params={"lang": lang})
        assert card.status == 200
        told = [w for w in SECRET if w in card.text]
        assert told == [], told


def test_a_masters_record_behind_a_correction_is_only_corrected_by_the_master(
    world: World,
) -> None:
    """An outcome everyone may see, changed by a master's late record: the player is
    told the outcome and "corrected by the master" — not the action, its time or its
    record. Here the master's late lose-hits for Darya at 09:10 gave her a light wound
    that the clock move to 09:40 had passed: it worsened at 09:40, a correction."""
    campaign = plague(world)
    world.client.post(
        f"/api/campaigns/{campaign}/actions/lose-hits",
        json={"character": "doc", "hits": 1, "at": "09:10"},
        headers=world.bearer("master"),
    )
    seen = corrections(world, "master", campaign, "doc").json()
    told = corrections(world, "healer", campaign, "doc").json()
    assert [c["event"]["kind"] for c in told] == [c["event"]["kind"] for c in seen] == [
        "wound.became_heavy"  # Darya's light wound worsened at 09:40 (W-WND-08)
    ]
    assert seen[0]["cause"]["action"] == "lose-hits"
    assert told[0]["cause"] == {"by": "master", "hidden": True}
    card = send(world, Viewer.HEALER_OWN, "GET", f"/c/{campaign}/ch/doc", page=True)
    assert "corrected by the master" in card.text
    assert "lose-hits at 09:10" not in card.text
    ru = send(world, Viewer.HEALER_OWN, "GET", f"/c/{campaign}/ch/doc", page=True,
              params={"lang": "ru"})
    assert "исправлено мастером" in ru.text


def test_undo_answers_anothers_record_exactly_as_a_missing_one(world: World) -> None:
    """L5: a player learnt from 404 / 403 / 409 which records exist and what others
    did ("is itself an undo", "already undone"). Another's record, a master's undo, an
    undone one and one that does not exist are now the same answer."""
    campaign = plague(world)
    records = world.campaigns.records(campaign)
    masters = records[-1]["record"]
    undo = world.campaigns.void(campaign, masters - 1)
    gone = undo.record  # type: ignore[attr-defined]
    answers: list[tuple[int, str]] = []
    for no in (masters, gone, masters - 1, 9999):
        r = world.client.post(
            f"/api/campaigns/{campaign}/records/{no}/void", json={},
            headers=world.bearer("player"),
        )
        answers.append((r.status_code, r.json()["message"].replace(str(no), "N")))
    assert answers == [(404, f"No record N in {campaign}")] * 4
