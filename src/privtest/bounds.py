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
Names say the quantity; the docstring says the theorem. Ranges, checked first by every function (ValueError naming
the parameter; NaN, infinities, bools, fractions for integers and integers beyond the float range are refused):
eps, eps1, theta, theta_G > 0 and finite; beta, pstar, eps0 in (0, 1); delta in [0, 1) (in (0, 1) for Liu-Talwar,
whose Delta has ln(1/delta)); gamma in (1, 2]; t, T integers >= 1.

The baselines' parameters (Cohen et al.'s theta_C and N_t of Algorithm 4, Liu-Talwar's sigma_LT, Delta and N of
eq. 25) are defined here too: they are Table 1's entries, and the testers of :mod:`privtest.baselines` use them.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from dataclasses import dataclass

from privtest import _validate
from privtest.gtm import GlobalCalibration, sample_bound
from privtest.schedule import beta_t, log_inv_omega

__all__ = [
    "TABLE1",
    "TABLE1_METHODS",
    "TABLE1_ROWS",
    "C_LT",
    "Delta_LT",
    "Entry",
    "Privacy",
    "RequirementError",
    "alpha_sum_lower_bound",
    "cohen_calls_per_step",
    "cohen_false_halt_lower",
    "cohen_noise_penalty",
    "cohen_noise_penalty_table",
    "cohen_pbar_max",
    "cohen_privacy",
    "cohen_rejection_threshold",
    "cohen_rejection_threshold_as_stated",
    "cohen_rejection_threshold_table",
    "cohen_requirement",
    "cohen_sample_complexity",
    "delta_prime",
    "ghazi_bad_selection_lower",
    "ghazi_pbar_max",
    "gtm_log_noise_penalty",
    "gtm_noise_penalty",
    "gtm_noise_penalty_table",
    "gtm_privacy",
    "gtm_rejection_threshold",
    "gtm_rejection_threshold_table",
    "gtm_requirement",
    "gtm_sample_complexity",
    "gtm_theta_opt",
    "halt_probability_lower",
    "liu_talwar_check_params",
    "liu_talwar_moreover_bound",
    "liu_talwar_noise_penalty",
    "liu_talwar_privacy",
    "liu_talwar_rejection_threshold",
    "liu_talwar_rejection_threshold_table",
    "liu_talwar_requirement",
    "liu_talwar_sample_complexity",
    "log_N_LT",
    "lower_bound_log_noise_penalty",
    "lower_bound_noise_penalty",
    "lower_bound_privacy",
    "lower_bound_rejection_threshold",
    "lower_bound_requirement",
    "lower_bound_sample_complexity",
    "sigma_LT",
    "table1_entry",
    "theta_C",
    "threshold_odds_ratio",
    "threshold_ratio",
    "threshold_ratio_case",
]


def _check(*, t=None, T=None, pstar=None, eps=None, eps1=None, beta=None, theta=None, gamma=None, eps0=None):
    """The ranges of the module docstring, for the arguments given (None: not an argument of the caller)."""
    if t is not None:
        _validate.step_index(t, "t")
    if T is not None:
        _validate.step_index(T, "T")
    if pstar is not None:
        _validate.open_unit("pstar", pstar)
    if eps is not None:
        _validate.positive("eps", eps)
    if eps1 is not None:
        _validate.positive("eps1", eps1)
    if beta is not None:
        _validate.open_unit("beta", beta)
    if theta is not None:
        _validate.positive("theta", theta)
    if gamma is not None:
        _validate.gamma_range(gamma)
    if eps0 is not None:
        _validate.open_unit("eps0", eps0)


# --------------------------------------------------------------------------------------------------------------
# Privacy and requirements (Table 1, first two rows)


@dataclass(frozen=True)
class Privacy:
    """An (eps, delta) output-privacy guarantee; ``pure`` when delta = 0.

    Args:
        eps: eps >= 0 and finite (nats).
        delta: delta in [0, 1).

    Raises:
        ValueError: naming eps or delta when outside its range.

    Example:
        >>> print(Privacy(1.0, 0.0)), print(Privacy(1.0, 1e-6))
        pure 1-DP
        (1, 1e-06)-DP
        (None, None)
    """

    eps: float
    delta: float

    def __post_init__(self):
        _validate.nonnegative("eps", self.eps)
        _validate.delta_range("delta", self.delta)

    @property
    def pure(self) -> bool:
        """Whether delta = 0."""
        return self.delta == 0

    def __str__(self) -> str:
        return f"pure {self.eps:g}-DP" if self.pure else f"({self.eps:g}, {self.delta:g})-DP"


def gtm_privacy(eps: float) -> Privacy:
    """Theorem 21: Algorithm 1 is pure eps-DP for any (eps_t, delta_t)-DP inputs.

    Args:
        eps: output privacy > 0.

    Returns:
        :class:`Privacy` (eps, 0).

    Raises:
        ValueError: naming eps when out of range.

    Example:
        >>> gtm_privacy(1.0)
        Privacy(eps=1.0, delta=0.0)
    """
    _check(eps=eps)
    return Privacy(float(eps), 0.0)


def cohen_privacy(eps: float, eps1: float) -> Privacy:
    """Proposition 48(1) via Theorem 47 (c = 1): (2 + theta_C) eps_1 = eps, pure.

    Args:
        eps: output privacy > 2 eps1. eps1: input privacy > 0.

    Returns:
        :class:`Privacy` ((2 + theta_C) eps_1, 0).

    Raises:
        RequirementError: if eps <= 2 eps_1. ValueError: naming eps or eps1 when out of range.

    Example:
        >>> cohen_privacy(1.0, 0.1)
        Privacy(eps=1.0, delta=0.0)
    """
    theta = theta_C(eps, eps1)
    return Privacy((2.0 + theta) * eps1, 0.0)


def liu_talwar_privacy(eps: float, delta: float) -> Privacy:
    """Theorem 46(1): (eps, delta)-DP (pure eps_1-DP inputs required).

    Args:
        eps: output privacy > 0. delta: output delta in (0, 1).

    Returns:
        :class:`Privacy` (eps, delta).

    Raises:
        ValueError: naming eps or delta when out of range.

    Example:
        >>> liu_talwar_privacy(1.0, 1e-6)
        Privacy(eps=1.0, delta=1e-06)
    """
    _validate.positive("eps", eps)
    _validate.open_unit("delta", delta)
    return Privacy(float(eps), float(delta))


