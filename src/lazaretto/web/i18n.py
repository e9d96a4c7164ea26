"""The pages' own words in English and Russian.

Game words (states, conditions, activities, action summaries, errors) come from the
rulesets and the services in the caller's language; this module holds the words of the
pages themselves and labels for the common action fields; the Russian catalogue of the
generated forms (a label per field name, a help text per English field description) is
``reading/fields.py``, shared with the CLI. A key missing here shows as itself (a label
as the field name in words, a help text in English); tests check every key the
templates use and every field of every installed ruleset.
"""

from __future__ import annotations

from collections.abc import Callable

from lazaretto.reading.fields import description_help, translations
from lazaretto.web.card_words import CARD_UI
from lazaretto.web.ui_tasks import TASK_UI

LANGS = ("en", "ru")

UI: dict[str, tuple[str, str]] = {
    "actions": ("Actions", "Действия"),
    "advance": ("Advance", "Перевести"),
    "advance_by": ("advance by (e.g. 10m)", "на сколько (например, 10m)"),
    "alive": ("alive", "жив"),
    "answer": ("Answer", "Ответ"),
    "ask": ("Ask", "Запросить"),
    "all_hospitals": ("All hospitals", "Все госпитали"),
    "at": ("at", "в"),
    "back": ("Back", "Назад"),
    "bandaged": ("bandaged", "перевязан"),
    "campaign_time": ("Game time", "Игровое время"),
    "campaigns": ("Campaigns", "Кампании"),
    "characters": ("Characters", "Персонажи"),
    "clock": ("Clock", "Часы"),
    "clock_manual": ("manual clock", "ручные часы"),
    "clock_realtime": ("real time", "реальное время"),
    "closed": ("closed", "закрыт"),
    "conditions": ("Conditions", "Состояния"),
    "create_invite": ("Create invite", "Создать приглашение"),
    "dead": ("dead", "мёртв"),
    "details": ("Details", "Подробности"),
    "error": ("Refused", "Отказано"),
    "filter": ("Show", "Показать"),
    "find": ("Find", "Найти"),
    "find_placeholder": ("Passport № or name", "№ паспорта или имя"),
    "free": ("free", "свободно"),
    "history": ("History", "История"),
    "hits": ("Hits", "Хиты"),
    "hospital": ("Hospital", "Госпиталь"),
    "hospitals": ("Hospitals", "Госпитали"),
    "invite": ("Invite", "Приглашение"),
    "invite_code": ("Invite code", "Код приглашения"),
    "late_waiting": (
        "Late records waiting to be placed: {n}; the oldest reaches back to {at} "
        "({back} min ago)",
        "Поздних записей ждут размещения: {n}; самая давняя — на {at} ({back} мин назад)",
    ),
    "join": ("Join a campaign", "Вступить в кампанию"),
    "journal": ("Journal", "Журнал"),
    "language": ("Language", "Язык"),
    "login": ("Log in", "Войти"),
    "logout": ("Log out", "Выйти"),
    "may": ("May", "Может"),
    "may_not": ("May not", "Не может"),
    "more_actions": ("All actions", "Все действия"),
    "more_rows": ("More rows not shown", "Не показано строк"),
    "next_countdown": ("countdown", "отсчёт"),
    "no_campaigns": ("You are in no campaign yet.", "Вы пока не участвуете в кампаниях."),
    "no_conditions": ("None", "Нет"),
    "no_entries": ("No entries", "Записей нет"),
    "no_queries": ("No queries for your role", "Для вашей роли запросов нет"),
    "no_qr": (
        "QR code: install the optional package segno",
        "QR-код: установите дополнительный пакет segno",
    ),
    "no_timers": ("No countdowns", "Отсчётов нет"),
    "nobody_found": ("Nobody found", "Никого не найдено"),
    "on_ground": ("on the ground", "на земле"),
    # the service worker's marks (static/sw.js, served by views_offline.py)
    "offline_copy": ("offline — copy from {time}", "нет связи — копия от {time}"),
    "offline_none": (
        "Offline — this page was not opened on this phone since the last login, "
        "so there is no copy of it",
        "Нет связи — эта страница не открывалась на этом телефоне с последнего входа, "
        "её копии нет",
    ),
    "offline_unsent": (
        "Offline — this form was not sent and nothing was recorded: "
        "go back and send it again when the connection returns",
        "Нет связи — форма не отправлена, ничего не записано: "
        "вернитесь и отправьте её снова, когда связь появится",
    ),
    "one_per_line": ("one per line", "по одному в строке"),
    "optional": ("(optional)", "(необязательно)"),
    "passport": ("Passport", "Паспорт"),
    "passport_no": ("Passport №", "№ паспорта"),
    "password": ("Password", "Пароль"),
    "password_hint": ("(at least 8 characters)", "(не короче 8 символов)"),
    "patient": ("Patient", "Пациент"),
    "pause": ("Pause", "Пауза"),
    "paused": ("paused", "на паузе"),
    "penalties": ("Penalties", "Штрафы"),
    "place": ("Place", "Место"),
    "place_bed": ("bed", "лежак"),
    "place_table": ("table", "стол"),
    "props_checklist": ("Props to check", "Что проверить"),
    "queries": ("Queries", "Запросы"),
    "q_admit": ("Admit", "Записать в журнал"),
    "q_bandage": ("Bandage", "Перевязать"),
    "q_lose_hit": ("−1 hit", "−1 хит"),
    "q_operate": ("Operate", "Операция"),
    "q_treat": ("Treat", "Лечить"),
    "register": ("Create an account", "Создать учётную запись"),
    "results_for": ("Found for", "Найдено по"),
    "resume": ("Resume", "Продолжить"),
    "role": ("Role", "Роль"),
    "role_healer": ("healer", "лекарь"),
    "role_master": ("master", "мастер"),
    "role_player": ("player", "игрок"),
    "show_all": ("show everyone", "показать всех"),
    "submit": ("Record", "Записать"),
    "symptoms": ("symptoms", "симптомы"),
    "time": ("Time", "Время"),
    "time_left": ("Left", "Осталось"),
    "timers": ("Countdowns", "Отсчёты"),
    "type": ("Entry", "Запись"),
    "username": ("Username", "Имя пользователя"),
    "what": ("What", "Что"),
    "who": ("Who", "Кто"),
    "wounds": ("Wounds", "Ранения"),
    "yours": ("your character", "ваш персонаж"),
    "others_by_name": ("Others (names only)", "Остальные (только имена)"),
    "undo": ("Undo", "Отменить"),
    "undo_hint": ("a mistake? take it back", "ошибка? отмените запись"),
    "corrections": ("Corrected", "Исправлено"),
    "zones": ("Body zones", "Зоны тела"),
    **TASK_UI,
    **CARD_UI,
}

