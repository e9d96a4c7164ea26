"""The HTTP API through a real app on SQLite and PostgreSQL: auth, roles, visibility,
idempotency, errors, the ticker and the live stream."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, text
from sqlalchemy.orm import ORMExecuteState, Session

from lazaretto.api import live
from lazaretto.api.app import create_app
from lazaretto.core.character import Character
from lazaretto.core.errors import NotFound
from lazaretto.core.events import named_in
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN, seed
from lazaretto.store.db import Database


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database(database_url)
    seed(CampaignService(database), AccountService(database))
    yield database
    database.close()


@pytest.fixture
def client(db: Database) -> Iterator[TestClient]:
    with TestClient(create_app(db, ticker=False)) as c:
        yield c


def bearer(client: TestClient, user: str) -> dict[str, str]:
    r = client.post("/api/login", json={"username": user, "password": f"{user}-demo"})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def act(client: TestClient, who: dict[str, str], action: str, **body: Any) -> Any:
    return client.post(f"/api/campaigns/{CAMPAIGN}/actions/{action}", json=body, headers=who)


def test_every_request_needs_a_login(client: TestClient) -> None:
    assert client.get("/api/campaigns").status_code == 401
    r = client.post("/api/login", json={"username": "master", "password": "wrong-one"})
    assert r.status_code == 401 and r.json()["error"] == "Unauthenticated"


def test_cookie_sessions_need_the_csrf_token_for_changes(client: TestClient) -> None:
    r = client.post("/api/login", json={"username": "master", "password": "master-demo"})
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    assert client.get(f"/api/campaigns/{CAMPAIGN}/timers").status_code == 200  # reads: fine
    body = {"character": "1006", "hits": 1}
    url = f"/api/campaigns/{CAMPAIGN}/actions/lose-hits"
    assert client.post(url, json=body).status_code == 403
    ok = client.post(url, json=body, headers={"X-CSRF-Token": r.json()["csrf"]})
    assert ok.status_code == 200


def test_a_wound_is_recorded_once_however_often_the_phone_retries(client: TestClient) -> None:
    gm = bearer(client, "master")
    key = {"Idempotency-Key": "phone-42-wound-1"}
    first = client.post(
        f"/api/campaigns/{CAMPAIGN}/actions/lose-hits",
        json={"character": "1006", "hits": 1},
        headers={**gm, **key},
    )
    again = client.post(
        f"/api/campaigns/{CAMPAIGN}/actions/lose-hits",
        json={"character": "1006", "hits": 1},
        headers={**gm, **key},
    )
    assert first.status_code == again.status_code == 200
    assert first.json()["events"] == again.json()["events"]
    card = client.get(f"/api/campaigns/{CAMPAIGN}/characters/1006", headers=gm).json()
    assert card["hits"] == 2


def test_refusals_are_json_with_rule_ids_in_the_callers_language(client: TestClient) -> None:
    gm = bearer(client, "master")
    body = {"healer": "1004", "patient": "1001", "hospital": "field", "table": "t1"}
    r = client.post(
        f"/api/campaigns/{CAMPAIGN}/actions/start-operation",
        json=body,
        headers={**gm, "Accept-Language": "ru"},
    )
    assert r.status_code == 409
    assert r.json()["rule_ids"] == ["W-TRT-06", "W-HEAL-05"]
    assert "госпитал" in r.json()["message"]
    bad = act(client, gm, "lose-hits", character="1006", hits=0)
    assert bad.status_code == 422 and bad.json()["error"] == "InvalidInput"
    assert act(client, gm, "lose-hits", character="nobody").status_code == 404


def test_a_player_acts_only_for_their_own_character(client: TestClient) -> None:
    player = bearer(client, "player")
    assert act(client, player, "lose-hits", character="1001", hits=1).status_code == 403
    assert act(client, player, "lose-hits", character="1002", hits=1).status_code == 200
    assert act(client, player, "kill", character="1002").status_code == 403  # masters only
    r = client.post(
        f"/api/campaigns/{CAMPAIGN}/clock?op=advance", json={"by": "5m"}, headers=player
    )
    assert r.status_code == 403
    assert client.get(f"/api/campaigns/{CAMPAIGN}/journal", headers=player).status_code == 403


def test_a_healer_acts_only_as_their_own_healer(client: TestClient) -> None:
    healer = bearer(client, "healer")
    body = {"healer": "1006", "patient": "1001", "bandages": 2, "mat": "mat-anna"}
    assert act(client, healer, "apply-bandage", **body).status_code == 403
    body["healer"] = "1004"
    assert act(client, healer, "apply-bandage", **body).status_code == 200


def test_disease_penalties_are_shown_only_to_masters_and_the_infected_player(
    client: TestClient,
) -> None:
    """W-DIS-05 through every API response of every role."""
    secret = "cannot run; -1 hit in combat"
    for user, sees in (("master", True), ("player", True), ("healer", False)):
        who = bearer(client, user)
        card = client.get(f"/api/campaigns/{CAMPAIGN}/characters/1002", headers=who).text
        listing = client.get(f"/api/campaigns/{CAMPAIGN}/characters", headers=who).text
        assert (secret in card) is sees, user
        assert (secret in listing) is sees, user
    outsider = bearer(client, "player")
    other = client.get(f"/api/campaigns/{CAMPAIGN}/characters/1003", headers=outsider)
    assert other.status_code == 404, "a LARP player sees no other card (player_sight: own)"
    staff = bearer(client, "healer")
    healer = client.get(f"/api/campaigns/{CAMPAIGN}/characters/1003", headers=staff).json()
    assert all(c["visibility"] != "owner" for c in healer["conditions"])


def test_unknown_campaigns_and_strangers_are_refused(client: TestClient) -> None:
    r = client.post("/api/users", json={"username": "stranger", "password": "long-enough"})
    stranger = {"Authorization": f"Bearer {r.json()['token']}"}
    assert client.get(f"/api/campaigns/{CAMPAIGN}/characters", headers=stranger).status_code == 403
    assert client.get("/api/campaigns", headers=stranger).json() == []


def test_an_invite_code_joins_once_with_its_role(client: TestClient) -> None:
    gm = bearer(client, "master")
    r = client.post(
        f"/api/campaigns/{CAMPAIGN}/invites",
        json={"role": "player", "character": "1006"},
        headers=gm,
    )
    code = r.json()["code"]
    joined = client.post(
        "/api/users", json={"username": "dima", "password": "long-enough", "invite": code}
    )
    assert joined.status_code == 201
    dima = {"Authorization": f"Bearer {joined.json()['token']}"}
    assert act(client, dima, "lose-hits", character="1006", hits=1).status_code == 200
    again = client.post("/api/join", json={"code": code}, headers=dima)
    assert again.status_code == 404  # one use


def invite(client: TestClient, role: str, character: str | None = None) -> str:
    body = {"role": role, **({"character": character} if character else {})}
    r = client.post(
        f"/api/campaigns/{CAMPAIGN}/invites", json=body, headers=bearer(client, "master")
    )
    return str(r.json()["code"])


def test_a_wrong_invite_code_creates_no_account(client: TestClient) -> None:
    """Registering with a bad code fails whole: the name stays free for the retry."""
    body = {"username": "olga", "password": "long-enough", "invite": "no-such-code"}
    assert client.post("/api/users", json=body).status_code == 409  # as for a taken name
    body["invite"] = invite(client, "player", "1006")
    joined = client.post("/api/users", json=body)
    assert joined.status_code == 201
    olga = {"Authorization": f"Bearer {joined.json()['token']}"}
    assert act(client, olga, "lose-hits", character="1006", hits=1).status_code == 200


def test_an_invite_never_changes_the_role_someone_has(client: TestClient) -> None:
    """A master who opens a player's invite stays master (and the code stays unused);
    a player's second player invite adds its character."""
    gm = bearer(client, "master")
    code = invite(client, "player", "1006")
    r = client.post("/api/join", json={"code": code}, headers=gm)
    assert (r.status_code, r.json()["error"]) == (409, "Conflict")
    assert act(client, gm, "lose-hits", character="1002", hits=1).status_code == 200
    player = bearer(client, "player")
    r = client.post("/api/join", json={"code": code}, headers=player)
    assert r.status_code == 200
    assert r.json()["role"] == "player"
    assert sorted(r.json()["characters"]) == ["1002", "1006"]
    assert act(client, player, "lose-hits", character="1006", hits=1).status_code == 200