def lower_bound_privacy(eps: float, delta: float = 0.0) -> Privacy:
    """Corollary 30 / Theorem 31 hold for any (eps, delta)-DP tester.

    Args:
        eps: output privacy > 0. delta: output delta in [0, 1).

    Returns:
        :class:`Privacy` (eps, delta).

    Raises:
        ValueError: naming eps or delta when out of range.

    Example:
        >>> str(lower_bound_privacy(1.0))
        'pure 1-DP'
    """
    _validate.positive("eps", eps)
    _validate.delta_range("delta", delta)
    return Privacy(float(eps), float(delta))


def gtm_requirement(eps: float, eps1: float) -> bool:
    """Table 1 / Theorem 21's requirement: eps > 0 (any eps_1 >= 0): True for every admissible argument.

    Args:
        eps: output privacy > 0. eps1: input privacy >= 0 (finite).

    Returns:
        bool: whether the GTM applies.

    Raises:
        ValueError: naming eps or eps1 when out of range.

    Example:
        >>> gtm_requirement(1.0, 0.9)
        True
    """
    _validate.positive("eps", eps)
    _validate.nonnegative("eps1", eps1)
    return eps > 0 and eps1 >= 0


def cohen_requirement(eps: float, eps1: float) -> bool:
    """Table 1 / Proposition 48's requirement: eps > 2 eps_1.

    Args:
        eps: output privacy > 0. eps1: input privacy > 0.

    Returns:
        bool: whether Cohen et al.'s tester applies.

    Raises:
        ValueError: naming eps or eps1 when out of range.

    Example:
        >>> cohen_requirement(1.0, 0.1), cohen_requirement(1.0, 0.5)
        (True, False)
    """
    _check(eps=eps, eps1=eps1)
    return eps > 2.0 * eps1 > 0


def liu_talwar_requirement(eps: float, T) -> bool:
    """Table 1 / Theorem 46's requirement: eps > 0 and a finite stream length T > 1 (T enters Delta and N).

    Args:
        eps: output privacy > 0.
        T: the stream length, an integer >= 1, or None / ``math.inf`` for a stream of unknown / no finite length.

    Returns:
        bool: whether Liu and Talwar's tester applies.

    Raises:
        ValueError: naming eps or T when out of range.

    Example:
        >>> liu_talwar_requirement(1.0, 100), liu_talwar_requirement(1.0, None)
        (True, False)
    """
    _validate.positive("eps", eps)
    if T is not None and not (isinstance(T, (int, float)) and T == math.inf):
        _validate.step_index(T, "T")
    return eps > 0 and T is not None and math.isfinite(T) and T > 1


def delta_prime(eps: float, delta: float) -> float:
    """delta' = delta/(e^eps - 1) (Definition 26(3)).

    Args:
        eps: privacy > 0. delta: in [0, 1).

    Returns:
        float >= 0.

    Raises:
        ValueError: naming eps or delta when out of range.

    Example:
        >>> round(delta_prime(1.0, 0.01), 6)
        0.00582
    """
    _validate.positive("eps", eps)
    _validate.delta_range("delta", delta)
    return delta / math.expm1(eps)


def lower_bound_requirement(eps: float, beta: float, delta: float = 0.0) -> bool:
    """Corollary 30 / Theorem 4's requirement: beta <= 1/2 and beta + delta' < 1/2.

    Args:
        eps: privacy > 0. beta: failure probability in (0, 1). delta: in [0, 1).

    Returns:
        bool: whether the lower bound applies.

    Raises:
        ValueError: naming eps, beta or delta when out of range.

    Example:
        >>> lower_bound_requirement(1.0, 0.05), lower_bound_requirement(1.0, 0.6)
        (True, False)
    """
    _check(eps=eps, beta=beta)
    _validate.delta_range("delta", delta)
    return beta <= 0.5 and beta + delta_prime(eps, delta) < 0.5


# --------------------------------------------------------------------------------------------------------------
# GTM (Theorem 21)


def _gtm(eps, beta, theta, gamma=1.5, variant="auto") -> GlobalCalibration:
    return GlobalCalibration(eps, beta, theta, gamma, variant)


def gtm_log_noise_penalty(t: int, eps: float, eps1: float, beta: float, theta: float) -> float:
    r"""ln Lambda_t of Theorem 21: (eps_1/eps)[(1 + 2/theta) ln(4/beta) + (2 + theta) ln(4/beta_t)] (explicit; Table 1
    prints (1/beta)^{(1+2/theta) eps_1/eps} (t/beta)^{(2+theta) eps_1/eps}).

    Args:
        t: step index >= 1. eps: output privacy > 0. eps1: input privacy > 0. beta: in (0, 1). theta: > 0.

    Returns:
        float: ln Lambda_t (>= 0).

    Raises:
        ValueError: naming the parameter when one is out of range.

    Example:
        >>> round(gtm_log_noise_penalty(1, 1.0, 0.1, 0.05, 1.0), 4)
        2.7767
    """
    _check(t=t, eps=eps, eps1=eps1, beta=beta, theta=theta)
    return _gtm(eps, beta, theta).log_Lambda(t, eps1)


def gtm_noise_penalty(t: int, eps: float, eps1: float, beta: float, theta: float) -> float:
    """Lambda_t of Theorem 21 (inf if it overflows a float); arguments as :func:`gtm_log_noise_penalty`.

    Returns:
        float: Lambda_t >= 1.

    Raises:
        ValueError: naming the parameter when one is out of range.

    Example:
        >>> round(gtm_noise_penalty(1, 1.0, 0.1, 0.05, 1.0), 3)
        16.066
    """
    x = gtm_log_noise_penalty(t, eps, eps1, beta, theta)
    return math.exp(x) if x < 709 else math.inf


def gtm_theta_opt(t: int, beta: float) -> float:
    r"""The theta minimising Lambda_t (Theorem 21): d/dtheta [(1 + 2/theta) ln(4/beta) + (2 + theta) ln(4/beta_t)] = 0
    gives theta* = sqrt(2 ln(4/beta) / ln(4/beta_t)) (independent of eps_1/eps).

    Args:
        t: step index >= 1. beta: in (0, 1).

    Returns:
        float: theta* > 0.

    Raises:
        ValueError: naming t or beta when out of range.

    Example:
        >>> round(gtm_theta_opt(1, 0.05), 6)
        1.340983
    """
    t = _validate.step_index(t)
    _validate.open_unit("beta", beta)
    l4b = math.log(4.0 / beta)
    return math.sqrt(2.0 * l4b / (l4b + float(log_inv_omega(t))))


