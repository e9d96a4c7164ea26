"""How the ide4-survival log reads, in English and Russian (``reading/lines.py`` fills the
``{placeholders}`` from each event's payload; ``character`` becomes the name)."""

from __future__ import annotations

EVENTS: dict[str, tuple[str, str]] = {
    "survivor.joined": ("{character} joins the survival day", "{character}: учёт выживания начат"),
    "sheet.set": ("{character}'s sheet: {set}", "лист {character}: {set}"),
    "condition.gained": ("{character}: {kind} — {why_en}", "{character}: {kind} — {why_ru}"),
    "condition.removed": (
        "{character}: no longer {kind} — {why_en}",
        "{character}: больше не {kind} — {why_ru}",
    ),
    "check.made": (
        "{character}: {skill} check [{difficulty}] → {outcome}",
        "{character}: проверка «{skill}» [{difficulty}] → {outcome}",
    ),
    "check.pending": (
        "{character}: {skill} check [{difficulty}] awaits its outcome ({id}: resolve-check)",
        "{character}: проверка «{skill}» [{difficulty}] ждёт исхода ({id}: resolve-check)",
    ),
    "check.resolved": (
        "{character}: {skill} check → {outcome}",
        "{character}: проверка «{skill}» → {outcome}",
    ),
    "check.rerolled": (
        "{character}: {skill} check rerolled → {outcome}",
        "{character}: проверка «{skill}» переброшена → {outcome}",
    ),
    "check.tragedy_replaced": (
        "{character}: {skill} check: Tragedy → Failure",
        "{character}: проверка «{skill}»: Трагедия → Провал",
    ),
    "check.energy_spent": (
        "{character}: energy on the {skill} check → {outcome}",
        "{character}: энергия на проверку «{skill}» → {outcome}",
    ),
    "case.exposed": (
        "{character}: exposed to {disease}",
        "{character}: риск заражения — {disease}",
    ),
    "case.sick": ("{character}: sick with {disease}", "{character}: болен — {disease}"),
    "case.resisted": ("{character}: resisted {disease}", "{character}: устоял против {disease}"),
    "case.stage_changed": (
        "{character}: {disease} stage {before} → {after}",
        "{character}: {disease}, стадия {before} → {after}",
    ),
    "case.cured": (
        "{character}: {disease} over — {why_en}",
        "{character}: {disease} прошла — {why_ru}",
    ),
    "case.treated": (
        "{character}: {disease} treated ({treatment}: {effect})",
        "{character}: лечение {disease} ({treatment}: {effect})",
    ),
    "case.ended": ("{character}: {disease} ended", "{character}: {disease} завершена"),
    "exposure.started": ("{character}: exposure began", "{character}: начались условия заражения"),
    "exposure.ended": ("{character}: {kind} ended", "{character}: {kind} — закончилось"),
    "character.died": ("{character} died: {why_en}", "{character} умер: {why_ru}"),
    "day.started": ("game day {day} begins", "начался игровой день {day}"),
    "day.step_done": ("step done: {step}", "шаг выполнен: {step}"),
    "day.ended": ("game day {day} ends", "игровой день {day} окончен"),
    "day.reminder": ("morning marks — {text_en}", "отметки утра — {text_ru}"),
    "disease.defined": ("disease {code} added to the catalogue", "болезнь {code} добавлена"),
    "disease.dropped": ("disease {code} dropped by the GM", "болезнь {code} исключена мастером"),
    "pregnancy.checked": (
        "pregnancy check for {character} (GM's roll)",
        "проверка беременности: {character} (бросок мастера)",
    ),
    "disease.rage": (
        "{character}: Will {roll} ≤ {target} — rage, strikes the nearest creature",
        "{character}: Воля {roll} ≤ {target} — ярость, удар по ближайшему",
    ),
    "travel.quick": (
        "quick travel ({route}): {outcome}, cost {costs}",
        "быстрое путешествие ({route}): {outcome}, цена {costs}",
    ),
    "recovery.noted": (
        "{character}: recovery better ({better_en}), worse ({worse_en})",
        "{character}: восстановление лучше ({better_ru}), хуже ({worse_ru})",
    ),
    "risk.noted": ("{character}: for the GM — {what}", "{character}: мастеру — {what}"),
    "poison.escalation": (
        "{character}: Tragedy against {source} — the GM may escalate",
        "{character}: Трагедия против {source} — мастер может усилить",
    ),
    "reroll.used": (
        "{character} uses a {kind} reroll",  # the check's own line follows, by name
        "{character}: переброс ({kind})",
    ),
    "reroll.lost": (
        "{character} loses a {kind} reroll ({why_en})",
        "{character} теряет переброс ({kind}): {why_ru}",
    ),
    "reroll.burned": (
        "{character}: {count} {kind} reroll(s) burned",
        "{character}: сгорело перебросов ({kind}): {count}",
    ),
    "hot.burned": ("{character}: hot reroll expired", "{character}: горячий переброс сгорел"),
    "energy.adrenaline_used": (
        "{character} spends {used} adrenaline d20",
        "{character} тратит адреналиновых d20: {used}",
    ),
    "tragedy.replacement_used": (
        "{character}: Tragedy replacement used ({left} left)",
        "{character}: замена Трагедии ({left} осталось)",
    ),
    "calm.changed": (
        "{character}: calm {before} → {after} ({reason_en})",
        "{character}: спокойствие {before} → {after} ({reason_ru})",
    ),
    "liquid.drunk": (
        "{character} drinks ({useful_ml} ml useful)",
        "{character} пьёт (полезно {useful_ml} мл)",
    ),
    "rest.taken": ("{character} rests {hours} h", "{character} отдыхает {hours} ч"),
    "meal.eaten": (
        "{character}: {window} — {result}{why_en}, meal rerolls +{rerolls_gained}",
        "{character}: {window} — {result}{why_ru}, обеденных перебросов +{rerolls_gained}",
    ),
    "meal.skipped": (
        "{character}: {window} skipped ({skips} in a row)",
        "{character}: {window} пропущен (подряд: {skips})",
    ),
    "food.day_marked": ("{character}: food today — {mark}", "{character}: еда за сутки — {mark}"),
    "camp.made": ("{character}: {camp} camp{weather}", "{character}: лагерь {camp}{weather}"),
    "sleep.planned": (
        "{character} rolls 3d10 for sleep: {options}",
        "{character}: 3d10 на сон — {options}",
    ),
    "sleep.started": (
        "{character} sleeps {hours} h ({camp} camp)",
        "{character} спит {hours} ч (лагерь {camp})",
    ),
    "sleep.interrupted": (
        "{character} woken ({reason}): 2d10 highest {highest} → {hours} h",
        "{character} разбужен ({reason}): 2d10 наибольший {highest} → {hours} ч",
    ),
    "sleep.finished": (
        "{character} slept {hours} h ({camp} camp)",
        "{character} проспал {hours} ч (лагерь {camp})",
    ),
    "xp.gained": ("{character} +{points} XP", "{character} +{points} опыта"),
    "xp.burned": (
        "{character}: {points} XP burned (not in bed by noon)",
        "{character}: {points} опыта сгорело (не лёг до полудня)",
    ),
    "poison.points_changed": (
        "{character}: poison points {points}",
        "{character}: очки отравления {points}",
    ),
    "burn.recorded": (
        "{character}: +{burn} burn ({total} in all)",
        "{character}: +{burn} ожога (всего {total})",
    ),
    "immunity_reroll.gained": (
        "{character} gains an Immunity reroll",
        "{character} получает переброс Иммунитета",
    ),
    "march.started": ("{character} marches at a {pace} pace", "{character} в пути, темп {pace}"),
    "march.ended": (
        "{character}: a day of {pace} march ends",
        "{character}: день марша ({pace}) окончен",
    ),
    "load.set": ("{character}: load {load}", "{character}: груз — {load}"),
    "intimacy.recorded": (
        "{character} with {partner}: hot rerolls +{gained}{note_en}",
        "{character} и {partner}: горячих перебросов +{gained}{note_ru}",
    ),
    "fight.started": (
        "{character}: fight, {tokens} stamina tokens",
        "{character}: бой, фишек запаса сил {tokens}",
    ),
    "stamina.spent": (
        "{character}: {move} −{cost} token(s), {left} left",
        "{character}: {move} −{cost}, осталось {left}",
    ),
    "fight.ended": (
        "{character}: fight over, stamina pool reset",
        "{character}: бой окончен, запас сил сброшен",
    ),
}

