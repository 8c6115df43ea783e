"""Measured rejection thresholds: the largest p at which a tester, fed p_t = p at every step, halts within T steps
with probability <= beta (95% Clopper-Pearson), on a fine grid of p.

The measurement uses each tester's ``critical_p`` (:class:`privtest.testers.Tester`): an exact simulation of T steps
on Bernoulli(p) inputs that couples all p monotonically (the +1 count of n evaluations is K(p) = #{i: U_i <= p} for
shared uniforms U_i, so "K >= k" is "the k-th smallest U_i <= p", a Beta(k, n - k + 1) draw). One pass gives every
run's critical p, the smallest p at which it halts within T; the halting probability at p is the fraction of runs
with critical p <= p. The marginal law at each p is exactly that of ``run`` on
:class:`~privtest.mechanisms.BernoulliMechanism` inputs (checked in tests/test_baselines.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats
from scipy.special import expit, logit

from privtest import _validate


@dataclass(frozen=True)
class CriticalP:
    """Per-run outcome of a coupled T-step simulation.

    Attributes:
        p_crit: float array (runs,): the run halts within T steps iff p >= p_crit (inf: never, for any p <= 1).
        samples: float array (runs,): mean evaluations of M_t per step while the run continues.
    """

    p_crit: np.ndarray
    samples: np.ndarray

    @property
    def runs(self) -> int:
        return int(self.p_crit.size)

    def halts(self, p) -> np.ndarray:
        """Number of runs halting within T at each p (int64 array with the shape of ``p``)."""
        s = np.sort(self.p_crit)
        return np.searchsorted(s, np.asarray(p, dtype=float), side="right").astype(np.int64)


def blocks(T: int, runs: int, cells: int = 200_000) -> list[tuple[int, int]]:
    """Consecutive step ranges [t0, t1) covering 1..T with about ``cells`` (step, run) pairs each: the coupled
    simulations draw a block of (steps x runs) at a time to bound memory."""
    B = max(1, cells // max(runs, 1))
    return [(t0, min(T + 1, t0 + B)) for t0 in range(1, T + 1, B)]


def logit_grid(pstar: float, p_min: float, step: float = 0.01) -> np.ndarray:
    """Fine grid of p in (0, p*]: log-odds logit(p*) - j*step for j = 0, 1, ... down to p_min (ascending order).

    Raises:
        ValueError: if pstar or p_min is outside (0, 1) or step <= 0.
    """
    _validate.open_unit("pstar", pstar)
    _validate.open_unit("p_min", p_min)
    _validate.positive("step", step)
    top = float(logit(pstar))
    j = np.arange(0, max(1, math.ceil((top - float(logit(min(p_min, pstar)))) / step)) + 1)
    return np.sort(expit(top - step * j))


@dataclass(frozen=True)
class MeasuredPbar:
    """Result of :func:`measured_pbar`.

    Attributes:
        pbar: largest grid p whose halting probability has 95% upper confidence limit <= beta (nan if none).
        pbar_upper: smallest grid p whose halting probability has 95% lower confidence limit > beta (nan if none):
            the true crossing point lies in [pbar, pbar_upper] with 95% confidence each side.
        halts_at_pbar: halting runs at ``pbar``; runs: number of runs.
    """

    pbar: float
    pbar_upper: float
    halts_at_pbar: int
    runs: int


def measured_pbar(cp: CriticalP, grid: np.ndarray, beta: float, confidence: float = 0.95) -> MeasuredPbar:
    """Largest p on ``grid`` at which the measured Pr[halt within T] stays <= beta with ``confidence``.

    Args:
        cp: coupled simulation (``tester.critical_p``).
        grid: ascending p values.
        beta: the tester's failure budget in (0, 1).
    """
    _validate.open_unit("beta", beta)
    grid = np.asarray(grid, dtype=float)
    k = cp.halts(grid)
    lo, hi = clopper_pearson(k, np.full(k.shape, cp.runs), confidence)
    below = np.flatnonzero(hi <= beta)
    above = np.flatnonzero(lo > beta)
    i = below[-1] if below.size else None
    return MeasuredPbar(
        float(grid[i]) if i is not None else math.nan,
        float(grid[above[0]]) if above.size else math.nan,
        int(k[i]) if i is not None else -1,
        cp.runs,
    )


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