def gtm_rejection_threshold(t, pstar, eps, eps1, beta, theta, gamma, variant: str = "auto") -> float:
    """pbar_t = max(p*/(gamma Lambda_t), 1 - gamma Lambda_t (1 - p*)) of Theorem 21.

    Args:
        t: step index >= 1. pstar: p* in (0, 1). eps, eps1: output and input privacy > 0. beta: in (0, 1).
        theta: > 0. gamma: in (1, 2].
        variant: "auto" (the flipping rule's branch), "direct" or "flipped" (one branch; the flipped one can be
            negative: no continuation guarantee).

    Returns:
        float: pbar_t.

    Raises:
        ValueError: naming the parameter when one is out of range.

    Example:
        >>> round(gtm_rejection_threshold(1, 0.2, 1.0, 0.1, 0.05, 1.0, 1.5), 6)
        0.008299
    """
    _check(t=t, pstar=pstar, eps=eps, eps1=eps1, beta=beta, theta=theta, gamma=gamma)
    return _gtm(eps, beta, theta, gamma, variant).step(t, eps1, pstar).pbar


def gtm_noise_penalty_table(t, eps, eps1, beta, theta) -> float:
    """Table 1's printed Lambda_t of Theorem 21, lower-order terms suppressed: (1/beta)^{(1+2/theta) r}
    (t/beta)^{(2+theta) r} with r = eps_1/eps (the explicit one is :func:`gtm_noise_penalty`).

    Args:
        t: step index >= 1 (or the stream length T); eps, eps1: output and input privacy > 0; beta in (0, 1);
            theta > 0.

    Returns:
        float: the printed Lambda_t.

    Raises:
        ValueError: on a parameter outside its range (naming it).

    Example:
        >>> round(gtm_noise_penalty_table(4, 1.0, 0.25, 0.25, 2.0), 6)
        32.0
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

    Returns:
        float: the printed pbar_t.

    Raises:
        ValueError: on a parameter outside its range (naming it).

    Example:
        >>> round(gtm_rejection_threshold_table(4, 0.999, 1.0, 0.25, 0.25, 2.0, 2.0), 6)
        0.936
    """
    _validate.open_unit("pstar", pstar)
    _validate.gamma_range(gamma)
    lam = gtm_noise_penalty_table(t, eps, eps1, beta, theta)
    return max(pstar / (gamma * lam), 1 - gamma * lam * (1 - pstar))


def gtm_sample_complexity(t, pstar, eps, eps1, beta, theta, gamma) -> float:
    """High-probability bound on N_t: Lemma 22(1) with the calibration's explicit quantities, e max(lambda_max_t,
    ln(4/beta_t)), lambda_max_t = rho_t Lambda_t (direct) or rho_t (flipped) (:func:`privtest.gtm.
    sample_bound`; replaces the unspecified C_A; Table 1 prints ln(t/beta)/(gamma-1)^2 max(Lambda_t/p*,
    1/(1-p*))).

    Args:
        t: step index >= 1. pstar: in (0, 1). eps, eps1: > 0. beta: in (0, 1). theta: > 0. gamma: in (1, 2].

    Returns:
        float: evaluations of M_t at step t, a bound holding except with Lemma 22(1)'s small probability.

    Raises:
        ValueError: naming the parameter when one is out of range.

    Example:
        >>> round(gtm_sample_complexity(1, 0.5, 1.0, 0.1, 0.05, 1.0, 1.5))
        29656
    """
    _check(t=t, pstar=pstar, eps=eps, eps1=eps1, beta=beta, theta=theta, gamma=gamma)
    return sample_bound(_gtm(eps, beta, theta, gamma).step(t, eps1, pstar), beta)


# --------------------------------------------------------------------------------------------------------------
# Cohen et al. (Proposition 48, Algorithm 4)


class RequirementError(ValueError):
    """A tester's requirement (Table 1, row "Requirement") fails for the given parameters, e.g. Cohen et al. or
    Ghazi et al. with eps <= 2 eps_1: the method does not apply there (a comparison reports it as not applicable),
    as opposed to an invalid argument.

    Example:
        >>> try:
        ...     theta_C(1.0, 0.5)
        ... except RequirementError as e:
        ...     print(e)
        Cohen et al. require eps > 2 eps_1. Found eps=1.0, eps_1=0.5.
    """


def theta_C(eps: float, eps1: float) -> float:
    """theta_C = eps/eps_1 - 2 (Algorithm 4), which makes Test (2 + theta_C) eps_1 = eps-DP (Theorem 47, c = 1).

    Args:
        eps: output privacy > 0. eps1: input privacy > 0.

    Returns:
        float: theta_C > 0.

    Raises:
        RequirementError: if eps <= 2 eps_1 (Table 1's requirement for Cohen et al.).
        ValueError: if eps or eps1 is not > 0 and finite.

    Example:
        >>> round(theta_C(1.0, 0.1), 12)
        8.0
    """
    _validate.positive("eps", eps)
    _validate.positive("eps1", eps1)
    if not eps > 2.0 * eps1:
        raise RequirementError(f"Cohen et al. require eps > 2 eps_1. Found eps={eps!r}, eps_1={eps1!r}.")
    return eps / eps1 - 2.0


def cohen_calls_per_step(pstar: float, beta: float, theta: float) -> int:
    """N_t = ceil(ln(2/beta) / ((beta/2)^(1/theta_C) p*)) of Algorithm 4 (the same for every t).

    Checked in log space first: (beta/2)^(1/theta_C) underflows to 0 as theta_C -> 0 (eps -> 2 eps_1).

    Args:
        pstar: p* in (0, 1). beta: in (0, 1). theta: theta_C > 0.

    Returns:
        int: N_t >= 1.

    Raises:
        ValueError: if pstar or beta is outside (0, 1) or theta <= 0, or if N_t exceeds the largest float
            (theta_C too small: Cohen et al.'s tester then needs more calls per step than can be represented).

    Example:
        >>> cohen_calls_per_step(0.5, 0.05, 8.0)
        12
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
    Table 1 prints ln(1/beta)/(p* beta^{eps_1/(eps-2 eps_1)}).

    Args:
        pstar: p* in (0, 1). eps: > 2 eps1. eps1: > 0. beta: in (0, 1).

    Returns:
        int: N_t.

    Raises:
        RequirementError: if eps <= 2 eps_1. ValueError: naming the parameter when one is out of range.

    Example:
        >>> cohen_sample_complexity(0.5, 1.0, 0.1, 0.05)
        12
    """
    _check(pstar=pstar, eps=eps, eps1=eps1, beta=beta)
    return cohen_calls_per_step(pstar, beta, theta_C(eps, eps1))


