"""Who lies where: the beds, operating tables and field mats each patient occupies.

A place names its occupant, one at a time (W-HOSP-13, W-HEAL-08). Freeing a patient's
places (a death, a cure, an operation's end) by looking at every place would cost as
much as the campaign has hospitals and mats, and, as the parts store sees it
(``service/state_store.py``), would touch every hospital and mat on every such change.
This index answers from the patient instead. It is derived, never stored: built by one
reading scan for each state object (a copy builds its own) and kept up to date by
:func:`seat` and :func:`release`, the only ways the reducers put a patient on a place or
take them off it.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lazaretto.rulesets.warhammer_larp.state import Hospital, Mat, Place, WarhammerState

Spot = tuple[str, str, str]
"""``("beds" | "tables", hospital id, place id)`` or ``("mats", "", mat id)``."""

Lying = dict[str, set[Spot]]
"""The spots each occupant lies on."""


def lying(state: WarhammerState) -> Lying:
    """The index of ``state`` (built on first use for this very object)."""
    held = state._lying
    if held is not None and held[0]() is state:
        return held[1]
    index: Lying = {}
    # dict.items: reading the places is not touching them (service/state_store.py)
    for hid, h in dict.items(state.hospitals):
        for what in ("tables", "beds"):
            for pid, p in getattr(h, what).items():
                if p.occupant is not None:
                    index.setdefault(p.occupant, set()).add((what, hid, pid))
    for mid, m in dict.items(state.mats):
        if m.occupant is not None:
            index.setdefault(m.occupant, set()).add(("mats", "", mid))
    state._lying = (weakref.ref(state), index)
    return index


def forget(state: WarhammerState) -> None:
    """Drop the index (places came or went): the next use builds it anew."""
    state._lying = None


def bed_spot(hospital: Hospital, place_id: str) -> Spot | None:
    """The spot of a bed, or of a table used as a bed (W-HOSP-14), as
    :meth:`Hospital.place` finds it."""
    if place_id in hospital.beds:
        return ("beds", hospital.id, place_id)
    if place_id in hospital.tables:
        return ("tables", hospital.id, place_id)
    return None


def _place(state: WarhammerState, spot: Spot) -> Place | Mat | None:
    what, hid, pid = spot
    if what == "mats":
        return state.mats.get(pid)
    h = state.hospitals.get(hid)
    return getattr(h, what).get(pid) if h is not None else None


def seat(state: WarhammerState, spot: Spot, char_id: str) -> None:
    """Put ``char_id`` on ``spot`` (whoever lay there is no longer on it)."""
    place = _place(state, spot)
    if place is None:
        return
    index = lying(state)
    if place.occupant is not None and place.occupant != char_id:
        index.get(place.occupant, set()).discard(spot)
    place.occupant = char_id
    index.setdefault(char_id, set()).add(spot)


def unseat(state: WarhammerState, spot: Spot, char_id: str) -> None:
    """Take ``char_id`` off ``spot`` if they lie there."""
    place = _place(state, spot)
    if place is not None and place.occupant == char_id:
        place.occupant = None
    spots = lying(state).get(char_id)
    if spots is not None:
        spots.discard(spot)


def release(state: WarhammerState, char_id: str) -> None:
    """Free every bed, table and mat ``char_id`` occupies."""
    for spot in lying(state).pop(char_id, set()):
        place = _place(state, spot)
        if place is not None and place.occupant == char_id:
            place.occupant = None
