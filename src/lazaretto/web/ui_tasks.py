"""The words of the task screens in English and Russian (merged into :data:`i18n.UI`).

Generated forms' required marks, the new-campaign and roster pages, the GM screen,
printing, the outbreak and epidemics screens: kept apart from the older page words so
each module stays readable.
"""

from __future__ import annotations

from lazaretto.service.joinrpg import STATUS_WORDS

TASK_UI: dict[str, tuple[str, str]] = {
    "choose": ("— choose —", "— выберите —"),
    "default": ("default", "по умолчанию"),
    "find_action": ("Find an action", "Найти действие"),
    "gm_screen": ("GM screen", "Экран ведущего"),
    "party": ("Party", "Партия"),
    "dice": ("Dice", "Кубики"),
    "whole_party": ("The whole party", "Вся партия"),
    "hours_short": ("h", "ч"),
    "roll": ("Roll", "Бросить"),
    "success": ("success", "успех"),
    "failure": ("failure", "провал"),
    "mean": ("mean", "в среднем"),
    "chance": ("chance of success", "шанс успеха"),
    "nothing_found": ("Nothing found", "Ничего не найдено"),
    "epidemics": ("Epidemics", "Эпидемии"),
    "start_epidemic": ("Start an epidemic", "Начать эпидемию"),
    "epi_active": ("going on", "идёт"),
    "epi_ended": ("ended", "окончена"),
    "next_wave": ("Next wave", "Следующая волна"),
    "waves": ("Waves", "Волны"),
    "infected": ("infected", "заражено"),
    "cured": ("cured", "вылечено"),
    "stickers": ("stickers", "наклеек"),
    "stickers_left": ("Stickers left", "Осталось наклеек"),
    "run_wave": ("Run the wave", "Провести волну"),
    "wave_stickers_n": ("Stickers per wave", "Наклеек на волну"),
    "wave_minutes": ("Wave lasts, minutes", "Волна длится, минут"),
    "people_met": ("People met in the location", "Кого встретили в локации"),
    "wave_hint": (
        "Tick the people met in the order you met them: when the wave's stickers run "
        "short, the first met get them. Full protection: hooded robe, gloves and plague "
        "mask worn now.",
        "Отмечайте встреченных в том порядке, в каком встретили: если наклеек волны не "
        "хватит, их получат встреченные первыми. Полная защита: роба с капюшоном, "
        "перчатки и маска чумного доктора на нём сейчас.",
    ),
    "met": ("Met", "Встречен"),
    "full_protection": ("Full protection", "Полная защита"),
    "no_epidemics": ("No epidemics", "Эпидемий нет"),
    "game_location": ("Location", "Локация"),
    "labs": ("Laboratories", "Лаборатории"),
    "points": ("points today", "очков сегодня"),
    "batches": ("batches", "партий"),
    "outbreak": ("Outbreak", "Вспышка заражения"),
    "carrier": ("Carrier", "Разносчик"),
    "place_building": ("in a building", "в здании"),
    "place_outdoor": ("outdoors", "на улице"),
    "certificate": ("Outbreak certificate", "Сертификат вспышки"),
    "disease_no_cert": ("or a disease (no certificate)", "или болезнь (без сертификата)"),
    "building": ("Building", "Здание"),
    "from_entrance": (
        "In a building: the carrier's metres from the entrance",
        "В здании: сколько метров от входа до разносчика",
    ),
    "announced": ("«Outbreak» said aloud", "«Вспышка заражения» сказано вслух"),
    "people_around": ("People around", "Кто рядом"),
    "people_hint": (
        "Tick who is there and give their distance in metres (to the point, or outdoors "
        "to the carrier).",
        "Отметьте присутствующих и расстояние в метрах (до точки активации, на улице — "
        "до разносчика).",
    ),
    "there": ("There", "Рядом"),
    "metres": ("m", "м"),
    "inside": ("inside", "внутри"),
    "start_outbreak": ("Start the outbreak", "Начать вспышку"),
    "print": ("Print", "Печать"),
    "qr_opens": ("QR codes open", "QR-коды открывают"),
    "qr_loopback": (
        "This address is this computer only: phones cannot open it. Start the server "
        "with --public-url http://ADDRESS:PORT (its address on the site's Wi-Fi).",
        "Этот адрес есть только на этом компьютере: телефоны его не откроют. Запустите "
        "сервер с --public-url http://АДРЕС:ПОРТ (его адрес в сети площадки).",
    ),
    "passports": ("Passports", "Паспорта"),
    "all_passports": ("All passports, one PDF", "Все паспорта одним PDF"),
    "one_passport": ("One passport", "Один паспорт"),
    "sticker_sheets": ("Sticker sheets", "Листы наклеек"),
    "master_copy": ("masters' copy", "копия мастера"),
    "download_pdf": ("Download the PDF", "Скачать PDF"),
    "required": ("required", "обязательно"),
    "required_note": ("* required", "* обязательное поле"),
    "new_campaign": ("New campaign", "Новая кампания"),
    "ruleset": ("Ruleset", "Правила"),
    "pick_ruleset": ("Next", "Далее"),
    "campaign_name": ("Name", "Название"),
    "campaign_name_hint": (
        "letters, digits, - _ . (it is in the address)",
        "латиница, цифры, - _ . (войдёт в адрес)",
    ),
    "start": ("Start", "Начало"),
    "start_hint": ("game date and time; empty: now", "игровые дата и время; пусто — сейчас"),
    "parameters": ("Rule parameters", "Параметры правил"),
    "parameters_hint": (
        "Fill in only what you change; empty means the default.",
        "Заполните только то, что меняете; пусто — по умолчанию.",
    ),
    "create_campaign": ("Create campaign", "Создать кампанию"),
    "roster": ("Roster", "Состав"),
    "added": ("Added", "Добавлен"),
    "imported": ("Characters imported", "Импортировано персонажей"),
    "preview": ("Rows read", "Прочитано строк"),
    "rows_with_errors": (
        "with errors, fix them and check again",
        "с ошибками — исправьте и проверьте снова",
    ),
    "import_n": ("Import all:", "Импортировать всех:"),
    "add_character": ("Add a character", "Добавить персонажа"),
    "name": ("Name", "Имя"),
    "age": ("Age", "Возраст"),
    "race": ("Race", "Раса"),
    "skills": ("Skills", "Навыки"),
    "skills_hint": ("separated by ;", "через ;"),
    "ruleset_default": ("default", "по правилам"),
    "add": ("Add", "Добавить"),
    "import": ("Import a roster (CSV, JSON or JoinRPG)", "Импорт состава (CSV, JSON или JoinRPG)"),
    "roster_file": ("File", "Файл"),
    "roster_paste": ("or paste it here", "или вставьте сюда"),
    "columns": ("Columns", "Столбцы"),
    "col_id": (
        "passport number or short id: letters, digits, _ . -",
        "номер паспорта или короткий id: латиница, цифры, _ . -",
    ),
    "col_name": ("the character’s name", "имя персонажа"),
    "col_hits": ("hits; empty: the ruleset’s default", "хиты; пусто — по правилам"),
    "col_skills": ("separated by ; (JSON: a list)", "через ; (в JSON — список)"),
    "check_roster": ("Check the rows", "Проверить строки"),
    "roster_format": ("Format", "Формат"),
    "format_roster": ("CSV or JSON, our columns", "CSV или JSON, наши столбцы"),
    "format_joinrpg": ("JoinRPG, its game API answers", "JoinRPG, ответы его игрового API"),
    "jr_hint": (
        'JoinRPG: one JSON {"metadata": ProjectFieldsMetadata, "characters": '
        "[CharacterInfo, …]}. Which field is what goes by the field’s ProgrammaticValue "
        "(lazaretto:hits…); fields without one can be picked after the check.",
        'JoinRPG: один JSON {"metadata": ProjectFieldsMetadata, "characters": '
        "[CharacterInfo, …]}. Какое поле чем считать, говорит ProgrammaticValue поля "
        "(lazaretto:hits…); поля без него можно выбрать после проверки.",
    ),
    "jr_who": ("JoinRPG: who is imported", "JoinRPG: кого импортировать"),
    "jr_include_npc": (
        "NPCs and characters without a player too",
        "и NPC, и персонажей без игрока",
    ),
    "jr_include_inactive": (
        "inactive (deleted) characters too",
        "и неактивных (удалённых) персонажей",
    ),
    "jr_checked_in": (
        "only the checked in (InGame)",
        "только прошедших регистрацию (InGame)",
    ),
    "jr_preview": ("JoinRPG characters read", "Прочитано персонажей JoinRPG"),
    "jr_read": ("Imported as", "Будет импортирован как"),
    "jr_status": ("Outcome", "Итог"),
    "jr_fields": ("Which field is what", "Какое поле чем считать"),
    "jr_fields_hint": (
        "Where a JoinRPG field has no ProgrammaticValue, pick it here (as the CLI’s "
        "--field hits=Хиты); a field picked here wins. Then check again.",
        "Если у поля в JoinRPG нет ProgrammaticValue, выберите его здесь (как --field "
        "hits=Хиты в командной строке); выбранное здесь важнее. Потом проверьте снова.",
    ),
    "jr_by_value": ("by ProgrammaticValue", "по ProgrammaticValue"),
    "jr_not_read": ("not read", "не читается"),
    "jr_new": ("new", "новый"),
    "jr_check_again": ("Check again", "Проверить снова"),
    "jr_import": ("Import the new:", "Импортировать новых:"),
    "jr_nothing_new": (
        "Nothing to add: every character is already in the campaign or skipped.",
        "Добавлять некого: все персонажи уже есть в кампании или пропущены.",
    ),
    "jr_stale": (
        "The choices changed since the check, so nothing was imported: here are the "
        "rows as they read now. Import if they are right.",
        "Выбор изменился после проверки, поэтому ничего не импортировано: вот строки, "
        "как они читаются теперь. Если всё верно, импортируйте.",
    ),
    "after_game": ("After the game", "После игры"),
    "outcomes_csv": ("Outcomes (CSV)", "Исходы (CSV)"),
    "outcomes_hint": (
        "each character’s state, death, diseases and days in hospital, for a "
        "spreadsheet or JoinRPG",
        "состояние, смерть, болезни и дни в госпитале каждого персонажа — для таблицы или JoinRPG",
    ),
    **{f"jr_{status}": words for status, words in STATUS_WORDS.items()},
}