def cohen_rejection_threshold(t: int, pstar: float, eps: float, eps1: float, beta: float) -> float:
    """pbar_t = beta_t / (2 N_t (1 - beta/2)^(1/theta_C)) from the proof of Proposition 48 (the statement's formula
    has a negative base, see :func:`cohen_rejection_threshold_as_stated` and ERRATA.md).

    Args:
        t: step index >= 1. pstar: in (0, 1). eps: > 2 eps1. eps1: > 0. beta: in (0, 1).

    Returns:
        float: pbar_t.

    Raises:
        RequirementError: if eps <= 2 eps_1. ValueError: naming the parameter when one is out of range.

    Example:
        >>> round(cohen_rejection_threshold(1, 0.5, 1.0, 0.1, 0.05), 8)
        0.00127822
    """
    _check(t=t, pstar=pstar, eps=eps, eps1=eps1, beta=beta)
    theta = theta_C(eps, eps1)
    N = cohen_calls_per_step(pstar, beta, theta)
    return float(beta_t(t, beta)) / (2.0 * N * (1.0 - beta / 2.0) ** (1.0 / theta))


def cohen_rejection_threshold_as_stated(t: int, pstar: float, eps: float, eps1: float, beta: float) -> float:
    """Proposition 48(2b) as printed: p* beta_t/(2 ln(2/beta)) (beta/2 - beta)^(1/theta_C). The base beta/2 - beta
    is negative, so the value is undefined (nan) for non-integer 1/theta_C; kept to document the erratum.

    Args:
        as :func:`cohen_rejection_threshold`.

    Returns:
        float: the printed value (nan where undefined).

    Raises:
        RequirementError: if eps <= 2 eps_1. ValueError: naming the parameter when one is out of range.

    Example:
        >>> cohen_rejection_threshold_as_stated(1, 0.5, 1.0, 0.3, 0.05)
        nan
    """
    _check(t=t, pstar=pstar, eps=eps, eps1=eps1, beta=beta)
    theta = theta_C(eps, eps1)
    base = beta / 2.0 - beta
    try:
        factor = math.pow(base, 1.0 / theta)
    except ValueError:
        return math.nan
    return pstar * float(beta_t(t, beta)) / (2.0 * math.log(2.0 / beta)) * factor


def cohen_noise_penalty(t: int, pstar: float, eps: float, eps1: float, beta: float) -> float:
    """Lambda_t = p*/pbar_t = 2 p* N_t (1 - beta/2)^(1/theta_C) / beta_t (proof of Proposition 48, explicit; Table 1
    prints t/beta^{1 + eps_1/(eps - 2 eps_1)}).

    Args:
        as :func:`cohen_rejection_threshold`.

    Returns:
        float: Lambda_t.

    Raises:
        RequirementError: if eps <= 2 eps_1. ValueError: naming the parameter when one is out of range.

    Example:
        >>> round(cohen_noise_penalty(1, 0.5, 1.0, 0.1, 0.05), 2)
        391.17
    """
    return pstar / cohen_rejection_threshold(t, pstar, eps, eps1, beta)


def cohen_noise_penalty_table(t, eps, eps1, beta) -> float:
    """Table 1's printed Lambda_t of Proposition 48, lower-order terms suppressed: t/beta^{1 + r/(1 - 2r)} with r =
    eps_1/eps, i.e. t/beta^{1 + eps_1/(eps - 2 eps_1)} (the explicit one is :func:`cohen_noise_penalty`).

    Args:
        t: step index >= 1 (or the stream length T); eps, eps1: output and input privacy > 0; beta in (0, 1).

    Returns:
        float: the printed Lambda_t.

    Raises:
        RequirementError: if eps <= 2 eps_1 (:func:`theta_C`).
        ValueError: on a parameter outside its range (naming it).

    Example:
        >>> round(cohen_noise_penalty_table(4, 1.0, 0.25, 0.25), 9)
        32.0
    """
    t = _validate.step_index(t)
    theta_C(eps, eps1)
    _validate.open_unit("beta", beta)
    r = eps1 / eps
    return t / beta ** (1 + r / (1 - 2 * r))


def cohen_rejection_threshold_table(t, pstar, eps, eps1, beta) -> float:
    """Table 1's printed pbar_t of Proposition 48: p*/Lambda_t at Table 1's Lambda_t
    (:func:`cohen_noise_penalty_table`; the explicit one is :func:`cohen_rejection_threshold`).

    Args:
        pstar: p* in (0, 1); the others as in :func:`cohen_noise_penalty_table`.

    Returns:
        float: the printed pbar_t.

    Raises:
        RequirementError: if eps <= 2 eps_1.
        ValueError: if pstar is not in (0, 1) or another parameter is outside its range.

    Example:
        >>> cohen_rejection_threshold_table(4, 0.5, 1.0, 0.25, 0.25)
        0.015625
    """
    _validate.open_unit("pstar", pstar)
    return pstar / cohen_noise_penalty_table(t, eps, eps1, beta)


# --------------------------------------------------------------------------------------------------------------
# Liu-Talwar (Theorem 46, eq. 25)


def sigma_LT(eps: float, eps1: float, eps0: float) -> float:
    """sigma_LT = 12 (eps_1 + eps_0)/eps (eq. 25, Theorem 46).

    Args:
        eps: output privacy > 0. eps1: input privacy > 0. eps0: auxiliary eps_0 in (0, 1).

    Returns:
        float: sigma_LT > 0.

    Raises:
        ValueError: naming the parameter when one is out of range.

    Example:
        >>> round(sigma_LT(12.0, 0.5, 0.5), 12)
        1.0
    """
    _check(eps=eps, eps1=eps1, eps0=eps0)
    return 12.0 * (eps1 + eps0) / eps


