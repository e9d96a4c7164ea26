"""Artifact stat bonuses (О бонусе к характеристикам): pure calculators (S-STAT, S-ART-20).

The bonuses of every artifact on one stat are summed into points (S-STAT-04), and the
points buy stat increases by the point-investment rule (S-STAT-03): a point of a stat
costs 1, 2, 3 or 4 artifact points by band (0–10, 11–14, 15–21, 22+). Three readings
exist (A-S-03), chosen by ``stat_bonus_mode``:

* ``stepwise_target_band`` (default) — each increase is priced by the band of the value
  being bought; the only reading that reproduces all three worked examples (S-STAT-10);
* ``divide_by_base_band`` — the source's shortcut table literally: floor(points /
  cost of the base value's band) (S-STAT-05/06);
* ``stepwise_current_band`` — each increase priced by the band of the value before it.

Points too few to buy the next increase stay in reserve (в запасе, S-STAT-08); the
increase is capped at +3 (S-STAT-09) and points beyond the cap are wasted (A-S-04).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Band = tuple[int, int | None, int]
DEFAULT_BANDS: tuple[Band, ...] = ((0, 10, 1), (11, 14, 2), (15, 21, 3), (22, None, 4))
MODES = ("stepwise_target_band", "divide_by_base_band", "stepwise_current_band")


def band_cost(value: int, bands: Sequence[Band] = DEFAULT_BANDS) -> int:
    """Artifact points one stat point costs in the band holding ``value`` (S-STAT-03).

    Values below the first band are priced as the first band.
    """
    for low, high, cost in bands:
        if value >= low and (high is None or value <= high):
            return cost
    return bands[0][2]


@dataclass(frozen=True)
class StatBonus:
    """The result of adding ``points`` of artifact bonus to a ``base`` stat.

    Attributes:
        base: the stat without artifacts.
        points: the summed artifact bonus (S-STAT-04).
        value: the stat with the artifacts.
        gained: ``value - base`` (never above the cap).
        reserve: points kept for later artifacts (S-STAT-08).
        wasted: points beyond the cap, with no effect (S-STAT-09, A-S-04).
        steps: each increase bought, as (from, to, cost).
        mode: the reading used (A-S-03).
    """

    base: int
    points: int
    value: int
    gained: int
    reserve: int
    wasted: int
    steps: tuple[tuple[int, int, int], ...]
    mode: str

    @property
    def spent(self) -> int:
        """Points turned into stat increases."""
        return self.points - self.reserve - self.wasted


def apply_stat_bonus(
    base: int,
    points: int,
    *,
    mode: str = "stepwise_target_band",
    bands: Sequence[Band] = DEFAULT_BANDS,
    cap: int = 3,
) -> StatBonus:
    """Add ``points`` of artifact bonus to a stat of ``base`` (S-STAT-03..09).

    Examples (S-STAT-10, default mode): (11, 2) → 12; (11, 4) → 13; (9, 2) → 10 with
    1 in reserve; (9, 3) → 11.
    """
    if mode not in MODES:
        raise ValueError(f"unknown stat bonus mode {mode!r}")
    points = max(0, points)
    if mode == "divide_by_base_band":
        cost = band_cost(base, bands)
        raw = points // cost  # S-STAT-06: rounded down
        gained = min(raw, cap)
        steps = tuple((base + i, base + i + 1, cost) for i in range(gained))
        left = points - gained * cost
        capped = raw >= cap  # A-S-04: at +3 any point left over is wasted, as stepwise
        return StatBonus(
            base, points, base + gained, gained, 0 if capped else left, left if capped else 0,
            steps, mode,
        )  # fmt: skip
    value, left = base, points
    bought: list[tuple[int, int, int]] = []
    while len(bought) < cap:
        cost = band_cost(value + 1 if mode == "stepwise_target_band" else value, bands)
        if left < cost:
            break
        left -= cost
        bought.append((value, value + 1, cost))
        value += 1
    capped = len(bought) >= cap and left > 0
    return StatBonus(
        base, points, value, len(bought), 0 if capped else left, left if capped else 0,
        tuple(bought), mode,
    )  # fmt: skip


def capped_param_bonus(bonuses: Iterable[int], cap: int = 3) -> int:
    """The total bonus of several artifacts to one named parameter, at most ``cap``
    (S-ART-20): a bonus beyond the cap has no effect."""
    return min(cap, sum(bonuses))
