"""Checks and criticals (Криты): the one place every roll of this ruleset is made.

A check is ``check_dice`` (1d20) + the stat (with worn artifacts) + modifiers, against
a threshold or against another check (A-S-01). The critical rules (S-CRIT) apply to
every check:

* a natural 20 is a critical success and always succeeds; a natural 1 is a critical
  failure and always fails (S-CRIT-01..03);
* after a critical failure the reroll rule may not be used (S-CRIT-05);
* a critical success on a repeated attempt counts as a plain success (S-CRIT-06);
* in an opposed roll where both sides rolled a critical of the same kind, the higher
  total wins; a critical success beats anything else (S-CRIT-04, A-S-18); equal
  totals go to the defender (A-S-14).

Every check emits ``check.rolled`` with the die, the modifiers and the verdict, so the
log explains each outcome. Modifiers that follow the character are applied here: the
withdrawal penalty (S-ADD-13), the −2 after a mutation (S-MUTT-02, used once) and the
ambush +20 on the first attack roll (S-STEALTH-06, used once).

A master may enter a die already rolled elsewhere (``natural``); otherwise the die is
rolled on the campaign's seeded stream.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from fractions import Fraction
from math import lcm
from typing import Any, Literal

from lazaretto.core.dice import parse
from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import InvalidInput
from lazaretto.rulesets.fantasy_server.common import fstate, params, refuse, require_master
from lazaretto.rulesets.fantasy_server.equipment import effective_stat
from lazaretto.rulesets.fantasy_server.params import FantasyParams, Threshold

Crit = Literal["success", "failure"] | None


@dataclass(frozen=True)
class Check:
    """One check as rolled and judged."""

    character: str
    purpose: str
    stat: str | None
    stat_value: int
    modifiers: dict[str, int]
    natural: int
    total: int
    threshold: int | None
    threshold_label: str | None
    crit: Crit
    success: bool | None
    reroll: bool
    entered: bool
    downgraded: bool

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able copy for event payloads."""
        return asdict(self)

    def short(self) -> str:
        """``14 [9+5]`` (the die, then the rest) for event texts; a critical success is
        marked ``✦``, a critical failure ``✖`` (the same in every language)."""
        mods = self.total - self.natural
        sign = "+" if mods >= 0 else "-"
        crit = {"success": " ✦", "failure": " ✖"}.get(self.crit or "", "")
        return f"{self.total} [{self.natural}{sign}{abs(mods)}]{crit}"


def classify(natural: int, p: FantasyParams) -> Crit:
    """Whether a die is a critical success or failure (S-CRIT-01, A-S-01)."""
    if natural in p.crit_success_naturals:
        return "success"
    if natural in p.crit_failure_naturals:
        return "failure"
    return None


def judge(
    natural: int, total: int, threshold: int | None, p: FantasyParams, *, reroll: bool = False
) -> tuple[Crit, bool | None, bool]:
    """(critical, success, downgraded) of a roll against ``threshold`` (S-CRIT-02/03/06)."""
    crit = classify(natural, p)
    downgraded = False
    if reroll and crit == "success":  # S-CRIT-06: just a success after a repeated attempt
        return None, True, True
    if crit == "success":
        return crit, True, downgraded  # S-CRIT-02
    if crit == "failure":
        return crit, False, downgraded  # S-CRIT-03
    if threshold is None:
        return None, None, downgraded
    ok = total >= threshold if p.success_if_total_gte_threshold else total > threshold
    return None, ok, downgraded


def die_bounds(p: FantasyParams) -> tuple[int, int]:
    """The smallest and largest natural of the check die."""
    expr = parse(p.check_dice)
    return expr.min(), expr.max()


@dataclass(frozen=True)
class Pending:
    """A check rolled but not yet recorded: a handler may still refuse the action."""

    check: Check
    consumed: tuple[str, ...]
    rule_ids: tuple[str, ...]


def roll_check(
    ctx: ActionContext,
    char_id: str,
    stat: str | None,
    purpose: str,
    *,
    threshold: Threshold | None = None,
    modifiers: dict[str, int] | None = None,
    natural: int | None = None,
    reroll: bool = False,
    slot_set: str = "rp",
    no_reroll_rule: str | None = None,
    rule_ids: tuple[str, ...] = (),
) -> Check:
    """Roll one check of ``char_id`` and record it (see :func:`make_check`)."""
    return record_check(
        ctx,
        make_check(
            ctx,
            char_id,
            stat,
            purpose,
            threshold=threshold,
            modifiers=modifiers,
            natural=natural,
            reroll=reroll,
            slot_set=slot_set,
            no_reroll_rule=no_reroll_rule,
            rule_ids=rule_ids,
        ),
    )


