"""Players see what the game lets them see (DESIGN.md, principle 6; issue 16, item 6).

A campaign's ``player_sight`` says what a player sees of the characters that are not
theirs: ``own`` (the LARP rulesets' default: nothing, not even that they exist),
``names`` (fantasy-server: names and numbers, to name whom they heal or rob) or
``party`` (the tabletop rulesets: the others' cards as everyone may see them). Checked
here over every interface that names characters: the API's cards, card and names, the
web's list, card, passport and passport PDF, the live stream, corrections, queries and
the choices of the forms. Masters and healers see everyone.

The world (world.py): in the demo LARP (warhammer-larp) the player plays Boris (1002),
player2 Rustam (1001); in each other ruleset's campaign the player plays Pavel (pc),
player2 Petra (pc2), the healers Darya (doc) and Denis (doc2).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from lazaretto.core.character import Character
from lazaretto.core.clock import ClockMode
from lazaretto.core.registry import rulesets
from lazaretto.core.ruleset import Role
from lazaretto.core.visibility import PlayerSight
from lazaretto.service.demo import CAMPAIGN
from lazaretto.web.views_setup import param_docs
from tests.security.world import START, World, act

DEMO = CAMPAIGN
OTHERS = ("Rustam", "Dmitri", "Anna", "Sigrun", "Karl")
"""The demo's characters that are not the player's Boris."""


def api(world: World, user: str, path: str, **params: Any) -> Any:
    r = world.client.get(f"/api{path}", headers=world.bearer(user), params=params)
    return r


def page(world: World, user: str, path: str, **params: Any) -> Any:
    headers = {**world.bearer(user), "Accept": "text/html"}
    return world.client.get(path, headers=headers, params=params, follow_redirects=False)


def same_refusal(a: Any, b: Any, a_id: str, b_id: str) -> bool:
    """Whether two answers differ only by the id asked for."""
    return a.status_code == b.status_code and a.text.replace(a_id, "X") == b.text.replace(b_id, "X")


# --- the parameter ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "sight"),
    [
        ("warhammer-larp", PlayerSight.OWN),
        ("zone-larp", PlayerSight.OWN),
        ("fantasy-server", PlayerSight.NAMES),
        ("dnd5e-injuries", PlayerSight.PARTY),
        ("ide4-survival", PlayerSight.PARTY),
    ],
)
def test_each_ruleset_documents_what_players_see_of_others(
    ruleset: str, sight: PlayerSight
) -> None:
    rs = rulesets()[ruleset]
    assert rs.params.player_sight is sight  # type: ignore[attr-defined]
    doc = {d.name: d for d in param_docs(rs)}["player_sight"]
    assert doc.default == sight.value
    assert "or " in doc.doc, "the other values are named beside the default"


def test_a_campaign_refuses_an_unknown_player_sight(world: World) -> None:
    r = world.client.post(
        "/api/campaigns",
        headers=world.bearer("master"),
        json={"name": "bad-sight", "ruleset": "zone-larp", "params": {"player_sight": "all"}},
    )
    assert r.status_code == 422, r.text
    assert "player_sight" in r.text


# --- own: a LARP player sees their own character only ---------------------------------


def test_a_larp_player_gets_only_their_own_card_from_the_api(world: World) -> None:
    cards = api(world, "player", f"/campaigns/{DEMO}/characters").json()
    assert [(c["id"], c["name"], c["mine"]) for c in cards] == [("1002", "Boris", True)]
    names = api(world, "player", f"/campaigns/{DEMO}/names").json()
    assert names == [{"id": "1002", "name": "Boris", "mine": True, "card": True}]


def test_masters_and_healers_still_see_everyone(world: World) -> None:
    for user in ("master", "healer", "healer2"):
        cards = api(world, user, f"/campaigns/{DEMO}/characters").json()
        assert {"Rustam", "Boris", "Anna"} <= {c["name"] for c in cards}, user
        assert len(api(world, user, f"/campaigns/{DEMO}/names").json()) == len(cards)


def test_another_players_card_is_refused_as_if_it_did_not_exist(world: World) -> None:
    theirs = api(world, "player", f"/campaigns/{DEMO}/characters/1001")
    nobody = api(world, "player", f"/campaigns/{DEMO}/characters/9999")
    assert theirs.status_code == 404
    assert same_refusal(theirs, nobody, "1001", "9999")
    assert "Rustam" not in theirs.text
    assert api(world, "player", f"/campaigns/{DEMO}/characters/1002").status_code == 200


def test_the_web_card_passport_and_pdf_of_another_are_not_found(world: World) -> None:
    for path in (f"/c/{DEMO}/ch/{{}}", f"/c/{DEMO}/ch/{{}}/passport"):
        theirs, nobody = (
            page(world, "player", path.format("1001")),
            page(world, "player", path.format("9999")),
        )
        assert theirs.status_code == nobody.status_code == 404, path
        assert "Rustam" not in theirs.text
        assert same_refusal(theirs, nobody, "1001", "9999"), path
    pdf = page(world, "player", f"/c/{DEMO}/print/passports.pdf", character="1001")
    assert pdf.status_code == 404
    own = page(world, "player", f"/c/{DEMO}/print/passports.pdf", character="1002")
    assert own.status_code == 200 and own.content.startswith(b"%PDF")


def test_a_larp_player_opening_the_campaign_lands_on_their_card(world: World) -> None:
    r = page(world, "player", f"/c/{DEMO}")
    assert r.status_code == 303
    assert r.headers["location"] == f"/c/{DEMO}/ch/1002"
    assert page(world, "master", f"/c/{DEMO}").status_code == 200


def test_the_list_found_by_name_shows_the_player_nobody_else(world: World) -> None:
    r = page(world, "player", f"/c/{DEMO}/find", q="Rustam")
    assert r.status_code == 200
    assert "Nobody found" in r.text
    assert f"/c/{DEMO}/ch/1001" not in r.text
    assert "/ch/" not in r.text.split("<main", 1)[1]
    staff = page(world, "healer", f"/c/{DEMO}/find", q="Rustam")
    assert staff.headers["location"] == f"/c/{DEMO}/ch/1001", "a healer finds anyone"


def test_the_stream_of_another_players_card_is_refused_as_not_found(world: World) -> None:
    theirs = api(world, "player", f"/campaigns/{DEMO}/stream", character="1001")
    nobody = api(world, "player", f"/campaigns/{DEMO}/stream", character="9999")
    assert theirs.status_code == nobody.status_code == 404
    assert same_refusal(theirs, nobody, "1001", "9999")


def test_corrections_about_another_are_refused_as_not_found(world: World) -> None:
    theirs = api(world, "player", f"/campaigns/{DEMO}/corrections", about="1001")
    nobody = api(world, "player", f"/campaigns/{DEMO}/corrections", about="9999")
    assert theirs.status_code == nobody.status_code == 404
    assert api(world, "player", f"/campaigns/{DEMO}/corrections", about="1002").status_code == 200


def test_a_players_form_offers_no_one_elses_name(world: World) -> None:
    """The support form names a patient: a LARP player types the number they read on
    the passport in front of them; the form lists nobody (nor who lies on a table)."""
    r = page(world, "player", f"/c/{DEMO}/act/support")
    assert r.status_code == 200, r.text[:300]
    body = r.text.split("<main", 1)[1]
    assert "Boris" in body
    assert not [n for n in OTHERS if n in body]
    master = page(world, "master", f"/c/{DEMO}/act/support").text
    assert "Rustam" in master, "the master's form does offer everyone"


def test_a_query_answers_a_player_from_their_own_characters_only(world: World) -> None:
    """zone-larp's board of who is in the Hospital, asked by a player while player2's
    Petra is there: neither her row nor the count tells of her (Z-REHAB-04)."""
    c = world.casts["zone-larp"].campaign
    for _ in range(2):  # a second hit on a light wound: heavy (Z-LW)
        act(world, c, "strike", character="pc2", weapon="red_ribbon")
    world.campaigns.advance_to(c, world.campaigns.clock(c).now() + timedelta(minutes=6))
    act(world, c, "arrive-hospital", patient="pc2")
    url = f"/api/campaigns/{c}/queries/hospital-board"
    mine = world.client.post(url, headers=world.bearer("player"), json={}).json()
    assert mine["patients"] == []
    assert "0" in mine["summary"] and "1" not in mine["summary"]
    staff = world.client.post(url, headers=world.bearer("healer"), json={}).json()
    assert [p["name"] for p in staff["patients"]] == ["Petra"]


# --- names: a fantasy-server player knows the others by name, not their state ----------


def test_names_sight_lists_the_others_by_name_without_their_cards(world: World) -> None:
    c = world.casts["fantasy-server"].campaign
    cards = api(world, "player", f"/campaigns/{c}/characters").json()
    assert [x["id"] for x in cards] == ["pc"]
    names = api(world, "player", f"/campaigns/{c}/names").json()
    assert [(n["name"], n["mine"], n["card"]) for n in names] == [
        ("Pavel", True, True),
        ("Petra", False, False),
        ("Darya", False, False),
        ("Denis", False, False),
    ]
    assert api(world, "player", f"/campaigns/{c}/characters/pc2").status_code == 404


def test_names_sight_page_shows_names_and_no_way_into_their_cards(world: World) -> None:
    c = world.casts["fantasy-server"].campaign
    r = page(world, "player", f"/c/{c}")
    assert r.status_code == 200, "others to know of by name: the list, not a landing"
    main = r.text.split("<main", 1)[1]
    cards, others = main.split("data-others", 1)
    assert "Pavel" in cards and "data-mine" in cards and f"/c/{c}/ch/pc" in cards
    assert [n for n in ("Petra", "Darya", "Denis") if n in others] == ["Petra", "Darya", "Denis"]
    assert "href" not in others.split("</ul>", 1)[0], "no way into another's card"
    assert main.count("/ch/") == 1


# --- party: a tabletop player sees the party ------------------------------------------


def test_party_sight_shows_every_card_the_players_own_first_and_marked(world: World) -> None:
    c = world.casts["dnd5e-injuries"].campaign
    cards = api(world, "player", f"/campaigns/{c}/characters").json()
    assert (cards[0]["id"], cards[0]["mine"]) == ("pc", True)
    assert {x["id"] for x in cards} == {"pc", "pc2", "doc", "doc2"}
    assert api(world, "player", f"/campaigns/{c}/characters/pc2").status_code == 200
    r = page(world, "player", f"/c/{c}")
    assert r.status_code == 200, "other cards to open: the party's list"
    items = r.text.split('<ul class="list">', 1)[1].split("</ul>", 1)[0]
    first = items.split("</li>", 1)[0]
    assert "Pavel" in first and "data-mine" in first
    assert items.count("data-mine") == 1


def test_a_campaign_may_override_the_rulesets_sight(world: World) -> None:
    name = world.unique("sighted")
    world.campaigns.create_campaign(
        name,
        "warhammer-larp",
        clock=ClockMode.MANUAL,
        start=START,
        params={"player_sight": "party"},
    )
    for cid, who in (("7", "Seven"), ("8", "Eight")):
        world.campaigns.add_character(name, Character(id=cid, name=who, hits_max=3, hits=3))
    world.accounts.add_member(world.users["player"], name, Role.PLAYER, ("7",))
    cards = api(world, "player", f"/campaigns/{name}/characters").json()
    assert [x["name"] for x in cards] == ["Seven", "Eight"]
