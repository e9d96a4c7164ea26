"""Which countdowns a viewer may see (DESIGN.md, principle 6; W-DIS-03/05).

A countdown is shown to whoever sees its deadline on a card. Two rules decide that, and
both the card (:func:`lazaretto.service.play.card_for`) and the countdown board
(:meth:`lazaretto.service.play.PlayService.timers`) ask them here, so the board can
never show a deadline the card hides, nor hide one the card shows:

* which of a character's conditions the viewer knows of at all:
  :meth:`~lazaretto.core.visibility.Viewer.sees_condition`, the filter
  :func:`~lazaretto.core.visibility.view_for` narrows a card's state with;
* :func:`hides_deadline`: a healer knows of a disease (заболевание) by its symptoms, but
  whether and when it kills belongs to its hidden penalties, so the card shows it
  without its deadline.

The board derives the deadlines from the conditions alone (:func:`shown_deadlines`),
without building the cards: a card per character with a countdown made a healer's
board of 600 countdowns some fifty times slower than a master's (issue 18).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from lazaretto.core.ruleset import Role
from lazaretto.core.state import CampaignState
from lazaretto.core.timers import Timer
from lazaretto.core.visibility import Viewer


def hides_deadline(
    viewer: Viewer, char_id: str, kind: str, code: Any, diseases: Mapping[str, Any]
) -> bool:
    """Whether ``viewer`` is shown a condition of ``char_id`` without its deadline.

    A healer looking at someone else's disease (one defined in the campaign's
    ``diseases``): its lethality and its timer are among the penalties only masters and
    the infected themselves read (W-DIS-03/05). Its symptoms still show.
    """
    return (
        viewer.role is Role.HEALER
        and not viewer.owns(char_id)
        and kind == "disease"
        and code in diseases
    )


def shown_deadlines(state: CampaignState, char_id: str, viewer: Viewer) -> set[datetime]:
    """The deadlines of ``char_id``'s conditions that ``viewer``'s card of them shows."""
    diseases: Mapping[str, Any] = getattr(state, "diseases", {})
    return {
        c.deadline
        for c in state.characters[char_id].conditions
        if c.deadline is not None
        and viewer.sees_condition(c, char_id)
        and not hides_deadline(viewer, char_id, c.kind, c.data.get("code"), diseases)
    }


def visible_timers(state: CampaignState, pending: Iterable[Timer], viewer: Viewer) -> list[Timer]:
    """Of ``pending`` (in their order), the countdowns ``viewer`` may see: all of them
    for a master; for anyone else those of a character whose card shows a condition
    with that deadline (a countdown of a place, a lab or an epidemic is a master's)."""
    if viewer.master:
        return list(pending)
    shown: dict[str, set[datetime]] = {}
    visible = []
    for t in pending:
        if t.subject not in state.characters:
            continue
        deadlines = shown.get(t.subject)
        if deadlines is None:
            deadlines = shown[t.subject] = shown_deadlines(state, t.subject, viewer)
        if t.deadline in deadlines:
            visible.append(t)
    return visible
