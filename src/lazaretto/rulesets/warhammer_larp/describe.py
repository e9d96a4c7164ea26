"""What a character's card shows: state, hits, countdowns and what they may do."""

from __future__ import annotations

from typing import Any, cast

from lazaretto.core.state import CampaignState
from lazaretto.rulesets.warhammer_larp.checks import wound_state
from lazaretto.rulesets.warhammer_larp.params import WarhammerParams

STATES = {
    "healthy": ("healthy", "здоров"),
    "light": ("light wound", "лёгкое ранение"),
    "heavy_unbandaged": ("heavy wound, not bandaged", "тяжёлое ранение без перевязки"),
    "heavy_bandaged": ("heavy wound, bandaged", "тяжёлое ранение, перевязан"),
    "dead": ("dead", "мёртв"),
}
ACTIVITIES = {
    "fight": ("fight", "сражаться"),
    "run": ("run", "бегать"),
    "walk": ("walk", "ходить"),
    "talk": ("talk", "говорить"),
    "cast_spells": ("cast spells", "колдовать"),
    "craft": ("craft", "ремесло"),
    "drink_potions": ("drink potions", "пить зелья"),
    "treat_others": ("treat others", "лечить других"),
    "support_wounded": ("support the wounded", "поддерживать раненых"),
    "whisper": ("whisper", "шептать"),
    "crawl": ("crawl", "ползти"),
    "walk_when_supported": ("walk only when supported", "ходить только с поддержкой"),
    "walk_slowly": ("walk slowly", "медленно ходить"),
}
CONDITIONS = {
    "light_wound": ("light wound", "лёгкое ранение"),
    "heavy_wound": ("heavy wound", "тяжёлое ранение"),
    "treatment": ("in treatment", "на лечении"),
    "on_table": ("on the operating table", "на операционном столе"),
    "supporting": ("supporting a wounded character", "поддерживает раненого"),
    "dead": ("dead", "мёртв"),
    "disease": ("disease or poison", "болезнь или яд"),
    "disease_course": ("in a disease course", "на курсе лечения болезни"),
}


def label(table: dict[str, tuple[str, str]], key: str, lang: str) -> str:
    """The English or Russian label of ``key``."""
    en, ru = table.get(key, (key, key))
    return ru if lang == "ru" else en


def describe(state: CampaignState, char_id: str, lang: str, params: Any) -> dict[str, Any]:
    """A JSON-able card of ``char_id`` (labels in ``lang``)."""
    p = cast(WarhammerParams, params)
    ch = state.characters[char_id]
    ws = wound_state(ch)
    acts = list(getattr(p.allowed, ws))
    if ch.has("supporting"):
        acts = [a for a in acts if a not in ("fight", "run")]
    return {
        "id": ch.id,
        "name": ch.name,
        "race": ch.race,
        "age": ch.age,
        "hits": ch.hits,
        "hits_max": ch.hits_max,
        "alive": ch.alive,
        "state": ws,
        "state_label": label(STATES, ws, lang),
        "conditions": [
            {
                "kind": c.kind,
                "label": label(CONDITIONS, c.kind, lang),
                "visibility": c.visibility.value,
                "started": c.started.isoformat(),
                "deadline": c.deadline.isoformat() if c.deadline else None,
                "bandaged": c.data.get("bandaged"),
                "data": c.data,
            }
            for c in ch.conditions
        ],
        "allowed": [label(ACTIVITIES, a, lang) for a in acts],
        "wound_locations": ch.data.get("wound_locations", []),
        "skills": ch.skills,
    }


