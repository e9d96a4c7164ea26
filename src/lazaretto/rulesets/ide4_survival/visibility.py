"""What a player's view of the state leaves out beyond hidden conditions (I-IMM-01).

A disease case is known only through a condition the viewer may see: an incubating
case's condition is the GM's alone, so the case is not shown until the character falls
sick. When a disease kills is the GM's to tell (A-I-17): no case shows its death date
to anyone but a master.
"""

from __future__ import annotations

from typing import cast

from lazaretto.core.state import CampaignState
from lazaretto.core.visibility import Viewer
from lazaretto.rulesets.ide4_survival.state import Ide4State


def redact(state: CampaignState, char_id: str, viewer: Viewer) -> CampaignState:
    """``state`` without the cases of ``char_id`` the viewer may not know of, and
    without any case's death date (a copy; ``state`` is not changed)."""
    if viewer.master:
        return state
    st = cast(Ide4State, state)
    ch = st.characters[char_id]
    known = {c.data.get("key") for c in ch.conditions} | {c.data.get("case") for c in ch.conditions}
    cases = {
        cid: case.model_copy(update={"death_at": None}) if case.death_at else case
        for cid, case in st.cases.items()
        if case.character != char_id or cid in known
    }
    view = st.model_copy()
    view.cases = cases
    return view
