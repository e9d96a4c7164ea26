"""The character sheet, short states and discipline: Z-STATE-11..14, Z-SUD, Z-DISC, Z-HOSP-02.

* The character sheet (чарлист): hits, the six zones, insurance (Z-REHAB-13, A-Z-03).
* Unconscious 1 minute, remembered by nobody (Z-STATE-11/12); knockdown 15 seconds
  (Z-STATE-13/14); a master's sudden state such as psychosis (Z-SUD, A-Z-30).
* Exclusion by a responsible adult: final, and the character's death (Z-DISC, A-Z-33).
* In-game interaction, refused in the Hospital and with a heavy-wounded (Z-HOSP-02, Z-HW-09).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import Forbidden
from lazaretto.core.ruleset import ALL_ROLES, Role, Ruleset, TimerHandler
from lazaretto.core.timers import Timer
from lazaretto.rulesets.zone_larp import checks
from lazaretto.rulesets.zone_larp.checks import params, refuse
from lazaretto.rulesets.zone_larp.hospital import ZoneMark
from lazaretto.rulesets.zone_larp.params import ZONES, Zone, ZoneState
from lazaretto.rulesets.zone_larp.state import EXCLUDED, HOSPITAL, KNOCKDOWN, SUDDEN, UNCONSCIOUS
from lazaretto.rulesets.zone_larp.wounds import memory_gap

MASTERS = frozenset({Role.MASTER})
STAFF = frozenset({Role.MASTER, Role.HEALER})
ENDS = {UNCONSCIOUS: "unconscious_ends", KNOCKDOWN: "knockdown_ends", SUDDEN: "sudden_state_ends"}


def register(rs: Ruleset) -> None:
    """Declare the sheet, short-state, discipline and interaction actions."""

    class IssueCharsheet(BaseModel):
        character: str = Field(description="whose character sheet")
        hits: int | None = Field(None, ge=1, le=100, description="hits (default: base_hits)")
        zones: list[ZoneMark] = Field(
            default_factory=list, max_length=6, description="zones not intact: zone=..,state=.."
        )
        insurance: bool = Field(False, description="the character has medical insurance")

    @rs.action(
        "issue-charsheet",
        IssueCharsheet,
        roles=MASTERS,
        summary=(
            "Fill in a character sheet: hits, six zones, insurance",
            "Заполнить чарлист: хиты, шесть зон, страховка",
        ),
        rule_ids=("Z-ZONE-01", "Z-REHAB-13", "A-Z-03"),
    )
    def issue(ctx: ActionContext, a: IssueCharsheet) -> None:
        ch = ctx.character(a.character)
        checks.require_in_game(ch)
        zones = dict.fromkeys(ZONES, "intact") | {m.zone: m.state for m in a.zones}
        ctx.emit(
            "charsheet.issued",
            {
                "character": ch.id,
                "hits": a.hits or params(ctx).base_hits,
                "zones": zones,
                "insurance": a.insurance,
            },
            ("Z-ZONE-01", "Z-REHAB-13", "A-Z-03"),
        )

    class MarkZone(BaseModel):
        character: str = Field(description="whose sheet")
        zone: Zone = Field(description="head, torso, right_arm, left_arm, right_leg, left_leg")
        state: ZoneState = Field(description="intact, damaged or infected (or worsening)")

    @rs.action(
        "mark-zone",
        MarkZone,
        roles=STAFF,
        summary=("Mark a body zone on the character sheet", "Отметить зону тела в чарлисте"),
        rule_ids=("Z-ZONE-01", "Z-REHAB-13", "Z-INF-04"),
    )
    def mark_zone(ctx: ActionContext, a: MarkZone) -> None:
        ch = ctx.character(a.character)
        checks.require_in_game(ch)
        ctx.emit(
            "zone.marked",
            {"character": ch.id, "zone": a.zone, "state": a.state},
            ("Z-ZONE-01", "Z-REHAB-13"),
        )

    class ShortState(BaseModel):
        character: str = Field(description="who")

    @rs.action(
        "knock-out",
        ShortState,
        roles=ALL_ROLES,
        summary=(
            "Unconscious for 1 minute, and no memory of it",
            "Без сознания 1 минуту, без памяти об этом",
        ),
        rule_ids=("Z-STATE-11", "Z-STATE-12", "A-Z-29"),
    )
    def knock_out(ctx: ActionContext, a: ShortState) -> None:
        ch = ctx.character(a.character)
        checks.require_in_game(ch)
        checks.require_not_in_hospital(ch)
        secs = params(ctx).unconscious_seconds
        t = _overlay_timer(ctx, ch.id, UNCONSCIOUS, secs)
        ctx.emit(
            "state.unconscious",
            {
                "character": ch.id,
                "deadline": t.deadline.isoformat(),
                "memory_gap": memory_gap(ctx.now, t.deadline, "unconscious"),
            },
            ("Z-STATE-11", "Z-STATE-12", "A-Z-29"),
        )

    @rs.action(
        "stun",
        ShortState,
        roles=ALL_ROLES,
        summary=(
            "Stunned: knockdown, cannot get up for 15 seconds",
            "Оглушён: нокдаун, не может встать 15 секунд",
        ),
        rule_ids=("Z-STATE-13", "Z-STATE-14", "A-Z-29"),
    )
    def stun(ctx: ActionContext, a: ShortState) -> None:
        ch = ctx.character(a.character)
        checks.require_in_game(ch)
        checks.require_not_in_hospital(ch)
        t = _overlay_timer(ctx, ch.id, KNOCKDOWN, params(ctx).knockdown_seconds)
        ctx.emit(
            "state.knocked_down",
            {"character": ch.id, "deadline": t.deadline.isoformat()},
            ("Z-STATE-13", "Z-STATE-14", "A-Z-29"),
        )

    class SuddenState(BaseModel):
        character: str = Field(description="whose character")
        description: str = Field(
            min_length=1, max_length=1000, description="what happens (psychosis, breakdown...)"
        )
        minutes: int | None = Field(None, ge=1, le=24 * 60, description="how long, if limited")

    @rs.action(
        "sudden-state",
        SuddenState,
        roles=MASTERS,
        summary=(
            "A master describes a sudden state (psychosis, breakdown...)",
            "Мастер описывает внезапное состояние (психоз, срыв...)",
        ),
        rule_ids=("Z-SUD-01", "Z-SUD-02", "A-Z-30"),
    )
    def sudden(ctx: ActionContext, a: SuddenState) -> None:
        ch = ctx.character(a.character)
        checks.require_in_game(ch)
        deadline = None
        ctx.cancel_all(ch.id, ENDS[SUDDEN])
        if a.minutes:
            deadline = _overlay_timer(ctx, ch.id, SUDDEN, a.minutes * 60).deadline.isoformat()
        ctx.emit(
            "sudden_state.declared",
            {
                "character": ch.id,
                "description": a.description,
                "deadline": deadline,
                "master": ctx.actor,
            },
            ("Z-SUD-01", "Z-SUD-02", "A-Z-30"),
        )

    for kind, timer_kind in ENDS.items():
        rs.on_timer(timer_kind)(_ender(kind))

    class Exclude(BaseModel):
        character: str = Field(description="whose player is excluded")
        reason: str = Field(min_length=1, max_length=500, description="the breach")

    @rs.action(
        "exclude",
        Exclude,
        roles=ALL_ROLES,
        summary=(
            "A responsible adult excludes a player: final, the character dies",
            "Ответственный взрослый исключает игрока: окончательно, персонаж мёртв",
        ),
        rule_ids=("Z-DISC-01", "Z-DISC-02", "Z-DISC-03", "Z-CMB-02", "A-Z-33"),
    )
    def exclude(ctx: ActionContext, a: Exclude) -> None:
        if ctx.role.value not in params(ctx).exclusion_roles:
            raise Forbidden(
                f"A {ctx.role.value} may not exclude players",
                ru=f"Роль {ctx.role.value} не может исключать игроков",
                rule_ids=("A-Z-33", "Z-DISC-01"),
            )
        ch = ctx.character(a.character)
        checks.require_in_game(ch)
        ctx.cancel_all(ch.id)
        ctx.emit(
            "character.excluded",
            {"character": ch.id, "reason": a.reason, "by": ctx.actor},
            ("Z-DISC-01", "Z-DISC-02", "Z-DISC-03", "A-Z-33"),
        )

    class Appeal(BaseModel):
        character: str = Field(description="the excluded character")

    @rs.action(
        "appeal-exclusion",
        Appeal,
        roles=ALL_ROLES,
        summary=(
            "Appeal an exclusion (always refused: it is final)",
            "Обжаловать исключение (нельзя: оно окончательно)",
        ),
        rule_ids=("Z-DISC-02",),
    )
    def appeal(ctx: ActionContext, a: Appeal) -> None:
        ch = ctx.character(a.character)
        if not ch.has(EXCLUDED):
            refuse(f"{ch.name} is not excluded", f"{ch.name} не исключён", "Z-DISC-02")
        refuse(
            f"{ch.name}'s exclusion is final and cannot be appealed",
            f"Исключение {ch.name} окончательно и не подлежит оспариванию",
            "Z-DISC-02",
            "Z-DISC-03",
        )

    class Interact(BaseModel):
        actor: str = Field(description="who acts")
        target: str = Field(description="the other character")
        mode: Literal["in_game", "ooc"] = Field(
            "in_game", description="in game, or an out-of-game comment"
        )

    @rs.action(
        "interact",
        Interact,
        roles=ALL_ROLES,
        summary=(
            "Record an interaction between two characters",
            "Записать взаимодействие двух персонажей",
        ),
        rule_ids=("Z-HOSP-02", "Z-REHAB-10", "Z-HW-09", "A-Z-16"),
    )
    def interact(ctx: ActionContext, a: Interact) -> None:
        p = params(ctx)
        actor, target = ctx.character(a.actor), ctx.character(a.target)
        for ch in (actor, target):
            checks.require_in_game(ch)
        in_hospital = actor.has(HOSPITAL) or target.has(HOSPITAL)
        if in_hospital and a.mode == "in_game":
            refuse(
                "In the Hospital players do not interact in game; only staff deal with patients",
                "В Госпитале игроки не взаимодействуют по игре; с пациентами — только персонал",
                "Z-HOSP-02",
                "A-Z-16",
            )
        if in_hospital and not p.patients_may_chat_ooc:
            refuse(
                "Patients of the Hospital do not talk to other players at all",
                "Пациенты Госпиталя не общаются с другими игроками вовсе",
                "Z-HOSP-02",
                "Z-REHAB-10",
                "A-Z-16",
            )
        if a.mode == "in_game":
            if "speak" not in checks.allowed(actor, p):
                refuse(
                    f"{actor.name} cannot interact in game now",
                    f"{actor.name} сейчас не может взаимодействовать по игре",
                    *checks.why_not(actor, p, "speak"),
                )
            heavy = checks.wound_state(target, p) in ("heavy_waiting", "heavy_en_route")
            if heavy and "speak" not in checks.allowed(target, p):
                refuse(
                    f"{target.name} is heavy-wounded and answers only with an indicator",
                    f"{target.name} тяжело ранен и отвечает только индикатором",
                    "Z-HW-09",
                    "Z-HW-10",
                    "A-Z-09",
                )
        ctx.emit(
            "interaction.recorded",
            {"actor": actor.id, "target": target.id, "mode": a.mode},
            ("Z-REHAB-10", "A-Z-16") if in_hospital else ("Z-HOSP-02",),
        )


def _overlay_timer(ctx: ActionContext, char_id: str, kind: str, seconds: int) -> Timer:
    ctx.cancel_all(char_id, ENDS[kind])
    return ctx.schedule(ENDS[kind], timedelta(seconds=seconds), char_id, rule_ids=("A-Z-29",))


def _ender(kind: str) -> TimerHandler:
    def end(ctx: ActionContext, t: Timer) -> None:
        if ctx.character(t.subject).has(kind):
            ctx.emit("state.ended", {"character": t.subject, "state": kind}, ("A-Z-29",))

    return end
