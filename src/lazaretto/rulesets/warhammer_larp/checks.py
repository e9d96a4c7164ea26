"""Shared checks of the warhammer-larp handlers: states, healers, places, refusals."""

from __future__ import annotations

from typing import NoReturn, cast

from lazaretto.core.character import Character
from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import NotFound, RuleViolation
from lazaretto.rulesets.warhammer_larp.params import WarhammerParams
from lazaretto.rulesets.warhammer_larp.state import Hospital, WarhammerState

FIELD = "field"


def params(ctx: ActionContext) -> WarhammerParams:
    """The campaign's parameters."""
    return cast(WarhammerParams, ctx.params)


def state(ctx: ActionContext) -> WarhammerState:
    """The campaign's state."""
    return cast(WarhammerState, ctx.state)


def refuse(
    en: str, ru: str, *rule_ids: str, tip: str | None = None, tip_ru: str | None = None
) -> NoReturn:
    """Refuse the action, naming the rules and what to do instead."""
    raise RuleViolation(en, ru=ru, rule_ids=rule_ids, tip=tip, tip_ru=tip_ru)


def wound_state(ch: Character) -> str:
    """``healthy``, ``light``, ``heavy_unbandaged``, ``heavy_bandaged`` or ``dead``."""
    if not ch.alive:
        return "dead"
    heavy = ch.condition("heavy_wound")
    if heavy is not None:
        return "heavy_bandaged" if heavy.data.get("bandaged") else "heavy_unbandaged"
    return "light" if ch.has("light_wound") else "healthy"


def allowed(ctx: ActionContext, ch: Character) -> list[str]:
    """What ``ch`` may do in their wound state (A-W-05)."""
    acts = list(getattr(params(ctx).allowed, wound_state(ch)))
    if ch.has("supporting"):  # W-WND-11: whoever supports a heavy-wounded one cannot fight
        acts = [a for a in acts if a not in ("fight", "run")]
    return acts


def lost_hits(ch: Character) -> int:
    """Hits lost since the last cure."""
    return ch.hits_max - ch.hits


def require_alive(ch: Character) -> None:
    """Refuse any action on a dead character (W-DEF-01)."""
    if not ch.alive:
        refuse(
            f"{ch.name} is dead; only a funeral rite, a search or carrying the body remain",
            f"{ch.name} мёртв; с телом можно только отпеть, обыскать или перенести",
            "W-DEF-01",
            tip="Use `interact-corpse`.",
            tip_ru="Используйте `interact-corpse`.",
        )


def require_wounded(ch: Character) -> None:
    """Refuse treating someone who has no wound."""
    require_alive(ch)
    if wound_state(ch) == "healthy":
        refuse(f"{ch.name} has no wound to treat", f"У {ch.name} нет ранения", "W-DEF-06")


def require_healer(ctx: ActionContext, healer: Character) -> None:
    """A healer has the Healer skill and the props (W-DEF-08, W-WND-01, W-HEAL-04), and
    is able to act (W-DEF-03)."""
    p = params(ctx)
    require_alive(healer)
    if not healer.has_skill(p.healer_skill):
        refuse(
            f"{healer.name} does not have the {p.healer_skill} skill, so cannot treat wounds",
            f"У {healer.name} нет умения «Лекарь», лечить ранения нельзя",
            "W-WND-01",
            "W-DEF-08",
            "W-HEAL-04",
            tip="Ask a healer.",
            tip_ru="Позовите лекаря.",
        )
    kit = healer.data.get("kit")
    if p.healer_kit_check_required and not (kit and kit.get("complete")):
        refuse(
            f"{healer.name}'s healer's kit has not been checked complete",
            f"Снаряжение лекаря {healer.name} не проверено как полное",
            "W-DEF-08",
            "W-HOSP-19",
            tip="Record it with `check-kit`.",
            tip_ru="Отметьте его через `check-kit`.",
        )
    if "treat_others" not in allowed(ctx, healer):
        refuse(
            f"{healer.name} is heavily wounded and can perform no game actions",
            f"{healer.name} тяжело ранен и не может совершать игровых действий",
            "W-DEF-03",
            "W-WND-09",
            "W-WND-14",
        )


