"""Shared pieces of the dnd5e-injuries handlers: parameters, refusals, a character's
injuries, and how an injury's parts are written in English and Russian.

Where things live on a :class:`~lazaretto.core.character.Character`:

* ``stats`` — the D&D numbers (set with ``set-dnd-stats``): ``con`` (Constitution
  *score*), ``proficiency`` (proficiency bonus), ``level`` (character level), or for a
  monster ``cr`` (challenge rating rounded down) / ``hit_dice``; ``ac`` (armour class as
  on the sheet, a carried shield included) and ``shield`` (that shield's AC bonus).
* ``hits`` / ``hits_max`` — current and maximum hit points (хиты).
* ``conditions`` — ``injury_pending`` (triggered, not yet announced), ``injury`` (one per
  received injury, ``data`` = the record: row, location, severity, effects, treatment),
  ``reaction_spent``, ``shield_knocked``, ``armor_damaged``.
* ``data`` — ``enemy`` (injured only by an attacker's attempt, D-INF-03), ``turn`` (the
  creature's own turn counter), ``last_damage`` (A-D-03), ``last_hit`` (D-INF-01/02),
  ``lost_limbs`` (A-D-15).
"""

from __future__ import annotations

from typing import Any, NoReturn, cast

from lazaretto.core.character import Character, Condition
from lazaretto.core.errors import RuleViolation
from lazaretto.rulesets.dnd5e_injuries.params import DndParams

PENDING = "injury_pending"
INJURY = "injury"
REACTION_SPENT = "reaction_spent"
SHIELD_KNOCKED = "shield_knocked"
ARMOR_DAMAGED = "armor_damaged"

UNITS: dict[str, tuple[str, tuple[str, str, str]]] = {
    "turn": ("turn", ("ход", "хода", "ходов")),
    "minute": ("minute", ("минута", "минуты", "минут")),
    "hour": ("hour", ("час", "часа", "часов")),
    "day": ("day", ("день", "дня", "дней")),
    "week": ("week", ("неделя", "недели", "недель")),
}
LABELS: dict[str, tuple[str, str]] = {
    "location:head": ("head", "голова"),
    "location:arms": ("arms", "руки"),
    "location:legs": ("legs", "ноги"),
    "location:torso": ("torso", "торс"),
    "side:left": ("left", "левая"),
    "side:right": ("right", "правая"),
    "severity:light": ("light", "лёгкая"),
    "severity:medium": ("medium", "средняя"),
    "severity:heavy": ("heavy", "тяжёлая"),
    "damage_type:acid": ("acid", "кислота"),
    "damage_type:bludgeoning": ("bludgeoning", "дробящий"),
    "damage_type:cold": ("cold", "холод"),
    "damage_type:fire": ("fire", "огонь"),
    "damage_type:force": ("force", "силовое поле"),
    "damage_type:lightning": ("lightning", "электричество"),
    "damage_type:necrotic": ("necrotic", "некротический"),
    "damage_type:piercing": ("piercing", "колющий"),
    "damage_type:poison": ("poison", "яд"),
    "damage_type:psychic": ("psychic", "психический"),
    "damage_type:radiant": ("radiant", "излучение"),
    "damage_type:slashing": ("slashing", "рубящий"),
    "damage_type:thunder": ("thunder", "звук"),
    "trigger:critical_hit": ("hit by a critical hit", "получен критический удар"),
    "trigger:zero_hp": ("hit points dropped to 0", "хиты упали до 0"),
    "trigger:death_save_1": ("a 1 on a death save", "1 на спасброске от смерти"),
    "trigger:failed_save": ("a failed save against a harmful effect", "провал спасброска"),
    "trigger:enemy_attempt": ("an attacker's injury attempt", "попытка нанести травму"),
}
TRIGGER_RULES = {
    "critical_hit": ("D-COND-01", "A-D-04"),
    "zero_hp": ("D-COND-02",),
    "death_save_1": ("D-COND-03", "A-D-03"),
    "failed_save": ("D-COND-04", "A-D-03"),
    "enemy_attempt": ("D-INF-03", "A-D-07"),
}


def params(ctx: Any) -> DndParams:
    """The campaign's parameters (action or query context)."""
    return cast(DndParams, ctx.params)


def refuse(
    en: str, ru: str, *rule_ids: str, tip: str | None = None, tip_ru: str | None = None
) -> NoReturn:
    """Refuse the action, naming the rules and what to do instead."""
    raise RuleViolation(en, ru=ru, rule_ids=rule_ids, tip=tip, tip_ru=tip_ru)