def test_an_invite_used_by_someone_else_between_reading_and_claiming_it_is_refused(
    db: Database,
) -> None:
    """Two people typing one code at the same moment: the code is claimed only if it
    is still unused when the claim is written. Here the other person's claim lands
    just before ours (injected into our transaction); we get NotFound, not a seat."""
    accounts = AccountService(db)
    code = accounts.invite(CAMPAIGN, Role.PLAYER, "1006")
    ivan, petr = (accounts.create_user(n, "long-enough") for n in ("ivan", "petr"))

    def petr_first(state: ORMExecuteState) -> None:
        if state.is_update and not state.session.info.get("raced"):
            state.session.info["raced"] = True
            state.session.execute(
                text("UPDATE invites SET used_by = :who WHERE code = :code"),
                {"who": petr.id, "code": code},
            )

    event.listen(Session, "do_orm_execute", petr_first)
    try:
        with pytest.raises(NotFound):
            accounts.join(ivan, code)
    finally:
        event.remove(Session, "do_orm_execute", petr_first)
    assert accounts.memberships(ivan) == []


def test_the_openapi_spec_documents_every_action_with_its_input(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    path = spec["paths"]["/api/campaigns/{campaign}/actions/apply-bandage"]["post"]
    assert "requestBody" in path and "W-WND-02" in path["description"]
    assert any(p["name"] == "idempotency-key" for p in path["parameters"])


def test_the_ticker_fires_a_realtime_countdown_without_any_request(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lazaretto.api.context import Services
    from lazaretto.core import engine
    from lazaretto.service import campaigns as campaigns_module
    from lazaretto.service.play import PlayService

    campaigns = CampaignService(db)
    _, state, _ = campaigns.load(CAMPAIGN)
    assert state.clock is not None and state.clock.anchor_wall is not None
    deadline = min(t.deadline for t in state.timers.values())
    due_wall = state.clock.anchor_wall + (deadline - state.clock.anchor)
    assert campaigns.due_campaigns(due_wall - timedelta(seconds=1)) == []
    assert campaigns.due_campaigns(due_wall + timedelta(seconds=1)) == [CAMPAIGN]
    later = due_wall + timedelta(seconds=1)  # the wall clock 1 s after the deadline
    monkeypatch.setattr(engine, "wall_now", lambda: later)
    monkeypatch.setattr(campaigns_module, "wall_now", lambda: later)
    accounts = AccountService(db)
    svc = Services(campaigns, accounts, PlayService(campaigns, accounts))

    async def one_tick() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(live.ticker(svc, stop))
        await asyncio.sleep(0.5)
        stop.set()
        await task

    asyncio.run(one_tick())
    _, after, _ = campaigns.load(CAMPAIGN)
    assert all(t.deadline > deadline for t in after.timers.values())
    # the first countdown due was Dmitri's post-operation rest: he is cured (W-TRT-14)
    assert after.characters["1003"].hits == 3 and not after.characters["1003"].conditions


def test_pages_and_lists_are_sent_compressed_to_a_browser_that_accepts_it(
    client: TestClient, db: Database
) -> None:
    """A phone on the field Wi-Fi: the campaign overview of many characters goes out
    gzip-compressed, a small answer as it is."""
    campaigns = CampaignService(db)
    for i in range(200):
        extra = Character(id=f"x{i}", name=f"Extra {i}", hits_max=3, hits=3)
        campaigns.add_character(CAMPAIGN, extra)
    gm = {**bearer(client, "master"), "Accept-Encoding": "gzip"}
    overview = client.get(f"/c/{CAMPAIGN}", headers=gm)
    assert overview.headers["content-encoding"] == "gzip"
    assert overview.num_bytes_downloaded * 4 < len(overview.content)
    assert "Extra 199" in overview.text
    listed = client.get(f"/api/campaigns/{CAMPAIGN}/characters", headers=gm)
    assert listed.headers["content-encoding"] == "gzip" and len(listed.json()) > 200
    small = client.get("/api/campaigns", headers=gm)  # one campaign: under a packet
    assert small.status_code == 200 and "content-encoding" not in small.headers


def test_the_event_log_is_read_a_page_at_a_time(client: TestClient, db: Database) -> None:
    """A weekend's log is tens of thousands of events: a script pages through it with
    ``after`` and ``limit`` and gets every event once, in order."""
    gm = bearer(client, "master")
    url = f"/api/campaigns/{CAMPAIGN}/events"
    stored = [e.seq for e in CampaignService(db).events(CAMPAIGN)]
    assert len(stored) > 20
    pages: list[list[int]] = []
    after = 0
    while True:
        page = client.get(url, params={"after": after, "limit": 7}, headers=gm).json()
        pages.append([e["seq"] for e in page])
        if len(page) < 7:
            break
        after = page[-1]["seq"]
    assert [seq for page in pages for seq in page] == stored
    assert all(len(page) == 7 for page in pages[:-1])
    assert client.get(url, params={"limit": 0}, headers=gm).status_code == 422
    everything = client.get(url, params={"limit": 10_000}, headers=gm).json()
    assert [e["seq"] for e in everything] == stored
    borises = client.get(url, params={"about": "1002"}, headers=gm).json()
    assert borises and all("1002" in str(e["payload"]) for e in borises)
    assert len(borises) == sum("1002" in (named_in(e["payload"]) or ()) for e in everything)


def test_the_stream_announces_changes(client: TestClient) -> None:
    gm = bearer(client, "master")
    with client.stream(
        "GET", f"/api/campaigns/{CAMPAIGN}/stream", headers={**gm, "Accept-Encoding": "gzip"}
    ) as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        assert "content-encoding" not in r.headers  # compressing would hold events back
        lines = []
        for line in r.iter_lines():
            lines.append(line)
            if line.startswith("data:"):
                break
    assert "event: changed" in lines


def test_a_healer_sees_a_patients_disease_symptoms_but_not_its_penalties_or_timer(
    client: TestClient,
) -> None:
    """W-DIS-05: healers diagnose from the symptoms; penalties stay hidden."""
    healer = bearer(client, "healer")
    card = client.get(f"/api/campaigns/{CAMPAIGN}/characters/1002", headers=healer).json()
    disease = next(c for c in card["conditions"] if c["kind"] == "disease")
    assert disease["disease"]["symptoms"] == "cough, shiver"
    assert "penalties" not in disease["disease"] and disease["deadline"] is None


def test_queries_are_asked_only_about_ones_own_characters(client: TestClient) -> None:
    player = bearer(client, "player")
    url = f"/api/campaigns/{CAMPAIGN}/queries/next-change"
    assert client.post(url, json={"character": "1002"}, headers=player).status_code == 200
    assert client.post(url, json={"character": "1001"}, headers=player).status_code == 403


def test_repeated_failed_logins_are_slowed_down(client: TestClient) -> None:
    for _ in range(5):
        r = client.post("/api/login", json={"username": "healer", "password": "guess-guess"})
        assert r.status_code == 401
    r = client.post("/api/login", json={"username": "healer", "password": "healer-demo"})
    assert r.status_code == 429 and r.json()["error"] == "TooManyAttempts"
    other = client.post("/api/login", json={"username": "player", "password": "player-demo"})
    assert other.status_code == 200
