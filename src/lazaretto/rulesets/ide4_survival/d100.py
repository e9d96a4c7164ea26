"""The core IDE4 d100 check, as far as rules/004 needs it — a parameterised stand-in.

**Not from our documents.** rules/004 leans on the core check of IDE4 (a d100 roll with
the outcomes Triumph / Success / Medium / Failure / Tragedy, difficulty written [N],
difficulty shifts, after-roll energy dice), which is defined in a chapter we do not
have. This module implements checklist-004's default for it (A-I-01..03):

* outcomes are the five categories, best first (:data:`OUTCOMES`);
* a difficulty is an integer; shifts add to it and "+" is harder (A-I-02);
* the resolver is pluggable (``check_resolver``): ``manual`` — the GM enters the
  outcome of the table roll; ``band_table`` — d100 is rolled (recorded) and read
  against ``band_table`` in ``params.yaml``, a clearly marked placeholder;
* a reroll rolls the whole check again and keeps the new result (``reroll_policy``);
* after-roll energy dice have a limit (base 3; "sleep-deprived" lowers it, never below
  1); with the band table each die's value is taken off the d100 roll (placeholder).

The state shifts come from the one condition table (I-GEN-02, I-STATE-01..05): a state
counts once, different states add up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from lazaretto.core.character import Character
from lazaretto.rulesets.ide4_survival.params import OUTCOMES, Band, IdeParams, Outcome
from lazaretto.rulesets.ide4_survival.state import Case, ShiftItem, Survivor
from lazaretto.rulesets.ide4_survival.tables import Disease, Shift, condition_table

PHYSICAL_TAGS = {"physical", "long_physical", "movement", "run", "climb", "swim", "strength"}
MOVEMENT_TAGS = {"movement", "run", "climb", "swim"}
SUCCESSES = ("triumph", "success")


def rank(outcome: str) -> int:
    """0 for Triumph … 4 for Tragedy."""
    return OUTCOMES.index(outcome)


def is_success(outcome: str | None) -> bool:
    """Triumph or Success ("a successful check")."""
    return outcome in SUCCESSES


def is_failure(outcome: str | None) -> bool:
    """Failure or Tragedy."""
    return outcome in ("failure", "tragedy")


def band_row(table: list[Band], difficulty: int) -> Band:
    """The band row for ``difficulty``, clamped to the table's ends."""
    rows = sorted(table, key=lambda b: b.difficulty)
    below = [row for row in rows if row.difficulty <= difficulty]
    return below[-1] if below else rows[0]


def band_outcome(roll: int, difficulty: int, table: list[Band]) -> Outcome:
    """The outcome of a d100 ``roll`` (roll under) at ``difficulty`` (placeholder bands)."""
    return row_outcome(roll, band_row(table, difficulty))


def row_outcome(roll: int, row: Band) -> Outcome:
    """The outcome of a d100 ``roll`` (roll under) read on one band row."""
    for name, bound in (
        ("triumph", row.triumph),
        ("success", row.success),
        ("medium", row.medium),
        ("failure", row.failure),
    ):
        if roll <= bound:
            return name  # type: ignore[return-value]
    return "tragedy"


@dataclass(frozen=True)
class Request:
    """What a check is about, for matching shifts."""

    skill: str
    group: str | None
    tags: frozenset[str] = frozenset()
    fatigue_critical: bool = False
    visible_hunger: bool = False
    concentration_mode: bool = False
    extra: tuple[ShiftItem, ...] = field(default_factory=tuple)


def matches(target: str, req: Request) -> bool:
    """Whether a shift on ``target`` applies to the check ``req``."""
    kind, _, name = target.partition(":")
    if kind == "group":
        return req.group == name
    if kind == "skill":
        return req.skill.casefold() == name.casefold()
    if target == "long_physical":
        # I-STATE-04: short combat actions only when the GM declared fatigue critical
        return "long_physical" in req.tags or req.fatigue_critical
    if target == "physical":
        return bool(req.tags & PHYSICAL_TAGS) or req.group == "body"
    if target == "movement":
        return bool(req.tags & MOVEMENT_TAGS)
    return target in req.tags


def disease_shifts(case: Case, disease: Disease, req: Request, p: IdeParams, now: datetime) -> int:
    """The catalogue penalties of one case on ``req``, after treatments (A-I-17)."""
    if case.suppressed_until and now < case.suppressed_until and "penalties" in case.suppresses:
        return 0
    total = 0
    for pen in disease.penalties:
        if matches(pen.target, req):
            cut = case.reductions.get(pen.target, 0)
            amount = pen.amount
            total += max(0, amount - cut) if amount > 0 else amount
    if total and case.reductions.get("*"):
        total = max(0, total - case.reductions["*"])
    return total


