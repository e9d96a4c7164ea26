"""Combat caution (боевая осторожность), severity, and the exact injury odds.

Pure functions of the character's stats and the parameters, used by the actions and
the queries alike:

* :func:`combat_caution` — CON + proficiency + level/2 (D-SEV-01, A-D-02);
* :func:`thresholds`, :func:`severity` — light below CC, medium from CC, heavy from 2 × CC
  (D-SEV-02..04, A-D-16, A-D-17);
* :func:`injury_odds` — exact probabilities of no injury / light / medium / heavy for a
  damage distribution (the dice engine's Fractions).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from lazaretto.rulesets.dnd5e_injuries.common import refuse
from lazaretto.rulesets.dnd5e_injuries.params import DndParams
from lazaretto.rulesets.dnd5e_injuries.tables import Severity

OUTCOMES = ("none", "light", "medium", "heavy")


@dataclass(frozen=True)
class Caution:
    """A combat caution value and its three terms (level term after rounding)."""

    con: int
    proficiency: int
    level: Fraction
    level_source: str

    @property
    def value(self) -> Fraction:
        """CON + proficiency + level / divisor (D-SEV-01)."""
        return self.con + self.proficiency + self.level

    def text(self) -> str:
        """``19`` or ``12.5``: the value as a GM reads it."""
        return fraction_text(self.value)


def fraction_text(x: Fraction) -> str:
    """An integer as ``19``, a half as ``12.5``, anything else as ``a/b``."""
    if x.denominator == 1:
        return str(x.numerator)
    if x.denominator in (2, 4, 5, 10):
        return str(float(x))
    return f"{x.numerator}/{x.denominator}"


def combat_caution(name: str, stats: Mapping[str, int], p: DndParams) -> Caution:
    """The combat caution of a creature from its stats (D-SEV-01, A-D-02).

    Raises:
        RuleViolation: a stat it needs is missing (names it and how to set it).
    """
    missing = [s for s in ("con", "proficiency") if s not in stats]
    level_stat = "level"
    if "level" not in stats:
        level_stat = "cr" if p.caution_level_source_for_monsters == "cr_floor" else "hit_dice"
        if level_stat not in stats:
            missing.append(f"level (or {level_stat})")
    if missing:
        refuse(
            f"{name}'s combat caution needs {', '.join(missing)}",
            f"Для боевой осторожности {name} нужны: {', '.join(missing)}",
            "D-SEV-01",
            tip="Set them with `set-dnd-stats`.",
            tip_ru="Задайте их через `set-dnd-stats`.",
        )
    con = stats["con"]
    if p.caution_con_mode == "modifier":  # A-D-02a alternative: the modifier
        con = (con - 10) // 2
    half = Fraction(stats[level_stat], p.caution_level_divisor)
    if p.caution_level_rounding == "floor":  # A-D-02b
        half = Fraction(math.floor(half))
    elif p.caution_level_rounding == "ceil":
        half = Fraction(math.ceil(half))
    return Caution(con, stats["proficiency"], half, level_stat)


def thresholds(caution: Fraction, p: DndParams) -> tuple[Fraction, Fraction]:
    """The least damage that is medium (CC, D-SEV-03) and heavy (2 × CC, D-SEV-04)."""
    medium_min = caution * Fraction(str(p.severity_medium_min_cc))
    heavy_min = caution * Fraction(str(p.severity_heavy_min_cc))
    return medium_min, heavy_min


def severity(damage: int, caution: Fraction, p: DndParams) -> Severity:
    """Light if damage < CC (D-SEV-02); heavy if damage ≥ 2 × CC (D-SEV-04), which wins
    over medium (A-D-16); medium otherwise (D-SEV-03). Damage 0 is light (A-D-17)."""
    return graded(damage, *thresholds(caution, p))


def graded(damage: int, medium_min: Fraction, heavy_min: Fraction) -> Severity:
    """The severity of ``damage`` against thresholds already worked out (:func:`severity`
    does it for one hit; :func:`injury_odds` once for a whole distribution)."""
    if damage >= heavy_min:
        return "heavy"
    if damage >= medium_min:
        return "medium"
    return "light"


def exchanged(sev: Severity, p: DndParams) -> Severity:
    """Equal Exchange lowers the risk of a heavy injury (D-DEF-03, A-D-11)."""
    if p.equal_exchange_severity_effect == "downgrade_heavy_to_medium" and sev == "heavy":
        return "medium"
    return sev


def triggers_injury(
    damage: int,
    hp: int | None,
    hp_max: int | None,
    *,
    critical: bool,
    enemy: bool,
    p: DndParams,
) -> bool:
    """Whether a hit of ``damage`` gives an injury (a player character, D-COND-01/02)
    or allows an injury attempt (an enemy, D-INF-01/02, A-D-06).

    ``hp is None`` means the hit points are unknown: every hit counts.
    """
    if critical or hp is None:
        return True
    after = max(0, hp - damage)
    if not enemy:  # D-COND-02: dropping to 0
        return hp > p.injury_hp_trigger_self >= after
    line = Fraction(str(p.enemy_injury_hp_fraction)) * (hp_max or 0)
    if after > line:
        return False
    return p.enemy_injury_trigger == "any_hit_at_or_below" or hp > line


def injury_odds(
    distribution: Mapping[int, Fraction],
    caution: Fraction,
    p: DndParams,
    *,
    hp: int | None = None,
    hp_max: int | None = None,
    critical: bool = False,
    enemy: bool = False,
    equal_exchange: bool = False,
) -> dict[str, Fraction]:
    """The exact probability of each outcome (``none``, ``light``, ``medium``, ``heavy``)
    of a hit whose damage follows ``distribution`` (negative totals deal 0)."""
    limits = thresholds(caution, p)
    shares: dict[str, list[Fraction]] = {outcome: [] for outcome in OUTCOMES}
    for total, prob in distribution.items():
        damage = max(0, total)
        if not triggers_injury(damage, hp, hp_max, critical=critical, enemy=enemy, p=p):
            shares["none"].append(prob)
            continue
        sev = graded(damage, *limits)
        shares[exchanged(sev, p) if equal_exchange else sev].append(prob)
    return {outcome: _exact_sum(probs) for outcome, probs in shares.items()}


def _exact_sum(probabilities: list[Fraction]) -> Fraction:
    """A sum of Fractions over their common denominator (far cheaper than adding them)."""
    common = math.lcm(*(p.denominator for p in probabilities))
    return Fraction(sum(p.numerator * (common // p.denominator) for p in probabilities), common)
