"""Rehabilitation time in the Hospital / мертвяк (Z-ZONE, Z-INF-05, Z-IMPL; A-Z-11/12/28).

A pure calculator: the stay of a character from the six zones of their sheet, whether
an infection counts, and their implants. The text gives three conflicting tables
(A-Z-11), chosen by ``rehab_mode``; an identified infection either doubles the stay
(``multiply``) or makes each damaged zone count as infected (``zone_20``), never both
(A-Z-12). Implants then take minutes off their zone, never below 0 (A-Z-28), and the
stay is at least the table's base (``min_minutes``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from lazaretto.core.character import Character
from lazaretto.rulesets.zone_larp.params import ZONES, ImplantSpec, ZoneParams, ZoneState
from lazaretto.rulesets.zone_larp.state import INFECTION, conditions

MILDER: dict[ZoneState, ZoneState] = {
    "infected": "damaged",
    "damaged": "intact",
    "intact": "intact",
}


@dataclass(frozen=True)
class ZoneLine:
    """One zone's share of the stay."""

    zone: str
    state: ZoneState
    counted_as: ZoneState
    minutes: float
    implants: tuple[str, ...] = ()


@dataclass(frozen=True)
class RehabEstimate:
    """A stay and how it was reached (JSON-able through :meth:`to_dict`)."""

    mode: str
    lines: tuple[ZoneLine, ...]
    infection: bool
    multiplier: int
    base: int
    minutes: int
    rule_ids: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """The estimate as plain data."""
        return {
            "mode": self.mode,
            "minutes": self.minutes,
            "infection_counts": self.infection,
            "multiplier": self.multiplier,
            "base_minutes": self.base,
            "zones": [
                {
                    "zone": ln.zone,
                    "state": ln.state,
                    "counted_as": ln.counted_as,
                    "minutes": ln.minutes,
                    "implants": list(ln.implants),
                }
                for ln in self.lines
            ],
            "rule_ids": list(self.rule_ids),
        }


@dataclass(frozen=True)
class Implant:
    """An installed implant; a damaged one does nothing until repaired (Z-IMPL-05)."""

    name: str
    spec: ImplantSpec
    damaged: bool = False


def rehab_minutes(
    zones: Mapping[str, str],
    infection: bool,
    implants: Iterable[Implant],
    p: ZoneParams,
) -> RehabEstimate:
    """The stay in minutes for a sheet with ``zones``.

    Args:
        zones: zone -> ``intact``/``damaged``/``infected`` (a missing zone is intact).
        infection: an infection counts (identified, or health getting worse: A-Z-12).
        implants: the character's implants.
        p: the campaign's parameters.
    """
    table = p.rehab_table
    working = [i for i in implants if not i.damaged]
    multiply = infection and p.infection_rule == "multiply"
    mult = p.infection_multiplier if multiply else 1
    rules = ["Z-REHAB-12", "Z-REHAB-13", "Z-ZONE-01", "A-Z-11"]
    lines: list[ZoneLine] = []
    for zone in ZONES:
        state: ZoneState = _state(zones.get(zone, "intact"))
        mine = [i for i in working if i.spec.zone in (zone, "all")]
        counted = state
        for imp in mine:
            if imp.spec.mechanism == "containment":  # Z-IMPL-02/03: купирование
                counted = MILDER[counted]
        if multiply and counted == "infected":
            counted = "damaged"  # A-Z-12: doubling already makes it 20, never 40
        if infection and p.infection_rule == "zone_20" and counted == "damaged":
            counted = "infected"  # Z-ZONE-08: 20 minutes for every damaged zone
        minutes = float(table.minutes(counted) * mult)
        for imp in mine:
            minutes = max(0.0, minutes * imp.spec.factor - imp.spec.minutes)
        lines.append(ZoneLine(zone, state, counted, minutes, tuple(i.name for i in mine)))
    if infection:
        rules += ["Z-INF-05", "A-Z-12"] if multiply else ["Z-ZONE-06", "Z-ZONE-08", "A-Z-12"]
    if working:
        rules += ["Z-IMPL-01", "Z-IMPL-03", "A-Z-28"]
    else:
        rules.append("Z-IMPL-04")
    base = table.min_minutes * mult
    total = max(float(base), sum(ln.minutes for ln in lines))
    return RehabEstimate(
        mode=p.rehab_mode,
        lines=tuple(lines),
        infection=infection,
        multiplier=mult,
        base=base,
        minutes=round(total),
        rule_ids=tuple(rules),
    )


def _state(value: str) -> ZoneState:
    if value == "damaged":
        return "damaged"
    if value == "infected":
        return "infected"
    return "intact"


def implants_of(ch: Character) -> list[Implant]:
    """A character's implants as the calculator needs them."""
    out = []
    for raw in ch.data.get("implants", []):
        spec = ImplantSpec.model_validate(raw["spec"])
        out.append(Implant(raw["name"], spec, bool(raw.get("damaged"))))
    return out


def infection_counts(ch: Character, p: ZoneParams, worsening: bool = False) -> bool:
    """Whether ``ch``'s infections lengthen the stay (A-Z-12): an identified one, any
    one if identification is not required, or health getting worse."""
    found = conditions(ch, INFECTION)
    if not p.infection_requires_identification and found:
        return True
    return worsening or any(c.data.get("identified") for c in found)


def estimate_for(ch: Character, p: ZoneParams, worsening: bool = False) -> RehabEstimate:
    """The stay of ``ch`` as their sheet stands now."""
    return rehab_minutes(ch.zones, infection_counts(ch, p, worsening), implants_of(ch), p)
