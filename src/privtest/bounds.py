r"""Closed-form upper and lower bounds: every entry of Table 1 (privacy, requirement, noise penalty Lambda_t,
rejection threshold pbar_t, sample complexity N_t) for each column, and the lower bounds of Section 6 (Theorem 29,
Corollary 30, Theorem 31) and Section 9 (Corollaries 51 and 53).

Table 1 suppresses lower-order terms. The functions here evaluate the algorithms' explicit quantities instead (each
docstring says which), so that measured values can be compared with them; :data:`TABLE1` keeps, for every entry,
both the paper's printed LaTeX and the LaTeX of what the function computes, and ``figures/table1.tex`` is rendered
from it. Where a statement and its proof disagree the proof is implemented and the difference is in ERRATA.md.

Notation: ``eps`` output privacy, ``eps1`` input privacy eps_1, ``beta`` failure probability, ``pstar`` p*,
``theta`` GTM split, ``gamma`` GTM ratio, ``eps0`` Liu-Talwar's auxiliary eps_0, ``delta`` output delta, ``t`` step
index (>= 1), ``T`` stream length. All functions take scalars and return floats (log-space variants avoid overflow).

The baselines' parameters (Cohen et al.'s theta_C and N_t of Algorithm 4, Liu-Talwar's sigma_LT, Delta and N of
eq. 25) are defined here too: they are Table 1's entries, and the testers of :mod:`privtest.baselines` use them.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from dataclasses import dataclass

from privtest import _validate
from privtest.gtm import GlobalCalibration, lemma22_sample_bound
from privtest.schedule import beta_t, log_inv_omega

# --------------------------------------------------------------------------------------------------------------
# Privacy and requirements (Table 1, first two rows)


@dataclass(frozen=True)
class Privacy:
    """An (eps, delta) output-privacy guarantee; ``pure`` when delta = 0."""

    eps: float
    delta: float

    @property
    def pure(self) -> bool:
        return self.delta == 0

    def __str__(self) -> str:
        return f"pure {self.eps:g}-DP" if self.pure else f"({self.eps:g}, {self.delta:g})-DP"


def gtm_privacy(eps: float) -> Privacy:
    """Theorem 21: Algorithm 1 is pure eps-DP for any (eps_t, delta_t)-DP inputs."""
    _validate.positive("eps", eps)
    return Privacy(float(eps), 0.0)


def cohen_privacy(eps: float, eps1: float) -> Privacy:
    """Proposition 48(1) via Theorem 47 (c = 1): (2 + theta_C) eps_1 = eps, pure.

    Raises:
        ValueError: if eps <= 2 eps_1.
    """
    theta = theta_C(eps, eps1)
    return Privacy((2.0 + theta) * eps1, 0.0)


def liu_talwar_privacy(eps: float, delta: float) -> Privacy:
    """Theorem 46(1): (eps, delta)-DP (pure eps_1-DP inputs required)."""
    _validate.positive("eps", eps)
    _validate.open_unit("delta", delta)
    return Privacy(float(eps), float(delta))


def lower_bound_privacy(eps: float, delta: float = 0.0) -> Privacy:
    """Corollary 30 / Theorem 31 hold for any (eps, delta)-DP tester."""
    _validate.positive("eps", eps)
    _validate.delta_range("delta", delta)
    return Privacy(float(eps), float(delta))


def gtm_requirement(eps: float, eps1: float) -> bool:
    """Table 1: eps > 0 (any eps_1 >= 0)."""
    return eps > 0 and eps1 >= 0


def cohen_requirement(eps: float, eps1: float) -> bool:
    """Table 1 / Proposition 48: eps > 2 eps_1."""
    return eps > 2.0 * eps1 > 0


def liu_talwar_requirement(eps: float, T) -> bool:
    """Table 1 / Theorem 46: eps > 0 and a finite stream length T > 1 (T enters Delta and N)."""
    return eps > 0 and T is not None and math.isfinite(T) and T > 1


def delta_prime(eps: float, delta: float) -> float:
    """delta' = delta/(e^eps - 1) (Definition 26(3))."""
    _validate.positive("eps", eps)
    _validate.delta_range("delta", delta)
    return delta / math.expm1(eps)


def lower_bound_requirement(eps: float, beta: float, delta: float = 0.0) -> bool:
    """Corollary 30 / Theorem 4: beta <= 1/2 and beta + delta' < 1/2."""
    return beta <= 0.5 and beta + delta_prime(eps, delta) < 0.5


# --------------------------------------------------------------------------------------------------------------
# GTM (Theorem 21)


def _gtm(eps, beta, theta, gamma=1.5, variant="auto") -> GlobalCalibration:
    return GlobalCalibration(eps, beta, theta, gamma, variant)


