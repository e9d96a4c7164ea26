"""The ide4-survival sleep rolls (сон): how long a night lasts and what it does.

* Planning (I-SLEEP-02): the player rolls ``sleep_plan_dice`` (3d10) and picks one die;
  the odds are those of the highest (or lowest) die, as the party picks by rule.
* An interrupted night (I-SLEEP-04): ``sleep_interrupted_dice`` (2d10), the highest die
  is the hours slept, never more than planned; it costs calm points (I-CALM-11) and may
  count as a bad camp (A-I-11).

For every number of hours the ruleset's own
:func:`~lazaretto.rulesets.ide4_survival.sleep.sleep_effects` tells what the night does:
sleep-deprived (I-COND-07, A-I-10), rested (I-SLEEP-09), "tired" and "very tired" cured
(I-COND-05/06), calm restored (I-CALM-16).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Literal

from lazaretto.core.dice import parse
from lazaretto.core.dice.ast import Dice
from lazaretto.core.errors import InvalidInput
from lazaretto.odds import params as ruleset_params
from lazaretto.odds.result import Axis, Event, Odds, Text, mean_of, numeric_outcomes, tally, total

if TYPE_CHECKING:
    from lazaretto.rulesets.ide4_survival.params import IdeParams

HOURS = Axis("hours", Text("hours slept", "часов сна"), numeric=True)
CAMPS = {
    "normal": Text("normal camp", "нормальный лагерь"),
    "bad": Text("bad camp", "плохой лагерь"),
}
SleepCamp = Literal["normal", "bad"]


def sleep_odds(
    *,
    pick: Literal["highest", "lowest"] = "highest",
    camp: SleepCamp = "normal",
    overrides: ruleset_params.Overrides = None,
) -> Odds:
    """The hours a planned night lasts when the player picks the ``pick`` die of the
    planning roll, and what the night does in ``camp``."""
    p = ruleset_params.ide4(overrides)
    dice = _plain_dice(p.sleep_plan_dice, "sleep_plan_dice")
    keep: Literal["kh", "kl"] = "kh" if pick == "highest" else "kl"
    hours = parse(Dice(dice.count, dice.sides, keep, 1).notation).distribution()
    word_en, word_ru = ("highest", "наибольший") if pick == "highest" else ("lowest", "наименьший")
    return _night(
        hours,
        camp,
        p,
        Text(
            f"{dice.notation}, the {word_en} die picked, {CAMPS[camp].en}",
            f"{dice.notation}, выбран {word_ru} кубик, {CAMPS[camp].ru}",
        ),
        rules=("I-SLEEP-02", "I-SLEEP-03"),
    )


def interrupted_sleep_odds(
    planned: int, *, camp: SleepCamp = "normal", overrides: ruleset_params.Overrides = None
) -> Odds:
    """The hours slept on a night interrupted after ``planned`` hours were planned, and
    what the night does."""
    from lazaretto.rulesets.ide4_survival.sleep import interrupted_hours, spoiled_by_interruption

    p = ruleset_params.ide4(overrides)
    dice = _plain_dice(p.sleep_interrupted_dice, "sleep_interrupted_dice")
    if not 1 <= planned <= _plain_dice(p.sleep_plan_dice, "sleep_plan_dice").sides:
        raise InvalidInput(
            f"Planned hours {planned}: a night is planned from one die of "
            f"{p.sleep_plan_dice} (I-SLEEP-02)",
            ru=f"Запланировано {planned} ч: план сна — один кубик из {p.sleep_plan_dice} "
            "(I-SLEEP-02)",
        )
    highest = parse(Dice(dice.count, dice.sides, "kh", 1).notation).distribution()
    hours = tally((interrupted_hours(die, planned), chance) for die, chance in highest.items())
    night = "bad" if spoiled_by_interruption(True, p) else camp
    cost = -p.calm_events.get("interrupted_sleep", 0)
    odds = _night(
        hours,
        night,
        p,
        Text(
            f"{dice.notation} highest die, at most {planned} h planned, {CAMPS[camp].en}",
            f"{dice.notation}, наибольший кубик, не больше плана {planned} ч, {CAMPS[camp].ru}",
        ),
        rules=("I-SLEEP-04", "I-CALM-11", "A-I-11"),
    )
    notes = [Text(f"costs {cost} calm points", f"стоит очков спокойствия: {cost}")]
    if night != camp:
        notes.append(Text("counts as a bad camp (A-I-11)", "считается плохим лагерем (A-I-11)"))
    return Odds(
        question=odds.question,
        axis=odds.axis,
        outcomes=odds.outcomes,
        events=odds.events,
        mean=odds.mean,
        notes=(*notes, *odds.notes),
        rule_ids=odds.rule_ids,
    )


def _night(
    hours: dict[int, Fraction], camp: str, p: IdeParams, question: Text, rules: tuple[str, ...]
) -> Odds:
    """The odds of a night of ``hours`` in ``camp``, with what it does."""
    from lazaretto.rulesets.ide4_survival.sleep import SleepEffects, sleep_effects
    from lazaretto.rulesets.ide4_survival.tables import condition_table

    effects = {h: sleep_effects(h, camp, p) for h in hours}

    def chance(holds: Callable[[SleepEffects], bool]) -> Fraction:
        return total(pr for h, pr in hours.items() if holds(effects[h]))

    states = condition_table().states
    deprived, very_tired = (
        Text(states[k].name.en, states[k].name.ru) for k in ("sleep_deprived", "very_tired")
    )
    return Odds(
        question=question,
        axis=HOURS,
        outcomes=numeric_outcomes(hours),
        events=(
            Event("deprived", deprived, chance(lambda e: e.deprived)),
            Event(
                "rested",
                Text(
                    f"rested: removes {deprived.en.lower()}", f"выспался: снимает «{deprived.ru}»"
                ),
                chance(lambda e: e.rested),
            ),
            Event(
                "very_tired_cured",
                Text(f"ends {very_tired.en.lower()}", f"снимает «{very_tired.ru}»"),
                chance(lambda e: e.very_tired_cured),
            ),
            Event(
                "calm_restored",
                Text("calm restored", "спокойствие восстановлено"),
                chance(lambda e: e.calm_restored),
            ),
        ),
        mean=mean_of(hours),
        rule_ids=(*rules, "I-COND-05", "I-COND-06", "I-COND-07", "I-SLEEP-09", "I-CALM-16"),
    )


def _plain_dice(expression: str, field: str) -> Dice:
    """The one plain ``NdS`` term of a sleep parameter (its dice are read one by one)."""
    tree = parse(expression).tree
    if not isinstance(tree, Dice) or tree.keep is not None:
        raise InvalidInput(
            f"{field} = {expression!r}: the sleep rolls need plain NdS dice",
            ru=f"{field} = {expression!r}: для сна нужны простые кубики NdS",
        )
    return tree
