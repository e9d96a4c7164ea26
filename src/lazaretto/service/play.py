"""What a logged-in user may do and see in a campaign (DESIGN.md, principle 6).

Every interface that serves users (the HTTP API, the web pages) goes through here, so
the visibility and authorization rules are enforced once:

* a master sees and does everything in their campaign;
* a healer acts as one of their healer characters and sees conditions meant for
  healers, never a disease's penalties;
* a player acts only for their own characters and sees their own conditions (their own
  disease penalties included: they read their sticker, W-DIS-05), and of others only
  what everyone sees, and only those the campaign's ``player_sight`` lets them know of
  (:mod:`lazaretto.service.sight`): a LARP player sees their own card and nobody else's.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel

from lazaretto.core.character import Visibility
from lazaretto.core.engine import check_role, parse_input, parse_query, run_query
from lazaretto.core.errors import Forbidden, LazarettoError, TooBusy
from lazaretto.core.events import Event
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.core.timers import Timer
from lazaretto.core.visibility import Viewer, correction_for, view_for
from lazaretto.service import sight
from lazaretto.service.accounts import AccountService, Membership, User
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.countdowns import hides_deadline, visible_timers
from lazaretto.service.event_log import Idempotency
from lazaretto.service.recorder import Answer

CHARACTER_FIELDS = (
    "character",
    "patient",
    "healer",
    "supporter",
    "actor",
    "victim",
    "carrier",
    "author",
    "corpse",
    "taker",
    "holder",
)
"""Input fields that name a character."""
ACTING_FIELDS = ("healer", "supporter", "author", "actor", "taker")
"""Of those, the fields naming who does the action; the others name whom it is done to."""
CHARACTER_LISTS = ("characters",)
"""Input fields that list the characters an action is about."""
HEALER_FIELDS = ("healer", "author")


def _fields(model: BaseModel) -> dict[str, Any]:
    """An input's fields as the handler reads them (defaults included)."""
    return model.model_dump(mode="json")


def viewer_of(member: Membership) -> Viewer:
    """The member as a viewer of the campaign's conditions (not of who is in it: see
    :func:`lazaretto.service.sight.viewer_in`)."""
    return Viewer(member.role, frozenset(member.characters))


def card_for(
    rs: Ruleset, state: CampaignState, char_id: str, member: Membership, lang: str
) -> dict[str, Any]:
    """A character card with only what ``member`` may see: refused as not found when
    the member may not know the character at all (:func:`lazaretto.service.sight.require_known`),
    else built from the member's view of the state
    (:func:`~lazaretto.core.visibility.view_for`), so no derived field (a label, a
    summary, a list of cases) tells what the view leaves out."""
    viewer = sight.viewer_in(rs, state, member)
    sight.require_known(viewer, state, char_id)
    view = view_for(rs, state, char_id, viewer)
    card = (
        rs.describe(view, char_id, lang)
        if rs.describe
        else view.characters[char_id].model_dump(mode="json")
    )
    owner = member.owns(char_id)
    card["conditions"] = [
        c
        for c in card.get("conditions", [])
        if viewer.sees_kind(c["kind"], Visibility(c.get("visibility", "all")), char_id)
    ]
    diseases = getattr(state, "diseases", {})
    books = [
        state.characters[h].data.get("book", {}) for h in member.characters if h in state.characters
    ]
    for c in card["conditions"]:
        code = c.get("data", {}).get("code")
        if c["kind"] == "disease" and code in diseases:
            d = diseases[code]
            c["disease"] = {"code": code, "name": d["name"], "symptoms": d["symptoms"]}
            if hides_deadline(viewer, char_id, c["kind"], code, diseases):
                # a healer's: lethality and its timer belong to the hidden penalties
                # (W-DIS-03/05); the course only when one of the healer's books
                # describes it (W-DTRT-04)
                c["deadline"] = None
                c["data"] = {"code": code}
                if any(code in book for book in books) and d.get("course"):
                    c["disease"]["course"] = d["course"]
            elif member.role is Role.MASTER or owner:  # W-DIS-05
                c["disease"]["penalties"] = d["penalties"]
    card["mine"] = owner
    return card


def answer_for(action: str, events: list[Event]) -> list[Event]:
    """What a healer or a player is told of their change: the events of their own
    action, without countdowns. Not the countdowns of the whole campaign that came due
    and fired first (they are about others), nor the countdowns the action started or
    stopped (a lethal disease's is hidden, W-DIS-03/05): their cards show what they may
    see of those."""
    return [e for e in events if e.action == action and not e.kind.startswith("timer.")]


