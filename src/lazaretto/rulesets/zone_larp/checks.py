"""Shared checks of the zone-larp handlers: the health state, what it allows, refusals."""

from __future__ import annotations

from typing import NoReturn, cast

from lazaretto.core.character import Character
from lazaretto.core.engine import ActionContext, QueryContext
from lazaretto.core.errors import RuleViolation
from lazaretto.rulesets.zone_larp.params import Activity, StaffRole, ZoneParams
from lazaretto.rulesets.zone_larp.state import (
    CLINICAL,
    EXCLUDED,
    HEAVY,
    HOSPITAL,
    KNOCKDOWN,
    LIGHT,
    ON_TABLE,
    TREATMENT,
    UNCONSCIOUS,
    ZoneLarpState,
)


def params(ctx: ActionContext | QueryContext) -> ZoneParams:
    """The campaign's parameters."""
    return cast(ZoneParams, ctx.params)


def state(ctx: ActionContext | QueryContext) -> ZoneLarpState:
    """The campaign's state."""
    return cast(ZoneLarpState, ctx.state)


def refuse(
    en: str, ru: str, *rule_ids: str, tip: str | None = None, tip_ru: str | None = None
) -> NoReturn:
    """Refuse the action, naming the rules and what to do instead."""
    raise RuleViolation(en, ru=ru, rule_ids=rule_ids, tip=tip, tip_ru=tip_ru)


def wound_state(ch: Character, p: ZoneParams) -> str:
    """The character's health state, one of the keys of ``p.allowed`` (A-Z-01, A-Z-02)."""
    if not ch.alive or ch.has(EXCLUDED):
        return "excluded"
    for kind in (CLINICAL, HOSPITAL, ON_TABLE):
        if ch.has(kind):
            return kind
    if ch.has(TREATMENT):
        return "in_treatment"
    heavy = ch.condition(HEAVY)
    if heavy is not None:
        if p.wound_model == "hits_only":
            return "dying"
        return "heavy_en_route" if heavy.data.get("en_route") else "heavy_waiting"
    light = ch.condition(LIGHT)
    if light is not None or ch.hits < ch.hits_max:
        if p.wound_model == "hits_only":
            return "wounded"
        return "light" if light is not None and not light.data.get("kit") else "light_kit"
    return "healthy"


def allowed(ch: Character, p: ZoneParams) -> list[Activity]:
    """What ``ch`` may do now: the state's list, with the parameter toggles and the
    unconscious / knockdown overlays."""
    st = wound_state(ch, p)
    acts: list[Activity] = list(getattr(p.allowed, st))
    extra: list[Activity] = []
    if st == "light_kit" and p.light_after_kit_can_run:  # A-Z-05
        extra.append("run")
    if st == "heavy_waiting" and p.heavy_can_speak:  # A-Z-09
        extra.append("speak")
    if st == "heavy_waiting" and p.heavy_may_crawl_during_wait:  # A-Z-04
        extra.append("crawl")
    if st in ("heavy_waiting", "heavy_en_route", "dying") and not p.heavy_items_locked:
        extra.append("drop_items")  # A-Z-26
    acts += [a for a in extra if a not in acts]
    if ch.has(UNCONSCIOUS):
        return list(p.allowed.unconscious)
    if ch.has(KNOCKDOWN):
        acts = [a for a in acts if a not in p.allowed.knockdown_forbids]
    return acts


REASONS: dict[str, dict[str, tuple[str, ...]]] = {
    "wounded": {"run": ("Z-STATE-07",)},
    "light": {
        "run": ("Z-LW-05", "Z-LW-04", "A-Z-05", "A-Z-24"),
        "walk": ("Z-LW-05", "Z-LW-04", "A-Z-05", "A-Z-24"),
        "crawl": ("Z-LW-05", "A-Z-05"),
        "stand_up": ("Z-LW-04", "A-Z-24"),
        "suicide": ("Z-LW-09",),
        "*": ("Z-LW-08", "A-Z-23"),
    },
    "light_kit": {"run": ("Z-STATE-07", "A-Z-05"), "suicide": ("Z-LW-09",)},
    "heavy_waiting": {
        "run": ("Z-HW-07", "A-Z-04"),
        "walk": ("Z-HW-07", "A-Z-04"),
        "crawl": ("Z-HW-07", "A-Z-04"),
        "stand_up": ("Z-HW-07", "A-Z-04"),
        "speak": ("Z-HW-10", "Z-HW-09", "A-Z-09"),
        "drop_items": ("Z-HW-12", "A-Z-26"),
        "*": ("Z-HW-10",),
    },
    "heavy_en_route": {
        "drop_items": ("Z-HW-12", "A-Z-26"),
        "*": ("Z-HW-09", "Z-HW-10", "A-Z-04"),
    },
    "dying": {"*": ("Z-STATE-09", "A-Z-04")},
    "in_treatment": {"*": ("Z-TRT-04",)},
    "on_table": {"*": ("Z-TRT-07",)},
    "in_hospital": {
        "melee": ("Z-REHAB-09",),
        "shoot": ("Z-REHAB-09",),
        "*": ("Z-REHAB-03", "Z-HOSP-02", "A-Z-17"),
    },
    "clinical_death": {"*": ("Z-CD-02",)},
    "excluded": {"*": ("Z-DISC-03",)},
}


