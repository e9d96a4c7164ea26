"""The rules of a trauma treatment: which catalogue row applies and who it refuses,
when the next roll is due, how a roll advances the treatment, and how it ends
(S-PHEAL, S-MHEAL, S-CLAR-04..07; A-S-21..A-S-24)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from lazaretto.core.character import Character
from lazaretto.core.engine import ActionContext
from lazaretto.rulesets.fantasy_server.checks import Check
from lazaretto.rulesets.fantasy_server.common import (
    add_condition,
    add_trauma,
    flag,
    hp_change,
    next_midnight,
    params,
    refuse,
    remove_condition,
)
from lazaretto.rulesets.fantasy_server.params import FantasyParams
from lazaretto.rulesets.fantasy_server.state import TraumaTreatment
from lazaretto.rulesets.fantasy_server.tables import TraumaKind, Treatment, traumas


def treatment_for(
    p: FantasyParams, kind: TraumaKind, method: str, construct: bool
) -> Treatment | None:
    """The catalogue row for ``method``; a construct's untreatable trauma is repaired
    physically (S-CLAR-07); the mutation traumas take their thresholds from the
    parameters (S-MUTT-04/06)."""
    row: Treatment | None = getattr(kind, method)
    if row is not None and row.rule == "S-MUTT-04":
        row = row.model_copy(update={"threshold": p.mutation_misknit_fix_threshold})
    elif row is not None and row.rule == "S-MUTT-06":
        row = row.model_copy(update={"threshold": p.tumour_removal_threshold})
    if construct and method != "magical" and (row is None or row.kind == "untreatable"):
        return Treatment(
            rule="S-CLAR-07",
            kind="single",
            stat="INT",
            threshold=p.construct_untreatable_threshold,
            hours=24 * p.construct_untreatable_days,
        )
    return row


def duration_hours(p: FantasyParams, row: Treatment) -> int:
    """How long before a single-roll treatment's roll is due (A-S-23)."""
    return p.magic_several_hours if row.several_hours else row.hours


def describe_row(p: FantasyParams, row: Treatment, lang: str) -> str:
    """``INT vs hard (24) after 24 h`` — the threshold shown wherever it is used (A-S-02)."""
    ru = lang == "ru"
    if row.kind == "untreatable":
        return row.remedy_ru if ru else row.remedy_en
    assert row.threshold is not None
    label = p.threshold_label(row.threshold)
    if row.kind == "cumulative":
        return (
            f"{row.stat}: сумма бросков до {label}, один бросок в день без переброса"
            if ru
            else f"{row.stat}: daily roll totals summed to {label}, one roll a day, no reroll"
        )
    if row.kind == "successes":
        every = "24 ч" if row.interval == "24h" else "день"
        every_en = "24 h" if row.interval == "24h" else "day"
        return (
            f"{row.stat} против {label}, {row.successes} успехов, один бросок в {every}"
            if ru
            else f"{row.stat} vs {label}, {row.successes} successes, one roll per {every_en}"
        )
    hours = duration_hours(p, row)
    if ru:
        return f"{row.stat} против {label}" + (f" через {hours} ч" if hours else "")
    return f"{row.stat} vs {label}" + (f" after {hours} h" if hours else "")