def gtm_log_noise_penalty(t: int, eps: float, eps1: float, beta: float, theta: float) -> float:
    r"""ln Lambda_t of Theorem 21: (eps_1/eps)[(1 + 2/theta) ln(4/beta) + (2 + theta) ln(4/beta_t)] (explicit; Table 1
    prints (1/beta)^{(1+2/theta) eps_1/eps} (t/beta)^{(2+theta) eps_1/eps})."""
    return _gtm(eps, beta, theta).log_Lambda(t, eps1)


def gtm_noise_penalty(t: int, eps: float, eps1: float, beta: float, theta: float) -> float:
    """Lambda_t of Theorem 21 (inf if it overflows a float)."""
    x = gtm_log_noise_penalty(t, eps, eps1, beta, theta)
    return math.exp(x) if x < 709 else math.inf


def gtm_theta_opt(t: int, beta: float) -> float:
    r"""The theta minimising Lambda_t: d/dtheta [(1 + 2/theta) ln(4/beta) + (2 + theta) ln(4/beta_t)] = 0 gives
    theta* = sqrt(2 ln(4/beta) / ln(4/beta_t)) (independent of eps_1/eps)."""
    t = _validate.step_index(t)
    _validate.open_unit("beta", beta)
    l4b = math.log(4.0 / beta)
    return math.sqrt(2.0 * l4b / (l4b + float(log_inv_omega(t))))


def gtm_rejection_threshold(t, pstar, eps, eps1, beta, theta, gamma, variant: str = "auto") -> float:
    """pbar_t = max(p*/(gamma Lambda_t), 1 - gamma Lambda_t (1 - p*)) of Theorem 21; ``variant`` "direct" or
    "flipped" gives one branch (the flipped one can be negative: no continuation guarantee)."""
    return _gtm(eps, beta, theta, gamma, variant).step(t, eps1, pstar).pbar


def gtm_noise_penalty_table(t, eps, eps1, beta, theta) -> float:
    """Table 1's printed Lambda_t of Theorem 21, lower-order terms suppressed: (1/beta)^{(1+2/theta) r}
    (t/beta)^{(2+theta) r} with r = eps_1/eps (the explicit one is :func:`gtm_noise_penalty`).

    Args:
        t: step index >= 1 (or the stream length T); eps, eps1: output and input privacy > 0; beta in (0, 1);
            theta > 0.

    Raises:
        ValueError: on a parameter outside its range.
    """
    t = _validate.step_index(t)
    _validate.positive("eps", eps)
    _validate.positive("eps1", eps1)
    _validate.open_unit("beta", beta)
    _validate.positive("theta", theta)
    r = eps1 / eps
    return (1 / beta) ** ((1 + 2 / theta) * r) * (t / beta) ** ((2 + theta) * r)


def gtm_rejection_threshold_table(t, pstar, eps, eps1, beta, theta, gamma) -> float:
    """Table 1's printed pbar_t of Theorem 21: max(p*/(gamma Lambda_t), 1 - gamma Lambda_t (1 - p*)) at Table 1's
    Lambda_t (:func:`gtm_noise_penalty_table`; the explicit one is :func:`gtm_rejection_threshold`).

    Args:
        pstar: p* in (0, 1); gamma in (1, 2]; the others as in :func:`gtm_noise_penalty_table`.

    Raises:
        ValueError: on a parameter outside its range.
    """
    _validate.open_unit("pstar", pstar)
    _validate.gamma_range(gamma)
    lam = gtm_noise_penalty_table(t, eps, eps1, beta, theta)
    return max(pstar / (gamma * lam), 1 - gamma * lam * (1 - pstar))


def gtm_sample_complexity(t, pstar, eps, eps1, beta, theta, gamma) -> float:
    """High-probability bound on N_t: Lemma 22(1) with the calibration's explicit quantities, e max(lambda_max_t,
    ln(4/beta_t)), lambda_max_t = rho_t Lambda_t (direct) or rho_t (flipped) (:func:`privtest.gtm.
    lemma22_sample_bound`; replaces the unspecified C_A; Table 1 prints ln(t/beta)/(gamma-1)^2 max(Lambda_t/p*,
    1/(1-p*)))."""
    return lemma22_sample_bound(_gtm(eps, beta, theta, gamma).step(t, eps1, pstar), beta)


# --------------------------------------------------------------------------------------------------------------
# Cohen et al. (Proposition 48, Algorithm 4)


class RequirementError(ValueError):
    """A tester's requirement (Table 1, row "Requirement") fails for the given parameters, e.g. Cohen et al. or
    Ghazi et al. with eps <= 2 eps_1: the method does not apply there (a comparison reports it as not applicable),
    as opposed to an invalid argument."""


