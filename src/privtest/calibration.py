"""Exact-tail calibrations of the GTM (beyond the paper): Theorem 21's noise parameters and per-step error budgets,
with the count threshold c_t and base rate rho_t chosen from exact Poisson tails instead of the Chernoff thresholds
lambda^l / lambda^r of eq. (3)-(4); and a calibration whose whole-run error probability is certified exactly.

Why the guarantee is unchanged. Privacy: Lemma 17 holds for any c_t, rho_t (they only enter g_t). Accuracy: the proof
of Lemma 20 uses lambda^l(c, a) only through "lambda >= lambda^l(c, a) implies Pr[Po(lambda) <= c] <= a" and
lambda^r(c, a) only through "lambda <= lambda^r(c, a) implies Pr[Po(lambda) >= c + 1] <= a", plus the gap condition
lambda^l(c, beta^II) <= gamma lambda^r(c, beta^I) of Lemma 11. The exact quantiles

    L(c, a) = min{lambda : Pr[Po(lambda) <= c] <= a},   R(c, a) = max{lambda : Pr[Po(lambda) >= c + 1] <= a}

satisfy both implications with equality, so Lemma 20 holds verbatim with L, R in place of lambda^l, lambda^r and the
smallest c with L(c, beta^II) <= gamma R(c, beta^I); Theorem 21's union bound is untouched. Since lambda^l >= L and
lambda^r <= R (Chernoff is conservative), this c is never larger than Lemma 11's and rho_t = L(c, beta_t/4)/p* is
smaller: the same rejection threshold pbar_t at fewer evaluations.

Cost. :func:`whole_run_error` and :func:`certified_calibration` compute the steps 1..T and the exact transcript pass
on arrays (element for element the arithmetic of :meth:`ExactTailCalibration.step` and of
:func:`privtest.exact.transcript_log_probs`: the same numbers, tests/test_calibration.py; special functions only at
the eta_1 nodes where they can change a bit); their work is linear in T (T x the eta_1 quadrature nodes; the certified
calibration searches its budget scale on the first :data:`PREFIX_T` steps and evaluates all T steps once), and a
horizon beyond :data:`MAX_CERTIFY_WORK` is refused naming T and the largest T within reach.

Choosing. :func:`choose_calibration` compares, for one (eps, eps_t, beta, p*, T), Theorem 21's calibration over a small
grid of theta and gamma with the exact-tail and certified calibrations, and returns the one with the fewest expected
evaluations among those that meet the guarantee asked for, with the numbers that decided it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import special

from privtest import _validate
from privtest._numerics import (
    GL_NODES,
    TINY,
    laguerre_rule,
    log1mexp,
    log_gammainc_unchecked,
    log_gammaincc_unchecked,
    log_p_series,
    log_upper_cf,
    log_upper_gamma_unchecked,
    panel_width_unchecked,
    x_nodes_unchecked,
)
from privtest.gtm import (
    DEFAULT_GAMMA,
    DEFAULT_THETA,
    VARIANTS,
    GlobalCalibration,
    StepParams,
    check_admissible,
    first_vacuous_step,
    flip_direction,
    reachable_budget,
    rejection_threshold,
)
from privtest.schedule import beta_t as _beta_t
from privtest.schedule import log_inv_omega

__all__ = [
    "CHOICE_GAMMAS",
    "CHOICE_THETAS",
    "DEFAULT_GAMMA",
    "DEFAULT_THETA",
    "MAX_CERTIFY_T",
    "MAX_CERTIFY_WORK",
    "MAX_CHOICE_T",
    "MAX_ITERATIONS",
    "PREFIX_T",
    "CalibrationCandidate",
    "CalibrationChoice",
    "ExactTailCalibration",
    "certified_calibration",
    "choose_calibration",
    "count_threshold_exact",
    "lambda_left_exact",
    "lambda_right_exact",
    "whole_run_error",
]

#: Bound on every search loop of this module: the nudges of the quantiles (the step doubles from 1e-15, so 60 nudges
#: move by more than the whole value) and the doubling of c (2^60 evaluations are far beyond any simulation).
MAX_ITERATIONS = 60


def _nudged(lam: float, holds, direction: float, c: int, alpha: float, name: str) -> float:
    """Move ``lam`` by relative steps 1e-15, 2e-15, ... in ``direction`` (+1 up, -1 down) until ``holds(lam)``; a
    ValueError naming ``name`` if the quantile is nan/inf or no nudge within :data:`MAX_ITERATIONS` succeeds."""
    step = 1e-15
    for _ in range(MAX_ITERATIONS):
        if not math.isfinite(lam) or lam < 0:
            break
        if holds(lam):
            return lam
        lam, step = lam * (1 + direction * step), step * 2
    raise ValueError(
        f"{name} = {alpha!r} is out of numerical reach for the Poisson tail at c = {c}: no mean representable in "
        "floating point meets it (raise beta or lower t)."
    )


def lambda_left_exact(c: int, alpha: float) -> float:
    """L(c, alpha): the smallest Poisson mean with Pr[Po(L) <= c] <= alpha (the exact counterpart of eq. (3)'s
    lambda^l; scipy ``pdtri``, the inverse upper regularized gamma function Q(c + 1, .) without cancellation, nudged up
    until the inequality holds in floating point, so the guarantee is never lost to rounding).

    Args:
        c: count threshold, integer >= 0.
        alpha: tail probability in (0, 1).

    Returns:
        float: L(c, alpha) > 0.

    Raises:
        ValueError: naming c or alpha outside its range, or alpha if it is out of numerical reach (no float mean
            meets it).

    Example:
        >>> L = lambda_left_exact(5, 1e-3)
        >>> round(L, 6), bool(special.pdtr(5, L) <= 1e-3)
        (16.454745, True)
    """
    _validate.open_unit("alpha", alpha)
    return _lambda_left(_validate.integer("c", c, 0), alpha)


def _lambda_left(c: int, alpha: float) -> float:
    """:func:`lambda_left_exact` on validated arguments (the searches below call it thousands of times)."""
    return _nudged(float(special.pdtri(c, alpha)), lambda lam: special.pdtr(c, lam) <= alpha, 1.0, c, alpha, "alpha")


def lambda_right_exact(c: int, alpha: float) -> float:
    """R(c, alpha): the largest Poisson mean with Pr[Po(R) >= c + 1] <= alpha (the exact counterpart of eq. (4)'s
    lambda^r). Pr[Po(lam) >= c + 1] is the lower regularized gamma function P(c + 1, lam), so
    R = ``gammaincinv(c + 1, alpha)`` exactly (no ``1 - alpha``, which is 1.0 once alpha < 2^-53), nudged down until the
    inequality holds in floating point.

    Args:
        c: count threshold, integer >= 0.
        alpha: tail probability in (0, 1).

    Returns:
        float: R(c, alpha) > 0.

    Raises:
        ValueError: naming c or alpha outside its range, or alpha if it is out of numerical reach.

    Example:
        >>> R = lambda_right_exact(5, 1e-3)
        >>> round(R, 6), bool(special.pdtrc(5, R) <= 1e-3)
        (1.107105, True)
    """
    _validate.open_unit("alpha", alpha)
    return _lambda_right(_validate.integer("c", c, 0), alpha)


def _lambda_right(c: int, alpha: float) -> float:
    """:func:`lambda_right_exact` on validated arguments."""
    lam = float(special.gammaincinv(c + 1, alpha))
    return _nudged(lam, lambda x: special.pdtrc(c, x) <= alpha, -1.0, c, alpha, "alpha")


def count_threshold_exact(alpha: float, beta: float, gamma: float) -> int:
    """Smallest integer c >= 0 with L(c, alpha) <= gamma R(c, beta): Lemma 11's gap condition with exact tails (module
    docstring).

    Args:
        alpha, beta: the Type II and Type I tail budgets, each in (0, 1).
        gamma: target ratio in (1, 2].

    Returns:
        int: c >= 0 (never above Lemma 11's :func:`privtest.poisson.count_threshold`).

    Raises:
        ValueError: on alpha, beta outside (0, 1) or gamma outside (1, 2], or naming alpha if no c <= 2^60 meets
            the condition (the budgets are out of numerical reach).

    Example:
        >>> count_threshold_exact(1e-3, 1e-3, 1.5)
        233
    """
    _validate.open_unit("alpha", alpha)
    _validate.open_unit("beta", beta)
    _validate.gamma_range(gamma)

    def ok(c):
        return _lambda_left(c, alpha) <= gamma * _lambda_right(c, beta)

    hi = 1
    for _ in range(MAX_ITERATIONS):
        if ok(hi):
            break
        hi *= 2
    else:
        raise ValueError(
            f"alpha = {alpha!r}, beta = {beta!r}: no count threshold c <= 2^{MAX_ITERATIONS} meets Lemma 11's gap "
            f"condition at gamma = {gamma!r} (out of numerical reach; raise gamma or the budgets)."
        )
    lo = hi // 2  # ok fails at every c < lo checked by doubling; bisect for the first c that passes
    while lo < hi:  # bounded: hi - lo halves every pass
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid + 1
    # L/R is not guaranteed monotone in c at tiny c: walk down while the condition still holds (at most lo steps,
    # and lo < 2^MAX_ITERATIONS only matters near c = 0 where the walk is short).
    for _ in range(lo):
        if not ok(lo - 1):
            break
        lo -= 1
    return lo


@dataclass(frozen=True)
class ExactTailCalibration(GlobalCalibration):
    """Theorem 21's calibration with exact Poisson tails (module docstring): same tau1, tau2, mu1, Lambda_t, flipping
    rule, budgets (kappa beta_t/4, kappa = ``budget_scale``) and rejection threshold; smaller c_t and rho_t. Its E[N_t]
    is finite under the same conditions as Theorem 21's (:mod:`privtest.gtm`).

    Args:
        eps, beta, theta, gamma, variant: as :class:`~privtest.gtm.GlobalCalibration`.
        budget_scale: kappa, finite and > 0, multiplying the per-step budgets (1 = Theorem 21's beta_t/4; the
            certified calibration raises it while the exact whole-run error stays <= beta).

    Raises:
        ValueError: naming the first parameter outside its range.

    Example:
        >>> cal = ExactTailCalibration(1.0, 0.05, 1.0, 1.5)
        >>> st, paper = cal.step(1, 0.1, 0.5), GlobalCalibration(1.0, 0.05, 1.0, 1.5).step(1, 0.1, 0.5)
        >>> st.c, paper.c, st.pbar == paper.pbar
        (143, 282, True)
    """

    budget_scale: float = 1.0

    def __post_init__(self):
        super().__post_init__()
        _validate.positive("budget_scale", self.budget_scale)

    def step(self, t: int, eps_t: float, pstar: float) -> StepParams:
        """Parameters for step t: Theorem 21's noise, direction and pbar; c_t and rho_t from exact tails at budget
        min(kappa beta_t/4, 1/2).

        Args:
            t: step index, integer >= 1; eps_t: input privacy, finite and >= 0; pstar: p*_t in (0, 1).

        Returns:
            :class:`~privtest.gtm.StepParams`.

        Raises:
            ValueError: naming t, eps_t or pstar outside its range, or beta where the budget is out of reach.
        """
        base = super().step(t, eps_t, pstar)
        err = reachable_budget(min(self.budget_scale * float(_beta_t(int(t), self.beta)) / 4.0, 0.5), t, self.beta)
        log_gl = math.log(self.gamma) + base.log_Lambda
        s = flip_direction(pstar, log_gl) if self.variant == "auto" else base.s
        c = count_threshold_exact(err, err, self.gamma)
        if s == 1:
            rho = _lambda_left(c, err) / pstar
        else:
            rho = _lambda_right(c, err) / (1.0 - pstar)
        pbar = rejection_threshold(pstar, log_gl) if self.variant == "auto" else base.pbar
        return StepParams(
            base.t, base.eps_t, pstar, base.tau1, base.mu1, base.tau2, s, c, rho, base.log_Lambda, pbar, err, err
        )


# ---------------------------------------------------------------------------------------------------------------
# The same quantiles, thresholds and steps for many budgets at once (the certified calibration's horizon): every
# element follows exactly the path of the scalar function (the same scipy calls on the same arguments, the same nudges,
# the same doubling, bisection and walk), only the elements still searching are evaluated at each round. None when
# an element would raise: the caller then runs the scalar functions, which raise the documented error.


def _nudged_many(lam: np.ndarray, holds, direction: float, c: np.ndarray, alpha: np.ndarray) -> np.ndarray | None:
    """:func:`_nudged` element-wise (``holds(lam, c, alpha)`` on arrays); None where the scalar one raises."""
    out, active, step = lam.copy(), np.arange(lam.size), 1e-15
    for _ in range(MAX_ITERATIONS):
        x = out[active]
        if not bool(np.all(np.isfinite(x) & (x >= 0))):
            return None
        active = active[~holds(x, c[active], alpha[active])]
        if not active.size:
            return out
        out[active] = out[active] * (1 + direction * step)
        step = step * 2
    return None


def _lambda_left_many(c: np.ndarray, alpha: np.ndarray) -> np.ndarray | None:
    """:func:`_lambda_left` element-wise (c int64, alpha float arrays of one shape)."""
    return _nudged_many(special.pdtri(c, alpha), lambda x, k, a: special.pdtr(k, x) <= a, 1.0, c, alpha)


def _lambda_right_many(c: np.ndarray, alpha: np.ndarray) -> np.ndarray | None:
    """:func:`_lambda_right` element-wise."""
    return _nudged_many(special.gammaincinv(c + 1, alpha), lambda x, k, a: special.pdtrc(k, x) <= a, -1.0, c, alpha)


def _count_threshold_many(err: np.ndarray, gamma: float) -> np.ndarray | None:
    """``count_threshold_exact(err, err, gamma)`` element-wise (int64), by the same doubling, bisection and walk."""

    def ok(c, idx):
        a = err[idx]
        left, right = _lambda_left_many(c, a), _lambda_right_many(c, a)
        if left is None or right is None:
            raise _OutOfReach
        return left <= gamma * right

    try:
        hi = np.ones(err.shape, dtype=np.int64)
        active = np.arange(err.size)
        for _ in range(MAX_ITERATIONS):  # doubling
            active = active[~ok(hi[active], active)]
            if not active.size:
                break
            hi[active] *= 2
        else:
            return None
        lo = hi // 2
        active = np.flatnonzero(lo < hi)
        while active.size:  # bisection
            mid = (lo[active] + hi[active]) // 2
            good = ok(mid, active)
            hi[active[good]] = mid[good]
            lo[active[~good]] = mid[~good] + 1
            active = active[lo[active] < hi[active]]
        active = np.flatnonzero(lo > 0)
        while active.size:  # the walk down (ok is not monotone at tiny c)
            active = active[ok(lo[active] - 1, active)]
            lo[active] -= 1
            active = active[lo[active] > 0]
        return lo
    except _OutOfReach:
        return None


class _OutOfReach(Exception):
    """A quantile the scalar functions refuse (:func:`_nudged`): the caller falls back to them."""


@dataclass(frozen=True)
class _Steps:
    """The per-step arrays (shape (T,)) of steps 1..T that the whole-run error needs, and the shared noise."""

    tau1: float
    mu1: float
    eps: np.ndarray
    tau2: np.ndarray
    c: np.ndarray
    rho: np.ndarray
    s: np.ndarray
    pbar: np.ndarray


def _steps_of(params, tau1: float, mu1: float) -> _Steps:
    cols = np.array([(st.eps_t, st.tau2, st.c, st.rho, st.s, st.pbar) for st in params], dtype=float).T
    eps, tau2, c, rho, s, pbar = cols
    return _Steps(float(tau1), float(mu1), eps, tau2, c.astype(np.int64), rho, s.astype(np.int64), pbar)


def _exact_tail_base(cal: GlobalCalibration, T: int, eps_t: float, pstar: float):
    """The parts of steps 1..T of :meth:`ExactTailCalibration.step` that do not depend on kappa: (beta_t, s_t, pbar_t)
    as arrays, with the scalar code's arithmetic (beta_t by the scalar schedule, whose power differs from numpy's
    array power in the last bit); None where Theorem 21's budget beta_t/4 underflows (``reachable_budget`` refuses)."""
    bt = np.array([float(_beta_t(t, cal.beta)) for t in range(1, T + 1)])
    if not bool(np.all(bt / 4.0 > 0)):
        return None
    log4_over_beta_t = math.log(4.0) - math.log(cal.beta) + log_inv_omega(np.arange(1, T + 1))
    log_Lambda = eps_t * (cal.mu1 + cal.tau2 * log4_over_beta_t)
    log_gl = math.log(cal.gamma) + log_Lambda
    if cal.variant == "auto":
        s = np.where(log_gl + math.log1p(-pstar) > math.log(pstar), 1, -1)
        pbar = np.maximum(pstar * np.exp(-log_gl), 1.0 - np.exp(np.minimum(log_gl, 700.0)) * (1.0 - pstar))
    else:  # the fixed variant's own branch, with math.exp as privtest.gtm computes it
        s = np.full(T, VARIANTS[cal.variant])
        if s[0] == 1:
            pbar = np.array([pstar * math.exp(-x) for x in log_gl.tolist()])
        else:
            pbar = np.array([1.0 - math.exp(min(x, 700.0)) * (1.0 - pstar) for x in log_gl.tolist()])
    return bt, s.astype(np.int64), pbar


