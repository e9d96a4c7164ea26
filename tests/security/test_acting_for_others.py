"""Who an action says is acting (DESIGN.md, principle 6): a player acts only for their
own characters and a healer only as their own healer characters, in every field that
says who acts (healer, supporter, author, actor, taker), while whom they act on may be
anyone's. The authorization matrix names one character everywhere; these mix them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from httpx import Response

from lazaretto.service.demo import CAMPAIGN
from tests.security.world import World, act, build_world


@pytest.fixture(scope="module")
def demo(module_database_url: str) -> Iterator[World]:
    world = build_world(module_database_url, other_rulesets=False)
    act(world, CAMPAIGN, "lose-hits", character="1001", hits=1)  # Rustam: heavy, unbandaged
    yield world
    world.client.close()
    world.db.close()


def post(world: World, user: str, path: str, **body: Any) -> Response:
    url = f"/api/campaigns/{CAMPAIGN}/{path}"
    response: Response = world.client.post(url, json=body, headers=world.bearer(user))
    return response


def test_a_player_may_carry_another_players_character_but_not_be_carried_by_one(
    demo: World,
) -> None:
    """W-WND-10: the supporter acts; the one carried does not."""
    carry = post(demo, "player", "actions/support", patient="1001", supporter="1002")
    assert carry.status_code != 403, carry.text
    carried = post(demo, "player", "actions/support", patient="1002", supporter="1001")
    assert carried.status_code == 403 and carried.json()["error"] == "Forbidden"


def test_a_healer_names_only_their_own_characters_as_who_acts(demo: World) -> None:
    other = post(demo, "healer", "actions/support", patient="1001", supporter="1007")
    assert other.status_code == 403 and "1007" in other.json()["message"]
    stranger = post(demo, "healer", "actions/interact-corpse", actor="1002", corpse="1003",
                    interaction="search")
    assert stranger.status_code == 403 and "1002" in stranger.json()["message"]
    own = post(demo, "healer", "actions/support", patient="1001", supporter="1005")
    assert own.status_code != 403, own.text


def test_the_log_records_the_healer_as_who_bandaged_not_the_patient(demo: World) -> None:
    r = post(demo, "healer", "actions/apply-bandage", healer="1004", patient="1001",
             bandages=3, mat="mat-anna")
    assert r.status_code == 200, r.text
    assert {e["actor"] for e in r.json()["events"]} == {"healer:1004"}


def test_a_player_reads_a_sticker_by_its_code_without_its_hidden_penalties(
    demo: World,
) -> None:
    """W-DIS-05: the player names their character, who holds the sticker; they read what
    is written on it (the symptoms), not the disease's name nor its penalties."""
    (sticker,) = post(demo, "master", "queries/stickers", holder="1002").json()["stickers"]
    r = post(demo, "player", "queries/sticker", code=sticker["code"], character="1002")
    assert r.status_code == 200, r.text
    assert r.json()["symptoms"] and not {"name", "penalties"} & set(r.json())


def test_a_tap_sent_in_an_outbox_is_judged_as_its_own_request_would_be(demo: World) -> None:
    """Issue 25: a phone's waiting taps sent at once (``…/outbox``) pass the same checks
    of who acts, refused with the same status and words, each alone."""
    refused = [("support", {"patient": "1002", "supporter": "1001"}),
               ("lose-hits", {"character": "1001", "hits": 1})]
    taps = [{"action": a, "input": body, "key": f"outbox-{n}"}
            for n, (a, body) in enumerate(refused)]
    batched = post(demo, "player", "outbox", taps=taps)
    assert batched.status_code == 200, batched.text
    for (action, body), answer in zip(refused, batched.json()["answers"], strict=True):
        alone = post(demo, "player", f"actions/{action}", **body)
        assert alone.status_code == 403
        assert (answer["status"], answer["message"]) == (403, alone.json()["message"])
