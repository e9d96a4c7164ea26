"""The names of the values warhammer-larp's log and answers print, English and Russian:
sticker steps and statuses, protection levels, journal entry types, epidemic endings,
looting choices (``reading/lines.py`` names a payload value ``v`` of field ``f`` by the
text ``f:v``)."""

from __future__ import annotations

STICKER_STATUS = {
    "stock": ("in stock", "на складе"),
    "held": ("held", "на руках"),
    "certificate": ("on a certificate", "на сертификате"),
    "epidemic": ("with the regional master", "у регионального мастера"),
    "stuck": ("stuck", "вклеена"),
    "cured": ("cured", "излечена"),
    "vanished": ("vanished", "пропала"),
    "discarded": ("discarded", "выброшена"),
}
STICKER_STEPS = {
    "made": ("made", "создана"),
    "handed": ("handed", "передана"),
    "attached": ("attached", "прикреплена"),
    "returned": ("returned", "возвращена"),
    "kept": ("kept", "осталась"),
    "handed to the regional master": (
        "handed to the regional master",
        "передана региональному мастеру",
    ),
    "stuck": ("stuck", "вклеена"),
    "cured": ("cured", "излечение"),
    "vanished": ("vanished", "пропала"),
    "discarded": ("discarded", "выброшена"),
}
END_REASONS = {
    "quarantine": ("quarantine", "карантин"),
    "intensive_treatment": ("intensive treatment", "интенсивное лечение"),
}

MEDICAL_ACTIONS = {  # W-DTRT-09
    "drip": ("drip", "капельница"),
    "enema": ("enema", "клизма"),
    "herbal_drink": ("herbal drinking", "отпаивание травами"),
    "operation": ("operation", "операция"),
    "inhalation": ("inhalation", "ингаляция"),
    "psychotherapy": ("psychotherapy", "психотерапия"),
}
MEDICATIONS = {  # W-DTRT-16
    "sedative": ("sedative", "успокоительное"),
    "painkiller": ("painkiller", "обезболивающее"),
    "sigmar_blood": ("Sigmar's blood", "кровь Сигмара"),
    "shallya_tears": ("Shallya's tears", "слёзы Шалии"),
}
COURSE_ITEMS = {**MEDICAL_ACTIONS, **MEDICATIONS}
"""A course's items by the names the rules give them (a campaign that adds its own
items to ``medical_actions`` or ``medications`` sees those as it typed them)."""

COURSE_UNTIL = ("until {until}", "до {until}")
"""A course's journal entry (W-DTRT-06, W-HOSP-06): the journal keeps the English text,
and a reader reads it in their language (``journal:course``, ``reading/lines.py``'s
:func:`reread`)."""

VALUE_TEXTS: dict[str, tuple[str, str]] = {
    "journal:course": COURSE_UNTIL,
    # what the anamnesis (W-DTRT-03) and a study's course (W-STUDY-02) write by default
    "journal:anamnesis.anamnesis": (
        "{symptoms} | wounds: {wounds}; diseases: {diseases}",
        "{symptoms} | ранения: {wounds}; болезни: {diseases}",
    ),
    "journal:study": (
        "experimental course for {code} (treatise {treatise})",
        "экспериментальный курс от {code} (трактат {treatise})",
    ),
    "holder:master": ("master", "мастер"),
    **{f"status:{k}": v for k, v in STICKER_STATUS.items()},
    **{f"what:{k}": v for k, v in STICKER_STEPS.items()},
    **{f"reason:{k}": v for k, v in END_REASONS.items()},
    **{f"end_reason:{k}": v for k, v in END_REASONS.items()},
    # a course's items: one done, those missing at its end, a disease's course
    **{f"{f}:{k}": v for f in ("item", "missing", "course") for k, v in COURSE_ITEMS.items()},
    "status:active": ("active", "идёт"),
    "status:ended": ("ended", "окончена"),
    "level:full": ("full", "полная"),
    "level:mask_gloves": ("mask and gloves", "маска и перчатки"),
    "level:none": ("none", "нет"),
    "kind:alchemy": ("alchemy", "алхимия"),
    "kind:magic": ("magic", "магия"),
    "kind:immunity": ("immunity", "иммунитет"),
    "kind:epidemic": ("epidemic", "эпидемии"),
    "kind:outbreak": ("outbreak", "вспышки"),
    "kind:course": ("course", "курс"),
    "kind:study": ("experimental course", "экспериментальный курс"),
    "type:anamnesis": ("anamnesis", "анамнез"),
    "type:diagnosis": ("diagnosis", "диагноз"),
    "type:course": ("course", "курс"),
    "type:study": ("study", "изучение"),
    "cause:finished_off": ("finished off", "добит"),
    "cause:executed": ("executed", "казнён"),
    "interaction:search": ("search", "обыск"),
    "interaction:carry": ("carrying", "перенос"),
    "interaction:funeral_rite": ("funeral rite", "погребальный обряд"),
    "means:spell": ("spell", "заклинание"),
    "means:prayer": ("prayer", "молитва"),
    "means:potion": ("potion", "зелье"),
    "how:spell": ("spell", "заклинание"),
    "how:prayer": ("prayer", "молитва"),
    "how:potion": ("potion", "зелье"),
    "place:outdoor": ("outdoors", "на улице"),
    "place:building": ("in a building", "в здании"),
    "weapon:melee": ("melee", "ближний бой"),
    "weapon:ranged": ("ranged", "дальний бой"),
    "choice:hide": ("hides", "прячется"),
    "choice:heavy_wound": ("heavy wound", "тяжёлое ранение"),
    "choice:suicide": ("suicide", "самоубийство"),
    "choice:surrender": ("surrenders", "сдаётся"),
    "choice:fled": ("fled", "бежал"),
    "choice:killed": ("killed", "убит"),
    "fate:enslaved": ("enslaved", "порабощён"),
    "fate:executed": ("executed", "казнён"),
    "residents:remaining": ("remaining", "остаётся"),
    "residents:surrendered": ("surrendered", "сдался"),
    "residents:fled": ("fled", "бежал"),
    "residents:killed": ("killed", "убит"),
    "residents:suicide": ("suicide", "самоубийство"),
    "residents:hiding": ("hiding", "прячется"),
    "why:the army left": ("the army left", "армия ушла"),
    "why:30 minutes passed": ("30 minutes passed", "прошло 30 минут"),
    "why:every resident killed, fled or surrendered": (
        "every resident killed, fled or surrendered",
        "все жители убиты, бежали или сдались",
    ),
    "state:looting": ("looting", "грабят"),
    "state:looted": ("looted", "разграблена"),
    "state:calm": ("calm", "спокойно"),
    "mode:sum": ("sum", "сумма"),
    "reason:protected (outfit:full)": ("protected (full outfit)", "защищён (полный костюм)"),
    "reason:protected (outfit:mask_gloves)": (
        "protected (mask and gloves)",
        "защищён (маска и перчатки)",
    ),
    "reason:protected (immunity)": ("protected (immunity)", "защищён (иммунитет)"),
    "reason:protected (alchemy)": ("protected (alchemy)", "защищён (алхимия)"),
    "reason:protected (magic)": ("protected (magic)", "защищён (магия)"),
    "kind:treatment_complete": ("treatment complete", "лечение завершится"),
}