TIMERS: dict[str, tuple[str, str]] = {
    "meal_window": ("the next meal window opens", "откроется следующее окно еды"),
    "zero_calm_penalty": ("an hour at 0 calm: −30 Health", "час на 0 спокойствия: −30 к здоровью"),
    "sleep_ends": ("wakes up", "проснётся"),
    "xp_burns": ("the day's XP burns unless in bed", "опыт дня сгорит, если не лечь"),
    "poison_decay": ("−1 poison point", "−1 очко отравления"),
    "incubation_ends": ("incubation over: Immunity check", "конец инкубации: проверка Иммунитета"),
    "disease_death": ("death from the disease", "смерть от болезни"),
    "disease_cured": ("the treatment cures", "лечение излечит"),
    "exposure_check": ("Immunity check (exposure)", "проверка Иммунитета (условия заражения)"),
    "hot_reroll_expires": ("hot reroll expires", "горячий переброс сгорит"),
}

KINDS: dict[str, tuple[str, str]] = {
    "fed": ("fed", "сыт"),
    "hungry": ("hungry", "голоден"),
    "dehydrated": ("dehydrated", "обезвожен"),
    "exhausted": ("exhausted", "истощён"),
    "tired": ("tired", "устал"),
    "very_tired": ("very tired", "сильно устал"),
    "sleep_deprived": ("sleep-deprived", "не выспался"),
    "sick": ("sick", "болен"),
    "poisoned": ("poisoned", "отравлен"),
    "stressed": ("stressed", "в стрессе"),
    "incubating": ("incubating", "инкубация"),
    "health_penalty": ("−30 to Health", "−30 к здоровью"),
    "loaded": ("loaded", "нагружен"),
    "overloaded": ("overloaded", "перегружен"),
    "calm_capped": ("calm capped at 0", "спокойствие не выше 0"),
    "nerve_damage": ("nerve damage", "повреждение нервов"),
    "irreversible": ("an irreversible consequence", "необратимое последствие"),
}


