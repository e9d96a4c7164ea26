"""Accounts, campaigns, characters, countdowns, journal and clock endpoints."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request, Response
from fastapi.concurrency import run_in_threadpool

from lazaretto.api.context import (
    COOKIE,
    Caller,
    CallerDep,
    LangDep,
    ServicesDep,
    client_address,
    device_of,
    set_login_cookies,
)
from lazaretto.api.fresh import read_aside
from lazaretto.api.schemas import (
    ActionInfo,
    CampaignCreate,
    CampaignPublic,
    CharacterCreate,
    ClockChange,
    EventPublic,
    InviteCreate,
    InvitePublic,
    JoinRequest,
    LoginRequest,
    MembershipPublic,
    SessionPublic,
    TimerPublic,
    TimersPublic,
    UserCreate,
)
from lazaretto.core.character import Character
from lazaretto.core.clock import Clock, ClockMode, parse_duration, parse_time
from lazaretto.core.errors import Forbidden, InvalidInput
from lazaretto.core.events import Event
from lazaretto.core.ruleset import Role
from lazaretto.reading.lines import timer_label
from lazaretto.service import roster
from lazaretto.service.repair import DamagedCampaign, damaged_text

router = APIRouter(prefix="/api")


async def check_csrf(
    request: Request,
    who: CallerDep,
    x_csrf_token: Annotated[str | None, Header()] = None,
) -> Caller:
    """Cookie-authenticated changes must carry the session's CSRF token."""
    if who.by_cookie and x_csrf_token != who.csrf:
        raise Forbidden(
            "Missing or wrong X-CSRF-Token header", ru="Нет или неверен заголовок X-CSRF-Token"
        )
    return who


ChangerDep = Annotated[Caller, Depends(check_csrf)]


def event_public(ev: Event) -> EventPublic:
    return EventPublic(
        seq=ev.seq,
        kind=ev.kind,
        at=ev.at.isoformat(),
        actor=ev.actor,
        action=ev.action,
        payload=ev.payload,
        dice=list(ev.dice),
        rule_ids=list(ev.rule_ids),
    )


@router.post("/login", response_model=SessionPublic, tags=["accounts"])
def login(
    body: LoginRequest, request: Request, response: Response, svc: ServicesDep
) -> SessionPublic:
    """Log in: sets an HttpOnly session cookie and returns the token for scripts.

    Also sets a device cookie: this browser's next logins as this user are not
    counted against the failed-login limits that strangers' guesses fill."""
    sess = svc.accounts.login(
        body.username, body.password, client=client_address(request), device=device_of(request)
    )
    set_login_cookies(response, sess, secure=svc.secure_cookies)
    return SessionPublic(username=sess.user.username, token=sess.token, csrf=sess.csrf)


@router.post("/users", response_model=SessionPublic, status_code=201, tags=["accounts"])
def register(
    body: UserCreate, request: Request, response: Response, svc: ServicesDep
) -> SessionPublic:
    """Create an account (optionally joining a campaign with an invite code) and log
    in. Limited per client address; a name that cannot be used and a bad invite code
    get the same answer."""
    sess = svc.accounts.register(
        body.username,
        body.password,
        invite=body.invite or None,
        client=client_address(request),
        device=device_of(request),
    )
    set_login_cookies(response, sess, secure=svc.secure_cookies)
    return SessionPublic(username=sess.user.username, token=sess.token, csrf=sess.csrf)


@router.post("/logout", status_code=204, tags=["accounts"])
def logout(request: Request, response: Response, svc: ServicesDep, who: ChangerDep) -> None:
    """End the session the request authenticated with (the Bearer token's, or the
    cookie's: never the other one)."""
    svc.accounts.logout(who.token)
    if who.by_cookie:
        response.delete_cookie(COOKIE, path="/")


@router.post("/join", response_model=MembershipPublic, tags=["accounts"])
def join(body: JoinRequest, svc: ServicesDep, who: ChangerDep) -> MembershipPublic:
    """Join a campaign with an invite code."""
    m = svc.accounts.join(who.user, body.code)
    return MembershipPublic(campaign=m.campaign, role=m.role.value, characters=list(m.characters))


