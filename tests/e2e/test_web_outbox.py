"""The phone's outbox sends its waiting taps at once (``POST /c/{campaign}/outbox``,
issue 25): each tap is the url-encoded form a browser would have posted, checked and
answered as that form would be; a stale page, a body that is not an outbox or one too
long is refused whole and records nothing. Through the real app (the browser's side:
tests/e2e/test_web_offline.py)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

import pytest
from fastapi.testclient import TestClient
from tests.e2e.test_web_pages import form_of
from tests.e2e.webtools import C, Login

from lazaretto.service.demo import CAMPAIGN
from lazaretto.service.play import OUTBOX_MAX

JSON = {"Accept": "application/json", "Content-Type": "application/json"}


def _taps(client: TestClient, *who: str) -> list[dict[str, str]]:
    """A −1 hit form per character, as the page renders it (each its own key)."""
    taps = []
    for n, character in enumerate(who):
        _, fields = form_of(client.get(f"{C}/act/lose-hits?character=1006").text)
        fields = {**fields, "character": character, "idem": f"{fields['idem']}-{n}"}
        taps.append({"action": "lose-hits", "body": urlencode(fields)})
    return taps


def _send(client: TestClient, body: Any) -> Any:
    return client.post(f"{C}/outbox", content=json.dumps(body), headers=JSON)


def _hits(client: TestClient) -> int:
    return len([r for r in client.get(f"/api/campaigns/{CAMPAIGN}/records").json()
                if r["action"] == "lose-hits"])


@pytest.mark.parametrize(("lang", "words"), [("en", "No character"), ("ru", "Нет персонажа")])
def test_each_tap_is_answered_as_its_form_and_a_bad_one_alone(
    login: Login, lang: str, words: str
) -> None:
    healer = login("healer")
    healer.get(f"/lang/{lang}?next=/")
    before = _hits(healer)
    r = _send(healer, {"taps": _taps(healer, "1006", "nobody", "1006")})
    assert r.status_code == 200, r.text
    first, bad, third = r.json()["answers"]
    assert (first["status"], third["status"]) == (200, 200)
    assert first["go"] == f"{C}/ch/1006" and first["lines"] and third["record"] > first["record"]
    assert bad["status"] == 404 and words in bad["error"]
    assert _hits(healer) == before + 2


def test_a_stale_page_or_no_outbox_is_refused_whole(login: Login) -> None:
    healer = login("healer")
    before = _hits(healer)
    stale = _taps(healer, "1006")
    stale[0]["body"] = stale[0]["body"].replace("csrf=", "csrf=stale")
    assert _send(healer, {"taps": stale}).status_code == 403
    assert _send(healer, {"taps": "not a list"}).status_code == 422
    assert _send(healer, [1, 2]).status_code == 422
    too_many = _send(healer, {"taps": _taps(healer, *["1006"] * (OUTBOX_MAX + 1))})
    assert too_many.status_code == 422 and str(OUTBOX_MAX) in too_many.json()["message"]
    assert _hits(healer) == before
