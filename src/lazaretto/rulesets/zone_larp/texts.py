"""English and Russian texts of zone-larp: zone, state and activity labels, and the
templates of its events and countdowns (``reading/lines.py`` fills in the payload for
the CLI, the API and the web)."""

from __future__ import annotations

ZONE_LABELS = {
    "head": ("head", "голова"),
    "torso": ("torso", "туловище"),
    "right_arm": ("right arm", "правая рука"),
    "left_arm": ("left arm", "левая рука"),
    "right_leg": ("right leg", "правая нога"),
    "left_leg": ("left leg", "левая нога"),
}
ZONE_STATES = {
    "intact": ("intact", "цела"),
    "damaged": ("damaged", "повреждена"),
    "infected": ("infected or worsening", "заражена или ухудшается"),
}
ACTIVITIES = {
    "run": ("run", "бегать"),
    "walk": ("walk", "ходить"),
    "crawl": ("crawl", "ползти"),
    "stand_up": ("stand up", "вставать"),
    "melee": ("use melee weapons", "холодное оружие"),
    "shoot": ("shoot", "стрелять"),
    "radio": ("use the radio", "радиостанция"),
    "first_aid_kit": ("use a first-aid kit", "аптечка"),
    "other_items": ("use other game items", "другие игровые предметы"),
    "speak": ("speak", "говорить"),
    "drop_items": ("drop or hand over items", "бросать или отдавать вещи"),
    "treat_others": ("treat others", "лечить других"),
    "suicide": ("commit suicide", "покончить с собой"),
    "comment_ooc": ("comment out of game", "комментировать вне игры"),
}
CONDITIONS = {
    "light_wound": ("light wound", "лёгкое ранение"),
    "heavy_wound": ("heavy wound", "тяжёлое ранение"),
    "treatment": ("resting after treatment", "отдых после лечения"),
    "on_table": ("being operated on", "на операции"),
    "in_hospital": ("in the Hospital (мертвяк)", "в Госпитале (мертвяке)"),
    "clinical_death": ("clinical death", "клиническая смерть"),
    "excluded": ("excluded from the game", "исключён из игры"),
    "unconscious": ("unconscious", "без сознания"),
    "knockdown": ("knockdown", "нокдаун"),
    "sudden_state": ("sudden state", "внезапное состояние"),
    "trauma": ("trauma", "травма"),
    "infection": ("infection", "инфекция"),
}


def _texts() -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for table, prefix in ((ZONE_LABELS, "zone"), (ZONE_STATES, "state"), (CONDITIONS, "state")):
        out.update({f"{prefix}:{k}": v for k, v in table.items()})
    return out


