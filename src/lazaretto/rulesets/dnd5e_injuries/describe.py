"""What a creature's card shows, and the log's texts in English and Russian."""

from __future__ import annotations

from typing import Any

from lazaretto.core.character import Condition
from lazaretto.core.errors import LazarettoError
from lazaretto.core.state import CampaignState
from lazaretto.rulesets.dnd5e_injuries.caution import combat_caution
from lazaretto.rulesets.dnd5e_injuries.common import (
    ARMOR_DAMAGED,
    INJURY,
    LABELS,
    PENDING,
    REACTION_SPENT,
    SHIELD_KNOCKED,
    effective_ac,
    effects_text,
    injuries,
    label,
    lost_limbs,
)
from lazaretto.rulesets.dnd5e_injuries.params import DndParams
from lazaretto.rulesets.dnd5e_injuries.tables import TABLES

STATES = {
    "unhurt": ("unhurt", "без травм"),
    "injured": ("injured", "травмирован"),
    "pending": ("injury to be rolled", "травма ждёт броска"),
    "down": ("at 0 hit points", "0 хитов"),
    "dead": ("dead", "мёртв"),
}
CONDITION_LABELS = {
    PENDING: ("injury to be rolled", "травма ждёт броска"),
    REACTION_SPENT: ("reaction used", "реакция потрачена"),
    SHIELD_KNOCKED: ("shield knocked away", "щит выбит"),
    ARMOR_DAMAGED: ("armour damaged", "броня повреждена"),
}


def _state(ch: Any) -> str:
    if not ch.alive:
        return "dead"
    if ch.has(PENDING):
        return "pending"
    if ch.hits_max and ch.hits == 0:
        return "down"
    return "injured" if ch.has(INJURY) else "unhurt"


def _condition(c: Condition, lang: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "kind": c.kind,
        "visibility": c.visibility.value,
        "started": c.started.isoformat(),
        "deadline": c.deadline.isoformat() if c.deadline else None,
        "data": c.data,
    }
    if c.kind == INJURY:
        d = c.data
        where = label(f"location:{d['location']}", lang)
        if d.get("side"):
            where += f", {label('side:' + d['side'], lang)}"
        name = d["name_ru"] if lang == "ru" else d["name_en"]
        out["label"] = f"{name} ({where}; {label('severity:' + d['severity'], lang)})"
        out["effect"] = effects_text(d["effects"], lang, active_only=True)
        out["treatment"] = d["treatment_ru"] if lang == "ru" else d["treatment_en"]
        out["rule"] = d["row"]
    else:
        en, ru = CONDITION_LABELS.get(c.kind, (c.kind, c.kind))
        out["label"] = ru if lang == "ru" else en
    return out


def describe(state: CampaignState, char_id: str, lang: str, params: DndParams) -> dict[str, Any]:
    """A JSON-able card of ``char_id`` (labels in ``lang``)."""
    ch = state.characters[char_id]
    st = _state(ch)
    try:
        caution: str | None = combat_caution(ch.name, ch.stats, params).text()
    except LazarettoError:
        caution = None
    return {
        "id": ch.id,
        "name": ch.name,
        "hits": ch.hits,
        "hits_max": ch.hits_max,
        "alive": ch.alive,
        "enemy": bool(ch.data.get("enemy")),
        "state": st,
        "state_label": STATES[st][1] if lang == "ru" else STATES[st][0],
        "stats": ch.stats,
        "combat_caution": caution,
        "ac": effective_ac(ch),
        "turn": ch.data.get("turn", 0),
        "lost_limbs": lost_limbs(ch),
        "injuries": [c.data["id"] for c in injuries(ch)],
        "conditions": [_condition(c, lang) for c in ch.conditions],
    }


