"""What a character card page adds to the service's card: countdown texts, what the
character may not do, and the quick buttons.

The quick buttons make a wound and its bandage three taps from the card (issue 7):
*−1 hit* records the hit at once (a small form posting ``lose-hits``), *Bandage* opens
the ``apply-bandage`` form already filled for this patient and this healer, and
*Submit* is the third tap. The other buttons open prefilled forms the same way. A
button is offered only when the ruleset declares the action, the caller's role may
perform it and the character's state lets it work (issue 16: no *Operate* on a light
wound, no *Bandage* on a bandaged one); every other action about a character is one
link further, generated from the declarations.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
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


Need = Callable[[Mapping[str, Any], CampaignState], bool]
"""Whether a quick button can work for this card (the card as the caller sees it)."""


def _kinds(card: Mapping[str, Any]) -> set[str]:
    return {str(c.get("kind")) for c in card.get("conditions", [])}


def _cond(card: Mapping[str, Any], kind: str) -> Mapping[str, Any] | None:
    return next((c for c in card.get("conditions", []) if c.get("kind") == kind), None)


def _bandaged(c: Mapping[str, Any]) -> bool:
    return bool(c.get("bandaged") or (c.get("data") or {}).get("bandaged"))


def _always(card: Mapping[str, Any], state: CampaignState) -> bool:
    return True


def _hurt(card: Mapping[str, Any], state: CampaignState) -> bool:
    return int(card.get("hits", 0)) < int(card.get("hits_max", 0))


def _down(card: Mapping[str, Any], state: CampaignState) -> bool:
    """At 0 hit points (death saves are rolled only there)."""
    return int(card.get("hits", 0)) == 0


def _any(*kinds: str) -> Need:
    return lambda card, state: bool(_kinds(card) & set(kinds))


def _wh_unbandaged(card: Mapping[str, Any], state: CampaignState) -> bool:
    """W-WND-02: a wound not yet bandaged (a bandaged one is refused)."""
    return any(
        c.get("kind") in ("light_wound", "heavy_wound") and not _bandaged(c)
        for c in card.get("conditions", [])
    )


def _wh_admit(card: Mapping[str, Any], state: CampaignState) -> bool:
    """Wounded and not in a hospital's journal yet (one admission per patient)."""
    admitted = card.get("id") in getattr(state, "admissions", {})
    return not admitted and bool(_kinds(card) & {"light_wound", "heavy_wound"})


def _wh_treat(card: Mapping[str, Any], state: CampaignState) -> bool:
    """W-TRT: only a light wound is treated by rest (a heavy one needs the table)."""
    kinds = _kinds(card)
    return "light_wound" in kinds and not kinds & {"heavy_wound", "treatment", "on_table"}


def _heavy_off_table(card: Mapping[str, Any], state: CampaignState) -> bool:
    """An operation is for a heavy wound, once (not during one or after it)."""
    kinds = _kinds(card)
    return "heavy_wound" in kinds and not kinds & {"treatment", "on_table"}


def _zone_strike(card: Mapping[str, Any], state: CampaignState) -> bool:
    """A strike at 0 hits changes nothing; nor does one in the Hospital (Z-HOSP)."""
    out = {"heavy_wound", "in_hospital", "clinical_death", "excluded", "on_table"}
    return not _kinds(card) & out


def _zone_kit(card: Mapping[str, Any], state: CampaignState) -> bool:
    """Z-LW-10: a first-aid kit on a light wound, once, never on a heavy one."""
    light = _cond(card, "light_wound")
    used = bool(light and (light.get("data") or {}).get("kit"))
    return light is not None and not used and "heavy_wound" not in _kinds(card)


def _zone_treat(card: Mapping[str, Any], state: CampaignState) -> bool:
    """Wounds are treated above 0 hits, off the table, out of the Hospital, once."""
    kinds = _kinds(card)
    blocked = {"heavy_wound", "on_table", "in_hospital", "treatment"}
    return _hurt(card, state) and int(card.get("hits", 0)) > 0 and not kinds & blocked


def _zone_operate(card: Mapping[str, Any], state: CampaignState) -> bool:
    kinds = _kinds(card)
    return "heavy_wound" in kinds and not kinds & {"on_table", "in_hospital"}


@dataclass(frozen=True)
class Quick:
    """A big button on the card: ``tap`` posts it at once with ``post`` values; ``need``
    says when it can work for the character's state (else it is not offered)."""

    action: str
    label: str  # i18n key
    post: tuple[tuple[str, str], ...] = ()
    need: Need = _always
    tap: bool = False  # one tap records it (a small form of hidden fields)


HIT = (("hits", "1"),)
QUICK: dict[str, tuple[Quick, ...]] = {
    "warhammer-larp": (
        Quick("lose-hits", "q_lose_hit", post=HIT, tap=True),
        Quick("apply-bandage", "q_bandage", need=_wh_unbandaged),
        Quick("treat-light-wound", "q_treat", need=_wh_treat),
        Quick("start-operation", "q_operate", need=_heavy_off_table),
        Quick("finish-operation", "q_finish_operation", need=_any("on_table")),
        Quick("admit", "q_admit", need=_wh_admit),
    ),
    "zone-larp": (
        Quick("strike", "q_lose_hit", need=_zone_strike, tap=True),
        Quick("apply-kit", "q_kit", need=_zone_kit),
        Quick("treat-wounds", "q_treat", need=_zone_treat),
        Quick("start-operation", "q_operate", need=_zone_operate),
        Quick("finish-operation", "q_finish_operation", need=_any("on_table")),
        Quick("treat-trauma", "q_treat_trauma", need=_any("trauma")),
    ),
    "dnd5e-injuries": (
        Quick("take-damage", "q_damage"),
        Quick("death-save", "q_death_save", need=_down),
        Quick("treat-injury", "q_treat_injury", need=_any("injury")),
    ),
    "fantasy-server": (
        Quick("lose-hp", "q_damage"),
        Quick("heal-trauma", "q_treat_trauma", need=_any("trauma")),
    ),
}
"""The quick buttons of each ruleset, in order; the others have only "All actions"."""


def may(spec: ActionSpec[Any], role: Role, card: Mapping[str, Any]) -> bool:
    """Whether the caller's role may perform ``spec`` about this character."""
    if role not in spec.roles:
        return False
    return role is not Role.PLAYER or bool(card.get("mine"))


def quick_buttons(
    rs: Ruleset, role: Role, card: Mapping[str, Any], state: CampaignState
) -> list[Quick]:
    """The quick buttons that can work for this character's state and this caller."""
    if not card.get("alive", True):
        return []
    out = []
    for q in QUICK.get(rs.id, ()):
        spec = rs.actions.get(q.action)
        if spec is None or not may(spec, role, card) or not q.need(card, state):
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