def label(key: str, lang: str) -> str:
    """The English or Russian word for ``key`` (``"location:legs"``)."""
    en, ru = LABELS.get(key, (key.split(":", 1)[-1], key.split(":", 1)[-1]))
    return ru if lang == "ru" else en


def plural_ru(n: int, forms: tuple[str, str, str]) -> str:
    """``forms`` (one, few, many) chosen for ``n`` as Russian grammar wants."""
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return forms[0]
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return forms[1]
    return forms[2]


def span(n: int, unit: str, lang: str) -> str:
    """``3 turns`` / ``3 хода``."""
    en, ru = UNITS[unit]
    if lang == "ru":
        return f"{n} {plural_ru(n, ru)}"
    return f"{n} {en}{'' if n == 1 else 's'}"


def require_alive(ch: Character) -> None:
    """Refuse anything on a dead creature."""
    if not ch.alive:
        refuse(f"{ch.name} is dead", f"{ch.name} мёртв", "D-COND-05")


def pending(ch: Character) -> Condition | None:
    """The oldest injury waiting to be announced, if any."""
    return ch.condition(PENDING)


def injuries(ch: Character) -> list[Condition]:
    """Every injury the creature has (oldest first)."""
    return [c for c in ch.conditions if c.kind == INJURY]


def find_injury(ch: Character, injury_id: str | None) -> Condition:
    """The injury ``injury_id`` of ``ch`` (the only one when ``None``)."""
    found = injuries(ch)
    if injury_id is None and len(found) == 1:
        return found[0]
    for c in found:
        if c.data.get("id") == injury_id:
            return c
    ids = ", ".join(str(c.data.get("id")) for c in found) or "none"
    refuse(
        f"{ch.name} has no injury {injury_id or '(give --injury)'}; injuries: {ids}",
        f"У {ch.name} нет травмы {injury_id or '(укажите --injury)'}; травмы: {ids}",
        "D-ROLL-02",
        tip="See the character's card.",
        tip_ru="Смотрите карточку персонажа.",
    )


def lost_limbs(ch: Character) -> list[str]:
    """Limbs lost for good (``arm:left``, or ``arm`` when sides are not tracked)."""
    return list(ch.data.get("lost_limbs", []))


def turn(ch: Character) -> int:
    """The creature's own turn counter (start-turn adds one)."""
    return int(ch.data.get("turn", 0))


def effect_text(e: dict[str, Any], lang: str) -> str:
    """One applied effect with what was rolled for it: ``stunned 3 turns``."""
    base = str(e["ru"] if lang == "ru" else e["en"])
    kind, rolled = e["kind"], e.get("rolled")
    if kind in ("condition", "amnesia") and e.get("unit"):
        if rolled is None:
            return f"{base} {e['dice']} {span(2, e['unit'], lang).split(' ', 1)[1]}"
        return f"{base} {span(int(rolled), e['unit'], lang)}"
    if kind == "max_hp_loss":
        return f"−{rolled} {base} ({e['dice']})"
    if kind == "max_hp_set":
        return f"{base} = {e['amount']}"
    if kind == "bleeding":
        per = "за ход" if lang == "ru" else "a turn"
        return f"{base} {e['dice']} {per}"
    if kind in ("speed", "ac", "ability") and e.get("amount") is not None:
        return f"{base} {int(e['amount']):+d}"
    if kind in ("speed_set", "exhaustion") and e.get("amount") is not None:
        return f"{base} {e['amount']}" if kind == "speed_set" else f"{e['amount']} {base}"
    if e.get("gm"):
        gm = "мастер" if lang == "ru" else "GM"
        amount = e.get("amount")
        return f"{base} ({gm}: {amount if amount is not None else '?'})"
    return base


def effects_text(effects: list[dict[str, Any]], lang: str, *, active_only: bool = False) -> str:
    """The applied effects, joined."""
    shown = [e for e in effects if not (active_only and e.get("ended"))]
    return "; ".join(effect_text(e, lang) for e in shown)


def effective_ac(ch: Character) -> int | None:
    """AC now: the sheet's AC without a knocked-away shield, minus armour damage
    (A-D-09) and injuries' AC penalties (D-TAB-34); None if the AC is not known."""
    if "ac" not in ch.stats:
        return None
    ac = ch.stats["ac"]
    shield = ch.condition(SHIELD_KNOCKED)
    if shield is not None:
        ac -= int(shield.data.get("bonus", 0))
    armor = ch.condition(ARMOR_DAMAGED)
    if armor is not None:
        ac -= int(armor.data.get("penalty", 0))
    for inj in injuries(ch):
        for e in inj.data["effects"]:
            if e["kind"] == "ac" and not e["ended"] and e.get("amount") is not None:
                ac += int(e["amount"])
    return ac