@router.get("/campaigns", response_model=list[CampaignPublic], tags=["campaigns"])
def campaigns(svc: ServicesDep, who: CallerDep) -> list[CampaignPublic]:
    """The campaigns you are in."""
    out = []
    for m in svc.accounts.memberships(who.user):
        info = svc.campaigns.info(m.campaign)
        out.append(
            CampaignPublic(
                id=info.id,
                ruleset=info.ruleset,
                clock=info.clock.mode.value,
                paused=info.clock.paused,
                now=info.now.isoformat(),
                role=m.role.value,
                damaged=damaged_text(info.id) if isinstance(info, DamagedCampaign) else None,
            )
        )
    return out


@router.post("/campaigns", response_model=CampaignPublic, status_code=201, tags=["campaigns"])
def create_campaign(body: CampaignCreate, svc: ServicesDep, who: ChangerDep) -> CampaignPublic:
    """Create a campaign; you become its master."""
    start = parse_time(body.start, reference=datetime.now()) if body.start else None
    info = svc.campaigns.create_campaign(
        body.name,
        body.ruleset,
        clock=ClockMode(body.clock),
        start=start,
        seed=body.seed,
        params=body.params,
    )
    svc.accounts.add_member(who.user, info.id, Role.MASTER)
    return CampaignPublic(
        id=info.id,
        ruleset=info.ruleset,
        clock=info.clock.mode.value,
        paused=info.clock.paused,
        now=info.now.isoformat(),
        role="master",
    )


@router.post(
    "/campaigns/{campaign}/invites",
    response_model=InvitePublic,
    status_code=201,
    tags=["campaigns"],
)
def invite(campaign: str, body: InviteCreate, svc: ServicesDep, who: ChangerDep) -> InvitePublic:
    """A one-use invite code for a role (masters)."""
    svc.play.require(who.user, campaign, Role.MASTER)
    if body.character:
        svc.play.card(who.user, campaign, body.character, "en")  # exists
    code = svc.accounts.invite(campaign, Role(body.role), body.character)
    return InvitePublic(code=code, role=body.role, character=body.character)


@router.get("/campaigns/{campaign}/characters", tags=["characters"])
def characters(
    campaign: str, svc: ServicesDep, who: CallerDep, lang: LangDep
) -> list[dict[str, Any]]:
    """The card of every character you may know of, as you may see it, yours first (a
    player: as far as the campaign's ``player_sight`` lets them; a master or a healer:
    everyone)."""
    return svc.play.cards(who.user, campaign, lang)


@router.get("/campaigns/{campaign}/names", tags=["characters"])
def names(campaign: str, svc: ServicesDep, who: CallerDep) -> list[dict[str, Any]]:
    """Who is in the campaign by name, as far as you may know: ``id``, ``name``,
    ``mine`` and ``card`` (whether you may open their card). A player of a campaign whose
    ``player_sight`` is ``names`` gets every name but only their own cards."""
    return svc.play.names(who.user, campaign)


@router.get("/campaigns/{campaign}/characters/{character}", tags=["characters"])
async def character(
    campaign: str, character: str, svc: ServicesDep, who: CallerDep, lang: LangDep
) -> dict[str, Any]:
    """One character's card: state, hits, conditions with deadlines, what they may do.
    A character you may not know of is answered as one that does not exist (404)."""
    # in the event loop while the state is parsed already: the version is read in a
    # thread, shared with the pages asking meanwhile, a membership not in memory is read
    # in a thread as well, and parsing goes to a thread
    version = await svc.versions.of(campaign)
    card = None
    if version is not None:
        if not svc.accounts.membership_cached(who.user, campaign):
            await read_aside(svc.play.member, who.user, campaign)  # kept for the next ones
        card = svc.play.card_if_parsed(who.user, campaign, character, lang, version)
    if card is None:
        card = await run_in_threadpool(svc.play.card, who.user, campaign, character, lang)
    return card


@router.post("/campaigns/{campaign}/characters", status_code=201, tags=["characters"])
def add_character(
    campaign: str, body: CharacterCreate, svc: ServicesDep, who: ChangerDep, lang: LangDep
) -> dict[str, Any]:
    """Add a character (masters)."""
    svc.play.require(who.user, campaign, Role.MASTER)
    svc.campaigns.add_character(
        campaign,
        Character(
            id=body.id,
            name=body.name,
            hits_max=body.hits,
            hits=body.hits,
            race=body.race,
            age=body.age,
            skills=body.skills,
        ),
        **roster.by_master(who.user),  # the record names who added them
    )
    return svc.play.card(who.user, campaign, body.id, lang)


