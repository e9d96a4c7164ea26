"""A healer reads only a book they hold (W-HEAL-03, A-W-34): their own character's, or one
its owner lent them. Through the API, as the healers of the demo campaign: ``healer``
plays Anna (1004) and Sigrun (1005), ``healer2`` plays Greta (1007)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from httpx import Response

from lazaretto.service.demo import CAMPAIGN
from tests.security.world import World, act, build_world

SECRET = "zq-greta-leeches-at-dawn"


@pytest.fixture(scope="module")
def demo(module_database_url: str) -> Iterator[World]:
    world = build_world(module_database_url, other_rulesets=False)
    act(world, CAMPAIGN, "add-to-book", healer="1007", code="BR-9", description=SECRET)
    act(world, CAMPAIGN, "add-to-book", healer="1005", code="GX-2", description="sigrun's")
    yield world
    world.client.close()
    world.db.close()


def post(world: World, user: str, action: str, **body: Any) -> Response:
    url = f"/api/campaigns/{CAMPAIGN}/actions/{action}"
    response: Response = world.client.post(url, json=body, headers=world.bearer(user))
    return response


def book(world: World, healer: str) -> dict[str, str]:
    _, state, _ = world.campaigns.load(CAMPAIGN)
    found: dict[str, str] = state.characters[healer].data.get("book", {})
    return found


def test_a_healer_cannot_copy_from_a_book_nobody_lent_them(demo: World) -> None:
    """A-W-34: copying is done by hand, from a book in the healer's hands."""
    r = post(demo, "healer", "copy-description", healer="1004", source="1007", code="BR-9")
    assert r.status_code == 409, r.text
    assert "A-W-34" in r.json()["message"] and SECRET not in r.text
    assert "BR-9" not in book(demo, "1004")


def test_the_refusal_does_not_tell_whether_the_book_holds_an_entry(demo: World) -> None:
    """W-HEAL-03: a book one may not read answers the same for a present or absent code."""
    present = post(demo, "healer", "copy-description", healer="1004", source="1007", code="BR-9")
    absent = post(demo, "healer", "copy-description", healer="1004", source="1007", code="NONE")
    assert present.status_code == absent.status_code == 409
    assert present.json()["message"] == absent.json()["message"].replace("NONE", "BR-9")
    assert "NONE" not in absent.json()["message"]


def test_a_lent_book_can_be_copied_until_it_is_taken_back(demo: World) -> None:
    """A-W-34: the owner's player lends the book; then the copy is allowed."""
    lent = post(demo, "healer2", "lend-book", healer="1007", to="1004")
    assert lent.status_code == 200, lent.text
    copied = post(demo, "healer", "copy-description", healer="1004", source="1007", code="BR-9")
    assert copied.status_code == 200, copied.text
    assert book(demo, "1004")["BR-9"] == SECRET
    missing = post(demo, "healer", "copy-description", healer="1004", source="1007", code="NONE")
    assert missing.status_code == 409 and "no description of NONE" in missing.json()["message"]
    back = post(demo, "healer2", "take-back-book", healer="1007", to="1004")
    assert back.status_code == 200, back.text
    again = post(demo, "healer", "copy-description", healer="1004", source="1007", code="BR-9")
    assert again.status_code == 409 and "A-W-34" in again.json()["message"]


def test_only_the_owners_player_lends_a_book(demo: World) -> None:
    """W-HEAL-03: a healer cannot lend themselves someone else's book."""
    r = post(demo, "healer", "lend-book", healer="1007", to="1004")
    assert r.status_code == 403, r.text
    own = post(demo, "healer", "lend-book", healer="1005", to="1004")
    assert own.status_code == 200, own.text  # both are this user's characters
    copied = post(demo, "healer", "copy-description", healer="1004", source="1005", code="GX-2")
    assert copied.status_code == 200, copied.text


def test_a_master_records_any_copy(demo: World) -> None:
    r = post(demo, "master", "copy-description", healer="1005", source="1007", code="BR-9")
    assert r.status_code == 200, r.text
