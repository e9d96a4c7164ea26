"""How the authorization matrix calls each route that is not generated from a ruleset:
its path filled in for the viewer, and a body that the route would accept from someone
allowed to call it (a fresh session for a logout, a fresh invite code for a join...)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from lazaretto.core.character import Character
from tests.security.calls import Result, Viewer, send, stream
from tests.security.world import Cast, World, password

Call = Callable[[World, Viewer, Cast], Result]


def fill(path: str, viewer: Viewer, cast: Cast) -> str:
    """``path`` with its parameters: the cast's campaign, the viewer's character..."""
    names = viewer.names(cast)
    return (
        path.replace("{campaign}", cast.campaign)
        .replace("{character}", names.subject)
        .replace("{hospital}", "h1")
        .replace("{code}", "ru")
    )


def get(path: str, params: dict[str, str] | None = None) -> Call:
    """A plain GET (a page's unless the path is the API's)."""

    def call(world: World, viewer: Viewer, cast: Cast) -> Result:
        page = not path.startswith("/api")
        return send(world, viewer, "GET", fill(path, viewer, cast), page=page, params=params)

    return call


def _api_post(path: str, body: Callable[[World], dict[str, Any]], query: str = "") -> Call:
    def call(world: World, viewer: Viewer, cast: Cast) -> Result:
        url = fill(path, viewer, cast) + query
        return send(world, viewer, "POST", url, page=False, json=body(world))

    return call


def _void(page: bool) -> Call:
    """Undo a record of the master's, made before the first (anonymous) call: only
    the master's own call may take it back (the API's void, or the page's Undo)."""
    made: dict[str, int] = {}

    def call(world: World, viewer: Viewer, cast: Cast) -> Result:
        if viewer is Viewer.ANONYMOUS or cast.campaign not in made:
            added = world.campaigns.add_character(
                cast.campaign, Character(id=world.unique("u"), name="Undone", hits_max=1, hits=1)
            )
            made[cast.campaign] = int(getattr(added, "record", 0) or 0)
        no = made[cast.campaign]
        if page:
            url = f"/c/{cast.campaign}/records/{no}/undo"
            return send(world, viewer, "POST", url, page=True, form={})
        url = f"/api/campaigns/{cast.campaign}/records/{no}/void"
        return send(world, viewer, "POST", url, page=False, json={})

    return call


def _page_post(path: str, form: Callable[[World], dict[str, str]]) -> Call:
    def call(world: World, viewer: Viewer, cast: Cast) -> Result:
        return send(world, viewer, "POST", fill(path, viewer, cast), page=True, form=form(world))

    return call


def _page_outbox(world: World, viewer: Viewer, cast: Cast) -> Result:
    """The page's outbox (static/outbox.js): each tap a form with the session's CSRF
    token (the forged viewer's has none); the tap names no action of the ruleset."""
    fields = {"idem": world.unique("k")}
    if viewer.user is not None and viewer is not Viewer.FORGED:
        fields["csrf"] = world.sessions[viewer.user].csrf
    taps = [{"action": "no-such-action", "body": urlencode(fields)}]
    url = fill("/c/{campaign}/outbox", viewer, cast)
    return send(world, viewer, "POST", url, page=True, json={"taps": taps})


def _logout(page: bool) -> Call:
    """Log out a session made for the purpose (the viewer's standing one stays)."""

    def call(world: World, viewer: Viewer, cast: Cast) -> Result:
        token, form = None, {}
        if viewer.user is not None:
            fresh = world.fresh_session(viewer.user)
            token = fresh.token
            if viewer is not Viewer.FORGED:
                form = {"csrf": fresh.csrf}
        if page:
            return send(world, viewer, "POST", "/logout", page=True, form=form, token=token)
        return send(world, viewer, "POST", "/api/logout", page=False, token=token)

    return call


def _pre_form(path: str, form: Callable[[World], dict[str, str]]) -> Call:
    """The login and register forms: fetch the form (its one-off token), then post it;
    a forged post has no token."""

    def call(world: World, viewer: Viewer, cast: Cast) -> Result:
        world.client.cookies.clear()
        shown = world.client.get(path, headers={"Accept": "text/html"})
        pre = shown.text.split('name="pre" value="', 1)[1].split('"', 1)[0]
        data = form(world) if viewer is Viewer.FORGED else {**form(world), "pre": pre}
        r = world.client.post(path, data=data, follow_redirects=False,
                              headers={"Accept": "text/html"})
        return Result(r.status_code, r.text, r.headers.get("location", ""))

    return call


def _login_form(world: World) -> dict[str, str]:
    return {"username": "player2", "password": password("player2")}


def _new_user(world: World) -> dict[str, str]:
    return {"username": world.unique("newcomer"), "password": "long-enough-1"}


