"""The exact odds of a check with a ruleset's criticals.

* fantasy-server: ``check_dice`` (1d20) + bonus against a threshold; a natural 20 always
  succeeds and a natural 1 always fails (S-CRIT-01..03), a critical success on a
  repeated attempt is a plain success (S-CRIT-06); opposed rolls follow S-CRIT-04 and the
  tie rule (A-S-14). Each natural is judged by the ruleset's own
  :func:`~lazaretto.rulesets.fantasy_server.checks.judge`.
* ide4-survival: d100 read against the band table at a difficulty — Triumph, Success,
  Medium, Failure, Tragedy (A-I-01: the table is the ruleset's placeholder; I-TRAVEL-09,
  A-I-22: a Triumph may be declared to count as a Success).

The rulesets with checks and criticals are listed in :data:`CHECK_RULESETS`;
warhammer-larp, zone-larp and dnd5e-injuries make no checks of this kind.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, cast

from lazaretto.core.dice import parse
from lazaretto.odds import params as ruleset_params
from lazaretto.odds.result import OUTCOME, Event, Odds, Outcome, Text, tally, total

if TYPE_CHECKING:
    from lazaretto.rulesets.fantasy_server.params import FantasyParams, Threshold, ThresholdName

CHECK_RULESETS = ("fantasy-server", "ide4-survival")
"""Rulesets whose checks have criticals (or Triumph/Tragedy) to compute odds for."""

FANTASY_OUTCOMES = {
    "critical_success": Text("critical success", "критический успех"),
    "success": Text("success", "успех"),
    "failure": Text("failure", "провал"),
    "critical_failure": Text("critical failure", "критический провал"),
}
SUCCESS = Text("success", "успех")
CRITICAL = Text("a critical (either kind)", "критический результат (любой)")
PLACEHOLDER_BANDS = Text(
    "the band table is the ruleset's placeholder, not from an IDE4 document (A-I-01)",
    "таблица полос — заглушка набора правил, не из документа IDE4 (A-I-01)",
)


def fantasy_check_odds(
    bonus: int,
    threshold: int | str,
    *,
    reroll: bool = False,
    overrides: ruleset_params.Overrides = None,
) -> Odds:
    """A fantasy-server check: ``check_dice + bonus`` against ``threshold``.

    Args:
        bonus: everything added to the die: the stat with artifacts, modifiers, withdrawal.
        threshold: a number, or ``medium`` / ``hard`` / ``heavy`` (A-S-02).
        reroll: a repeated attempt, where a critical success is a plain one (S-CRIT-06).
        overrides: campaign parameter overrides (e.g. the critical naturals).
    """
    p = ruleset_params.fantasy(overrides)
    counts = judged(bonus, p.threshold(_threshold(threshold)), p, reroll=reroll)
    outcomes = tuple(Outcome(k, label, counts[k]) for k, label in FANTASY_OUTCOMES.items())
    label = p.threshold_label(_threshold(threshold))
    rules = ["A-S-01", "A-S-02", "S-CRIT-01", "S-CRIT-02", "S-CRIT-03"]
    if reroll:
        rules.append("S-CRIT-06")
    return Odds(
        question=Text(
            f"{p.check_dice} {bonus:+} vs {label}" + (" (repeated attempt)" if reroll else ""),
            f"{p.check_dice} {bonus:+} против {label}" + (" (переброс)" if reroll else ""),
        ),
        axis=OUTCOME,
        outcomes=outcomes,
        events=(
            Event("success", SUCCESS, counts["critical_success"] + counts["success"]),
            Event("critical", CRITICAL, counts["critical_success"] + counts["critical_failure"]),
        ),
        rule_ids=tuple(rules),
    )


def judged(bonus: int, limit: int, p: FantasyParams, *, reroll: bool) -> dict[str, Fraction]:
    """Each key of :data:`FANTASY_OUTCOMES` → its chance: every natural of the check die
    judged by the ruleset's :func:`~lazaretto.rulesets.fantasy_server.checks.judge`."""
    from lazaretto.rulesets.fantasy_server.checks import judge

    def verdict(natural: int) -> str:
        crit, success, _ = judge(natural, natural + bonus, limit, p, reroll=reroll)
        word = "success" if success else "failure"
        return f"critical_{word}" if crit else word

    counts = tally((verdict(n), chance) for n, chance in parse(p.check_dice).distribution().items())
    return {key: counts.get(key, Fraction(0)) for key in FANTASY_OUTCOMES}


