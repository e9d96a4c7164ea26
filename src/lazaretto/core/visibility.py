"""Who sees what (DESIGN.md, principle 6): one filter for every derived field.

A card, a board or a query answer is derived from the state. Rather than each of them
remembering to leave out what a viewer may not know, the state is first narrowed to the
viewer's view (:func:`view_for`): the character's conditions the viewer may not see are
taken out, and the ruleset's ``redact`` hook takes out what it derives from them (a
disease case whose condition is hidden, a death date). Whatever a ruleset then builds
from the view (labels, summaries, counts, cases) can only tell what the viewer may see.

Before any of that, a player may not know of another character at all: what a player
sees of the characters that are not theirs is the campaign's ``player_sight``
(:class:`PlayerSight`), enforced for every interface by :mod:`lazaretto.service.sight`.

Who looks (:class:`Viewer`, :class:`PlayerSight`) is :mod:`lazaretto.core.roles`, below
the ruleset protocol (a ruleset's ``redact`` takes a viewer); both are importable from
here too, where they were first.
"""

from __future__ import annotations

from lazaretto.core.character import Visibility
from lazaretto.core.roles import PlayerSight as PlayerSight
from lazaretto.core.roles import Role
from lazaretto.core.roles import Viewer as Viewer
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.state import CampaignState


def view_for(rs: Ruleset, state: CampaignState, char_id: str, viewer: Viewer) -> CampaignState:
    """``state`` as ``viewer`` may know it when looking at ``char_id``: a shallow copy
    (the stored state is shared and never changed) without the conditions they may not
    see, narrowed further by the ruleset's ``redact``; ``state`` itself for a master."""
    if viewer.master:
        return state
    ch = state.characters[char_id]
    shown = [c for c in ch.conditions if viewer.sees_condition(c, char_id)]
    view = state
    if len(shown) != len(ch.conditions):
        view = state.model_copy()
        view.characters = {**state.characters, char_id: ch.model_copy(update={"conditions": shown})}
    if rs.redact is not None:
        view = rs.redact(view, char_id, viewer)
    return view


# --- corrections --------------------------------------------------------------------
HIDDEN_MATTERS = ("disease", "sticker", "lab", "epidemic", "outbreak", "case", "incubat")
"""Words of what the cards keep from players and healers (a disease's course, its
stickers and labs: W-DIS-03/05): an outcome whose kind or payload names one of them is
never told to them as a correction (a death "of lethal_disease" tells of the disease)."""


def _names_hidden(value: object) -> bool:
    if isinstance(value, str):
        low = value.lower()
        return any(word in low for word in HIDDEN_MATTERS)
    if isinstance(value, dict):
        return any(_names_hidden(k) or _names_hidden(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_names_hidden(v) for v in value)
    return False


def sees_outcome(viewer: Viewer, kind: str, payload: object, subjects: list[str]) -> bool:
    """Whether ``viewer`` may be told that an outcome (an event of ``kind`` with
    ``payload``, about ``subjects``) changed: every character it is about is one they
    know, it names nothing the cards hide from them, and its own ``visibility`` (all,
    if it says none) is one they may see of each of its characters."""
    if viewer.master:
        return True
    if not all(viewer.knows(s) for s in subjects):
        return False
    if _names_hidden(kind) or _names_hidden(payload):
        return False
    raw = payload.get("visibility", Visibility.ALL) if isinstance(payload, dict) else None
    if raw not in set(Visibility):
        return False
    visibility = Visibility(raw)
    if not subjects:
        return visibility is Visibility.ALL
    return all(viewer.sees(visibility, s) for s in subjects)


def maker(viewer: Viewer, role: str, actor: str, own: bool) -> str:
    """Who made a record, in ``viewer``'s terms: ``master`` for a master's record (the
    character a master names in the input is not its maker, issue 28 L6), the
    character a healer or player made it as where the viewer may know that character's
    name (their own always), else the maker's role."""
    if role == Role.MASTER.value:
        return Role.MASTER.value
    character = actor.split(":", 1)[1] if ":" in actor else ""
    if character and (own or viewer.knows_name(character)):
        return character
    return role or Role.PLAYER.value


def correction_for(
    viewer: Viewer, correction: dict[str, object], own: bool
) -> dict[str, object] | None:
    """A correction as ``viewer`` may know it, or None: its outcome passes
    :func:`sees_outcome`; its cause (the record behind it) is told in full to a master
    and to whoever made that record (``own``), by its maker, time and action to others
    when a healer or a player made it, and as "corrected by the master" only when a
    master did (what a master recorded, and when, is the master's) — a master's undo
    as the record it undid and when."""
    event = correction.get("event")
    cause = correction.get("cause")
    if not isinstance(event, dict) or not isinstance(cause, dict):
        return None
    subjects = [str(s) for s in correction.get("subjects") or []]  # type: ignore[attr-defined]
    if not sees_outcome(viewer, str(event.get("kind", "")), event.get("payload"), subjects):
        return None
    role, actor = str(cause.get("role", "")), str(cause.get("actor", ""))
    told = {**cause, "by": maker(viewer, role, actor, own)}
    if viewer.master:
        return {**correction, "cause": told}
    told.pop("actor", None)
    told.pop("user", None)
    if role == Role.MASTER.value and not own:
        if told.get("kind") == "void":  # an undo tells only what it undid, and when
            told = {k: told.get(k) for k in ("kind", "voids", "wall", "by")}
        else:
            told = {"by": Role.MASTER.value, "hidden": True}
    return {**correction, "cause": told}
