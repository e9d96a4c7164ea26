"""Which item a critical wears (Поломка предметов, checklist-002 §2.6, A-S-11).

A weapon wears on its wielder's critical failures on attacks (S-BRK-01/02), a shield on
critical failures on defence (S-BRK-03/04): only an item that is equipped is in use, so
only an equipped item counts. A critical failure rolled with ``roll-check --purpose
attack`` (or ``defence``) wears the weapon (shield) used: the one named, or the only one
equipped.
"""

from __future__ import annotations

from lazaretto.core.character import Character
from lazaretto.core.engine import ActionContext
from lazaretto.rulesets.fantasy_server.common import fstate, get_item, refuse
from lazaretto.rulesets.fantasy_server.state import Item

PURPOSE_KIND = {"attack": "weapon", "defence": "shield", "defense": "shield"}
"""The roll purposes whose critical failures wear an item, and the kind of that item."""

RULE = {"weapon": "S-BRK-01", "shield": "S-BRK-03"}
NEEDS_EQUIPPED = frozenset({"weapon", "shield", "armor", "clothing", "accessory", "other"})
"""Kinds that wear only while equipped; a tool wears in any role-play use (S-BRK-09)."""


def require_in_use(item: Item) -> None:
    """Refuse to count a critical against an item nobody has equipped (A-S-11)."""
    if item.kind in NEEDS_EQUIPPED and not item.equipped and not item.event_item:
        rule = RULE.get(item.kind, "S-BRK-05" if item.kind in ("armor", "clothing") else "S-BRK-07")
        refuse(
            f"{item.name} is not equipped, so no critical wears it ({rule}, A-S-11)",
            f"{item.name} не экипирован, и крит его не изнашивает ({rule}, A-S-11)",
            rule,
            "A-S-11",
            tip="Equip it first with `equip-item`.",
            tip_ru="Сначала экипируйте его: `equip-item`.",
        )


def item_for_roll(
    ctx: ActionContext, ch: Character, purpose: str, item_id: str | None
) -> Item | None:
    """The weapon (attack) or shield (defence) a roll of ``purpose`` is made with: the one
    named, else the only one ``ch`` has equipped; None when the roll wears nothing."""
    kind = PURPOSE_KIND.get(purpose.strip().casefold())
    if item_id is not None:
        item = get_item(ctx, item_id)
        if kind is None or item.kind != kind or item.owner != ch.id:
            wanted = kind or "weapon or shield"
            refuse(
                f"{item.name} is not {ch.name}'s {wanted} for a {purpose} roll",
                f"{item.name} — не {'оружие' if kind == 'weapon' else 'щит'} {ch.name} "
                f"для броска ({purpose})",
                RULE.get(kind or "weapon", "S-BRK-01"),
                tip="Use --purpose attack with a weapon, --purpose defence with a shield.",
                tip_ru="--purpose attack — с оружием, --purpose defence — со щитом.",
            )
        require_in_use(item)
        return item
    if kind is None:
        return None
    held = [
        i
        for i in fstate(ctx).items.values()
        if i.owner == ch.id and i.kind == kind and i.equipped and i.status != "destroyed"
    ]
    if len(held) > 1:
        names = ", ".join(i.id for i in held)
        refuse(
            f"{ch.name} has several {kind}s equipped ({names}): name the one used with --item",
            f"У {ch.name} экипировано несколько ({names}): укажите использованный: --item",
            RULE[kind],
            "A-S-11",
        )
    return held[0] if held else None