def record_check(ctx: ActionContext, pending: Pending) -> Check:
    """Record a rolled check (``check.rolled``): its die goes into this event."""
    ctx.emit(
        "check.rolled",
        {
            **pending.check.to_dict(),
            "consumed": list(pending.consumed),
            "summary": pending.check.short(),
            "against": pending.check.threshold_label or "opposed",
            "result": verdict(pending.check),
        },
        pending.rule_ids,
    )
    return pending.check


def make_check(
    ctx: ActionContext,
    char_id: str,
    stat: str | None,
    purpose: str,
    *,
    threshold: Threshold | None = None,
    modifiers: dict[str, int] | None = None,
    natural: int | None = None,
    reroll: bool = False,
    slot_set: str = "rp",
    no_reroll_rule: str | None = None,
    rule_ids: tuple[str, ...] = (),
) -> Pending:
    """Roll (or take the entered die of) one check of ``char_id``; nothing is recorded
    until :func:`record_check`, so the handler may still refuse.

    Args:
        stat: the stat added (None: the die alone, e.g. a GM's flat roll).
        purpose: what the check is for; the reroll rule looks at the last check of the
            same character and purpose.
        threshold: a number or a named threshold (A-S-02); None for opposed rolls.
        natural: a die already rolled elsewhere (masters only).
        reroll: this is a repeated attempt (правило переброса).
        slot_set: which worn artifacts count: ``combat`` or ``rp`` (S-ART-19).
        no_reroll_rule: the rule that forbids any reroll here (S-CRIME-21, S-PHEAL-12).
    """
    p = params(ctx)
    st = fstate(ctx)
    ch = ctx.character(char_id)
    if reroll:
        if no_reroll_rule:
            refuse(
                f"No reroll is allowed for this roll of {ch.name}",
                f"Для этого броска {ch.name} переброс невозможен",
                no_reroll_rule,
                "S-CRIT-05",
            )
        last = st.last_checks.get(f"{char_id}:{purpose}")
        if last is None:
            refuse(
                f"{ch.name} has no earlier {purpose} roll to repeat",
                f"У {ch.name} нет предыдущего броска ({purpose}) для переброса",
                "S-CRIT-05",
            )
        if last == "failure":
            refuse(
                f"{ch.name}'s last {purpose} roll was a critical failure: it cannot be rerolled",
                f"Последний бросок {ch.name} ({purpose}) — критическая неудача: переброс нельзя",
                "S-CRIT-05",
                "S-CRIT-03",
            )
    mods = dict(modifiers or {})
    consumed: list[str] = []
    applied_rules: list[str] = []
    penalty = st.addiction(char_id).withdrawal
    if penalty:
        mods["withdrawal"] = penalty  # S-ADD-13: all rolls
        applied_rules.append("S-ADD-13")
    nxt = ch.condition("next_roll_penalty")
    if nxt is not None:
        mods["mutation_discomfort"] = int(nxt.data.get("value", 0))  # S-MUTT-02
        consumed.append("next_roll_penalty")
        applied_rules.append("S-MUTT-02")
    ambush = ch.condition("ambush_ready")
    if ambush is not None and purpose == "attack":
        mods["ambush"] = int(ambush.data.get("bonus", 0))  # S-STEALTH-06: the first roll
        consumed.append("ambush_ready")
        applied_rules.append("S-STEALTH-06")
    stat_value = 0
    if stat is not None and p.check_adds_stat:
        stat_value = effective_stat(st, ch, stat, slot_set, p)
    add = stat_value + sum(mods.values())
    if natural is not None:
        require_master(ctx, "enter a die rolled elsewhere", "вводить уже брошенный кубик")
        low, high = die_bounds(p)
        if not low <= natural <= high:
            raise InvalidInput(
                f"A natural {natural} is impossible on {p.check_dice} ({low}..{high})",
                ru=f"На {p.check_dice} не может выпасть {natural} ({low}..{high})",
            )
        nat, total, entered = natural, natural + add, True
    else:
        sign = "+" if add >= 0 else "-"
        result = ctx.roll(f"{p.check_dice} {sign} {abs(add)}")
        nat, total, entered = result.dice[0].total, result.total, False
    limit = None if threshold is None else p.threshold(threshold)
    crit, success, downgraded = judge(nat, total, limit, p, reroll=reroll)
    check = Check(
        character=char_id,
        purpose=purpose,
        stat=stat,
        stat_value=stat_value,
        modifiers=mods,
        natural=nat,
        total=total,
        threshold=limit,
        threshold_label=None if threshold is None else p.threshold_label(threshold),
        crit=crit,
        success=success,
        reroll=reroll,
        entered=entered,
        downgraded=downgraded,
    )
    crit_rules = {"success": ("S-CRIT-01", "S-CRIT-02"), "failure": ("S-CRIT-01", "S-CRIT-03")}
    ids = [*rule_ids, *crit_rules.get(crit or "", ()), *applied_rules]
    if downgraded:
        ids.append("S-CRIT-06")
    return Pending(check, tuple(consumed), tuple(dict.fromkeys(ids)))