@router.get("/campaigns/{campaign}/timers", response_model=TimersPublic, tags=["play"])
def timers(campaign: str, svc: ServicesDep, who: CallerDep, lang: LangDep) -> TimersPublic:
    """Pending countdowns, soonest first (masters; healers those the cards show them)."""
    state, rs, pending = svc.play.timers(who.user, campaign)
    assert state.clock is not None
    now = state.clock.now()
    return TimersPublic(
        now=now.isoformat(),
        timers=[
            TimerPublic(
                id=t.id,
                kind=t.kind,
                what=timer_label(rs, t.kind, lang),
                subject=t.subject,
                name=state.characters[t.subject].name if t.subject in state.characters else "",
                deadline=t.deadline.isoformat(),
                remaining_seconds=int((t.deadline - now).total_seconds()),
            )
            for t in pending
        ],
    )


@router.get("/campaigns/{campaign}/journal", tags=["play"])
def journal(
    campaign: str,
    svc: ServicesDep,
    who: CallerDep,
    hospital: Annotated[str | None, Query(max_length=40)] = None,
) -> list[dict[str, Any]]:
    """The hospital journal, in order (masters and healers)."""
    return svc.play.journal(who.user, campaign, hospital)


@router.get("/campaigns/{campaign}/events", response_model=list[EventPublic], tags=["play"])
def events(
    campaign: str,
    svc: ServicesDep,
    who: CallerDep,
    after: Annotated[int, Query(ge=0, description="only events after this seq")] = 0,
    limit: Annotated[int, Query(ge=1, le=10_000, description="at most this many")] = 1000,
    about: Annotated[
        str | None, Query(max_length=80, description="only events naming this (a character)")
    ] = None,
) -> list[EventPublic]:
    """The event log (masters), in order, a page at a time: ask again with ``after`` =
    the last seq received until a page comes back shorter than ``limit``."""
    svc.play.require(who.user, campaign, Role.MASTER)
    found = svc.campaigns.events(campaign, after=after, limit=limit, about=about)
    return [event_public(e) for e in found]


@router.get("/campaigns/{campaign}/actions", response_model=list[ActionInfo], tags=["actions"])
def actions(campaign: str, svc: ServicesDep, who: CallerDep, lang: LangDep) -> list[ActionInfo]:
    """The campaign ruleset's actions you may perform, with their input schemas."""
    m = svc.play.member(who.user, campaign)
    rs, _, _ = svc.campaigns.load(campaign)
    return [
        ActionInfo(
            name=s.name,
            summary=s.summary(lang),
            roles=[r.value for r in s.roles],
            rule_ids=list(s.rule_ids),
            input_schema=s.input.model_json_schema(),
        )
        for s in rs.actions.values()
        if m.role in s.roles
    ]


@router.post("/campaigns/{campaign}/clock", response_model=list[EventPublic], tags=["play"])
def clock(
    campaign: str,
    op: Annotated[str, Query(pattern="^(set|advance|pause|resume)$")],
    body: ClockChange,
    svc: ServicesDep,
    who: ChangerDep,
) -> list[EventPublic]:
    """Move the clock (masters): set TO, advance BY, pause, resume."""
    svc.play.require(who.user, campaign, Role.MASTER)
    clock = svc.campaigns.clock(campaign)
    if op == "pause":
        evs = svc.campaigns.set_clock(campaign, Clock.pause)
    elif op == "resume":
        evs = svc.campaigns.set_clock(campaign, Clock.resume)
    elif op == "set" and body.to:
        evs = svc.campaigns.advance_to(campaign, parse_time(body.to, reference=clock.now()))
    elif op == "advance" and body.by:
        evs = svc.campaigns.advance_to(campaign, clock.now() + parse_duration(body.by))
    else:
        raise InvalidInput(
            "set needs 'to', advance needs 'by'", ru="для set нужно 'to', для advance — 'by'"
        )
    return [event_public(e) for e in evs]