TEXTS: dict[str, tuple[str, str]] = {
    "treatment:light": ("light-wound", "лёгкого ранения"),
    "source:all_hits_lost": ("all hits lost", "потеряны все хиты"),
    "source:unbandaged_light": ("30 minutes without a bandage", "30 минут без перевязки"),
    "event:certificate.issued": (
        "{kind} certificate {id} for {disease} issued to {holder}",
        "сертификат ({kind}) {id} на {disease} выдан: {holder}",
    ),
    "cause:lethal_disease": ("lethal disease", "смертельная болезнь"),
    "timer:disease_death": ("death from a lethal disease", "смерть от смертельной болезни"),
    "event:disease.defined": ("disease added to the catalogue", "болезнь добавлена в каталог"),
    "event:disease.infected": ("{character} infected: {code}", "{character} заражён: {code}"),
    "event:treatise.written": ("treatise by {author}: {topic}", "трактат ({author}): {topic}"),
    "event:eugenics.recorded": (
        "eugenics on {patient}: {change}",
        "евгеника ({patient}): {change}",
    ),
    "cause:unbandaged_heavy": ("heavy wound without a bandage", "тяжёлое ранение без перевязки"),
    "reason:wounded_again": ("wounded again", "новое ранение"),
    "reason:heavy_wound": ("heavy wound", "тяжёлое ранение"),
    "reason:got_up": ("got up", "встал"),
    "reason:ground_bed_in_rain": ("ground bed in the rain", "лежак на земле под дождём"),
    "how:treatment:light": ("light-wound treatment", "лечение лёгкого ранения"),
    "how:treatment:post_op": ("operation and bed rest", "операция и покой"),
    "type:admission": ("admission", "поступление"),
    "type:outcome": ("outcome", "исход"),
    "type:signature": ("signature", "подпись"),
    "type:correction": ("correction", "исправление"),
    "type:penalty": ("penalty", "штраф"),
    "type:disease": ("disease case", "случай болезни"),
    "treatment:post_op": ("post-operation", "после операции"),
    "timer:light_wound_worsens": ("light wound turns heavy", "лёгкое ранение станет тяжёлым"),
    "timer:heavy_wound_death": ("death from heavy wound", "смерть от тяжёлого ранения"),
    "timer:treatment_complete": ("treatment complete", "лечение завершится"),
    "timer:bandage_expires": ("bandage stops holding", "повязка перестанет действовать"),
    "event:wound.hits_lost": (
        "{character} lost {lost} hit(s), {hits} left",
        "{character} теряет хитов: {lost}, осталось {hits}",
    ),
    "event:wound.light_started": (
        "{character}: light wound, turns heavy at {deadline} without a bandage",
        "{character}: лёгкое ранение, без перевязки станет тяжёлым в {deadline}",
    ),
    "event:wound.became_heavy": (
        "{character}: heavy wound ({source}), dies at {deadline} without a bandage",
        "{character}: тяжёлое ранение ({source}), без перевязки смерть в {deadline}",
    ),
    "event:wound.bandaged": (
        "{character} bandaged by {healer} ({bandages} bandage(s)); countdown stopped",
        "{character} перевязан ({healer}, повязок: {bandages}); отсчёт остановлен",
    ),
    "event:wound.bandage_expired": (
        "{character}: bandage no longer holds; next change at {deadline}",
        "{character}: повязка больше не держит; следующее изменение в {deadline}",
    ),
    "event:character.died": ("{character} died: {cause}", "{character} умер: {cause}"),
    "event:character.cured": (
        "{character} cured ({how}): all hits restored",
        "{character} излечен ({how}): все хиты восстановлены",
    ),
    "event:treatment.started": (
        "{character}: {kind} treatment by {healer}, done at {deadline}",
        "{character}: лечение {kind}, лекарь {healer}, закончится в {deadline}",
    ),
    "event:treatment.interrupted": (
        "{character}: treatment interrupted ({reason}), not cured",
        "{character}: лечение прервано ({reason}), не излечен",
    ),
    "event:treatment.rescheduled": (
        "{character}: treatment restarts, done at {deadline}",
        "{character}: лечение заново, закончится в {deadline}",
    ),
    "event:operation.started": (
        "{character} on operating table {table} of {hospital} ({healer})",
        "{character} на операционном столе {table} госпиталя {hospital} ({healer})",
    ),
    "event:operation.finished": (
        "{character}: operation finished",
        "{character}: операция завершена",
    ),
    "event:patient.moved": (
        "{character} moved to bed {bed}",
        "{character} перенесён на лежак {bed}",
    ),
    "event:support.started": (
        "{supporter} supports {patient} (cannot fight)",
        "{supporter} поддерживает {patient} (не может сражаться)",
    ),
    "event:support.ended": ("{supporter} stops supporting", "{supporter} больше не поддерживает"),
    "event:hospital.registered": ("hospital registered", "госпиталь зарегистрирован"),
    "event:hospital.journal_opened": (
        "journal {journal} opened in {hospital}",
        "в {hospital} заведён журнал {journal}",
    ),
    "event:hospital.penalized": (
        "hospital {hospital} penalised: {reason}",
        "госпиталь {hospital} оштрафован: {reason}",
    ),
    "event:undo.kept": (
        "an undone record's journal entries stay struck under their numbers",
        "записи журнала отменённой записи остаются зачёркнутыми под своими номерами",
    ),
    "event:journal.entry_added": (
        "journal {hospital}/{journal} #{no}: {type}",
        "журнал {hospital}/{journal} №{no}: {type}",
    ),
    "event:mat.registered": ("mat registered", "подстилка зарегистрирована"),
    "event:weather.changed": ("raining: {raining}", "дождь: {raining}"),
    "event:healer.kit_checked": (
        "{character}'s kit checked: complete={complete}",
        "снаряжение {character} проверено: полное={complete}",
    ),
    "event:healer.book_entry_added": (
        "{character}'s book: {code} added",
        "в книгу лекаря {character} записано: {code}",
    ),
    "event:corpse.interacted": (
        "{actor}: {interaction} of {corpse}",
        "{actor}: {interaction} — тело {corpse}",
    ),
}