def why_not(ch: Character, p: ZoneParams, activity: str) -> tuple[str, ...]:
    """The rule IDs that forbid ``activity`` now (empty if it is allowed)."""
    if activity in allowed(ch, p):
        return ()
    if ch.has(UNCONSCIOUS):
        return ("Z-STATE-11", "A-Z-29")
    st = wound_state(ch, p)
    knocked = ch.has(KNOCKDOWN) and activity in p.allowed.knockdown_forbids
    if knocked and activity in getattr(p.allowed, st):
        return ("Z-STATE-13", "Z-STATE-14")
    table = REASONS.get(st, {})
    return table.get(activity) or table.get("*") or ("Z-STATE-01",)


def require_in_game(ch: Character) -> None:
    """Refuse anything about an excluded character (Z-DISC-02, Z-DISC-03)."""
    if not ch.alive or ch.has(EXCLUDED):
        refuse(
            f"{ch.name} was excluded from the game; that counts as death and is final",
            f"{ch.name} исключён из игры; это равнозначно смерти и окончательно",
            "Z-DISC-02",
            "Z-DISC-03",
        )


def require_not_in_hospital(ch: Character) -> None:
    """Refuse game interaction with a patient of the Hospital (Z-HOSP-02)."""
    if ch.has(HOSPITAL):
        refuse(
            f"{ch.name} is in the Hospital (мертвяк): no game interaction there",
            f"{ch.name} в Госпитале (мертвяке): там никакого игрового взаимодействия",
            "Z-HOSP-01",
            "Z-HOSP-02",
            "Z-REHAB-03",
            tip="Wait for the release, or ask the Chief Doctor.",
            tip_ru="Дождитесь выписки или обратитесь к Главному Врачу.",
        )


def require_staff(p: ZoneParams, staff: StaffRole, *may: StaffRole) -> None:
    """Only Hospital staff act on patients, and only the given roles may do this (A-Z-16)."""
    if staff not in p.hospital_staff_roles:
        allowed_roles = ", ".join(p.hospital_staff_roles)
        refuse(
            f"In the Hospital only its staff ({allowed_roles}) deal with patients, not a {staff}",
            f"В Госпитале с пациентами имеет дело только персонал ({allowed_roles}), не {staff}",
            "Z-HOSP-02",
            "A-Z-16",
        )
    if may and staff not in may:
        refuse(
            f"This is done by the {' or '.join(may)}, not the {staff}",
            f"Это делает {' или '.join(may)}, а не {staff}",
            "Z-REHAB-04",
            "Z-REHAB-05",
            "Z-HOSP-04",
        )


def require_healer(ch: Character, p: ZoneParams) -> None:
    """A healer (лекарь) with the skill, able to act (Z-TRT-03)."""
    require_in_game(ch)
    if p.healer_skill and not ch.has_skill(p.healer_skill):
        refuse(
            f"{ch.name} is not a healer ({p.healer_skill})",
            f"{ch.name} не лекарь ({p.healer_skill})",
            "Z-TRT-03",
            tip="Ask a healer.",
            tip_ru="Позовите лекаря.",
        )
    if "treat_others" not in allowed(ch, p):
        refuse(
            f"{ch.name} cannot treat anyone in their state ({wound_state(ch, p)})",
            f"{ch.name} в своём состоянии ({wound_state(ch, p)}) не может лечить",
            *why_not(ch, p, "treat_others"),
        )


def require_payment(ch: Character, method: str, amount: int | None, p: ZoneParams) -> None:
    """Payment for a stay: an accepted method, insurance on the sheet, the price (A-Z-18)."""
    methods = p.rehab_payment_methods
    if method not in methods:
        refuse(
            f"The Hospital does not accept {method}; it takes {', '.join(methods)}",
            f"Госпиталь не принимает {method}; способы: {', '.join(methods)}",
            "Z-REHAB-11",
            "A-Z-18",
        )
    if method == "insurance" and not ch.data.get("insurance"):
        refuse(
            f"{ch.name}'s character sheet shows no medical insurance",
            f"В чарлисте {ch.name} нет медицинской страховки",
            "Z-REHAB-11",
            tip="Pay with game money or work in the Hospital.",
            tip_ru="Оплатите игровыми деньгами или работой в Госпитале.",
        )
    if method == "money" and p.rehab_price is not None and (amount or 0) < p.rehab_price:
        refuse(
            f"Rehabilitation costs {p.rehab_price}; {amount or 0} paid",
            f"Реабилитация стоит {p.rehab_price}; оплачено {amount or 0}",
            "Z-REHAB-11",
            "A-Z-18",
        )