def _exact_tail_steps(cal: ExactTailCalibration, T: int, eps_t: float, pstar: float, base=None) -> _Steps | None:
    """``[cal.step(t, eps_t, pstar) for t in 1..T]`` as arrays, with the arithmetic of :meth:`ExactTailCalibration.step`
    on arrays (``base``: :func:`_exact_tail_base` of the same arguments, computed if None); None where a step would
    raise (the scalar steps then raise the documented error)."""
    base = _exact_tail_base(cal, T, eps_t, pstar) if base is None else base
    if base is None:
        return None
    bt, s, pbar = base
    err = np.minimum(cal.budget_scale * bt / 4.0, 0.5)
    if not bool(np.all(err > 0)):
        return None
    c = _count_threshold_many(err, cal.gamma)
    if c is None:
        return None
    rho = np.empty(T)
    for sign, tail, share in ((1, _lambda_left_many, pstar), (-1, _lambda_right_many, 1.0 - pstar)):
        idx = np.flatnonzero(s == sign)
        if idx.size:
            lam = tail(c[idx], err[idx])
            if lam is None:
                return None
            rho[idx] = lam / share
    return _Steps(cal.tau1, cal.mu1, np.full(T, float(eps_t)), np.full(T, cal.tau2), c, rho, s, pbar)


