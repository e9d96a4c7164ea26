"""The words of the character card in English and Russian (merged into :data:`i18n.UI`):
quick buttons, countdown phrases, the labels of a condition's details, and the common
words a master types in English that a Russian card should not show raw (races, where
on the body a wound is).
"""

from __future__ import annotations

CARD_UI: dict[str, tuple[str, str]] = {
    "q_finish_operation": ("Finish operation", "Завершить операцию"),
    "q_kit": ("First-aid kit", "Аптечка"),
    "q_damage": ("Damage", "Урон"),
    "q_death_save": ("Death save", "Спасбросок от смерти"),
    "q_treat_injury": ("Treat injury", "Лечить травму"),
    "q_treat_trauma": ("Treat trauma", "Лечить травму"),
    "due_in": ("in", "через"),
    "due_ends": ("ends", "закончится"),
    "effect": ("effect", "эффект"),
    "treatment": ("treatment", "лечение"),
    "penalty_of": ("because of", "из-за"),
}

DETAILS: dict[str, tuple[str, str]] = {
    "bandages": ("bandages", "повязок"),
    "healer": ("healer", "лекарь"),
    "hospital": ("hospital", "госпиталь"),
    "bed": ("bed", "лежак"),
    "table": ("operating table", "операционный стол"),
    "mat": ("mat", "подстилка"),
    "kind": ("kind", "вид"),
    "sticker": ("sticker", "наклейка"),
    "note": ("note", "примечание"),
    "consequences": ("consequences", "последствия"),
    "type": ("type", "тип"),
    "wait_until": ("waits for help until", "ждёт помощи до"),
    "kit": ("first-aid kit used", "аптечка применена"),
    "identified": ("identified", "опознана"),
    "en_route": ("on the way to the Hospital", "в пути в Госпиталь"),
    "armband": ("wears the armband", "с повязкой-маркером"),
    "days": ("days", "дней"),
}
"""A condition's details shown on the card, by the key in its data; every other key
is bookkeeping (it stays in the history and the API). A flag shows only when set."""

JOURNAL: dict[str, tuple[str, str]] = {
    "race": ("race", "раса"),
    "age": ("age", "возраст"),
    "admitted_at": ("admitted at", "поступил в"),
    "wounds": ("wounds", "ранения"),
    "state": ("state", "состояние"),
    "outcome": ("outcome", "исход"),
    "admission": ("admission №", "поступление №"),
    "anamnesis": ("anamnesis", "анамнез"),
    "diagnosis": ("diagnosis", "диагноз"),
    "course": ("course", "курс"),
    "text": ("text", "текст"),
    "roles": ("roles", "роли"),
    "summary": ("summary", "итог"),
    "close": ("closes the journal", "журнал закрыт"),
    "corrects": ("corrects entry №", "исправляет запись №"),
}
"""The fields of a hospital journal's entries (beside :data:`DETAILS`)."""

VALUES: dict[str, tuple[str, str]] = {
    "physical": ("physical", "физическая"),
    "mental": ("mental", "психическая"),
    "post_op": ("after an operation", "после операции"),
    "light": ("light wound", "лёгкое ранение"),
    "healthy": ("healthy", "здоров"),
    "heavy_unbandaged": ("heavy wound, not bandaged", "тяжёлое ранение без перевязки"),
    "heavy_bandaged": ("heavy wound, bandaged", "тяжёлое ранение, перевязан"),
    "dead": ("dead", "мёртв"),
    "field": ("in the field", "в поле"),
    "yes": ("yes", "да"),
    "no": ("no", "нет"),
}
"""Words a condition's data holds as codes, where its ruleset has no text for them."""

RACES: dict[str, tuple[str, str]] = {
    "human": ("human", "человек"),
    "dwarf": ("dwarf", "гном"),
    "elf": ("elf", "эльф"),
    "halfling": ("halfling", "полурослик"),
    "orc": ("orc", "орк"),
    "gnome": ("gnome", "гном"),
    "goblin": ("goblin", "гоблин"),
    "mutant": ("mutant", "мутант"),
}
"""Races as masters usually type them (a race is free text; others show as typed)."""

BODY: dict[str, tuple[str, str]] = {
    "head": ("head", "голова"),
    "neck": ("neck", "шея"),
    "chest": ("chest", "грудь"),
    "torso": ("torso", "туловище"),
    "belly": ("belly", "живот"),
    "stomach": ("stomach", "живот"),
    "back": ("back", "спина"),
    "left arm": ("left arm", "левая рука"),
    "right arm": ("right arm", "правая рука"),
    "left leg": ("left leg", "левая нога"),
    "right leg": ("right leg", "правая нога"),
    "arm": ("arm", "рука"),
    "leg": ("leg", "нога"),
}
"""Where on the body, as healers usually type it (free text; others show as typed)."""


def word(table: dict[str, tuple[str, str]], typed: str, lang: str) -> str:
    """``typed`` in ``lang`` when the table knows it (any case, ``_`` for a space)."""
    pair = table.get(typed.strip().casefold().replace("_", " ")) or table.get(typed)
    if pair is None:
        return typed
    return pair[1] if lang == "ru" else pair[0]