def theta_C(eps: float, eps1: float) -> float:
    """theta_C = eps/eps_1 - 2 (Algorithm 4), which makes Test (2 + theta_C) eps_1 = eps-DP (Theorem 47, c = 1).

    Raises:
        RequirementError: if eps <= 2 eps_1 (Table 1's requirement for Cohen et al.).
        ValueError: if eps or eps1 is not > 0.
    """
    _validate.positive("eps", eps)
    _validate.positive("eps1", eps1)
    if not eps > 2.0 * eps1:
        raise RequirementError(f"Cohen et al. require eps > 2 eps_1. Found eps={eps!r}, eps_1={eps1!r}.")
    return eps / eps1 - 2.0


def cohen_calls_per_step(pstar: float, beta: float, theta: float) -> int:
    """N_t = ceil(ln(2/beta) / ((beta/2)^(1/theta_C) p*)) of Algorithm 4 (the same for every t).

    Checked in log space first: (beta/2)^(1/theta_C) underflows to 0 as theta_C -> 0 (eps -> 2 eps_1).

    Raises:
        ValueError: if pstar or beta is outside (0, 1) or theta <= 0, or if N_t exceeds the largest float
            (theta_C too small: Cohen et al.'s tester then needs more calls per step than can be represented).
    """
    _validate.open_unit("pstar", pstar)
    _validate.open_unit("beta", beta)
    _validate.positive("theta", theta)
    log_N = math.log(math.log(2.0 / beta)) - math.log(beta / 2.0) / theta - math.log(pstar)
    N = math.log(2.0 / beta) / ((beta / 2.0) ** (1.0 / theta) * pstar) if log_N < 709.0 else math.inf
    if not math.isfinite(N):
        raise ValueError(
            f"theta must be large enough for N_t = ceil(ln(2/beta)/((beta/2)^(1/theta) p*)) to be finite; found "
            f"theta = {theta!r} (N_t = e^{log_N:.4g} calls per step; Cohen et al. need eps well above 2 eps_1)"
        )
    return int(math.ceil(N))


def cohen_sample_complexity(pstar: float, eps: float, eps1: float, beta: float) -> int:
    """N_t = ceil(ln(2/beta) / ((beta/2)^(1/theta_C) p*)) Test calls per step (Algorithm 4; bounds the evaluations).
    Table 1 prints ln(1/beta)/(p* beta^{eps_1/(eps-2 eps_1)}). Raises ValueError if eps <= 2 eps_1."""
    return cohen_calls_per_step(pstar, beta, theta_C(eps, eps1))


def cohen_rejection_threshold(t: int, pstar: float, eps: float, eps1: float, beta: float) -> float:
    """pbar_t = beta_t / (2 N_t (1 - beta/2)^(1/theta_C)) from the proof of Proposition 48 (the statement's formula
    has a negative base, see :func:`cohen_rejection_threshold_as_stated` and ERRATA.md)."""
    theta = theta_C(eps, eps1)
    N = cohen_calls_per_step(pstar, beta, theta)
    return float(beta_t(t, beta)) / (2.0 * N * (1.0 - beta / 2.0) ** (1.0 / theta))


def cohen_rejection_threshold_as_stated(t: int, pstar: float, eps: float, eps1: float, beta: float) -> float:
    """Proposition 48(2b) as printed: p* beta_t/(2 ln(2/beta)) (beta/2 - beta)^(1/theta_C). The base beta/2 - beta
    is negative, so the value is undefined (nan) for non-integer 1/theta_C; kept to document the erratum."""
    theta = theta_C(eps, eps1)
    base = beta / 2.0 - beta
    try:
        factor = math.pow(base, 1.0 / theta)
    except ValueError:
        return math.nan
    return pstar * float(beta_t(t, beta)) / (2.0 * math.log(2.0 / beta)) * factor


def cohen_noise_penalty(t: int, pstar: float, eps: float, eps1: float, beta: float) -> float:
    """Lambda_t = p*/pbar_t = 2 p* N_t (1 - beta/2)^(1/theta_C) / beta_t (explicit; Table 1 prints
    t/beta^{1 + eps_1/(eps - 2 eps_1)})."""
    return pstar / cohen_rejection_threshold(t, pstar, eps, eps1, beta)


def cohen_noise_penalty_table(t, eps, eps1, beta) -> float:
    """Table 1's printed Lambda_t of Proposition 48, lower-order terms suppressed: t/beta^{1 + r/(1 - 2r)} with r =
    eps_1/eps, i.e. t/beta^{1 + eps_1/(eps - 2 eps_1)} (the explicit one is :func:`cohen_noise_penalty`).

    Args:
        t: step index >= 1 (or the stream length T); eps, eps1: output and input privacy > 0; beta in (0, 1).

    Raises:
        RequirementError: if eps <= 2 eps_1 (:func:`theta_C`).
        ValueError: on a parameter outside its range.
    """
    t = _validate.step_index(t)
    theta_C(eps, eps1)
    _validate.open_unit("beta", beta)
    r = eps1 / eps
    return t / beta ** (1 + r / (1 - 2 * r))