def _steps(cal, T: int, eps_t: float, pstar: float, base=None) -> _Steps:
    """Steps 1..T of ``cal`` as arrays: on arrays for :class:`ExactTailCalibration` itself (``base`` as in
    :func:`_exact_tail_steps`), step by step otherwise."""
    if type(cal) is ExactTailCalibration:
        fast = _exact_tail_steps(cal, T, float(eps_t), float(pstar), base)
        if fast is not None:
            return fast
    return _steps_of([cal.step(t, eps_t, pstar) for t in range(1, T + 1)], cal.tau1, cal.mu1)


# ---------------------------------------------------------------------------------------------------------------
# The exact transcript pass of whole_run_error over blocks of steps: privtest.exact.transcript_log_probs's arithmetic
# (the factors of exact._log_step_factors, the cumulative continuation, the log-sum-exp over the eta_1 nodes) on
# (steps x nodes) arrays. tests/test_calibration.py compares it with a step-by-step reference to 1e-12.

#: log of scipy's underflow level in privtest._numerics (TINY = 1e-280): below it exact recomputes log P / log Q by a
#: series or continued fraction, which this pass skips where the term is 100 nats below the one it is added to.
_LOG_TINY = math.log(1e-280)
#: Elements (steps x eta_1 nodes x 2 inputs) per block of the transcript pass: 1 MB per float array (larger blocks are
#: no faster: the special functions dominate, and fresh large temporaries cost page faults).
_BLOCK = 1 << 17


def _log_main(k, b, log_other, upper: bool):
    """log P(k, b) (``upper``: log Q(k, b)) as privtest._numerics.log_gammainc_unchecked / log_gammaincc_unchecked
    compute it, except where scipy's value underflows below 1e-280 and ``log_other`` exceeds log(1e-280) + 100: there
    logaddexp(log P, log_other) is log_other to the last bit whatever log P <= log(1e-280) is, and the series
    (continued fraction) that would recompute log P is skipped."""
    with np.errstate(divide="ignore"):
        v = special.gammaincc(k, b) if upper else special.gammainc(k, b)
        out = np.log(v)
    bad = (v < TINY) & ~(log_other > _LOG_TINY + 100.0)
    if not upper:
        bad &= b > 0
    if np.any(bad):
        kb, bb = k[bad], b[bad]
        out[bad] = (log_upper_cf(kb, bb) - special.gammaln(kb)) if upper else log_p_series(kb, bb)
    return out


#: The windows of :func:`_direct_factors`: scipy's Q(s, b) is 1.0 exactly (1 - P rounds to 1) once P(s, b) < e^-70;
#: log P(k, b) more than _DOMINATED nats below log_pareto leaves logaddexp(log P, log_pareto) = log_pareto to the last
#: bit (the added log1p(e^-100) is below a quarter ulp of any |log_pareto| >= 1e-6).
_LOG_P_ONE = -70.0
_DOMINATED = 100.0
_LOG2 = math.log(2.0)
#: Slack (in log b) of the windows' thresholds: far above the rounding of log b, log_pareto and the thresholds.
_SLACK = 1e-6


def _window(thr: np.ndarray, C: np.ndarray, e: np.ndarray, a: np.ndarray) -> int:
    """The columns [0, j) outside which log b = C + e a (shape (R, J) on the nodes a, non-increasing, e > 0) is below
    ``thr`` in every row (shape (R, 1) each): the first column from which the computed log b stays below thr, found by
    bisection on a and checked at that column (log b does not increase along a row, so that column decides)."""
    C, e, thr = C[:, 0], e[:, 0], thr[:, 0]
    with np.errstate(invalid="ignore", over="ignore"):
        lim = (thr - C) / e  # log b < thr roughly where a < lim
    j = np.searchsorted(-a, -np.where(np.isnan(lim), -np.inf, lim), side="right")  # first a_j < lim (nan: none)
    J = a.size
    for _ in range(J + 1):  # rounding: step right until the computed log b at the column is below thr
        late = np.flatnonzero(j < J)
        late = late[~(C[late] + e[late] * a[j[late]] < thr[late])]
        if not late.size:
            break
        j[late] += 1
    return int(j.max()) if j.size else 0


def _lead(thr: np.ndarray, C: np.ndarray, e: np.ndarray, a: np.ndarray) -> int:
    """The columns [0, j) in which log b = C + e a is >= ``thr`` in every row (as :func:`_window`; checked at column
    j - 1 of each row, from which log b does not increase)."""
    C, e, thr = C[:, 0], e[:, 0], thr[:, 0]
    with np.errstate(invalid="ignore", over="ignore"):
        lim = (thr - C) / e
    j = np.searchsorted(-a, -np.where(np.isnan(lim), np.inf, lim), side="right")  # the a_j >= lim first (nan: none)
    for _ in range(a.size + 1):  # rounding: step left until the computed log b at column j - 1 is >= thr
        early = np.flatnonzero(j > 0)
        early = early[~(C[early] + e[early] * a[j[early] - 1] >= thr[early])]
        if not early.size:
            break
        j[early] -= 1
    return int(j.min()) if j.size else 0


