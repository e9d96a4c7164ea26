"""A phone's waiting taps in one request (issue 25): ``POST …/outbox``. Each tap is
recorded once at its own time or refused alone, in the caller's language, answered as
its own request to the action's endpoint would be; a retried outbox doubles nothing;
a tap that cannot be queued holds back those after it, so the order is kept. Through
the real app on SQLite and PostgreSQL (the fixtures of test_api_late)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.e2e import test_api_late as late
from tests.e2e.test_api_late import FIELD, login, records

from lazaretto.core.errors import TooBusy
from lazaretto.service.play import OUTBOX_MAX, PlayService

db, client = late.db, late.client  # the fixtures: the same campaigns

WOUND = {"character": "B", "hits": 1, "location": "arm"}
BANDAGE = {"healer": "A", "patient": "B", "bandages": 1, "mat": "mat-A"}


def _now(client: TestClient, who: dict[str, str]) -> datetime:
    (listed,) = [c for c in client.get("/api/campaigns", headers=who).json() if c["id"] == FIELD]
    return datetime.fromisoformat(listed["now"])


def _tap(key: str, action: str, body: dict[str, Any], at: datetime | None) -> dict[str, Any]:
    tap: dict[str, Any] = {"action": action, "input": body, "key": key}
    if at is not None:
        tap["at"] = at.replace(microsecond=0).isoformat()
    return tap


def send(client: TestClient, who: dict[str, str], taps: list[dict[str, Any]]) -> Any:
    return client.post(f"/api/campaigns/{FIELD}/outbox", json={"taps": taps}, headers=who)


@pytest.mark.parametrize(("lang", "words"), [("en", "No character"), ("ru", "Нет персонажа")])
def test_an_outbox_is_placed_at_its_times_and_a_bad_tap_is_refused_alone(
    client: TestClient, lang: str, words: str
) -> None:
    """A wound 12 minutes back, a tap naming nobody, the bandage of that wound 10
    minutes back: the wound and the bandage are recorded at their times (the bandage
    needed the wound before it), the middle one refused in the caller's language; sent
    again with the same keys, the same answers and no new record."""
    anna = login(client, "anna", lang)
    now = _now(client, anna)
    taps = [
        _tap("w1", "lose-hits", WOUND, now - timedelta(minutes=12)),
        _tap("x1", "lose-hits", {**WOUND, "character": "nobody"}, now - timedelta(minutes=11)),
        _tap("b1", "apply-bandage", BANDAGE, now - timedelta(minutes=10)),
    ]
    before = len(records(client, anna, FIELD))
    r = send(client, anna, taps)
    assert r.status_code == 200, r.text
    wound, nobody, bandage = r.json()["answers"]
    assert [a["key"] for a in (wound, nobody, bandage)] == ["w1", "x1", "b1"]
    assert (wound["status"], bandage["status"]) == (200, 200)
    assert nobody["status"] == 404 and words in nobody["message"] and nobody["record"] is None
    assert "wound.bandaged" in [e["kind"] for e in bandage["events"]]
    placed = {x["record"]: x for x in records(client, anna, FIELD)}
    assert len(placed) == before + 2
    assert placed[wound["record"]]["at"] == taps[0]["at"]
    assert placed[bandage["record"]]["at"] == taps[2]["at"]
    again = send(client, anna, taps)
    assert again.status_code == 200, again.text
    assert [(a["status"], a["record"]) for a in again.json()["answers"]] == [
        (200, wound["record"]), (404, None), (200, bandage["record"])
    ]
    assert len(records(client, anna, FIELD)) == before + 2


def test_a_tap_beyond_the_late_window_is_refused_and_the_next_goes_through(
    client: TestClient,
) -> None:
    """late_record_minutes is 30: Anna's tap of 31 minutes back is refused (403, in
    Russian), the one of 20 minutes back after it is recorded."""
    anna = login(client, "anna", "ru")
    now = _now(client, anna)
    r = send(client, anna, [_tap("far", "lose-hits", WOUND, now - timedelta(minutes=31)),
                            _tap("near", "lose-hits", WOUND, now - timedelta(minutes=20))])
    far, near = r.json()["answers"]
    assert (far["status"], far["error"]) == (403, "Forbidden")
    assert "больше 30 мин назад" in far["message"]
    assert near["status"] == 200 and near["record"] is not None


def test_a_tap_that_cannot_be_queued_holds_back_the_ones_after_it(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The third tap of four finds no turn (the caller has too many changes waiting):
    it is answered 429 and so is the fourth, though there is a turn again by then, so
    the order is kept; sent later, the two are recorded after the first two, in order."""
    turns = 0
    real = PlayService._take_turn

    def take(self: PlayService, user: Any) -> None:
        nonlocal turns
        turns += 1
        if turns == 3:
            raise TooBusy("too many", ru="слишком много")
        real(self, user)

    monkeypatch.setattr(PlayService, "_take_turn", take)
    gm = login(client, "gm")
    now = _now(client, gm)
    taps = [_tap(f"t{i}", "lose-hits", {**WOUND, "character": "BA"[i % 2]},
                 now - timedelta(minutes=9 - i)) for i in range(4)]
    before = len(records(client, gm, FIELD))
    answers = send(client, gm, taps).json()["answers"]
    assert [a["status"] for a in answers] == [200, 200, 429, 429]
    assert turns == 3  # the fourth was not tried
    assert len(records(client, gm, FIELD)) == before + 2
    rest = send(client, gm, taps[2:]).json()["answers"]
    assert [a["status"] for a in rest] == [200, 200]
    assert answers[1]["record"] < rest[0]["record"] < rest[1]["record"]


def test_an_outbox_too_long_or_not_ones_own_is_refused_whole(client: TestClient) -> None:
    """More than OUTBOX_MAX taps: 422 and nothing recorded; a campaign the caller is
    not in: refused before any tap is looked at."""
    gm = login(client, "gm")
    now = _now(client, gm)
    before = len(records(client, gm, FIELD))
    many = [_tap(f"m{i}", "lose-hits", WOUND, now) for i in range(OUTBOX_MAX + 1)]
    assert send(client, gm, many).status_code == 422
    assert len(records(client, gm, FIELD)) == before
    r = client.post("/api/campaigns/paper-log/outbox", headers=login(client, "anna"),
                    json={"taps": [_tap("p", "lose-hits", WOUND, None)]})
    assert r.status_code in (403, 404) and "answers" not in r.json()
