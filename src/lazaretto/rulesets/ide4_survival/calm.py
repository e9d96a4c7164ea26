"""Calm points and stress (очки спокойствия и стресс), checklist-004 §2.9.

Every character has 3 calm points (I-CALM-01). Losses come at the start of a turn, at
most 2 a turn (I-CALM-02); recovery at the end of a turn, at most 1 a turn (I-CALM-03).
Outside turn-based time each action is its own turn, and sleep recovery is not capped
(A-I-11, A-I-13). Each level has its effect:

* 3 — the pacified reroll once a game day (see :mod:`.rerolls`);
* 2 — an adrenaline dose, one single-use d20 energy die;
* 1 — two d20 (casters get none but their spells act ×2);
* 0 — 1+d4 Tragedy→Failure replacements; after an hour at 0, −30 to Health until 3.

0–1 points is the state "stressed" (I-COND-10). In the light campaign the four named
states stand for the points (I-CALM-31, A-I-26).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import InvalidInput
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.ide4_survival import d100
from lazaretto.rulesets.ide4_survival.checks import make_check, purpose
from lazaretto.rulesets.ide4_survival.common import (
    MASTERS,
    gain,
    lose,
    params,
    party,
    refuse,
    state,
    sv,
    update,
)
from lazaretto.rulesets.ide4_survival.params import Outcome
from lazaretto.rulesets.ide4_survival.state import survivor_events

ZERO_TIMER = "zero_calm_penalty"
CalmEvent = Literal[
    "ill_wishers",
    "fight_breaks_out",
    "outnumbered",
    "oppressive",
    "monster",
    "ambush",
    "interrupted_sleep",
    "faramir_check",
]
EVENT_RULES = {
    "ill_wishers": "I-CALM-05",
    "fight_breaks_out": "I-CALM-06",
    "outnumbered": "I-CALM-07",
    "oppressive": "I-CALM-08",
    "monster": "I-CALM-09",
    "ambush": "I-CALM-10",
    "interrupted_sleep": "I-CALM-11",
    "faramir_check": "I-CALM-12",
}
survivor_events("calm.changed")


def change_calm(
    ctx: ActionContext,
    char_id: str,
    *,
    losses: tuple[str, ...] = (),
    gain_points: int = 0,
    turn: str | None = None,
    scene: str = "",
    capped_gain: bool = True,
    reason: tuple[str, str] = ("", ""),
    rule_ids: tuple[str, ...] = (),
    set_to: int | None = None,
) -> None:
    """Apply calm losses (event names) and a gain to one character, with the caps and
    every level effect; ``set_to`` sets the points directly (simplified stress)."""
    p = params(ctx)
    s = sv(ctx, char_id)
    ch = ctx.character(char_id)
    if turn is None:
        turn = f"auto{ctx.state.last_seq}"  # A-I-13: outside turns, each action is a turn
    same = turn == s.turn
    lost_before = s.lost_in_turn if same else 0
    gained_before = s.gained_in_turn if same else 0
    scene_events = list(s.scene_events)
    counted: list[str] = []
    for ev in dict.fromkeys(losses):  # I-CALM-04: each event counts once
        key = f"{scene}:{ev}"
        if scene and key in scene_events:
            continue
        if scene:
            scene_events.append(key)
        counted.append(ev)
    total = -sum(p.calm_events[e] for e in counted)
    if not same and p.calm_loss_overflow == "carry_over":
        total += s.carry
    allowed = max(0, p.calm_loss_per_turn_cap - lost_before)
    applied = min(total, allowed)
    excess = total - applied
    after_loss = max(0, s.calm - applied)
    g = gain_points
    if capped_gain:
        g = min(g, max(0, p.calm_gain_per_turn_cap - gained_before))
    new = min(p.calm_points_max, after_loss + max(0, g))
    if s.calm_capped_until and ctx.now < s.calm_capped_until:
        new = min(new, max(after_loss, 0))  # I-CURE-21, A-I-20: cannot rise above 0
    if set_to is not None:
        new = max(0, min(p.calm_points_max, set_to))
    changes: dict[str, object] = {
        "calm": new,
        "turn": turn,
        "lost_in_turn": lost_before + applied,
        "gained_in_turn": gained_before + max(0, new - after_loss),
        "carry": excess if p.calm_loss_overflow == "carry_over" else 0,
        "scene_events": scene_events,
    }
    changes.update(_level_effects(ctx, char_id, s.calm, new))
    if new == s.calm and not counted and not excess and s.carry == changes["carry"]:
        return  # nothing changed: no event (a turn with no loss or gain leaves no trace)
    update(
        ctx,
        "calm.changed",
        char_id,
        changes,
        (*rule_ids, *(EVENT_RULES[e] for e in counted), "I-CALM-02", "I-CALM-03"),
        before=s.calm,
        after=new,
        events=counted,
        discarded=excess if p.calm_loss_overflow == "discard" else 0,
        carried=excess if p.calm_loss_overflow == "carry_over" else 0,
        reason_en=reason[0],
        reason_ru=reason[1],
    )
    if new <= 1:
        if new != s.calm or not ch.has("stressed"):
            gain(
                ctx,
                ch.id,
                "stressed",
                (f"calm {new}/{p.calm_points_max}", f"спокойствие {new}/{p.calm_points_max}"),
                ("I-COND-10",),
                data={"calm": new},
            )
    else:
        lose(ctx, ch.id, "stressed", ("calm restored", "спокойствие восстановлено"), ("I-COND-10",))
    if new == p.calm_points_max:
        lose(
            ctx, ch.id, "health_penalty", ("calm back to 3", "спокойствие снова 3"), ("I-CALM-30",)
        )


def _level_effects(ctx: ActionContext, char_id: str, old: int, new: int) -> dict[str, object]:
    """What entering a calm level gives or takes (I-CALM-20..30, A-I-14)."""
    p = params(ctx)
    s = sv(ctx, char_id)
    out: dict[str, object] = {}
    simplified_off = p.resolved("stress") == "simplified" and not p.simplified_keeps_adrenaline
    if new < old and not simplified_off:
        dose = p.adrenaline_d20.get(new, 0)
        if new == 1 and s.caster:
            dose = 0  # I-CALM-24: casters get no dice, their spells act x2
        if dose:
            if p.adrenaline_grant == "on_enter_level_cumulative":
                out["adrenaline"] = s.adrenaline + dose
            else:
                out["adrenaline"] = max(s.adrenaline, dose)
    if new == 0 and old > 0:
        out["replacements"] = ctx.roll(p.tragedy_replacements_dice).total
        out["zero_since"] = ctx.now
        ctx.schedule(
            ZERO_TIMER,
            timedelta(hours=p.zero_calm_penalty_delay_hours),
            char_id,
            rule_ids=("I-CALM-30", "A-I-15"),
        )
    if old == 0 and new > 0:
        out["replacements"] = 0
        out["zero_since"] = None
        ctx.cancel_all(char_id, ZERO_TIMER, rule_ids=("A-I-15",))
    if new == p.calm_points_max and p.adrenaline_expires_at_full_calm:
        out["adrenaline"] = 0
    return out


def stress_label(p_map: dict[int, str], calm: int) -> str:
    """The simplified stress state of a calm level (A-I-26)."""
    return p_map.get(calm, str(calm))


# I-CALM-14: the Courage check's result is used at once by calm-event; it has no undo,
# so a reroll of it is refused with a tip (reroll at the table first)
purpose("courage")(lambda ctx, rec: None)


def register(rs: Ruleset) -> None:
    """Declare the calm actions and the zero-calm timer."""

    @rs.on_timer(ZERO_TIMER)
    def zero_penalty(ctx: ActionContext, t: Timer) -> None:
        s = sv(ctx, t.subject)
        p = params(ctx)
        if s.calm == 0 and ctx.character(t.subject).alive:
            gain(
                ctx,
                t.subject,
                "health_penalty",
                (
                    f"an hour at 0 calm: {p.zero_calm_health_penalty} to Health until 3",
                    f"час на 0 спокойствия: {p.zero_calm_health_penalty} к здоровью до 3",
                ),
                ("I-CALM-30", "A-I-15"),
                data={"amount": p.zero_calm_health_penalty, "target": p.zero_calm_penalty_target},
            )

    class Courage(BaseModel):
        character: str
        against: CalmEvent
        outcome: Outcome | None = Field(None, description="the Courage check's result")
        roll: int | None = Field(None, ge=1, le=100)

    class CalmEventInput(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: everyone")
        events: list[CalmEvent] = Field(min_length=1)
        turn: str | None = Field(None, description="combat turn id; empty: this action")
        scene: str = Field("", max_length=80, description="scene id: an event counts once in it")
        courage: list[Courage] = Field(default_factory=list, description="Courage checks made")

    @rs.action(
        "calm-event",
        CalmEventInput,
        summary=(
            "Stress events at the start of a turn: calm points lost (at most 2 a turn)",
            "Стрессовые события в начале хода: потеря спокойствия (не более 2 за ход)",
        ),
        rule_ids=("I-CALM-02", "I-CALM-04", "I-CALM-05", "I-CALM-14"),
    )
    def calm_event(ctx: ActionContext, a: CalmEventInput) -> None:
        for ch in party(ctx, a.characters):
            prevented: set[str] = set()
            for c in a.courage:
                if c.character != ch.id:
                    continue
                rec = make_check(
                    ctx,
                    ch.id,
                    params(ctx).courage_skill,
                    outcome=c.outcome,
                    roll=c.roll,
                    payload={"against": c.against},
                    purpose_name="courage",
                    rule_ids=("I-CALM-14",),
                )
                if rec.pending:
                    refuse(
                        "The Courage check needs its outcome first",
                        "Сначала нужен исход проверки Отваги",
                        "I-CALM-14",
                        tip="Give outcome= in --courage.",
                        tip_ru="Укажите outcome= в --courage.",
                    )
                if d100.is_success(rec.outcome):
                    prevented.add(c.against)  # I-CALM-14: a successful Courage keeps the points
            losses = tuple(e for e in a.events if e not in prevented)
            change_calm(
                ctx,
                ch.id,
                losses=losses,
                turn=a.turn,
                scene=a.scene,
                reason=("stress events", "стрессовые события"),
                rule_ids=("I-CALM-14",) if prevented else (),
            )

    class CalmRecover(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: everyone")
        reason: Literal["quiet_hours", "turn_end", "medicine", "alcohol"]
        hours: float = Field(0, ge=0, le=240, description="quiet hours without checks")
        points: int = Field(1, ge=0, le=3, description="for turn_end/medicine/alcohol")
        turn: str | None = Field(None, description="the combat turn that ends")

    @rs.action(
        "calm-recover",
        CalmRecover,
        summary=(
            "Calm points regained (quiet hours, the end of a turn, medicine, alcohol)",
            "Восстановление спокойствия (спокойные часы, конец хода, лекарства, алкоголь)",
        ),
        rule_ids=("I-CALM-03", "I-CALM-13", "I-CALM-15", "I-CALM-17"),
    )
    def calm_recover(ctx: ActionContext, a: CalmRecover) -> None:
        p = params(ctx)
        for ch in party(ctx, a.characters):
            if a.reason == "quiet_hours":
                quiet_hours(ctx, ch.id, a.hours)
            elif a.reason == "turn_end":
                change_calm(
                    ctx,
                    ch.id,
                    gain_points=a.points,
                    turn=a.turn,
                    capped_gain=True,
                    reason=("end of the turn", "конец хода"),
                    rule_ids=("I-CALM-03",),
                )
            else:
                # I-CALM-17: by the project's rules — the GM gives the points
                change_calm(
                    ctx,
                    ch.id,
                    gain_points=a.points,
                    capped_gain=a.turn is not None,
                    turn=a.turn,
                    reason=(a.reason, a.reason),
                    rule_ids=("I-CALM-17",),
                )
            del p

    class SetStress(BaseModel):
        character: str
        level: Literal["calm", "tense", "stressed", "on_the_edge"]

    @rs.action(
        "set-stress",
        SetStress,
        roles=MASTERS,
        summary=(
            "Simplified stress: set calm / tense / stressed / on the edge",
            "Упрощённый стресс: спокоен / напряжён / в стрессе / на грани",
        ),
        rule_ids=("I-CALM-31", "I-CALM-32"),
    )
    def set_stress(ctx: ActionContext, a: SetStress) -> None:
        p = params(ctx)
        if p.resolved("stress") != "simplified":
            refuse(
                "Simplified stress is for a light campaign announced in advance",
                "Упрощённый стресс — только в заранее объявленной облегчённой кампании",
                "I-CALM-31",
                "I-GEN-04",
                tip="Create the campaign with `--param mode=simplified`.",
                tip_ru="Создайте кампанию с `--param mode=simplified`.",
            )
        points = {v: k for k, v in p.simplified_stress_map.items()}.get(a.level)
        if points is None:
            raise InvalidInput(f"No level {a.level!r}", ru=f"Нет уровня {a.level!r}")
        change_calm(
            ctx,
            a.character,
            set_to=points,
            reason=(a.level, a.level),
            rule_ids=("I-CALM-31", "A-I-26"),
        )


def quiet_hours(ctx: ActionContext, char_id: str, hours: float) -> None:
    """I-CALM-15: +1 calm for every 3 game hours in a calm setting without checks."""
    p = params(ctx)
    since = ctx.now - timedelta(hours=hours)
    made = [
        c for c in state(ctx).checks.values() if c.character == char_id and since < c.at <= ctx.now
    ]
    ch = ctx.character(char_id)
    if made:
        refuse(
            f"{ch.name} made a check in those hours ({made[-1].id}): they were not quiet",
            f"{ch.name} делал проверку в эти часы ({made[-1].id}): они не спокойные",
            "I-CALM-15",
        )
    s = sv(ctx, char_id)
    total = s.quiet_minutes + hours * 60
    step = p.calm_quiet_hours_per_point * 60
    points = int(total // step)
    update(
        ctx,
        "calm.changed",
        char_id,
        {"quiet_minutes": total - points * step},
        ("I-CALM-15",),
        before=s.calm,
        after=s.calm,
        events=[],
        discarded=0,
        carried=0,
        reason_en=f"{hours:g} quiet hours",
        reason_ru=f"{hours:g} ч спокойствия",
    )
    if points:
        change_calm(
            ctx,
            char_id,
            gain_points=points,
            capped_gain=False,
            reason=(f"{hours:g} quiet hours", f"{hours:g} ч в спокойной обстановке"),
            rule_ids=("I-CALM-15",),
        )
