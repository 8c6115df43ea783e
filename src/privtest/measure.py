"""Measured rejection thresholds: the largest p at which a tester, fed p_t = p at every step, halts within T steps
with probability <= beta (95% Clopper-Pearson), on a fine grid of p.

The measurement uses each tester's ``critical_p`` (:class:`privtest.testers.Tester`): an exact simulation of T steps
on Bernoulli(p) inputs that couples all p monotonically (the +1 count of n evaluations is K(p) = #{i: U_i <= p} for
shared uniforms U_i, so "K >= k" is "the k-th smallest U_i <= p", a Beta(k, n - k + 1) draw). One pass gives every
run's critical p, the smallest p at which it halts within T; the halting probability at p is the fraction of runs
with critical p <= p. The marginal law at each p is exactly that of ``run`` on
:class:`~privtest.mechanisms.BernoulliMechanism` inputs (checked in tests/test_baselines.py). Every function checks
its arguments first (ValueError naming the parameter and its range).

Example:
    A tester's measured rejection threshold (Theorem 21's GTM, T = 5 steps, 400 runs):

    >>> from privtest.gtm import GlobalCalibration
    >>> from privtest.testers import GTMTester
    >>> tester = GTMTester(GlobalCalibration(1.0, 0.05, 1.0, 1.5), 0.5, 0.1, 5)
    >>> m = measured_pbar(tester.critical_p(5, 400, rng=0), logit_grid(0.5, 1e-4, 0.05), beta=0.05)
    >>> m.runs, m.pbar < 0.5
    (400, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import expit, logit

from privtest import _validate

__all__ = ["CriticalP", "MeasuredPbar", "blocks", "clopper_pearson", "logit_grid", "measured_pbar"]

#: The most grid points :func:`logit_grid` builds (memory guard).
MAX_GRID = 10**7


@dataclass(frozen=True)
class CriticalP:
    """Per-run outcome of a coupled T-step simulation.

    Attributes:
        p_crit: float array (runs,): the run halts within T steps iff p >= p_crit (inf: never, for any p <= 1); for
            AboveThreshold a query value (any real). Never NaN.
        samples: float array (runs,): mean evaluations of M_t per step while the run continues (>= 0, never NaN).

    Raises:
        ValueError: naming p_crit or samples if one is not a 1-d numeric array without NaN, samples has a negative
            entry, or their lengths differ.

    Example:
        >>> cp = CriticalP(np.array([0.1, 0.3, np.inf]), np.array([5.0, 5.0, 5.0]))
        >>> cp.runs, cp.halts([0.2, 0.5]).tolist()
        (3, [1, 2])
    """

    p_crit: np.ndarray
    samples: np.ndarray

    def __post_init__(self):
        for name, value in (("p_crit", self.p_crit), ("samples", self.samples)):
            v = _validate.real(name, value, scalar=False)
            if np.ndim(v) != 1 or np.isnan(np.asarray(v, dtype=float)).any():
                raise ValueError(f"{name} must be a 1-d array without NaN (one entry per run). Found {v!r}.")
        if np.any(np.asarray(self.samples) < 0):
            raise ValueError("samples must be >= 0 (evaluations per step).")
        if np.shape(self.p_crit) != np.shape(self.samples):
            raise ValueError(
                f"p_crit and samples must have one entry per run each. Found {np.shape(self.p_crit)} and "
                f"{np.shape(self.samples)}."
            )

    @property
    def runs(self) -> int:
        """Number of runs."""
        return int(self.p_crit.size)

    def halts(self, p) -> np.ndarray:
        """Number of runs halting within T at each p (int64 array with the shape of ``p``; p real, not NaN)."""
        _validate.real("p", p, scalar=False)
        if np.isnan(np.asarray(p, dtype=float)).any():
            raise ValueError(f"p must not be NaN. Found {_validate.fmt(p)}.")
        s = np.sort(self.p_crit)
        return np.searchsorted(s, np.asarray(p, dtype=float), side="right").astype(np.int64)


def blocks(T: int, runs: int, cells: int = 200_000) -> list[tuple[int, int]]:
    """Consecutive step ranges [t0, t1) covering 1..T with about ``cells`` (step, run) pairs each: the coupled
    simulations draw a block of (steps x runs) at a time to bound memory.

    Args:
        T: steps, an integer >= 1. runs: an integer >= 1. cells: (step, run) pairs per block, an integer >= 1.

    Returns:
        list of (t0, t1) with t0 < t1, consecutive, from 1 to T + 1.

    Raises:
        ValueError: naming T, runs or cells when out of range.

    Example:
        >>> blocks(5, 100, cells=200)
        [(1, 3), (3, 5), (5, 6)]
    """
    T = _validate.step_index(T, "T")
    runs = _validate.step_index(runs, "runs")
    cells = _validate.step_index(cells, "cells")
    B = max(1, cells // max(runs, 1))
    return [(t0, min(T + 1, t0 + B)) for t0 in range(1, T + 1, B)]


def logit_grid(pstar: float, p_min: float, step: float = 0.01) -> np.ndarray:
    """Fine grid of p in (0, p*]: log-odds logit(p*) - j*step for j = 0, 1, ... down to p_min (ascending order).

    Args:
        pstar: p* in (0, 1). p_min: the smallest p of interest in (0, 1). step: log-odds spacing > 0.

    Returns:
        float ndarray, ascending, from about p_min (or p*) up to p*.

    Raises:
        ValueError: if pstar or p_min is outside (0, 1) or step <= 0, or the grid would exceed :data:`MAX_GRID`
            points (naming step).

    Example:
        >>> logit_grid(0.5, 0.3, 0.5).round(4).tolist()
        [0.2689, 0.3775, 0.5]
    """
    _validate.open_unit("pstar", pstar)
    _validate.open_unit("p_min", p_min)
    _validate.positive("step", step)
    if (float(logit(pstar)) - float(logit(min(p_min, pstar)))) / step > MAX_GRID:
        raise ValueError(f"step must leave at most {MAX_GRID} grid points between p_min and pstar. Found {step!r}.")
    top = float(logit(pstar))
    j = np.arange(0, max(1, math.ceil((top - float(logit(min(p_min, pstar)))) / step)) + 1)
    return np.sort(expit(top - step * j))


@dataclass(frozen=True)
class MeasuredPbar:
    """Result of :func:`measured_pbar`.

    Example:
        >>> MeasuredPbar(0.01, 0.02, 3, 1000).pbar
        0.01

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
        cp: coupled simulation (``tester.critical_p``), a :class:`CriticalP`.
        grid: ascending p values (a non-empty 1-d real array without NaN).
        beta: the tester's failure budget in (0, 1).
        confidence: level of each one-sided Clopper-Pearson limit, in (0, 1).

    Returns:
        :class:`MeasuredPbar`.

    Raises:
        TypeError: if ``cp`` is not a :class:`CriticalP`.
        ValueError: naming grid, beta or confidence when out of range.

    Example:
        >>> cp = CriticalP(np.linspace(0.01, 1.0, 1000), np.ones(1000))
        >>> m = measured_pbar(cp, np.linspace(0.001, 0.2, 200), beta=0.05)
        >>> round(m.pbar, 3), round(m.pbar_upper, 3), m.runs
        (0.045, 0.074, 1000)
    """
    if not isinstance(cp, CriticalP):
        raise TypeError(f"cp must be a privtest.measure.CriticalP. Found {type(cp).__name__}.")
    _validate.real("grid", grid, scalar=False)
    g = np.asarray(grid, dtype=float)
    if g.ndim != 1 or g.size == 0 or np.isnan(g).any() or np.any(np.diff(g) < 0):
        raise ValueError(f"grid must be a non-empty ascending 1-d array of p values. Found {_validate.fmt(grid)}.")
    _validate.open_unit("beta", beta)
    _validate.open_unit("confidence", confidence)
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
        k: successes, int or int array, 0 <= k <= n (integral floats accepted).
        n: trials, int or int array >= 0 (n = 0 gives the uninformative (0, 1)), broadcast with ``k``.
        confidence: in (0, 1).

    Returns:
        (low, high): float arrays (or floats); low = 0 when k = 0 and high = 1 when k = n.

    Raises:
        ValueError: naming k, n or confidence when an element is out of range (k > n included).

    Example:
        >>> tuple(round(v, 4) for v in clopper_pearson(5, 100))
        (0.0164, 0.1128)
    """
    from scipy import stats  # on use: scipy.stats is slow to import

    _validate.integer("n", n, 0, scalar=False)
    _validate.integer("k", k, 0, scalar=False)
    _validate.open_unit("confidence", confidence)
    if np.any(np.asarray(k, dtype=float) > np.asarray(n, dtype=float)):
        raise ValueError(f"k must be at most n (successes of n trials). Found k = {_validate.fmt(k)}, n = {n!r}.")
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    a = 1.0 - confidence
    with np.errstate(invalid="ignore"):
        lo = np.where(k > 0, stats.beta.ppf(a / 2, k, n - k + 1), 0.0)
        hi = np.where(k < n, stats.beta.ppf(1 - a / 2, k + 1, n - k), 1.0)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi
