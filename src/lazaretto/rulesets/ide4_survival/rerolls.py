"""Using a reroll, replacing a Tragedy, spending energy dice on a check.

* Meal reroll (обеденный переброс): any d100 check made after the meal was finished and
  before the reroll burns (I-MEAL-08..11).
* Pacified reroll (умиротворённый переброс): once per game day, refreshed at 0:00, only
  at 3 calm points (I-CALM-18/19).
* Hot reroll (горячий переброс): held up to 2 game days (I-HOT-02/03).
* Immunity reroll: given by a treatment, for that disease's Immunity checks (I-DIS-05/11).

A reroll rolls the whole check again (A-I-01, ``reroll_policy``). At 0 calm a Tragedy may
become a Failure, before any energy, once per check (I-CALM-25/26/29); then up to 3
energy dice may raise it to Medium or Success, never to Triumph (I-CALM-27/28).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import InvalidInput
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.ide4_survival import d100
from lazaretto.rulesets.ide4_survival.checks import PURPOSES, check_payload, named
from lazaretto.rulesets.ide4_survival.common import EVERYONE, params, refuse, sv, update
from lazaretto.rulesets.ide4_survival.params import Outcome
from lazaretto.rulesets.ide4_survival.state import CheckRecord
from lazaretto.rulesets.ide4_survival.texts import VALUES

CheckFinder = Callable[[ActionContext, str | None, str], CheckRecord]
Resolver = Callable[[ActionContext, CheckRecord, str | None, int | None], dict[str, Any] | None]


def reapply(ctx: ActionContext, old: CheckRecord, new: CheckRecord, kind: str) -> None:
    """Record the changed check, undoing the old consequence and applying the new one."""
    if old.purpose and old.purpose in PURPOSES:
        undo = PURPOSES[old.purpose].undo
        assert undo is not None
        undo(ctx, old)
    ctx.emit(kind, check_payload(new), ("A-I-01",))
    if new.purpose and new.purpose in PURPOSES:
        PURPOSES[new.purpose].apply(ctx, new)


def _kind(kind: str) -> tuple[str, str]:
    """A reroll's kind (meal, pacified, hot, Immunity) in English and Russian."""
    return VALUES.get(f"kind:{kind}", (kind, kind))


def _reversible(ctx: ActionContext, rec: CheckRecord) -> None:
    spec = PURPOSES.get(rec.purpose) if rec.purpose else None
    if spec is not None and spec.undo is None:
        en, ru = named(ctx, rec)
        refuse(
            f"The consequence of {en} cannot be taken back here",
            f"Последствия: {ru} — здесь не отменить",
            "A-I-01",
            tip="Reroll at the table before entering the outcome.",
            tip_ru="Перебросьте за столом до ввода исхода.",
        )


