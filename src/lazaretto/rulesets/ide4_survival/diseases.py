"""Diseases (болезни), checklist-004 §2.10–2.11: cases, exposure, stages, cure, death.

The basic scheme (I-DIS-03): the infection risk sets a difficulty, the character checks
Immunity, and on a Failure gets "sick". The check comes after the disease's incubation
(I-IMM-01; none given = at once, A-I-20). Failure → stage 1, Tragedy → stage 2 or, by the
GM's choice, stage 1 and a neighbour infected (A-I-18). Every day the disease passes or
worsens (I-DIS-04): an end-of-day Immunity check moves it by ``daily_progress_map``
(A-I-17, :mod:`.progression`). Deadly diseases roll their death timer when the character
falls sick.

Stages (I-DIS-06..09): 1 malaise — +1 to one group, bad sleep, a reroll lost; 2 illness —
+1/+2 to related checks, fatigue, worse recovery, contagious; 3 dangerous — health loss,
heavy actions forbidden, help needed; 4 deadly — death or an irreversible consequence.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.character import Visibility
from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.ide4_survival.checks import Modifier, make_check
from lazaretto.rulesets.ide4_survival.common import (
    MASTERS,
    disease,
    gain,
    gain_fatigue,
    lose,
    next_id,
    params,
    party,
    state,
)
from lazaretto.rulesets.ide4_survival.params import Outcome
from lazaretto.rulesets.ide4_survival.poison import take_reroll
from lazaretto.rulesets.ide4_survival.state import Case, CheckRecord
from lazaretto.rulesets.ide4_survival.tables import Shift

INCUBATION = "incubation_ends"
DEATH = "disease_death"
CURE = "disease_cured"
STAGE_RULES = {1: "I-DIS-06", 2: "I-DIS-07", 3: "I-DIS-08", 4: "I-DIS-09"}


def record(
    ctx: ActionContext,
    event_kind: str,
    case: Case,
    rule_ids: tuple[str, ...],
    counter: int | None = None,
    /,
    **extra: object,
) -> Case:
    """Emit a case event carrying the whole case."""
    payload: dict[str, object] = {
        "case": case.model_dump(mode="json"),
        "character": case.character,
        "disease": case.disease,
        **extra,
    }
    if counter is not None:
        payload["counter"] = counter
    ctx.emit(event_kind, payload, rule_ids)
    return case


def active_case(ctx: ActionContext, char_id: str, code: str) -> Case | None:
    """The character's incubating or sick case of ``code``."""
    return next(
        (
            c
            for c in state(ctx).cases.values()
            if c.character == char_id and c.disease == code and c.status in ("incubating", "sick")
        ),
        None,
    )


def immunity_check(
    ctx: ActionContext,
    case: Case,
    modifiers: tuple[Modifier, ...] = (),
    outcome: str | None = None,
    roll: int | None = None,
    choice: str | None = None,
    neighbour: str | None = None,
) -> CheckRecord:
    """The infection check of ``case`` (I-DIS-03, I-DIS-10)."""
    return make_check(
        ctx,
        case.character,
        params(ctx).immunity_skill,
        base=case.difficulty + case.check_modifier,
        tags=("related",),
        modifiers=modifiers,
        purpose_name="infection",
        payload={"case": case.id, "choice": choice, "neighbour": neighbour},
        outcome=outcome,
        roll=roll,
        rule_ids=("I-DIS-03", "I-DIS-10", "I-IMM-01"),
    )


def expose(
    ctx: ActionContext,
    char_id: str,
    code: str,
    difficulty: int,
    source: str,
    modifiers: tuple[Modifier, ...] = (),
    outcome: str | None = None,
    roll: int | None = None,
    choice: str | None = None,
    neighbour: str | None = None,
) -> Case | None:
    """Expose a character to ``code``: the check now, or after the incubation."""
    p = params(ctx)
    d = disease(ctx, code)
    case = active_case(ctx, char_id, code)
    if case is not None and case.status == "sick":
        return None
    if case is None:
        cid, counter = next_id(ctx, "d")
        case = Case(
            id=cid,
            character=char_id,
            disease=code,
            exposed=ctx.now,
            difficulty=difficulty,
            source=source,
            stage1_group=_first_group(d.penalties),
        )
        if p.death_timer_start == "on_exposure":  # A-I-17 alternative
            case = _death_timer(ctx, case)
        case = record(ctx, "case.exposed", case, ("I-DIS-03", "I-DIS-10"), counter)
    if d.incubation_days:
        lo, hi = d.incubation_days
        days = ctx.roll(f"1d{hi - lo + 1}+{lo - 1}").total
        gain(
            ctx,
            char_id,
            "incubating",
            (f"{d.name.en}: check in {days} day(s)", f"{d.name.ru}: проверка через {days} дн."),
            ("I-IMM-01",),
            key=case.id,
            visibility=Visibility.MASTERS,
            deadline=ctx.now + timedelta(days=days),
            data={"case": case.id},
        )
        ctx.schedule(
            INCUBATION,
            timedelta(days=days),
            char_id,
            {"case": case.id, "choice": choice, "neighbour": neighbour},
            ("I-IMM-01",),
        )
        return case
    immunity_check(ctx, case, modifiers, outcome, roll, choice, neighbour)
    return state(ctx).cases[case.id]


