"""Who may call what: every route of the app, API and pages, GET and POST, called by every
kind of caller, against the policy table below (DESIGN.md, principle 6).

The routes come from the app itself, so a route added without a line in POLICY fails
here: nobody adds an unguarded endpoint by accident. The callers are an anonymous
visitor, the master of another campaign, the player naming their own character and
player2's, the healer naming their own healer character and healer2's, the master, and
a forged request: the master's session cookie without the CSRF token, as a cross-site
form would send it (refused for every POST but those in CSRF_EXEMPT, changing nothing).

The action and query endpoints are generated from the rulesets' declarations, so their
policy is the declaration itself (the roles an action names) plus who may be named as
its actor (:func:`actor_outcome`); each is called on a campaign of a ruleset that has it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields, replace
from fnmatch import fnmatch
from functools import partial
from typing import Any

import pytest
from fastapi.routing import iter_route_contexts
from starlette.routing import Mount

from lazaretto.api.app import create_app
from lazaretto.core.registry import rulesets
from lazaretto.core.ruleset import Role
from lazaretto.store.db import Database
from tests.security.bodies import body_for, form_fields, named_characters
from tests.security.calls import Outcome, Result, Viewer, judge, send
from tests.security.routes import CALLS, get
from tests.security.world import Cast, World

OK, PASS, LOGIN, DENY, HIDDEN = (
    Outcome.OK, Outcome.PASS, Outcome.LOGIN, Outcome.DENY, Outcome.HIDDEN
)
DECLARED = "declared"  # PASS if the action or query declares the caller's role, else DENY
ACTOR = "actor"  # DECLARED, and the caller names only characters they may act for
Expect = Outcome | str


@dataclass(frozen=True)
class Rule:
    """The outcome for each kind of caller."""

    anonymous: Expect
    outsider: Expect
    player_own: Expect
    player_other: Expect
    healer_own: Expect
    healer_other: Expect
    master: Expect

    def expect(self, viewer: Viewer, key: str) -> Expect:
        """The outcome for ``viewer`` calling route ``key``: a forged call is the master's
        call without the CSRF token, refused unless the route is exempt."""
        if viewer is Viewer.FORGED:
            exempt = any(fnmatch(key, p) for p in CSRF_EXEMPT)
            return DENY if key.startswith("POST ") and not exempt else self.master
        by_name: dict[str, Expect] = {f.name: getattr(self, f.name) for f in fields(self)}
        return by_name[viewer.value.replace("-", "_")]


# fmt: off
#                anonymous outsider player_own player_other healer_own healer_other master
PUBLIC = Rule(   OK,       OK,      OK,        OK,          OK,        OK,          OK)
USERS = Rule(    LOGIN,    OK,      OK,        OK,          OK,        OK,          OK)
MEMBERS = Rule(  LOGIN,    DENY,    OK,        OK,          OK,        OK,          OK)
SIGHTED = Rule(  LOGIN,    DENY,    OK,        HIDDEN,      OK,        OK,          OK)
STAFF = Rule(    LOGIN,    DENY,    DENY,      DENY,        OK,        OK,          OK)
MASTERS = Rule(  LOGIN,    DENY,    DENY,      DENY,        DENY,      DENY,        OK)
FORMS = Rule(    LOGIN,    DENY,    DECLARED,  DECLARED,    DECLARED,  DECLARED,    DECLARED)
ACTIONS = Rule(  LOGIN,    DENY,    ACTOR,     ACTOR,       ACTOR,     ACTOR,       ACTOR)
MASTER_ACTS = Rule(LOGIN,  DENY,    DENY,      DENY,        DENY,      DENY,        PASS)
# another's record to undo is answered as a missing one (issue 28 L5)
UNDO = Rule(     LOGIN,    DENY,    HIDDEN,    HIDDEN,      HIDDEN,    HIDDEN,      OK)
# fmt: on

POLICY: dict[str, Rule] = {
    # documentation and assets: public (the field site has no internet)
    "GET /openapi.json": PUBLIC,
    "GET /docs": PUBLIC,
    "MOUNT /docs-assets": PUBLIC,
    "MOUNT /static": PUBLIC,
    "GET /sw.js": PUBLIC,  # the offline worker: static, the same for everyone
    # accounts: anyone may log in or register; the rest needs a session
    "POST /api/login": PUBLIC,
    "POST /api/users": PUBLIC,
    "POST /api/logout": USERS,
    "POST /api/join": USERS,
    "GET /api/campaigns": USERS,
    "POST /api/campaigns": USERS,  # whoever creates a campaign is its master
    # a campaign: members see it (cards filtered by role: test_hidden_fields.py); a
    # LARP player (the demo's player_sight: own) is told player2's character does not
    # exist (SIGHTED: test_player_sight.py)
    "POST /api/campaigns/{campaign}/invites": MASTERS,
    "GET /api/campaigns/{campaign}/characters": MEMBERS,
    "GET /api/campaigns/{campaign}/names": MEMBERS,
    "GET /api/campaigns/{campaign}/characters/{character}": SIGHTED,
    "POST /api/campaigns/{campaign}/characters": MASTERS,
    "POST /api/campaigns/{campaign}/characters/import": MASTERS,
    # the characters' medical outcome after the game, for the masters' spreadsheet
    "GET /api/campaigns/{campaign}/export/characters": MASTERS,
    "GET /api/campaigns/{campaign}/timers": STAFF,
    "GET /api/campaigns/{campaign}/journal": STAFF,
    "GET /api/campaigns/{campaign}/events": MASTERS,
    # the history: a master undoes anyone's record, others only their own (a fresh
    # record of the master's here); records are listed to members (others see their
    # own); all corrections only to masters (others ask about one character)
    "POST /api/campaigns/{campaign}/records/{record}/void": UNDO,
    "GET /api/campaigns/{campaign}/records": MEMBERS,
    "GET /api/campaigns/{campaign}/corrections": MASTERS,
    "GET /api/campaigns/{campaign}/actions": MEMBERS,
    "POST /api/campaigns/{campaign}/clock": MASTERS,
    "GET /api/campaigns/{campaign}/stream": MEMBERS,
    "POST /api/campaigns/{campaign}/actions/*": ACTIONS,
    # a phone's waiting taps at once: the campaign's members; each tap then obeys its
    # action's line above (tests/e2e/test_api_outbox.py, test_acting_for_others.py)
    "POST /api/campaigns/{campaign}/outbox": MEMBERS,
    "POST /api/campaigns/{campaign}/queries/*": ACTIONS,
    # pages
    "GET /": USERS,
    "GET /login": PUBLIC,
    "POST /login": PUBLIC,
    "POST /logout": USERS,
    "GET /register": PUBLIC,
    "POST /register": PUBLIC,
    "GET /join": USERS,
    "POST /join": USERS,
    "GET /lang/{code}": PUBLIC,
    "GET /c/{campaign}": MEMBERS,
    "GET /c/{campaign}/find": MEMBERS,
    # the phone's outbox sends waiting taps at once: members; each tap is its form's
    # (tests/e2e/test_web_offline.py)
    "POST /c/{campaign}/outbox": MEMBERS,
    "GET /c/{campaign}/ch/{character}": SIGHTED,
    "GET /c/{campaign}/ch/{character}/passport": SIGHTED,
    "POST /c/{campaign}/clock": MASTERS,
    "POST /c/{campaign}/records/{record}/undo": UNDO,  # (a master's record: see routes.py)
    "POST /c/{campaign}/invite": MASTERS,
    "GET /c/{campaign}/hospital/{hospital}": STAFF,
    "GET /c/{campaign}/journal": STAFF,
    "GET /c/{campaign}/journal.csv": STAFF,
    "GET /c/{campaign}/journal.pdf": STAFF,
    # the characters' outcomes (the API's export, for a spreadsheet): masters', as the API
    "GET /c/{campaign}/outcomes.csv": MASTERS,
    "GET /c/{campaign}/timers": STAFF,
    "GET /c/{campaign}/actions": MEMBERS,
    "GET /c/{campaign}/queries": MEMBERS,
    "GET /c/{campaign}/act/{action}": FORMS,
    "POST /c/{campaign}/act/{action}": ACTIONS,
    "GET /c/{campaign}/query/{name}": ACTIONS,
    # a GM starts from the web: anyone logged in creates a campaign (and is its master);
    # the roster, the GM screen, printing and the LARP master screens are masters'
    "GET /new": USERS,
    "POST /new": USERS,
    "GET /c/{campaign}/roster": MASTERS,
    "POST /c/{campaign}/roster/add": MASTERS,
    "POST /c/{campaign}/roster/import": MASTERS,
    "GET /c/{campaign}/gm": MASTERS,
    "POST /c/{campaign}/gm/clock": MASTERS,
    "GET /c/{campaign}/print": MASTERS,
    "GET /c/{campaign}/print/stickers.pdf": MASTERS,
    "GET /c/{campaign}/print/passports.pdf": MASTERS,  # one's own passport: MEMBERS
    "GET /c/{campaign}/outbreak": MASTERS,
    "POST /c/{campaign}/outbreak": MASTER_ACTS,  # the rules may still refuse the outbreak
    "GET /c/{campaign}/epidemics": MASTERS,
    "GET /c/{campaign}/epidemics/wave": MASTERS,
    "POST /c/{campaign}/epidemics/wave": MASTER_ACTS,  # the rules may still refuse the wave
}

CSRF_EXEMPT = {
    "POST /api/login": "no session yet; takes JSON only, which no cross-site form can send",
    "POST /api/users": "no session yet; takes JSON only, which no cross-site form can send",
    "POST /api/campaigns/{campaign}/queries/*": "read-only: a query changes nothing",
}
"""POST routes a session cookie may call without the CSRF token. Every other POST made
with the cookie alone (the forged viewer: a cross-site form) is refused, changing nothing."""

RULE_REFUSALS: dict[tuple[str, str], frozenset[Role]] = {
    # A-Z-33: only the roles in the campaign's exclusion_roles (default: masters) exclude
    ("zone-larp", "exclude"): frozenset({Role.MASTER}),
}
"""Actions whose handler narrows the declared roles further (a rule, not the declaration)."""

PAGE_SAMPLES = {"act": ("lose-hits", "apply-bandage", "kill"), "query": ("next-change",
                "sticker", "lab-status")}
"""The demo campaign's actions and queries the generic form pages are called with."""


