"""Interval statistics shared by the measurements (:mod:`privtest.measure`) and the claim checks
(:mod:`privtest.checks`): exact binomial confidence intervals and the standard error of a mean."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats


def standard_error(values) -> float:
    """Standard error of the mean of ``values``: sample standard deviation (ddof = 1) over sqrt(n).

    Args:
        values: 1-D array-like of n floats (NaN entries are skipped, as ``pandas.Series.std`` does).

    Returns:
        float: sd / sqrt(n); 0.0 when n <= 1 (no spread can be estimated; callers that decide a claim treat a
        zero standard error with a bounded-range test, :class:`privtest.claims.Normal`).
    """
    x = pd.Series(values, dtype=float)
    n = int(x.count())
    return standard_error_from_sd(float(x.std(ddof=1)), n) if n > 1 else 0.0


def standard_error_from_sd(sd: float, n: int) -> float:
    """sd / sqrt(n): the standard error of a mean of ``n`` >= 1 values whose sample standard deviation is ``sd``
    (>= 0, or NaN, which is returned as NaN).

    Raises:
        ValueError: if ``n`` < 1 or ``sd`` < 0.
    """
    if int(n) < 1:
        raise ValueError(f"n must be >= 1, got {n}.")
    if sd < 0:
        raise ValueError(f"sd must be >= 0, got {sd}.")
    return sd / math.sqrt(int(n))


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
