"""The four leaks an outside probe found (issue 15, items 1–4), each closed as a class:

1. idempotency keys are one user's, and a key reused for another request is refused;
2. an action's body is the campaign's ruleset's model (unknown fields refused), and who
   acts is checked on the fields the action reads, for every field that names someone;
3. a card is built from the viewer's view of the state, so no derived field (a label, a
   list of cases, a death date) tells of a condition the viewer may not see;
4. a healer's or player's answer carries their own action's events only.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from httpx import Response

from lazaretto.core.character import Character
from lazaretto.core.clock import ClockMode
from lazaretto.core.registry import rulesets
from lazaretto.core.ruleset import Role
from lazaretto.service.play import ACTING_FIELDS, CHARACTER_FIELDS
from tests.security.world import START, World


def post(
    world: World, user: str, campaign: str, path: str, body: dict[str, Any], key: str = ""
) -> Response:
    headers = world.bearer(user) | ({"Idempotency-Key": key} if key else {})
    response: Response = world.client.post(
        f"/api/campaigns/{campaign}/{path}", json=body, headers=headers
    )
    return response


def hits(world: World, campaign: str, char_id: str) -> int:
    return world.campaigns.load(campaign)[1].characters[char_id].hits


# --- 1. idempotency keys -------------------------------------------------------------
def test_a_players_key_reused_after_the_masters_records_the_players_own_wound(
    world: World,
) -> None:
    """A player sending the key a master used gets their own answer, not the master's
    (hidden) disease definition, and their wound is recorded."""
    camp, cast = world.demo.campaign, world.demo
    key = world.unique("shared-key-")
    defined = post(world, "master", camp, "actions/define-disease", {
        "code": world.unique("PX"), "name": "Probe pox", "symptoms": "spots",
        "penalties": "SECRET-PENALTY cannot run", "lethal": True, "minutes_to_death": 30,
    }, key)
    assert defined.status_code == 200, defined.text
    before = hits(world, camp, cast.pc_own)
    wound = post(world, "player", camp, "actions/lose-hits",
                 {"character": cast.pc_own, "hits": 1, "location": "arm"}, key)
    assert wound.status_code == 200, wound.text
    assert "SECRET-PENALTY" not in wound.text
    assert {e["kind"] for e in wound.json()["events"]} >= {"wound.hits_lost"}
    assert hits(world, camp, cast.pc_own) == before - 1


def test_one_users_key_reused_for_another_request_is_refused_and_a_retry_is_answered_once(
    world: World,
) -> None:
    camp, pc = world.demo.campaign, world.demo.pc_own
    key = world.unique("retry-")
    body = {"character": pc, "hits": 1, "location": "leg"}
    before = hits(world, camp, pc)
    first = post(world, "player", camp, "actions/lose-hits", body, key)
    again = post(world, "player", camp, "actions/lose-hits", body, key)
    assert first.status_code == again.status_code == 200
    assert first.json()["events"] == again.json()["events"]
    assert hits(world, camp, pc) == before - 1, "a retry is recorded once"
    other = post(world, "player", camp, "actions/lose-hits", {**body, "location": "arm"}, key)
    assert other.status_code == 409 and other.json()["error"] == "Conflict"
    assert "Idempotency-Key" in other.json()["message"]
    assert hits(world, camp, pc) == before - 1


# --- 2. typed bodies, who acts ------------------------------------------------------
def test_a_player_cannot_steer_a_shared_action_at_another_character_by_an_extra_field(
    world: World,
) -> None:
    """``get-up`` exists in two rulesets: its body names the own character in a field
    this ruleset's action does not read and the other in the one it does."""
    camp, cast = world.demo.campaign, world.demo
    before = world.campaigns.load(camp)[1].characters[cast.pc_other].model_dump()
    r = post(world, "player", camp, "actions/get-up",
             {"character": cast.pc_own, "patient": cast.pc_other})
    assert r.status_code == 422, r.text
    assert "character" in r.json()["message"]
    assert world.campaigns.load(camp)[1].characters[cast.pc_other].model_dump() == before


def _player_actions() -> list[tuple[str, str, str, tuple[str, ...]]]:
    """(ruleset, action, acting field, the action's other character fields) for every
    action players may perform that has a field saying who acts."""
    found = []
    for rs in rulesets().values():
        for name, spec in sorted(rs.actions.items()):
            if Role.PLAYER not in spec.roles:
                continue
            fields = [f for f in spec.input.model_fields if f in CHARACTER_FIELDS]
            for acting in (f for f in fields if f in ACTING_FIELDS):
                found.append((rs.id, name, acting, tuple(f for f in fields if f != acting)))
    return found