def _direct_factors(a, k, sigma, C, e, negligible: float, need_H: np.ndarray):
    """(log_G, log_H) of :func:`_log_factors` for R rows of direct steps with eps_t > 0 (k = c + 1,
    sigma = 1/(eps tau2), log b = C + e a, each shape (R, 1); a: the nodes mu1 - eta_1, non-increasing), bit for bit
    the values of its general branch, with the special functions evaluated only in the first columns (the largest b)
    of each run of rows with the same ``need_H`` (shape (R,)): rows whose log_H is not needed (False) get log_G only.
    The elements of every batch whose result depends on its batch (the continued fraction of log Q and the
    Gauss-Laguerre integral stop when the whole batch has converged) are those of the general branch, in its order.
    Outside the windows below, which hold for every element of their columns (the computed log b does not increase
    along a row, :func:`_window`; each has a wide margin over the rounding of its threshold):

    - Q(k - sigma, b) = 1.0 exactly, so log Gamma(k - sigma, b) = gammaln(k - sigma), where k - sigma > 0,
      b <= (k - sigma + 1)/2 and 2 b^(k - sigma) / Gamma(k - sigma + 1) < e^-70 (P(s, b) <= 2 b^s / Gamma(s + 1) for
      b <= (s + 1)/2: its series is dominated by a geometric one of ratio 1/2; scipy computes Q as 1 - P there, and
      1 - P rounds to 1 below 2^-54);
    - the main term P(k, b) leaves logaddexp(log P, log_pareto) = log_pareto where b <= (k + 1)/2,
      log 2 + k log b - gammaln(k + 1) < log_pareto - 101 and log_pareto < -1e-6 (log1p(e^-100) is below a quarter
      ulp of such a log_pareto);
    - log_G = log(1 - H) is 0.0 where log_H < ``negligible``: then |log_G| < 1.01 H is below a quarter ulp of every
      log-probability it is added to (:func:`_whole_run`), so every sum it enters is unchanged;
    - without log_H, H matters only through H > 1/2 where b >= k e^0.01: there P(k, b) > 1/2 (the median of Gamma(k)
      is below k), so log_G is the continuation branch's and P(k, b) is not computed.
    """
    R, J = k.shape[0], a.size
    ks = k - sigma  # the shape of the upper gamma function of the Pareto term
    with np.errstate(divide="ignore", invalid="ignore"):
        gl_ks, gk, pos = special.gammaln(ks), special.gammaln(k), ks > 0
        thr_q = np.minimum(np.log((ks + 1.0) / 2.0), (special.gammaln(ks + 1.0) - _LOG2 + _LOG_P_ONE) / ks)
        thr_q = np.where(pos, thr_q, -np.inf)
        lead = gl_ks - gk  # log_pareto = sigma log b + lead outside the first window
        thr_m = np.minimum(np.log((k + 1.0) / 2.0), (special.gammaln(k + 1.0) - _LOG2 + lead - _DOMINATED - 1.0) / ks)
        thr_m = np.where(pos, np.minimum(thr_m, (-1e-6 - lead) / sigma), -np.inf)
        thr_g = np.where(pos, (negligible - lead) / sigma, -np.inf)
    cuts = np.flatnonzero(need_H[1:] != need_H[:-1]) + 1
    runs = []  # (rows, log_H needed, j_q, j_m, j_g, j_h)
    for r0, r1 in zip(np.r_[0, cuts], np.r_[cuts, R], strict=True):
        r = slice(int(r0), int(r1))
        win = lambda thr, r=r: _window(thr[r] - _SLACK, C[r], e[r], a)  # noqa: E731
        j_q = win(thr_q)  # Q(k - sigma, b) may differ from 1.0 before j_q
        j_m = max(j_q, win(thr_m))  # log P(k, b) may matter before j_m
        j_g = max(j_m, win(thr_g))  # log G may be above a quarter ulp before j_g
        full = bool(need_H[r0])
        j_h = 0 if full else min(j_m, _lead(np.log(k[r]) + 0.01, C[r], e[r], a))
        runs.append((r, full, j_q, j_m, j_g, j_h))
    log_b, log_pareto = [], []
    for r, full, _, _, j_g, _ in runs:
        log_b.append(C[r] + e[r] * a[None, : J if full else j_g])
        log_pareto.append(sigma[r] * log_b[-1])
    # log Gamma(k - sigma, b) in the first windows, one batch
    lug = _batched(
        log_upper_gamma_unchecked,
        [
            (np.broadcast_to(ks[r], (r.stop - r.start, j_q)), np.exp(lb[:, :j_q]))
            for (r, _, j_q, *_), lb in zip(runs, log_b, strict=True)
        ],
    )
    lG, lH = np.zeros((R, J)), np.empty((R, J))
    bigs = []
    for (r, full, j_q, j_m, j_g, j_h), lb, lp, lu in zip(runs, log_b, log_pareto, lug, strict=True):
        lp[:, :j_q] += lu
        lp[:, j_q:] += gl_ks[r]
        lp -= gk[r]
        if full:
            lh = np.minimum(lp, 0.0, out=lH[r])
        else:
            lH[r] = -np.inf
            lh = np.minimum(lp, 0.0)
        lh[:, :j_h] = 0.0
        if j_m > j_h:
            n = r.stop - r.start
            log_m = _log_main(
                np.broadcast_to(k[r], (n, j_m - j_h)),
                np.exp(lb[:, j_h:j_m]),
                np.ascontiguousarray(lp[:, j_h:j_m]),
                False,
            )
            lh[:, j_h:j_m] = np.minimum(np.logaddexp(log_m, lp[:, j_h:j_m]), 0.0)
        lg = log1mexp(lh[:, :j_g])
        big = lh[:, :j_g] > math.log(0.5)
        bigs.append(
            (
                lg,
                big,
                lb[:, :j_g][big],
                lp[:, :j_g][big],
                np.broadcast_to(k[r], big.shape)[big],
                np.broadcast_to(sigma[r], big.shape)[big],
            )
        )
    # the continuation branch where H > 1/2, one batch
    sizes = [len(bb) for _, _, bb, *_ in bigs]
    if sum(sizes):
        cat = [np.concatenate([g[i] for g in bigs]) for i in range(2, 6)]
        vals = np.split(_direct_continuation(np.exp(cat[0]), *cat[1:]), np.cumsum(sizes)[:-1])
        for (lg, big, *_), v in zip(bigs, vals, strict=True):
            lg[big] = v
    for (r, _, _, _, j_g, _), (lg, *_) in zip(runs, bigs, strict=True):
        lG[r, :j_g] = lg
    return lG, lH


def _batched(fn, pieces):
    """fn on the raveled pieces [(x, y), ...] as one batch (their elements in order), split to the pieces' shapes."""
    shapes = [x.shape for x, _ in pieces]
    sizes = [math.prod(s) for s in shapes]
    if not sum(sizes):
        return [np.zeros(s) for s in shapes]
    out = fn(np.concatenate([x.ravel() for x, _ in pieces]), np.concatenate([y.ravel() for _, y in pieces]))
    return [v.reshape(s) for v, s in zip(np.split(out, np.cumsum(sizes)[:-1]), shapes, strict=True)]


def _direct_continuation(bb, lp, kb, sb):
    """log G = log(Q(k, b) - pareto) where H > 1/2 (direct variant): exact._log_step_factors' difference, or its
    Gauss-Laguerre integral deep in the tail where the difference cancels."""
    lq = log_gammaincc_unchecked(kb, bb)
    vals = lq + log1mexp(np.minimum(lp - lq, 0.0))
    deep = bb > 20.0 * (kb + sb)
    if np.any(deep):  # Q - pareto cancels: exact's Gauss-Laguerre integral
        bd, kd, sd = bb[deep][:, None], kb[deep][:, None], sb[deep][:, None]
        lag_x, lag_w = laguerre_rule()
        log1p_r = np.log1p(lag_x[None, :] / bd)
        integrand = -np.expm1(-sd * log1p_r) * np.exp((kd - 1.0) * log1p_r)
        vals[deep] = (
            -bd[:, 0] + (kd[:, 0] - 1.0) * np.log(bd[:, 0]) - special.gammaln(kd[:, 0]) + np.log(integrand @ lag_w)
        )
    return vals


