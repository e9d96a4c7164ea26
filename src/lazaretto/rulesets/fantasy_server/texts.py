"""The texts of the fantasy-server log, English and Russian (``reading/lines.py`` fills
them from event payloads)."""

from __future__ import annotations

from lazaretto.rulesets.fantasy_server.describe import CONDITIONS

TEXTS: dict[str, tuple[str, str]] = {
    **{f"kind:{k}": v for k, v in CONDITIONS.items()},
    # --- checks and general -------------------------------------------------------------
    "event:check.rolled": (
        "{character} rolls {stat} ({purpose}): {summary} vs {against} -> {result}",
        "{character}: бросок {stat} ({purpose}): {summary} против {against} -> {result}",
    ),
    "against:opposed": ("the other side", "другой стороны"),
    "result:success": ("success", "успех"),
    "result:failure": ("failure", "провал"),
    "result:critical success": ("CRITICAL SUCCESS", "КРИТИЧЕСКИЙ УСПЕХ"),
    "result:critical failure": ("CRITICAL FAILURE", "КРИТИЧЕСКИЙ ПРОВАЛ"),
    "result:opposed": ("see the outcome", "см. исход"),
    "event:contest.resolved": (
        "{actor} {actor_total} vs {defender_name} {defender_total}: {winner_name} wins",
        "{actor} {actor_total} против {defender_name} {defender_total}: побеждает {winner_name}",
    ),
    "event:sheet.set": ("{character}'s sheet: {stats}", "лист {character}: {stats}"),
    "event:hp.damaged": (
        "{character} loses {amount} HP ({cause}); HP now {hp}",
        "{character} теряет {amount} ХП ({cause}); теперь {hp}",
    ),
    "event:hp.healed": (
        "{character} healed by {healer} ({means}): {restored} HP, HP now {hp}; "
        "mutation: {mutation}",
        "{healer} лечит {character} ({means}): {restored} ХП, теперь {hp}; мутация: {mutation}",
    ),
    "event:hp.regenerated": (
        "{character} regenerates {restored} HP in {hours} h (resting: {resting}), HP now {hp}",
        "{character} восстанавливает {restored} ХП за {hours} ч (отдых: {resting}), теперь {hp}",
    ),
    "event:character.died": ("{character} died: {cause}", "{character} умер: {cause}"),
    "event:condition.added": ("{character}: {kind}", "{character}: {kind}"),
    "event:condition.removed": ("{character}: {kind} ends", "{character}: {kind} снято"),
    "event:condition.expired": ("{character}: {kind} over", "{character}: {kind} закончилось"),
    "event:condition.changed": ("{character}: {kind} updated", "{character}: {kind} обновлено"),
    "event:combat.started": (
        "combat {encounter}: {participants}; automatic initiative: {initiative}",
        "бой {encounter}: {participants}; автоматическая инициатива: {initiative}",
    ),
    "event:combat.ended": ("combat {encounter} ended", "бой {encounter} окончен"),
    "event:combat.fled": (
        "{character} escapes from {encounter}",
        "{character} сбегает из боя {encounter}",
    ),
    # --- items ---------------------------------------------------------------------------
    "event:item.registered": ("item {name} registered ({nature})", "предмет {name} ({nature})"),
    "event:item.crafted": (
        "{crafter} crafts {name} ({nature}); approval: {approval}; perfect: {perfect}",
        "{crafter} создаёт {name} ({nature}); одобрение: {approval}; идеальный: {perfect}",
    ),
    "event:item.craft_failed": (
        "{crafter} fails to craft {name} ({roll})",
        "{crafter} не смог создать {name} ({roll})",
    ),
    "event:item.approved": ("{name} approved by the GM", "{name} одобрен GM"),
    "event:item.rejected": ("{name} rejected by the GM", "{name} отклонён GM"),
    "event:item.equipped": (
        "{character} equips {name} ({slots}): {effects}",
        "{character} экипирует {name} ({slots}): {effects_ru}",
    ),
    "event:item.unequipped": ("{character} takes off {name}", "{character} снимает {name}"),
    "event:item.used": (
        "{character} uses {name}: {mechanic}",
        "{character} применяет {name}: {mechanic}",
    ),
    "event:item.critical_logged": (
        "{name}: {what} counted ({counter})",
        "{name}: записан крит ({counter})",
    ),
    "event:item.broke": (
        "{name} BREAKS after {counter} x {what}: artifact properties lost, penalty -{penalty}",
        "{name} СЛОМАН после {counter} критов: артефактные свойства потеряны, штраф -{penalty}",
    ),
    "event:item.partially_broke": (
        "{name} is partially broken: repair it, or the next critical failure destroys it",
        "{name} частично сломан: почините, иначе следующий крит. провал его уничтожит",
    ),
    "event:item.destroyed": (
        "{name} is destroyed beyond restoration",
        "{name} уничтожен без возможности восстановления",
    ),
    "event:item.repaired": (
        "{name} repaired by {actor} for {cost}",
        "{name} починил {actor} за {cost_ru}",
    ),
    "event:item.transferred": ("{name} passes from {from} to {to}", "{name}: от {from} к {to}"),
    # --- damage --------------------------------------------------------------------------
    "event:fall.resolved": (
        "{character} falls {movement_actions} movement actions ({turns} turns): {damage} pure "
        "damage (armour ignored), traumas: {traumas} ({drawn}), fatal: {fatal}",
        "{character} падает на {movement_actions} действий движения ({turns} ходов): {damage} "
        "чистого урона (броня не защищает), травм: {traumas} ({drawn}), смерть: {fatal}",
    ),
    "event:fall.action_resolved": (
        "{character} while falling: {what} {item} - done: {done}",
        "{character} в падении: {what} {item} - удалось: {done}",
    ),
    "event:collision.resolved": (
        "{character} hits {into}: {damage} bludgeoning damage (each: {damage_each})",
        "{character} врезается ({into}): {damage} дробящего урона (каждому: {damage_each})",
    ),
    # --- crime ---------------------------------------------------------------------------
    "event:theft.resolved": (
        "theft by {actor} from {victim_name}: {thief_total} vs {victim_total} "
        "(+{victim_bonus}) -> {outcome}",
        "кража {actor} у {victim_name}: {thief_total} против {victim_total} "
        "(+{victim_bonus}) -> {outcome}",
    ),
    "outcome:stolen": ("stolen", "украдено"),
    "outcome:caught": ("caught red-handed", "пойман с поличным"),
    "outcome:fell": ("caught red-handed and fell to the ground", "пойман с поличным и упал"),
    "outcome:rumour": (
        "success: write to the GM, a rumour post follows",
        "успех: напишите GM, выйдет пост со слухом",
    ),
    "outcome:evidence": (
        "failure: post the scene with the evidence in летопись-выживания",
        "неудача: отпишите сцену с уликами в летопись-выживания",
    ),
    "outcome:noticed": ("noticed", "замечен"),
    "outcome:unnoticed": ("unnoticed", "не замечен"),
    "event:raid.approved": (
        "raid on {target} agreed; curator: {curator}",
        "рейд на {target} согласован; куратор: {curator}",
    ),
    "event:raid.committed": ("raid {raid} carried out", "рейд {raid} совершён"),
    "event:raid.closed": ("raid {raid} agreed afterwards", "рейд {raid} согласован после"),
    "event:robbery.resolved": (
        "{actor} takes {item} from {target}: {outcome}",
        "{actor} берёт {item} в {target}: {outcome}",
    ),
    "event:property.damage_recorded": (
        "{actor} damages {what} of {owner}",
        "{actor} портит {what} ({owner})",
    ),
    "event:trace.left": ("a trace at {scene}", "след на месте {scene}"),
    "event:evidence.searched": (
        "{actor} searches {scene} ({roll}): found {found_ids}",
        "{actor} ищет улики в {scene} ({roll}): найдено {found_ids}",
    ),
    "event:trace.collected": ("{actor} collects {trace}", "{actor} изымает {trace}"),
    "event:trace.studied": ("{actor} studies {trace}: {info}", "{actor} изучает {trace}: {info}"),
    "event:door.registered": ("door registered", "дверь зарегистрирована"),
    "event:lock.attempted": (
        "{actor} tries {method} on the door: {roll} -> opened: {opened}",
        "{actor} взламывает ({method}): {roll} -> открыто: {opened}",
    ),
    # --- stealth and torture ---------------------------------------------------------------
    "event:stealth.resolved": (
        "{actor} sneaks past ({observer_name} rolls): {outcome}",
        "{actor} крадётся (бросает {observer_name}): {outcome}",
    ),
    "event:ambush.declared": (
        "{actor} ambushes {target_name} ({mode}): initiative, +{bonus} to the first roll",
        "{actor} нападает из засады на {target_name} ({mode}): инициатива, "
        "+{bonus} к первому броску",
    ),
    "event:torture.round_resolved": (
        "torture round {round} ({method}): {actor} {torturer_total} vs {victim_name} "
        "{victim_total} (victim +{victim_bonus}) -> question allowed: {question_allowed}",
        "раунд пыток {round} ({method}): {actor} {torturer_total} против {victim_name} "
        "{victim_total} (жертва +{victim_bonus}) -> вопрос: {question_allowed}",
    ),
    "event:torture.ended": (
        "torture of {victim} ends after {rounds} rounds; no more today",
        "пытка {victim} окончена после {rounds} раундов; сегодня больше нельзя",
    ),
    # --- healing ---------------------------------------------------------------------------
    "event:treatment.opened": (
        "{healer} starts treating {patient}'s {trauma}: {plan}; roll due {roll_due}",
        "{healer} начинает лечить {patient} ({trauma}): {plan_ru}; бросок {roll_due}",
    ),
    "event:treatment.rolled": (
        "{patient}'s {trauma}: {roll} success={success}, progress {progress}",
        "{patient}, {trauma}: {roll} успех={success}, прогресс {progress}",
    ),
    "event:treatment.completed": ("{patient}'s {trauma} treated", "{patient}: {trauma} вылечено"),
    "event:treatment.hp_lost": (
        "{character} loses {lost} HP from a failed treatment",
        "{character} теряет {lost} ХП от неудачного лечения",
    ),
    "event:magic_heal.recorded": (
        "{character}: {amount} HP of magical healing counted",
        "{character}: учтено магическое лечение {amount} ХП",
    ),
    "event:mutation.rolled": (
        "MAGICAL MUTATION for {character}: d6={face}: {text}",
        "МАГИЧЕСКАЯ МУТАЦИЯ у {character}: d6={face}: {text_ru}",
    ),
    "event:mutation.resisted": (
        "{character} resists a mutation ({how})",
        "{character} сопротивляется мутации ({how})",
    ),
    "event:skill.used": (
        "{character} uses {skill}: 24 h recharge",
        "{character}: {skill}, перезарядка 24 ч",
    ),
    "event:heal.spiritual_recorded": (
        "spiritual healing of {character} ({how})",
        "духовное лечение {character} ({how})",
    ),
    # --- addiction -------------------------------------------------------------------------
    "event:addiction.potion_counted": (
        "{character}: potion restored {restored} HP (potion HP {potion_hp}, today {today})",
        "{character}: зелье восстановило {restored} ХП "
        "(всего от зелий {potion_hp}, сегодня {today})",
    ),
    "event:addiction.stage_reached": (
        "{character}: addiction {stage} - {behaviour}",
        "{character}: зависимость {stage}",
    ),
    "event:addiction.day_evaluated": (
        "{character}, {day}: drank {drunk}/{needed}; withdrawal {withdrawal} ({state})",
        "{character}, {day}: выпито {drunk}/{needed}; ломка {withdrawal} ({state})",
    ),
    "event:addiction.withdrawal_checked": (
        "{character}: withdrawal check {roll} -> {state}",
        "{character}: проверка ломки {roll} -> {state}",
    ),
    "event:addiction.grave_checked": (
        "{character}: grave condition END check {roll}; survived: {survived}",
        "{character}: проверка END в тяжёлом состоянии {roll}; выжил: {survived}",
    ),
    "event:addiction.treatment_started": (
        "{character}: addiction treatment ({stage}) until {until}; isolation, no potions",
        "{character}: лечение зависимости ({stage}) до {until}; изоляция, без зелий",
    ),
    "event:addiction.treatment_interrupted": (
        "{character}: addiction treatment interrupted",
        "{character}: лечение зависимости прервано",
    ),
    "event:addiction.cured": (
        "{character}: addiction ({stage}) cured",
        "{character}: зависимость ({stage}) излечена",
    ),
    "event:addiction.ban_ended": (
        "{character}: potion ban over",
        "{character}: запрет на зелья снят",
    ),
    "event:addiction.ban_broken": (
        "{character} breaks the potion ban",
        "{character} нарушает запрет на зелья",
    ),
    "event:addiction.spiritual_counted": (
        "{character}: spiritual healing counted for the course",
        "{character}: духовное лечение засчитано в курс",
    ),
    # --- timers ------------------------------------------------------------------------------
    "timer:condition_expires": ("a condition ends", "состояние закончится"),
    "timer:skin_layer_festers": (
        "the extra skin becomes a festering wound",
        "лишняя кожа станет гноящейся раной",
    ),
    "timer:addiction_day_end": ("the addiction's day is counted", "подсчёт дня зависимости"),
    "timer:addiction_course_end": ("addiction treatment ends", "конец лечения зависимости"),
    "timer:addiction_ban_end": ("the potion ban ends", "конец запрета на зелья"),
    # --- values the log and the answers name (event_line looks up KEY:VALUE) ------------
    "nature:mundane": ("mundane", "обычный"),
    "nature:artifact": ("artifact", "артефакт"),
    "purpose:check": ("check", "проверка"),
    "purpose:contest": ("contest", "состязание"),
    "purpose:theft": ("theft", "кража"),
    "purpose:theft_notice": ("theft_notice", "заметить кражу"),
    "purpose:lockpick": ("lockpick", "взлом"),
    "purpose:stealth": ("stealth", "скрытность"),
    "purpose:detect": ("detect", "обнаружение"),
    "purpose:evidence": ("evidence", "поиск улик"),
    "purpose:torture": ("torture", "пытка"),
    "purpose:torture_resist": ("torture_resist", "сопротивление пытке"),
    "method:lockpicks": ("lockpicks", "отмычки"),
    "method:physical": ("physical", "физическая"),
    "method:magical": ("magical", "магическая"),
    "method:physical_alt": ("physical, the other way", "физическая, другим способом"),
    "means:potion": ("potion", "зелье"),
    "how:talk": ("talk", "беседа"),
    "approval:not_needed": ("not_needed", "не нужно"),
    "stage:none": ("none", "нет"),
    "stage:stage1": ("stage 1", "1-я стадия"),
    "stage:stage2": ("stage 2", "2-я стадия"),
    "stage:heavy": ("heavy", "тяжёлая"),
    "withdrawal_state:none": ("none", "нет"),
    "withdrawal_state:growing": ("growing", "нарастает"),
    "withdrawal_state:check_due": ("check due", "пора проверки"),
    "withdrawal_state:improving": ("improving", "ослабевает"),
    "withdrawal_state:grave": ("grave", "тяжёлая"),
    # the crafts of repairs and properties (S-REP-01, S-ART-02): кузнец, оружейник...
    "skill:Smith": ("Smith", "Кузнец"),
    "skill:Gunsmith": ("Gunsmith", "Оружейник"),
    "skill:Armorer": ("Armorer", "Бронник"),
    "skill:Engineer": ("Engineer", "Инженер"),
    "skill:Craftsman": ("Craftsman", "Ремесленник"),
    "nature:technological": ("technological", "технологический"),
    "nature:magical": ("magical", "магический"),
    "nature:techno_magical": ("techno-magical", "техномагический"),
    "effects:no stat change": ("no stat change", "характеристики не меняются"),
    "slots:combat": ("combat", "боевой"),
    "slots:rp": ("role-play", "ролевой"),
    "slots:combat, rp": ("combat, role-play", "боевой, ролевой"),
    "status:intact": ("intact", "цел"),
    "status:partially_broken": ("partially broken", "частично сломан"),
    "status:broken": ("broken", "сломан"),
    "status:destroyed": ("destroyed", "уничтожен"),
    "means:spell": ("spell", "заклинание"),
    "means:ritual": ("ritual", "ритуал"),
    "means:combat_skill": ("combat skill", "боевой навык"),
    "means:other": ("other", "другое"),
    "means:bandage": ("bandage", "перевязка"),
    "means:medication": ("medication", "лекарство"),
    "means:preparation": ("preparation", "препарат"),
    "means:repair_kit": ("repair kit", "ремкомплект"),
    "mode:stepwise_target_band": (
        "stepwise, priced by the target value's band", "по шагам, цена по диапазону цели"
    ),
    "mode:divide_by_base_band": (
        "divided by the base value's band", "делением по диапазону базы"
    ),
    "mode:stepwise_current_band": (
        "stepwise, priced by the current value's band", "по шагам, цена по текущему диапазону"
    ),
}