def route_keys() -> list[str]:
    """``METHOD /path`` of every route of the app (``MOUNT /path`` for mounted files)."""
    app = create_app(Database("sqlite://"), ticker=False)
    keys: list[str] = []
    for route in iter_route_contexts(app.routes):
        if isinstance(route.original_route, Mount):
            keys.append(f"MOUNT {route.path}")
            continue
        keys += [f"{m} {route.path}" for m in sorted(route.methods or ()) if m != "HEAD"]
    return keys


ROUTES = route_keys()


def policy_for(key: str) -> Rule | None:
    """The route's line of POLICY (a generated route matches its family's pattern)."""
    return POLICY.get(key) or next((r for p, r in POLICY.items() if fnmatch(key, p)), None)


def actor_outcome(expect: Expect, viewer: Viewer, declared: frozenset[Role],
                  body: dict[str, Any], *, action: bool) -> Outcome:
    """The generated endpoints' policy, from an action's or query's declaration.

    Its role must be among the declared ones. Then (ACTOR only) a player acts only for
    their own character: naming player2's anywhere is refused, and so is an action that
    names no character at all (a query naming none answers by role). A healer acts only
    as their own healer character: naming healer2's in a field that says who acts
    (healer, supporter, author, actor, taker) is refused. A master names anyone.
    """
    assert viewer.role is not None
    if viewer.role not in declared:
        return DENY
    if expect == DECLARED:
        return PASS
    acting, others = named_characters(body)
    if viewer.role is Role.PLAYER:
        if not acting and not others:
            return DENY if action else PASS
        return DENY if viewer is Viewer.PLAYER_OTHER else PASS
    if viewer is Viewer.HEALER_OTHER and acting:
        return DENY
    return PASS


