"""Sending one request as one kind of caller, and judging the answer against a policy.

A *viewer* is a user plus which characters they name: the player naming their own
character or player2's, the healer naming their own healer character or healer2's.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from lazaretto.api.context import COOKIE
from lazaretto.core.ruleset import Role
from tests.security.bodies import Names
from tests.security.world import Cast, World


class Viewer(enum.Enum):
    """Who calls, and whose characters they name."""

    ANONYMOUS = "anonymous"
    OUTSIDER = "outsider"  # master of another campaign
    PLAYER_OWN = "player-own"
    PLAYER_OTHER = "player-other"  # the player naming player2's character
    HEALER_OWN = "healer-own"
    HEALER_OTHER = "healer-other"  # the healer naming healer2's healer character
    MASTER = "master"
    FORGED = "forged"  # the master's cookie on a cross-site form: no CSRF token

    @property
    def user(self) -> str | None:
        """The logged-in user (None: nobody)."""
        return {
            Viewer.ANONYMOUS: None,
            Viewer.OUTSIDER: "outsider",
            Viewer.PLAYER_OWN: "player",
            Viewer.PLAYER_OTHER: "player",
            Viewer.HEALER_OWN: "healer",
            Viewer.HEALER_OTHER: "healer",
            Viewer.MASTER: "master",
            Viewer.FORGED: "master",
        }[self]

    @property
    def role(self) -> Role | None:
        """The viewer's role in the world's campaigns (None: none at all)."""
        if self in (Viewer.PLAYER_OWN, Viewer.PLAYER_OTHER):
            return Role.PLAYER
        if self in (Viewer.HEALER_OWN, Viewer.HEALER_OTHER):
            return Role.HEALER
        return Role.MASTER if self in (Viewer.MASTER, Viewer.FORGED) else None

    def names(self, cast: Cast) -> Names:
        """The characters this viewer puts in a request about ``cast``'s campaign."""
        if self is Viewer.PLAYER_OWN:
            return Names(cast.pc_own, cast.pc_own)
        if self is Viewer.PLAYER_OTHER:
            return Names(cast.pc_other, cast.pc_other)
        if self is Viewer.HEALER_OTHER:
            return Names(cast.pc_own, cast.doc_other)
        return Names(cast.pc_own, cast.doc_own)


class Outcome(enum.Enum):
    """What a policy expects of one request."""

    OK = "served (2xx/3xx)"
    PASS = "let through (the rules may still refuse: never 401/403)"
    LOGIN = "asked to log in (401, or a page's redirect to the login form)"
    DENY = "refused (403)"
    HIDDEN = "refused as not found (404): a character the caller may not know of"


@dataclass(frozen=True)
class Result:
    """What came back."""

    status: int
    text: str
    location: str = ""

    @property
    def to_login(self) -> bool:
        """A page's redirect to the login form (and back)."""
        return self.status in (302, 303, 307) and self.location.startswith("/login?next=")


def judge(outcome: Outcome, result: Result, *, page: bool) -> str | None:
    """Why ``result`` is not ``outcome`` (None if it is)."""
    if "Traceback" in result.text or result.status >= 500:
        return f"server error {result.status}: {result.text[:200]}"
    ok = {
        Outcome.OK: 200 <= result.status < 400 and not result.to_login,
        Outcome.PASS: result.status not in (401, 403) and not result.to_login,
        Outcome.LOGIN: result.to_login if page else result.status == 401,
        Outcome.DENY: result.status == 403,
        Outcome.HIDDEN: result.status == 404,
    }[outcome]
    if ok:
        return None
    return f"expected {outcome.name}, got {result.status} {result.location} {result.text[:160]!r}"


def send(
    world: World,
    viewer: Viewer,
    method: str,
    url: str,
    *,
    page: bool,
    json: Any = None,
    form: dict[str, str] | None = None,
    params: dict[str, str] | None = None,
    token: str | None = None,
) -> Result:
    """One request as ``viewer`` (with ``token`` instead of their standing session's).

    Callers send their bearer token, and a form gets their CSRF token, as the page that
    rendered it would have; the forged viewer sends the master's cookie and no token.
    """
    headers = _auth(world, viewer, token)
    if page:
        headers["Accept"] = "text/html"
    user = viewer.user
    if form is not None and user is not None and viewer is not Viewer.FORGED:
        form = {"csrf": world.sessions[user].csrf, **form}
    r = world.client.request(
        method,
        url,
        json=json,
        data=form,
        params=params,
        headers=headers,
        follow_redirects=False,
    )
    return Result(r.status_code, r.text, r.headers.get("location", ""))


def stream(world: World, viewer: Viewer, url: str) -> Result:
    """Open a server-sent event stream, read up to the first event, and hang up."""
    with world.client.stream("GET", url, headers=_auth(world, viewer, None)) as r:
        if r.status_code != 200:
            return Result(r.status_code, r.read().decode())
        lines = []
        for line in r.iter_lines():
            lines.append(line)
            if line.startswith("data:"):
                break
        return Result(200, "\n".join(lines))


def _auth(world: World, viewer: Viewer, token: str | None) -> dict[str, str]:
    """Clear the cookie jar and authenticate as ``viewer``: headers to send."""
    world.client.cookies.clear()
    if viewer.user is None:
        return {}
    token = token or world.sessions[viewer.user].token
    if viewer is Viewer.FORGED:
        world.client.cookies.set(COOKIE, token)
        return {}
    return {"Authorization": f"Bearer {token}"}