def cohen_rejection_threshold_table(t, pstar, eps, eps1, beta) -> float:
    """Table 1's printed pbar_t of Proposition 48: p*/Lambda_t at Table 1's Lambda_t
    (:func:`cohen_noise_penalty_table`; the explicit one is :func:`cohen_rejection_threshold`).

    Raises:
        RequirementError: if eps <= 2 eps_1.
        ValueError: if pstar is not in (0, 1) or another parameter is outside its range.
    """
    _validate.open_unit("pstar", pstar)
    return pstar / cohen_noise_penalty_table(t, eps, eps1, beta)


# --------------------------------------------------------------------------------------------------------------
# Liu-Talwar (Theorem 46, eq. 25)


def sigma_LT(eps: float, eps1: float, eps0: float) -> float:
    """sigma_LT = 12 (eps_1 + eps_0)/eps (eq. 25)."""
    return 12.0 * (eps1 + eps0) / eps


def C_LT(eps1: float, eps0: float) -> float:
    """C = 2 (e^(eps_0 + eps_1) + 1 + e^(eps_0/2)) (eq. 25)."""
    return 2.0 * (math.exp(eps0 + eps1) + 1.0 + math.exp(eps0 / 2.0))


def Delta_LT(eps1: float, eps0: float, T: int, delta: float) -> float:
    """Delta = C ln(8T/delta) / (eps_0 (e^(eps_0 + eps_1) - 1)) (eq. 25)."""
    return C_LT(eps1, eps0) * math.log(8.0 * T / delta) / (eps0 * math.expm1(eps0 + eps1))


def log_N_LT(pstar: float, eps: float, eps1: float, beta: float, delta: float, eps0: float, T: int) -> float:
    """ln N with N = e^eps_0 Delta / min(p*, 1-p*) ((T+1)/beta)^sigma_LT (eq. 25), before rounding up."""
    return (
        eps0
        + math.log(Delta_LT(eps1, eps0, T, delta))
        - math.log(min(pstar, 1.0 - pstar))
        + sigma_LT(eps, eps1, eps0) * math.log((T + 1.0) / beta)
    )


def liu_talwar_check_params(pstar, eps, eps1, beta, delta, eps0, T) -> None:
    """Theorem 46's ranges: p*, beta, delta, eps_0 in (0, 1), eps, eps_1 > 0, T >= 1 (finite). Raises ValueError."""
    _validate.open_unit("pstar", pstar)
    _validate.open_unit("beta", beta)
    _validate.open_unit("delta", delta)
    _validate.open_unit("eps0", eps0)
    _validate.positive("eps", eps)
    _validate.positive("eps1", eps1)
    T = _validate.step_index(T, "T")


def liu_talwar_noise_penalty(t: int, eps: float, eps1: float, beta: float, eps0: float) -> float:
    """Lambda_t = 2 e^eps_0 ((t+1)/beta)^sigma_LT, sigma_LT = 12 (eps_1 + eps_0)/eps: the factor of Theorem 46(2)
    (pbar_t = p*/Lambda_t). Table 1 prints (t/beta^2)^{12(eps_1+eps_0)/eps} (see ERRATA.md)."""
    t = _validate.step_index(t)
    _validate.open_unit("beta", beta)
    _validate.open_unit("eps0", eps0)
    x = math.log(2.0) + eps0 + sigma_LT(eps, eps1, eps0) * math.log((t + 1.0) / beta)
    return math.exp(x) if x < 709 else math.inf


def liu_talwar_rejection_threshold(t: int, pstar: float, eps: float, eps1: float, beta: float, eps0: float) -> float:
    """Theorem 46(2): halting at step t implies p_t >= e^{-eps_0}/2 (beta/(t+1))^sigma_LT p* w.p. >= 1-beta-delta/2.
    Equals p*/Lambda_t (:func:`liu_talwar_noise_penalty`), evaluated as the product, which does not underflow where
    Lambda_t overflows. Table 1 prints the odds form p*/(Lambda (1-p*) + p*), which is >= this value (see
    :func:`liu_talwar_rejection_threshold_table`)."""
    t = _validate.step_index(t)
    _validate.open_unit("pstar", pstar)
    _validate.open_unit("beta", beta)
    _validate.open_unit("eps0", eps0)
    return 0.5 * math.exp(-eps0) * (beta / (t + 1.0)) ** sigma_LT(eps, eps1, eps0) * pstar


def liu_talwar_moreover_bound(R: int, pstar: float, eps: float, eps1: float, beta: float, eps0: float) -> float:
    """Theorem 46(3)'s "moreover" bound as printed (Liu and Talwar 2019, Theorem 4.2(c)): halting at step R implies
    p_R >= 1 - (1 + e^eps_0/(2(1-p*)) ((R+1)/beta)^sigma_LT)^{-1} w.p. >= 1 - beta - delta/2 (a probability; ERRATA.md
    records that it cannot hold).

    Raises:
        ValueError: if R < 1 or pstar, beta or eps0 is outside (0, 1), or eps, eps1 are not > 0.
    """
    R = _validate.step_index(R, "R")
    _validate.open_unit("pstar", pstar)
    _validate.open_unit("beta", beta)
    _validate.open_unit("eps0", eps0)
    x = math.exp(eps0) / (2 * (1 - pstar)) * ((R + 1) / beta) ** sigma_LT(eps, eps1, eps0)
    return 1 - 1 / (1 + x)


