"""Shared test helpers."""

import numpy as np
from scipy import stats

#: False-failure probability of every statistical test in this suite.
ALPHA = 1e-6


def binom_interval(k: int, n: int, alpha: float = ALPHA) -> tuple[float, float]:
    """Two-sided Clopper-Pearson interval at level 1 - alpha."""
    lo = stats.beta.ppf(alpha / 2, k, n - k + 1) if k > 0 else 0.0
    hi = stats.beta.ppf(1 - alpha / 2, k + 1, n - k) if k < n else 1.0
    return float(lo), float(hi)


def mean_interval(x: np.ndarray, alpha: float = ALPHA) -> tuple[float, float]:
    """Normal-approximation interval for the mean of i.i.d. samples x at level 1 - alpha."""
    z = stats.norm.ppf(1 - alpha / 2)
    half = z * x.std(ddof=1) / np.sqrt(len(x))
    return float(x.mean() - half), float(x.mean() + half)