# --- the generated endpoints ---------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One request to make and what to expect of it."""

    viewer: Viewer
    what: str
    expect: Outcome
    run: Callable[[], Result]
    page: bool
    campaign: str


def _declared(cast: Cast, kind: str, name: str) -> frozenset[Role]:
    rs = rulesets()[cast.ruleset]
    spec = (rs.actions if kind == "act" else rs.queries)[name]
    return RULE_REFUSALS.get((cast.ruleset, name), frozenset(spec.roles)) & frozenset(spec.roles)


def generated_cases(world: World, key: str, rule: Rule) -> Iterator[Case]:
    """The cases of an action or query route: every ruleset having it, or the samples."""
    method, path = key.split(" ", 1)
    page = not path.startswith("/api")
    kind = "act" if "/act" in path else "query"
    if page:
        casts = [(world.demo, name) for name in PAGE_SAMPLES[kind]]
    else:
        name = path.rsplit("/", 1)[1]
        having = [rs for rs in rulesets().values()
                  if name in (rs.actions if kind == "act" else rs.queries)]
        casts = [(world.casts[rs.id], name) for rs in having]
    for cast, name in casts:
        rs = rulesets()[cast.ruleset]
        model = (rs.actions if kind == "act" else rs.queries)[name].input
        declared = _declared(cast, kind, name)
        for viewer in Viewer:
            body = body_for(model, viewer.names(cast))
            expect = rule.expect(viewer, key)
            if isinstance(expect, str):
                expect = actor_outcome(expect, viewer, declared, body, action=kind == "act")
            call = _generated_call(world, viewer, cast, (method, page, kind), name, body)
            yield Case(viewer, f"{cast.ruleset} {name}", expect, call, page, cast.campaign)


