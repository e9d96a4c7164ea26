"""Checks (проверки): make one, resolve a pending one, reroll it, replace a Tragedy,
spend energy dice. The resolution itself is the stand-in of :mod:`.d100` (A-I-01).

A check made by a rule (an Immunity check after incubation, a poisoning check…) has a
``purpose``: once it has an outcome, the purpose applies its consequence; a reroll or a
Tragedy replacement undoes the old consequence and applies the new one. Under the
``manual`` resolver a check that the GM has not entered yet waits as *pending*
(``resolve-check``); the ``day`` query lists them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import InvalidInput, NotFound
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.ide4_survival import d100
from lazaretto.rulesets.ide4_survival.common import (
    EVERYONE,
    disease,
    next_id,
    params,
    refuse,
    state,
    sv,
)
from lazaretto.rulesets.ide4_survival.params import Outcome
from lazaretto.rulesets.ide4_survival.state import CheckRecord, ShiftItem, jsonable, survivor_events
from lazaretto.rulesets.ide4_survival.texts import SKILLS

Tag = Literal[
    "long_physical",
    "physical",
    "concentration",
    "related",
    "movement",
    "run",
    "climb",
    "swim",
    "stealth",
    "strength",
    "heavy",
]
survivor_events("reroll.used", "energy.adrenaline_used", "tragedy.replacement_used")
CHECK_DIE = "1d100"
"""The die of the band-table resolver: roll under the band (A-I-01)."""


@dataclass(frozen=True)
class Purpose:
    """What a rule-made check does with its outcome, and how to take it back."""

    apply: Callable[[ActionContext, CheckRecord], None]
    undo: Callable[[ActionContext, CheckRecord], None] | None = None


PURPOSES: dict[str, Purpose] = {}


def purpose(
    name: str, undo: Callable[[ActionContext, CheckRecord], None] | None = None
) -> Callable[[Callable[[ActionContext, CheckRecord], None]], Callable[..., None]]:
    """Decorator registering the consequence of checks made for ``name``."""

    def register(fn: Callable[[ActionContext, CheckRecord], None]) -> Callable[..., None]:
        PURPOSES[name] = Purpose(fn, undo)
        return fn

    return register


class Modifier(BaseModel):
    """A situational shift the GM adds (ventilation, protection, a good meal…)."""

    reason: str = Field(min_length=1, max_length=120)
    amount: int = Field(ge=-20, le=20)


def check_payload(rec: CheckRecord) -> dict[str, Any]:
    """An event payload carrying the whole check, and its headline fields for the log."""
    return {
        "check": rec.model_dump(mode="json"),
        "character": rec.character,
        "id": rec.id,
        "skill": rec.skill,
        "difficulty": rec.difficulty,
        "outcome": rec.outcome or "-",
    }


def cases_of(ctx: Any, char_id: str) -> list[tuple[Any, Any]]:
    """The character's disease cases with their disease records."""
    return [
        (c, disease(ctx, c.disease))
        for c in state(ctx).cases.values()
        if c.character == char_id and c.status in ("sick", "incubating")
    ]