def _narrowed(
    future: Future[list[Event]], narrow: Callable[[list[Event]], list[Event]]
) -> Future[list[Event]]:
    """A future of ``narrow`` applied to ``future``'s events (its error passed on)."""
    out: Future[list[Event]] = Future()
    out.set_running_or_notify_cancel()

    def done(f: Future[list[Event]]) -> None:
        error = f.exception()
        if error is not None:
            out.set_exception(error)
        else:
            events = f.result()
            out.set_result(Answer.of(narrow(events), getattr(events, "record", None)))

    future.add_done_callback(done)
    return out


T = TypeVar("T")

OUTBOX_MAX = 16
"""Taps a phone's outbox sends in one request at most: as many as one user may have
waiting at once (:attr:`PlayService.IN_FLIGHT`)."""


def queue_in_order(submits: Sequence[Callable[[], T]]) -> list[T | LazarettoError]:
    """Queue an outbox's taps in the order they were made (issue 25), one answer each.

    A tap refused before it is queued (bad input, not theirs to do) is refused alone
    and the taps after it go on, as they do one at a time. A tap that finds no turn
    (:class:`TooBusy`: the user has too many changes waiting) holds back itself and
    every tap after it, with that refusal: the outbox keeps them, in order, for later.
    """
    sent: list[T | LazarettoError] = []
    for submit in submits:
        try:
            sent.append(submit())
        except TooBusy as exc:
            return sent + [exc] * (len(submits) - len(sent))
        except LazarettoError as exc:
            sent.append(exc)
    return sent