TEXTS: dict[str, tuple[str, str]] = {
    "mode:sum_nonintact": ("sum of damaged zones", "сумма повреждённых зон"),
    "mode:all_zones_L60": ("every zone counts", "все зоны в счёт"),
    "mode:additive_L77": ("every zone plus its damage", "каждая зона плюс повреждение"),
    "state:healthy": ("healthy", "здоров"),
    **_texts(),
    "weapon:normal": ("ordinary weapon", "обычное оружие"),
    "weapon:red_ribbon": ("red-ribbon weapon", "оружие с красной лентой"),
    "weapon:pyrotechnics": ("pyrotechnics", "пиротехника"),
    "landed_on:shield": ("shield", "щит"),
    "landed_on:weapon": ("weapon", "оружие"),
    "source:no_kit": ("no first-aid kit in 10 minutes", "нет аптечки за 10 минут"),
    "source:second_hit": ("second hit", "повторное попадание"),
    "source:pyrotechnics": ("pyrotechnics", "пиротехника"),
    "source:two_hits": ("two hits at once", "два попадания сразу"),
    "source:all_hits_lost": ("all hits lost", "потеряны все хиты"),
    "source:left_rest": ("got up before recovering", "встал до выздоровления"),
    "source:shot": ("shot", "выстрел"),
    "source:melee": ("melee weapon", "холодное оружие"),
    "source:other": ("other", "иное"),
    "source:mutant_touch": ("mutant's touch", "касание мутанта"),
    "source:magic_weapon": ("magical weapon", "магическое оружие"),
    "source:monster": ("monster", "монстр"),
    "source:radical_measure": ("radical measure", "радикальная мера"),
    "cause:no_medicine": ("15 minutes without medicine", "15 минут без медицины"),
    "cause:operation": ("died in the operation", "умер на операции"),
    "cause:trauma_over_cap": ("one trauma too many", "травм больше предела"),
    "reason:got_up": ("got up", "встал"),
    "reason:wounded_again": ("wounded again", "новое попадание"),
    "reason:heavy_wound": ("heavy wound", "тяжёлое ранение"),
    "reason:step2_missing": ("bandage never changed", "повязку не сменили"),
    "kind:heal": ("after a bandage", "после перевязки"),
    "kind:post_op": ("after the operation", "после операции"),
    "how:heal": ("bandage, broth and rest", "перевязка, отвар и отдых"),
    "how:post_op": ("operation and rest", "операция и отдых"),
    "measure:ordinary": ("ordinary", "обычная"),
    "measure:radical": ("radical", "радикальная"),
    "outcome:survived": ("survived", "выжил"),
    "outcome:died": ("died", "умер"),
    "type:physical": ("physical", "физическая"),
    "type:mental": ("mental", "ментальная"),
    "payment:insurance": ("insurance", "страховка"),
    "payment:money": ("game money", "игровые деньги"),
    "payment:work": ("work in the Hospital", "работа в Госпитале"),
    "decision:rehabilitation": ("rehabilitation", "реабилитация"),
    "decision:reanimation": ("reanimation", "реанимация"),
    "why:hospital_arrival": ("arrived at the Hospital", "прибыл в Госпиталь"),
    "why:operation_start": ("operation started", "начата операция"),
    "staff:administrator": ("administrator", "администратор"),
    "staff:chief_doctor": ("Chief Doctor", "Главный Врач"),
    "staff:medic": ("medic", "медик"),
    "mode:in_game": ("in game", "по игре"),
    "mode:ooc": ("out of game", "вне игры"),
    "timer:kit_window_expires": (
        "light wound turns heavy without a first-aid kit",
        "лёгкое ранение станет тяжёлым без аптечки",
    ),
    "timer:heavy_wait_over": (
        "wait over: red armband, to the Hospital",
        "ожидание окончено: красная повязка, в Госпиталь",
    ),
    "timer:dying_death": ("death without medicine", "смерть без медицины"),
    "timer:treatment_complete": ("rest over: all hits back", "отдых окончен: все хиты"),
    "timer:trauma_treatment_complete": ("trauma treatment over", "лечение травмы окончено"),
    "timer:rehab_complete": ("Hospital stay over", "срок в Госпитале окончен"),
    "timer:unconscious_ends": ("comes round", "приходит в сознание"),
    "timer:knockdown_ends": ("may get up", "может встать"),
    "timer:sudden_state_ends": ("sudden state ends", "внезапное состояние проходит"),
    "event:charsheet.issued": (
        "{character}: character sheet issued, {hits} hits",
        "{character}: выдан чарлист, хитов: {hits}",
    ),
    "event:zone.marked": (
        "{character}'s sheet: {zone} {state}",
        "чарлист {character}: {zone} — {state}",
    ),
    "event:strike.parried": (
        "{character}: strike on the {landed_on}, no hit",
        "{character}: попадание в {landed_on}, не считается",
    ),
    "event:wound.hits_lost": (
        "{character} lost {lost} hit(s) ({weapon}), {hits} left",
        "{character} теряет хитов: {lost} ({weapon}), осталось {hits}",
    ),
    "event:wound.light_started": (
        "{character}: light wound ({source})",
        "{character}: лёгкое ранение ({source})",
    ),
    "event:wound.kit_applied": (
        "{character}: first-aid kit or healer in time; back to the fight, cannot run",
        "{character}: аптечка или лекарь вовремя; может вернуться в бой, не бегает",
    ),
    "event:wound.became_heavy": (
        "{character}: heavy wound ({source}); dies at {deadline} without the Hospital or an "
        "operation",
        "{character}: тяжёлое ранение ({source}); без Госпиталя или операции смерть в {deadline}",
    ),
    "event:wound.wait_extended": (
        "{character}: stays put until the fighting ends",
        "{character}: остаётся на месте до конца боя",
    ),
    "event:wound.set_off": (
        "{character}: red armband on, going to the Hospital",
        "{character}: красная повязка, идёт в Госпиталь",
    ),
    "event:wound.death_timer_stopped": (
        "{character}: death countdown stopped ({why})",
        "{character}: отсчёт до смерти остановлен ({why})",
    ),
    "event:character.clinical_death": (
        "{character}: clinical death ({cause}); to the мертвяк",
        "{character}: клиническая смерть ({cause}); в мертвяк",
    ),
    "event:character.recovered": (
        "{character} recovered ({how}): all hits back",
        "{character} выздоровел ({how}): все хиты",
    ),
    "event:treatment.started": (
        "{character}: rest {kind} with {healer} until {deadline}",
        "{character}: отдых {kind}, лекарь {healer}, до {deadline}",
    ),
    "event:treatment.cared": (
        "{character}: bandage changed, forehead wiped",
        "{character}: повязка сменена, лоб обтёрт",
    ),
    "event:treatment.interrupted": (
        "{character}: rest interrupted ({reason}), not recovered",
        "{character}: отдых прерван ({reason}), не выздоровел",
    ),
    "event:operation.started": (
        "{character}: {measure} operation by {healer}",
        "{character}: операция ({measure}), лекарь {healer}",
    ),
    "event:operation.finished": (
        "{character}: operation ({measure}) over — {outcome}",
        "{character}: операция ({measure}) окончена — {outcome}",
    ),
    "event:trauma.received": (
        "{character}: {type} trauma, card field {slot} ({source})",
        "{character}: травма ({type}), поле карточки {slot} ({source})",
    ),
    "event:trauma.identified": (
        "{character}: trauma {slot} identified — {type}, {consequences}",
        "{character}: травма {slot} установлена — {type}, {consequences}",
    ),
    "event:trauma.treatment_started": (
        "{character}: trauma {slot} treated until {deadline}",
        "{character}: лечение травмы {slot} до {deadline}",
    ),
    "event:trauma.healed": (
        "{character}: trauma {slot} healed",
        "{character}: травма {slot} излечена",
    ),
    "event:trauma.treatment_failed": (
        "{character}: trauma {slot} cannot be healed and stays",
        "{character}: травма {slot} неизлечима и остаётся",
    ),
    "event:infection.exposed": (
        "{character}: infected with {infection} from {source}",
        "{character}: заражение {infection} от {source}",
    ),
    "event:infection.identified": (
        "{character}: infection identified {infections}",
        "{character}: инфекция идентифицирована {infections}",
    ),
    "event:infection.cured": (
        "{character}: {infection} cured ({resources} resource(s))",
        "{character}: {infection} вылечена (ресурсов: {resources})",
    ),
    "event:implant.installed": ("{character}: implant {name}", "{character}: имплант {name}"),
    "event:implant.damaged": (
        "{character}: implant {name} damaged",
        "{character}: имплант {name} повреждён",
    ),
    "event:implant.repaired": (
        "{character}: implant {name} repaired by {manufacturer}",
        "{character}: имплант {name} отремонтирован ({manufacturer})",
    ),
    "event:hospital.arrived": (
        "{character} arrived at the Hospital (logged by the {staff})",
        "{character} прибыл в Госпиталь (зафиксировал: {staff})",
    ),
    "event:hospital.examined": (
        "{character} examined: {minutes} min, until {deadline} ({decision})",
        "{character} осмотрен: {minutes} мин, до {deadline} ({decision})",
    ),
    "event:hospital.stay_recomputed": (
        "{character}: stay now {minutes} min, until {deadline}",
        "{character}: срок теперь {minutes} мин, до {deadline}",
    ),
    "event:hospital.instructed": (
        "{character}: instruction from the {staff}: {instruction}",
        "{character}: указание ({staff}): {instruction}",
    ),
    "event:rehab.completed": (
        "{character}: stay over; pay and leave",
        "{character}: срок окончен; оплата и выход",
    ),
    "event:hospital.discharged": (
        "{character} left the Hospital ({decision}), paid: {payment}",
        "{character} вышел из Госпиталя ({decision}), оплата: {payment}",
    ),
    "event:state.unconscious": (
        "{character} unconscious until {deadline} (will not remember)",
        "{character} без сознания до {deadline} (не будет помнить)",
    ),
    "event:state.knocked_down": (
        "{character} knocked down until {deadline}",
        "{character} в нокдауне до {deadline}",
    ),
    "event:sudden_state.declared": (
        "{character}: sudden state — {description}",
        "{character}: внезапное состояние — {description}",
    ),
    "event:state.ended": ("{character}: {state} over", "{character}: {state} — прошло"),
    "event:character.excluded": (
        "{character} excluded from the game ({reason}): counts as death, final",
        "{character} исключён из игры ({reason}): равнозначно смерти, окончательно",
    ),
    "event:combat.changed": ("fight going on: {ongoing}", "идёт бой: {ongoing}"),
    "event:interaction.recorded": (
        "{actor} and {target}: interaction ({mode})",
        "{actor} и {target}: взаимодействие ({mode})",
    ),
}