def _log_factors(a: np.ndarray, q, eps, tau2, c, rho, s, negligible=None, need_H=None):
    """(log_G, log_H), shape (R, J): exact._log_step_factors of R steps (per-row q, eps, tau2, c, rho, s, shape (R,))
    at the nodes a = mu1 - eta_1 (shape (J,), non-increasing), element for element. With ``negligible`` (a float,
    :func:`_direct_factors`), log_G of direct steps is 0.0 where it is below a quarter ulp of every value it is added to
    in :func:`_whole_run`, and the rows of direct steps where ``need_H`` (bool, shape (R,)) is False get no log_H
    (-inf)."""
    R, J = len(q), len(a)
    if negligible is not None and bool(np.all((q > 0) & (s == 1) & (eps > 0))):  # all rows direct: no copies
        k, C = (c + 1.0)[:, None], (np.array([math.log(r) for r in rho.tolist()]) + np.log(q))[:, None]
        need = np.ones(R, dtype=bool) if need_H is None else need_H
        return _direct_factors(a, k, 1.0 / (eps * tau2)[:, None], C, (s * eps)[:, None], negligible, need)
    log_G, log_H = np.zeros((R, J)), np.full((R, J), -np.inf)
    flipped = s == -1
    log_G[flipped], log_H[flipped] = -np.inf, 0.0  # q = 0: K = 0 surely (direct continues, flipped halts)
    for rows, sign, perturbed in (
        (np.flatnonzero((q > 0) & (s == 1) & (eps > 0)), 1, True),
        (np.flatnonzero((q > 0) & flipped & (eps > 0)), -1, True),
        (np.flatnonzero((q > 0) & (eps == 0)), None, False),
    ):
        if not rows.size:
            continue
        col = lambda v, rows=rows: v[rows][:, None]  # noqa: E731
        k = np.broadcast_to(col(c).astype(float) + 1.0, (rows.size, J))
        log_rho = np.array([math.log(r) for r in rho[rows].tolist()])[:, None]
        if perturbed and sign == 1 and negligible is not None:
            need = np.ones(rows.size, dtype=bool) if need_H is None else need_H[rows]
            sigma = 1.0 / (col(eps) * col(tau2))
            log_G[rows], lH = _direct_factors(
                a, k[:, :1], sigma, log_rho + np.log(col(q)), col(s) * col(eps), negligible, need
            )
            log_H[rows[need]] = lH[need]
            continue
        log_b = (log_rho + np.log(col(q))) + (col(s) * col(eps)) * a[None, :]
        b = np.exp(log_b)
        if not perturbed:  # no perturbation: K ~ Po(rho q) for every eta
            lP, lQ = log_gammainc_unchecked(k, b), log_gammaincc_unchecked(k, b)
            direct = (s[rows] == 1)[:, None]
            log_G[rows], log_H[rows] = np.where(direct, lQ, lP), np.where(direct, lP, lQ)
            continue
        sigma = np.broadcast_to(1.0 / (col(eps) * col(tau2)), (rows.size, J))
        if sign == 1:
            log_pareto = sigma * log_b + log_upper_gamma_unchecked(k - sigma, b) - special.gammaln(k)
            log_m = _log_main(k, b, log_pareto, upper=False)  # P(k, b): halting with no help from eta_2
        else:
            log_pareto = (
                -sigma * log_b + special.gammaln(k + sigma) - special.gammaln(k) + log_gammainc_unchecked(k + sigma, b)
            )
            log_m = _log_main(k, b, log_pareto, upper=True)  # Q(k, b)
        lH = np.minimum(np.logaddexp(log_m, log_pareto), 0.0)
        lG = log1mexp(lH)
        big = lH > math.log(0.5)
        if np.any(big):
            bb, lp, kb, sb = b[big], log_pareto[big], k[big], sigma[big]
            if sign == 1:
                vals = _direct_continuation(bb, lp, kb, sb)
            else:
                lpk = log_gammainc_unchecked(kb, bb)
                vals = lpk + log1mexp(np.minimum(lp - lpk, 0.0))
            lG[big] = vals
        log_G[rows], log_H[rows] = lG, lH
    return log_G, log_H


