"""Hidden information stays hidden in every answer (DESIGN.md, principle 6; W-DIS-05,
W-DTRT-04, W-LOOT-05): the raw text of every GET endpoint and page, and of every
read-only query, is searched for the secret values themselves, not for their keys.

The scene, in the demo LARP campaign: Boris (1002, the player's) is wounded and ill with
Bloody rot, Rustam (1001, player2's) with Grey rot; both diseases are lethal and have a
treatment course; Bloody rot is in the book of the healer's Anna (1004), not in that of
healer2's Greta (1007); a village has a hidden wealth.

=======  ==================================================================
viewer   may not see
=======  ==================================================================
player   Grey rot's penalties, course and countdown; Bloody rot's course;
         the wealth (a player reads their own sticker's penalties: W-DIS-05)
healer   any penalties or disease countdown; Grey rot's course (not in
         Anna's book); the wealth
healer2  any penalties, countdown or course; the wealth
master   (everything: and the test checks the secrets are there to find)
=======  ==================================================================
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pypdfium2
import pytest
from fastapi.routing import iter_route_contexts

from lazaretto.core.registry import get_ruleset
from lazaretto.core.ruleset import Role
from lazaretto.rulesets.warhammer_larp.diseases import DISEASE_DEATH
from tests.security.bodies import Names, body_for, form_fields
from tests.security.world import World, act, build_world

BLOODY = "BR-9"
GREY = "GX-2"
COURSES = {
    BLOODY: ["psychotherapy", "sigmar_blood", "enema", "shallya_tears", "drip", "painkiller"],
    GREY: ["inhalation", "painkiller", "operation", "sedative", "herbal_drink", "enema"],
}
WEALTH = 987654
VIEWERS = ("player", "healer", "healer2", "master")


@dataclass(frozen=True)
class Secret:
    """A hidden value and how to recognise it in any rendering of it."""

    name: str
    pattern: re.Pattern[str]


def _course_pattern(items: list[str]) -> re.Pattern[str]:
    """The course's items in order, whatever separates them (JSON, a list, escaped quotes)."""
    return re.compile(r"[^a-z]{1,40}".join(items[:3]))


def _deadline_pattern(iso: str) -> re.Pattern[str]:
    """An ISO time, or its time of day as a page shows it."""
    return re.compile(f"{re.escape(iso[:19])}|{re.escape(iso[11:19])}")


@dataclass
class Scene:
    """The world with the secrets set, and the secrets by name."""

    world: World
    secrets: dict[str, Secret]


@pytest.fixture(scope="module")
def scene(module_database_url: str) -> Iterator[Scene]:
    world = build_world(module_database_url, other_rulesets=False)
    campaign = world.demo.campaign
    for code, name, minutes in ((BLOODY, "Bloody rot", 97), (GREY, "Grey rot", 131)):
        act(world, campaign, "define-disease", code=code, name=name, symptoms=f"{name} spots",
            penalties=f"zq-penalty-{code.lower()} cannot hold a sword", lethal=True,
            minutes_to_death=minutes, course=COURSES[code])
    act(world, campaign, "infect", character="1002", disease=BLOODY)
    act(world, campaign, "infect", character="1001", disease=GREY)
    act(world, campaign, "lose-hits", character="1002", hits=1, location="left leg")
    act(world, campaign, "add-to-book", healer="1004", code=BLOODY, description="leeches")
    act(world, campaign, "register-location", id="v1", name="Ubersreik", wealth=WEALTH)
    _, state, _ = world.campaigns.load(campaign)
    secrets = {}
    for code, who in ((BLOODY, "1002"), (GREY, "1001")):
        (timer,) = state.timers_for(who, DISEASE_DEATH)
        secrets[f"{code} countdown"] = Secret(code, _deadline_pattern(timer.deadline.isoformat()))
        secrets[f"{code} penalties"] = Secret(code, re.compile(f"zq-penalty-{code.lower()}"))
        secrets[f"{code} course"] = Secret(code, _course_pattern(COURSES[code]))
    secrets["wealth"] = Secret("wealth", re.compile(r"987\D{0,6}654"))
    yield Scene(world, secrets)
    world.client.close()
    world.db.close()