def choose_row(
    p: FantasyParams,
    patient: Character,
    kind: TraumaKind,
    method: str,
    combat_skill: bool,
    repair_kit: bool,
) -> Treatment:
    """The treatment row that applies, after every rule that can refuse it."""
    construct = flag(patient, "is_construct")
    magical = method == "magical"
    if combat_skill:
        refuse(
            "Combat healing skills cannot heal traumas (only HP)",
            "Боевые навыки лечения не лечат травмы (только здоровье)",
            "S-CLAR-02",
        )
    if kind.acid_only:
        refuse(
            f"{kind.en} is removed only with acid",
            f"{kind.ru}: лечится только кислотой",
            "S-MUTT-03",
            tip="Use `treat-skin-layer`.",
            tip_ru="Используйте `treat-skin-layer`.",
        )
    if magical and construct:
        refuse(
            f"{patient.name} is a construct: magical healing does not work on constructs",
            f"{patient.name} — конструкт: магическое лечение конструктам недоступно",
            "S-CLAR-05",
            tip="Repair them physically with a repair kit.",
            tip_ru="Чините физически, ремонтным набором.",
        )
    if magical and flag(patient, "reduced_magic"):
        refuse(
            f"{patient.name} has reduced magic: magical healing cannot treat them",
            f"У {patient.name} заниженная магия: магическое лечение недоступно",
            "S-HEAL-06",
            tip="Use physical healing.",
            tip_ru="Используйте физическое лечение.",
        )
    if construct and not repair_kit:
        refuse(
            f"{patient.name} is a construct: they are treated with a repair kit",
            f"{patient.name} — конструкт: лечится ремонтным набором",
            "S-CLAR-06",
            tip="Pass --repair-kit.",
            tip_ru="Укажите --repair-kit.",
        )
    row = treatment_for(p, kind, method, construct)
    if row is None:
        refuse(
            f"{kind.en} has no {method} treatment",
            f"У травмы «{kind.ru}» нет лечения способом {method}",
            "A-S-24",
            "S-HEAL-05",
        )
    if row.kind == "untreatable":
        refuse(
            f"{kind.en}: {row.remedy_en}",
            f"{kind.ru}: {row.remedy_ru}",
            row.rule,
        )
    assert row.stat is not None and row.threshold is not None
    return row


def base_rules(row: Treatment, magical: bool, reduced: bool, construct: bool) -> list[str]:
    """The rules every roll of a treatment applies."""
    rules = [row.rule, "S-HEAL-05", "A-S-24"]
    if magical:
        rules.append("S-HEAL-07")
    else:
        rules += ["S-HEAL-02", "S-HEAL-04"]
        if reduced:
            rules.append("S-HEAL-03")
    if construct:
        rules += ["S-CLAR-06", "S-CLAR-07"]
    return rules


def advance(
    ctx: ActionContext,
    tr: TraumaTreatment,
    row: Treatment,
    check: Check,
    counts: bool,
    effect: str | None,
) -> tuple[dict[str, Any], bool]:
    """The treatment's progress after a roll, and whether it is complete (A-S-21..23)."""
    p = params(ctx)
    changes: dict[str, Any] = {"last_roll": ctx.now.isoformat()}
    if row.kind == "single":
        done = bool(check.success) and counts
    elif row.kind == "successes":
        wins = tr.successes + (1 if check.success and counts else 0)
        changes["successes"] = wins
        done = wins >= row.successes
    else:
        assert row.threshold is not None
        add = check.total if counts else 0
        if effect == "half":  # S-MUTT-02: half strength
            add //= 2
        changes["total"] = tr.total + add
        done = changes["total"] >= p.threshold(row.threshold)
    if not done and row.kind == "single":
        nxt = next_midnight(ctx.now) if p.retry_after_failed_treatment == "next_day" else ctx.now
        changes["roll_due"] = nxt.isoformat()
    return changes, done


def pace(ctx: ActionContext, tr: TraumaTreatment, row: Treatment) -> None:
    """Refuse a roll that is not due yet (A-S-21..A-S-23, S-PHEAL-03/14)."""
    p = params(ctx)
    if tr.roll_due > ctx.now:
        refuse(
            f"The next roll of this treatment is due at {tr.roll_due:%Y-%m-%d %H:%M}",
            f"Следующий бросок этого лечения — в {tr.roll_due:%Y-%m-%d %H:%M}",
            row.rule,
            "A-S-23",
        )
    if tr.last_roll is None or row.kind == "single":
        return
    nxt = tr.last_roll + timedelta(hours=24)
    if row.interval == "24h" and ctx.now < nxt:
        refuse(
            f"One check every 24 hours: next at {nxt:%Y-%m-%d %H:%M}",
            f"Одна проверка раз в 24 часа: следующая в {nxt:%Y-%m-%d %H:%M}",
            row.rule,
            "A-S-23",
        )
    once = row.kind != "cumulative" or p.cumulative_threshold_one_roll_per_day  # A-S-22
    if once and row.interval == "day" and tr.last_roll.date() == ctx.now.date():
        refuse(
            "Only one roll a day for this treatment",
            "Для этого лечения — один бросок в день",
            row.rule,
            "A-S-22" if row.kind == "cumulative" else "A-S-21",
        )