def _first_group(penalties: list[Shift]) -> str:
    for pen in penalties:
        if pen.target.startswith("group:") and pen.amount > 0:
            return pen.target.split(":", 1)[1]
    return "body"


def _death_timer(ctx: ActionContext, case: Case) -> Case:
    d = disease(ctx, case.disease)
    if not d.death_after or case.death_at is not None:
        return case
    n = ctx.roll(d.death_after).total
    days = n * 7 if d.death_unit == "weeks" else n
    t = ctx.schedule(
        DEATH, timedelta(days=days), case.character, {"case": case.id}, (d.rule, "A-I-17")
    )
    return case.model_copy(update={"death_at": t.deadline})


def become_sick(ctx: ActionContext, case: Case, stage: int, rule_ids: tuple[str, ...]) -> Case:
    """``case`` turns into the state "sick" at ``stage`` (I-COND-08)."""
    p = params(ctx)
    d = disease(ctx, case.disease)
    case = case.model_copy(update={"status": "sick", "stage": 0, "sick_since": ctx.now})
    if p.death_timer_start == "on_sick":
        case = _death_timer(ctx, case)
    for t in state(ctx).timers_for(case.character, INCUBATION):
        if t.payload.get("case") == case.id:
            ctx.cancel(t.id, ("I-IMM-01",))
    lose(ctx, case.character, "incubating", ("fell sick", "заболел"), ("I-IMM-01",), key=case.id)
    record(ctx, "case.sick", case, (*rule_ids, "I-COND-08"))
    if d.poison_points:
        gain(
            ctx,
            case.character,
            "poisoned",
            (
                f"{d.name.en}: {d.poison_points} units of poisoning, permanent",
                f"{d.name.ru}: постоянно {d.poison_points} ед. отравления",
            ),
            (d.rule, "A-I-20"),
            key=case.id,
            data={"points": d.poison_points},
        )
    return set_stage(ctx, case, stage, rule_ids)


def set_stage(ctx: ActionContext, case: Case, stage: int, rule_ids: tuple[str, ...]) -> Case:
    """Move a sick case to ``stage`` (1..4) and apply what entering it means."""
    d = disease(ctx, case.disease)
    old = case.stage
    stage = max(1, min(4, stage))
    case = case.model_copy(update={"stage": stage})
    record(
        ctx, "case.stage_changed", case, (*rule_ids, STAGE_RULES[stage]), before=old, after=stage
    )
    gain(
        ctx,
        case.character,
        "sick",
        (f"{d.name.en}, stage {stage}", f"{d.name.ru}, стадия {stage}"),
        ("I-COND-08", STAGE_RULES[stage], *rule_ids),
        key=case.id,
        data={"case": case.id, "disease": case.disease, "stage": stage},
    )
    if old < 1 <= stage:
        take_reroll(ctx, case.character, ("malaise", "недомогание"), ("I-DIS-06", "A-I-23"))
    again = params(ctx).disease_fatigue_on_worsening and stage > old >= 2
    if stage >= 2 > old or again:  # I-DIS-07; the text's stage 3/4 lists name no fatigue
        gain_fatigue(
            ctx,
            case.character,
            "tired",
            (f"{d.name.en}: illness", f"{d.name.ru}: болезнь"),
            ("I-DIS-07",),
        )
    if stage >= 3 > old:
        ctx.emit(
            "risk.noted",
            {"character": case.character, "case": case.id, "what": "health_loss_help_needed"},
            ("I-DIS-08",),
        )
    if stage == 4 > old:
        ctx.emit(
            "risk.noted",
            {"character": case.character, "case": case.id, "what": "dying"},
            ("I-DIS-09",),
        )
    return case