VALUES: dict[str, tuple[str, str]] = {
    "window:breakfast": ("breakfast", "завтрак"),
    "window:lunch": ("lunch", "обед"),
    "window:dinner": ("dinner", "ужин"),
    "result:normal": ("normal", "нормальный"),
    "result:not_normal": ("not normal", "не нормальный"),
    "pace:cautious": ("cautious", "осторожный"),
    "pace:normal": ("normal", "обычный"),
    "pace:fast": ("fast", "быстрый"),
    "pace:forced": ("forced", "форсированный"),
    "camp:normal": ("normal", "нормальный"),
    "camp:bad": ("bad", "плохой"),
    "camp:none": ("no", "без"),
    "mark:ate": ("ate normally", "ел нормально"),
    "mark:skipped": ("skipped", "пропустил"),
    "mark:starved": ("starved", "голодал"),
    "load:light": ("light", "налегке"),
    "load:equipped": ("equipped", "снаряжён"),
    "load:loaded": ("loaded", "нагружен"),
    "load:overloaded": ("overloaded", "перегружен"),
    "outcome:triumph": ("Triumph", "Триумф"),
    "outcome:success": ("Success", "Успех"),
    "outcome:medium": ("Medium", "Средне"),
    "outcome:failure": ("Failure", "Провал"),
    "outcome:tragedy": ("Tragedy", "Трагедия"),
    "move:attack": ("attack", "атака"),
    "move:plate_stance": ("plate stance", "стойка в латах"),
    "step:march": ("march", "марш"),
    "step:camp": ("camp", "лагерь"),
    "step:sleep": ("sleep", "сон"),
    "what:health_loss_help_needed": (
        "dangerous stage: health loss, help needed",
        "опасное состояние: потеря здоровья, нужна помощь",
    ),
    "what:dying": ("deadly stage: dying", "смертельная стадия: при смерти"),
    "what:folk_risk": ("a folk method's risk came true", "риск народного метода сбылся"),
    "effect:cure": ("cure", "исцеление"),
    "effect:no_effect": ("no effect", "не помогает"),
    "effect:unspecified": ("effect not stated: the GM rules", "эффект не указан: решает мастер"),
    "kind:meal": ("meal", "еда"),
    # the other reroll kinds (use-reroll), named as the day query names them
    "kind:pacified": ("pacified", "умиротворение"),
    "kind:hot": ("hot", "горячий"),
    "kind:immunity": ("Immunity", "иммунитет"),
    "subject:party": ("party", "отряд"),
    "via:character_state": ("character state", "«Состояние персонажа»"),
    "check_mode:optional": ("optional", "по желанию мастера"),
    "check_mode:always": ("always", "всегда"),
    "check_mode:never": ("never", "никогда"),
    # the survival fields of a character sheet (survival-sheet, A-I-07)
    "set:body_food_norm": ("body food norm", "норма еды тела"),
    "set:sex": ("sex", "пол"),
    "set:sex:male": ("male", "мужской"),
    "set:sex:female": ("female", "женский"),
    "set:sex:other": ("other", "другой"),
    "set:hot_cooldown_minutes": ("hot reroll cooldown, min", "пауза горячего переброса, мин"),
    "set:caster": ("caster", "маг"),
    "set:life_partner": ("love of a lifetime", "любовь всей жизни"),
    "set:love_lost": ("love lost", "любовь потеряна"),
    "set:joined": ("joined", "в учёте с"),
    # the ways to treat a poisoning (I-POIS-06): отдых, рвота, вода, сорбенты...
    "method:rest": ("rest", "отдых"),
    "method:vomiting": ("vomiting", "рвота"),
    "method:water": ("water", "вода"),
    "method:sorbents": ("sorbents", "сорбенты"),
    "method:antidote": ("antidote", "противоядие"),
    "method:medicine": ("medicine", "лекарство"),
    "method:magic_or_technology": ("magic or technology", "магия или технология"),
}