def register(rs: Ruleset, find: CheckFinder, resolve: Resolver) -> None:
    """Declare use-reroll, replace-tragedy and spend-energy."""

    class UseReroll(BaseModel):
        character: str
        kind: Literal["meal", "pacified", "hot", "immunity"]
        check: str | None = Field(None, description="the check to reroll (default: the last)")
        outcome: Outcome | None = Field(None, description="the new table result (manual)")
        roll: int | None = Field(None, ge=1, le=100)

    @rs.action(
        "use-reroll",
        UseReroll,
        roles=EVERYONE,
        summary=("Use a reroll on a check", "Использовать переброс на проверку"),
        rule_ids=("I-MEAL-08", "I-MEAL-09", "I-MEAL-10", "I-CALM-18", "I-CALM-19", "I-HOT-02"),
    )
    def use_reroll(ctx: ActionContext, a: UseReroll) -> None:
        ch = ctx.character(a.character)
        rec = find(ctx, a.check, ch.id)
        if rec.outcome is None:
            en, ru = named(ctx, rec)
            refuse(f"{en} has no outcome yet", f"{ru[0].upper()}{ru[1:]}: ещё нет исхода")
        _reversible(ctx, rec)
        s = sv(ctx, ch.id)
        rules: tuple[str, ...]
        if a.kind == "pacified":
            rules = ("I-CALM-18", "I-CALM-19")
            if s.calm != params(ctx).calm_points_max:
                refuse(
                    f"The pacified reroll needs {params(ctx).calm_points_max} calm points; "
                    f"{ch.name} has {s.calm}",
                    "Умиротворённый переброс — только при 3 очках спокойствия; "
                    f"у {ch.name} {s.calm}",
                    *rules,
                )
            if s.pacified_used and s.pacified_used.date() == ctx.now.date():
                refuse(
                    f"{ch.name} already used the pacified reroll today; it returns at 0:00",
                    f"{ch.name} уже использовал умиротворённый переброс сегодня; "
                    "он вернётся в 0:00",
                    *rules,
                )
            update(
                ctx,
                "reroll.used",
                ch.id,
                {"pacified_used": ctx.now},
                rules,
                kind="pacified",
                check=rec.id,
            )
        else:
            rules = {
                "meal": ("I-MEAL-08", "I-MEAL-09", "I-MEAL-10"),
                "hot": ("I-HOT-02", "I-HOT-03"),
                "immunity": ("I-DIS-05", "I-DIS-11"),
            }[a.kind]
            held = [
                r
                for r in s.rerolls
                if r.kind == a.kind and (r.expires is None or ctx.now < r.expires)
            ]
            if a.kind == "immunity":
                held = [r for r in held if r.case == rec.payload.get("case")]
            if not held:
                refuse(
                    f"{ch.name} holds no {_kind(a.kind)[0]} reroll",
                    f"У {ch.name} нет переброса ({_kind(a.kind)[1]})",
                    *rules,
                )
            usable = [r for r in held if r.usable_from <= rec.at]
            if not usable:
                refuse(
                    f"The {_kind(a.kind)[0]} reroll is usable only on checks after "
                    f"{held[0].usable_from:%H:%M}; "
                    f"{named(ctx, rec)[0]} was before or during the meal",
                    f"Переброс ({_kind(a.kind)[1]}) — только на проверки после "
                    f"{held[0].usable_from:%H:%M}; {named(ctx, rec)[1]} — до или во время еды",
                    *rules,
                    "I-MEAL-10",
                )
            used = usable[0]
            rest = [r for r in s.rerolls if r is not used]
            update(ctx, "reroll.used", ch.id, {"rerolls": rest}, rules, kind=a.kind, check=rec.id)
        again = resolve(ctx, rec, a.outcome, a.roll)
        if again is None:
            raise InvalidInput(
                "use-reroll: give --outcome (the manual resolver does not roll)",
                ru="use-reroll: укажите --outcome (ручной режим не бросает)",
            )
        new_outcome = again["outcome"]
        if params(ctx).reroll_policy == "take_better" and d100.rank(new_outcome) > d100.rank(
            rec.outcome or "tragedy"
        ):
            new_outcome = rec.outcome
        new = rec.model_copy(
            update={
                "outcome": new_outcome,
                "roll": again["roll"],
                "history": [*rec.history, rec.outcome or ""],
                "energy_spent": 0,
                "adrenaline_used": 0,
            }
        )
        reapply(ctx, rec, new, "check.rerolled")

    class ReplaceTragedy(BaseModel):
        character: str
        check: str | None = Field(None, description="the check (default: the last)")

    @rs.action(
        "replace-tragedy",
        ReplaceTragedy,
        roles=EVERYONE,
        summary=(
            "At 0 calm: turn a Tragedy into a Failure (big adrenaline dose)",
            "При 0 спокойствия: заменить Трагедию на Провал",
        ),
        rule_ids=("I-CALM-25", "I-CALM-26", "I-CALM-29"),
    )
    def replace_tragedy(ctx: ActionContext, a: ReplaceTragedy) -> None:
        ch = ctx.character(a.character)
        rec = find(ctx, a.check, ch.id)
        s = sv(ctx, ch.id)
        if s.calm != 0:
            refuse(
                f"{ch.name} is not at 0 calm points ({s.calm})",
                f"У {ch.name} не 0 очков спокойствия ({s.calm})",
                "I-CALM-25",
            )
        if rec.outcome != "tragedy":
            en, ru = named(ctx, rec)
            refuse(f"{en} is not a Tragedy", f"{ru[0].upper()}{ru[1:]} — не Трагедия", "I-CALM-25")
        if rec.replacements >= params(ctx).tragedy_replacements_per_check:
            refuse(
                "Only one Tragedy replacement is allowed per check",
                "На одну проверку допускается только одна замена Трагедии",
                "I-CALM-29",
            )
        if rec.energy_spent or rec.adrenaline_used:
            refuse(
                "The replacement comes before after-roll energy; energy was already spent",
                "Замена применяется до энергии после броска; энергия уже потрачена",
                "I-CALM-26",
            )
        if s.replacements <= 0:
            refuse(
                f"{ch.name} has no Tragedy replacements left",
                f"У {ch.name} не осталось замен Трагедии",
                "I-CALM-25",
            )
        _reversible(ctx, rec)
        update(
            ctx,
            "tragedy.replacement_used",
            ch.id,
            {"replacements": s.replacements - 1},
            ("I-CALM-25",),
            check=rec.id,
            left=s.replacements - 1,
        )
        new = rec.model_copy(
            update={"outcome": "failure", "replaced": True, "replacements": rec.replacements + 1}
        )
        reapply(ctx, rec, new, "check.tragedy_replaced")

    class SpendEnergy(BaseModel):
        character: str
        check: str | None = Field(None, description="the check (default: the last)")
        dice: int = Field(0, ge=0, le=10, description="after-roll energy dice spent")
        die: int = Field(6, ge=2, le=20, description="their size (d4, d6, d8…)")
        adrenaline: int = Field(0, ge=0, le=10, description="single-use d20 adrenaline dice")
        outcome: Outcome | None = Field(None, description="the result after energy (manual)")

    @rs.action(
        "spend-energy",
        SpendEnergy,
        roles=EVERYONE,
        summary=("Spend after-roll energy dice on a check", "Потратить кубы энергии после броска"),
        rule_ids=("I-COND-07", "I-SLEEP-12", "I-CALM-20", "I-CALM-21", "I-CALM-23", "I-CALM-27"),
    )
    def spend_energy(ctx: ActionContext, a: SpendEnergy) -> None:
        p = params(ctx)
        ch = ctx.character(a.character)
        rec = find(ctx, a.check, ch.id)
        s = sv(ctx, ch.id)
        count = a.dice + a.adrenaline
        if count == 0:
            raise InvalidInput("spend-energy: no dice given", ru="spend-energy: не указаны кубы")
        limit = p.energy_dice_after_replacement if rec.replaced else rec.energy_limit
        if rec.energy_spent + rec.adrenaline_used + count > limit:
            refuse(
                f"At most {limit} after-roll energy dice on this check "
                f"({rec.energy_spent + rec.adrenaline_used} already spent)",
                f"Не больше {limit} кубов энергии после броска на эту проверку "
                f"(уже потрачено {rec.energy_spent + rec.adrenaline_used})",
                *(("I-CALM-27",) if rec.replaced else ("I-COND-07", "I-SLEEP-12", "I-SLEEP-13")),
            )
        if a.adrenaline > s.adrenaline:
            refuse(
                f"{ch.name} holds {s.adrenaline} adrenaline d20",
                f"У {ch.name} адреналиновых d20: {s.adrenaline}",
                "I-CALM-20",
                "I-CALM-22",
            )
        _restrict_big_dice(ctx, rec, s.calm, a.die if a.dice else 0, a.adrenaline)
        total_roll = None
        outcome: str | None = a.outcome
        if outcome is None:
            if p.check_resolver != "band_table" or rec.roll is None:
                raise InvalidInput(
                    "spend-energy: give --outcome (the manual resolver does not roll)",
                    ru="spend-energy: укажите --outcome (ручной режим не бросает)",
                )
            parts = [f"{a.dice}d{a.die}"] if a.dice else []
            parts += [f"{a.adrenaline}d20"] if a.adrenaline else []
            gained = ctx.roll(" + ".join(parts)).total
            total_roll = max(1, rec.roll - gained)
            outcome = d100.band_outcome(total_roll, rec.difficulty, p.band_table)
        if d100.rank(outcome) > d100.rank(rec.outcome or "tragedy"):
            outcome = rec.outcome  # energy never makes a result worse
        if rec.replaced and outcome == "triumph":
            refuse(
                "Triumph cannot be reached with energy",
                "Триумф энергией получить нельзя",
                "I-CALM-28",
            )
        if a.adrenaline:
            update(
                ctx,
                "energy.adrenaline_used",
                ch.id,
                {"adrenaline": s.adrenaline - a.adrenaline},
                ("I-CALM-20", "I-CALM-22"),
                used=a.adrenaline,
                check=rec.id,
            )
        new = rec.model_copy(
            update={
                "outcome": outcome,
                "roll": total_roll if total_roll is not None else rec.roll,
                "energy_spent": rec.energy_spent + a.dice,
                "adrenaline_used": rec.adrenaline_used + a.adrenaline,
                "history": [*rec.history, rec.outcome or ""],
            }
        )
        if new.outcome != rec.outcome:
            _reversible(ctx, rec)
            reapply(ctx, rec, new, "check.energy_spent")
        else:
            ctx.emit(
                "check.energy_spent",
                check_payload(new),
                ("A-I-03",),
            )