@pytest.mark.parametrize(("ruleset", "action", "acting", "others"), _player_actions())
def test_a_player_naming_another_players_character_as_who_acts_is_refused(
    world: World, ruleset: str, action: str, acting: str, others: tuple[str, ...]
) -> None:
    """Every field combination: the other player's character in the field saying who
    acts, the player's own in every other character field."""
    cast = world.casts[ruleset]
    body = {f: cast.pc_own for f in others} | {acting: cast.pc_other}
    version = world.campaigns.version(cast.campaign)
    r = post(world, "player", cast.campaign, f"actions/{action}", body)
    assert r.status_code in (403, 422), r.text
    if r.status_code == 403:
        assert r.json()["error"] == "Forbidden"
    assert world.campaigns.version(cast.campaign) == version, "nothing recorded"


def test_every_actions_body_refuses_a_field_it_does_not_have(world: World) -> None:
    """Every action route refuses an unknown field (422) before anything is checked."""
    cast = world.demo
    for name in sorted(next(iter(rulesets().values())).actions):
        r = post(world, "master", cast.campaign, f"actions/{name}", {"no_such_field": 1})
        assert r.status_code == 422, (name, r.text)


# --- 3. derived fields ---------------------------------------------------------------
@pytest.fixture(scope="module")
def exposed(world: World) -> str:
    """ide4: the other player's character incubates a deadly disease (GM only)."""
    cast = world.casts["ide4-survival"]
    world.campaigns.act(
        cast.campaign, "expose", {"characters": [cast.pc_other], "disease": "black_torpor"}
    )
    return cast.campaign


@pytest.mark.parametrize("user", ["player", "player2", "healer"])
def test_an_ide4_card_tells_no_one_but_the_master_of_an_incubating_disease(
    world: World, exposed: str, user: str
) -> None:
    pc = world.casts["ide4-survival"].pc_other
    card = world.client.get(f"/api/campaigns/{exposed}/characters/{pc}",
                            headers=world.bearer(user))
    assert card.status_code == 200, card.text
    text = json.dumps(card.json(), ensure_ascii=False)
    assert "Incubating" not in text and "incubating" not in text
    assert "black_torpor" not in text and "Black Torpor" not in text
    assert card.json()["cases"] == []
    page = world.client.get(f"/c/{exposed}/ch/{pc}", headers=world.bearer(user))
    assert page.status_code == 200 and "Incubating" not in page.text


def test_the_master_still_sees_the_incubation_and_its_case(world: World, exposed: str) -> None:
    pc = world.casts["ide4-survival"].pc_other
    card = world.client.get(f"/api/campaigns/{exposed}/characters/{pc}",
                            headers=world.bearer("master")).json()
    assert "Incubating" in card["state_label"]
    assert [c["disease"] for c in card["cases"]] == ["black_torpor"]


# --- 4. action answers ---------------------------------------------------------------
def test_a_players_answer_carries_no_countdown_of_others_that_fired_first(world: World) -> None:
    """Realtime: another character's countdown is overdue when the player acts; it
    fires in the player's change, but the player's answer does not tell of it."""
    camp = world.unique("rt-")
    svc = world.campaigns
    svc.create_campaign(camp, "warhammer-larp", clock=ClockMode.REALTIME, start=START, seed=3)
    for cid in ("mine", "theirs"):
        svc.add_character(camp, Character(id=cid, name=cid.title(), hits_max=3, hits=3))
    world.accounts.add_member(world.users["player"], camp, Role.PLAYER, ("mine",))
    svc.act(camp, "lose-hits", {"character": "theirs", "hits": 2, "location": "arm"})
    svc.set_clock(camp, lambda c: c.model_copy(update={"anchor": c.now() + timedelta(hours=1)}))
    r = post(world, "player", camp, "actions/lose-hits",
             {"character": "mine", "hits": 1, "location": "leg"})
    assert r.status_code == 200, r.text
    events = r.json()["events"]
    assert events and all(e["action"] == "lose-hits" for e in events)
    assert "theirs" not in json.dumps(events)
    log = svc.events(camp, ("timer.fired",))
    assert any(e.payload["subject"] == "theirs" for e in log), "it did fire"
