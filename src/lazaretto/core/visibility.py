"""Who sees what (DESIGN.md, principle 6): one filter for every derived field.

A card, a board or a query answer is derived from the state. Rather than each of them
remembering to leave out what a viewer may not know, the state is first narrowed to the
viewer's view (:func:`view_for`): the character's conditions the viewer may not see are
taken out, and the ruleset's ``redact`` hook takes out what it derives from them (a
disease case whose condition is hidden, a death date). Whatever a ruleset then builds
from the view (labels, summaries, counts, cases) can only tell what the viewer may see.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lazaretto.core.character import Condition, Visibility
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.core.state import CampaignState


@dataclass(frozen=True)
class Viewer:
    """Who is looking: their role and the characters they play (or heal as)."""

    role: Role
    characters: frozenset[str] = field(default_factory=frozenset)

    @property
    def master(self) -> bool:
        return self.role is Role.MASTER

    def owns(self, char_id: str) -> bool:
        """Whether the viewer plays ``char_id``."""
        return char_id in self.characters

    def sees(self, visibility: Visibility, char_id: str) -> bool:
        """Whether the viewer may see something of ``char_id``'s with ``visibility``."""
        if self.role is Role.MASTER or visibility is Visibility.ALL:
            return True
        if visibility is Visibility.OWNER:
            return self.owns(char_id)
        if visibility is Visibility.HEALERS:
            return self.role is Role.HEALER
        return False

    def sees_condition(self, condition: Condition, char_id: str) -> bool:
        """Whether the viewer may know of ``condition``: a healer knows of a disease
        (its symptoms), never more of it than the card then shows (W-DIS-03/05)."""
        if self.sees(condition.visibility, char_id):
            return True
        return self.role is Role.HEALER and condition.kind == "disease"


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