TEXTS: dict[str, tuple[str, str]] = {
    "stats:ac": ("AC", "КД"),
    "stats:con": ("CON", "ТЕЛ"),
    "stats:cr": ("CR", "ПО"),
    "stats:level": ("level", "уровень"),
    "stats:proficiency": ("proficiency", "владение"),
    "stats:hit_dice": ("hit dice", "кости хитов"),
    "stats:shield": ("shield AC", "КД щита"),
    "terms:level": ("level", "уровень"),
    "exact:none": ("no injury", "без травмы"),
    "percent:none": ("no injury", "без травмы"),
    **LABELS,
    **{
        f"how:{k}": v
        for k, v in {
            "treated": ("treated", "вылечено"),
            "natural": ("recovered by itself", "прошло само"),
            "effects_ended": ("its effects are over", "эффекты закончились"),
            "replaced": ("replaced by a new one", "заменена новой"),
            "gm": ("the GM's ruling", "решение мастера"),
        }.items()
    },
    **{f"method:{k}": (v.en, v.ru) for k, v in TABLES.methods.items()},
    "item:shield": ("shield", "щит"),
    "item:armor": ("armour", "броня"),
    "need:sub_table": (
        "no table for this damage type here: the GM picks a sub-table (--sub-table)",
        "для этого типа урона нет таблицы: мастер выбирает подтаблицу (--sub-table)",
    ),
    "need:reroll": (
        "that limb is already lost: roll the location again",
        "эта конечность уже потеряна: бросьте локацию заново",
    ),
    "reason:not_harmful": (
        "the effect cannot cause physical harm",
        "эффект не может причинить физический вред",
    ),
    "event:dnd.stats_set": (
        "{character}: {stats}; HP {hits}/{hits_max}",
        "{character}: {stats}; хиты {hits}/{hits_max}",
    ),
    "event:damage.taken": (
        "{character} takes {damage} {damage_type} damage: HP {hits_before} → {hits}",
        "{character} получает {damage} урона ({damage_type}): хиты {hits_before} → {hits}",
    ),
    "event:injury.triggered": (
        "{character} receives an injury — roll it, or Dodge / Equal Exchange first",
        "{character} получает травму — бросьте её или сначала уклонение / обмен",
    ),
    "event:injury.not_triggered": (
        "{character}: no injury — {reason}",
        "{character}: травмы нет — {reason}",
    ),
    "event:death_save.rolled": (
        "{character}: death save, natural {natural}",
        "{character}: спасбросок от смерти, на кубике {natural}",
    ),
    "event:save.failed": (
        "{character} fails a save against {effect}",
        "{character} проваливает спасбросок против {effect}",
    ),
    "event:injury.located": (
        "{character}: the injury lands on the {location} ({how_en})",
        "{character}: травма приходится на локацию «{location}» ({how_ru})",
    ),
    "event:injury.needs_gm": ("{character}: {need}", "{character}: {need}"),
    "event:injury.unmapped": (
        "{character}: no injury table for {damage_type} damage to the {location}: no injury",
        "{character}: нет таблицы для урона «{damage_type}» по локации «{location}»: травмы нет",
    ),
    "event:injury.received": (
        "{character}: {severity} injury, {where_en}, {damage_type} ({damage_en}): {name_en} — "
        "{effect_en}; treatment: {treatment_en}",
        "{character}: {severity} травма, {where_ru}, {damage_type} ({damage_ru}): {name_ru} — "
        "{effect_ru}; лечение: {treatment_ru}",
    ),
    "event:injury.disfigured": (
        "{character} is disfigured ({name_en}): {effect_en}; treatment: {treatment_en}",
        "{character}: обезображивание — {effect_ru}; лечение: {treatment_ru}",
    ),
    "event:injury.effect_ended": (
        "{character}: {name_en} — over: {what_en}",
        "{character}: {name_ru} — закончилось: {what_ru}",
    ),
    "event:injury.healed": (
        "{character}: {name_en} healed ({how})",
        "{character}: «{name_ru}» излечено ({how})",
    ),
    "event:injury.treatment_failed": (
        "{character}: treating {name_en} failed ({total} vs DC {dc})",
        "{character}: лечение «{name_ru}» не удалось ({total} против Сл {dc})",
    ),
    "event:injury.treatment_progress": (
        "{character}: {name_en} — success {successes} of {needed} ({total} vs DC {dc})",
        "{character}: «{name_ru}» — успех {successes} из {needed} ({total} против Сл {dc})",
    ),
    "event:injury.drained": (
        "{character}: injury takes {lost}: HP {hits}/{hits_max}",
        "{character}: травма отнимает {lost}: хиты {hits}/{hits_max}",
    ),
    "event:injury.bled": (
        "{character} bleeds {lost}: HP {hits}/{hits_max}",
        "{character} теряет {lost} от кровотечения: хиты {hits}/{hits_max}",
    ),
    "event:turn.started": ("{character}: turn {turn} starts", "{character}: начало хода {turn}"),
    "event:reaction.spent": ("{character} uses their reaction", "{character} тратит реакцию"),
    "event:injury.dodged": (
        "{character} dodges: no injury from this attack",
        "{character} уклоняется: травмы от этой атаки нет",
    ),
    "event:dodge.failed": ("{character} fails to dodge", "{character} не смог уклониться"),
    "event:injury.exchanged": (
        "{character} takes the blow on the {location} (Equal Exchange)",
        "{character} принимает удар локацией «{location}» (равноценный обмен)",
    ),
    "event:injury.attempted": (
        "{actor} tries to injure {target} (aim: {aim}, hit: {hit})",
        "{actor} пытается травмировать {target} (цель: {aim}, попал: {hit})",
    ),
    "event:shield.knocked_away": (
        "{actor} knocks {character}'s shield away (−{bonus} AC)",
        "{actor} выбивает щит у {character} (−{bonus} КД)",
    ),
    "event:armor.damaged": (
        "{actor} damages {character}'s armour (−{penalty} AC)",
        "{actor} повреждает броню {character} (−{penalty} КД)",
    ),
    "event:equipment.restored": (
        "{character}: {item} back in order",
        "{character}: {item} снова в порядке",
    ),
    "event:character.died": ("{character} dies", "{character} умирает"),
    "timer:injury_effect_ends": ("an injury effect ends", "конец эффекта травмы"),
    "timer:injury_recovers": ("an injury heals by itself", "травма проходит сама"),
    "timer:injury_drain": ("an injury takes hit points", "травма отнимает хиты"),
}