def cure(ctx: ActionContext, case: Case, why: tuple[str, str], rule_ids: tuple[str, ...]) -> None:
    """The disease is over: "sick" removed, its countdowns stopped."""
    case = case.model_copy(update={"status": "cured", "cure_at": None})
    record(ctx, "case.cured", case, rule_ids, why_en=why[0], why_ru=why[1])
    lose(ctx, case.character, "sick", why, rule_ids, key=case.id)
    lose(ctx, case.character, "incubating", why, rule_ids, key=case.id)
    lose(ctx, case.character, "poisoned", why, rule_ids, key=case.id)
    for t in state(ctx).timers_for(case.character):
        if t.kind in (DEATH, CURE, INCUBATION) and t.payload.get("case") == case.id:
            ctx.cancel(t.id, rule_ids)


def die(
    ctx: ActionContext, char_id: str, cause: str, why: tuple[str, str], rule_ids: tuple[str, ...]
) -> None:
    """The character dies; every countdown about them stops."""
    for c in list(state(ctx).cases.values()):
        if c.character == char_id and c.status in ("sick", "incubating"):
            record(ctx, "case.ended", c.model_copy(update={"status": "dead"}), rule_ids)
    ctx.cancel_all(char_id, rule_ids=rule_ids)
    ctx.emit(
        "character.died",
        {"character": char_id, "cause": cause, "why_en": why[0], "why_ru": why[1]},
        rule_ids,
    )


def register(rs: Ruleset) -> None:
    """Declare exposure to a disease and the disease countdowns."""

    class Expose(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: everyone")
        disease: str = Field("basic", description="catalogue code (see the diseases query)")
        difficulty: int = Field(0, ge=-10, le=20, description="the infection risk [N]")
        modifiers: list[Modifier] = Field(default_factory=list, description="ventilation, rest…")
        source: str = Field("", max_length=120)
        outcome: Outcome | None = Field(None, description="Immunity result, if checked at once")
        roll: int | None = Field(None, ge=1, le=100)
        tragedy: Literal["stage2", "infect_neighbour"] = "stage2"
        neighbour: str | None = Field(None, description="whom a Tragedy infects instead")

    @rs.action(
        "expose",
        Expose,
        roles=MASTERS,
        summary=(
            "Risk of infection: Immunity check now or after incubation",
            "Риск заражения: проверка Иммунитета сейчас или после инкубации",
        ),
        rule_ids=("I-DIS-03", "I-DIS-10", "I-IMM-01", "A-I-18"),
    )
    def expose_action(ctx: ActionContext, a: Expose) -> None:
        disease(ctx, a.disease)
        if a.neighbour:
            ctx.character(a.neighbour)
        for ch in party(ctx, a.characters):
            expose(
                ctx,
                ch.id,
                a.disease,
                a.difficulty,
                a.source,
                tuple(a.modifiers),
                a.outcome,
                a.roll,
                a.tragedy,
                a.neighbour,
            )

    @rs.on_timer(INCUBATION)
    def incubation_over(ctx: ActionContext, t: Timer) -> None:
        case = state(ctx).cases.get(str(t.payload.get("case")))
        if case is None or case.status != "incubating" or not ctx.character(t.subject).alive:
            return
        lose(
            ctx,
            case.character,
            "incubating",
            ("incubation over", "инкубация окончена"),
            ("I-IMM-01",),
            key=case.id,
        )
        immunity_check(
            ctx, case, choice=t.payload.get("choice"), neighbour=t.payload.get("neighbour")
        )

    @rs.on_timer(DEATH)
    def death(ctx: ActionContext, t: Timer) -> None:
        case = state(ctx).cases.get(str(t.payload.get("case")))
        if case is None or case.status != "sick" or not ctx.character(t.subject).alive:
            return
        d = disease(ctx, case.disease)
        die(ctx, case.character, case.disease, (f"{d.name.en}", f"{d.name.ru}"), (d.rule,))

    @rs.on_timer(CURE)
    def cured(ctx: ActionContext, t: Timer) -> None:
        case = state(ctx).cases.get(str(t.payload.get("case")))
        if case is None or case.status != "sick":
            return
        cure(
            ctx,
            case,
            (f"treatment {t.payload.get('treatment')}", f"лечение {t.payload.get('treatment')}"),
            (str(t.payload.get("treatment")), "I-DIS-11"),
        )
