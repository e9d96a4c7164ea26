"""What a character wears and what it gives: slots, effective stats and capped
parameter bonuses (S-ART-10..20, S-STAT).

Combat slots (S-ART-10) and role-play slots (S-ART-17) are two sets; an item equipped in
both counts in both (S-ART-18). Only passive artifacts give bonuses by themselves
(S-ART-16), only while their properties work (approved, not broken: S-ART-04, S-BRK-01).
"""

from __future__ import annotations

from dataclasses import dataclass

from lazaretto.core.character import Character
from lazaretto.rulesets.fantasy_server.params import STATS, FantasyParams
from lazaretto.rulesets.fantasy_server.statbonus import StatBonus, apply_stat_bonus
from lazaretto.rulesets.fantasy_server.state import FantasyState, Item

SLOT_OF_KIND: dict[str, dict[str, str]] = {
    # item kind -> slot name in each set (S-ART-10, S-ART-17)
    "combat": {
        "weapon": "weapon",
        "shield": "shield",
        "armor": "armor_clothing",
        "clothing": "armor_clothing",
        "accessory": "accessory",
    },
    "rp": {"clothing": "clothing", "accessory": "accessory", "tool": "tool"},
}


def slot_of(item: Item, slot_set: str) -> str | None:
    """The slot ``item`` takes in ``slot_set``, or None if it has none there."""
    return SLOT_OF_KIND[slot_set].get(item.kind)


def capacity(p: FantasyParams, slot_set: str, slot: str) -> int:
    """How many slots of ``slot`` a character has in ``slot_set``."""
    slots = p.combat_slots if slot_set == "combat" else p.rp_slots
    return int(getattr(slots, slot))


def used(state: FantasyState, char_id: str, slot_set: str, slot: str) -> int:
    """Slots of ``slot`` taken in ``slot_set`` (a bulky accessory takes several: S-ART-11)."""
    return sum(
        it.slot_size
        for it in state.items.values()
        if it.owner == char_id and slot_set in it.equipped and slot_of(it, slot_set) == slot
    )


def worn(state: FantasyState, char_id: str, slot_set: str | None = None) -> list[Item]:
    """Items ``char_id`` has equipped (in ``slot_set``, or in any set)."""
    return [
        it
        for it in state.items.values()
        if it.owner == char_id
        and it.equipped
        and (slot_set is None or slot_set in it.equipped)
        and it.status != "destroyed"
    ]


def giving(state: FantasyState, char_id: str, slot_set: str) -> list[Item]:
    """Equipped passive artifacts whose properties act (S-ART-16, S-ART-19)."""
    return [it for it in worn(state, char_id, slot_set) if it.works and it.activation == "passive"]


def stat_points(
    state: FantasyState, char_id: str, slot_set: str, extra: Item | None = None
) -> dict[str, int]:
    """Summed artifact bonus points per stat (S-STAT-04); ``extra`` as if also worn."""
    points: dict[str, int] = {}
    items = giving(state, char_id, slot_set)
    if extra is not None and extra not in items:
        items.append(extra)
    for it in items:
        for name, value in it.stat_bonus.items():
            points[name] = points.get(name, 0) + value
    return points


def stat_report(
    state: FantasyState,
    ch: Character,
    slot_set: str,
    p: FantasyParams,
    extra: Item | None = None,
) -> dict[str, StatBonus]:
    """Every stat of ``ch`` with the artifacts worn in ``slot_set`` (S-STAT-03..09)."""
    points = stat_points(state, ch.id, slot_set, extra)
    return {
        name: apply_stat_bonus(
            int(ch.stats.get(name, 0)),
            points.get(name, 0),
            mode=p.stat_bonus_mode,
            bands=p.stat_band_costs,
            cap=p.stat_bonus_cap,
        )
        for name in STATS
        if name in ch.stats or name in points
    }


def effective_stat(
    state: FantasyState, ch: Character, name: str, slot_set: str, p: FantasyParams
) -> int:
    """A stat with the artifact bonuses of ``slot_set`` applied."""
    report = stat_report(state, ch, slot_set, p)
    return report[name].value if name in report else int(ch.stats.get(name, 0))


def param_bonuses(
    state: FantasyState, char_id: str, slot_set: str, p: FantasyParams, extra: Item | None = None
) -> dict[str, tuple[int, int]]:
    """Each named parameter's (capped bonus, raw sum) from worn artifacts (S-ART-20)."""
    sums: dict[str, int] = {}
    items = giving(state, char_id, slot_set)
    if extra is not None and extra not in items:
        items.append(extra)
    for it in items:
        for name, value in it.param_bonus.items():
            sums[name] = sums.get(name, 0) + value
    return {name: (min(p.other_param_bonus_cap, raw), raw) for name, raw in sums.items()}


@dataclass(frozen=True)
class ItemFigures:
    """An item's combat numbers after breakage penalties (S-BRK-01..06)."""

    damage_penalty: int
    defense_bonus: int
    armor_value: int


def figures(item: Item) -> ItemFigures:
    """The item's numbers with its accumulated penalty; a shield never below 0 (S-BRK-03)."""
    if item.kind == "weapon":
        return ItemFigures(-item.penalty, 0, 0)
    if item.kind == "shield":
        return ItemFigures(0, max(0, item.defense_bonus - item.penalty), 0)
    if item.kind in ("armor", "clothing"):
        return ItemFigures(0, 0, item.armor_value - item.penalty)
    return ItemFigures(0, 0, 0)
