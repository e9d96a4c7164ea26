"""Who is in a campaign: who acts (:class:`Role`) and who looks (:class:`Viewer`).

The words the ruleset protocol, the engine and the visibility filter all speak in, so
they live below all three: an action is declared for roles, a record is made by one,
and a card is narrowed to a viewer (DESIGN.md, principle 6; the filter itself is
:mod:`lazaretto.core.visibility`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from lazaretto.core.character import Condition, Visibility


class Role(StrEnum):
    """Who performs an action in a campaign."""

    MASTER = "master"
    HEALER = "healer"
    PLAYER = "player"


ALL_ROLES = frozenset(Role)


class PlayerSight(StrEnum):
    """What a player sees of the characters that are not theirs: the campaign parameter
    ``player_sight`` (each ruleset's ``params.yaml`` documents its default).

    Masters and healers are not limited by it (a healer treats whoever is brought in).
    """

    OWN = "own"
    """Their own characters only: another's card, name and number are not shown, and
    asking for one is answered as if it did not exist (a LARP: a player knows others
    only from meeting them in play)."""
    NAMES = "names"
    """Their own cards, and the names and passport numbers of the others (to name the
    one they support, rob or heal), never the others' state."""
    PARTY = "party"
    """Their own cards, and every other card as everyone may see it (a tabletop party
    at one table): never another's conditions meant for its owner or for healers."""


@dataclass(frozen=True)
class Viewer:
    """Who is looking: their role, the characters they play (or heal as), and, for a
    player, what the campaign lets them see of the others."""

    role: Role
    characters: frozenset[str] = field(default_factory=frozenset)
    sight: PlayerSight = PlayerSight.PARTY

    @property
    def master(self) -> bool:
        return self.role is Role.MASTER

    def owns(self, char_id: str) -> bool:
        """Whether the viewer plays ``char_id``."""
        return char_id in self.characters

    def knows(self, char_id: str) -> bool:
        """Whether the viewer may see ``char_id``'s card at all (:class:`PlayerSight`)."""
        if self.role is not Role.PLAYER or self.sight is PlayerSight.PARTY:
            return True
        return self.owns(char_id)

    def knows_name(self, char_id: str) -> bool:
        """Whether the viewer may know ``char_id``'s name and passport number."""
        return self.knows(char_id) or self.sight is PlayerSight.NAMES

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
        """Whether the viewer may know of ``condition`` (:meth:`sees_kind`)."""
        return self.sees_kind(condition.kind, condition.visibility, char_id)

    def sees_kind(self, kind: str, visibility: Visibility, char_id: str) -> bool:
        """Whether the viewer may know of a condition of ``char_id``'s of ``kind`` with
        ``visibility``: a healer knows of a disease (its symptoms), never more of it
        than the card then shows (W-DIS-03/05)."""
        if self.sees(visibility, char_id):
            return True
        return self.role is Role.HEALER and kind == "disease"
