"""Confidence intervals of Monte Carlo estimates.

* a mean over runs: Student's t interval (``mean ± t · sd / √n``), cut at zero for a
  quantity that cannot be negative;
* a share of events pooled over runs (deaths among all the wounded): the Wilson score
  interval, which stays inside [0, 1] and is honest for small or extreme counts.

The t quantile is computed without SciPy: by bisection on the closed-form distribution
for up to 100 degrees of freedom, by the Cornish–Fisher expansion beyond.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its interval; ``n`` is the runs (or trials) behind it."""

    mean: float
    low: float
    high: float
    n: int

    def contains(self, value: float) -> bool:
        """Whether ``value`` lies in the interval (ends included)."""
        return self.low <= value <= self.high

    def to_dict(self) -> dict[str, float | int | None]:
        """JSON-able, NaN as null."""
        return {
            "mean": _finite(self.mean),
            "low": _finite(self.low),
            "high": _finite(self.high),
            "n": self.n,
        }


def _finite(x: float) -> float | None:
    return None if math.isnan(x) else x


def normal_quantile(p: float) -> float:
    """The standard normal quantile."""
    return NormalDist().inv_cdf(p)


def _t_two_sided(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with integer ``df`` (Abramowitz & Stegun 26.7.3-4)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2:  # odd
        term, total = math.cos(theta), 0.0
        for k in range(1, (df - 1) // 2 + 1):
            total += term
            term *= c2 * (2 * k) / (2 * k + 1)
        return (2 / math.pi) * (theta + math.sin(theta) * total if df > 1 else theta)
    term, total = 1.0, 0.0
    for k in range(1, df // 2 + 1):
        total += term
        term *= c2 * (2 * k - 1) / (2 * k)
    return math.sin(theta) * total


def t_quantile(p: float, df: int) -> float:
    """The quantile ``p`` (> 0.5) of Student's t with ``df`` degrees of freedom.

    Exact by bisection on the closed-form distribution up to 100 degrees of freedom;
    beyond, the Cornish-Fisher expansion around the normal quantile (error < 1e-5).
    """
    if df < 1:
        raise ValueError("df must be at least 1")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    if df <= 100:
        target = 2 * p - 1
        lo, hi = 0.0, 1.0
        while _t_two_sided(hi, df) < target:
            hi *= 2
        for _ in range(80):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if _t_two_sided(mid, df) < target else (lo, mid)
        return (lo + hi) / 2
    z = normal_quantile(p)
    z3, z5, z7 = z**3, z**5, z**7
    return (
        z
        + (z3 + z) / (4 * df)
        + (5 * z5 + 16 * z3 + 3 * z) / (96 * df**2)
        + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df**3)
    )


def mean_ci(values: list[float], level: float = 0.95) -> Estimate:
    """The mean of ``values`` (NaNs left out) with its t interval."""
    xs = [v for v in values if not math.isnan(v)]
    n = len(xs)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = math.fsum(xs) / n
    if n == 1:
        return Estimate(mean, math.nan, math.nan, 1)
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1))
    half = t_quantile(0.5 + level / 2, n - 1) * sd / math.sqrt(n)
    low = mean - half
    if min(xs) >= 0:  # a count or a duration: its mean is never below zero
        low = max(0.0, low)
    return Estimate(mean, low, mean + half, n)


def proportion_ci(successes: float, trials: float, level: float = 0.95) -> Estimate:
    """A share of ``trials`` with its Wilson score interval."""
    n = round(trials)
    if n <= 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = successes / trials
    z = normal_quantile(0.5 + level / 2)
    den = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / den
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / den
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return Estimate(p, low, high, n)