def liu_talwar_rejection_threshold_table(t, pstar, eps, eps1, beta, eps0) -> float:
    """Table 1's printed odds form p*/(Lambda (1-p*) + p*) with Table 1's Lambda = (t/beta^2)^{12(eps_1+eps_0)/eps}."""
    _validate.open_unit("pstar", pstar)
    lam = math.exp(min(700.0, sigma_LT(eps, eps1, eps0) * math.log(t / beta**2)))
    return pstar / (lam * (1.0 - pstar) + pstar)


def liu_talwar_sample_complexity(pstar, eps, eps1, beta, delta, eps0, T) -> float:
    """N of eq. 25 rounded up (evaluations per step, every step), as a float (exact below 2^53; inf when N overflows
    a float); Table 1 prints (T/beta)^{12(eps_1+eps_0)/eps} ln(T/delta) / (eps_0^2 min(p*, 1-p*)).

    Raises:
        ValueError: on a parameter outside Theorem 46's ranges (:func:`liu_talwar_check_params`).
    """
    liu_talwar_check_params(pstar, eps, eps1, beta, delta, eps0, T)
    log_N = log_N_LT(pstar, eps, eps1, beta, delta, eps0, T)
    return float(math.ceil(math.exp(log_N))) if log_N < 700 else math.inf


# --------------------------------------------------------------------------------------------------------------
# Lower bounds (Section 6)


def thm29_alpha_sum(T: int, eps: float, beta: float, delta: float = 0.0) -> float:
    """Theorem 29: any (eps, delta)-DP standard threshold test with global accuracy (alpha_+, alpha_-, beta) over T
    steps has alpha_+ + alpha_- >= (1/eps)(ln(T/(2(beta + T delta'))) + ln(1/(2(beta + delta')))) - 2.

    Raises:
        ValueError: unless beta + delta' < 1/2.
    """
    T = _validate.step_index(T, "T")
    _validate.open_unit("beta", beta)
    dp = delta_prime(eps, delta)
    if not beta + dp < 0.5:
        raise ValueError(f"beta + delta' must be < 1/2. Found {beta + dp!r}.")
    return (math.log(T / (2.0 * (beta + T * dp))) + math.log(1.0 / (2.0 * (beta + dp)))) / eps - 2.0


def lower_bound_log_noise_penalty(T: int, eps: float, eps1: float, beta: float, delta: float = 0.0) -> float:
    """ln Lambda_0 of Corollary 30: -2 eps_1 + (eps_1/eps) ln(T/(2(beta + T delta')) * 1/(2(beta + delta'))),
    i.e. eps_1 times Theorem 29's bound (Theorem 4's Lambda-bar_T).

    Raises:
        ValueError: unless beta <= 1/2 and beta + delta' < 1/2.
    """
    _validate.positive("eps1", eps1)
    if beta > 0.5:
        raise ValueError(f"beta must be <= 1/2. Found {beta!r}.")
    return eps1 * thm29_alpha_sum(T, eps, beta, delta)


def lower_bound_noise_penalty(T: int, eps: float, eps1: float, beta: float, delta: float = 0.0) -> float:
    """Lambda_0 of Corollary 30 (Lambda-bar_T of Theorem 4)."""
    return math.exp(lower_bound_log_noise_penalty(T, eps, eps1, beta, delta))


def cor30_case(pstar: float, pbar: float) -> int:
    """Which case of Corollary 30 applies: 1 (p*, pbar <= 1/2), 2 (p*, pbar >= 1/2), 3 (pbar < 1/2 < p*)."""
    if pstar <= 0.5 and pbar <= 0.5:
        return 1
    if pstar >= 0.5 and pbar >= 0.5:
        return 2
    if pbar < 0.5 < pstar:
        return 3
    raise ValueError(f"pbar must be <= pstar. Found pstar={pstar!r}, pbar={pbar!r}.")


def cor30_ratio(pstar: float, pbar: float) -> float:
    """Left-hand side of the applicable case of Corollary 30: p*/pbar, (1-pbar)/(1-p*) or 1/(4 pbar (1-p*))."""
    case = cor30_case(pstar, pbar)
    if case == 1:
        return pstar / pbar
    if case == 2:
        return (1.0 - pbar) / (1.0 - pstar)
    return 1.0 / (4.0 * pbar * (1.0 - pstar))


