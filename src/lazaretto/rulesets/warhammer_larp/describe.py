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