SKILLS: dict[str, tuple[str, str]] = {
    "Endurance": ("Endurance", "Выносливость"),
    "Athletics": ("Athletics", "Атлетика"),
    "Acrobatics": ("Acrobatics", "Акробатика"),
    "Swimming": ("Swimming", "Плавание"),
    "Strength": ("Strength", "Сила"),
    "Immunity": ("Immunity", "Иммунитет"),
    "Health": ("Health", "Здоровье"),
    "Attention": ("Attention", "Внимательность"),
    "Sense of direction": ("Sense of direction", "Чувство направления"),
    "Will": ("Will", "Воля"),
    "Insight": ("Insight", "Проницательность"),
    "Courage": ("Courage", "Отвага"),
    "Faramir Effect": ("Faramir Effect", "Эффект Фарамира"),
    "Negotiations": ("Negotiations", "Переговоры"),
    "Seduction": ("Seduction", "Соблазнение"),
    "Melee": ("Melee", "Ближний бой"),
    "Shooting": ("Shooting", "Стрельба"),
    "Medicine": ("Medicine", "Медицина"),
}
"""The skills the rules name (params' ``skill_groups``, the poisoning treatment's
Medicine) as a check names them; a skill the GM types otherwise is shown as typed."""


EFFECTS: dict[str, tuple[str, str]] = {
    "doubtful": ("doubtful: the GM rules", "сомнительно: решает мастер"),
    "symptom_relief": ("eases a symptom", "облегчает симптом"),
    "symptom_worse": ("worsens a symptom", "усиливает симптом"),
    "worsen": ("the disease worsens", "болезнь усиливается"),
    "cure_after_days": ("cures after some days", "исцеляет через несколько дней"),
    "suppress": ("suppresses symptoms", "подавляет симптомы"),
    "penalty_reduction": ("lessens the penalties", "ослабляет штрафы"),
    "extend_death": ("puts death off", "отодвигает смерть"),
    "transfer": ("moves the parasites out", "переносит паразитов"),
    "cure_with_risk": ("cures, with a risk", "исцеляет с риском"),
}
"""A treatment's effect (tables.Effect) as the catalogue answer names it."""


def texts() -> dict[str, tuple[str, str]]:
    """Every template of the ruleset, keyed as ``Ruleset.texts`` expects; a catalogue
    disease's key names it (``disease:iron_fever``)."""
    from lazaretto.rulesets.ide4_survival.tables import catalogue

    out = {f"event:{k}": v for k, v in EVENTS.items()}
    out.update({f"effect:{k}": v for k, v in EFFECTS.items()})
    out.update({f"disease:{k}": (d.name.en, d.name.ru) for k, d in catalogue().diseases.items()})
    out.update({f"timer:{k}": v for k, v in TIMERS.items()})
    out.update({f"kind:{k}": v for k, v in KINDS.items()})
    out.update(VALUES)
    out.update({f"skill:{k}": v for k, v in SKILLS.items()})
    return out