FIELDS: dict[str, tuple[str, str]] = {
    "character": ("Character №", "Персонаж №"),
    "patient": ("Patient №", "Пациент №"),
    "healer": ("Healer №", "Лекарь №"),
    "supporter": ("Supporter №", "Кто поддерживает №"),
    "actor": ("Who №", "Кто №"),
    "victim": ("Victim №", "Жертва №"),
    "carrier": ("Carrier №", "Переносчик №"),
    "author": ("Author №", "Автор №"),
    "corpse": ("Body №", "Тело №"),
    "taker": ("Who takes №", "Кто забирает №"),
    "holder": ("Holder №", "Владелец №"),
    "hits": ("Hits", "Хиты"),
    "location": ("Where on the body", "Куда ранен"),
    "bandages": ("Bandages", "Повязки"),
    "place": ("Place ('field' or hospital)", "Место ('field' или госпиталь)"),
    "mat": ("Mat", "Подстилка"),
    "bed": ("Bed", "Лежак"),
    "table": ("Operating table", "Операционный стол"),
    "hospital": ("Hospital", "Госпиталь"),
    "journal": ("Journal", "Журнал"),
    "lying": ("Lies down", "Лежит"),
    "cause": ("Cause", "Причина"),
    "means": ("Means", "Средство"),
    "note": ("Note", "Примечание"),
    "stitches": ("Stitches", "Швы"),
    "plasters": ("Plasters", "Пластыри"),
    "raining": ("Raining", "Идёт дождь"),
    "wounds": ("Wounds", "Ранения"),
    "disease": ("Disease", "Болезнь"),
    "code": ("Code", "Код"),
    "name": ("Name", "Название"),
    "number": ("Number", "Номер"),
    "reason": ("Reason", "Причина"),
    "text": ("Text", "Текст"),
    "entry": ("Entry №", "Запись №"),
    "symptoms": ("Symptoms", "Симптомы"),
    "penalties": ("Penalties", "Штрафы"),
    "description": ("Description", "Описание"),
    "kind": ("Kind", "Вид"),
}


def text(key: str, lang: str) -> str:
    """The page text ``key`` in ``lang`` (the key itself if unknown)."""
    pair = UI.get(key)
    if pair is None:
        return key
    return pair[1] if lang == "ru" else pair[0]


def translator(lang: str) -> Callable[[str], str]:
    """``t(key)`` for templates."""
    return lambda key: text(key, lang)


def field_label(name: str, lang: str) -> str:
    """A form field's label: a known one, else the field name in words."""
    pair = FIELDS.get(name)
    if pair is not None:
        return pair[1] if lang == "ru" else pair[0]
    if lang == "ru" and name in translations().labels:
        return translations().labels[name]
    words = name.replace("_", " ")
    return words[:1].upper() + words[1:]


def field_help(description: str, lang: str) -> str:
    """A field's help text in ``lang`` from its English description (English if unknown)."""
    return description_help(description, lang)
