"""How the CLI names the fields of a query's answer, in English and Russian.

A ruleset may name a field itself (a ``field:NAME`` text); otherwise the names here are
used, and a field named nowhere is shown with its underscores as spaces. The values
inside an answer (``light``, ``broken``) are named by the ruleset's own label texts
(``severity:light``, ``status:broken``): see :func:`value_label`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lazaretto.core.ruleset import Ruleset

FIELDS: dict[str, tuple[str, str]] = {
    "upcoming": ("upcoming", "впереди"),
    "code": ("code", "код"),
    "capacity": ("capacity", "предел"),
    "certificates": ("certificates", "сертификаты"),
    "contagious": ("contagious", "заразна"),
    "cure": ("cure", "излечение"),
    "disease": ("disease", "болезнь"),
    "history": ("history", "история"),
    "holder": ("holder", "у кого"),
    "infected": ("infected", "заражено"),
    "known": ("known", "известна"),
    "known_recipes": ("known recipes", "известные рецепты"),
    "lethal": ("lethal", "смертельна"),
    "looting": ("looting", "грабёж"),
    "minutes_to_death": ("minutes to death", "минут до смерти"),
    "penalties": ("penalties", "штрафы"),
    "protected_until": ("protected until", "защищена до"),
    "quests": ("quests", "квесты"),
    "races": ("races", "расы"),
    "recipe": ("recipe", "рецепт"),
    "reduction_medication": ("reduction medication", "снижающее лекарство"),
    "stock": ("stock", "на складе"),
    "supplies": ("supplies", "припасы"),
    "symptoms": ("symptoms", "симптомы"),
    "wealth": ("wealth", "богатство"),
    "batch": ("batch", "партия"),
    "lab": ("laboratory", "ЛСБ"),
    "epidemics": ("epidemics", "эпидемии"),
    "line": ("summary", "кратко"),
    "end_reason": ("ended by", "причина конца"),
    "end_rule_ids": ("end rules", "правила конца"),
    "ended_at": ("ended at", "окончена в"),
    "waves": ("waves", "волны"),
    "started": ("started", "начало"),
    "ends": ("ends", "конец"),
    "cured": ("cured", "вылечено"),
    "cures_needed_over": ("cures needed over", "нужно вылечить больше"),
    "quarantine": ("quarantine", "карантин"),
    "max_infected": ("max infected", "предел заражённых"),
    "last": ("last", "последние"),
    "stickers_left": ("stickers left", "осталось наклеек"),
    "next_wave_at": ("next wave at", "следующая волна в"),
    "disease_name": ("disease", "болезнь"),
    "no": ("no.", "№"),
    "title": ("title", "название"),
    "reward": ("reward", "награда"),
    "search_until": ("search until", "обыск до"),
    "declared_at": ("declared at", "объявлена в"),
    "army_left_at": ("army left at", "армия ушла в"),
    "residents": ("residents", "жители"),
    "army": ("army", "армия"),
    "stickers": ("stickers", "наклейки"),
    "closed": ("closed", "закрыта"),
    "base_minutes": ("base minutes", "базовых минут"),
    "gaps": ("gaps", "провалы"),
    "from": ("from", "с"),
    "to": ("to", "по"),
    "reason": ("reason", "причина"),
    "infection_counts": ("infection counts", "заражение учтено"),
    "multiplier": ("multiplier", "множитель"),
    "zones": ("zones", "зоны"),
    "zone": ("zone", "зона"),
    "counted_as": ("counted as", "считается как"),
    "implants": ("implants", "импланты"),
    "approval": ("approval", "одобрение"),
    "armor_value": ("armour value", "броня"),
    "artifact": ("artifact", "артефакт"),
    "at_risk": ("at risk", "под угрозой"),
    "ban_until": ("ban until", "запрет до"),
    "behaviour": ("behaviour", "поведение"),
    "course_until": ("course until", "курс до"),
    "crits": ("criticals", "критов"),
    "damage_penalty": ("damage penalty", "штраф к урону"),
    "death": ("death", "смерть"),
    "defense_bonus": ("defence bonus", "бонус защиты"),
    "event_item": ("event item", "предмет события"),
    "falls": ("falls", "падает"),
    "mean_damage": ("mean damage", "средний урон"),
    "mean_traumas": ("mean traumas", "в среднем травм"),
    "methods": ("methods", "способы"),
    "nature": ("nature", "природа"),
    "penalty": ("penalty", "штраф"),
    "potion_hp": ("potion HP", "ХП от зелий"),
    "probability": ("probability", "вероятность"),
    "properties_work": ("properties work", "свойства действуют"),
    "skills": ("skills", "навыки"),
    "stage1_hp": ("stage-1 HP", "ХП на стадии 1"),
    "stage": ("stage", "стадия"),
    "success": ("success", "успех"),
    "threshold": ("threshold", "порог"),
    "turns": ("turns", "ходов"),
    "withdrawal_state": ("withdrawal state", "состояние ломки"),
    "withdrawal": ("withdrawal", "ломка"),
    "rule": ("rule", "правило"),
    "plan": ("plan", "план"),
    "progress": ("progress", "ход"),
    "roll_due": ("roll due", "бросок в"),
    "level": ("level", "уровень"),
    "course": ("course", "курс"),
    "patient": ("patient", "пациент"),
    "healer": ("healer", "лекарь"),
    "hospital": ("hospital", "госпиталь"),
    "in": ("in", "через"),
    "timers": ("countdowns", "отсчёты"),
    "done_at": ("done at", "готово в"),
    "allowed": ("allowed", "можно"),
    "arrived": ("arrived", "прибыл"),
    "at": ("at", "в"),
    "base": ("base", "база"),
    "better": ("better", "лучше"),
    "bill": ("bill", "счёт"),
    "calm_vs_stamina": ("calm points vs stamina", "очки спокойствия и выносливость"),
    "caution": ("caution", "осторожность"),
    "character": ("character", "персонаж"),
    "con": ("CON", "ТЕЛ"),
    "crafted_with": ("crafted with", "на изготовление"),
    "damage": ("damage", "урон"),
    "day": ("day", "день"),
    "decision": ("decision", "решение"),
    "difficulty": ("difficulty", "сложность"),
    "done": ("done", "сделано"),
    "effect": ("effect", "эффект"),
    "exact": ("exact odds", "точные шансы"),
    "examined": ("examined", "осмотрен"),
    "fast_march": ("fast march", "быстрый марш"),
    "hp": ("HP", "ХП"),
    "id": ("id", "id"),
    "if_injured": ("if injured", "если ранен"),
    "in_seconds": ("in seconds", "через, с"),
    "kind": ("kind", "вид"),
    "location": ("location", "место"),
    "meals": ("meals", "еда"),
    "minutes": ("minutes", "минут"),
    "mode": ("mode", "режим"),
    "modifier": ("modifier", "модификатор"),
    "name": ("name", "имя"),
    "now": ("now", "сейчас"),
    "odds": ("odds", "шансы"),
    "offered": ("offered", "предложено"),
    "or_material": ("or material", "или материал"),
    "param_bonus": ("parameter bonuses", "бонусы параметров"),
    "patients": ("patients", "пациенты"),
    "percent": ("percent", "проценты"),
    "points": ("points", "очки"),
    "proficiency": ("proficiency", "владение"),
    "provisional": ("provisional", "предварительно"),
    "release_at": ("released at", "выписка в"),
    "repair": ("repair", "на ремонт"),
    "reserve": ("reserve", "запас"),
    "resource": ("resource", "ресурс"),
    "rows": ("rows", "строки"),
    "severity": ("severity", "тяжесть"),
    "shifts": ("shifts", "сдвиги"),
    "sleep_spread": ("sleep spread", "разброс сна"),
    "state": ("state", "состояние"),
    "states_from_one_table": ("states from one table", "состояния по одной таблице"),
    "stats": ("stats", "характеристики"),
    "status": ("status", "состояние"),
    "steps": ("steps", "шаги"),
    "terms": ("terms", "условия"),
    "thresholds": ("thresholds", "пороги"),
    "treatment": ("treatment", "лечение"),
    "unique": ("unique", "уникальный"),
    "unmapped": ("unmapped", "без соответствия"),
    "value": ("value", "значение"),
    "via": ("via", "через"),
    "wasted": ("wasted", "сгорело"),
    "what": ("what", "что"),
    "window_total": ("total in the window", "всего за окно"),
    "worse": ("worse", "хуже"),
}


def field_label(rs: Ruleset, name: str, lang: str) -> str:
    """The name of an answer's field ``name`` in ``lang``."""
    own = rs.text(f"field:{name}", lang)
    if own:
        return own
    pair = FIELDS.get(name)
    if pair is not None:
        return pair[1] if lang == "ru" else pair[0]
    return name.replace("_", " ")


def value_label(rs: Ruleset, lang: str) -> Callable[[str], str | None]:
    """Names a word inside an answer (a field name or a value) in ``lang``: a field
    name as :func:`field_label` does, a value by the ruleset's label text for it
    (``severity:light`` names ``light``), None when nothing names it."""
    by_value: dict[str, str] = {}
    for key in rs.texts:
        kind, _, value = key.partition(":")
        if kind not in ("event", "timer") and value and value not in by_value:
            by_value[value] = rs.text(key, lang) or value

    def label(word: str) -> str | None:
        if word in FIELDS or rs.text(f"field:{word}", lang):
            return field_label(rs, word, lang)
        return by_value.get(word)

    return label