def _restrict_big_dice(
    ctx: ActionContext, rec: CheckRecord, calm: int, die: int, adrenaline: int
) -> None:
    """I-CALM-21/23: which skills may take energy dice of d8 and higher at 2 and 1 calm."""
    p = params(ctx)
    big = die >= p.energy_die_restricted_from or (
        adrenaline > 0 and p.energy_die_restricted_from <= 20
    )
    if not big:
        return
    if calm == 2 and rec.group == "sociality":
        refuse(
            f"At 2 calm points energy dice of d{p.energy_die_restricted_from} and higher "
            "cannot go on Sociality skills",
            "При 2 очках спокойствия кубы энергии d8 и выше нельзя применять к навыкам "
            "«Социальности»",
            "I-CALM-21",
        )
    allowed = {s.casefold() for s in p.calm1_d8_skills}
    if calm == 1 and rec.group != "combat" and rec.skill.casefold() not in allowed:
        refuse(
            f"At 1 calm point energy dice of d{p.energy_die_restricted_from} and higher go only "
            f"on combat skills and {', '.join(p.calm1_d8_skills)}",
            "При 1 очке спокойствия кубы d8+ — только для боевых навыков и «Эффект Фарамира», "
            "«Сила», «Отвага», «Атлетика», «Акробатика», «Плавание»",
            "I-CALM-23",
        )