def state_shifts(
    ch: Character,
    sv: Survivor,
    cases: list[tuple[Case, Disease]],
    req: Request,
    p: IdeParams,
    now: datetime,
) -> list[ShiftItem]:
    """Every difficulty shift ``ch``'s states give to the check ``req``."""
    table = condition_table()
    out: list[ShiftItem] = []
    seen: set[str] = set()
    for cond in ch.conditions:
        row = table.states.get(cond.kind)
        if row is None or cond.kind in seen:  # I-STATE-01: one state counts once
            continue
        seen.add(cond.kind)
        amount = sum(s.amount for s in row.shifts if matches(s.target, req))
        if cond.kind == "sleep_deprived" and req.concentration_mode and "concentration" in req.tags:
            amount += 1  # I-COND-07: the GM's per-scene choice
        if (
            cond.kind == "hungry"
            and req.visible_hunger
            and matches(f"skill:{p.negotiation_skill}", req)
        ):
            out.append(
                ShiftItem(
                    source="visible_hunger", amount=p.visible_hunger_shift, rules=["I-STATE-06"]
                )
            )
        if amount:
            out.append(
                ShiftItem(
                    source=cond.kind, amount=amount, rules=[row.rule, "I-STATE-02", "I-GEN-02"]
                )
            )
    sick = [(c, d) for c, d in cases if c.status == "sick"]
    if sick:
        top = max(sick, key=lambda cd: cd[0].stage)
        stage_amount = _stage_shift(top[0], top[1], req, p)
        if stage_amount:
            out.append(
                ShiftItem(
                    source=f"stage:{top[0].stage}",
                    amount=stage_amount,
                    rules=["I-COND-08", "I-DIS-06" if top[0].stage == 1 else "I-DIS-07"],
                )
            )
    for case, disease in sick:
        amount = disease_shifts(case, disease, req, p, now)
        if amount:
            out.append(
                ShiftItem(
                    source=f"disease:{case.disease}",
                    amount=amount,
                    rules=[disease.rule or "I-DIS-02", "A-I-17"],
                )
            )
    # I-LOAD-04/05: one load shift per check, however many of its movements match
    load_amount = max(
        (v for k, v in p.load_shifts.get(sv.load, {}).items() if matches(k, req)), default=0
    )
    if load_amount:
        rule = "I-LOAD-04" if sv.load == "loaded" else "I-LOAD-05"
        out.append(ShiftItem(source=f"load:{sv.load}", amount=load_amount, rules=[rule]))
    if sv.pace:
        pace = p.paces.get(sv.pace)
        if pace:
            amount = sum(v for k, v in pace.skill_shifts.items() if matches(f"skill:{k}", req))
            if amount:
                out.append(
                    ShiftItem(source=f"pace:{sv.pace}", amount=amount, rules=["I-TRAVEL-16"])
                )
    return out + list(req.extra)


def _stage_shift(case: Case, disease: Disease, req: Request, p: IdeParams) -> int:
    """I-DIS-06: stage 1 gives +1 to one group; I-DIS-07: from stage 2, +1 or +2 to the
    related checks (the disease's groups, or checks tagged ``related``)."""
    if case.stage <= 0:
        return 0
    if case.stage == 1:
        return 1 if req.group == case.stage1_group else 0
    related = "related" in req.tags or any(matches(s.target, req) for s in disease.penalties)
    related = related or req.group == case.stage1_group
    return (disease.stage2_shift or p.stage2_shift) if related else 0


def deprivation_cut(p: IdeParams) -> tuple[int, str]:
    """How much "sleep-deprived" lowers the energy limit per day, and the rule saying so:
    1 in the basic game (I-SLEEP-12), 2 in extended mode (I-SLEEP-13)."""
    if p.mode == "extended":
        return p.sleep_deprivation_penalty_extended, "I-SLEEP-13"
    return p.sleep_deprivation_penalty_basic, "I-SLEEP-12"


def energy_limit(ch: Character, sv: Survivor, p: IdeParams, concentration_mode: bool) -> int:
    """The after-roll energy-dice limit (A-I-03): base 3, lowered by "sleep-deprived"
    by 1 in the basic game and 2 in extended mode, never below the minimum (I-SLEEP-12/13)."""
    if not ch.has("sleep_deprived") or concentration_mode:
        return p.energy_limit_base
    cut = deprivation_cut(p)[0]
    days = max(1, sv.deprived_days) if p.sleep_deprivation_stacks else 1
    return max(p.energy_limit_min, p.energy_limit_base - cut * days)


def penalty_targets(disease: Disease) -> list[Shift]:
    """The catalogue penalties of a disease (for cards and queries)."""
    return list(disease.penalties)