def may_reroll(tr: TraumaTreatment, row: Treatment, ctx: ActionContext) -> None:
    """A reroll repeats today's failed roll of this treatment (S-CRIT-05/06); a summed
    threshold allows none (S-PHEAL-12, S-MHEAL-07..09)."""
    if row.kind == "cumulative":
        refuse(
            "Only one roll a day without a reroll for this treatment",
            "Для этого лечения — один бросок в день без переброса",
            row.rule,
            "S-CRIT-05",
        )
    if tr.last_roll is None or tr.last_roll.date() != ctx.now.date():
        refuse(
            "There is no roll of this treatment today to repeat",
            "Сегодня не было броска этого лечения, чтобы его перебросить",
            row.rule,
            "S-CRIT-05",
        )


def progress(row: Treatment, changes: dict[str, Any], tr: TraumaTreatment, p: FantasyParams) -> str:
    if row.kind == "successes":
        return f"{changes.get('successes', tr.successes)}/{row.successes}"
    if row.kind == "cumulative":
        assert row.threshold is not None
        return f"{changes.get('total', tr.total)}/{p.threshold(row.threshold)}"
    return "-"


def lose_hp(ctx: ActionContext, patient: str, loss: int, row: Treatment) -> None:
    after, real = hp_change(ctx, {patient: -loss})
    ctx.emit(
        "treatment.hp_lost",
        {"character": patient, "lost": -real[patient], "hits_after": after},
        (row.rule,),
    )


def complete(
    ctx: ActionContext, tr: TraumaTreatment, row: Treatment, tid: str, key: str, misknit: bool
) -> None:
    """A finished treatment: the trauma goes, changes or waits for its other conditions."""
    ctx.emit(
        "treatment.completed",
        {
            "treatment": tr.id,
            "patient": tr.patient,
            "trauma": traumas()[key].en,
            "set": {"done": True},
        },
        (row.rule,),
    )
    patient = ctx.character(tr.patient)
    if misknit:  # S-MUTT-04: the trauma's effect remains, now needing INT 28
        remove_condition(ctx, patient.id, "trauma", ("S-MUTT-04",), cid=tid)
        add_trauma(ctx, patient.id, "misknit", ("S-MUTT-04",), source="mutation", replaces=key)
    elif row.combined:
        cond = next(c for c in patient.conditions if c.data.get("id") == tid)
        combined = {**cond.data.get("combined", {}), "treatment": True}
        combined_progress(ctx, patient.id, tid, combined)
    else:
        remove_condition(ctx, patient.id, "trauma", (row.rule,), cid=tid)
        if row.becomes:  # S-MHEAL-03: a terrible scar becomes a minor scar
            add_trauma(ctx, patient.id, row.becomes, (row.rule,), source=key)
    if row.no_heavy_work_days:
        add_condition(
            ctx, patient.id, "no_heavy_work", (row.rule,),
            deadline=ctx.now + timedelta(days=row.no_heavy_work_days),
        )  # fmt: skip
    elif row.no_heavy_work_rest_of_day:
        add_condition(
            ctx, patient.id, "no_heavy_work", (row.rule,), deadline=next_midnight(ctx.now)
        )


def combined_progress(
    ctx: ActionContext, patient: str, tid: str, combined: dict[str, bool]
) -> None:
    """Record a combined treatment's conditions; all fulfilled -> healed (A-S-24)."""
    ctx.emit(
        "condition.changed",
        {"character": patient, "kind": "trauma", "id": tid, "data": {"combined": combined}},
        ("A-S-24",),
    )
    if all(combined.values()):
        remove_condition(ctx, patient, "trauma", ("A-S-24",), cid=tid)
