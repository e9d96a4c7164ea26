"""The smaller leaks of the probe (DESIGN.md, principle 6), each asked for as the role that
must not learn it: a hidden trauma counted in a card's free trauma fields (zone-larp,
Z-TRAUMA-01/05), other characters' exposures in the survival day (ide4-survival,
I-IMM-03..06), sticker codes one can count on from the last one, and a sticker look-up
that tells a player more than is written on a sticker in their hand (W-DIS-01/05)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from httpx import Response

from lazaretto.rulesets.warhammer_larp.stickers import sticker_code
from tests.security.world import World, act, build_world
from tests.unit.warhammer.diseases_kit import define, game

TRAUMA = "zq-trauma-whispers-at-night"
HOT = "zq-fever-from-the-well"


@pytest.fixture(scope="module")
def leaks(module_database_url: str) -> Iterator[World]:
    world = build_world(module_database_url)
    zone = world.casts["zone-larp"]
    act(
        world,
        zone.campaign,
        "inflict-trauma",
        character=zone.pc_own,
        type="mental",
        source="monster",
        consequences=TRAUMA,
    )
    ide4 = world.casts["ide4-survival"]
    act(
        world,
        ide4.campaign,
        "start-exposure",
        characters=[ide4.pc_other],
        kind="wet",
        disease="basic",
    )
    act(world, world.demo.campaign, "hand-stickers", to="1001", disease="GF-1", count=2)
    yield world
    world.client.close()
    world.db.close()


def post(world: World, user: str, campaign: str, path: str, **body: Any) -> Response:
    url = f"/api/campaigns/{campaign}/{path}"
    response: Response = world.client.post(url, json=body, headers=world.bearer(user))
    return response


def card(world: World, user: str, campaign: str, character: str) -> Response:
    url = f"/api/campaigns/{campaign}/characters/{character}"
    response: Response = world.client.get(url, headers=world.bearer(user))
    return response


@pytest.mark.parametrize("user", ["healer", "player2"])
def test_a_hidden_trauma_is_not_counted_in_the_free_trauma_fields(leaks: World, user: str) -> None:
    """Z-TRAUMA-01/05: the trauma is the owner's to know; the others' card shows every
    field free, as if there were none. (Another player of a zone-larp campaign, whose
    player_sight is ``own``, does not see the card at all: test_player_sight.py.)"""
    zone = leaks.casts["zone-larp"]
    seen = card(leaks, user, zone.campaign, zone.pc_own)
    if user == "player2":
        assert seen.status_code == 404 and TRAUMA not in seen.text
        return
    assert seen.status_code == 200, seen.text
    mine = card(leaks, "player", zone.campaign, zone.pc_own).json()
    assert mine["trauma_fields_left"] == seen.json()["trauma_fields_left"] - 1  # Z-TRAUMA-05
    assert TRAUMA not in seen.text and TRAUMA in str(mine)


def test_the_survival_day_shows_a_player_only_their_own_character(leaks: World) -> None:
    """I-IMM-05: the wet character's Immunity checks are theirs (and the GM's) to know."""
    ide4 = leaks.casts["ide4-survival"]
    everyone = post(leaks, "player", ide4.campaign, "queries/day")
    assert everyone.status_code == 200, everyone.text
    assert ide4.pc_other not in everyone.text and "wet" not in everyone.text
    own = post(leaks, "player", ide4.campaign, "queries/day", character=ide4.pc_own)
    assert own.status_code == 200 and f"{ide4.pc_own} (" in own.text
    other = post(leaks, "player", ide4.campaign, "queries/day", character=ide4.pc_other)
    assert other.status_code == 403
    gm = post(leaks, "master", ide4.campaign, "queries/day")
    assert "wet" in gm.text  # the search is looking in the right place


def test_sticker_codes_cannot_be_counted_on_from_the_last_one(leaks: World) -> None:
    """W-DIS-01: a code says nothing of the disease, the order or the other codes."""
    held = post(leaks, "master", leaks.demo.campaign, "queries/stickers", holder="1001")
    codes = [s["code"] for s in held.json()["stickers"]]
    assert len(codes) == 2 and len(set(codes)) == 2
    for code in codes:
        # not the disease's code and a serial number (GF1-0001, GF1-0002): 40 random bits
        assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}", code), code


def test_sticker_codes_are_reproducible_from_the_campaign_seed() -> None:
    """DESIGN.md principle 5: the same seed mints the same codes; stickers leave a
    hand in the order they were made, not by their (random) codes."""
    one, two = game(), game()
    for g in (one, two):
        define(g)
        g.act("hand-stickers", to="p0", disease="GF", count=4)
    made = list(one.state.stickers)
    assert made == list(two.state.stickers)
    assert made[0] == sticker_code(one.state.seed, 1)
    one.act("hand-stickers", to="p1", disease="GF", count=2, source="p0")
    assert [c for c, s in one.state.stickers.items() if s.holder == "p1"] == made[:2]


def test_a_player_reads_only_a_sticker_in_their_hand_and_only_what_is_on_it(
    leaks: World,
) -> None:
    """W-DIS-01/02/05: the sticker shows its symptoms; the disease's name is the healer's
    diagnosis, another's sticker is as unknown as a mistyped code."""
    demo = leaks.demo.campaign
    mine = post(leaks, "master", demo, "queries/stickers", holder="1002").json()["stickers"]
    theirs = post(leaks, "master", demo, "queries/stickers", holder="1001").json()["stickers"]
    own = post(leaks, "player", demo, "queries/sticker", code=mine[0]["code"], character="1002")
    assert own.status_code == 200, own.text
    assert own.json()["symptoms"] and "Grey fever" not in own.text  # W-DIS-01
    assert "penalties" not in own.json()  # W-DIS-05
    stranger = post(
        leaks, "player", demo, "queries/sticker", code=theirs[0]["code"], character="1002"
    )
    nobody = post(leaks, "player", demo, "queries/sticker", code="ZZZZ-ZZZZ", character="1002")
    assert stranger.status_code == nobody.status_code == 404
    assert (
        stranger.json()["message"].replace(theirs[0]["code"], "ZZZZ-ZZZZ")
        == (nobody.json()["message"])
    )
    unnamed = post(leaks, "player", demo, "queries/sticker", code=mine[0]["code"])
    assert unnamed.status_code == 404 and "Grey fever" not in unnamed.text
    healer = post(leaks, "healer", demo, "queries/sticker", code=theirs[0]["code"])
    assert healer.status_code == 200 and "penalties" not in healer.json()