HIDDEN_FROM = {
    "player": {f"{GREY} penalties", f"{GREY} countdown", f"{GREY} course", f"{BLOODY} course",
               "wealth"},
    "healer": {f"{BLOODY} penalties", f"{GREY} penalties", f"{BLOODY} countdown",
               f"{GREY} countdown", f"{GREY} course", "wealth"},
    "healer2": {f"{BLOODY} penalties", f"{GREY} penalties", f"{BLOODY} countdown",
                f"{GREY} countdown", f"{GREY} course", f"{BLOODY} course", "wealth"},
    "master": set(),
}
SHOWN_TO = {
    "player": {f"{BLOODY} penalties"},  # W-DIS-05: they read their own sticker
    "healer": {f"{BLOODY} course"},  # W-DTRT-04: it is in Anna's book
    "healer2": set(),
}
"""What each viewer must find (so the search is not looking in the wrong place)."""


def _fill(path: str, campaign: str, character: str) -> str:
    return (
        path.replace("{campaign}", campaign)
        .replace("{character}", character)
        .replace("{hospital}", "h1")
        .replace("{code}", "en")
    )


def _get_routes(world: World) -> list[str]:
    """Every GET route that answers with data (not the stream, files or docs)."""
    skip = ("/stream", "/openapi.json", "/docs", "/lang/", "/login", "/register")
    paths = []
    for route in iter_route_contexts(world.app.routes):
        path = route.path or ""
        if "GET" in (route.methods or ()) and not any(s in path for s in skip):
            paths.append(path)
    return paths


def reads(world: World, user: str) -> Iterator[tuple[str, str]]:
    """(what was read, its text) for every read ``user`` can make about 1001 and 1002."""
    campaign = world.demo.campaign
    auth = world.bearer(user)
    page = {**auth, "Accept": "text/html"}
    rs = get_ruleset("warhammer-larp")
    role = {"player": Role.PLAYER, "master": Role.MASTER}.get(user, Role.HEALER)
    healer = {"healer": "1004", "healer2": "1007"}.get(user, "1004")
    for character, code in (("1002", BLOODY), ("1001", GREY)):
        names = Names(character, healer if role is Role.HEALER else character)
        for path in _get_routes(world):
            if "{action}" in path or "{name}" in path:
                continue
            url = _fill(path, campaign, character)
            headers = auth if url.startswith("/api") else page
            yield url, _text(world.client.get(url, headers=headers, params={"q": "o"}))
        for name, spec in rs.queries.items():
            body = {**body_for(spec.input, names), **_codes(spec.input.model_fields, code)}
            url = f"/api/campaigns/{campaign}/queries/{name}"
            yield f"{url} {body}", world.client.post(url, json=body, headers=auth).text
            params = {**form_fields(body), "ask": "1"}
            url = f"/c/{campaign}/query/{name}"
            yield f"{url} {params}", world.client.get(url, params=params, headers=page).text
        for name, action in rs.actions.items():
            if role in action.roles:
                url = f"/c/{campaign}/act/{name}"
                params = {"character": character}
                yield f"{url} {params}", world.client.get(url, params=params, headers=page).text


def _codes(fields: dict[str, object], code: str) -> dict[str, str]:
    """Fields that name a disease or a sticker: the scene's disease."""
    return {f: code for f in ("code", "disease") if f in fields} | (
        {"location": "v1"} if "location" in fields else {}
    )


def _text(response: object) -> str:
    """A response's text; a PDF's extracted text."""
    from httpx import Response

    assert isinstance(response, Response)
    if response.headers.get("content-type", "").startswith("application/pdf"):
        pdf = pypdfium2.PdfDocument(io.BytesIO(response.content))
        return "\n".join(page.get_textpage().get_text_range() for page in pdf)
    return response.text


@pytest.mark.parametrize("user", VIEWERS)
def test_no_answer_shows_a_secret_to_whom_it_is_hidden_from(scene: Scene, user: str) -> None:
    world, secrets = scene.world, scene.secrets
    world.client.cookies.clear()
    leaks: list[str] = []
    seen: set[str] = set()
    for what, text in reads(world, user):
        assert "Traceback" not in text, what
        for name, secret in secrets.items():
            if secret.pattern.search(text):
                seen.add(name)
                if name in HIDDEN_FROM[user]:
                    leaks.append(f"{name} in {what}")
    assert not leaks, "\n".join(leaks)
    assert SHOWN_TO.get(user, set(secrets)) <= seen
