"""How each ruleset's actions are grouped for people, and which ones a GM needs at hand.

Declared data, shared by every interface that lists actions (the web's action list and
GM screen; the CLI's ``act --help`` may use the same groups): a ruleset's action list
of sixty items reads as a handful of tasks — wounds, hospital, disease, labs, looting.
An action not listed falls in :data:`OTHER`, so a new action is never lost, only
ungrouped (tests/unit/test_menus.py names any such action).
"""

from __future__ import annotations

GROUP_NAMES: dict[str, tuple[str, str]] = {
    "wounds": ("Wounds", "Ранения"),
    "hospital": ("Hospital and journal", "Госпиталь и журнал"),
    "disease": ("Disease", "Болезни"),
    "outbreaks": ("Outbreaks and epidemics", "Вспышки и эпидемии"),
    "labs": ("Laboratories and stickers", "Лаборатории и наклейки"),
    "looting": ("Locations, assaults, looting", "Локации, штурм, мародёрство"),
    "setup": ("Setting up", "Подготовка"),
    "fight": ("Fight", "Бой"),
    "injuries": ("Injuries", "Травмы"),
    "healing": ("Healing", "Лечение"),
    "day": ("The day: meals, sleep, rest", "День: еда, сон, отдых"),
    "calm": ("Calm and stress", "Спокойствие и стресс"),
    "checks": ("Checks", "Проверки"),
    "travel": ("Travel", "Путешествие"),
    "items": ("Items and artifacts", "Предметы и артефакты"),
    "crime": ("Theft, locks, evidence", "Кражи, замки, улики"),
    "addiction": ("Addiction", "Зависимость"),
    "implants": ("Implants", "Импланты"),
    "conduct": ("Conduct", "Поведение"),
    "other": ("Other", "Другое"),
}
OTHER = "other"

_W = {
    "wounds": "lose-hits apply-bandage treat-light-wound support stop-support get-up kill "
    "finish-off interact-corpse wear grant-protection set-weather",
    "hospital": "register-hospital register-mat check-kit admit open-journal sign-journal "
    "correct-journal take-journal penalize-hospital start-operation finish-operation "
    "move-patient record-anamnesis record-eugenics",
    "disease": "define-disease add-to-book lend-book take-back-book copy-description infect "
    "carrier-touch pass-sticker diagnose record-disease-case start-disease-course "
    "course-item cure-disease-by-other-means cure-by-other-means start-study rule-study "
    "write-treatise",
    "outbreaks": "issue-certificate hand-certificate start-outbreak start-epidemic epidemic-wave",
    "labs": "register-lab draw-lab-quests complete-lab-quest make-stickers hand-stickers "
    "attach-stickers make-certificate start-recipe-experiment try-recipe",
    "looting": "register-location set-location-wealth start-assault form-army start-looting "
    "resident-acts army-leaves",
}
_Z = {
    "fight": "declare-combat strike stun knock-out kill sudden-state get-up",
    "wounds": "mark-zone inflict-trauma identify-trauma treat-trauma treat-wounds apply-kit",
    "hospital": "arrive-hospital examine start-operation finish-operation care-for-patient "
    "discharge",
    "disease": "expose-infection identify-infection cure-infection",
    "implants": "install-implant damage-implant repair-implant",
    "conduct": "issue-charsheet instruct interact exclude appeal-exclusion set-off",
}
_D = {
    "fight": "start-turn take-damage attempt-injury dodge equal-exchange death-save fail-save",
    "injuries": "roll-injury treat-injury end-injury restore-equipment",
    "setup": "set-dnd-stats",
}
_I = {
    "day": "morning eat-meal drink mark-food-day plan-sleep go-to-sleep interrupt-sleep "
    "make-camp rest end-day vomit",
    "calm": "calm-event calm-recover set-stress replace-tragedy spend-energy use-reroll",
    "checks": "d100-check resolve-check",
    "fight": "start-fight end-fight spend-stamina",
    "disease": "expose start-exposure end-exposure treat-disease add-disease drop-disease "
    "poison-risk treat-poisoning intimate-act",
    "travel": "start-march end-march quick-travel set-load",
    "setup": "survival-sheet gain-xp",
}
_F = {
    "fight": "start-combat end-combat flee-combat lose-hp roll-check roll-contest "
    "resolve-fall resolve-collision act-while-falling ambush sneak-past",
    "injuries": "give-trauma heal-trauma fulfil-combined-condition treat-skin-layer "
    "record-condition clear-condition grave-check end-grave-condition record-death",
    "healing": "heal-physically heal-magically heal-spiritually regenerate drink-potion",
    "items": "register-item craft-item approve-item equip-item unequip-item use-artifact "
    "log-item-critical repair-item",
    "crime": "attempt-theft commit-robbery plan-raid close-raid damage-property pick-lock "
    "register-door leave-trace search-evidence collect-trace study-trace torture-round "
    "stop-torture",
    "addiction": "escalate-addiction withdrawal-check start-addiction-treatment",
    "setup": "set-sheet",
}