def C_LT(eps1: float, eps0: float) -> float:
    """C = 2 (e^(eps_0 + eps_1) + 1 + e^(eps_0/2)) (eq. 25).

    Args:
        eps1: input privacy > 0. eps0: in (0, 1).

    Returns:
        float: C.

    Raises:
        ValueError: naming eps1 or eps0 when out of range.

    Example:
        >>> round(C_LT(0.5, 0.5), 6)
        10.004614
    """
    _check(eps1=eps1, eps0=eps0)
    return 2.0 * (math.exp(eps0 + eps1) + 1.0 + math.exp(eps0 / 2.0))


def Delta_LT(eps1: float, eps0: float, T: int, delta: float) -> float:
    """Delta = C ln(8T/delta) / (eps_0 (e^(eps_0 + eps_1) - 1)) (eq. 25).

    Args:
        eps1: input privacy > 0. eps0: in (0, 1). T: stream length >= 1. delta: output delta in (0, 1).

    Returns:
        float: Delta > 0.

    Raises:
        ValueError: naming the parameter when one is out of range.

    Example:
        >>> round(Delta_LT(0.5, 0.5, 10, 1e-6), 3)
        211.909
    """
    _check(eps1=eps1, eps0=eps0, T=T)
    _validate.open_unit("delta", delta)
    return C_LT(eps1, eps0) * math.log(8.0 * T / delta) / (eps0 * math.expm1(eps0 + eps1))


def log_N_LT(pstar: float, eps: float, eps1: float, beta: float, delta: float, eps0: float, T: int) -> float:
    """ln N with N = e^eps_0 Delta / min(p*, 1-p*) ((T+1)/beta)^sigma_LT (eq. 25), before rounding up.

    Args:
        as :func:`liu_talwar_check_params`.

    Returns:
        float: ln N.

    Raises:
        ValueError: naming the parameter when one is out of range.

    Example:
        >>> round(log_N_LT(0.5, 1.0, 0.1, 0.05, 1e-6, 0.5, 10), 4)
        45.9232
    """
    liu_talwar_check_params(pstar, eps, eps1, beta, delta, eps0, T)
    return (
        eps0
        + math.log(Delta_LT(eps1, eps0, T, delta))
        - math.log(min(pstar, 1.0 - pstar))
        + sigma_LT(eps, eps1, eps0) * math.log((T + 1.0) / beta)
    )


def liu_talwar_check_params(pstar, eps, eps1, beta, delta, eps0, T) -> None:
    """Theorem 46's ranges: p*, beta, delta, eps_0 in (0, 1), eps, eps_1 > 0, T >= 1 (an integer, finite).

    Args:
        pstar, beta, delta, eps0: in (0, 1). eps, eps1: > 0 and finite. T: stream length, an integer >= 1.

    Raises:
        ValueError: naming the first parameter outside its range.

    Example:
        >>> liu_talwar_check_params(0.5, 1.0, 0.1, 0.05, 1e-6, 0.5, 10) is None
        True
    """
    _validate.open_unit("pstar", pstar)
    _validate.open_unit("beta", beta)
    _validate.open_unit("delta", delta)
    _validate.open_unit("eps0", eps0)
    _validate.positive("eps", eps)
    _validate.positive("eps1", eps1)
    T = _validate.step_index(T, "T")


def liu_talwar_noise_penalty(t: int, eps: float, eps1: float, beta: float, eps0: float) -> float:
    """Lambda_t = 2 e^eps_0 ((t+1)/beta)^sigma_LT, sigma_LT = 12 (eps_1 + eps_0)/eps: the factor of Theorem 46(2)
    (pbar_t = p*/Lambda_t). Table 1 prints (t/beta^2)^{12(eps_1+eps_0)/eps} (see ERRATA.md).

    Args:
        t: step index >= 1. eps, eps1: > 0. beta: in (0, 1). eps0: in (0, 1).

    Returns:
        float: Lambda_t (inf if it overflows a float).

    Raises:
        ValueError: naming the parameter when one is out of range.

    Example:
        >>> round(liu_talwar_noise_penalty(1, 12.0, 0.5, 0.5, 0.5), 4)
        13.1898
    """
    t = _validate.step_index(t)
    _validate.open_unit("beta", beta)
    _validate.open_unit("eps0", eps0)
    _check(eps=eps, eps1=eps1)
    x = math.log(2.0) + eps0 + sigma_LT(eps, eps1, eps0) * math.log((t + 1.0) / beta)
    return math.exp(x) if x < 709 else math.inf


def liu_talwar_rejection_threshold(t: int, pstar: float, eps: float, eps1: float, beta: float, eps0: float) -> float:
    """Theorem 46(2): halting at step t implies p_t >= e^{-eps_0}/2 (beta/(t+1))^sigma_LT p* w.p. >= 1-beta-delta/2.
    Equals p*/Lambda_t (:func:`liu_talwar_noise_penalty`), evaluated as the product, which does not underflow where
    Lambda_t overflows. Table 1 prints the odds form p*/(Lambda (1-p*) + p*), which is >= this value (see
    :func:`liu_talwar_rejection_threshold_table`).

    Args:
        t: step index >= 1. pstar: in (0, 1). eps, eps1: > 0. beta: in (0, 1). eps0: in (0, 1).

    Returns:
        float: pbar_t.

    Raises:
        ValueError: naming the parameter when one is out of range.

    Example:
        >>> round(liu_talwar_rejection_threshold(1, 0.5, 12.0, 0.5, 0.5, 0.5), 6)
        0.037908
    """
    t = _validate.step_index(t)
    _validate.open_unit("pstar", pstar)
    _validate.open_unit("beta", beta)
    _validate.open_unit("eps0", eps0)
    _check(eps=eps, eps1=eps1)
    return 0.5 * math.exp(-eps0) * (beta / (t + 1.0)) ** sigma_LT(eps, eps1, eps0) * pstar


def liu_talwar_moreover_bound(R: int, pstar: float, eps: float, eps1: float, beta: float, eps0: float) -> float:
    """Theorem 46(3)'s "moreover" bound as printed (Liu and Talwar 2019, Theorem 4.2(c)): halting at step R implies
    p_R >= 1 - (1 + e^eps_0/(2(1-p*)) ((R+1)/beta)^sigma_LT)^{-1} w.p. >= 1 - beta - delta/2 (a probability; ERRATA.md
    records that it cannot hold).

    Args:
        R: the halting step, an integer >= 1. pstar, beta, eps0: in (0, 1). eps, eps1: > 0.

    Returns:
        float: the printed lower bound on p_R, in (0, 1).

    Raises:
        ValueError: if R < 1 or pstar, beta or eps0 is outside (0, 1), or eps, eps1 are not > 0 (naming it).

    Example:
        >>> round(liu_talwar_moreover_bound(1, 0.5, 12.0, 0.5, 0.5, 0.5), 7)
        0.8683324
    """
    R = _validate.step_index(R, "R")
    _validate.open_unit("pstar", pstar)
    _validate.open_unit("beta", beta)
    _validate.open_unit("eps0", eps0)
    _check(eps=eps, eps1=eps1)
    x = math.exp(eps0) / (2 * (1 - pstar)) * ((R + 1) / beta) ** sigma_LT(eps, eps1, eps0)
    return 1 - 1 / (1 + x)


def liu_talwar_rejection_threshold_table(t, pstar, eps, eps1, beta, eps0) -> float:
    """Table 1's printed odds form p*/(Lambda (1-p*) + p*) with Table 1's Lambda = (t/beta^2)^{12(eps_1+eps_0)/eps}
    (Theorem 46).

    Args:
        t: step index >= 1. pstar: in (0, 1). eps, eps1: > 0. beta: in (0, 1). eps0: in (0, 1).

    Returns:
        float: the printed pbar_t.

    Raises:
        ValueError: naming the parameter when one is out of range.

    Example:
        >>> round(liu_talwar_rejection_threshold_table(1, 0.5, 12.0, 0.5, 0.5, 0.5), 6)
        0.2
    """
    _check(t=t, pstar=pstar, eps=eps, eps1=eps1, beta=beta, eps0=eps0)
    lam = math.exp(min(700.0, sigma_LT(eps, eps1, eps0) * math.log(t / beta**2)))
    return pstar / (lam * (1.0 - pstar) + pstar)


def liu_talwar_sample_complexity(pstar, eps, eps1, beta, delta, eps0, T) -> float:
    """N of eq. 25 rounded up (evaluations per step, every step), as a float (exact below 2^53; inf when N overflows
    a float); Table 1 prints (T/beta)^{12(eps_1+eps_0)/eps} ln(T/delta) / (eps_0^2 min(p*, 1-p*)).

    Args:
        as :func:`liu_talwar_check_params`.

    Returns:
        float: N.

    Raises:
        ValueError: on a parameter outside Theorem 46's ranges (:func:`liu_talwar_check_params`).

    Example:
        >>> liu_talwar_sample_complexity(0.5, 12.0, 0.5, 0.5, 1e-6, 0.5, 10)
        15373.0
    """
    liu_talwar_check_params(pstar, eps, eps1, beta, delta, eps0, T)
    log_N = log_N_LT(pstar, eps, eps1, beta, delta, eps0, T)
    return float(math.ceil(math.exp(log_N))) if log_N < 700 else math.inf


# --------------------------------------------------------------------------------------------------------------
# Lower bounds (Section 6)


def alpha_sum_lower_bound(T: int, eps: float, beta: float, delta: float = 0.0) -> float:
    """Theorem 29: any (eps, delta)-DP standard threshold test with global accuracy ``(alpha_+, alpha_-, beta)`` over T
    steps has ``alpha_+ + alpha_-`` >= (1/eps)(ln(T/(2(beta + T delta'))) + ln(1/(2(beta + delta')))) - 2.

    Args:
        T: number of steps >= 1. eps: privacy > 0. beta: in (0, 1). delta: in [0, 1).

    Returns:
        float: the lower bound on ``alpha_+ + alpha_-`` (in query units; may be negative: vacuous).

    Raises:
        ValueError: naming the parameter when one is out of range, or unless beta + delta' < 1/2.

    Example:
        >>> round(alpha_sum_lower_bound(100, 1.0, 0.05), 6)
        7.21034
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

    Args:
        T: stream length >= 1. eps, eps1: > 0. beta: in (0, 1/2]. delta: in [0, 1).

    Returns:
        float: ln Lambda_0.

    Raises:
        ValueError: naming the parameter when one is out of range, or unless beta <= 1/2 and beta + delta' < 1/2.

    Example:
        >>> round(lower_bound_log_noise_penalty(100, 1.0, 0.1, 0.05), 6)
        0.721034
    """
    _check(T=T, eps=eps, eps1=eps1, beta=beta)
    if beta > 0.5:
        raise ValueError(f"beta must be <= 1/2. Found {beta!r}.")
    return eps1 * alpha_sum_lower_bound(T, eps, beta, delta)


def lower_bound_noise_penalty(T: int, eps: float, eps1: float, beta: float, delta: float = 0.0) -> float:
    """Lambda_0 of Corollary 30 (Lambda-bar_T of Theorem 4); arguments as :func:`lower_bound_log_noise_penalty`.

    Returns:
        float: Lambda_0.

    Raises:
        ValueError: naming the parameter when one is out of range.

    Example:
        >>> round(lower_bound_noise_penalty(100, 1.0, 0.1, 0.05), 6)
        2.056559
    """
    return math.exp(lower_bound_log_noise_penalty(T, eps, eps1, beta, delta))


def _check_thresholds(pstar, pbar) -> None:
    _validate.open_unit("pstar", pstar)
    _validate.open_unit("pbar", pbar)


def threshold_ratio_case(pstar: float, pbar: float) -> int:
    """Which case of Corollary 30 applies: 1 (p*, pbar <= 1/2), 2 (p*, pbar >= 1/2), 3 (pbar < 1/2 < p*).

    Args:
        pstar: p* in (0, 1). pbar: rejection threshold in (0, 1), <= p*.

    Returns:
        int: 1, 2 or 3.

    Raises:
        ValueError: naming pstar or pbar when out of range, or if pbar > pstar.

    Example:
        >>> threshold_ratio_case(0.8, 0.3)
        3
    """
    _check_thresholds(pstar, pbar)
    if pstar <= 0.5 and pbar <= 0.5:
        return 1
    if pstar >= 0.5 and pbar >= 0.5:
        return 2
    if pbar < 0.5 < pstar:
        return 3
    raise ValueError(f"pbar must be <= pstar. Found pstar={pstar!r}, pbar={pbar!r}.")