def verdict(check: Check) -> str:
    """``success``, ``failure``, ``critical success``, ``critical failure`` or ``opposed``."""
    if check.success is None:
        return "opposed"
    word = "success" if check.success else "failure"
    return f"critical {word}" if check.crit else word


Side = Literal["active", "defender"]


def contest(active: Check, defender: Check, p: FantasyParams) -> tuple[Side, tuple[str, ...]]:
    """Who wins an opposed roll, and the rules that decided it (S-CRIT-04, A-S-14/18)."""
    if active.crit is not None and active.crit == defender.crit:
        if active.total != defender.total:  # S-CRIT-04: both critical -> higher total
            return ("active" if active.total > defender.total else "defender"), ("S-CRIT-04",)
        return tie_winner(p), ("S-CRIT-04",)
    if active.crit == "success" or defender.crit == "failure":
        return "active", ("S-CRIT-02",) if active.crit == "success" else ("S-CRIT-03",)
    if defender.crit == "success" or active.crit == "failure":
        return "defender", ("S-CRIT-02",) if defender.crit == "success" else ("S-CRIT-03",)
    if active.total == defender.total:
        return tie_winner(p), ()
    return ("active" if active.total > defender.total else "defender"), ()


def tie_winner(p: FantasyParams) -> Side:
    """Equal totals (A-S-14): the defending side unless the campaign says otherwise."""
    return "defender" if p.opposed_tie_winner == "defender" else "active"


# --- exact odds (read-only calculators) ---------------------------------------------------


def _naturals(p: FantasyParams) -> dict[int, Fraction]:
    return parse(p.check_dice).distribution()


def p_success(add: int, threshold: int, p: FantasyParams) -> Fraction:
    """The exact chance that ``check_dice + add`` succeeds against ``threshold``."""
    return sum(
        (pr for nat, pr in _naturals(p).items() if judge(nat, nat + add, threshold, p)[1]),
        Fraction(0),
    )


def opposed_pairs(
    add_active: int, add_defender: int, p: FantasyParams
) -> tuple[list[tuple[Check, Check, int]], int]:
    """Every pair of naturals of an opposed roll as two unrecorded checks with its weight,
    and the total weight: a pair's chance is ``weight / total``.

    Weights are integers (the dice's ways), so summing them costs no Fraction arithmetic.
    """
    dist = _naturals(p)
    ways = lcm(*(pr.denominator for pr in dist.values()))
    sides = [(n, int(pr * ways)) for n, pr in dist.items()]
    active = [(bare(n, n + add_active, p), w) for n, w in sides]
    defender = [(bare(n, n + add_defender, p), w) for n, w in sides]
    pairs = [(a, d, wa * wd) for a, wa in active for d, wd in defender]
    return pairs, ways * ways


def p_active_wins(add_active: int, add_defender: int, p: FantasyParams) -> Fraction:
    """The exact chance that the active side wins an opposed roll (crit rules included)."""
    pairs, total = opposed_pairs(add_active, add_defender, p)
    won = sum(w for a, d, w in pairs if contest(a, d, p)[0] == "active")
    return Fraction(won, total)


def bare(natural: int, total: int, p: FantasyParams) -> Check:
    """An unrecorded check with just a die and a total (for exact odds)."""
    crit = classify(natural, p)
    return Check("", "", None, 0, {}, natural, total, None, None, crit, None, False, False, False)