def _invert(groups: dict[str, str]) -> dict[str, str]:
    return {action: group for group, names in groups.items() for action in names.split()}


GROUPS: dict[str, dict[str, str]] = {
    "warhammer-larp": _invert(_W),
    "zone-larp": _invert(_Z),
    "dnd5e-injuries": _invert(_D),
    "ide4-survival": _invert(_I),
    "fantasy-server": _invert(_F),
}
"""Per ruleset, each action's group (a key of :data:`GROUP_NAMES`)."""

COMMON: dict[str, tuple[str, ...]] = {
    "dnd5e-injuries": (
        "set-dnd-stats",
        "take-damage",
        "attempt-injury",
        "roll-injury",
        "death-save",
        "treat-injury",
    ),
    "ide4-survival": ("eat-meal", "drink", "go-to-sleep", "calm-event", "d100-check"),
    "fantasy-server": ("lose-hp", "roll-check", "give-trauma", "heal-physically", "drink-potion"),
}
"""Per tabletop ruleset, the actions a GM screen offers one tap from each character."""

PARTY_WIDE: dict[str, tuple[str, ...]] = {
    "dnd5e-injuries": ("start-turn",),
    "ide4-survival": (
        "morning",
        "eat-meal",
        "drink",
        "make-camp",
        "plan-sleep",
        "go-to-sleep",
        "end-day",
    ),
    "fantasy-server": ("start-combat", "end-combat"),
}
"""Per tabletop ruleset, actions about the whole table (the day, the fight)."""


SHORT: dict[str, tuple[str, str]] = {
    "set-dnd-stats": ("Sheet", "Лист"),
    "take-damage": ("Damage", "Урон"),
    "attempt-injury": ("Injure", "Травмировать"),
    "roll-injury": ("Roll injury", "Бросок травмы"),
    "death-save": ("Death save", "Спасбросок смерти"),
    "treat-injury": ("Treat", "Лечить"),
    "start-turn": ("Next turn", "Новый ход"),
    "eat-meal": ("Meal", "Еда"),
    "drink": ("Drink", "Питьё"),
    "go-to-sleep": ("Sleep", "Сон"),
    "calm-event": ("Calm ±", "Спокойствие ±"),
    "d100-check": ("d100 check", "Проверка d100"),
    "morning": ("Morning", "Утро"),
    "end-day": ("End the day", "Конец дня"),
    "make-camp": ("Make camp", "Разбить лагерь"),
    "plan-sleep": ("Roll sleep", "Бросок сна"),
    "lose-hp": ("−HP", "−хиты"),
    "roll-check": ("Check", "Проверка"),
    "give-trauma": ("Trauma", "Травма"),
    "heal-physically": ("Heal", "Лечить"),
    "drink-potion": ("Potion", "Зелье"),
    "start-combat": ("Start combat", "Начать бой"),
    "end-combat": ("End combat", "Закончить бой"),
}
"""Button words of the GM screen's actions (their summaries are sentences)."""


def short(action: str, lang: str) -> str:
    """A GM-screen button's word for ``action`` (the action's name if none)."""
    en, ru = SHORT.get(action, (action, action))
    return ru if lang == "ru" else en


def group_of(ruleset: str, action: str) -> str:
    """The group of ``action`` in ``ruleset`` (:data:`OTHER` if not declared)."""
    return GROUPS.get(ruleset, {}).get(action, OTHER)


def group_name(group: str, lang: str) -> str:
    """A group's name in ``lang``."""
    en, ru = GROUP_NAMES.get(group, (group, group))
    return ru if lang == "ru" else en


def grouped(ruleset: str, actions: list[str]) -> list[tuple[str, list[str]]]:
    """``actions`` in their groups, groups in declared order, :data:`OTHER` last."""
    order = list(GROUP_NAMES)
    found: dict[str, list[str]] = {}
    for name in actions:
        found.setdefault(group_of(ruleset, name), []).append(name)
    return sorted(found.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 99)