def _logsumexp_rows(v: np.ndarray) -> np.ndarray:
    """logsumexp_unchecked(v) along the last axis of a C-contiguous v, in place (v is overwritten): the same numbers."""
    m = np.max(v, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    v -= m
    with np.errstate(divide="ignore"):
        return m[:, 0] + np.log(np.sum(np.exp(v, out=v), axis=-1))


def _whole_run(steps: _Steps, pstar: float, stop_above: float | None = None, windowed: bool = True):
    """(error, per_th) of :func:`whole_run_error` for the steps ``steps``; with ``stop_above``, (e, None) for some
    e > stop_above as soon as the worst stream through the steps computed so far errs with probability e (the
    remaining steps can only add streams). ``windowed`` False evaluates every special function at every node (the
    plain form; the windows of :func:`_direct_factors` give the same numbers bit for bit, tests/test_calibration.py)."""
    T = len(steps.c)
    p = np.maximum(steps.pbar, 0.0)  # the worst stream: p_t = max(pbar_t, 0), then p* at t_h
    q = np.where(steps.s == -1, 1.0 - p, p)  # the counted mechanism's success (exact.counted_success, delta = 0)
    q_halt = np.where(steps.s == -1, 1.0 - pstar, pstar)
    low = steps.pbar > 0  # halting at such a step (with p_t <= pbar_t) is a Type I error
    h = panel_width_unchecked(steps.tau1, steps.tau2, steps.eps, steps.c)
    x, log_w, _ = x_nodes_unchecked(steps.tau1, steps.mu1, h, -100.0)
    cum = -x / steps.tau1 - math.log(steps.tau1) + log_w  # log f_1 (with the quadrature weight) before step 1
    a = steps.mu1 - x
    # cum < 0 only falls, so a log G below a quarter ulp of min |cum| at the start leaves every sum it enters unchanged;
    # the windows rely on a not increasing along the nodes (x_nodes is sorted)
    windowed = windowed and bool(np.all(a[1:] <= a[:-1]))
    negligible = float(np.log(np.spacing(np.abs(cum)).min() / 8.0)) if windowed else None
    log_halt_p, log_alt = np.empty(T), np.empty(T)
    J = len(x)
    block = max(1, _BLOCK // (2 * J))
    typeI = -np.inf  # log Pr[Type I at a step before the block]
    for i0 in range(0, T, block):
        i = slice(i0, min(i0 + block, T))
        n = i.stop - i.start
        rows = lambda v, i=i: np.concatenate([v[i], v[i]])  # noqa: E731  (p, then p* at the same steps)
        lG, lH = _log_factors(
            a,
            np.concatenate([q[i], q_halt[i]]),
            rows(steps.eps),
            rows(steps.tau2),
            rows(steps.c),
            rows(steps.rho),
            rows(steps.s),
            negligible,
            np.arange(2 * n) < n,  # log H is needed at p only
        )
        before = np.empty((n, J))  # log Pr[continue through t - 1, eta_1] per node: cum, then adding log G row by row
        before[0] = cum
        for r in range(1, n):
            np.add(before[r - 1], lG[r - 1], out=before[r])
        log_halt_p[i] = _logsumexp_rows(np.add(before, lH[:n], out=lH[:n]))  # halt at t with p_t (Type I where low)
        log_alt[i] = _logsumexp_rows(np.add(before, lG[n:], out=lG[n:]))  # continue at t with p* (Type II)
        cum = before[-1] + lG[n - 1]
        if stop_above is not None:
            acc = np.logaddexp.accumulate(np.r_[typeI, np.where(low[i], log_halt_p[i], -np.inf)])
            worst = float(np.exp(np.logaddexp(acc[:-1], log_alt[i])).max())
            if worst > stop_above:
                return worst, None
            typeI = acc[-1]
    log_typeI = np.where(low, log_halt_p, -np.inf)
    typeI_before = np.r_[-np.inf, np.logaddexp.accumulate(log_typeI)[:-1]]  # Pr[Type I at a step < t_h]
    per_th = np.exp(np.logaddexp(typeI_before, log_alt))
    per_th = np.r_[per_th, np.exp(np.logaddexp.accumulate(log_typeI)[-1])]
    return float(per_th.max()), per_th


# ---------------------------------------------------------------------------------------------------------------
# What an exact whole-run error costs, and the horizons within reach

#: Most exact work :func:`whole_run_error` and :func:`certified_calibration` undertake, in step-node evaluations: the
#: steps t <= T times the J nodes of the eta_1 quadrature (privtest.exact, about 1,000 to 10,000), once for
#: whole_run_error; for certified_calibration its worst case (the search on the first PREFIX_T steps, one evaluation
#: over all T steps and, should the first steps' verdict not hold there, the search over all T steps). Each costs 40
#: to 80 ns of CPU on the reference machine (2 shared cores; both inputs of a step at a node, the incomplete gamma
#: functions at a tenth of the nodes or fewer), so 10^9 is about a minute. Beyond it the call is refused naming T and
#: the largest T within reach: the quadrature and its numbers are what the certificate is, so the work cannot shrink
#: without changing them. At eps = 1, beta = 0.05, theta = 1, eps_t = 0.1, p* = 0.5 (tol = 0.02) whole_run_error
#: reaches T = 179,083 (T = 10^5: about 40 s) and certified_calibration T = 11,359 (T = 10^4: 3 s, its prefix's verdict
#: holding; T = 10^5 is refused).
MAX_CERTIFY_WORK = 10**9
#: Steps on which :func:`certified_calibration` searches kappa before one evaluation over all T steps.
PREFIX_T = 100
#: Relative margin over beta above which the error of the first PREFIX_T steps (on their own quadrature nodes, which
#: agree with those of all T steps to ~1e-13, tests/test_calibration.py) is an error of all T steps above beta.
_PREFIX_MARGIN = 1e-9


def _nodes(cal, T: int, eps_t: float, pstar: float) -> int:
    """J, the eta_1 nodes of the exact pass over steps 1..T (privtest.exact.x_nodes at exact.panel_width), from the
    steps 1 and T (tau_2,t is smallest at t = 1 for this library's calibrations, c_t largest at t = T)."""
    ends = [cal.step(t, eps_t, pstar) for t in sorted({1, T})]
    h = panel_width_unchecked(cal.tau1, [st.tau2 for st in ends], [st.eps_t for st in ends], [st.c for st in ends])
    return GL_NODES * max(1, math.ceil((cal.mu1 + cal.tau1 * 100.0) / h))


def _check_reach(cal, T: int, eps_t: float, pstar: float, evaluations: int, caller: str) -> None:
    """Refuse, naming T, a horizon beyond reach, before any of the work. The work is J x (T x passes + min(T,
    PREFIX_T) x extra) step-node evaluations: passes = 1, extra = 0 for one error (``evaluations`` = 1); for a search
    over ``evaluations`` > 1 budget scales (:func:`certified_calibration`), extra = evaluations (the search on the
    first PREFIX_T steps) and passes = evaluations + 1 (one error over all T steps and, should the first steps'
    verdict not hold, the search over all T steps). T must be <= the reach, the largest T whose work is
    <= MAX_CERTIFY_WORK with J taken at the horizon t_cap, the reach at J_min = 16 (X / tau1 panels: the panel width
    is at most tau1). The reach does not depend on T, and every T within it costs at most MAX_CERTIFY_WORK: J grows
    with the horizon (through c_t) and the reach is <= t_cap."""
    passes, extra = (1, 0) if evaluations == 1 else (evaluations + 1, evaluations)

    def largest(J):  # the largest T with J x (T x passes + min(T, PREFIX_T) x extra) <= MAX_CERTIFY_WORK
        budget = MAX_CERTIFY_WORK // J
        if budget >= PREFIX_T * (passes + extra):
            return (budget - PREFIX_T * extra) // passes
        return budget // (passes + extra)

    lowest = GL_NODES * max(1, math.ceil((cal.mu1 + cal.tau1 * 100.0) / cal.tau1))
    t_cap = largest(lowest)
    try:
        J = _nodes(cal, t_cap, eps_t, pstar) if t_cap >= 1 else lowest
    except ValueError:  # a calibration defined only up to its own horizon (before t_cap): J at the requested T
        J = _nodes(cal, T, eps_t, pstar)
    reach = largest(J)
    if T <= reach:
        return
    span = f"in [1, {reach}]" if reach >= 1 else "an integer >= 1 within reach, and none is"
    head = min(T, PREFIX_T)
    if evaluations > 1:
        times = (
            f"for up to {evaluations} budget scales kappa on the first {head} steps, then over all T steps once "
            f"and, should the first steps' verdict not hold there, for up to {evaluations} more: "
            f"{J} x ({T} x {passes} + {head} x {extra})"
        )
    else:
        times = f"once: {T} x {J}"
    work = J * (T * passes + head * extra)
    raise ValueError(
        f"T must be {span} for {caller} at these parameters. Found {T}. Its exact whole-run error integrates each "
        f"step t <= T at J = {J} quadrature nodes of eta_1 (privtest.exact), {times} = {work:,} "
        f"step-node evaluations exceed MAX_CERTIFY_WORK = {MAX_CERTIFY_WORK:,} (about a minute of CPU at 40 to 80 "
        "ns each; the cost is linear in T, and the certificate is these very numbers, so it has no cheaper form). "
        + ("Lower T, or raise tol." if evaluations > 1 else "Lower T.")
    )


def _certify_evaluations(beta: float, tol: float) -> int:
    """At most how many budget scales kappa :func:`certified_calibration` evaluates: kappa = 1, the gallop from the
    cap 2^j_max >= 4/beta and the bisection on j (each O(log j_max)), and the bisection on ln kappa from ln 2 to
    ln(1 + tol) (at most 60 halvings: floats run out first)."""
    j_max, cap = 1, 2.0
    while cap < 4.0 / beta:
        j_max, cap = j_max + 1, cap * 2.0
    steps_j = math.ceil(math.log2(j_max)) + 1 if j_max > 1 else 1
    halvings = min(60, max(0, math.ceil(math.log2(math.log(2.0) / math.log1p(tol))))) if tol < 1.0 else 0
    return 1 + 2 * steps_j + 1 + halvings


def whole_run_error(cal, T: int, eps_t: float, pstar: float):
    """Exact worst-case probability of any Type I/II error (Definition 13) within T steps, over all input streams.

    Reduction (proved in docs/findings.md, "Certified calibration"): conditioned on eta_1, Pr[error] is
    non-decreasing in p_i at every step before the first step with p_i >= p*_i and non-increasing in that step's p;
    so the worst streams are p_i = pbar_i (max(pbar_i, 0)) for i < t_h and p_{t_h} = p* for some t_h in 1..T, or
    pbar_i at all T steps. An adaptive analyst reduces to a fixed stream: before a halt the only history is "all
    continued".

    Computation: the transcript probabilities of those streams by privtest.exact's quadrature over eta_1 (J nodes,
    about 1,000 to 10,000), both inputs of every step at once, on blocks of steps (the arithmetic of
    :func:`privtest.exact.transcript_log_probs` element for element: the same numbers; in direct steps the incomplete
    gamma functions are evaluated only at the nodes where they can change a bit of the result, a tenth of them or
    fewer, and skipped where a bound shows they cannot, e.g. where Q(s, b) is 1.0 exactly). The work is T x J step-node
    evaluations, 40 to 80 ns of CPU each (0.4 s at T = 1,000, 3 s at T = 10,000 and about 40 s at T = 10^5 with eps = 1,
    beta = 0.05, theta = 1, eps_t = 0.1, the reference machine); beyond :data:`MAX_CERTIFY_WORK` the call is refused
    naming T.

    Args:
        cal: a calibration (``tau1``, ``mu1``, ``step(t, eps_t, pstar)``), e.g. :class:`ExactTailCalibration`.
        T: number of steps, integer >= 1, with T x J <= :data:`MAX_CERTIFY_WORK` (T up to 179,083 at eps = 1,
            beta = 0.05, theta = 1, eps_t = 0.1, p* = 0.5).
        eps_t: input privacy, finite and >= 0; pstar: p* in (0, 1).

    Returns:
        (error, per_th): the maximum, and the array (T + 1,) of err(t_h) for t_h = 1..T and "no p* step" (last).

    Raises:
        ValueError: naming T, eps_t or pstar outside its range (T: with the largest T within reach and why).

    Example:
        >>> err, per_th = whole_run_error(ExactTailCalibration(1.0, 0.05, 1.0, 1.5), 3, 0.1, 0.5)
        >>> round(err, 6), per_th.shape
        (0.005791, (4,))
    """
    T = _validate.step_index(T, "T")
    _validate.nonnegative("eps_t", eps_t)
    _validate.open_unit("pstar", pstar)
    _check_reach(cal, T, eps_t, pstar, 1, "whole_run_error")
    return _whole_run(_steps(cal, T, eps_t, pstar), float(pstar))


def certified_calibration(
    eps,
    beta,
    theta,
    gamma,
    T: int,
    eps_t: float,
    pstar: float,
    variant: str = "auto",
    tol: float = 0.02,
    *,
    allow_vacuous: bool = False,
):
    """The exact-tail calibration with the largest budget scale kappa (within a factor 1 + tol, by bisection on
    ln kappa) whose exact whole-run error within T steps is <= beta for every input stream (:func:`whole_run_error`).

    Search: kappa = 1 must pass; the bracket [2^(j-1), 2^j] is the first j >= 1 with error(2^j) > beta, or the
    first with 2^j >= 4/beta; then bisection on ln kappa down to a factor 1 + tol. Like the bisection, the bracket
    search takes the error to be non-decreasing in kappa: it gallops down from the cap (j = j_max - 1, j_max - 3,
    j_max - 7, ...) to a passing exponent and bisects between it and the last failing one: one or two exact
    evaluations where the certified kappa is near the cap 4/beta, O(log log(1/beta)) otherwise, instead of one per
    doubling; and the same bracket as the doubling 2, 4, 8, ... for a non-decreasing error. Each kappa is evaluated
    once, by :func:`whole_run_error`'s exact pass (steps 1..T on arrays; the parts of the steps that do not depend on
    kappa computed once), stopped as soon as the error through the steps so far exceeds beta (only the comparison
    with beta is used there).

    Prefix: for T > :data:`PREFIX_T` the search runs on the first PREFIX_T steps. Their error is a lower bound of the
    error of all T steps (the same worst streams, fewer steps; their quadrature, on fewer nodes, agrees to ~1e-13, so
    a prefix error above beta (1 + 1e-9) is a failure over all T steps), and a pass there is tentative: the kappa
    found is evaluated over all T steps. If it passes, so does every kappa the search passed, all of them below it
    (the error being non-decreasing in kappa, as the search assumes): the search over all T steps would have made the
    same comparisons, so its kappa and error are returned, at the cost of one evaluation over all T steps instead of
    one per kappa. If it fails, the search runs again over all T steps (the prefix's failures kept). Cost (CPU time on
    the reference machine, eps = 1, beta = 0.05, eps_t = 0.1, p* = 0.5): about 0.3 s at T = 100, 0.6 s at T = 1,000
    and 3 s at T = 10^4, linear in T beyond the prefix; should the prefix's verdict not hold, one more evaluation
    over all T steps per kappa searched. A horizon whose work, counted for that case, exceeds
    :data:`MAX_CERTIFY_WORK` is refused before any of it (there T > 11,359: T = 10^5 is refused).

    Args:
        eps, beta, theta, gamma, variant: as :class:`~privtest.gtm.GlobalCalibration`.
        T: number of steps the guarantee covers, integer >= 1, with J x (T x (n + 1) + min(T, PREFIX_T) x n) <=
            :data:`MAX_CERTIFY_WORK` (J: eta_1 quadrature nodes; n: kappas evaluated at most; T up to 11,359 at
            eps = 1, beta = 0.05, theta = 1, eps_t = 0.1, p* = 0.5, tol = 0.02; the refusal gives the largest T for
            the parameters given).
        eps_t: input privacy of every step, finite and >= 0.
        pstar: acceptance threshold in (0, 1).
        tol: relative precision of kappa, finite and > 0.
        allow_vacuous: True to certify a configuration with a vacuous step t <= T (E[N_t] = inf or pbar_t <= 0,
            :func:`privtest.gtm.check_admissible`); refused by default, before any work.

    Returns:
        (calibration, error): the :class:`ExactTailCalibration` and its certified whole-run error (<= beta).

    Raises:
        ValueError: naming tol, T, eps_t, pstar or a calibration parameter out of range (T beyond reach: with the
            largest T within reach and why); naming eps_t for a vacuous configuration (with the largest admissible
            eps_t); or if Theorem 21's budgets (kappa = 1) already exceed beta.

    Example:
        >>> cal, err = certified_calibration(1.0, 0.05, 1.0, 1.5, 3, 0.1, 0.5, tol=0.5)
        >>> cal.budget_scale > 1, err <= 0.05
        (True, True)
    """
    _validate.positive("tol", tol)
    T = _validate.step_index(T, "T")
    _validate.nonnegative("eps_t", eps_t)
    _validate.open_unit("pstar", pstar)
    base = ExactTailCalibration(eps, beta, theta, gamma, variant)
    check_admissible(base, eps_t, pstar, T, allow_vacuous=allow_vacuous)
    _check_reach(base, T, eps_t, pstar, _certify_evaluations(float(beta), float(tol)), "certified_calibration")
    eps_t, pstar = float(eps_t), float(pstar)
    shared = _exact_tail_base(base, T, eps_t, pstar)  # the steps' parts that do not depend on kappa
    T0 = min(T, PREFIX_T)
    errors, prefix = {}, {}

    def full(kappa):  # exact where it is <= beta; above, a lower bound > beta (the search only compares it with beta)
        if kappa not in errors:
            cal = ExactTailCalibration(eps, beta, theta, gamma, variant, kappa)
            errors[kappa] = _whole_run(_steps(cal, T, eps_t, pstar, shared), pstar, stop_above=beta)[0]
        return errors[kappa]

    above = beta * (1.0 + _PREFIX_MARGIN)  # a prefix error above it is one of all T steps above beta

    def on_prefix(kappa):  # the verdict of the first T0 steps: a failure holds for all T steps, a pass is tentative
        if kappa not in prefix:
            cal = ExactTailCalibration(eps, beta, theta, gamma, variant, kappa)
            head = None if shared is None else tuple(v[:T0] for v in shared)
            prefix[kappa] = _whole_run(_steps(cal, T0, eps_t, pstar, head), pstar, stop_above=above)[0]
        return prefix[kappa] <= above

    def exact(kappa):  # the verdict on all T steps (a prefix failure, when known, is one)
        return not prefix.get(kappa, 0.0) > above and full(kappa) <= beta

    lo = _kappa_search(beta, tol, on_prefix) if T0 < T else None
    if lo is None or full(lo) > beta:  # the steps after T0 decide after all: the search on all T steps
        lo = _kappa_search(beta, tol, exact)
    return ExactTailCalibration(eps, beta, theta, gamma, variant, lo), full(lo)


def _kappa_search(beta: float, tol: float, passes) -> float:
    """:func:`certified_calibration`'s search: the largest kappa found by the gallop, the bisection on j and the
    bisection on ln kappa, given ``passes(kappa)`` (the whole-run error at kappa is <= beta). Every passing kappa it
    visits is <= the one it returns (each becomes the lower end of the bracket)."""
    if not passes(1.0):
        raise ValueError("the exact-tail calibration with Theorem 21's budgets already exceeds beta")
    j_max, cap = 1, 2.0  # the first exponent with 2^j >= 4/beta (bounded: cap doubles, to inf at most)
    while cap < 4.0 / beta:
        j_max, cap = j_max + 1, cap * 2.0

    def fails(j):  # the bracket's upper end: err(2^j) > beta, or the cap 2^j >= 4/beta
        return j >= j_max or not passes(2.0**j)

    # j_lo passes (j = 0: kappa = 1 checked above), j_hi fails; gallop down from the cap (bounded: the step doubles)
    j_lo, j_hi, step = j_max - 1, j_max, 1
    while j_lo > 0 and fails(j_lo):
        j_hi, j_lo, step = j_lo, max(j_lo - 2 * step, 0), 2 * step
    while j_hi - j_lo > 1:  # the first failing j: bounded, j_hi - j_lo halves every pass
        j = (j_lo + j_hi) // 2
        j_lo, j_hi = (j, j_hi) if not fails(j) else (j_lo, j)
    lo, hi = 2.0 ** (j_hi - 1), 2.0**j_hi
    while hi / lo > 1.0 + tol:  # bounded: ln(hi/lo) halves every pass
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if passes(mid) else (lo, mid)
    return lo


# ---------------------------------------------------------------------------------------------------------------
# Choosing a calibration

#: theta grid of :func:`choose_calibration` (around :data:`~privtest.gtm.DEFAULT_THETA`).
CHOICE_THETAS = (0.5, 1.0, 2.0)
#: gamma grid of :func:`choose_calibration` (around :data:`~privtest.gtm.DEFAULT_GAMMA`).
CHOICE_GAMMAS = (1.25, 1.5, 2.0)
#: Largest T :func:`choose_calibration` accepts: it computes every step t <= T of each grid point (a few seconds at
#: T = 2000; ten times that at T = 10^4).
MAX_CHOICE_T = 2_000
#: Largest T at which :func:`choose_calibration` certifies: beyond it the certified candidate is listed as not computed.
#: :func:`certified_calibration` takes about 0.3 s at T = 100 and 0.6 s at T = 1,000 (CPU; refused beyond
#: :data:`MAX_CERTIFY_WORK`); the limit stays at 100 so that the choice for any T <= :data:`MAX_CHOICE_T` is unchanged.
MAX_CERTIFY_T = 100

# What each candidate guarantees besides pure eps-DP (Lemma 17: the noise is Theorem 21's for all of them).
_GUARANTEE_21 = "Theorem 21: error <= beta, any stream length"
_GUARANTEE_EXACT = "Theorem 21 with exact Poisson tails: the same"
_GUARANTEE_CERTIFIED = "exact whole-run error <= beta within T steps"


@dataclass(frozen=True)
class CalibrationCandidate:
    """One row of :attr:`CalibrationChoice.candidates`: a calibration :func:`choose_calibration` considered.

    Attributes:
        name: "Theorem 21", "exact tails" or "certified".
        parameters: its free parameters (theta, gamma; budget_scale for the exact-tail ones).
        expected_evaluations: sum over t <= T of E[N_t] (:attr:`~privtest.gtm.StepParams.expected_samples`, which does
            not depend on p_t): the expected evaluations of a run that continues through all T steps, p*_t = p*
            (inf for a vacuous step, nan if not computed).
        pbar: the smallest rejection threshold min_{t <= T} pbar_t (nan if not computed).
        guarantee: what it guarantees (Theorem 21 for any stream length, or the certified T-step error).
        meets: whether it meets the guarantee asked for.
        note: why it does not (empty if it does).

    Example:
        >>> row = CalibrationCandidate("Theorem 21", {"theta": 1.0, "gamma": 1.5}, 1e4, 0.02, "Theorem 21", True)
        >>> row.meets, row.note
        (True, '')
    """

    name: str
    parameters: dict
    expected_evaluations: float
    pbar: float
    guarantee: str
    meets: bool
    note: str = ""


@dataclass(frozen=True)
class CalibrationChoice:
    """The result of :func:`choose_calibration`.

    Attributes:
        calibration: the chosen calibration (a :class:`~privtest.gtm.GlobalCalibration` or an
            :class:`ExactTailCalibration`), ready for :class:`~privtest.testers.GTMTester` or
            :class:`~privtest.gtm.GTM`.
        candidates: the rows that decided it (:class:`CalibrationCandidate`), in the order considered.
        chosen: the index of the chosen row in ``candidates``.

    Example:
        >>> choice = choose_calibration(1.0, 0.1, 0.05, 0.5, 5, certify=False)
        >>> choice.candidates[choice.chosen].name, type(choice.calibration).__name__
        ('exact tails', 'ExactTailCalibration')
    """

    calibration: GlobalCalibration
    candidates: tuple = field(default_factory=tuple)
    chosen: int = 0


def _evaluations_and_pbar(cal, eps_t: float, pstar: float, T: int) -> tuple[float, float]:
    steps = [cal.step(t, eps_t, pstar) for t in range(1, T + 1)]
    return float(sum(st.expected_samples for st in steps)), float(min(st.pbar for st in steps))


def choose_calibration(
    eps: float,
    eps_t: float,
    beta: float,
    pstar: float,
    T: int,
    *,
    pbar: float | None = None,
    finite_horizon: bool = True,
    certify: bool = True,
    variant: str = "auto",
) -> CalibrationChoice:
    """The calibration with the fewest expected evaluations among those that meet the guarantee asked for.

    Candidates: Theorem 21's :class:`~privtest.gtm.GlobalCalibration` at every (theta, gamma) of :data:`CHOICE_THETAS`
    x :data:`CHOICE_GAMMAS`; at the best of them, the :class:`ExactTailCalibration` (the same pbar_t, fewer
    evaluations) and the certified calibration (:func:`certified_calibration`, T <= :data:`MAX_CERTIFY_T`). A candidate
    meets the guarantee asked for when no step t <= T is vacuous (:func:`privtest.gtm.first_vacuous_step`), its
    rejection threshold is at least ``pbar`` at every t <= T, and (``finite_horizon=False``) its guarantee holds for a
    stream of any length. Expected evaluations: the sum over t <= T of E[N_t] (p*_t = p*; E[N_t] does not depend on
    p_t): a run that continues through all T steps.

    Args:
        eps: output privacy, finite and > 0.
        eps_t: input privacy of every step, finite and > 0.
        beta: global failure probability in (0, 1).
        pstar: acceptance threshold in (0, 1).
        T: number of steps, integer in [1, :data:`MAX_CHOICE_T`].
        pbar: the rejection threshold needed at every step t <= T, in [0, pstar); None: that of the defaults
            (:data:`~privtest.gtm.DEFAULT_THETA`, :data:`~privtest.gtm.DEFAULT_GAMMA`), so the choice never lowers it.
        finite_horizon: True if the stream has at most T steps (the certified T-step guarantee qualifies); False for a
            guarantee at every t (Theorem 21's).
        certify: False to skip the certified candidate (it costs about 0.3 s at T = 50).
        variant: "auto" (flipping rule), "direct" or "flipped", for every candidate.

    Returns:
        :class:`CalibrationChoice`: the calibration and the candidate rows (with the reason a row does not meet the
        guarantee).

    Raises:
        ValueError: naming a parameter outside its range (T above :data:`MAX_CHOICE_T`: the grid would take minutes);
            naming eps_t if every candidate is vacuous (the message of :func:`~privtest.gtm.check_admissible` for the
            defaults, with the largest admissible eps_t); naming pbar if no candidate reaches it.

    Example:
        >>> choice = choose_calibration(1.0, 0.1, 0.05, 0.5, 50, certify=False)
        >>> row = choice.candidates[choice.chosen]
        >>> row.name, row.parameters["theta"], row.parameters["gamma"]
        ('exact tails', 1.0, 1.5)
        >>> choose_calibration(1.0, 0.1, 0.05, 0.5, 50, pbar=0.001, certify=False).calibration.gamma  # lower pbar
        2.0
    """
    _validate.positive("eps", eps)
    _validate.positive("eps_t", eps_t)
    _validate.open_unit("beta", beta)
    _validate.open_unit("pstar", pstar)
    T = _validate.integer("T", T, 1)
    if T > MAX_CHOICE_T:
        raise ValueError(
            f"T must be <= {MAX_CHOICE_T} for choose_calibration (it computes every step t <= T of "
            f"{len(CHOICE_THETAS) * len(CHOICE_GAMMAS)} calibrations; larger T would take minutes). Found {T}."
        )
    if pbar is not None:
        _validate.interval("pbar", pbar, 0.0, float(pstar), lo_open=False, hi_open=True)
    finite_horizon = _validate.boolean("finite_horizon", finite_horizon)
    certify = _validate.boolean("certify", certify)
    default = GlobalCalibration(eps, beta, DEFAULT_THETA, DEFAULT_GAMMA, variant)
    eps_t, pstar = float(eps_t), float(pstar)
    need = _evaluations_and_pbar(default, eps_t, pstar, T)[1] if pbar is None else float(pbar)

    rows: list[CalibrationCandidate] = []
    best = None  # (evaluations, index, calibration) of the best Theorem 21 grid point
    for theta in CHOICE_THETAS:
        for gamma in CHOICE_GAMMAS:
            cal = GlobalCalibration(eps, beta, theta, gamma, variant)
            params = {"theta": theta, "gamma": gamma}
            vacuous = first_vacuous_step(cal, eps_t, pstar, T)
            evals, low = _evaluations_and_pbar(cal, eps_t, pstar, T)
            note = ""
            if vacuous is not None:
                note = f"step t = {vacuous[0]} is vacuous: {vacuous[1].split(':')[0]}"
            elif low < need:
                note = f"min pbar_t = {low:.4g} < the pbar asked for, {need:.4g}"
            rows.append(CalibrationCandidate("Theorem 21", params, evals, low, _GUARANTEE_21, not note, note))
            if not note and (best is None or evals < best[0]):
                best = (evals, len(rows) - 1, cal)
    if best is None:
        check_admissible(default, eps_t, pstar, T)  # every candidate vacuous at the defaults: say why, and the fix
        top = max(r.pbar for r in rows if not r.note.startswith("step"))
        raise ValueError(
            f"pbar = {need!r}: no calibration of the grid keeps pbar_t >= pbar at every t <= T = {T} without a "
            f"vacuous step; the largest min_t pbar_t is {top!r}. Ask for a lower pbar, or lower eps_t."
        )
    theta, gamma = best[2].theta, best[2].gamma
    exact = ExactTailCalibration(eps, beta, theta, gamma, variant)
    evals, low = _evaluations_and_pbar(exact, eps_t, pstar, T)
    params = {"theta": theta, "gamma": gamma, "budget_scale": 1.0}
    rows.append(CalibrationCandidate("exact tails", params, evals, low, _GUARANTEE_EXACT, True))
    best = min(best, (evals, len(rows) - 1, exact), key=lambda b: b[0])
    if certify:
        cert, note = None, f"not computed: T = {T} > {MAX_CERTIFY_T} (its exact whole-run error would take minutes)"
        if T <= MAX_CERTIFY_T:
            try:
                cert, _ = certified_calibration(eps, beta, theta, gamma, T, eps_t, pstar, variant)
            except ValueError as err:  # e.g. Theorem 21's own budgets already exceed beta within T steps
                note = f"not certified: {err}"
        if cert is None:
            rows.append(CalibrationCandidate("certified", {}, math.nan, math.nan, _GUARANTEE_CERTIFIED, False, note))
        else:
            evals, low = _evaluations_and_pbar(cert, eps_t, pstar, T)
            params = {"theta": theta, "gamma": gamma, "budget_scale": cert.budget_scale}
            note = "" if finite_horizon else "its guarantee covers T steps only (finite_horizon=False)"
            rows.append(CalibrationCandidate("certified", params, evals, low, _GUARANTEE_CERTIFIED, not note, note))
            if not note:
                best = min(best, (evals, len(rows) - 1, cert), key=lambda b: b[0])
    return CalibrationChoice(best[2], tuple(rows), best[1])
