"""The character card and the texts of the fantasy-server log (English and Russian)."""

from __future__ import annotations

from typing import Any, cast

from lazaretto.core.state import CampaignState
from lazaretto.rulesets.fantasy_server.addiction import behaviour
from lazaretto.rulesets.fantasy_server.equipment import figures, stat_report, worn
from lazaretto.rulesets.fantasy_server.params import FantasyParams
from lazaretto.rulesets.fantasy_server.state import FantasyState

STATES = {
    "healthy": ("healthy", "здоров"),
    "wounded": ("wounded", "ранен"),
    "traumatised": ("has traumas", "есть травмы"),
    "grave": ("grave condition", "тяжёлое состояние"),
    "dead": ("dead", "мёртв"),
}
CONDITIONS = {
    "trauma": ("trauma", "травма"),
    "caught_red_handed": ("caught red-handed", "пойман с поличным"),
    "fallen_down": ("fallen to the ground", "упал на землю"),
    "hidden": ("hidden", "скрывается"),
    "ambush_ready": ("ambush: +20 to the first attack", "засада: +20 к первой атаке"),
    "spotted_sneaker": ("spotted a sneaker", "заметил крадущегося"),
    "artifact_lockout": ("cannot create artifacts", "не может создавать артефакты"),
    "torture_lockout": ("cannot be tortured again today", "сегодня пытать нельзя"),
    "no_heavy_work": ("no heavy work", "без тяжёлых работ"),
    "next_roll_penalty": ("-2 to the next roll", "-2 к следующему броску"),
    "rudimentary_limb": ("rudimentary limb", "рудиментарная конечность"),
    "grave_condition": ("grave condition", "тяжёлое состояние"),
    "addiction": ("alchemical addiction", "алхимическая зависимость"),
    "disease": ("disease: rest and warmth", "болезнь: отдых и тепло"),
    "neurosis": ("neurosis", "невроз"),
    "skill_cooldown": ("healing skill recharging", "навык лечения перезаряжается"),
    "dead": ("dead", "мёртв"),
}
ACTIVITIES = {
    "fight": ("fight", "сражаться"),
    "sneak": ("sneak", "красться"),
    "heavy_work": ("heavy work", "тяжёлая работа"),
    "magical_healing": ("receive magical healing", "получать магическое лечение"),
    "physical_healing": ("receive physical healing", "получать физическое лечение"),
    "drink_potions": ("drink healing potions", "пить зелья лечения"),
    "create_artifacts": ("create artifacts", "создавать артефакты"),
    "be_tortured": ("be tortured", "подвергаться пыткам"),
    "wear_heavy_armor": ("wear armour heavier than light", "носить броню тяжелее лёгкой"),
}


def label(table: dict[str, tuple[str, str]], key: str, lang: str) -> str:
    """The English or Russian label of ``key``."""
    en, ru = table.get(key, (key, key))
    return ru if lang == "ru" else en


def _allowed(st: FantasyState, char_id: str) -> list[str]:
    ch = st.characters[char_id]
    if not ch.alive:
        return []
    acts = list(ACTIVITIES)
    out = {
        "no_heavy_work": "heavy_work",
        "artifact_lockout": "create_artifacts",
        "torture_lockout": "be_tortured",
    }
    for kind, act in out.items():
        if ch.has(kind):
            acts.remove(act)
    if ch.data.get("reduced_magic") or ch.data.get("is_construct"):
        acts.remove("magical_healing")
    if any(c.kind == "trauma" and c.data.get("key") == "tumour" for c in ch.conditions):
        acts.remove("wear_heavy_armor")
    if st.combat_of(char_id) is not None:
        acts.remove("sneak")
    return acts


def describe(state: CampaignState, char_id: str, lang: str, params: Any) -> dict[str, Any]:
    """A JSON-able card of ``char_id`` (labels in ``lang``)."""
    p = cast(FantasyParams, params)
    st = cast(FantasyState, state)
    ch = st.characters[char_id]
    rec = st.addiction(ch.id)
    traumas = [c for c in ch.conditions if c.kind == "trauma"]
    if not ch.alive:
        key = "dead"
    elif rec.withdrawal_state == "grave":
        key = "grave"
    elif traumas:
        key = "traumatised"
    else:
        key = "wounded" if ch.hits < ch.hits_max else "healthy"
    combat = stat_report(st, ch, "combat", p)
    rp = stat_report(st, ch, "rp", p)
    ru = lang == "ru"
    return {
        "id": ch.id,
        "name": ch.name,
        "race": ch.race,
        "age": ch.age,
        "hits": ch.hits,
        "hits_max": ch.hits_max,
        "alive": ch.alive,
        "state": key,
        "state_label": label(STATES, key, lang),
        "stats": {
            name: {
                "base": combat[name].base,
                "combat": combat[name].value,
                "rp": rp[name].value if name in rp else combat[name].base,
                "reserve": combat[name].reserve,
            }
            for name in combat
        },
        "conditions": [
            {
                "kind": c.kind,
                "label": (
                    c.data.get("name_ru" if ru else "name") or label(CONDITIONS, c.kind, lang)
                )
                if c.kind == "trauma"
                else label(CONDITIONS, c.kind, lang),
                "visibility": c.visibility.value,
                "started": c.started.isoformat(),
                "deadline": c.deadline.isoformat() if c.deadline else None,
                "data": c.data,
            }
            for c in ch.conditions
        ],
        "equipment": [
            {
                "item": it.id,
                "name": it.name,
                "slots": it.equipped,
                "status": it.status,
                "nature": it.nature,
                "defense_bonus": figures(it).defense_bonus,
            }
            for it in worn(st, ch.id)
        ],
        "addiction": {
            "stage": rec.stage,
            "behaviour": behaviour(p, rec.stage, lang),
            "withdrawal": rec.withdrawal,
            "withdrawal_state": rec.withdrawal_state,
        },
        "allowed": [label(ACTIVITIES, a, lang) for a in _allowed(st, ch.id)],
        "skills": ch.skills,
        "sheet": {
            k: ch.data.get(k) for k in ("reduced_magic", "is_construct", "healing_skill_level")
        },
    }
