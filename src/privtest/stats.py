"""Interval statistics shared by the measurements (:mod:`privtest.measure`) and the claim checks
(:mod:`privtest.checks`): exact binomial confidence intervals."""

from __future__ import annotations

import numpy as np
from scipy import stats


def clopper_pearson(k, n, confidence: float = 0.95):
    """Two-sided Clopper-Pearson interval for a binomial proportion k/n (arrays broadcast).

    Args:
        k: successes, int or int array, 0 <= k <= n.
        n: trials, int or int array >= 1.
        confidence: in (0, 1).

    Returns:
        (low, high): float arrays (or floats); low = 0 when k = 0 and high = 1 when k = n.
    """
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    a = 1.0 - confidence
    with np.errstate(invalid="ignore"):
        lo = np.where(k > 0, stats.beta.ppf(a / 2, k, n - k + 1), 0.0)
        hi = np.where(k < n, stats.beta.ppf(1 - a / 2, k + 1, n - k), 1.0)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi
