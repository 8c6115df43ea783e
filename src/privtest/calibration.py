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
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from privtest import _validate
from privtest.exact import Stream, transcript_log_probs
from privtest.gtm import GlobalCalibration, StepParams, flip_direction, reachable_budget, rejection_threshold
from privtest.schedule import beta_t as _beta_t

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
    """L(c, alpha): the smallest Poisson mean with Pr[Po(L) <= c] <= alpha (scipy ``pdtri``, the inverse upper
    regularized gamma function Q(c + 1, .) without cancellation, nudged up until the inequality holds in floating
    point, so the guarantee is never lost to rounding).

    Raises:
        ValueError: naming alpha if it is outside (0, 1) or out of numerical reach (no float mean meets it).
    """
    _validate.open_unit("alpha", alpha)
    return _lambda_left(_validate.integer("c", c, 0), alpha)


def _lambda_left(c: int, alpha: float) -> float:
    """:func:`lambda_left_exact` on validated arguments (the searches below call it thousands of times)."""
    return _nudged(float(special.pdtri(c, alpha)), lambda lam: special.pdtr(c, lam) <= alpha, 1.0, c, alpha, "alpha")


def lambda_right_exact(c: int, alpha: float) -> float:
    """R(c, alpha): the largest Poisson mean with Pr[Po(R) >= c + 1] <= alpha. Pr[Po(lam) >= c + 1] is the lower
    regularized gamma function P(c + 1, lam), so R = ``gammaincinv(c + 1, alpha)`` exactly (no ``1 - alpha``, which
    is 1.0 once alpha < 2^-53), nudged down until the inequality holds in floating point.

    Raises:
        ValueError: naming alpha if it is outside (0, 1) or out of numerical reach (no float mean meets it).
    """
    _validate.open_unit("alpha", alpha)
    return _lambda_right(_validate.integer("c", c, 0), alpha)


def _lambda_right(c: int, alpha: float) -> float:
    """:func:`lambda_right_exact` on validated arguments."""
    lam = float(special.gammaincinv(c + 1, alpha))
    return _nudged(lam, lambda x: special.pdtrc(c, x) <= alpha, -1.0, c, alpha, "alpha")


def count_threshold_exact(alpha: float, beta: float, gamma: float) -> int:
    """Smallest integer c >= 0 with L(c, alpha) <= gamma R(c, beta) (the exact-tail Lemma 11 gap condition).

    Raises:
        ValueError: on alpha, beta outside (0, 1) or gamma outside (1, 2], or naming alpha if no c <= 2^60 meets
            the condition (the budgets are out of numerical reach).
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
    rule, budgets (kappa beta_t/4, kappa = ``budget_scale``) and rejection threshold; smaller c_t and rho_t.

    Args:
        eps, beta, theta, gamma, variant: as :class:`~privtest.gtm.GlobalCalibration`.
        budget_scale: kappa > 0 multiplying the per-step budgets (1 = Theorem 21's beta_t/4; the certified calibration
            raises it while the exact whole-run error stays <= beta).
    """

    budget_scale: float = 1.0

    def __post_init__(self):
        super().__post_init__()
        _validate.positive("budget_scale", self.budget_scale)

    def step(self, t: int, eps_t: float, pstar: float) -> StepParams:
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


def whole_run_error(cal, T: int, eps_t: float, pstar: float):
    """Exact worst-case probability of any Type I/II error (Definition 13) within T steps, over all input streams.

    Reduction (proved in docs/findings.md, "Certified calibration"): conditioned on eta_1, Pr[error] is
    non-decreasing in p_i at every step before the first step with p_i >= p*_i and non-increasing in that step's p;
    so the worst streams are p_i = pbar_i (max(pbar_i, 0)) for i < t_h and p_{t_h} = p* for some t_h in 1..T, or
    pbar_i at all T steps. An adaptive analyst reduces to a fixed stream: before a halt the only history is "all
    continued".

    Returns:
        (error, per_th): the maximum, and the array (T + 1,) of err(t_h) for t_h = 1..T and "no p* step" (last).
    """
    params = [cal.step(t, eps_t, pstar) for t in range(1, T + 1)]
    pbar = np.array([st.pbar for st in params])
    low = pbar > 0  # halting at such a step (with p_t <= pbar_t) is a Type I error
    stream = Stream.from_params(params, np.maximum(pbar, 0.0), tau1=cal.tau1, mu1=cal.mu1)
    # one pass: Type I (halt at a step with p_t = pbar_t, log_halt_p) and Type II (continue at t_h with p_{t_h} = p*)
    R_star = transcript_log_probs(stream, p_halt=np.full(T, pstar))
    log_typeI = np.where(low, R_star.log_halt_p, -np.inf)
    typeI_before = np.r_[-np.inf, np.logaddexp.accumulate(log_typeI)[:-1]]  # Pr[Type I at a step < t_h]
    per_th = np.exp(np.logaddexp(typeI_before, R_star.log_continue_alt))
    per_th = np.r_[per_th, np.exp(np.logaddexp.accumulate(log_typeI)[-1])]
    return float(per_th.max()), per_th


def certified_calibration(
    eps, beta, theta, gamma, T: int, eps_t: float, pstar: float, variant: str = "auto", tol: float = 0.02
):
    """The exact-tail calibration with the largest budget scale kappa (within a factor 1 + tol, by bisection on
    ln kappa) whose exact whole-run error within T steps is <= beta for every input stream (:func:`whole_run_error`).

    Search: kappa = 1 must pass; the bracket [2^(j-1), 2^j] is the first j >= 1 with error(2^j) > beta, or the
    first with 2^j >= 4/beta; then bisection on ln kappa down to a factor 1 + tol. Like the bisection, the bracket
    search takes the error to be non-decreasing in kappa: it gallops down from the cap (j = j_max - 1, j_max - 3,
    j_max - 7, ...) to a passing exponent and bisects between it and the last failing one: one or two exact
    evaluations where the certified kappa is near the cap 4/beta, O(log log(1/beta)) otherwise, instead of one per
    doubling; and the same bracket as the doubling 2, 4, 8, ... for a non-decreasing error. Each kappa is evaluated
    once.

    Returns:
        (calibration, error): the :class:`ExactTailCalibration` and its certified whole-run error (<= beta).

    Raises:
        ValueError: naming tol, T, eps_t or pstar out of range, or if Theorem 21's budgets (kappa = 1) already exceed
            beta.
    """

    _validate.positive("tol", tol)
    T = _validate.step_index(T, "T")
    _validate.nonnegative("eps_t", eps_t)
    _validate.open_unit("pstar", pstar)
    errors = {}

    def err(kappa):
        if kappa not in errors:
            cal = ExactTailCalibration(eps, beta, theta, gamma, variant, kappa)
            errors[kappa] = whole_run_error(cal, T, eps_t, pstar)[0]
        return errors[kappa]

    if err(1.0) > beta:
        raise ValueError("the exact-tail calibration with Theorem 21's budgets already exceeds beta")
    j_max, cap = 1, 2.0  # the first exponent with 2^j >= 4/beta (bounded: cap doubles, to inf at most)
    while cap < 4.0 / beta:
        j_max, cap = j_max + 1, cap * 2.0

    def fails(j):  # the bracket's upper end: err(2^j) > beta, or the cap 2^j >= 4/beta
        return j >= j_max or err(2.0**j) > beta

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
        lo, hi = (mid, hi) if err(mid) <= beta else (lo, mid)
    return ExactTailCalibration(eps, beta, theta, gamma, variant, lo), err(lo)
