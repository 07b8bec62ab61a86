"""Small statistics for simulation reports.

>>> lo, hi = wilson(50, 100)
>>> round(lo, 3), round(hi, 3)
(0.404, 0.596)
>>> wilson(0, 0)
(0.0, 1.0)
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default): sound even near 0 or 1
    and for few trials, unlike the normal approximation."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    center = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, center - half)
    high = 1.0 if successes >= trials else min(1.0, center + half)
    return low, high
