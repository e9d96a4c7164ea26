"""The dnd5e-injuries odds of a hit: no injury, or a light / medium / heavy one.

A hit injures a player character on a critical hit or when it drops them to 0 hit
points (D-COND-01, D-COND-02); an enemy only allows an injury attempt at or below half
its hit points (D-INF-02, A-D-06). The severity compares the damage with the creature's
combat caution (боевая осторожность): light below CC, medium from CC, heavy from 2 × CC
(D-SEV-01..04), and Equal Exchange turns heavy into medium (D-DEF-03, A-D-11). All of
it is the ruleset's own :mod:`~lazaretto.rulesets.dnd5e_injuries.caution`, the same
functions its ``injury-odds`` query uses; this module only takes the creature's numbers
directly instead of from a campaign.
"""

from __future__ import annotations

from lazaretto.core.dice import parse
from lazaretto.odds import params as ruleset_params
from lazaretto.odds.result import OUTCOME, Event, Odds, Outcome, Text


def injury_odds(
    damage: str,
    *,
    con: int,
    proficiency: int,
    level: int | None = None,
    cr: int | None = None,
    hit_dice: int | None = None,
    hp: int | None = None,
    hp_max: int | None = None,
    critical: bool = False,
    enemy: bool = False,
    equal_exchange: bool = False,
    overrides: ruleset_params.Overrides = None,
) -> Odds:
    """The odds of each injury outcome of a hit of ``damage`` on a creature.

    Args:
        damage: the damage expression (a critical hit's dice already doubled).
        con: the Constitution score (or the modifier, if the campaign says so, A-D-02).
        proficiency: the proficiency bonus.
        level: the character level; a monster gives ``cr`` or ``hit_dice`` instead.
        hp: hit points before the hit; None means unknown, so every hit counts.
        hp_max: maximum hit points (an enemy's half-HP line); defaults to ``hp``.
        critical: the hit is a critical hit (always an injury, D-COND-01).
        enemy: an enemy, injured only by an attacker's attempt (D-INF-02).
        equal_exchange: the defender uses Equal Exchange (D-DEF-03).

    Raises:
        DiceError: the damage expression is broken or too large.
        RuleViolation: a stat combat caution needs is missing (D-SEV-01).
    """
    from lazaretto.rulesets.dnd5e_injuries.caution import (
        OUTCOMES,
        combat_caution,
        fraction_text,
        thresholds,
    )
    from lazaretto.rulesets.dnd5e_injuries.caution import injury_odds as exact_odds
    from lazaretto.rulesets.dnd5e_injuries.queries import OUTCOME_LABELS

    p = ruleset_params.dnd(overrides)
    stats = {"con": con, "proficiency": proficiency}
    for name, value in (("level", level), ("cr", cr), ("hit_dice", hit_dice)):
        if value is not None:
            stats[name] = value
    caution = combat_caution("The creature", stats, p)
    expr = parse(damage)
    exact = exact_odds(
        expr.distribution(),
        caution.value,
        p,
        hp=hp,
        hp_max=hp_max if hp_max is not None else hp,
        critical=critical,
        enemy=enemy,
        equal_exchange=equal_exchange,
    )
    medium, heavy = (fraction_text(t) for t in thresholds(caution.value, p))
    hp_text = "?" if hp is None else str(hp)
    extra_en = (", critical hit" if critical else "") + (", enemy" if enemy else "")
    extra_ru = (", критический удар" if critical else "") + (", противник" if enemy else "")
    if equal_exchange:
        extra_en += ", Equal Exchange"
        extra_ru += ", равноценный обмен"
    rules = ["D-COND-01", "D-COND-02", "D-INF-02", "D-SEV-01", "D-SEV-02", "D-SEV-03", "D-SEV-04"]
    if equal_exchange:
        rules += ["D-DEF-03", "A-D-11"]
    return Odds(
        question=Text(
            f"{expr.text} against combat caution {caution.text()} (HP {hp_text}{extra_en})",
            f"{expr.text} против боевой осторожности {caution.text()} (хиты {hp_text}{extra_ru})",
        ),
        axis=OUTCOME,
        outcomes=tuple(Outcome(k, Text(*OUTCOME_LABELS[k]), exact[k]) for k in OUTCOMES),
        events=(Event("injury", Text("an injury", "травма"), 1 - exact["none"]),),
        notes=(
            Text(
                f"medium from {medium} damage, heavy from {heavy}",
                f"средняя от {medium} урона, тяжёлая от {heavy}",
            ),
        ),
        rule_ids=tuple(rules),
    )
