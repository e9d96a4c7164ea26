"""Hit removal and wounds in the fight (хитосъём): checklist-001 Z-HP, Z-LW, Z-HW, Z-CMB.

A strike on the body removes 1 hit, 2 with a red ribbon (Z-HP-03/04); a shield or a
weapon takes nothing (Z-HP-05). With hits left the character is light-wounded; a second
hit, pyrotechnics or 0 hits make a heavy wound (Z-LW-06, Z-HW-02, A-Z-22).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.character import Character
from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import Conflict
from lazaretto.core.ruleset import ALL_ROLES, Role, Ruleset
from lazaretto.rulesets.zone_larp import checks
from lazaretto.rulesets.zone_larp.checks import params, refuse, state
from lazaretto.rulesets.zone_larp.params import ZONES, ZoneParams
from lazaretto.rulesets.zone_larp.state import CLINICAL, HEAVY, LIGHT, ON_TABLE
from lazaretto.rulesets.zone_larp.traumas import add_trauma, refuse_over_cap
from lazaretto.rulesets.zone_larp.wounds import (
    KIT_WINDOW,
    become_heavy,
    become_light,
    clinical_death,
    interrupt,
    set_off,
)

MASTERS = frozenset({Role.MASTER})
STAFF = frozenset({Role.MASTER, Role.HEALER})
Weapon = Literal["normal", "red_ribbon", "pyrotechnics"]
Source = Literal["shot", "melee", "mutant_touch", "magic_weapon", "monster", "other"]


class Strike(BaseModel):
    """A strike of a game weapon, as the struck player or a master reports it."""

    character: str = Field(description="who was struck")
    weapon: Weapon = Field(
        "normal", description="normal (1 hit), red_ribbon (2 hits) or pyrotechnics (heavy)"
    )
    landed_on: Literal["body", "shield", "weapon"] = Field(
        "body", description="a strike on a shield or a weapon is no hit"
    )
    zone: str | None = Field(
        None,
        max_length=40,
        description="where it landed: head, torso, right_arm, left_arm, right_leg, left_leg",
    )
    source: Source = Field(
        "melee", description="shot, melee, mutant_touch, magic_weapon, monster or other"
    )
    trauma: Literal["none", "physical", "mental"] = Field(
        "none", description="a magic weapon or a monster also gives a trauma"
    )
    consequences: str = Field("", max_length=500, description="the trauma's consequences")
    attacker: str = Field("", max_length=80, description="who struck (for the record)")


def hit_loss(a: Strike, ch: Character, p: ZoneParams) -> int:
    """Hits a strike removes (Z-HP-03, Z-HP-04; pyrotechnics: all, A-Z-22)."""
    if a.weapon == "pyrotechnics" and p.pyro_causes_heavy:
        return ch.hits
    return p.hit_loss_red_ribbon if a.weapon == "red_ribbon" else p.hit_loss_normal


def wound(ctx: ActionContext, ch: Character, a: Strike) -> None:
    """Remove the hits of a landed strike and move the wound state on."""
    p = params(ctx)
    was_light = ch.has(LIGHT)
    interrupt(ctx, ch.id, "wounded_again")
    loss = hit_loss(a, ch, p)
    hits = max(0, ch.hits - loss)
    rules = ["Z-HP-01", "Z-HP-02", "Z-STATE-01"]
    rules += {"normal": ["Z-HP-03"], "red_ribbon": ["Z-HP-04"]}.get(a.weapon, ["Z-HW-02"])
    if a.source in ("shot", "melee", "mutant_touch"):
        rules.append("Z-LW-02")
    ctx.emit(
        "wound.hits_lost",
        {
            "character": ch.id,
            "lost": ch.hits - hits,
            "hits": hits,
            "weapon": a.weapon,
            "source": a.source,
            "zone": a.zone,
            "zone_damaged": a.zone in ZONES,
            "attacker": a.attacker,
        },
        tuple(rules),
    )
    if a.weapon == "pyrotechnics" and p.pyro_causes_heavy:
        become_heavy(ctx, ch.id, "pyrotechnics", ("Z-HW-02", "A-Z-22"))
    elif was_light and p.wound_model != "hits_only":
        become_heavy(ctx, ch.id, "second_hit", ("Z-LW-06", "Z-HW-02"))
    elif p.wound_model == "light_heavy_only" and loss >= 2:
        become_heavy(ctx, ch.id, "two_hits", ("Z-HW-02", "A-Z-01", "A-Z-22"))
    elif hits == 0:
        become_heavy(ctx, ch.id, "all_hits_lost", ("Z-STATE-03", "Z-STATE-08", "A-Z-22"))
    else:
        become_light(ctx, ch.id, a.source)


def register(rs: Ruleset) -> None:
    """Declare the fight actions on ``rs``."""

    @rs.action(
        "strike",
        Strike,
        roles=ALL_ROLES,
        summary=(
            "Record a strike: hits lost, light or heavy wound",
            "Записать попадание: потеря хитов, лёгкое или тяжёлое ранение",
        ),
        rule_ids=("Z-HP-02", "Z-HP-03", "Z-HP-04", "Z-HP-05", "Z-LW-06", "Z-HW-02"),
    )
    def strike(ctx: ActionContext, a: Strike) -> None:
        ch = ctx.character(a.character)
        p = params(ctx)
        checks.require_in_game(ch)
        if ch.has(CLINICAL):
            refuse(
                f"{ch.name} is in clinical death; strikes change nothing",
                f"{ch.name} в клинической смерти; попадания ничего не меняют",
                "Z-CD-02",
            )
        checks.require_not_in_hospital(ch)
        if a.landed_on != "body":
            ctx.emit(
                "strike.parried",
                {
                    "character": ch.id,
                    "landed_on": a.landed_on,
                    "weapon": a.weapon,
                    "attacker": a.attacker,
                },
                ("Z-HP-05",),
            )
            return
        if a.zone is not None and (a.zone in p.forbidden_zones or a.zone not in p.hittable_zones):
            refuse(
                f"A strike at the {a.zone} is forbidden and removes no hits",
                f"Удар в зону «{a.zone}» запрещён и хитов не снимает",
                "Z-CMB-01",
                "Z-CMB-02",
                "Z-HP-02",
                "A-Z-21",
                tip="A responsible adult may exclude the attacker (`exclude`).",
                tip_ru="Ответственный взрослый может исключить нападавшего (`exclude`).",
            )
        if a.trauma != "none" and a.source not in ("magic_weapon", "monster"):
            refuse(
                "Only a magical weapon or a monster gives a trauma with a strike",
                "Травму при попадании даёт только магическое оружие или монстр",
                "Z-TRAUMA-03",
                tip="A master records other traumas with `inflict-trauma`.",
                tip_ru="Другие травмы мастер записывает через `inflict-trauma`.",
            )
        if a.trauma != "none":
            refuse_over_cap(ch, p)  # before any hit is recorded (A-Z-15)
        hits_too = a.trauma == "none" or p.trauma_strike_removes_hits
        if hits_too and (ch.has(HEAVY) or ch.has(ON_TABLE)):
            if a.trauma == "none":
                refuse(
                    f"{ch.name} is already heavy-wounded at 0 hits; a strike changes nothing",
                    f"{ch.name} уже тяжело ранен (0 хитов); попадание ничего не меняет",
                    "Z-STATE-08",
                    "A-Z-02",
                )
            hits_too = False
        if hits_too:
            wound(ctx, ch, a)
        if a.trauma != "none":
            add_trauma(ctx, ch.id, a.trauma, a.source, a.consequences, ("Z-TRAUMA-03", "A-Z-34"))

    class ApplyKit(BaseModel):
        character: str = Field(description="the light-wounded character using a first-aid kit")

    @rs.action(
        "apply-kit",
        ApplyKit,
        roles=ALL_ROLES,
        summary=(
            "A light-wounded character applies a first-aid kit (аптечка)",
            "Легкораненый применяет аптечку",
        ),
        rule_ids=("Z-LW-10", "Z-LW-11", "Z-LW-12"),
    )
    def apply_kit(ctx: ActionContext, a: ApplyKit) -> None:
        ch = ctx.character(a.character)
        p = params(ctx)
        checks.require_in_game(ch)
        if p.wound_model == "hits_only":
            refuse(
                "The hits-only wound model has no first-aid kits",
                "В модели «только хиты» аптечек нет",
                "A-Z-01",
                tip="A healer treats the wound (`treat-wounds`).",
                tip_ru="Рану лечит лекарь (`treat-wounds`).",
            )
        if ch.has(HEAVY):
            refuse(
                f"{ch.name} is heavy-wounded: a first-aid kit no longer helps",
                f"{ch.name} тяжело ранен: аптечка уже не поможет",
                "Z-LW-13",
                "Z-HW-01",
                "A-Z-06",
                tip="Rehabilitation in the Hospital, or an operation.",
                tip_ru="Реабилитация в Госпитале или операция.",
            )
        light = ch.condition(LIGHT)
        if light is None:
            refuse(f"{ch.name} has no light wound", f"У {ch.name} нет лёгкого ранения", "Z-LW-10")
        if light.data.get("kit"):
            raise Conflict(
                f"{ch.name} has already applied a kit", ru=f"{ch.name} уже применил аптечку"
            )
        if "first_aid_kit" not in checks.allowed(ch, p):
            refuse(
                f"{ch.name} cannot use a first-aid kit now",
                f"{ch.name} сейчас не может применить аптечку",
                *checks.why_not(ch, p, "first_aid_kit"),
            )
        ctx.cancel_all(ch.id, KIT_WINDOW, rule_ids=("Z-LW-11",))
        ctx.emit(
            "wound.kit_applied",
            {"character": ch.id, "by": "kit"},
            ("Z-LW-10", "Z-LW-11", "Z-LW-12", "A-Z-05"),
        )

    class SetOff(BaseModel):
        character: str = Field(description="the heavy-wounded character")
        escort: str | None = Field(None, max_length=80, description="who came to help")

    @rs.action(
        "set-off",
        SetOff,
        roles=ALL_ROLES,
        summary=(
            "A heavy-wounded character puts on the red armband and heads for the Hospital",
            "Тяжелораненый надевает красную повязку и идёт в Госпиталь",
        ),
        rule_ids=("Z-HW-03", "Z-HW-04", "Z-HW-05", "Z-HW-06", "Z-HW-08"),
    )
    def set_off_action(ctx: ActionContext, a: SetOff) -> None:
        ch = ctx.character(a.character)
        p = params(ctx)
        checks.require_in_game(ch)
        heavy = ch.condition(HEAVY)
        if heavy is None or p.wound_model == "hits_only":
            refuse(
                f"{ch.name} has no heavy wound to go to the Hospital with",
                f"У {ch.name} нет тяжёлого ранения, с которым идут в Госпиталь",
                "Z-HW-11",
                "A-Z-01",
            )
        if heavy.data.get("en_route"):
            raise Conflict(f"{ch.name} is already on the way", ru=f"{ch.name} уже в пути")
        wait = str(heavy.data.get("wait_until") or "")
        mode = p.heavy_wait_mode
        early = bool(wait) and ctx.now.isoformat() < wait
        if mode == "stay_then_go" and early:
            refuse(
                f"{ch.name} must stay put until {wait[11:19]}",
                f"{ch.name} обязан оставаться на месте до {wait[11:19]}",
                "Z-HW-04",
                "Z-HW-07",
                "A-Z-07",
            )
        if mode == "until_combat_end" and (early or heavy.data.get("extended")):
            refuse(
                f"{ch.name} stays put at least 5 minutes and until the fighting ends",
                f"{ch.name} остаётся на месте не менее 5 минут и до конца боя",
                "Z-HW-03",
                "A-Z-07",
                tip="A master ends the fight with `declare-combat --no-ongoing`.",
                tip_ru="Мастер завершает бой: `declare-combat --no-ongoing`.",
            )
        if mode == "until_help" and not a.escort:
            refuse(
                f"{ch.name} stays put until help comes",
                f"{ch.name} остаётся на месте до прихода помощи",
                "Z-HW-06",
                "A-Z-07",
                tip="Name the helper with --escort.",
                tip_ru="Укажите помощника: --escort.",
            )
        set_off(ctx, ch.id, a.escort, automatic=False)

    class DeclareCombat(BaseModel):
        ongoing: bool = Field(description="true when a fight starts, false when it ends")

    @rs.action(
        "declare-combat",
        DeclareCombat,
        roles=MASTERS,
        summary=("A fight starts or ends", "Бой начался или закончился"),
        rule_ids=("Z-HW-03",),
    )
    def declare_combat(ctx: ActionContext, a: DeclareCombat) -> None:
        ctx.emit("combat.changed", {"ongoing": a.ongoing}, ("Z-HW-03",))
        if a.ongoing:
            return
        for ch in list(state(ctx).characters.values()):
            heavy = ch.condition(HEAVY)
            if heavy is not None and heavy.data.get("extended") and not heavy.data.get("en_route"):
                set_off(ctx, ch.id, None, automatic=True)

    class Kill(BaseModel):
        character: str = Field(description="who dies in game")
        cause: str = Field("killed", max_length=200, description="how (finished off, shot...)")
        wounds: bool = Field(True, description="the death involved wounds (zone die, Z-CD-06)")

    @rs.action(
        "kill",
        Kill,
        roles=MASTERS,
        summary=(
            "Game death: clinical death, then the мертвяк",
            "Игровая смерть: клиническая смерть, затем мертвяк",
        ),
        rule_ids=("Z-CD-01", "Z-CD-02"),
    )
    def kill(ctx: ActionContext, a: Kill) -> None:
        ch = ctx.character(a.character)
        checks.require_in_game(ch)
        checks.require_not_in_hospital(ch)
        if ch.has(CLINICAL):
            raise Conflict(
                f"{ch.name} is already in clinical death",
                ru=f"{ch.name} уже в клинической смерти",
            )
        clinical_death(ctx, ch.id, a.cause, a.wounds, ("Z-CD-02",))