def threshold_ratio(pstar: float, pbar: float) -> float:
    """Left-hand side of the applicable case of Corollary 30 (bounded below by Lambda_0): p*/pbar, (1-pbar)/(1-p*) or
    1/(4 pbar (1-p*)) (:func:`threshold_ratio_case`).

    Args:
        pstar: p* in (0, 1). pbar: in (0, 1), <= p*.

    Returns:
        float: the ratio (>= 1 for pbar <= p*).

    Raises:
        ValueError: naming pstar or pbar when out of range, or if pbar > pstar.

    Example:
        >>> round(threshold_ratio(0.8, 0.3), 6)
        4.166667
    """
    case = threshold_ratio_case(pstar, pbar)
    if case == 1:
        return pstar / pbar
    if case == 2:
        return (1.0 - pbar) / (1.0 - pstar)
    return 1.0 / (4.0 * pbar * (1.0 - pstar))


def threshold_odds_ratio(pstar: float, pbar: float) -> float:
    """Corollary 30's unified form (eq. 17): (p*/(1-p*)) / (pbar/(1-pbar)) >= Lambda_0.

    Args:
        pstar: p* in (0, 1). pbar: in (0, 1).

    Returns:
        float: the odds ratio.

    Raises:
        ValueError: naming pstar or pbar when out of range.

    Example:
        >>> round(threshold_odds_ratio(0.8, 0.3), 6)
        9.333333
    """
    _check_thresholds(pstar, pbar)
    return (pstar / (1.0 - pstar)) / (pbar / (1.0 - pbar))


def lower_bound_rejection_threshold(T, pstar, eps, eps1, beta, delta: float = 0.0, form: str = "cases") -> float:
    """Largest rejection threshold any (eps, delta)-DP tester with global accuracy beta over T steps can have
    (Corollary 30).

    ``form="cases"``: the supremum of pbar <= p* allowed by Corollary 30's three cases: p*/Lambda_0 if p* <= 1/2;
    otherwise 1 - Lambda_0 (1 - p*) if that is >= 1/2 (case 2), else min(1/(4 (1-p*) Lambda_0), 1/2) (case 3).
    ``form="odds"``: eq. 17, odds(pbar) <= odds(p*)/Lambda_0, i.e. pbar <= p*/(Lambda_0 (1-p*) + p*) (weaker).
    Both are capped at p* (a vacuous Lambda_0 <= 1 leaves pbar <= p*).

    Args:
        T: stream length >= 1. pstar: in (0, 1). eps, eps1: > 0. beta: in (0, 1/2]. delta: in [0, 1).
        form: "cases" or "odds".

    Returns:
        float: the largest pbar in (0, p*].

    Raises:
        ValueError: naming the parameter when one is out of range (form included).

    Example:
        >>> round(lower_bound_rejection_threshold(100, 0.1, 1.0, 0.1, 0.05), 7)
        0.0486249
    """
    _validate.open_unit("pstar", pstar)
    if form not in ("cases", "odds"):
        raise ValueError(f"form must be 'cases' or 'odds'. Found {form!r}.")
    lam = lower_bound_noise_penalty(T, eps, eps1, beta, delta)
    if form == "odds":
        return min(pstar, pstar / (lam * (1.0 - pstar) + pstar))
    if pstar <= 0.5:
        return min(pstar, pstar / lam)
    case2 = 1.0 - lam * (1.0 - pstar)
    if case2 >= 0.5:
        return min(pstar, case2)
    return min(0.5, 1.0 / (4.0 * (1.0 - pstar) * lam))


def lower_bound_sample_complexity(pstar: float, eps: float, eps1: float, beta_II: float, delta: float = 0.0) -> float:
    """Theorem 31: E[N_t] >= e^{-eps_1} / (4 p* (2 (beta_t^II + delta'))^{eps_1/eps}) for p* <= 1/2 (some input
    instance). Table 1 uses beta_t^II = beta (Remark 32).

    Args:
        pstar: p* in (0, 1/2]. eps, eps1: > 0. beta_II: Type II error in (0, 1). delta: in [0, 1).

    Returns:
        float: the lower bound on E[N_t] (evaluations).

    Raises:
        ValueError: naming the parameter when one is out of range, if p* > 1/2 (the theorem does not apply) or
            beta_II + delta' >= 1/2.

    Example:
        >>> round(lower_bound_sample_complexity(0.5, 1.0, 0.1, 0.05), 4)
        0.5696
    """
    _validate.open_unit("pstar", pstar)
    _validate.open_unit("beta_II", beta_II)
    _check(eps=eps, eps1=eps1)
    if pstar > 0.5:
        raise ValueError(f"Theorem 31 requires pstar <= 1/2. Found {pstar!r}.")
    dp = delta_prime(eps, delta)
    if not beta_II + dp < 0.5:
        raise ValueError(f"beta_II + delta' must be < 1/2. Found {beta_II + dp!r}.")
    return math.exp(-eps1) / (4.0 * pstar * (2.0 * (beta_II + dp)) ** (eps1 / eps))


# --------------------------------------------------------------------------------------------------------------
# Random dropping (Section 9.3-9.4)


def halt_probability_lower(M: float, q: float, q0: float) -> float:
    """Lemma 50: at least M conditionally independent trials of success probability >= q on an event of probability
    >= q0 give Pr[some success] >= q0 (1 - e^{-M q}).

    Args:
        M: number of trials > 0 (finite). q: success probability in [0, 1]. q0: the event's probability in [0, 1].

    Returns:
        float: the lower bound, a probability.

    Raises:
        ValueError: naming M, q or q0 when out of range.

    Example:
        >>> round(halt_probability_lower(100, 0.01, 0.5), 6)
        0.31606
    """
    _validate.positive("M", M)
    _validate.interval("q", q, 0.0, 1.0, lo_open=False, hi_open=False)
    _validate.interval("q0", q0, 0.0, 1.0, lo_open=False, hi_open=False)
    return q0 * -math.expm1(-M * q)


