"""The fantasy-server crime odds: a theft, breaking a door open, a torture session.

* Theft (кража, S-CRIME-02..06): the thief's REF against the victim's PER + 3 (+6 when
  the victim sees the thief), opposed with the critical rules; a failed thief is caught
  red-handed and falls on a critical (A-S-13) — the ruleset's ``theft_odds_exact``.
* Lockpicking (взлом, S-CRIME-25..30): REF against 24 with lockpicks, STR against 30 or
  25 by force; firearms, explosives and acid need no roll but fail on a reinforced door.
  A critical failure wears the tool (S-BRK-09).
* Torture (пытки, S-TORT-01..05): up to four opposed rounds, the victim +3 a round; each
  won round buys one question, so the outcomes are the number of questions.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from lazaretto.core.errors import InvalidInput
from lazaretto.odds import params as ruleset_params
from lazaretto.odds.checks import FANTASY_OUTCOMES, judged
from lazaretto.odds.result import OUTCOME, Axis, Event, Odds, Outcome, Text, same

LockMethod = Literal[
    "lockpicks", "strength_unarmed", "strength_tool", "firearm", "explosives", "acid"
]
QUESTIONS = Axis("questions", Text("questions won", "вопросов"), numeric=True)
LOCK_OUTCOMES = {
    "critical_success": Text("opens (critical success)", "открыта (критический успех)"),
    "success": Text("opens", "открыта"),
    "failure": Text("stays shut", "не открыта"),
    "critical_failure": Text("stays shut (critical failure)", "не открыта (критический провал)"),
}
assert LOCK_OUTCOMES.keys() == FANTASY_OUTCOMES.keys()


def theft_odds(
    thief: int,
    victim: int,
    *,
    victim_sees: bool = False,
    overrides: ruleset_params.Overrides = None,
) -> Odds:
    """A theft: the thief's REF bonus ``thief`` against the victim's PER bonus ``victim``
    (both with artifacts and withdrawal; the +3 or +6 is added here)."""
    from lazaretto.rulesets.fantasy_server.crime import theft_odds_exact, victim_bonus

    p = ruleset_params.fantasy(overrides)
    bonus = victim_bonus(p, victim_sees)
    won, fell = theft_odds_exact(thief, victim + bonus, p)
    return Odds(
        question=Text(
            f"theft: REF {thief:+} against PER {victim:+} {bonus:+}"
            + (" (the victim sees the thief)" if victim_sees else ""),
            f"кража: REF {thief:+} против PER {victim:+} {bonus:+}"
            + (" (жертва видит вора)" if victim_sees else ""),
        ),
        axis=OUTCOME,
        outcomes=(
            Outcome("stolen", Text("stolen", "украдено"), won),
            Outcome("caught", Text("caught red-handed", "пойман с поличным"), 1 - won - fell),
            Outcome("fell", Text("caught and falls down", "пойман и падает"), fell),
        ),
        events=(Event("success", Text("success", "успех"), won),),
        rule_ids=("S-CRIME-02", "S-CRIME-05", "S-CRIME-06", "S-CRIT-04", "A-S-13", "A-S-14"),
    )


def lockpick_odds(
    stat: int,
    *,
    method: LockMethod = "lockpicks",
    threshold: int | None = None,
    reinforced: bool = False,
    reroll: bool = False,
    overrides: ruleset_params.Overrides = None,
) -> Odds:
    """Breaking a door open with ``method``: ``stat`` is the REF (lockpicks) or STR
    (force) bonus; ``threshold`` is the door's own, else the ruleset's default."""
    from lazaretto.rulesets.fantasy_server.lockpicking import (
        LOCK_RULE,
        LOCK_STAT,
        NO_ROLL,
        lock_threshold,
        opens_without_roll,
    )

    p = ruleset_params.fantasy(overrides)
    if method in NO_ROLL:
        opens = Fraction(int(opens_without_roll(method, reinforced)))
        door = Text(", a reinforced door", ", укреплённая дверь") if reinforced else same("")
        return Odds(
            question=Text(f"{method}, no roll{door.en}", f"{method}, без броска{door.ru}"),
            axis=OUTCOME,
            outcomes=(
                Outcome("success", LOCK_OUTCOMES["success"], opens),
                Outcome("failure", LOCK_OUTCOMES["failure"], 1 - opens),
            ),
            events=(Event("success", Text("the door opens", "дверь открыта"), opens),),
            notes=(_permission(),),
            rule_ids=("S-CRIME-25", "S-CRIME-30"),
        )
    limit = threshold if threshold is not None else lock_threshold(p, method, None)
    counts = judged(stat, limit, p, reroll=reroll)
    stat_name = LOCK_STAT[method]
    rules = [LOCK_RULE[method], "S-CRIT-01", "S-CRIT-02", "S-CRIT-03", "S-BRK-09"]
    if threshold is not None:
        rules.append("S-CRIME-26")
    if reroll:
        rules.append("S-CRIT-06")
    return Odds(
        question=Text(
            f"{method}: {p.check_dice} {stat_name} {stat:+} vs {limit}",
            f"{method}: {p.check_dice} {stat_name} {stat:+} против {limit}",
        ),
        axis=OUTCOME,
        outcomes=tuple(Outcome(k, label, counts[k]) for k, label in LOCK_OUTCOMES.items()),
        events=(
            Event(
                "success",
                Text("the door opens", "дверь открыта"),
                counts["critical_success"] + counts["success"],
            ),
            Event(
                "tool_wears",
                Text("the tool wears (critical failure)", "инструмент изнашивается (крит. провал)"),
                counts["critical_failure"],
            ),
        ),
        notes=() if method == "lockpicks" else (_permission(),),
        rule_ids=tuple(rules),
    )


def torture_odds(
    torturer: int,
    victim: int,
    *,
    rounds: int | None = None,
    overrides: ruleset_params.Overrides = None,
) -> Odds:
    """A torture session of ``rounds`` rounds (default: all the rules allow): the
    torturer's STR or DET bonus against the victim's WIL or DET bonus; how many
    questions are won."""
    from lazaretto.rulesets.fantasy_server.checks import p_active_wins
    from lazaretto.rulesets.fantasy_server.torture import resistance_bonus

    p = ruleset_params.fantasy(overrides)
    n = p.torture_max_rounds if rounds is None else rounds
    if not 1 <= n <= p.torture_max_rounds:
        raise InvalidInput(
            f"{n} rounds of torture: 1 to {p.torture_max_rounds} are allowed (S-TORT-05)",
            ru=f"{n} раундов пыток: можно от 1 до {p.torture_max_rounds} (S-TORT-05)",
        )
    wins = [p_active_wins(torturer, victim + resistance_bonus(k, p), p) for k in range(1, n + 1)]
    questions = [Fraction(1)]  # questions[q]: the chance of q won rounds so far
    for win in wins:
        questions = [
            (questions[q] if q < len(questions) else 0) * (1 - win)
            + (questions[q - 1] * win if q else 0)
            for q in range(len(questions) + 1)
        ]
    return Odds(
        question=Text(
            f"torture, {n} rounds: {torturer:+} against {victim:+}",
            f"пытки, раундов {n}: {torturer:+} против {victim:+}",
        ),
        axis=QUESTIONS,
        outcomes=tuple(Outcome(q, same(str(q)), pr) for q, pr in enumerate(questions)),
        events=tuple(
            Event(
                f"round_{k}",
                Text(
                    f"round {k} won (victim {resistance_bonus(k, p):+})",
                    f"раунд {k} выигран (жертва {resistance_bonus(k, p):+})",
                ),
                win,
            )
            for k, win in enumerate(wins, start=1)
        ),
        mean=sum(wins, Fraction(0)),
        rule_ids=("S-TORT-01", "S-TORT-02", "S-TORT-03", "S-TORT-04", "S-TORT-05", "S-CRIT-04"),
    )


def _permission() -> Text:
    return Text(
        "needs the GM's permission and notice (S-CRIME-25)",
        "только с разрешения и уведомления GM (S-CRIME-25)",
    )