def cor30_odds_ratio(pstar: float, pbar: float) -> float:
    """Corollary 30's unified form (eq. 17): (p*/(1-p*)) / (pbar/(1-pbar)) >= Lambda_0."""
    return (pstar / (1.0 - pstar)) / (pbar / (1.0 - pbar))


def lower_bound_rejection_threshold(T, pstar, eps, eps1, beta, delta: float = 0.0, form: str = "cases") -> float:
    """Largest rejection threshold any (eps, delta)-DP tester with global accuracy beta over T steps can have.

    ``form="cases"``: the supremum of pbar <= p* allowed by Corollary 30's three cases: p*/Lambda_0 if p* <= 1/2;
    otherwise 1 - Lambda_0 (1 - p*) if that is >= 1/2 (case 2), else min(1/(4 (1-p*) Lambda_0), 1/2) (case 3).
    ``form="odds"``: eq. 17, odds(pbar) <= odds(p*)/Lambda_0, i.e. pbar <= p*/(Lambda_0 (1-p*) + p*) (weaker).
    Both are capped at p* (a vacuous Lambda_0 <= 1 leaves pbar <= p*).
    """
    _validate.open_unit("pstar", pstar)
    lam = lower_bound_noise_penalty(T, eps, eps1, beta, delta)
    if form == "odds":
        return min(pstar, pstar / (lam * (1.0 - pstar) + pstar))
    if form != "cases":
        raise ValueError(f"form must be 'cases' or 'odds'. Found {form!r}.")
    if pstar <= 0.5:
        return min(pstar, pstar / lam)
    case2 = 1.0 - lam * (1.0 - pstar)
    if case2 >= 0.5:
        return min(pstar, case2)
    return min(0.5, 1.0 / (4.0 * (1.0 - pstar) * lam))


def lower_bound_sample_complexity(pstar: float, eps: float, eps1: float, beta_II: float, delta: float = 0.0) -> float:
    """Theorem 31: E[N_t] >= e^{-eps_1} / (4 p* (2 (beta_t^II + delta'))^{eps_1/eps}) for p* <= 1/2 (some input
    instance). Table 1 uses beta_t^II = beta (Remark 32).

    Raises:
        ValueError: if p* > 1/2 (the theorem does not apply) or beta_II + delta' >= 1/2.
    """
    _validate.open_unit("pstar", pstar)
    _validate.open_unit("beta_II", beta_II)
    if pstar > 0.5:
        raise ValueError(f"Theorem 31 requires pstar <= 1/2. Found {pstar!r}.")
    dp = delta_prime(eps, delta)
    if not beta_II + dp < 0.5:
        raise ValueError(f"beta_II + delta' must be < 1/2. Found {beta_II + dp!r}.")
    return math.exp(-eps1) / (4.0 * pstar * (2.0 * (beta_II + dp)) ** (eps1 / eps))


# --------------------------------------------------------------------------------------------------------------
# Random dropping (Section 9.3-9.4)


def lemma50_halt_lower(M: float, q: float, q0: float) -> float:
    """Lemma 50: at least M conditionally independent trials of success probability >= q on an event of probability
    >= q0 give Pr[some success] >= q0 (1 - e^{-M q})."""
    _validate.positive("M", M)
    _validate.nonnegative("q", q)
    return q0 * -math.expm1(-M * q)


def cor51_pbar_max(beta: float, theta: float, total_calls: float) -> float:
    """Corollary 51: if Algorithm 4 halts w.p. <= beta on every instance with p_t <= pbar (t <= T), then
    pbar <= 4 beta 2^{1/theta_C} / sum_t N_t. Requires beta < 1/4."""
    _validate.open_unit("beta", beta)
    if not beta < 0.25:
        raise ValueError(f"beta must be < 1/4. Found {beta!r}.")
    _validate.positive("theta", theta)
    _validate.positive("total_calls", total_calls)
    return 4.0 * beta * 2.0 ** (1.0 / theta) / total_calls


def cohen_false_halt_lower(pbar: float, theta: float, total_calls: float) -> float:
    """Lemma 50 as used in Corollary 51: with p_t = pbar at all T steps, Algorithm 4 halts w.p. >=
    (1/2)(1 - exp(-sum_t N_t (1/2)^{1/theta_C} pbar)) (event p_dagger >= (1/2)^{1/theta_C}, q0 = 1/2)."""
    return lemma50_halt_lower(total_calls, 0.5 ** (1.0 / theta) * pbar, 0.5)


