"""What a character card page adds to the service's card: countdown texts, what the
character may not do, and the quick buttons.

The quick buttons make a wound and its bandage three taps from the card (issue 7):
*−1 hit* records the hit at once (a small form posting ``lose-hits``), *Bandage* opens
the ``apply-bandage`` form already filled for this patient and this healer, and
*Submit* is the third tap. The other buttons open prefilled forms the same way. A
button is offered only when the ruleset declares the action and the caller's role may
perform it; every other action about a character is one link further, generated from
the declarations.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from lazaretto.core.character import Character
from lazaretto.core.ruleset import ActionSpec, Role, Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.web.forms import subject_field


def _when(value: str | datetime) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(value)


def left(deadline: str | datetime | None, now: datetime) -> str:
    """Time left as ``m:ss`` or ``h:mm:ss`` (``0:00`` when due)."""
    if deadline is None:
        return ""
    secs = max(0, int((_when(deadline) - now).total_seconds()))
    h, rem = divmod(secs, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def next_deadline(card: Mapping[str, Any]) -> str | None:
    """The soonest countdown among the conditions the caller may see."""
    found = [c["deadline"] for c in card.get("conditions", []) if c.get("deadline")]
    return min(found, key=_when) if found else None


_BASELINE: dict[tuple[str, str, str], list[str]] = {}


def baseline(rs: Ruleset, state: CampaignState, lang: str) -> list[str]:
    """What an unhurt character of this campaign may do (the ruleset's own card of a
    fresh character with full hits), cached per ruleset, parameters and language."""
    key = (rs.id, json.dumps(state.params, sort_keys=True, default=str), lang)
    if key not in _BASELINE and rs.describe is not None:
        probe = Character(id="\u2063probe", name="", hits_max=3, hits=3)
        bare = state.model_copy(update={"characters": {probe.id: probe}})
        _BASELINE[key] = [str(a) for a in rs.describe(bare, probe.id, lang).get("allowed", [])]
    return _BASELINE.get(key, [])


def forbidden(card: Mapping[str, Any], unhurt: list[str]) -> list[str]:
    """What the character may not do: the ruleset's own list when its card has one
    (``forbidden``), else what an unhurt character may do and this one may not."""
    own = card.get("forbidden")
    if isinstance(own, list):
        return [str(a) for a in own]
    allowed = set(card.get("allowed", []))
    return [a for a in unhurt if a not in allowed]


@dataclass(frozen=True)
class Quick:
    """A big button on the card: ``post`` values mean one tap records it."""

    action: str
    label: str  # i18n key
    post: tuple[tuple[str, str], ...] = ()
    wounded_only: bool = False


QUICK = (
    Quick("lose-hits", "q_lose_hit", post=(("hits", "1"),)),
    Quick("apply-bandage", "q_bandage", wounded_only=True),
    Quick("admit", "q_admit", wounded_only=True),
    Quick("treat-light-wound", "q_treat", wounded_only=True),
    Quick("start-operation", "q_operate", wounded_only=True),
)


def may(spec: ActionSpec[Any], role: Role, card: Mapping[str, Any]) -> bool:
    """Whether the caller's role may perform ``spec`` about this character."""
    if role not in spec.roles:
        return False
    return role is not Role.PLAYER or bool(card.get("mine"))


def quick_buttons(rs: Ruleset, role: Role, card: Mapping[str, Any]) -> list[Quick]:
    """The quick buttons for this card and caller."""
    if not card.get("alive", True):
        return []
    wounded = int(card.get("hits", 0)) < int(card.get("hits_max", 0))
    out = []
    for q in QUICK:
        spec = rs.actions.get(q.action)
        if spec is None or not may(spec, role, card) or (q.wounded_only and not wounded):
            continue
        out.append(q)
    return out


def card_actions(rs: Ruleset, role: Role, card: Mapping[str, Any]) -> list[ActionSpec[Any]]:
    """Every action about a character the caller may perform, by name."""
    return sorted(
        (
            s
            for s in rs.actions.values()
            if subject_field(s.input) is not None and may(s, role, card)
        ),
        key=lambda s: s.name,
    )
