"""What a member may know of a campaign's characters (DESIGN.md, principle 6).

The one place that decides whether a member may see a character at all, before
:func:`~lazaretto.core.visibility.view_for` decides what of it: every list of cards,
card, query answer, live stream and passport of :class:`~lazaretto.service.play.PlayService`
asks here. Masters and healers know every character; a player knows the others as far
as the campaign's ``player_sight`` parameter lets them (:class:`PlayerSight`: their own
only at a LARP, names, or the party's cards at a table).

A character a player may not know is answered exactly as one that does not exist
(:func:`unknown`): asking for another's card by passport number tells nothing of
whether that number is in the game.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lazaretto.core.engine import find_character
from lazaretto.core.errors import NotFound
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.core.visibility import PlayerSight, Viewer
from lazaretto.service.accounts import Membership

PARAM = "player_sight"
"""The campaign parameter (every ruleset's ``params.yaml`` documents its default)."""
ROW_KEYS = ("character", "patient")
"""Keys that name the character a row of a query's answer is about."""


def player_sight(rs: Ruleset, state: CampaignState) -> PlayerSight:
    """The campaign's ``player_sight`` (a ruleset without it shows the party)."""
    value = getattr(rs.campaign_params(state.params), PARAM, PlayerSight.PARTY)
    return PlayerSight(value)


def viewer_in(rs: Ruleset, state: CampaignState, member: Membership) -> Viewer:
    """``member`` as a viewer of this campaign, with what it lets players see."""
    sight = player_sight(rs, state) if member.role is Role.PLAYER else PlayerSight.PARTY
    return Viewer(member.role, frozenset(member.characters), sight)


def unknown(state: CampaignState, char_id: str) -> NotFound:
    """The refusal of a character the viewer may not know: word for word the one for a
    character that does not exist."""
    try:
        find_character(state.model_copy(update={"characters": {}}), char_id)
    except NotFound as err:
        return err
    raise AssertionError("unreachable")  # pragma: no cover


def require_known(viewer: Viewer, state: CampaignState, char_id: str) -> None:
    """Refuse (as not found) a character that does not exist or the viewer may not know."""
    find_character(state, char_id)
    if not viewer.knows(char_id):
        raise unknown(state, char_id)


def known(viewer: Viewer, state: CampaignState) -> list[str]:
    """The characters whose cards the viewer may see, their own first (then in the
    campaign's order)."""
    ids = [cid for cid in state.characters if viewer.knows(cid)]
    return sorted(ids, key=lambda cid: not viewer.owns(cid))


def names(viewer: Viewer, state: CampaignState) -> list[dict[str, Any]]:
    """The characters whose names the viewer may know (id, name, whether theirs, whether
    their card may be opened), their own first."""
    rows = [
        {"id": c.id, "name": c.name, "mine": viewer.owns(c.id), "card": viewer.knows(c.id)}
        for c in state.characters.values()
        if viewer.knows_name(c.id)
    ]
    return sorted(rows, key=lambda r: not r["mine"])


def known_state(viewer: Viewer, state: CampaignState) -> CampaignState:
    """``state`` without the characters the viewer may not know of (a shallow copy;
    ``state`` itself when they know everyone): what a player's query is answered from."""
    ids = known(viewer, state)
    if len(ids) == len(state.characters):
        return state
    view = state.model_copy()
    view.characters = {cid: state.characters[cid] for cid in state.characters if cid in ids}
    return view


def watched(viewer: Viewer, state: CampaignState, character: str | None) -> frozenset[str] | None:
    """Whose changes a live page may be told of: ``character``'s (refused as not found
    if the viewer may not know it), else for a player who may not see the others their
    own characters', else None (every change)."""
    if character is not None:
        require_known(viewer, state, character)
        return frozenset({character})
    if viewer.role is Role.PLAYER and viewer.sight is not PlayerSight.PARTY:
        return viewer.characters
    return None


def narrow_answer(viewer: Viewer, state: CampaignState, answer: Any) -> Any:
    """A query's answer without the rows about characters the viewer may not know (a
    board of who lies in the Hospital, say): any mapping in a list whose ``character``
    or ``patient`` is such a character is left out. A copy; ``answer`` is not changed."""
    if viewer.role is not Role.PLAYER or viewer.sight is PlayerSight.PARTY:
        return answer
    hidden = {cid for cid in state.characters if not viewer.knows(cid)}
    return _without(answer, hidden) if hidden else answer


def _without(value: Any, hidden: set[str]) -> Any:
    if isinstance(value, dict):
        return {k: _without(v, hidden) for k, v in value.items()}
    if isinstance(value, list):
        return [_without(v, hidden) for v in value if not _about(v, hidden)]
    return value


def _about(value: Any, hidden: Iterable[str]) -> bool:
    if not isinstance(value, dict):
        return False
    return any(isinstance(value.get(k), str) and value[k] in hidden for k in ROW_KEYS)