def cor53_pbar_max(beta: float, T: int, G: int, pstar: float, theta_G: float) -> float:
    """Corollary 53: if Algorithm 5 (uniform selection) returns a bad (+1, t) w.p. <= beta, with G good (p_t >= p*)
    and T - G bad (p_t <= pbar) mechanisms, then pbar <= 2 beta (1 + G p*) / ((T - G)(1 - e^{-theta_G})).

    Raises:
        ValueError: unless beta in (0, 1/2), T >= 3 and G in [T-2] = {1, ..., T-2} (the corollary's hypotheses), and
            beta <= (1-e^{-theta_G})/2.
    """
    _validate.open_unit("beta", beta)
    _validate.positive("theta_G", theta_G)
    if not (T >= 3 and 1 <= G <= T - 2):
        raise ValueError(f"G must be in [T-2] = {{1, ..., T-2}} (T >= 3). Found T={T!r}, G={G!r}.")
    if not beta <= -math.expm1(-theta_G) / 2.0:
        raise ValueError(f"beta must be <= (1 - e^-theta_G)/2. Found {beta!r}.")
    return 2.0 * beta * (1.0 + G * pstar) / ((T - G) * -math.expm1(-theta_G))


def cor53_bad_selection_lower(T: int, G: int, pstar: float, pbar: float, theta_G: float) -> float:
    """The proof of Corollary 53: Pr[bad selected] >= (1 - e^{-theta_G}) (T-G) pbar / (1 + (T-G-1) pbar + G p*)
    when bad mechanisms have p_t = pbar and good ones p_t = p* (uniform selection)."""
    return -math.expm1(-theta_G) * (T - G) * pbar / (1.0 + (T - G - 1) * pbar + G * pstar)


# --------------------------------------------------------------------------------------------------------------
# Table 1 as code objects


@dataclass(frozen=True)
class Entry:
    """One cell of Table 1: the paper's printed LaTeX, the LaTeX of what ``func`` evaluates, and its source."""

    row: str
    method: str
    paper: str
    explicit: str
    func: Callable
    source: str

    def evaluate(self, **values):
        """``func`` at the arguments it names, taken from ``values`` (the notation of this module: t, T, pstar, eps,
        eps1, beta, beta_II, theta, gamma, eps0, delta; keys it does not name are ignored).

        Raises:
            TypeError: if ``values`` lacks an argument ``func`` requires.
        """
        names = inspect.signature(self.func).parameters
        return self.func(**{k: v for k, v in values.items() if k in names})


#: Columns of Table 1 (plus the lower bound of Theorem 4) in display order, with headers.
TABLE1_METHODS = {
    "GTM": r"Our results (Thm 21)",
    "Cohen": r"Cohen et al. (Prop 48)",
    "LiuTalwar": r"Liu--Talwar (Thm 46)",
    "LowerBound": r"Lower bound (Thm 4: Cor 30, Thm 31)",
}
TABLE1_ROWS = {
    "privacy": "Privacy guarantee",
    "requirement": "Requirement",
    "noise_penalty": r"Noise penalty, $\Lambda_t$",
    "rejection_threshold": r"Rejection threshold, $\bar p_t$",
    "sample_complexity": r"Sample complexity, $N_t$",
}