TEXTS_PART2: dict[str, tuple[str, str]] = {
    "timer:epidemic_wave_end": ("epidemic wave ends", "конец волны эпидемии"),
    "timer:epidemic_wave_due": ("next epidemic wave due", "пора следующей волны эпидемии"),
    "timer:disease_course_done": ("disease course time over", "время курса лечения истекло"),
    "timer:study_done": ("experimental course over", "экспериментальный курс окончен"),
    "timer:looting_search_ends": ("looting search time over", "время обыска истекло"),
    "timer:looting_time_up": ("location declared looted", "локация объявлена разграбленной"),
    "event:sticker.made": (
        "{count} sticker(s) of {disease} made ({holder})",
        "создано наклеек {disease}: {count} ({holder})",
    ),
    "event:sticker.moved": (
        "sticker(s) {first}…: {what} → {holder}",
        "наклейки {first}…: {what} → {holder}",
    ),
    "event:sticker.kept": (
        "sticker(s) stay with {giver}: {reason}",
        "наклейки остаются у {giver}: {reason}",
    ),
    "event:sticker.vanished": (
        "held sticker(s) of {code} vanish: {character} cured",
        "наклейки {code} на руках пропали: {character} излечен",
    ),
    "event:disease.cured": (
        "{character} cured of {code} ({how}); sticker {sticker}: hospital {hospital_number}, "
        "signed {signature}",
        "{character} излечен от {code} ({how}); наклейка {sticker}: госпиталь {hospital_number}, "
        "подпись {signature}",
    ),
    "event:disease.countdown_paused": (
        "{character}: {code} countdown paused for the course",
        "{character}: отсчёт {code} остановлен на курс",
    ),
    "event:disease.countdown_resumed": (
        "{character}: {code} countdown resumes, death at {deadline}",
        "{character}: отсчёт {code} снова идёт, смерть в {deadline}",
    ),
    "event:certificate.changed": ("certificate {id} changed", "сертификат {id} изменён"),
    "event:protection.outfit_changed": (
        "{character} wears protection: {level}",
        "{character}: защита {level}",
    ),
    "event:protection.granted": (
        "{character} protected by {kind}",
        "{character} защищён: {kind}",
    ),
    "event:infection.contact": (
        "{giver} touched {victim} with {disease}: stuck {stuck}, held {held}, kept {kept}",
        "{giver} коснулся {victim} ({disease}): вклеено {stuck}, на руках {held}, осталось {kept}",
    ),
    "event:finish_off.recorded": (
        "{attacker} finished off {carrier} ({weapon}): infected={infected} {reason}",
        "{attacker} добил {carrier} ({weapon}): заражён={infected} {reason}",
    ),
    "event:outbreak.released": (
        "outbreak {id} ({place}, {disease}): stickers to {infected}",
        "вспышка {id} ({place}, {disease}): наклейки получили {infected}",
    ),
    "event:epidemic.started": (
        "epidemic {epidemic[id]} started",
        "эпидемия {epidemic[id]} началась",
    ),
    "event:epidemic.wave_started": (
        "epidemic {id} wave {no}: {count} infected, until {ends}",
        "эпидемия {id}, волна {no}: заражено {count}, до {ends}",
    ),
    "event:epidemic.wave_ended": (
        "epidemic {id} wave {no} over ({count} infected); next from {next_wave_at}",
        "эпидемия {id}, волна {no} окончена (заражено {count}); следующая с {next_wave_at}",
    ),
    "event:epidemic.wave_due": (
        "epidemic {id}: wave {no} may start",
        "эпидемия {id}: можно волну {no}",
    ),
    "event:epidemic.ended": (
        "epidemic {id} ended: {reason} ({detail})",
        "эпидемия {id} окончена: {reason} ({detail})",
    ),
    "event:disease_course.started": (
        "{character}: {kind} by {healer} until {deadline}",
        "{character}: курс ({kind}), лекарь {healer}, до {deadline}",
    ),
    "event:disease_course.item_done": (
        "{character}: {item} for {disease}",
        "{character}: {item} ({disease})",
    ),
    "event:disease_course.rescheduled": (
        "{character}: course now ends at {deadline}",
        "{character}: курс закончится в {deadline}",
    ),
    "event:disease_course.overdue": (
        "{character}: course time over, items missing {missing}",
        "{character}: время курса вышло, не сделано {missing}",
    ),
    "event:disease_course.ended": (
        "{character}: course {outcome} {reason}",
        "{character}: курс — {outcome} {reason}",
    ),
    "event:study.started": (
        "study {id} of {disease} by {healer}",
        "изучение {id} ({disease}), {healer}",
    ),
    "event:study.finished": (
        "study {id}: {matches} of {of} items right — {result}",
        "изучение {id}: совпало {matches} из {of} — {result}",
    ),
    "event:study.ruled": (
        "study {id}: master rules {outcome}",
        "изучение {id}: решение мастера {outcome}",
    ),
    "event:lab.registered": ("laboratory registered", "ЛСБ зарегистрирована"),
    "event:lab.points_restored": (
        "lab {lab}: new day {day}, {points} points ({lost} unspent lost)",
        "ЛСБ {lab}: новый день {day}, {points} очков (сгорело {lost})",
    ),
    "event:lab.quests_drawn": ("lab {lab}: three quests drawn", "ЛСБ {lab}: выданы три квеста"),
    "event:lab.quest_completed": (
        "lab {lab}: quest {no} done, +{reward} ({points}/{capacity})",
        "ЛСБ {lab}: квест {no} выполнен, +{reward} ({points}/{capacity})",
    ),
    "event:lab.points_spent": (
        "lab {lab}: {what} for {cost} point(s), {points} left",
        "ЛСБ {lab}: {what} за {cost}, осталось {points}",
    ),
    "event:lab.experiment_started": (
        "lab {lab}: recipe experiment on {subject} for {disease}",
        "ЛСБ {lab}: опыт на {subject} ({disease})",
    ),
    "event:lab.recipe_tried": (
        "lab {lab}: recipe try for {disease}: correct={correct}",
        "ЛСБ {lab}: попытка рецепта {disease}: верно={correct}",
    ),
    "event:location.registered": ("location registered", "локация зарегистрирована"),
    "event:location.wealth_changed": (
        "location {location}: wealth set for cycle {cycle}",
        "локация {location}: богатство на цикл {cycle}",
    ),
    "event:location.assaulted": ("{army} assaults {location}", "{army} штурмует {location}"),
    "event:army.formed": ("{location} forms army {army}", "{location} формирует армию {army}"),
    "event:looting.started": (
        "{army} loots {location}: {supplies} Supplies to the convoy, search until {search_until}",
        "{army} грабит {location}: припасов в обоз {supplies}, обыск до {search_until}",
    ),
    "event:looting.resident_acted": (
        "{location}: {resident} — {choice}",
        "{location}: житель {resident} — {choice}",
    ),
    "event:looting.declared": (
        "{location} declared looted: {why}",
        "{location} разграблена: {why}",
    ),
    "event:looting.search_ended": ("{location}: search time over", "{location}: обыск окончен"),
    "event:looting.army_left": (
        "{army} left {location}; protected until {protected_until}",
        "{army} ушла из {location}; защищена до {protected_until}",
    ),
}
TEXTS.update(TEXTS_PART2)