def _gm_screen(world: World, viewer: Viewer, cast: Cast) -> Result:
    """The GM screen is a tabletop campaign's: called on the dnd5e one for the demo."""
    if cast.campaign == world.demo.campaign:
        cast = world.casts.get("dnd5e-injuries", cast)
    return get("/c/{campaign}/gm")(world, viewer, cast)


def _sticker_sheet(world: World, viewer: Viewer, cast: Cast) -> Result:
    """A sheet of the demo's one sticker (a made-up campaign gets the same request)."""
    stickers = getattr(world.campaigns.load(world.demo.campaign)[1], "stickers", {})
    codes = " ".join(sorted(stickers)[:1])
    return get("/c/{campaign}/print/stickers.pdf", {"codes": codes})(world, viewer, cast)


CALLS: dict[str, Call] = {
    "MOUNT /docs-assets": get("/docs-assets/swagger-ui.css"),
    "MOUNT /static": get("/static/app.css"),
    "POST /api/login": _api_post("/api/login", _login_form),
    "POST /api/users": _api_post("/api/users", _new_user),
    "POST /api/logout": _logout(page=False),
    "POST /api/join": _api_post("/api/join", lambda w: {"code": w.invite_code()}),
    "POST /api/campaigns": _api_post(
        "/api/campaigns", lambda w: {"name": w.unique("made-"), "ruleset": "warhammer-larp"}
    ),
    "POST /api/campaigns/{campaign}/invites": _api_post(
        "/api/campaigns/{campaign}/invites", lambda w: {"role": "player"}
    ),
    "POST /api/campaigns/{campaign}/characters": _api_post(
        "/api/campaigns/{campaign}/characters", lambda w: {"id": w.unique("x"), "name": "Extra"}
    ),
    "POST /api/campaigns/{campaign}/characters/import": _api_post(
        "/api/campaigns/{campaign}/characters/import",
        lambda w: {"format": "csv", "text": f"id,name\n{w.unique('i')},Imported\n"},
    ),
    "POST /api/campaigns/{campaign}/clock": _api_post(
        "/api/campaigns/{campaign}/clock", lambda w: {"by": "1s"}, "?op=advance"
    ),
    "POST /api/campaigns/{campaign}/outbox": _api_post(  # each tap as its own request:
        # tests/e2e/test_api_outbox.py; here the route itself
        "/api/campaigns/{campaign}/outbox",
        lambda w: {"taps": [{"action": "no-such-action", "key": w.unique("k")}]},
    ),
    "POST /api/campaigns/{campaign}/records/{record}/void": _void(page=False),
    "POST /c/{campaign}/records/{record}/undo": _void(page=True),
    "POST /c/{campaign}/outbox": _page_outbox,
    "GET /api/campaigns/{campaign}/stream": lambda w, v, c: stream(
        w, v, fill("/api/campaigns/{campaign}/stream", v, c)
    ),
    "POST /login": _pre_form("/login", _login_form),
    "POST /logout": _logout(page=True),
    "POST /register": _pre_form("/register", _new_user),
    "POST /join": _page_post("/join", lambda w: {"code": w.invite_code()}),
    "GET /lang/{code}": get("/lang/{code}", {"next": "/"}),
    "GET /c/{campaign}/find": get("/c/{campaign}/find", {"q": "Bo"}),
    "POST /c/{campaign}/clock": _page_post("/c/{campaign}/clock", lambda w: {"op": "advance",
                                                                            "by": "1s"}),
    "POST /c/{campaign}/invite": _page_post("/c/{campaign}/invite", lambda w: {"role": "player"}),
    "POST /c/{campaign}/gm/clock": _page_post("/c/{campaign}/gm/clock", lambda w: {"by": "1s"}),
    "POST /new": _page_post(
        "/new", lambda w: {"ruleset": "dnd5e-injuries", "name": w.unique("web-"), "clock": "manual"}
    ),
    "POST /c/{campaign}/roster/add": _page_post(
        "/c/{campaign}/roster/add", lambda w: {"id": w.unique("r"), "name": "Extra"}
    ),
    "POST /c/{campaign}/roster/import": _page_post(
        "/c/{campaign}/roster/import", lambda w: {"text": "id,name\nz1,Zed", "step": "preview"}
    ),
    "POST /c/{campaign}/outbreak": _page_post(
        "/c/{campaign}/outbreak", lambda w: {"carrier": "1001", "place": "building"}
    ),
    "POST /c/{campaign}/epidemics/wave": _page_post(
        "/c/{campaign}/epidemics/wave", lambda w: {"epidemic": "epi-1", "met": "1001"}
    ),
    "GET /c/{campaign}/gm": _gm_screen,
    "GET /c/{campaign}/print/stickers.pdf": _sticker_sheet,
}