def _generated_call(world: World, viewer: Viewer, cast: Cast, route: tuple[str, bool, str],
                    name: str, body: dict[str, Any]) -> Callable[[], Result]:
    method, page, kind = route
    c = cast.campaign

    def run() -> Result:
        if not page:
            url = f"/api/campaigns/{c}/{'actions' if kind == 'act' else 'queries'}/{name}"
            return send(world, viewer, "POST", url, page=False, json=body)
        if method == "POST":
            return send(world, viewer, "POST", f"/c/{c}/act/{name}", page=True,
                        form=form_fields(body))
        if kind == "act":
            return send(world, viewer, "GET", f"/c/{c}/act/{name}", page=True,
                        params={"character": viewer.names(cast).subject})
        return send(world, viewer, "GET", f"/c/{c}/query/{name}", page=True,
                    params={**form_fields(body), "ask": "1"})

    return run


def cases(world: World, key: str, rule: Rule) -> Iterator[Case]:
    """Every request to make for route ``key``."""
    if "{action}" in key or "{name}" in key or "/actions/" in key or "/queries/" in key:
        yield from generated_cases(world, key, rule)
        return
    path = key.split(" ", 1)[1]
    call = CALLS.get(key) or (get(path) if key.startswith("GET ") else None)
    assert call is not None, f"{key}: add how to call it to CALLS"
    for viewer in Viewer:
        expect = rule.expect(viewer, key)
        assert isinstance(expect, Outcome), key
        page = not path.startswith(("/api", "/openapi", "/docs"))
        yield Case(viewer, key, expect, partial(call, world, viewer, world.demo), page,
                   world.demo.campaign)


# --- the tests -----------------------------------------------------------------------------


def test_every_route_has_a_policy_and_every_policy_a_route() -> None:
    missing = [k for k in ROUTES if policy_for(k) is None]
    assert not missing, f"routes without a line in POLICY: {missing}"
    stale = [p for p in POLICY if not any(fnmatch(k, p) for k in ROUTES)]
    assert not stale, f"POLICY lines for routes that no longer exist: {stale}"


@pytest.mark.parametrize("key", ROUTES)
def test_route_obeys_the_policy(world: World, key: str) -> None:
    rule = policy_for(key)
    assert rule is not None, f"{key} has no line in POLICY"
    failures = []
    for case in cases(world, key, rule):
        version = world.campaigns.version(case.campaign)
        why = judge(case.expect, case.run(), page=case.page)
        if case.expect is DENY and world.campaigns.version(case.campaign) != version:
            why = f"refused, but the campaign changed: {why or ''}"
        if why:
            failures.append(f"{case.viewer.value} ({case.what}): {why}")
    assert not failures, "\n".join(failures)


CAMPAIGN_READS = [k for k in ROUTES if k.startswith("GET ") and "{campaign}" in k
                  and "{action}" not in k and "{name}" not in k]


@pytest.mark.parametrize("key", CAMPAIGN_READS)
def test_someone_elses_campaign_looks_like_one_that_does_not_exist(
    world: World, key: str
) -> None:
    """No oracle of which campaigns exist: a stranger is refused alike for both."""
    call = CALLS.get(key) or get(key.split(" ", 1)[1])
    real = call(world, Viewer.OUTSIDER, world.demo)
    made_up = call(world, Viewer.OUTSIDER, replace(world.demo, campaign="no-such-campaign"))
    assert real.status == made_up.status == 403, (real, made_up)