def fantasy_contest_odds(
    bonus: int, defender_bonus: int, *, overrides: ruleset_params.Overrides = None
) -> Odds:
    """A fantasy-server opposed roll: who wins, criticals and the tie rule included
    (S-CRIT-02..04, A-S-14, A-S-18)."""
    from lazaretto.rulesets.fantasy_server.checks import p_active_wins, tie_winner

    p = ruleset_params.fantasy(overrides)
    won = p_active_wins(bonus, defender_bonus, p)
    ties = tie_winner(p)
    return Odds(
        question=Text(
            f"{p.check_dice} {bonus:+} against {p.check_dice} {defender_bonus:+}",
            f"{p.check_dice} {bonus:+} против {p.check_dice} {defender_bonus:+}",
        ),
        axis=OUTCOME,
        outcomes=(
            Outcome("active", Text("the roller wins", "побеждает бросающий"), won),
            Outcome("defender", Text("the defender wins", "побеждает защищающийся"), 1 - won),
        ),
        events=(Event("success", SUCCESS, won),),
        notes=(
            Text(
                f"equal totals go to the {'defender' if ties == 'defender' else 'roller'}",
                "равные суммы — в пользу "
                + ("защищающегося" if ties == "defender" else "бросающего"),
            ),
        ),
        rule_ids=("S-CRIT-02", "S-CRIT-03", "S-CRIT-04", "A-S-14", "A-S-18"),
    )


def ide4_check_odds(
    difficulty: int,
    *,
    triumph_counts_as_success: bool = False,
    overrides: ruleset_params.Overrides = None,
) -> Odds:
    """An ide4-survival d100 check at ``difficulty`` (after the states' shifts), read
    against the band table (A-I-01, A-I-02)."""
    from lazaretto.rulesets.ide4_survival import RULESET
    from lazaretto.rulesets.ide4_survival.checks import CHECK_DIE, declared_outcome
    from lazaretto.rulesets.ide4_survival.d100 import band_row, is_success, row_outcome
    from lazaretto.rulesets.ide4_survival.params import OUTCOMES

    p = ruleset_params.ide4(overrides)
    row = band_row(p.band_table, difficulty)  # found once; every roll is read on it
    counts = tally(
        (
            declared_outcome(row_outcome(roll, row), triumph_downgraded=triumph_counts_as_success),
            chance,
        )
        for roll, chance in parse(CHECK_DIE).distribution().items()
    )
    outcomes = tuple(
        Outcome(o, Text(*RULESET.texts[f"outcome:{o}"]), counts.get(o, Fraction(0)))
        for o in OUTCOMES
    )
    notes = [PLACEHOLDER_BANDS]
    if row.difficulty != difficulty:
        notes.append(
            Text(
                f"difficulty {difficulty} is read on the table's row {row.difficulty}",
                f"сложность {difficulty} читается по строке таблицы {row.difficulty}",
            )
        )
    rules = ["A-I-01", "A-I-02"]
    if triumph_counts_as_success:
        rules += ["I-TRAVEL-09", "A-I-22"]
    return Odds(
        question=Text(
            f"{CHECK_DIE} at difficulty [{difficulty}]"
            + (", Triumph counts as Success" if triumph_counts_as_success else ""),
            f"{CHECK_DIE} при сложности [{difficulty}]"
            + (", Триумф считается Успехом" if triumph_counts_as_success else ""),
        ),
        axis=OUTCOME,
        outcomes=outcomes,
        events=(
            Event(
                "success", SUCCESS, total(o.probability for o in outcomes if is_success(str(o.key)))
            ),
        ),
        notes=tuple(notes),
        rule_ids=tuple(rules),
    )


def _threshold(value: int | str) -> Threshold:
    """A threshold as typed: digits are a number, anything else a name (A-S-02)."""
    from lazaretto.core.errors import InvalidInput

    if isinstance(value, int):
        return value
    text = value.strip().lower()
    if text.lstrip("-").isdigit():
        return int(text)
    if text not in ("medium", "hard", "heavy"):
        raise InvalidInput(
            f"Threshold {value!r}: give a number or medium, hard, heavy (A-S-02)",
            ru=f"Порог {value!r}: укажите число или medium, hard, heavy (A-S-02)",
        )
    return cast("ThresholdName", text)
