"""A disease's course (течение болезни): the outcome of the infection check (I-DIS-03,
A-I-18), the end-of-day Immunity check that moves the stage (I-DIS-04, A-I-17) and Black
Torpor's daily Will check (I-CAT-06). Both infection and progression checks can be
rerolled: the consequence is taken back and applied again (A-I-01).
"""

from __future__ import annotations

from lazaretto.core.engine import ActionContext
from lazaretto.rulesets.ide4_survival.checks import make_check, purpose
from lazaretto.rulesets.ide4_survival.common import disease, gain, lose, params, refuse, state
from lazaretto.rulesets.ide4_survival.diseases import (
    DEATH,
    become_sick,
    cure,
    die,
    expose,
    record,
    set_stage,
)
from lazaretto.rulesets.ide4_survival.state import CheckRecord


def _undo_infection(ctx: ActionContext, rec: CheckRecord) -> None:
    case = state(ctx).cases.get(str(rec.payload.get("case")))
    if case is None or case.status not in ("sick", "resisted"):
        return
    lose(
        ctx,
        case.character,
        "sick",
        ("check rerolled", "проверка переброшена"),
        ("A-I-01",),
        key=case.id,
    )
    lose(
        ctx,
        case.character,
        "poisoned",
        ("check rerolled", "проверка переброшена"),
        ("A-I-01",),
        key=case.id,
    )
    for t in state(ctx).timers_for(case.character, DEATH):
        if t.payload.get("case") == case.id:
            ctx.cancel(t.id)
    record(
        ctx,
        "case.stage_changed",
        case.model_copy(update={"status": "incubating", "stage": 0, "death_at": None}),
        ("A-I-01",),
        before=case.stage,
        after=0,
    )


@purpose("infection", undo=_undo_infection)
def _infection(ctx: ActionContext, rec: CheckRecord) -> None:
    p = params(ctx)
    case = state(ctx).cases.get(str(rec.payload.get("case")))
    if case is None or case.status not in ("incubating", "resisted"):
        return
    stage = p.infection_outcome_map.get(rec.outcome or "", 0)
    if not stage:
        record(ctx, "case.resisted", case.model_copy(update={"status": "resisted"}), ("I-DIS-03",))
        lose(ctx, case.character, "incubating", ("resisted", "устоял"), ("I-IMM-01",), key=case.id)
        return
    neighbour = rec.payload.get("neighbour")
    if rec.outcome == "tragedy" and rec.payload.get("choice") == "infect_neighbour" and neighbour:
        stage = p.infection_outcome_map.get("failure", 1)  # A-I-18: the GM's other reading
        expose(ctx, str(neighbour), case.disease, case.difficulty, f"neighbour of {case.character}")
    become_sick(ctx, case, stage, ("I-DIS-03", "A-I-18"))


def _undo_progress(ctx: ActionContext, rec: CheckRecord) -> None:
    case = state(ctx).cases.get(str(rec.payload.get("case")))
    if case is None:
        return
    if case.status == "dead":
        refuse(
            "The character died of this check; it cannot be rerolled",
            "Персонаж умер по этой проверке; её не перебросить",
            "I-DIS-09",
        )
    before = int(rec.payload.get("stage_before", case.stage))
    if case.status == "cured":
        case = become_sick(
            ctx, case.model_copy(update={"status": "incubating"}), before, ("A-I-01",)
        )
    elif case.stage != before:
        set_stage(ctx, case, before, ("A-I-01",))


@purpose("progress", undo=_undo_progress)
def _progress(ctx: ActionContext, rec: CheckRecord) -> None:
    p = params(ctx)
    case = state(ctx).cases.get(str(rec.payload.get("case")))
    if case is None or case.status != "sick":
        return
    delta = p.daily_progress_map.get(rec.outcome or "", 0)
    if delta > 0 and case.no_worsening:
        delta = 0  # I-DIS-11: the treatment stopped the worsening
    d = disease(ctx, case.disease)
    if delta < 0 and case.stage + delta < 1:
        cure(ctx, case, (f"{d.name.en} passed", f"{d.name.ru} прошла"), ("I-DIS-04", "A-I-17"))
    elif delta > 0 and case.stage == 4:
        if p.stage4_failure_result == "death":
            die(
                ctx,
                case.character,
                case.disease,
                (f"{d.name.en}, deadly stage", f"{d.name.ru}, смертельная стадия"),
                ("I-DIS-09", "I-DIS-04"),
            )
        else:
            gain(
                ctx,
                case.character,
                "irreversible",
                (f"{d.name.en}: irreversible consequence", f"{d.name.ru}: необратимое последствие"),
                ("I-DIS-09",),
                key=case.id,
            )
            cure(
                ctx,
                case,
                ("survived the deadly stage", "пережил смертельную стадию"),
                ("I-DIS-09",),
            )
    elif delta:
        set_stage(ctx, case, case.stage + delta, ("I-DIS-04", "A-I-17"))


def daily_progress(ctx: ActionContext) -> None:
    """End of the day (I-DAY-09): each sick case checks Immunity (I-DIS-04), Black Torpor
    checks Will d100 > 30 (I-CAT-06)."""
    p = params(ctx)
    for case in [c for c in state(ctx).cases.values() if c.status == "sick"]:
        if not ctx.character(case.character).alive:
            continue
        d = disease(ctx, case.disease)
        make_check(
            ctx,
            case.character,
            p.immunity_skill,
            base=case.difficulty + case.check_modifier,
            tags=("related",),
            purpose_name="progress",
            payload={"case": case.id, "stage_before": case.stage},
            rule_ids=("I-DIS-04", "I-DAY-09", "A-I-17"),
        )
        if d.daily_will_target is not None:
            target = (
                p.black_torpor_will_target
                if case.disease == "black_torpor"
                else d.daily_will_target
            )
            will = ctx.roll(f"1d100 > {target}")
            make_check(
                ctx,
                case.character,
                p.will_skill,
                outcome="success" if will.success else "failure",
                roll=will.total,
                payload={"case": case.id, "target": target},
                rule_ids=(d.rule or "I-CAT-06", "A-I-20"),
            )
            if not will.success:
                ctx.emit(
                    "disease.rage",
                    {
                        "character": case.character,
                        "case": case.id,
                        "roll": will.total,
                        "target": target,
                    },
                    (d.rule or "I-CAT-06", "A-I-20"),
                )
