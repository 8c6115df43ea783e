"""Measured rejection thresholds: the largest p at which a tester, fed p_t = p at every step, halts within T steps
with probability <= beta (95% Clopper-Pearson), on a fine grid of p.

The measurement uses each tester's ``critical_p``: an exact simulation of T steps on Bernoulli(p) inputs that couples
all p monotonically (the +1 count of n evaluations is K(p) = #{i: U_i <= p} for shared uniforms U_i, so "K >= k" is
"the k-th smallest U_i <= p", a Beta(k, n - k + 1) draw). One pass gives every run's critical p, the smallest p at
which it halts within T; the halting probability at p is the fraction of runs with critical p <= p. The marginal
law at each p is exactly that of ``run`` on :class:`~privtest.mechanisms.BernoulliMechanism` inputs (checked in
tests/test_baselines.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import expit, logit

from privtest import _validate
from privtest.claims import clopper_pearson
from privtest.gtm import _checked_exp


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


def _blocks(T: int, runs: int, cells: int = 200_000):
    """Consecutive step ranges [t0, t1) covering 1..T with about ``cells`` (step, run) pairs each."""
    B = max(1, cells // max(runs, 1))
    return [(t0, min(T + 1, t0 + B)) for t0 in range(1, T + 1, B)]


def gtm_critical_p(tester, T: int, runs: int, rng: np.random.Generator) -> CriticalP:
    """Coupled T-step simulation of a :class:`privtest.testers.GTMTester` (Algorithm 1 with its calibration).

    Per run eta_1 ~ Exp(tau1); per step eta_2,t ~ Exp(tau2_t), N_t ~ Po(lambda_t) as in ``gtm.run_step``. Direct step
    (s = +1): halt iff K >= c+1, critical p ~ Beta(c+1, N-c) (inf if N <= c). Flipped step (s = -1, halt iff
    N - K <= c): critical p ~ Beta(N-c, c+1) (0 if N <= c). Steps are drawn in blocks of (steps x runs).
    """
    cal, eps1, pstar = tester.cal, tester.eps1, tester.pstar
    steps = [cal.step(t, eps1, pstar) for t in range(1, T + 1)]
    log_rho = np.log([st.rho for st in steps])
    c = np.array([st.c for st in steps], dtype=float)
    s = np.array([st.s for st in steps], dtype=float)
    tau2 = np.array([st.tau2 for st in steps])
    eta1 = rng.exponential(cal.tau1, runs)
    p_crit = np.full(runs, np.inf)
    n_sum = np.zeros(runs)
    for t0, t1 in _blocks(T, runs):
        i = slice(t0 - 1, t1 - 1)
        ci, si, direct = c[i, None], s[i, None], s[i, None] == 1
        eta2 = rng.exponential(1.0, (t1 - t0, runs)) * tau2[i, None]
        N = rng.poisson(_checked_exp(log_rho[i, None] + eps1 * si * (cal.mu1 - eta1[None, :] + eta2)))
        n_sum += N.sum(axis=0)
        valid = np.where(direct, N >= ci + 1, N > ci)
        a = np.where(direct, ci + 1, N - ci)
        b = np.where(direct, N - ci, ci + 1)
        draw = rng.beta(np.where(valid, a, 1.0), np.where(valid, b, 1.0))
        p_t = np.where(valid, draw, np.where(direct, np.inf, 0.0))
        np.minimum(p_crit, p_t.min(axis=0), out=p_crit)
    return CriticalP(p_crit, n_sum / T)


def critical_p(tester, T: int, runs: int, rng: np.random.Generator) -> CriticalP:
    """Dispatch to ``tester.critical_p`` (baselines) or :func:`gtm_critical_p` (GTM testers).

    Raises:
        ValueError: if T or runs < 1. TypeError: for a tester without a coupled simulation.
    """
    _validate.step_index(T)
    _validate.step_index(runs)
    if hasattr(tester, "critical_p"):
        return tester.critical_p(T, runs, rng)
    if hasattr(tester, "cal"):
        return gtm_critical_p(tester, T, runs, rng)
    raise TypeError(f"{type(tester).__name__} has no coupled simulation (critical_p)")


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
        cp: coupled simulation (:func:`critical_p`).
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
