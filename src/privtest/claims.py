"""Claim records: one row of ``figures/claims.csv`` per checked statement of the paper.

Verdicts come from confidence intervals, never from point estimates: PASS when the whole interval satisfies the
bound, FAIL when the whole interval violates it, INCONCLUSIVE when it straddles.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

COLUMNS = ["claim_id", "source", "statement", "experiment", "measured", "bound", "verdict", "note"]
VERDICTS = ("PASS", "FAIL", "INCONCLUSIVE")


@dataclass(frozen=True)
class Claim:
    """One checked claim. ``measured`` and ``bound`` are human-readable numbers (strings allowed)."""

    claim_id: str
    source: str
    statement: str
    experiment: str
    measured: str
    bound: str
    verdict: str
    note: str = ""

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}. Found {self.verdict!r}.")


def clopper_pearson(k, n, confidence: float = 0.95):
    """Two-sided Clopper-Pearson interval for a binomial proportion k/n (arrays broadcast).

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


def verdict_at_most(low: float, high: float, bound: float) -> str:
    """Verdict for 'quantity <= bound' given a confidence interval [low, high] for the quantity."""
    if high <= bound:
        return "PASS"
    if low > bound:
        return "FAIL"
    return "INCONCLUSIVE"


def verdict_at_least(low: float, high: float, bound: float) -> str:
    """Verdict for 'quantity >= bound' given a confidence interval [low, high] for the quantity."""
    if low >= bound:
        return "PASS"
    if high < bound:
        return "FAIL"
    return "INCONCLUSIVE"


def verdict_exact(ok: bool) -> str:
    """Verdict for a deterministic check (no sampling error)."""
    return "PASS" if ok else "FAIL"


def to_frame(claims: list[Claim]) -> pd.DataFrame:
    """Claims as a DataFrame with exactly :data:`COLUMNS`."""
    return pd.DataFrame([dataclasses.asdict(c) for c in claims], columns=COLUMNS)


def fmt(x: float, digits: int = 4) -> str:
    """Compact number formatting for claim rows."""
    return f"{x:.{digits}g}"