class PlayService:
    """Campaign use cases on behalf of a user."""

    IN_FLIGHT = OUTBOX_MAX
    """Changes one user may have waiting at once: a phone sends its outbox in order, up
    to :data:`OUTBOX_MAX` taps a request, so more is a runaway script or an attack on
    the others' turn."""

    def __init__(self, campaigns: CampaignService, accounts: AccountService) -> None:
        self.campaigns = campaigns
        self.accounts = accounts
        self._in_flight: dict[int, int] = {}
        self._flight_lock = threading.Lock()

    def _take_turn(self, user: User) -> None:
        with self._flight_lock:
            waiting = self._in_flight.get(user.id, 0)
            if waiting >= self.IN_FLIGHT:
                raise TooBusy(
                    f"{waiting} of your changes are still being recorded; wait for them",
                    ru=f"{waiting} ваших изменений ещё записываются; дождитесь их",
                )
            self._in_flight[user.id] = waiting + 1

    def _end_turn(self, user: User) -> None:
        with self._flight_lock:
            left = self._in_flight.get(user.id, 1) - 1
            if left > 0:
                self._in_flight[user.id] = left
            else:
                self._in_flight.pop(user.id, None)

    def member(self, user: User, campaign: str) -> Membership:
        """The user's membership (Forbidden if none)."""
        return self.accounts.membership(user, campaign)

    def require(self, user: User, campaign: str, *roles: Role) -> Membership:
        """The membership, refused unless its role is one of ``roles``."""
        m = self.member(user, campaign)
        if m.role not in roles:
            need = ", ".join(r.value for r in roles)
            raise Forbidden(
                f"This needs the role {need} in {campaign}; you are {m.role.value}",
                ru=f"Нужна роль {need} в {campaign}; ваша роль — {m.role.value}",
            )
        return m

    def cards(self, user: User, campaign: str, lang: str) -> list[dict[str, Any]]:
        """The card of every character the user may know of, as they may see it, their
        own first."""
        m = self.member(user, campaign)
        rs, state, _ = self.campaigns.load(campaign)
        viewer = sight.viewer_in(rs, state, m)
        return [card_for(rs, state, cid, m, lang) for cid in sight.known(viewer, state)]

    def names(self, user: User, campaign: str) -> list[dict[str, Any]]:
        """Who is in the campaign as far as the user may know, by name: everyone for a
        master or a healer; for a player as the campaign's ``player_sight`` says."""
        m = self.member(user, campaign)
        rs, state, _ = self.campaigns.load(campaign)
        return sight.names(sight.viewer_in(rs, state, m), state)

    def landing(self, user: User, campaign: str) -> str | None:
        """The character a player with exactly one character in the campaign lands on
        (their card), else None (the campaign's page)."""
        m = self.member(user, campaign)
        if m.role is not Role.PLAYER or len(m.characters) != 1:
            return None
        _, state, _ = self.campaigns.load(campaign)
        return m.characters[0] if m.characters[0] in state.characters else None

    def watched(self, user: User, campaign: str, character: str | None) -> frozenset[str] | None:
        """Whose changes the user's live page is told of (None: every change); a
        character the user may not know of is refused as not found."""
        m = self.member(user, campaign)
        rs, state, _ = self.campaigns.load(campaign)
        return sight.watched(sight.viewer_in(rs, state, m), state, character)

    def card(self, user: User, campaign: str, char_id: str, lang: str) -> dict[str, Any]:
        """One card as the user may see it."""
        m = self.member(user, campaign)
        rs, state, _ = self.campaigns.load(campaign)
        return card_for(rs, state, char_id, m, lang)

    def card_if_parsed(
        self, user: User, campaign: str, char_id: str, lang: str, version: int
    ) -> dict[str, Any] | None:
        """:meth:`card` when the campaign's state at ``version`` (read after the caller
        asked) or newer is already parsed here (see :meth:`CampaignService.parsed_since`),
        else None: no read, cheap enough for an event loop."""
        m = self.member(user, campaign)
        loaded = self.campaigns.parsed_since(campaign, version)
        if loaded is None:
            return None
        rs, state, _ = loaded
        return card_for(rs, state, char_id, m, lang)

    def check_actor(self, m: Membership, raw: dict[str, Any]) -> str:
        """Who acts: the first character named in an acting field, else the first named.

        A player acts only for their own characters: what they name in acting fields
        (or, when there are none, the first character named, or every listed one) must
        be theirs. A healer names only their own characters in acting fields. Naming
        someone else there would record another player's character doing something.
        """

        def names(fields: tuple[str, ...]) -> list[str]:
            return [raw[f] for f in fields if isinstance(raw.get(f), str)]

        acting = names(ACTING_FIELDS)
        others = names(tuple(f for f in CHARACTER_FIELDS if f not in ACTING_FIELDS))
        listed = [c for f in CHARACTER_LISTS if isinstance(raw.get(f), list) for c in raw[f]]
        named = acting + others
        actor = named[0] if named else m.role.value
        if m.role is Role.PLAYER:
            mine = acting or others[:1] or listed
            if not mine or not all(isinstance(c, str) and m.owns(c) for c in mine):
                raise Forbidden(
                    "A player may act only for their own character",
                    ru="Игрок может действовать только за своего персонажа",
                )
        if m.role is Role.HEALER:
            for name in acting:
                if not m.owns(name):
                    raise Forbidden(
                        f"You act as your own healer character, not {name!r}",
                        ru=f"Вы действуете только своим лекарем, а не {name!r}",
                    )
        return actor

    def act(
        self,
        user: User,
        campaign: str,
        action: str,
        raw: dict[str, Any],
        *,
        at: datetime | None = None,
        idempotency_key: str | None = None,
        moves_clock: bool = False,
    ) -> list[Event]:
        """Run an action as ``user`` (role and character checks first). ``at`` ahead of
        the clock is refused, but for a master who confirms it moves a manual clock
        (``moves_clock``)."""
        return self.submit_act(
            user, campaign, action, raw, at=at, idempotency_key=idempotency_key,
            moves_clock=moves_clock,
        ).result()

    def submit_act(
        self,
        user: User,
        campaign: str,
        action: str,
        raw: dict[str, Any],
        *,
        at: datetime | None = None,
        idempotency_key: str | None = None,
        moves_clock: bool = False,
    ) -> Future[list[Event]]:
        """:meth:`act` without waiting for the commit: the checks are made now (a
        refusal is raised here), the future holds the events once committed."""
        m = self.member(user, campaign)
        rs = self.campaigns.ruleset(campaign)
        check_role(rs, action, m.role)
        # who acts is read from the input as the action will read it: the campaign's
        # ruleset's model, which refuses fields it does not have
        actor = self.check_actor(m, _fields(parse_input(rs, action, raw)))
        # a time in the past is a late record (a phone that was offline): how far back
        # a healer or a player may place it is the campaign's late_record_minutes
        key = Idempotency.of(user.id, idempotency_key, action, raw, at) if idempotency_key else None
        self._take_turn(user)
        try:
            committed = self.campaigns.submit_act(
                campaign,
                action,
                raw,
                actor=f"{user.username}:{actor}",
                role=m.role,
                at=at,
                idempotency=key,
                user=user.id,
                moves_clock=moves_clock,
            )
        except BaseException:
            self._end_turn(user)
            raise
        committed.add_done_callback(lambda _: self._end_turn(user))
        if m.role is Role.MASTER:
            return committed
        return _narrowed(committed, lambda events: answer_for(action, events))

    def void(self, user: User, campaign: str, no: int, reason: str = "") -> list[Event]:
        """Undo record ``no`` as ``user``: their own within the campaign's undo window,
        anyone's if a master (the checks are the recorder's, under the lock)."""
        m = self.member(user, campaign)
        actor = f"{user.username}:{m.characters[0] if m.characters else m.role.value}"
        events = self.campaigns.void(
            campaign, no, actor=actor, role=m.role, user=user.id, reason=reason
        )
        if m.role is Role.MASTER:
            return events
        return Answer.of([], getattr(events, "record", None))  # others see it on the cards

    def records(
        self, user: User, campaign: str, after: int = 0, limit: int = 1000
    ) -> list[dict[str, Any]]:
        """The records a user may see: a master every one, others their own."""
        m = self.member(user, campaign)
        found = self.campaigns.records(campaign, after, limit)
        if m.role is Role.MASTER:
            return found
        prefix = f"{user.username}:"
        return [r for r in found if str(r["actor"]).startswith(prefix)]

    def corrections(
        self, user: User, campaign: str, about: str | None = None
    ) -> list[dict[str, Any]]:
        """Corrections as the user may see them: a master every one; a healer or a
        player those about a character they may see, of outcomes everyone may see
        (never of diseases, stickers and labs, whose course is hidden: W-DIS-03/05)."""
        m = self.member(user, campaign)
        if m.role is not Role.MASTER and about is None:
            raise Forbidden(
                "Only a master sees every correction; ask about one character",
                ru="Все исправления видит только мастер; спросите об одном персонаже",
            )
        if m.role is Role.MASTER:
            return self.campaigns.corrections(campaign, about)
        assert about is not None
        rs, state, _ = self.campaigns.load(campaign)
        viewer = sight.viewer_in(rs, state, m)
        sight.require_known(viewer, state, about)
        told = (  # about characters: a payload's other words are not whom it is about
            correction_for(
                viewer,
                c | {"subjects": [s for s in c["subjects"] if s in state.characters]},
                c["cause"].get("user") == user.id,
            )
            for c in self.campaigns.corrections(campaign, about)
        )
        return [c for c in told if c is not None]

    def query(
        self, user: User, campaign: str, name: str, raw: dict[str, Any], lang: str
    ) -> dict[str, Any]:
        """Answer a read-only query as ``user``: the query checks the role; a player asks
        about their own characters, a healer as their own healer (their own book). A
        query naming no character (a sticker by its code, a table) answers by role."""
        m = self.member(user, campaign)
        fields = _fields(parse_query(self.campaigns.ruleset(campaign), name, raw, m.role))
        names_someone = any(isinstance(fields.get(f), str) for f in CHARACTER_FIELDS)
        if m.role is not Role.MASTER and names_someone:  # else the query answers by role
            self.check_actor(m, fields)
        if m.role is not Role.PLAYER:
            return self.campaigns.query(campaign, name, raw, role=m.role, lang=lang)
        # a player's query is answered from what they may know: the characters they may
        # not know of are not in its state (so no count or odds tells of them), nor in
        # its rows
        rs, state, _ = self.campaigns.load(campaign)
        viewer = sight.viewer_in(rs, state, m)
        view = sight.known_state(viewer, state)
        answer = run_query(rs, view, name, raw, role=m.role, lang=lang)
        narrowed: dict[str, Any] = sight.narrow_answer(viewer, state, answer)
        return narrowed

    def timers(self, user: User, campaign: str) -> tuple[CampaignState, Ruleset, list[Timer]]:
        """The countdown board (masters and healers): the state and the pending timers
        the user may see, soonest first. A healer sees only the countdowns the cards show
        them, never a lethal disease's (W-DIS-03/05): decided from the conditions by the
        rules the cards use (:mod:`lazaretto.service.countdowns`), no card is built."""
        m = self.require(user, campaign, Role.MASTER, Role.HEALER)
        rs, state, _ = self.campaigns.load(campaign)
        viewer = sight.viewer_in(rs, state, m)
        return state, rs, visible_timers(state, state.pending_timers(), viewer)

    def journal(
        self, user: User, campaign: str, hospital: str | None = None
    ) -> list[dict[str, Any]]:
        """The hospital journal (masters and healers), in order."""
        m = self.require(user, campaign, Role.MASTER, Role.HEALER)
        rows = self.campaigns.journal(campaign, hospital)
        if m.role is Role.MASTER:
            return rows
        # a struck or added entry says why in the healer's terms: a master's record
        # behind it is "corrected by the master", never what the master recorded
        rs, state, _ = self.campaigns.load(campaign)
        viewer = sight.viewer_in(rs, state, m)
        for row in rows:
            by = row.get("corrected_by")
            if isinstance(by, dict):
                told = correction_for(
                    viewer,
                    {"event": {"kind": "journal.entry_added", "payload": {}}, "cause": by},
                    by.get("user") == user.id,
                )
                row["corrected_by"] = (told or {}).get("cause", {"hidden": True})
        return rows
