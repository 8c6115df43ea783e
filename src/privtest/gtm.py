"""The Generalized Thresholding Mechanism (Algorithm 1) and its calibrations (Theorems 21 and 23).

Variable names follow the paper: a shared eta_1 ~ Exp(tau1) drawn at Init, a fresh eta_2,t ~ Exp(tau2_t) per step,
Z_t = s_t (mu1 - eta_1 + eta_2,t), lambda_t = rho_t exp(eps_t Z_t), N_t ~ Po(lambda_t), K_t the number of +1s
among the N_t evaluations (of -M_t when s_t = -1, the flipped variant), halt iff s_t (K_t - c_t - 1/2) > 0.

Privacy (Lemma 17) holds for any c_t, rho_t, s_t: the mechanism is (1/tau1 + 2/tau2_t)-DP at halting and
1/tau1-DP on continuation. A calibration only chooses those per-step values so that the accuracy of
Theorem 21 (global) or Theorem 23 (ex-post) holds.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np

from privtest import _validate
from privtest.mechanisms import Mechanism, purify
from privtest.poisson import count_threshold, lambda_left, lambda_right
from privtest.schedule import beta_t as _beta_t
from privtest.schedule import log_inv_omega


@dataclass(frozen=True)
class StepParams:
    """Per-step parameters of Algorithm 1 chosen by a calibration, with the guarantees they imply.

    Attributes:
        t: step index >= 1.
        eps_t: input privacy of M_t.
        pstar: acceptance threshold p*_t in (0, 1).
        tau1, mu1: shared-noise scale and offset (same at every step).
        tau2: per-step noise scale tau_{2,t}.
        s: direction s_t (+1 direct, -1 flipped: the GTM then tests -M_t against 1 - p*_t).
        c: integer count threshold c_t (Lemma 11).
        rho: base rate rho_t (Lemma 20).
        log_Lambda: ln of the noise penalty Lambda_t (kept in log space; Lambda_t may overflow a float).
        pbar: rejection threshold: the GTM continues w.h.p. whenever p_t <= pbar.
        beta_I, beta_II: per-step Type I / Type II budgets conditioned on the good-noise event (Lemma 19).
        halt_loss: privacy loss of a transcript halting at t: 1/tau1 + 2/tau2 (Lemma 17, eq. 7).
        continue_loss: privacy loss of an all-continuation transcript: 1/tau1 (eq. 6).
    """

    t: int
    eps_t: float
    pstar: float
    tau1: float
    mu1: float
    tau2: float
    s: int
    c: int
    rho: float
    log_Lambda: float
    pbar: float
    beta_I: float
    beta_II: float
    halt_loss: float = field(init=False)
    continue_loss: float = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "continue_loss", 1.0 / self.tau1)
        object.__setattr__(self, "halt_loss", 1.0 / self.tau1 + 2.0 / self.tau2)

    @property
    def Lambda(self) -> float:
        """Noise penalty Lambda_t = exp(log_Lambda) (inf if it overflows a float)."""
        return math.exp(self.log_Lambda) if self.log_Lambda < 709 else math.inf

    @property
    def lambda_max(self) -> float:
        """Bound on lambda_t on the good-noise event (proof of Lemma 22(1)): rho_t Lambda_t for a direct step
        (eta_1 >= 0, eta_2,t <= tau2 ln(4/beta_t)), rho_t for a flipped one (eta_1 <= mu1, eta_2,t >= 0)."""
        return self.rho * (self.Lambda if self.s == 1 else 1.0)

    @property
    def expected_samples(self) -> float:
        """E[N_t] = E[lambda_t] = rho_t E[exp(s_t eps_t (mu1 - eta_1 + eta_2,t))] in closed form (moment generating
        functions of eta_1 ~ Exp(tau1) and eta_2,t ~ Exp(tau2)): rho e^{eps mu1}/((1 + eps tau1)(1 - eps tau2)) for
        s = +1 and rho e^{-eps mu1}/((1 - eps tau1)(1 + eps tau2)) for s = -1, eps = eps_t. Not in the paper; the
        simulations are checked against it. inf when the moment does not exist (eps tau2 >= 1 for s = +1,
        eps tau1 >= 1 for s = -1) or when e^{eps mu1} overflows a float."""
        a, b = self.eps_t * self.tau1, self.eps_t * self.tau2
        if self.s == 1:
            x = self.eps_t * self.mu1
            if b >= 1 or x >= 709:
                return math.inf
            return self.rho * math.exp(x) / ((1 + a) * (1 - b))
        if a >= 1:
            return math.inf
        return self.rho * math.exp(-self.eps_t * self.mu1) / ((1 - a) * (1 + b))


def rejection_threshold(pstar, log_gamma_Lambda):
    r"""Rejection threshold :math:`\max(p^*/(\gamma\Lambda), 1-\gamma\Lambda(1-p^*))` of Theorems 21 and 23.

    Args:
        pstar: acceptance threshold in (0, 1) (scalar or array).
        log_gamma_Lambda: ln(gamma * Lambda_t) >= 0 (scalar or array), in log space so Lambda may be huge.

    Returns:
        float or ndarray (broadcast shape), < p*; it is <= 0 (no continuation guarantee) when both branches are.

    Raises:
        ValueError: if pstar is outside (0, 1) or either argument is not numeric (the parameter is named).
    """
    _validate.open_unit("pstar", pstar, scalar=False)
    _validate.real("log_gamma_Lambda", log_gamma_Lambda, scalar=False)
    pstar = np.asarray(pstar, dtype=float)
    x = np.asarray(log_gamma_Lambda, dtype=float)
    direct = pstar * np.exp(-x)
    flipped = 1.0 - np.exp(np.minimum(x, 700.0)) * (1.0 - pstar)
    out = np.maximum(direct, flipped)
    return float(out) if out.ndim == 0 else out


def flip_direction(pstar: float, log_gamma_Lambda: float) -> int:
    """Flipping rule (proofs of Theorems 21 and 23): s_t = +1 iff gamma Lambda_t (1 - p*_t) > p*_t."""
    return 1 if log_gamma_Lambda + math.log1p(-pstar) > math.log(pstar) else -1


#: Section 4's two ways to solve the above-threshold problem, and the flipping rule that picks the better one.
VARIANTS = {"auto": None, "direct": 1, "flipped": -1}


def _check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {sorted(VARIANTS)}. Found {variant!r}.")


def _calibrate(t, eps_t, pstar, gamma, tau1, mu1, tau2, log_Lambda, err, variant) -> StepParams:
    """Shared step of Theorems 21/23: direction (flipping rule unless the variant fixes it), then Lemma 20 with
    budgets (err, err) for that direction. A fixed variant's ``pbar`` is its own branch of the max (it can be
    negative for the flipped branch: then no continuation guarantee exists at that step)."""
    log_gl = math.log(gamma) + log_Lambda
    s = flip_direction(pstar, log_gl) if VARIANTS[variant] is None else VARIANTS[variant]
    c = count_threshold(err, err, gamma)
    if s == 1:  # Lemma 20(1): rho = lambda^l(c, beta_II) / p*
        rho = lambda_left(c, err) / pstar
    else:  # Lemma 20(2) on -M_t with target 1 - p*: rho = lambda^r(c, beta_II) / (1 - p*)
        rho = lambda_right(c, err) / (1.0 - pstar)
    if variant == "auto":
        pbar = rejection_threshold(pstar, log_gl)
    elif s == 1:
        pbar = pstar * math.exp(-log_gl)
    else:
        pbar = 1.0 - math.exp(min(log_gl, 700.0)) * (1.0 - pstar)
    return StepParams(t, eps_t, pstar, tau1, mu1, tau2, s, c, rho, log_Lambda, pbar, err, err)


def reachable_budget(err: float, t: int, beta: float) -> float:
    """The step's error budget ``err`` if it is a positive float; a ValueError naming beta and t where beta_t
    underflows (beta_t = omega_t beta < ~1e-308: out of numerical reach, no Poisson threshold exists in floats)."""
    if not err > 0:
        raise ValueError(
            f"beta = {beta!r} at t = {t}: the step's error budget (beta_t/4 or beta_t/6) underflows to 0, out of "
            "numerical reach; raise beta or lower t."
        )
    return err


def _check_step(t, eps_t, pstar) -> None:
    t = _validate.step_index(t)
    _validate.nonnegative("eps_t", eps_t)
    _validate.open_unit("pstar", pstar)


def log4_over_beta_t(t, beta):
    """ln(4/beta_t) = ln 4 - ln beta + ln(1/omega_t), exact for huge t. ``t`` and ``beta`` may be arrays
    (broadcast; the scalar path is plain ``math``)."""
    if np.ndim(beta) == 0:
        return math.log(4.0) - math.log(beta) + log_inv_omega(t)
    return math.log(4.0) - np.log(beta) + log_inv_omega(t)


#: Share of beta_t given to each of a step's Type I and Type II budgets beta^I_t = beta^II_t = beta_t/share, per
#: theorem: Theorem 21 (global accuracy) beta_t/4, Theorem 23 (ex-post privacy) beta_t/6.
BUDGET_SHARE = {21: 4.0, 23: 6.0}


def _share(theorem: int) -> float:
    if theorem not in BUDGET_SHARE:
        raise ValueError(f"theorem must be one of {sorted(BUDGET_SHARE)} (21: global, 23: ex post), got {theorem!r}.")
    return BUDGET_SHARE[theorem]


def step_budget(t, beta, theorem: int = 21):
    """The Poisson-tail budget beta^I_t = beta^II_t of step t that Lemma 20 calibrates c_t and rho_t to: beta_t/4 in
    the proof of Theorem 21, beta_t/6 in the proof of Theorem 23 (beta_t = omega_t beta, :func:`privtest.schedule.
    beta_t`).

    Args:
        t: step index >= 1, an integer or an integer array.
        beta: global failure probability in (0, 1).
        theorem: 21 (:class:`GlobalCalibration`) or 23 (:class:`ExPostCalibration`).

    Returns:
        A float (array of floats shaped like ``t``): a probability.

    Raises:
        ValueError: if ``theorem`` is neither 21 nor 23, or t or beta is out of range.
    """
    return _beta_t(t, beta) / _share(theorem)


def halt_miss_bound(t, beta, theorem: int = 21, *, given_eta1: bool = False):
    """Bound on the probability that step t misses a halt at p_t = p*_t (Type II), from the proofs of Theorems 21
    and 23: on {eta_1 <= mu1} the Poisson mean is on the halting side of rho_t (Lemma 19(3)) and Lemma 20(a) leaves
    the step's budget :func:`step_budget`; unconditionally add Pr[eta_1 > mu1] = e^{-mu1/tau1} = beta/4 (Lemma
    19(1); mu1 = tau1 ln(4/beta) in both calibrations): beta/4 + beta_t/4 for Theorem 21.

    Args:
        t, beta, theorem: as in :func:`step_budget`.
        given_eta1: True for the bound conditioned on eta_1 <= mu1 (the step budget alone).

    Returns:
        A float (array shaped like ``t``): a probability.

    Raises:
        ValueError: as :func:`step_budget`.
    """
    budget = step_budget(t, beta, theorem)
    return budget if given_eta1 else beta / 4 + budget


def continue_bound(t, beta, theorem: int = 21):
    """Bound on the probability that step t halts at p_t <= pbar_t (Type I), from the proofs of Theorems 21 and 23:
    the Poisson mean stays below rho_t Lambda_t unless eta_2,t > tau2_t ln(4/beta_t), of probability beta_t/4 (Lemma
    19(1) with c_G = 1/4; eta_1 >= 0 only lowers it), and Lemma 20(b) leaves the step's budget :func:`step_budget`:
    beta_t/4 + beta_t/4 = beta_t/2 for Theorem 21, beta_t/4 + beta_t/6 for Theorem 23.

    Args:
        t, beta, theorem: as in :func:`step_budget`.

    Returns:
        A float (array shaped like ``t``): a probability.

    Raises:
        ValueError: as :func:`step_budget`.
    """
    return _beta_t(t, beta) / 4 + step_budget(t, beta, theorem)


@dataclass(frozen=True)
class GlobalCalibration:
    r"""Parameters of the proof of Theorem 21 (global accuracy under pure eps-DP).

    1/tau1 = theta eps/(theta+2), 2/tau2 = 2 eps/(theta+2), mu1 = tau1 ln(4/beta); per step
    :math:`\Lambda_t = (4/\beta)^{r(1+2/\theta)}(4/\beta_t)^{r(2+\theta)}` with r = eps_t/eps,
    Type I and II budgets beta_t/4 each, c_t from Lemma 11 and rho_t from Lemma 20, and the flipping rule.

    Args:
        eps: output privacy eps > 0.
        beta: global failure probability in (0, 1).
        theta: split parameter theta > 0.
        gamma: target ratio in (1, 2].
        variant: "auto" (flipping rule, the theorem's setting), "direct" (s_t = +1) or "flipped" (s_t = -1).

    Raises:
        ValueError: on any parameter outside its range.
    """

    eps: float
    beta: float
    theta: float
    gamma: float
    variant: str = "auto"

    def __post_init__(self):
        _check_variant(self.variant)
        _validate.positive("eps", self.eps)
        _validate.open_unit("beta", self.beta)
        _validate.positive("theta", self.theta)
        _validate.gamma_range(self.gamma)

    @property
    def tau1(self) -> float:
        return (self.theta + 2.0) / (self.theta * self.eps)

    @property
    def tau2(self) -> float:
        return (self.theta + 2.0) / self.eps

    @property
    def mu1(self) -> float:
        return self.tau1 * math.log(4.0 / self.beta)

    def log_Lambda(self, t: int, eps_t: float) -> float:
        """ln Lambda_t = eps_t (mu1 + tau2 ln(4/beta_t)) (Theorem 21; Lemma 19 with c_G = 1/4)."""
        return eps_t * (self.mu1 + self.tau2 * log4_over_beta_t(t, self.beta))

    def max_loss(self, T: int, eps_t: float) -> float:
        """Worst privacy loss of a transcript of at most T steps: eps (Theorem 21: 1/tau1 + 2/tau2 = eps at halting,
        1/tau1 on continuation), whatever T and eps_t."""
        T = _validate.step_index(T, "T")
        return self.eps

    def step_budget(self, t):
        """Type I and Type II budget of step t: beta_t/4 each (Theorem 21, :func:`step_budget`); ``t`` may be an
        integer array."""
        return step_budget(t, self.beta, 21)

    def amortized_bound(self, T: int, eps1: float, pstar: float) -> tuple[float, float]:
        """Lemma 22(2) with explicit constants: (leading term 2 sigma/(sigma-1) A_max, full bound 2M/T) on N_{<=T}/T.

        Setting of the lemma: eps_t = eps_1 and p*_t = p* constant, sigma = eps/(eps_1 (theta+2)) > 1. With
        A~_t = rho_t e^{eps_1 mu1} (direct) or rho_t (flipped) in place of C_A ln(t/beta) max(Lambda_0/p*, 1/(1-p*))
        /(gamma-1)^2, the proof's bound is N_{<=T}/T <= 2M/T with M = sigma/(sigma-1) B + u, B = sum_{t<=T} A~_t,
        u = 4 sqrt(Var(w~) A_max B / beta), A_max = max_t A~_t, w~ = min(w, W), W = (16T/beta)^{1/sigma} and
        Var(w~) <= E[w~^2] (Lemma 12(3b)); it fails with probability < beta/2. The proof only uses
        lambda_t <= A~_t w_t on eta_1 <= mu1, so the bound holds for any c_t, rho_t with Theorem 21's noise (e.g. the
        exact-tail calibrations).

        Args:
            T: number of steps, integer >= 1.
            eps1: input privacy eps_1 > 0 of every step.
            pstar: acceptance threshold in (0, 1), the same at every step.

        Returns:
            (leading, bound): floats; (nan, nan) where the lemma's hypotheses fail: sigma <= 1, beta > 1/e or
            T < 2 ln(16/beta).

        Raises:
            ValueError: if T < 1, eps1 <= 0 or pstar is outside (0, 1).
        """
        T = _validate.step_index(T)
        _validate.positive("eps1", eps1)
        _validate.open_unit("pstar", pstar)
        sigma = self.eps / (eps1 * (self.theta + 2))
        if not (sigma > 1 and self.beta <= 1 / math.e and T >= 2 * math.log(16 / self.beta)):
            return math.nan, math.nan
        A = np.array([_explicit_A(self.step(t, eps1, pstar), eps1) for t in range(1, T + 1)])
        A_max, B = float(A.max()), float(A.sum())
        W = (16 * T / self.beta) ** (1 / sigma)
        second_moment = 2 * math.log(W) + 1 if sigma == 2 else (2 * W ** (2 - sigma) - sigma) / (2 - sigma)
        u = 4 * math.sqrt(second_moment * A_max * B / self.beta)
        M = sigma / (sigma - 1) * B + u
        return 2 * sigma / (sigma - 1) * A_max, 2 * M / T

    def step(self, t: int, eps_t: float, pstar: float) -> StepParams:
        """Parameters for step t with input privacy eps_t >= 0 and acceptance threshold pstar in (0, 1) (numbers).

        Raises:
            ValueError: if t < 1, eps_t < 0 or pstar outside (0, 1), or one is not a number.
        """
        _check_step(t, eps_t, pstar)
        return self._step(int(t), float(eps_t), float(pstar))

    @functools.lru_cache(maxsize=65536)  # noqa: B019  (frozen, hashable; steps are pure and reused across runs)
    def _step(self, t: int, eps_t: float, pstar: float) -> StepParams:
        err = reachable_budget(float(self.step_budget(t)), t, self.beta)
        return _calibrate(
            int(t),
            float(eps_t),
            float(pstar),
            self.gamma,
            self.tau1,
            self.mu1,
            self.tau2,
            self.log_Lambda(t, eps_t),
            err,
            self.variant,
        )


@dataclass(frozen=True)
class ExPostCalibration:
    r"""Parameters of the proof of Theorem 23 (ex-post privacy).

    1/tau1 = eps_C, mu1 = ln(4/beta)/eps_C, tau2_t = 2/(C_H eps_t ln(4/beta_t)), so that
    :math:`\Lambda_t = (4/\beta)^{\varepsilon_t/\varepsilon_C} e^{2/C_H}` and a transcript halting at t has privacy
    loss eps_C + C_H eps_t ln(4/beta_t) (``StepParams.halt_loss``); Type I and II budgets beta_t/6 each.

    Args:
        eps_C: continuation privacy eps_C > 0.
        beta: global failure probability in (0, 1).
        C_H: halting-loss constant > 0.
        gamma: target ratio in (1, 2].
        variant: "auto" (flipping rule), "direct" (s_t = +1) or "flipped" (s_t = -1).

    Raises:
        ValueError: on any parameter outside its range.
    """

    eps_C: float
    beta: float
    C_H: float
    gamma: float
    variant: str = "auto"

    def __post_init__(self):
        _check_variant(self.variant)
        _validate.positive("eps_C", self.eps_C)
        _validate.open_unit("beta", self.beta)
        _validate.positive("C_H", self.C_H)
        _validate.gamma_range(self.gamma)

    @property
    def tau1(self) -> float:
        return 1.0 / self.eps_C

    @property
    def mu1(self) -> float:
        return math.log(4.0 / self.beta) / self.eps_C

    def log_Lambda(self, eps_t: float) -> float:
        """ln Lambda_t = (eps_t/eps_C) ln(4/beta) + 2/C_H (Theorem 23; the same at every t)."""
        return (eps_t / self.eps_C) * math.log(4.0 / self.beta) + 2.0 / self.C_H

    def step_budget(self, t):
        """Type I and Type II budget of step t: beta_t/6 each (Theorem 23), beta_t = omega_t beta; ``t`` may be an
        integer array (:func:`step_budget`)."""
        return step_budget(t, self.beta, 23)

    def tau2_at(self, t: int, eps_t: float) -> float:
        """tau_{2,t} = 2/(C_H eps_t ln(4/beta_t)) (``t``, ``eps_t`` may be arrays)."""
        return 2.0 / (self.C_H * eps_t * log4_over_beta_t(t, self.beta))

    def max_loss(self, T: int, eps_t: float) -> float:
        """Worst privacy loss of a transcript of at most T steps with input privacy eps_t > 0: the halting loss at T,
        1/tau1 + 2/tau2_T = eps_C + C_H eps_t ln(4/beta_T) (it grows with t; continuation costs eps_C).

        Raises:
            ValueError: if T < 1 or eps_t <= 0.
        """
        T = _validate.step_index(T, "T")
        _validate.positive("eps_t", eps_t)
        return 1.0 / self.tau1 + 2.0 / self.tau2_at(T, eps_t)

    def amortized_bound(self, T: int, eps1: float, pstar: float) -> tuple[float, float]:
        """No amortized bound: Lemma 22(2) is proved for Theorem 21's constant tau2 (w_t ~ Pareto(sigma) with one
        sigma); Theorem 23's tau2_t shrinks with t and the paper states no amortized bound for it.

        Returns:
            (nan, nan).
        """
        return math.nan, math.nan

    def step(self, t: int, eps_t: float, pstar: float) -> StepParams:
        """Parameters for step t with input privacy eps_t > 0 and acceptance threshold pstar in (0, 1) (numbers).

        Raises:
            ValueError: if t < 1, eps_t <= 0 (tau2_t would be infinite) or pstar outside (0, 1), or one is not a
                number.
        """
        _check_step(t, eps_t, pstar)
        _validate.positive("eps_t", eps_t)
        return self._step(int(t), float(eps_t), float(pstar))

    @functools.lru_cache(maxsize=65536)  # noqa: B019  (frozen, hashable; steps are pure and reused across runs)
    def _step(self, t: int, eps_t: float, pstar: float) -> StepParams:
        tau2 = self.tau2_at(t, eps_t)
        log_Lambda = self.log_Lambda(eps_t)
        err = reachable_budget(float(self.step_budget(t)), t, self.beta)
        return _calibrate(
            int(t), float(eps_t), float(pstar), self.gamma, self.tau1, self.mu1, tau2, log_Lambda, err, self.variant
        )


def _explicit_A(st: StepParams, eps1: float) -> float:
    """A~_t of the proof of Lemma 22(2) with explicit constants: rho_t e^{eps_1 mu1} (direct) or rho_t (flipped)."""
    return st.rho * (math.exp(eps1 * st.mu1) if st.s == 1 else 1.0)


def lemma22_sample_bound(st: StepParams, beta: float) -> float:
    """Lemma 22(1) with the algorithm's explicit quantities: N_t <= e max(lambda_max_t, ln(4/beta_t)) (Lemma 55's
    Poisson tail at lambda_t <= lambda_max_t, :attr:`StepParams.lambda_max`), except with the probability
    :func:`lemma22_sample_budget`. This replaces the unspecified constant C_A by the exact calibration
    (C_A ln(t/beta) max(...)/(gamma-1)^2 is an upper bound of lambda_max_t).

    Args:
        st: the step's parameters (any calibration with Lemma 19's good-noise event: Theorems 21 and 23).
        beta: the calibration's global failure probability (beta_t = omega_t beta).
    """
    return math.e * max(st.lambda_max, math.log(4.0 / _beta_t(st.t, beta)))


def lemma22_sample_budget(steps, beta: float) -> float:
    """Probability that N_t exceeds :func:`lemma22_sample_bound` at some step of ``steps`` (StepParams of steps
    1..T), from the proof of Lemma 22(1): direct steps need eta_2,t <= tau2 ln(4/beta_t) (probability beta_t/4 each;
    eta_1 >= 0 only lowers lambda_t), flipped steps need eta_1 <= mu1 (probability beta/4, once), and the Poisson
    tail costs beta_t/4 per step: at most beta/2, plus beta/4 if the flipping rule selects s_t = -1 at some step."""
    flipped = any(st.s == -1 for st in steps)
    return beta / 2 + (beta / 4 if flipped else 0.0)


class GTM:
    """Algorithm 1, one instance (one stream). ``GTM(cal, rng)`` runs Init: it draws eta_1 ~ Exp(tau1) once.

    Args:
        calibration: a :class:`GlobalCalibration` / :class:`ExPostCalibration` (anything with ``tau1``, ``mu1``
            and ``step(t, eps_t, pstar)``), or None to supply tau1, mu1 and every step's parameters explicitly.
        rng: anything :func:`numpy.random.default_rng` accepts (None, an int seed, a SeedSequence, a Generator).
        tau1, mu1: explicit shared-noise scale (> 0) and offset (> 0), only when ``calibration`` is None.

    Attributes:
        t: number of steps taken so far.
        halted: whether the last step halted (no further step is allowed).
        samples: list of N_t for every step so far (evaluations of M_t).
        counts: list of K_t.
        params: list of the :class:`StepParams` (or explicit tuples) used at every step.

    Raises:
        ValueError: if tau1/mu1 are missing or out of range.
    """

    def __init__(self, calibration=None, rng=None, *, tau1: float | None = None, mu1: float | None = None):
        if calibration is not None:
            tau1, mu1 = calibration.tau1, calibration.mu1
        for name, value in (("tau1", tau1), ("mu1", mu1)):
            if value is None:
                raise ValueError(f"{name} is required when no calibration is given.")
        _validate.positive("tau1", tau1)
        _validate.positive("mu1", mu1)
        self.calibration, self.tau1, self.mu1 = calibration, float(tau1), float(mu1)
        self.rng = _validate.generator(rng)
        self.eta1 = self.rng.exponential(self.tau1)
        self.t, self.halted = 0, False
        self.samples: list[int] = []
        self.counts: list[int] = []
        self.params: list = []

    def step(self, mechanism: Mechanism, pstar: float | None = None, *, tau2=None, c=None, rho=None, s=None) -> bool:
        """GTM.Step on mechanism M_t (its ``eps`` is eps_t; delta_t > 0 inputs are purified first, Cor. 25).

        Either give ``pstar`` (the calibration chooses tau2, c, rho, s) or all of ``tau2`` (> 0), ``c`` (int >= 0),
        ``rho`` (> 0) and ``s`` (+1/-1) explicitly (Lemma 17 holds for any such choice).

        Returns:
            bool: True iff the step halts (a_t = s_t).

        Raises:
            ValueError: on out-of-range parameters. RuntimeError: if the GTM has already halted.
        """
        if self.halted:
            raise RuntimeError("the GTM has halted; start a new instance for a new stream")
        t = self.t + 1
        eps_t = float(mechanism.eps)
        explicit = (tau2, c, rho, s)
        if all(v is None for v in explicit):
            if self.calibration is None or pstar is None:
                raise ValueError("pstar (with a calibration) or explicit tau2, c, rho, s are required.")
            st = self.calibration.step(t, eps_t, pstar)
            tau2, c, rho, s = st.tau2, st.c, st.rho, st.s
            self.params.append(st)
        elif any(v is None for v in explicit):
            raise ValueError("give all of tau2, c, rho, s explicitly, or none of them.")
        else:
            _validate.positive("tau2", tau2)
            _validate.positive("rho", rho)
            _validate.sign("s", s)
            c = _validate.integer("c", c, 0)
            self.params.append((t, eps_t, float(tau2), int(c), float(rho), int(s)))
        halted, N, K = run_step(self.eta1, self.mu1, eps_t, tau2, c, rho, s, mechanism, self.rng, step=t)
        halted, N, K = bool(halted), int(N), int(K)
        self.t, self.halted = t, halted
        self.samples.append(N)
        self.counts.append(K)
        return self.halted


def run_step(eta1, mu1, eps_t, tau2, c, rho, s, mechanism: Mechanism, rng: np.random.Generator, step=None):
    """GTM.Step of Algorithm 1, vectorized over independent instances sharing the step's parameters.

    Args:
        eta1: the shared noise of each instance, float or ndarray of shape (R,).
        mu1, eps_t, tau2, c, rho, s: the step's parameters (scalars, as in Algorithm 1).
        mechanism: M_t; purified first if its delta > 0 (Corollary 25), negated when s = -1.
        rng: numpy Generator.
        step: the step index t, named in the error when the mechanism breaks its contract.

    Returns:
        (halted, N, K): arrays with the shape of ``eta1``: halting flags (bool), evaluations N_t and +1 counts K_t.

    Raises:
        ValueError: naming the step if the mechanism's counts are not integers 0 <= K <= N_t
            (:func:`privtest._validate.counts`).
    """
    rng = _validate.generator(rng)
    eta1 = np.asarray(eta1, dtype=float)
    m = purify(mechanism)
    eta2 = rng.exponential(tau2, size=eta1.shape)
    N = rng.poisson(checked_exp(log_lambda(math.log(rho), eps_t, s, mu1, eta1, eta2)))
    K = _validate.counts(m.count_plus(N, rng), N, step)
    if s == -1:  # the flipped variant counts the +1s of -M_t (Negated, the same draws)
        K = np.asarray(N, dtype=np.int64) - K
    return s * (K - c - 0.5) > 0, N, K


def log_lambda(log_rho, eps_t, s, mu1, eta1, eta2):
    """ln lambda_t = ln rho_t + eps_t Z_t with Z_t = s_t (mu1 - eta_1 + eta_2,t) (Algorithm 1, GTM.Step).

    Args:
        log_rho: ln rho_t; eps_t: input privacy eps_t >= 0; s: direction +1/-1; mu1: shared offset (scalars or
            arrays broadcasting against the noise).
        eta1, eta2: the shared and the per-step noise (float arrays of one broadcast shape).

    Returns:
        float array of the broadcast shape (ln of the Poisson mean of N_t; exponentiate with :func:`checked_exp`).
    """
    return log_rho + eps_t * (s * (mu1 - eta1 + eta2))


#: Largest Poisson mean numpy can sample (about 2^63 less a safety margin).
MAX_POISSON_MEAN = 1e18


def checked_exp(log_lam):
    """exp(log lambda_t), refusing means beyond what can be sampled (they mean an infeasible number of evaluations)."""
    log_lam = np.asarray(log_lam, dtype=float)
    if np.any(log_lam > math.log(MAX_POISSON_MEAN)):
        raise ValueError(
            f"lambda_t = exp({float(np.max(log_lam)):.1f}) exceeds {MAX_POISSON_MEAN:.0e} evaluations; "
            "lower eps_t/eps or raise beta."
        )
    return np.exp(log_lam)