def make_check(
    ctx: ActionContext,
    char_id: str,
    skill: str,
    *,
    base: int = 0,
    group: str | None = None,
    tags: tuple[str, ...] = (),
    modifiers: tuple[Modifier, ...] = (),
    purpose_name: str = "",
    payload: dict[str, Any] | None = None,
    outcome: str | None = None,
    roll: int | None = None,
    fatigue_critical: bool = False,
    visible_hunger: bool = False,
    concentration: bool | None = None,
    triumph_downgraded: bool = False,
    rule_ids: tuple[str, ...] = (),
) -> CheckRecord:
    """Make a check for ``char_id``: shifts from its states, then the outcome (or pending).

    A check given no outcome under the ``manual`` resolver waits for ``resolve-check``.
    """
    p = params(ctx)
    ch = ctx.character(char_id)
    group = group or p.skill_groups.get(skill)
    if group is not None and group not in p.attribute_groups:
        raise InvalidInput(
            f"No attribute group {group!r}; groups: {', '.join(p.attribute_groups)}",
            ru=f"Нет группы атрибутов {group!r}; группы: {', '.join(p.attribute_groups)}",
        )
    cases = cases_of(ctx, char_id)
    if "heavy" in tags and any(c.status == "sick" and c.stage >= 3 for c, _ in cases):
        refuse(
            f"{ch.name} is dangerously ill: heavy actions are forbidden",
            f"{ch.name} в опасном состоянии: тяжёлые действия запрещены",
            "I-DIS-08",
            tip="Treat the disease first.",
            tip_ru="Сначала лечите болезнь.",
        )
    conc = p.sleep_deprived_effect == "concentration" if concentration is None else concentration
    extra = tuple(ShiftItem(source=f"gm:{m.reason}", amount=m.amount) for m in modifiers)
    req = d100.Request(
        skill=skill,
        group=group,
        tags=frozenset(tags),
        fatigue_critical=fatigue_critical,
        visible_hunger=visible_hunger,
        concentration_mode=conc,
        extra=extra,
    )
    shifts = d100.state_shifts(ch, sv(ctx, char_id), cases, req, p, ctx.now)
    cid, counter = next_id(ctx, "k")
    record = CheckRecord(
        id=cid,
        character=char_id,
        skill=skill,
        group=group,
        tags=sorted(tags),
        base=base,
        shifts=shifts,
        difficulty=base + sum(s.amount for s in shifts),
        at=ctx.now,
        purpose=purpose_name,
        payload=jsonable(payload or {}),
        triumph_downgraded=triumph_downgraded,
        energy_limit=d100.energy_limit(ch, sv(ctx, char_id), p, conc),
    )
    if sv(ctx, char_id).load == "overloaded" and group == "combat":
        record.notes.append("cannot fight normally without dropping the load (I-LOAD-05)")
    resolved = _resolve(ctx, record, outcome, roll)
    rules = (*rule_ids, "A-I-01", "A-I-02")
    if resolved is None:
        record = record.model_copy(update={"pending": True})
        ctx.emit(
            "check.pending",
            {**check_payload(record), "counter": counter},
            rules,
        )
        return record
    record = record.model_copy(update=resolved)
    ctx.emit(
        "check.made",
        {**check_payload(record), "counter": counter},
        rules,
    )
    _consequence(ctx, record)
    return record


def _resolve(
    ctx: ActionContext, record: CheckRecord, outcome: str | None, roll: int | None
) -> dict[str, Any] | None:
    """The outcome fields, or None when the GM must still enter it."""
    p = params(ctx)
    if outcome is None and roll is None:
        if p.check_resolver != "band_table":
            return None
        roll = ctx.roll(CHECK_DIE).total
    if outcome is None:
        assert roll is not None
        outcome = d100.band_outcome(roll, record.difficulty, p.band_table)
    outcome = declared_outcome(outcome, triumph_downgraded=record.triumph_downgraded)
    return {"outcome": outcome, "roll": roll, "pending": False}


def declared_outcome(outcome: str, *, triumph_downgraded: bool) -> str:
    """A Triumph declared before the roll to count as a Success is a Success
    (I-TRAVEL-09, A-I-22); any other outcome stands."""
    return "success" if triumph_downgraded and outcome == "triumph" else outcome


def _consequence(ctx: ActionContext, record: CheckRecord) -> None:
    if record.purpose and record.purpose in PURPOSES:
        PURPOSES[record.purpose].apply(ctx, record)


def named(ctx: ActionContext, rec: CheckRecord) -> tuple[str, str]:
    """A check as the people at the table know it, in English and Russian: whose, which
    skill and when ("Olga's Attention check at 08:02"), not its id."""
    who = ctx.character(rec.character).name
    en, ru = SKILLS.get(rec.skill, (rec.skill, rec.skill))
    return f"{who}'s {en} check at {rec.at:%H:%M}", f"проверка «{ru}» ({who}, {rec.at:%H:%M})"