def hospital(ctx: ActionContext, hospital_id: str) -> Hospital:
    """The hospital ``hospital_id``; NotFound otherwise; refused if closed (W-HOSP-11)."""
    h = state(ctx).hospitals.get(hospital_id)
    if h is None:
        raise NotFound(
            f"No hospital {hospital_id!r}",
            ru=f"Нет госпиталя {hospital_id!r}",
            tip="Register it with `register-hospital`.",
            tip_ru="Зарегистрируйте его: `register-hospital`.",
        )
    if h.closed:
        refuse(
            f"Hospital {h.name} was closed by the masters",
            f"Госпиталь {h.name} закрыт мастерами",
            "W-HOSP-11",
        )
    return h


def require_free_bed(ctx: ActionContext, h: Hospital, bed_id: str, patient: str) -> None:
    """A bed (or a table used as one, W-HOSP-14) that is free and valid (W-HOSP-16)."""
    place = h.place(bed_id)
    if place is None:
        raise NotFound(
            f"Hospital {h.name} has no bed or table {bed_id!r}",
            ru=f"В госпитале {h.name} нет лежака или стола {bed_id!r}",
        )
    if place.occupant not in (None, patient):
        refuse(
            f"Bed {bed_id} of {h.name} is taken by {place.occupant}",
            f"Лежак {bed_id} госпиталя {h.name} занят ({place.occupant})",
            "W-HOSP-13",
            "W-HEAL-08",
            tip="Choose a free bed.",
            tip_ru="Выберите свободный.",
        )
    if place.on_ground and state(ctx).raining:
        refuse(
            f"Bed {bed_id} is on the ground and it is raining: it does not count as a bed",
            f"Лежак {bed_id} на земле, идёт дождь: он недействителен",
            "W-HOSP-16",
            tip="Use a raised bed.",
            tip_ru="Используйте приподнятый лежак.",
        )


def require_free_mat(
    ctx: ActionContext, mat_id: str | None, patient: str, rule_ids: tuple[str, ...]
) -> None:
    """A registered field mat with nobody else on it (W-HEAL-06, W-HEAL-08)."""
    if not mat_id:
        refuse(
            "In the field a mat is required for this",
            "В полевых условиях нужна подстилка",
            *rule_ids,
            tip="Give --mat (register one with `register-mat`).",
            tip_ru="Укажите --mat (регистрация: `register-mat`).",
        )
    mat = state(ctx).mats.get(mat_id)
    if mat is None:
        raise NotFound(
            f"No mat {mat_id!r}",
            ru=f"Нет подстилки {mat_id!r}",
            tip="Register it with `register-mat`.",
            tip_ru="Зарегистрируйте: `register-mat`.",
        )
    if mat.occupant not in (None, patient):
        refuse(
            f"Mat {mat_id} already has a patient ({mat.occupant})",
            f"На подстилке {mat_id} уже лежит пациент ({mat.occupant})",
            "W-HEAL-08",
        )


def resident_may_harm(ctx: ActionContext, attacker: Character, target: Character) -> None:
    """Refuse damage by a resident of a location being looted to the winning Army's units
    (W-LOOT-06), from the start of the looting until the anchor of A-W-04."""
    for loc in state(ctx).locations.values():
        lt = loc.looting
        if lt is None or attacker.id not in loc.residents or target.id not in lt.units:
            continue
        until = lt.army_left_at if params(ctx).resident_no_damage_until == "army_exit" else None
        if params(ctx).resident_no_damage_until == "declared_looted":
            until = lt.declared_at
        if until is None or ctx.now < until:
            refuse(
                f"{attacker.name}, a resident of {loc.name}, cannot damage {target.name} of the "
                f"winning army {lt.army} during the looting",
                f"{attacker.name}, житель локации {loc.name}, не может нанести повреждения "
                f"{target.name} из армии-победителя {lt.army} во время разграбления",
                "W-LOOT-06",
                "A-W-04",
            )