_E = Entry
TABLE1: list[Entry] = [
    _E("privacy", "GTM", r"pure $\varepsilon$-DP", r"pure $\varepsilon$-DP", gtm_privacy, "Thm 21"),
    _E(
        "privacy",
        "Cohen",
        r"pure $\varepsilon$-DP",
        r"pure $(2+\theta_C)\varepsilon_1=\varepsilon$-DP",
        cohen_privacy,
        "Prop 48(1), Thm 47",
    ),
    _E(
        "privacy",
        "LiuTalwar",
        r"$(\varepsilon,\delta)$-DP",
        r"$(\varepsilon,\delta)$-DP",
        liu_talwar_privacy,
        "Thm 46(1)",
    ),
    _E(
        "privacy",
        "LowerBound",
        r"any $(\varepsilon,\delta)$-DP",
        r"any $(\varepsilon,\delta)$-DP",
        lower_bound_privacy,
        "Cor 30",
    ),
    _E("requirement", "GTM", r"$\varepsilon>0$", r"$\varepsilon>0$", gtm_requirement, "Thm 21"),
    _E(
        "requirement",
        "Cohen",
        r"$\varepsilon>2\varepsilon_1$",
        r"$\varepsilon>2\varepsilon_1$",
        cohen_requirement,
        "Prop 48",
    ),
    _E(
        "requirement",
        "LiuTalwar",
        r"$\varepsilon>0$, finite $T$",
        r"$\varepsilon>0$, finite $T$",
        liu_talwar_requirement,
        "Thm 46",
    ),
    _E(
        "requirement",
        "LowerBound",
        r"$\beta+\delta'<1/2$",
        r"$\beta\le 1/2$, $\beta+\delta'<1/2$",
        lower_bound_requirement,
        "Cor 30",
    ),
    _E(
        "noise_penalty",
        "GTM",
        r"$(1/\beta)^{(1+2/\theta)\varepsilon_1/\varepsilon}(t/\beta)^{(2+\theta)\varepsilon_1/\varepsilon}$",
        r"$(4/\beta)^{(1+2/\theta)\varepsilon_1/\varepsilon}(4/\beta_t)^{(2+\theta)\varepsilon_1/\varepsilon}$",
        gtm_noise_penalty,
        "Thm 21",
    ),
    _E(
        "noise_penalty",
        "Cohen",
        r"$t/\beta^{1+\varepsilon_1/(\varepsilon-2\varepsilon_1)}$",
        r"$2p^*N_t(1-\beta/2)^{1/\theta_C}/\beta_t$",
        cohen_noise_penalty,
        "Prop 48 (proof)",
    ),
    _E(
        "noise_penalty",
        "LiuTalwar",
        r"$(t/\beta^2)^{12(\varepsilon_1+\varepsilon_0)/\varepsilon}$",
        r"$2e^{\varepsilon_0}((t+1)/\beta)^{\sigma_{LT}}$",
        liu_talwar_noise_penalty,
        "Thm 46(2)",
    ),
    _E(
        "noise_penalty",
        "LowerBound",
        r"$e^{-2\varepsilon_1}\big(T/(4(\beta+T\delta')(\beta+\delta'))\big)^{\varepsilon_1/\varepsilon}$",
        r"$e^{-2\varepsilon_1}\big(T/(4(\beta+T\delta')(\beta+\delta'))\big)^{\varepsilon_1/\varepsilon}$",
        lower_bound_noise_penalty,
        "Cor 30",
    ),
    _E(
        "rejection_threshold",
        "GTM",
        r"$\max\big(p^*_t/(\gamma\Lambda_t),\,1-\gamma\Lambda_t(1-p^*_t)\big)$",
        r"$\max\big(p^*_t/(\gamma\Lambda_t),\,1-\gamma\Lambda_t(1-p^*_t)\big)$",
        gtm_rejection_threshold,
        "Thm 21",
    ),
    _E(
        "rejection_threshold",
        "Cohen",
        r"$p^*/\Lambda_t$",
        r"$\beta_t/(2N_t(1-\beta/2)^{1/\theta_C})$",
        cohen_rejection_threshold,
        "Prop 48 (proof)",
    ),
    _E(
        "rejection_threshold",
        "LiuTalwar",
        r"$p^*/(\Lambda_t(1-p^*)+p^*)$",
        r"$p^*/\Lambda_t$",
        liu_talwar_rejection_threshold,
        "Thm 46(2)",
    ),
    _E(
        "rejection_threshold",
        "LowerBound",
        r"$p^*/\bar\Lambda_T$ ($p^*,\bar p\le\frac12$)",
        r"$\sup\{\bar p\le p^*:\text{Cor 30 cases 1--3}\}$",
        lower_bound_rejection_threshold,
        "Cor 30",
    ),
    _E(
        "sample_complexity",
        "GTM",
        r"$\frac{\ln(t/\beta)}{(\gamma-1)^2}\max\big(\frac{\Lambda_t}{p^*_t},\frac{1}{1-p^*_t}\big)$",
        r"$e\max(\rho_t\Lambda_t^{[s_t=1]},\ln(4/\beta_t))$",
        gtm_sample_complexity,
        "Lemma 22(1)",
    ),
    _E(
        "sample_complexity",
        "Cohen",
        r"$\frac{\ln(1/\beta)}{p^*\beta^{\varepsilon_1/(\varepsilon-2\varepsilon_1)}}$",
        r"$\big\lceil\frac{\ln(2/\beta)}{(\beta/2)^{1/\theta_C}p^*}\big\rceil$",
        cohen_sample_complexity,
        "Alg 4",
    ),
    _E(
        "sample_complexity",
        "LiuTalwar",
        r"$\frac{(T/\beta)^{12(\varepsilon_1+\varepsilon_0)/\varepsilon}\ln(T/\delta)}{\varepsilon_0^2\min\{p^*,1-p^*\}}$",
        r"$\big\lceil\frac{e^{\varepsilon_0}\Delta}{\min\{p^*,1-p^*\}}\big(\frac{T+1}{\beta}\big)^{\sigma_{LT}}\big\rceil$",
        liu_talwar_sample_complexity,
        "eq. 25",
    ),
    _E(
        "sample_complexity",
        "LowerBound",
        r"$\Omega\big(1/(p^*\beta^{\varepsilon_1/\varepsilon})\big)$",
        r"$\frac{e^{-\varepsilon_1}}{4p^*(2(\beta+\delta'))^{\varepsilon_1/\varepsilon}}$ ($p^*\le\frac12$)",
        lower_bound_sample_complexity,
        "Thm 31",
    ),
]


def table1_entry(row: str, method: str) -> Entry:
    """The :data:`TABLE1` entry for (row, method). Raises ValueError if there is none."""
    for e in TABLE1:
        if e.row == row and e.method == method:
            return e
    raise ValueError(f"no Table 1 entry for row={row!r}, method={method!r}.")