def _check(ctx: ActionContext, check_id: str | None, char_id: str) -> CheckRecord:
    st = state(ctx)
    if check_id is None:
        theirs = [c for c in st.checks.values() if c.character == char_id]
        mine = [c for c in theirs if not c.pending]
        if not mine:
            who = ctx.character(char_id).name
            if theirs:  # only checks still waiting for their outcome
                en, ru = named(ctx, max(theirs, key=lambda c: int(c.id[1:])))
                raise NotFound(
                    f"{who} has no check with an outcome yet: {en} awaits one (resolve-check)",
                    ru=f"У {who} ещё нет проверки с исходом: {ru} ждёт исхода (resolve-check)",
                )
            raise NotFound(f"{who} has made no check yet", ru=f"{who} ещё не делал проверок")
        return max(mine, key=lambda c: int(c.id[1:]))
    rec = st.checks.get(check_id)
    if rec is None or rec.character != char_id:
        raise NotFound(
            f"No check {check_id!r} of {char_id}", ru=f"Нет проверки {check_id!r} у {char_id}"
        )
    return rec


def register(rs: Ruleset) -> None:
    """Declare the check actions."""

    class RollCheck(BaseModel):
        character: str
        skill: str = Field(min_length=1, max_length=60, description="e.g. Endurance, Attention")
        difficulty: int = Field(0, ge=-10, le=20, description="the base difficulty [N]")
        group: str | None = Field(None, description="attribute group, if not the skill's own")
        tags: list[Tag] = Field(default_factory=list, description="what kind of action it is")
        modifiers: list[Modifier] = Field(default_factory=list, description="GM's shifts")
        outcome: Outcome | None = Field(None, description="the table result (manual resolver)")
        roll: int | None = Field(None, ge=1, le=100, description="the d100 rolled at the table")
        fatigue_critical: bool = Field(False, description="GM declared fatigue critical")
        visible_hunger: bool = Field(False, description="GM applies visible hunger (+1)")
        concentration: bool | None = Field(None, description="sleep-deprived as +1 concentration")
        triumph_counts_as_success: bool = Field(False, description="declared before the roll")

    @rs.action(
        "d100-check",
        RollCheck,
        roles=EVERYONE,
        summary=(
            "Make a d100 check: the states' shifts are added, the outcome recorded",
            "Проверка d100: сдвиги состояний добавляются, исход записывается",
        ),
        rule_ids=("I-GEN-02", "I-STATE-01", "I-STATE-02", "I-STATE-04", "I-TRAVEL-09"),
    )
    def roll_check(ctx: ActionContext, a: RollCheck) -> None:
        make_check(
            ctx,
            a.character,
            a.skill,
            base=a.difficulty,
            group=a.group,
            tags=tuple(a.tags),
            modifiers=tuple(a.modifiers),
            outcome=a.outcome,
            roll=a.roll,
            fatigue_critical=a.fatigue_critical,
            visible_hunger=a.visible_hunger,
            concentration=a.concentration,
            triumph_downgraded=a.triumph_counts_as_success,
            rule_ids=("I-GEN-02",),
        )

    class ResolveCheck(BaseModel):
        check: str = Field(description="the pending check's id (its line in the history names it)")
        outcome: Outcome | None = None
        roll: int | None = Field(None, ge=1, le=100)
        choice: str | None = Field(None, description="GM's choice the rule allows")

    @rs.action(
        "resolve-check",
        ResolveCheck,
        summary=("Enter the outcome of a pending check", "Ввести исход ожидающей проверки"),
        rule_ids=("A-I-01",),
    )
    def resolve_check(ctx: ActionContext, a: ResolveCheck) -> None:
        rec = state(ctx).checks.get(a.check)
        if rec is None or not rec.pending:
            raise NotFound(
                f"No pending check {a.check!r}", ru=f"Нет ожидающей проверки {a.check!r}"
            )
        resolved = _resolve(ctx, rec, a.outcome, a.roll)
        if resolved is None:
            raise InvalidInput(
                "resolve-check: give --outcome (the manual resolver does not roll)",
                ru="resolve-check: укажите --outcome (ручной режим не бросает)",
            )
        payload = {**rec.payload, **({"choice": a.choice} if a.choice else {})}
        rec = rec.model_copy(update={**resolved, "payload": payload, "at": ctx.now})
        ctx.emit(
            "check.resolved",
            check_payload(rec),
            ("A-I-01",),
        )
        _consequence(ctx, rec)

    register_rerolls(rs)


def register_rerolls(rs: Ruleset) -> None:
    """Declare use-reroll, replace-tragedy and spend-energy."""
    from lazaretto.rulesets.ide4_survival import rerolls

    rerolls.register(rs, _check, _resolve)
