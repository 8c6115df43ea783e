"""Interval statistics of the claim checks (:mod:`privtest_artifact.outputs`): the standard error of a mean, and the
exact binomial interval of the library (:func:`privtest.measure.clopper_pearson`, re-exported here)."""

from __future__ import annotations

import math

import pandas as pd

from privtest.measure import clopper_pearson

__all__ = ["clopper_pearson", "standard_error", "standard_error_from_sd"]


def standard_error(values) -> float:
    """Standard error of the mean of ``values``: sample standard deviation (ddof = 1) over sqrt(n).

    Args:
        values: 1-D array-like of n floats (NaN entries are skipped, as ``pandas.Series.std`` does).

    Returns:
        float: sd / sqrt(n); 0.0 when n <= 1 (no spread can be estimated; callers that decide a claim treat a
        zero standard error with a bounded-range test, :class:`privtest_artifact.claims.Normal`).
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
