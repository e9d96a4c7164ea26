"""The zone-larp character card (чарлист): state, zones, what is allowed, props.

The Hospital is one place under four names — «Госпиталь», «мертвяк», «стационар»,
«игротехническая локация» (A-Z-32) — and is called "the Hospital (мертвяк)" here.
"""

from __future__ import annotations

from typing import Any, cast

from lazaretto.core.state import CampaignState
from lazaretto.rulesets.zone_larp import checks
from lazaretto.rulesets.zone_larp.params import ZONES, ZoneParams
from lazaretto.rulesets.zone_larp.rehab import estimate_for
from lazaretto.rulesets.zone_larp.state import HEAVY, TRAUMA, conditions
from lazaretto.rulesets.zone_larp.texts import ACTIVITIES, CONDITIONS, ZONE_LABELS, ZONE_STATES

POSTURES = {  # Z-LW-04, Z-HW-07, Z-TRT-04; A-Z-24
    "light": "lying_or_sitting",
    "heavy_waiting": "lying_or_sitting",
    "dying": "lying_or_sitting",
    "in_treatment": "lying",
    "on_table": "lying",
}


def label(table: dict[str, tuple[str, str]], key: str, lang: str) -> str:
    """The English or Russian label of ``key``."""
    en, ru = table.get(key, (key, key))
    return ru if lang == "ru" else en


def describe(state: CampaignState, char_id: str, lang: str, params: Any) -> dict[str, Any]:
    """A JSON-able card of ``char_id``: state, sheet, what is allowed (labels in ``lang``)."""
    p = cast(ZoneParams, params)
    ch = state.characters[char_id]
    st = checks.wound_state(ch, p)
    names = p.state_labels.get(st)
    acts = checks.allowed(ch, p)
    heavy = ch.condition(HEAVY)
    props = [*p.state_props.get("any", []), *p.state_props.get(st, [])]
    traumas = conditions(ch, TRAUMA)
    return {
        "id": ch.id,
        "name": ch.name,
        "race": ch.race,
        "age": ch.age,
        "hits": ch.hits,
        "hits_max": ch.hits_max,
        "alive": ch.alive,
        "state": st,
        "state_label": (names.ru if lang == "ru" else names.en) if names else st,
        "posture": POSTURES.get(st),
        "armband": bool(heavy and heavy.data.get("armband")),
        "conditions": [
            {
                "kind": c.kind,
                "label": label(CONDITIONS, c.kind, lang),
                "visibility": c.visibility.value,
                "started": c.started.isoformat(),
                "deadline": c.deadline.isoformat() if c.deadline else None,
                "data": c.data,
            }
            for c in ch.conditions
        ],
        "zones": [
            {
                "zone": z,
                "label": label(ZONE_LABELS, z, lang),
                "state": ch.zones.get(z, "intact"),
                "state_label": label(ZONE_STATES, ch.zones.get(z, "intact"), lang),
            }
            for z in ZONES
        ],
        "trauma_fields_left": max(0, p.max_traumas - len(traumas)),
        "implants": list(ch.data.get("implants", [])),
        "insurance": bool(ch.data.get("insurance")),
        "memory_gaps": list(ch.data.get("memory_gaps", [])),
        "rehab_minutes": estimate_for(ch, p).minutes,
        "allowed": [label(ACTIVITIES, a, lang) for a in acts],
        "forbidden": [label(ACTIVITIES, a, lang) for a in ACTIVITIES if a not in acts],
        "props": [{"rule": i.rule, "text": i.ru if lang == "ru" else i.en} for i in props],
        "skills": ch.skills,
    }
