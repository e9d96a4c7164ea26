"""Whose hand each disease sticker is in: a carrier's, a victim's, a lab's stock.

"The stickers ``X`` holds" is asked on every infection, cure and wave (``held``,
``in_stock`` in ``stickers.py``). A campaign's stickers only grow (every certificate,
wave and lab batch adds some, and a cured one stays as a record), so looking through all
of them would make those actions cost as much as the game's whole sticker history, and
would make the parts store (``service/state_store.py``) look at every sticker. This
index answers from the holder. It is derived, never stored: built by one reading scan
for each state object (a copy builds its own) and kept up to date by the reducers that
make a sticker or change its holder (:func:`made`, :func:`handed`).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lazaretto.rulesets.warhammer_larp.models import Sticker
    from lazaretto.rulesets.warhammer_larp.state import WarhammerState


@dataclass
class Hands:
    """Sticker codes by holder, and each code's place in the order they were made."""

    by_holder: dict[str, set[str]] = field(default_factory=dict)
    made: dict[str, int] = field(default_factory=dict)


def hands(st: WarhammerState) -> Hands:
    """The index of ``st`` (built on first use for this very object)."""
    kept = st._hands
    if kept is not None and kept[0]() is st:
        return kept[1]
    index = Hands()
    # dict.items: reading the stickers is not touching them (service/state_store.py)
    for n, (code, s) in enumerate(dict.items(st.stickers)):
        index.made[code] = n
        index.by_holder.setdefault(s.holder, set()).add(code)
    st._hands = (weakref.ref(st), index)
    return index


def made(st: WarhammerState, sticker: Sticker) -> None:
    """A new sticker, in its first holder's hand (after ``st.stickers`` has it)."""
    index = hands(st)
    index.made.setdefault(sticker.code, len(index.made))
    index.by_holder.setdefault(sticker.holder, set()).add(sticker.code)


def handed(st: WarhammerState, code: str, before: str, after: str) -> None:
    """Sticker ``code`` went from ``before``'s hand to ``after``'s."""
    index = hands(st)
    codes = index.by_holder.get(before)
    if codes is not None:
        codes.discard(code)
    index.by_holder.setdefault(after, set()).add(code)


def of(st: WarhammerState, holder: str) -> list[Sticker]:
    """Every sticker ``holder`` has (any status), in the order they were made. Read
    without touching: whoever changes one does it through an event, whose reducer looks
    it up."""
    index = hands(st)
    codes = sorted(index.by_holder.get(holder, ()), key=index.made.__getitem__)
    found = (dict.get(st.stickers, c) for c in codes)
    return [s for s in found if s is not None and s.holder == holder]