def cohen_pbar_max(beta: float, theta: float, total_calls: float) -> float:
    """Corollary 51: if Algorithm 4 halts w.p. <= beta on every instance with p_t <= pbar (t <= T), then
    pbar <= 4 beta 2^{1/theta_C} / sum_t N_t. Requires beta < 1/4.

    Args:
        beta: in (0, 1/4). theta: theta_C > 0. total_calls: sum_t N_t > 0 (finite).

    Returns:
        float: the largest rejection threshold Algorithm 4 can have.

    Raises:
        ValueError: naming the parameter when one is out of range.

    Example:
        >>> round(cohen_pbar_max(0.05, 8.0, 1200), 10)
        0.0001817513
    """
    _validate.open_unit("beta", beta)
    if not beta < 0.25:
        raise ValueError(f"beta must be < 1/4. Found {beta!r}.")
    _validate.positive("theta", theta)
    _validate.positive("total_calls", total_calls)
    return 4.0 * beta * 2.0 ** (1.0 / theta) / total_calls


def cohen_false_halt_lower(pbar: float, theta: float, total_calls: float) -> float:
    """Lemma 50 as used in Corollary 51: with p_t = pbar at all T steps, Algorithm 4 halts w.p. >=
    (1/2)(1 - exp(-sum_t N_t (1/2)^{1/theta_C} pbar)) (event p_dagger >= (1/2)^{1/theta_C}, q0 = 1/2).

    Args:
        pbar: the inputs' success probability in [0, 1]. theta: theta_C > 0. total_calls: sum_t N_t > 0.

    Returns:
        float: the lower bound on the false-halt probability.

    Raises:
        ValueError: naming the parameter when one is out of range.

    Example:
        >>> round(cohen_false_halt_lower(1e-3, 8.0, 1200), 6)
        0.333632
    """
    _validate.interval("pbar", pbar, 0.0, 1.0, lo_open=False, hi_open=False)
    _validate.positive("theta", theta)
    _validate.positive("total_calls", total_calls)
    return halt_probability_lower(total_calls, 0.5 ** (1.0 / theta) * pbar, 0.5)


def ghazi_pbar_max(beta: float, T: int, G: int, pstar: float, theta_G: float) -> float:
    """Corollary 53: if Algorithm 5 (uniform selection) returns a bad (+1, t) w.p. <= beta, with G good (p_t >= p*)
    and T - G bad (p_t <= pbar) mechanisms, then pbar <= 2 beta (1 + G p*) / ((T - G)(1 - e^{-theta_G})).

    Args:
        beta: in (0, 1/2), at most (1 - e^{-theta_G})/2. T: stream length, an integer >= 3. G: an integer in
            [T-2] = {1, ..., T-2}. pstar: p* in (0, 1). theta_G: eps - 2 eps_1 > 0.

    Returns:
        float: the largest rejection threshold Algorithm 5 can have.

    Raises:
        ValueError: unless beta in (0, 1/2), T >= 3 and G in [T-2] = {1, ..., T-2} (the corollary's hypotheses), and
            beta <= (1-e^{-theta_G})/2; naming the parameter.

    Example:
        >>> round(ghazi_pbar_max(0.05, 100, 10, 0.5, 0.8), 7)
        0.0121064
    """
    _validate.open_unit("beta", beta)
    _validate.positive("theta_G", theta_G)
    _validate.open_unit("pstar", pstar)
    T = _validate.integer("T", T, 1)
    G = _validate.integer("G", G, 0)
    if not (T >= 3 and 1 <= G <= T - 2):
        raise ValueError(f"G must be in [T-2] = {{1, ..., T-2}} (T >= 3). Found T={T!r}, G={G!r}.")
    if not beta <= -math.expm1(-theta_G) / 2.0:
        raise ValueError(f"beta must be <= (1 - e^-theta_G)/2. Found {beta!r}.")
    return 2.0 * beta * (1.0 + G * pstar) / ((T - G) * -math.expm1(-theta_G))


def ghazi_bad_selection_lower(T: int, G: int, pstar: float, pbar: float, theta_G: float) -> float:
    """The proof of Corollary 53: Pr[bad selected] >= (1 - e^{-theta_G}) (T-G) pbar / (1 + (T-G-1) pbar + G p*)
    when bad mechanisms have p_t = pbar and good ones p_t = p* (uniform selection).

    Args:
        T: stream length, an integer >= 1. G: good mechanisms, an integer in [0, T - 1]. pstar: p* in [0, 1].
        pbar: the bad mechanisms' success probability in [0, 1]. theta_G: eps - 2 eps_1 > 0.

    Returns:
        float: the lower bound on the probability of a bad selection.

    Raises:
        ValueError: naming the parameter when one is out of range.

    Example:
        >>> round(ghazi_bad_selection_lower(100, 10, 0.5, 0.01, 0.8), 7)
        0.0719309
    """
    T = _validate.integer("T", T, 1)
    G = _validate.integer("G", G, 0, maximum=T - 1)
    _validate.interval("pstar", pstar, 0.0, 1.0, lo_open=False, hi_open=False)
    _validate.interval("pbar", pbar, 0.0, 1.0, lo_open=False, hi_open=False)
    _validate.positive("theta_G", theta_G)
    return -math.expm1(-theta_G) * (T - G) * pbar / (1.0 + (T - G - 1) * pbar + G * pstar)


# --------------------------------------------------------------------------------------------------------------
# Table 1 as code objects


@dataclass(frozen=True)
class Entry:
    """One cell of Table 1: the paper's printed LaTeX, the LaTeX of what ``func`` evaluates, and its source.

    Attributes:
        row: a key of :data:`TABLE1_ROWS`. method: a key of :data:`TABLE1_METHODS`.
        paper: Table 1's printed LaTeX. explicit: the LaTeX of what ``func`` computes.
        func: the function of this module that evaluates the cell. source: the paper's result (e.g. "Thm 21").

    Example:
        >>> e = table1_entry("rejection_threshold", "Cohen")
        >>> e.source, round(e.evaluate(t=1, pstar=0.5, eps=1.0, eps1=0.1, beta=0.05, theta=1.0), 8)
        ('Prop 48 (proof)', 0.00127822)
    """

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
    """The :data:`TABLE1` entry for (row, method).

    Args:
        row: a key of :data:`TABLE1_ROWS`. method: a key of :data:`TABLE1_METHODS`.

    Returns:
        :class:`Entry`.

    Raises:
        ValueError: if there is none.

    Example:
        >>> table1_entry("privacy", "GTM").source
        'Thm 21'
    """
    for e in TABLE1:
        if e.row == row and e.method == method:
            return e
    raise ValueError(f"no Table 1 entry for row={row!r}, method={method!r}.")
