"""The character card: each active state with its shift, its source and the rule IDs
that produced it, plus calm, rerolls, energy limit, load, sleep and diseases."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from lazaretto.core.character import Condition
from lazaretto.core.state import CampaignState
from lazaretto.rulesets.ide4_survival import d100
from lazaretto.rulesets.ide4_survival.common import known_diseases
from lazaretto.rulesets.ide4_survival.d100 import deprivation_cut
from lazaretto.rulesets.ide4_survival.params import IdeParams
from lazaretto.rulesets.ide4_survival.state import Ide4State, survivor
from lazaretto.rulesets.ide4_survival.tables import condition_table

STRESS_LABELS = {
    "calm": ("calm", "спокоен"),
    "tense": ("tense", "напряжён"),
    "stressed": ("stressed", "в стрессе"),
    "on_the_edge": ("on the edge", "на грани"),
}
STAGES = {
    1: ("malaise", "недомогание"),
    2: ("illness", "болезнь"),
    3: ("dangerous state", "опасное состояние"),
    4: ("deadly stage", "смертельная стадия"),
}


def _pick(pair: tuple[str, str], lang: str) -> str:
    return pair[1] if lang == "ru" else pair[0]


def _deprivation_shift(p: IdeParams, limit: int, lang: str) -> str:
    """The energy-limit cut of "sleep-deprived" with this campaign's numbers (I-SLEEP-12
    in the basic game, I-SLEEP-13 in extended mode): the table's text says the basic one."""
    cut, base, floor = deprivation_cut(p)[0], p.energy_limit_base, p.energy_limit_min
    if lang == "ru":
        return (
            f"−{cut} к лимиту кубов энергии после броска (с {base} до {limit}; минимум "
            f"{floor}) или +1 к концентрации — по сцене"
        )
    return (
        f"−{cut} to the after-roll energy-dice limit ({base} → {limit}, min {floor}) "
        "or +1 to concentration, by scene"
    )


def condition_label(
    st: Ide4State, c: Condition, lang: str, deprived: tuple[IdeParams, int] | None = None
) -> str:
    """ "Name (shift) — source [rule IDs]" for one condition; ``deprived`` (the campaign's
    parameters and the character's energy limit) words the sleep-deprived cut and how a
    loaded character tires faster."""
    table = condition_table()
    name = table.label(c.kind, lang)
    row = table.states.get(c.kind)
    shift = ""
    if row is not None and c.kind not in ("fed", "stressed"):
        shift = row.shift.ru if lang == "ru" else row.shift.en
    if c.kind == "sleep_deprived" and deprived is not None:
        shift = _deprivation_shift(deprived[0], deprived[1], lang)
    if c.kind == "loaded" and deprived is not None and deprived[0].loaded_fatigue_check_shift:
        n = deprived[0].loaded_fatigue_check_shift  # I-LOAD-04: how it tires faster
        name += (
            f" (+{n} к проверке Выносливости на марше)"
            if lang == "ru"
            else (f" (+{n} to the march's Endurance check)")
        )
    if c.kind == "sick":
        stage = int(c.data.get("stage", 1))
        shift = _pick(STAGES.get(stage, ("?", "?")), lang)
    why = c.data.get("why_ru" if lang == "ru" else "why_en") or c.source
    rules = ", ".join(c.data.get("rules", []))
    text = f"{name} ({shift})" if shift else name
    if why:
        text += f" — {why}"
    return f"{text} [{rules}]" if rules else text


def describe(state: CampaignState, char_id: str, lang: str, params: Any) -> dict[str, Any]:
    """A JSON-able card of ``char_id`` (labels in ``lang``)."""
    st = cast(Ide4State, state)
    p = cast(IdeParams, params)
    ch = st.characters[char_id]
    s = survivor(st, char_id)
    now = st.clock.now() if st.clock is not None else datetime.now()
    simplified = p.resolved("stress") == "simplified"
    stress = p.simplified_stress_map.get(s.calm, str(s.calm))
    calm_text = (
        _pick(STRESS_LABELS.get(stress, (stress, stress)), lang)
        if simplified
        else f"{'спокойствие' if lang == 'ru' else 'calm'} {s.calm}/{p.calm_points_max}"
    )
    shown = [c for c in ch.conditions if c.kind != "dead"]
    names = [condition_table().label(c.kind, lang) for c in shown]
    state_label = (
        "; ".join([calm_text, *names]) if ch.alive else condition_table().label("dead", lang)
    )
    catalogue = known_diseases(st)
    cases = [
        {
            "id": c.id,
            "disease": c.disease,
            "name": (catalogue[c.disease].name.ru if lang == "ru" else catalogue[c.disease].name.en)
            if c.disease in catalogue
            else c.disease,
            "status": c.status,
            "stage": c.stage,
            "death_at": c.death_at.isoformat() if c.death_at else None,
            "treatments": c.treatments,
        }
        for c in st.cases.values()
        if c.character == char_id and c.status in ("incubating", "sick")
    ]
    return {
        "id": ch.id,
        "name": ch.name,
        "race": ch.race,
        "age": ch.age,
        "hits": ch.hits,
        "hits_max": ch.hits_max,
        "alive": ch.alive,
        "state": "dead" if not ch.alive else ("stressed" if s.calm <= 1 else "ok"),
        "state_label": state_label,
        "conditions": [
            {
                "kind": c.kind,
                "label": condition_label(st, c, lang, (p, d100.energy_limit(ch, s, p, False))),
                "source": c.data.get("why_ru" if lang == "ru" else "why_en") or c.source,
                "rules": list(c.data.get("rules", [])),
                "visibility": c.visibility.value,
                "started": c.started.isoformat(),
                "deadline": c.deadline.isoformat() if c.deadline else None,
                "data": c.data,
            }
            for c in ch.conditions
        ],
        "calm": s.calm,
        "stress": stress if simplified else None,
        "adrenaline_d20": s.adrenaline,
        "tragedy_replacements": s.replacements,
        "spells_multiplier": p.caster_calm1_multiplier if s.caster and s.calm == 1 else 1,
        "energy_limit": d100.energy_limit(ch, s, p, False),
        "rerolls": [
            {
                "kind": r.kind,
                "usable_from": r.usable_from.isoformat(),
                "expires": r.expires.isoformat() if r.expires else None,
                "source": r.source,
            }
            for r in s.rerolls
            if r.expires is None or r.expires > now
        ],
        "pacified_reroll": s.calm == p.calm_points_max
        and not (s.pacified_used and s.pacified_used.date() == now.date()),
        "load": s.load,
        "pace": s.pace,
        "asleep": s.asleep,
        "sleep_options": s.sleep_options,
        "last_sleep": s.last_sleep.model_dump(mode="json") if s.last_sleep else None,
        "poison_points": s.poison_points,
        "xp_pending": s.xp_pending,
        "cases": cases,
        "stamina": s.stamina,
        "burns": s.burns,
    }
