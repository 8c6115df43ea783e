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
from privtest.exact import Stream, transcript_log_probs
from privtest.gtm import (
    DEFAULT_GAMMA,
    DEFAULT_THETA,
    GlobalCalibration,
    StepParams,
    check_admissible,
    first_vacuous_step,
    flip_direction,
    reachable_budget,
    rejection_threshold,
)
from privtest.schedule import beta_t as _beta_t

__all__ = [
    "CHOICE_GAMMAS",
    "CHOICE_THETAS",
    "DEFAULT_GAMMA",
    "DEFAULT_THETA",
    "MAX_CERTIFY_T",
    "MAX_CHOICE_T",
    "MAX_ITERATIONS",
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


def whole_run_error(cal, T: int, eps_t: float, pstar: float):
    """Exact worst-case probability of any Type I/II error (Definition 13) within T steps, over all input streams.

    Reduction (proved in docs/findings.md, "Certified calibration"): conditioned on eta_1, Pr[error] is
    non-decreasing in p_i at every step before the first step with p_i >= p*_i and non-increasing in that step's p;
    so the worst streams are p_i = pbar_i (max(pbar_i, 0)) for i < t_h and p_{t_h} = p* for some t_h in 1..T, or
    pbar_i at all T steps. An adaptive analyst reduces to a fixed stream: before a halt the only history is "all
    continued".

    Args:
        cal: a calibration (``tau1``, ``mu1``, ``step(t, eps_t, pstar)``), e.g. :class:`ExactTailCalibration`.
        T: number of steps, integer >= 1; eps_t: input privacy, finite and >= 0; pstar: p* in (0, 1).

    Returns:
        (error, per_th): the maximum, and the array (T + 1,) of err(t_h) for t_h = 1..T and "no p* step" (last).

    Raises:
        ValueError: naming T, eps_t or pstar outside its range.

    Example:
        >>> err, per_th = whole_run_error(ExactTailCalibration(1.0, 0.05, 1.0, 1.5), 3, 0.1, 0.5)
        >>> round(err, 6), per_th.shape
        (0.005791, (4,))
    """
    T = _validate.step_index(T, "T")
    _validate.nonnegative("eps_t", eps_t)
    _validate.open_unit("pstar", pstar)
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
    once. The cost grows with T (about 1 s at T = 50, 2 s at T = 100).

    Args:
        eps, beta, theta, gamma, variant: as :class:`~privtest.gtm.GlobalCalibration`.
        T: number of steps the guarantee covers, integer >= 1.
        eps_t: input privacy of every step, finite and >= 0.
        pstar: acceptance threshold in (0, 1).
        tol: relative precision of kappa, finite and > 0.
        allow_vacuous: True to certify a configuration with a vacuous step t <= T (E[N_t] = inf or pbar_t <= 0,
            :func:`privtest.gtm.check_admissible`); refused by default, before any work.

    Returns:
        (calibration, error): the :class:`ExactTailCalibration` and its certified whole-run error (<= beta).

    Raises:
        ValueError: naming tol, T, eps_t, pstar or a calibration parameter out of range; naming eps_t for a vacuous
            configuration (with the largest admissible eps_t); or if Theorem 21's budgets (kappa = 1) already exceed
            beta.

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


# ---------------------------------------------------------------------------------------------------------------
# Choosing a calibration

#: theta grid of :func:`choose_calibration` (around :data:`~privtest.gtm.DEFAULT_THETA`).
CHOICE_THETAS = (0.5, 1.0, 2.0)
#: gamma grid of :func:`choose_calibration` (around :data:`~privtest.gtm.DEFAULT_GAMMA`).
CHOICE_GAMMAS = (1.25, 1.5, 2.0)
#: Largest T :func:`choose_calibration` accepts: it computes every step t <= T of each grid point (a few seconds at
#: T = 2000; ten times that at T = 10^4).
MAX_CHOICE_T = 2_000
#: Largest T at which :func:`choose_calibration` certifies (:func:`certified_calibration` takes about 2 s at T = 100 and
#: grows faster than T): beyond it the certified candidate is listed as not computed.
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
        certify: False to skip the certified candidate (it costs about 1 s at T = 50).
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
