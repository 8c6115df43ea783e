"""Constants and per-checkpoint / per-step quantities of BatchToCO (Section 7.3, Algorithm 3), and the privacy
accounting of Lemma 38.

Two different weights named omega appear in Section 7.3 (see the paper README):

* ``weight(i)``: BatchToCO's own weights omega_i = C_omega / (i ln^2(i+1)), normalised so that sum_i omega_i <= 1.
  They split eps, beta and delta across checkpoints: eps(i) = C_eps omega_i eps, beta_i = C_beta omega_i beta,
  delta(i, t) uses omega_i^2.
* :func:`privtest.schedule.omega` (Definition 7): the time weights omega_t = 1/(zeta t ln^3(t+2)). They enter
  eps(i, t) = eps(i) / (C_1 ln(4/(omega_t beta))) with t the *global* time, and inside each GTM instance the
  per-step budgets beta_s = omega_s beta_i of Theorem 23, with s the instance's own step counter.

Erratum (ERRATA.md): Algorithm 3 prints ln(4/(omega_t beta)) with the global beta, but Corollary 35 is applied to
GTM_i with beta_GTM = beta_i < beta, and its hypothesis (hence Lambda_t <= Lambda and the per-instance privacy
(1 + C_H/C_1) eps(i) of eq. (19)) needs eps_t <= eps(i)/(C_1 ln(4/(omega_t beta_i))). ``log_beta="instance"``
(the *corrected constants*) uses beta_i there, for the GTM instances i >= 2 and the ThresholdSelect call of the
checkpoint they declare (which reuses the halting step's eps_t); the initial call A(X_1, eps(1, 1)) has no GTM and
keeps the printed formula. ``log_beta="global"`` is the printed formula everywhere (the paper's constants).

Every function and method checks its arguments first (ValueError naming the parameter and its range): instance
indices i, ell and times t are integers >= 1 (scalars or integer arrays).

Example:
    >>> params = BatchToCOParams(eps=30.0, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0)
    >>> round(params.eps_it(2, 10), 6), round(params.pbar, 6)
    (0.040864, 0.050204)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from privtest import _validate
from privtest.gtm import ExPostCalibration, log4_over_beta_t

__all__ = [
    "LOG_BETA",
    "BatchToCOParams",
    "c_omega",
    "calls_bound",
    "checkpoint_margin",
    "delta_ledger",
    "max_checkpoints",
    "purification_phi_array",
    "utility_guarantee",
    "weight_sum_bound",
]

#: Terms summed explicitly in :func:`weight_sum_bound`.
_WEIGHT_TERMS = 1_000_000


@lru_cache(maxsize=1)
def weight_sum_bound() -> float:
    r"""Upper bound on :math:`S = \sum_{k\ge1} 1/(k\ln^2(k+1))`: the first 10^6 terms plus
    :math:`\int_N^\infty dx/(x\ln^2 x) = 1/\ln N`, which bounds the tail because 1/(k ln^2(k+1)) <= 1/(x ln^2 x) on
    [k-1, k]. Errs upwards, so C_omega = 1/S keeps sum omega_k <= 1. Value 3.3878... (the sum to 10^7 is 3.3257
    and the tail beyond 10^7 is about 0.062). Section 7.3's normalisation of BatchToCO's weights.

    Returns:
        float: the bound on S.

    Example:
        >>> round(weight_sum_bound(), 4)
        3.3877
    """
    k = np.arange(1, _WEIGHT_TERMS + 1, dtype=float)
    return float(np.sum(1.0 / (k * np.log1p(k) ** 2))) + 1.0 / math.log(_WEIGHT_TERMS)


def c_omega() -> float:
    """Normalisation constant C_omega = 1/:func:`weight_sum_bound` of BatchToCO's weights omega_i = C_omega/(i
    ln^2(i+1)) (Section 7.3), so that sum_i omega_i <= 1.

    Returns:
        float in (0, 1).

    Example:
        >>> round(c_omega(), 4)
        0.2952
    """
    return 1.0 / weight_sum_bound()


def _weights(i) -> np.ndarray:
    """omega_i = C_omega/(i ln^2(i+1)) for integers i >= 1 (not checked): a float ndarray of the shape of ``i``."""
    ii = np.asarray(i, dtype=float)
    return c_omega() / (ii * np.log1p(ii) ** 2)


LOG_BETA = ("instance", "global")


@dataclass(frozen=True)
class BatchToCOParams:
    r"""Inputs and constants of Algorithm 3 (Section 7.3).

    Args:
        eps: global privacy budget eps > 0. The paper assumes eps < 1; its proof (Lemma 38) only uses
            eps(i, t) <= 1 for all i, t, which is checked here instead (eps(1, 1) is the largest).
        delta: global delta in [0, 1) (0 with a pure-DP batch algorithm).
        beta: failure probability in (0, 1/e).
        pstar: GTM halting threshold p* in (0, 1/2] ((1 - beta_A)/2 for a high-probability A, Cor. 43).
        kappa: spacing of the thresholds h_i = (1 + kappa)^i, > 0.
        gamma: GTM gap parameter in (1, 2].
        C_1, C_H: Corollary 35's constants C_1, C_H > 0.
        C_beta: in (0, 1/3] (Lemma 41).
        C_eps: defaults to C_1/(C_1 + C_H + 3) (Lemma 38's largest admissible value); must not exceed it.
        C_delta: defaults to 1 + 3 e^3 / C_beta (Lemma 38's smallest admissible value); must not be below it.
        log_beta: "instance" (ln(4/(omega_t beta_i)) in eps(i, t) for i >= 2: the corrected constants) or "global"
            (as printed: the paper's constants).

    Raises:
        ValueError: on any parameter outside its range (naming it), or if eps(1, 1) > 1.

    Example:
        >>> params = BatchToCOParams(eps=30.0, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0)
        >>> round(params.C_eps, 4), round(params.Lambda, 4), params.constants_label
        (0.2857, 4.4817, 'corrected constants')
        >>> params.weight([1, 2]).round(4).tolist()
        [0.6144, 0.1223]
    """

    eps: float
    beta: float
    pstar: float
    kappa: float
    gamma: float
    C_1: float = 2.0
    C_H: float = 2.0
    C_beta: float = 1.0 / 3.0
    delta: float = 0.0
    C_eps: float | None = None
    C_delta: float | None = None
    log_beta: str = "instance"

    def __post_init__(self):
        _validate.positive("eps", self.eps)
        _validate.delta_range("delta", self.delta)
        _validate.interval("beta", self.beta, 0.0, 1 / math.e, lo_open=True, hi_open=True)
        _validate.interval("pstar", self.pstar, 0.0, 0.5, lo_open=True, hi_open=False)
        _validate.positive("kappa", self.kappa)
        _validate.gamma_range(self.gamma)
        _validate.positive("C_1", self.C_1)
        _validate.positive("C_H", self.C_H)
        _validate.interval("C_beta", self.C_beta, 0.0, 1 / 3, lo_open=True, hi_open=False)
        if self.log_beta not in LOG_BETA:
            raise ValueError(f"log_beta must be one of {LOG_BETA}. Found {self.log_beta!r}.")
        ceps_max = self.C_1 / (self.C_1 + self.C_H + 3.0)
        if self.C_eps is None:
            object.__setattr__(self, "C_eps", ceps_max)
        else:
            _validate.interval("C_eps", self.C_eps, 0.0, ceps_max, lo_open=True, hi_open=False)
        cdel_min = 1.0 + 3.0 * math.e**3 / self.C_beta
        if self.C_delta is None:
            object.__setattr__(self, "C_delta", cdel_min)
        else:
            _validate.interval("C_delta", self.C_delta, cdel_min, math.inf, lo_open=False, hi_open=True)
        if self.eps_it(1, 1) > 1.0:
            raise ValueError(f"eps(1, 1) = {self.eps_it(1, 1)} > 1: Lemma 38 needs eps(i, t) <= 1; lower eps.")

    @classmethod
    def from_config(
        cls, cfg: dict, eps: float | None = None, kappa: float | None = None, delta: float = 0.0
    ) -> BatchToCOParams:
        """Parameters from a config section with keys eps (unless given), beta, pstar, kappa (unless given), gamma,
        C_1, C_H, C_beta and log_beta (the ``co:`` block of config/config.yaml); ``delta`` is the global delta.

        Raises:
            ValueError: naming cfg (not a mapping, or a missing key) or a value outside its range.

        Example:
            >>> cfg = dict(eps=30.0, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0, C_1=2.0, C_H=2.0, C_beta=1 / 3,
            ...            log_beta="instance")
            >>> BatchToCOParams.from_config(cfg).eps
            30.0
        """
        keys = ("beta", "pstar", "gamma", "C_1", "C_H", "C_beta", "log_beta")
        needed = keys + (() if eps is not None else ("eps",)) + (() if kappa is not None else ("kappa",))
        if not isinstance(cfg, Mapping) or any(k not in cfg for k in needed):
            missing = [k for k in needed if not isinstance(cfg, Mapping) or k not in cfg]
            raise ValueError(f"cfg must be a mapping with the keys {list(needed)}. Missing {missing}.")
        return cls(
            eps=cfg["eps"] if eps is None else eps,
            beta=cfg["beta"],
            pstar=cfg["pstar"],
            kappa=cfg["kappa"] if kappa is None else kappa,
            gamma=cfg["gamma"],
            C_1=cfg["C_1"],
            C_H=cfg["C_H"],
            C_beta=cfg["C_beta"],
            log_beta=cfg["log_beta"],
            delta=delta,
        )

    @property
    def constants_label(self) -> str:
        """How results computed with these parameters are labelled: "corrected constants" (``log_beta="instance"``,
        the ERRATA.md correction of eps(i, t)) or "the paper's constants" (``log_beta="global"``, as printed)."""
        return "corrected constants" if self.log_beta == "instance" else "the paper's constants"

    # --- Derived constants (Corollary 35) ---------------------------------------------------------------------
    @property
    def Lambda(self) -> float:
        """Lambda = exp(1/C_1 + 2/C_H) (Corollary 35)."""
        return math.exp(1.0 / self.C_1 + 2.0 / self.C_H)

    @property
    def pbar(self) -> float:
        """Rejection threshold pbar = p*/(gamma Lambda) (Corollary 35)."""
        return self.pstar / (self.gamma * self.Lambda)

    # --- Per-checkpoint quantities ----------------------------------------------------------------------------
    @staticmethod
    def weight(i):
        """BatchToCO's weight omega_i = C_omega/(i ln^2(i+1)) (not Definition 7's omega_t), i >= 1 (array ok).

        Raises:
            ValueError: naming i when an element is not an integer >= 1.
        """
        _validate.step_index(i, "i", scalar=False)
        out = _weights(i)
        return float(out) if out.ndim == 0 else out

    def h(self, i):
        """Threshold h_i = (1 + kappa)^i (i: integers >= 1)."""
        _validate.step_index(i, "i", scalar=False)
        return (1.0 + self.kappa) ** np.asarray(i, dtype=float)

    def eps_i(self, i):
        """eps(i) = C_eps omega_i eps: output privacy of GTM_i."""
        return self.C_eps * self.weight(i) * self.eps

    def beta_i(self, i):
        """beta_i = C_beta omega_i beta: failure probability of GTM_i."""
        return self.C_beta * self.weight(i) * self.beta

    def xi(self, i):
        """xi_i = pbar beta_i: ThresholdSelect's stopping probability at checkpoint i."""
        return self.pbar * self.beta_i(i)

    # --- Per-step quantities ----------------------------------------------------------------------------------
    def log4_over(self, i, t):
        """ln(4/(omega_t b)) with omega_t of Definition 7 (global t) and b = beta (as printed) or, with
        ``log_beta="instance"``, b = beta_i for the GTM instances i >= 2 (the erratum concerns only them: the initial
        call A(X_1, eps(1, 1)) runs no GTM and keeps the printed beta). i, t: integers >= 1 (broadcast)."""
        _validate.step_index(i, "i", scalar=False)
        _validate.step_index(t, "t", scalar=False)
        return log4_over_beta_t(t, self._log4_beta(i))

    def _log4_beta(self, i):
        """The b of :meth:`log4_over` for instance(s) ``i`` (integers >= 1, not checked): beta, or beta_i for i >= 2
        with ``log_beta="instance"``; a float or a float ndarray."""
        if self.log_beta == "global":
            return self.beta
        ii = np.asarray(i)
        return np.where(ii >= 2, self.C_beta * _weights(np.maximum(ii, 1)) * self.beta, self.beta)

    def eps_it(self, i, t):
        """eps(i, t) = eps(i)/(C_1 ln(4/(omega_t b))): privacy of each test / scored evaluation at time t."""
        out = self.eps_i(i) / (self.C_1 * self.log4_over(i, t))
        return float(out) if np.ndim(out) == 0 else out

    def delta_cap(self, i):
        """pbar omega_i^2 beta delta / C_delta: the first term of delta(i, t) (Algorithm 3), which bounds the total
        delta (Lemma 38); independent of t and eps (array ok)."""
        out = self.pbar * self.weight(i) ** 2 * self.beta * self.delta / self.C_delta
        return float(out) if np.ndim(out) == 0 else out

    def delta_it(self, i, t):
        """delta(i, t) = min(pbar omega_i^2 beta delta / C_delta, (pbar/2) eps(i, t)) (Algorithm 3): the delta of A
        in the test and scored mechanisms of instance i at time t; the second term keeps delta_t/eps_t <= pbar/2."""
        out = np.minimum(self.delta_cap(i), 0.5 * self.pbar * self.eps_it(i, t))
        return float(out) if np.ndim(out) == 0 else out

    def phi_it(self, i, t):
        """Crossover phi_t = delta_t/(e^{eps_t} - 1 + 2 delta_t) (Lemma 24(3), Corollary 25) with which GTM_i
        purifies the (eps_t, delta_t)-DP test mechanism M_t^{h_i} at time t (eps_t = eps(i, t), delta_t = delta(i, t));
        0 when delta = 0. The purified mechanism is pure eps_t-DP and succeeds w.p. p + phi_t (1 - 2 p)."""
        return purification_phi_array(self.eps_it(i, t), self.delta_it(i, t))

    def purified_thresholds(self, i, t) -> tuple:
        """Corollary 35(2) with Corollary 25's slack for GTM_i at time t: (p* + delta_t/eps_t, pbar - delta_t/eps_t),
        the success probabilities of the unpurified M_t^{h_i} above which GTM_i halts and below which it continues
        (on its good event). delta(i, t) <= (pbar/2) eps(i, t) makes the second >= pbar/2 (Lemma 39)."""
        slack = np.asarray(self.delta_it(i, t)) / np.asarray(self.eps_it(i, t))
        return self.pstar + slack, self.pbar - slack

    def calibration(self, i: int) -> ExPostCalibration:
        """GTM_i with Corollary 35's parameters: Theorem 23 with eps_C = eps(i), beta = beta_i, s_t = +1 (i: an integer
        >= 1)."""
        return self._calibration(_validate.step_index(i, "i"))

    @lru_cache(maxsize=4096)  # noqa: B019  (frozen and hashable; the artifact asks for the same i many times)
    def _calibration(self, i: int) -> ExPostCalibration:
        return ExPostCalibration(
            eps_C=float(self.eps_i(i)), beta=float(self.beta_i(i)), C_H=self.C_H, gamma=self.gamma, variant="direct"
        )

    def batch_eps(self, i, t):
        """eps_batch(t) = eps(i, t)/2: the privacy parameter A receives inside the test and scored mechanisms."""
        return 0.5 * self.eps_it(i, t)

    # --- Lemma 38 ---------------------------------------------------------------------------------------------
    def privacy_budget(self, i_max: int = 1_000_000) -> dict:
        r"""Worst-case privacy accounting of Lemma 38, summed exactly over checkpoints 2..i_max plus a tail bound.

        Per instance i >= 2 (any halting time t >= i, GTM step index s <= t - i + 1):

        * GTM_i (Theorem 23, ex-post): a transcript halting at GTM step s costs eps(i) + C_H eps(i, t) ln(4/beta_s)
          with beta_s = omega_s beta_i; its supremum over t >= s is taken numerically on s = t (the worst case).
        * ThresholdSelect_i (Lemma 34(1)): 2 eps(i, t) + min(eps(i, t), 1), largest at the smallest t = i, and
          3 e^{2 eps_t + eps_0} delta(i, t)/xi_i.

        Plus the initial call A(X_1, eps(1,1), delta(1,1)). Terms beyond i_max are bounded by
        C_eps eps (1 + C_H/C_1 + 3/C_1) sum_{k > i_max} omega_k (and likewise for delta), using 1/(k ln^2(k+1))
        <= 1/(x ln^2 x) on [k-1, k].

        Returns:
            dict with ``eps_total``, ``delta_total`` (upper bounds on the whole run's privacy), the paper's closed
            form ``eps_bound`` = C_eps eps (1 + (C_H + 3)/C_1) (sum over all omega_i, <= eps) and
            ``delta_bound`` = delta/C_delta (1 + 3e^3/C_beta), ``gtm_excess`` = max_i (GTM_i cost/((1 + C_H/C_1)
            eps(i))) (> 1 means eq. (19) is violated), and the initial call's (``eps_init``, ``delta_init``).

        Raises:
            ValueError: naming i_max unless it is an integer in [2, 10^8].
        """
        return dict(self._privacy_budget(_validate.integer("i_max", i_max, 2, maximum=10**8)))

    @lru_cache(maxsize=64)  # noqa: B019  (frozen and hashable; Table 2 asks once per row and eps)
    def _privacy_budget(self, i_max: int) -> dict:
        """:meth:`privacy_budget` (i_max checked by the caller), cached (callers get a copy)."""
        i = np.arange(2, i_max + 1, dtype=np.int64)
        # GTM: worst halting loss over t >= i; with s = t - i + 1 <= t, ln(4/beta_s) <= ln(4/(omega_t beta_i)),
        # so C_H eps(i,t) ln(4/beta_s) <= C_H eps(i) ln(4/(omega_t beta_i)) / (C_1 ln(4/(omega_t b))).
        # For log_beta="instance" this is exactly C_H eps(i)/C_1; for "global" the ratio of logs is largest at t=i.
        ratio = log4_over_beta_t(i, self.beta_i(i)) / self.log4_over(i, i)
        gtm = self.eps_i(i) * (1.0 + self.C_H / self.C_1 * ratio)
        e_t = self.eps_it(i, i)
        ts_eps = 2.0 * e_t + np.minimum(e_t, 1.0)
        ts_delta = 3.0 * np.exp(2.0 * e_t + np.minimum(e_t, 1.0)) * self.delta_it(i, i) / self.xi(i)
        tail_w = c_omega() / math.log(i_max)
        eps_init, delta_init = self.eps_it(1, 1), self.delta_it(1, 1)
        eps_tail = self.C_eps * self.eps * (1.0 + (self.C_H + 3.0) / self.C_1 * max(1.0, float(ratio.max()))) * tail_w
        delta_tail = self.delta / self.C_delta * (3.0 * math.e**3 / self.C_beta) * tail_w
        return {
            "eps_init": eps_init,
            "delta_init": delta_init,
            "eps_gtm": float(gtm.sum()),
            "eps_ts": float(ts_eps.sum()),
            "delta_ts": float(ts_delta.sum()),
            "eps_total": eps_init + float(gtm.sum() + ts_eps.sum()) + eps_tail,
            "delta_total": delta_init + float(ts_delta.sum()) + delta_tail,
            "eps_bound": self.C_eps * self.eps * (1.0 + (self.C_H + 3.0) / self.C_1),
            "delta_bound": self.delta / self.C_delta * (1.0 + 3.0 * math.e**3 / self.C_beta),
            "gtm_excess": float(np.max(gtm / ((1.0 + self.C_H / self.C_1) * self.eps_i(i)))),
        }


def purification_phi_array(eps_t, delta_t):
    """Lemma 24(3)'s crossover delta_t/(e^{eps_t} - 1 + 2 delta_t), elementwise (0 where delta_t = 0), float or
    ndarray (broadcast). The scalar form is :func:`privtest.mechanisms.purification_phi`.

    Args:
        eps_t: > 0 and finite (scalar or array). delta_t: in [0, 1) (broadcast with ``eps_t``).

    Raises:
        ValueError: naming eps_t (not > 0) or delta_t (outside [0, 1)).

    Example:
        >>> purification_phi_array([1.0, 1.0], [0.0, 0.01]).round(6).tolist()
        [0.0, 0.005753]
    """
    _validate.positive("eps_t", eps_t, scalar=False)
    _validate.delta_range("delta_t", delta_t, scalar=False)
    out = phi_array_unchecked(np.asarray(eps_t, dtype=float), np.asarray(delta_t, dtype=float))
    return float(out) if out.ndim == 0 else out


def phi_array_unchecked(e: np.ndarray, d: np.ndarray) -> np.ndarray:
    """:func:`purification_phi_array` of float arrays ``e`` > 0 and ``d`` in [0, 1), not checked (the engine's inner
    loop, whose arguments its public entry point has checked)."""
    return d / (np.expm1(np.minimum(e, 700.0)) + 2.0 * d)


def delta_ledger(params: BatchToCOParams, eps_t_at_checkpoints, ell_at_checkpoints) -> float:
    """Lemma 38's additive privacy of one run, summed exactly over what the run did: delta(1, 1) of the initial call
    A(X_1, eps(1, 1), delta(1, 1)) plus, at every checkpoint declared by GTM_ell at time t, ThresholdSelect's
    3 e^{2 eps_t + eps_0} delta(ell, t)/xi_ell (Lemma 34(1), eps_0 = min(eps_t, 1)); GTM transcripts add nothing
    (purified, pure DP). Lemma 38: this is <= delta whatever the checkpoints (and <= the worst case
    ``params.privacy_budget()["delta_total"]``).

    Args:
        params: Algorithm 3's parameters (with the run's eps).
        eps_t_at_checkpoints: float (L,), eps(ell, t(ell)) > 0 at the run's checkpoints.
        ell_at_checkpoints: int (L,), the instance ell >= 1 that declared each.

    Returns:
        float: the run's total delta.

    Raises:
        TypeError: if ``params`` is not a :class:`BatchToCOParams`.
        ValueError: naming the arrays when an element is out of range or their shapes differ.

    Example:
        >>> params = BatchToCOParams(eps=30.0, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0, delta=1e-6)
        >>> delta_ledger(params, [params.eps_it(2, 5)], [2]) <= params.delta
        True
    """
    _check_params(params)
    _validate.positive("eps_t_at_checkpoints", eps_t_at_checkpoints, scalar=False)
    _validate.step_index(ell_at_checkpoints, "ell_at_checkpoints", scalar=False)
    if np.shape(eps_t_at_checkpoints) != np.shape(ell_at_checkpoints) or np.ndim(ell_at_checkpoints) > 1:
        raise ValueError(
            "eps_t_at_checkpoints and ell_at_checkpoints must be 1-d arrays of one length (one entry per checkpoint)."
        )
    e = np.asarray(eps_t_at_checkpoints, dtype=float)
    ell = np.asarray(ell_at_checkpoints, dtype=np.int64)
    total = float(params.delta_it(1, 1))
    if e.size:
        d = np.minimum(params.delta_cap(ell), 0.5 * params.pbar * e)
        total += float(np.sum(3.0 * np.exp(2.0 * e + np.minimum(e, 1.0)) * d / params.xi(ell)))
    return total


def _check_params(params) -> None:
    if not isinstance(params, BatchToCOParams):
        raise TypeError(f"params must be a privtest.co.params.BatchToCOParams. Found {type(params).__name__}.")


def utility_guarantee(params: BatchToCOParams, V, ell, t_ell, t):
    r"""Theorem 42(2) with every constant explicit (from its proof: eq. (24), Lemma 41 and the case ell(t) = 1).

    With eps_t = eps(ell+1, t) (the active instance) and eps_{t(ell)} = eps(ell, t(ell)):

    * ell(t) = 1: V/(1+kappa) - (1+kappa) - 2 ln(1/pbar)/((1+kappa) eps_t);
    * ell(t) >= 2: V/(1+kappa) - 2 ln(1/pbar)/((1+kappa) eps_t)
      - (2/eps_{t(ell)}) (2 ln(1/(omega_ell beta)) + ln(4/pbar)),

    where the last term is Lemma 41's loss written through eps_{t(ell)} = C_eps omega_ell eps/(C_1 ln(4/(omega_t b)))
    (b as in :meth:`BatchToCOParams.log4_over`). Holds for all t w.p. >= 1 - (C_beta + 3) beta.

    Args:
        params: Algorithm 3's parameters.
        V: V_A(X_t), finite reals (any value <= it gives a weaker valid bound; OPT_t gives an upper bound of the
            guarantee).
        ell, t_ell, t: int arrays (broadcast): latest checkpoint index (>= 1), its time (>= 1), and the current time
            (>= 2).

    Returns:
        float ndarray, the guarantee on f(X_t, Y_t) (may be negative: vacuous).

    Raises:
        TypeError: if ``params`` is not a :class:`BatchToCOParams`.
        ValueError: naming V, ell, t_ell or t when an element is out of range.

    Example:
        >>> params = BatchToCOParams(eps=30.0, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0)
        >>> utility_guarantee(params, [1e4, 1e4], [1, 3], [1, 40], [50, 100]).round(1).tolist()
        [6544.7, 3639.3]
    """
    _check_params(params)
    _validate.finite("V", V, scalar=False)
    _validate.step_index(ell, "ell", scalar=False)
    _validate.step_index(t_ell, "t_ell", scalar=False)
    _validate.integer("t", t, 2, scalar=False)
    V = np.asarray(V, dtype=float)
    ell = np.asarray(ell, dtype=np.int64)
    k1 = 1.0 + params.kappa
    eps_t = params.eps_it(ell + 1, t)
    cont = 2.0 * math.log(1.0 / params.pbar) / (k1 * eps_t)
    safe = np.maximum(ell, 1)
    lemma41 = (2.0 / params.eps_it(safe, t_ell)) * (
        2.0 * np.log(1.0 / (params.weight(safe) * params.beta)) + math.log(4.0 / params.pbar)
    )
    return np.where(ell <= 1, V / k1 - k1 - cont, V / k1 - cont - lemma41)


def calls_bound(params: BatchToCOParams, ell: int, s: int, t: int) -> float:
    """Explicit bound on E[N_t] of GTM_ell's step s at time t (Theorem 42(3) via Corollary 35(3), with the proof of
    Lemma 22(1)'s constants): rho_s e^{1/C_1}/(1 - 2/(C_H ln(4/beta_s))), beta_s = omega_s beta_ell.

    Args:
        params: Algorithm 3's parameters. ell: the instance, s: its step, t: the time (integers >= 1).

    Returns:
        float: the bound on the expected evaluations of A at that step.

    Raises:
        TypeError: if ``params`` is not a :class:`BatchToCOParams`.
        ValueError: naming ell, s or t when out of range.

    Example:
        >>> params = BatchToCOParams(eps=30.0, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0)
        >>> round(calls_bound(params, 2, 3, 4), 1)
        1283.5
    """
    _check_params(params)
    _validate.step_index(ell, "ell")
    _validate.step_index(s, "s")
    _validate.step_index(t, "t")
    st = params.calibration(int(ell)).step(int(s), params.eps_it(int(ell), int(t)), params.pstar)
    l4 = log4_over_beta_t(int(s), float(params.beta_i(int(ell))))
    return st.rho * math.exp(1.0 / params.C_1) / (1.0 - 2.0 / (params.C_H * l4))


def checkpoint_margin(params: BatchToCOParams, ell, t, opt) -> np.ndarray:
    """ln h_ell - ln(OPT_t + (2/eps(ell, t)) ln(1/pbar)) for a checkpoint declared by GTM_ell at time t: Lemma
    39(2) says it is < 0 (on the GTM's good event), and Lemma 40's count bound follows from it at every checkpoint.
    With an upper bound U_t >= OPT_t in place of OPT_t the margin only decreases (a weaker, still valid check).

    Args:
        params: Algorithm 3's parameters. ell, t: integers >= 1 (arrays broadcast). opt: OPT_t (or U_t), finite
            reals >= 0.

    Returns:
        float ndarray (broadcast of ``ell``, ``t``, ``opt``), nats.

    Raises:
        TypeError: if ``params`` is not a :class:`BatchToCOParams`.
        ValueError: naming ell, t or opt when an element is out of range.

    Example:
        >>> params = BatchToCOParams(eps=30.0, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0)
        >>> bool(checkpoint_margin(params, 2, 10, 100.0) < 0)
        True
    """
    _check_params(params)
    _validate.step_index(ell, "ell", scalar=False)
    _validate.step_index(t, "t", scalar=False)
    _validate.nonnegative("opt", opt, scalar=False)
    ell = np.asarray(ell, dtype=np.int64)
    rhs = np.asarray(opt, dtype=float) + 2.0 / params.eps_it(ell, t) * math.log(1.0 / params.pbar)
    return ell * math.log1p(params.kappa) - np.log(rhs)


def max_checkpoints(params: BatchToCOParams, opt_t: float, t: int, ell_cap: int = 10_000) -> int:
    """Largest ell whose checkpoint at a time <= t is consistent with Lemma 39(2):
    (1+kappa)^ell < OPT_t + (2/eps(ell, t)) ln(1/pbar) (eps(ell, .) decreases in t, OPT is non-decreasing), the
    explicit form of Lemma 40's count with OPT_t in place of its bound t.

    Args:
        params: Algorithm 3's parameters. opt_t: OPT_t (or an upper bound), finite and >= 0. t: the time, an
            integer >= 1. ell_cap: the largest ell searched, an integer in [2, 10^7].

    Returns:
        int: the largest admissible checkpoint index (``ell_cap`` if none fails).

    Raises:
        TypeError: if ``params`` is not a :class:`BatchToCOParams`.
        ValueError: naming opt_t, t or ell_cap when out of range.

    Example:
        >>> params = BatchToCOParams(eps=30.0, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0)
        >>> max_checkpoints(params, 100.0, 50)
        25
    """
    _check_params(params)
    _validate.nonnegative("opt_t", opt_t)
    _validate.step_index(t, "t")
    ell_cap = _validate.integer("ell_cap", ell_cap, 2, maximum=10**7)
    ell = np.arange(2, ell_cap + 1)
    # (1+kappa)^ell overflows for large ell: compare logarithms
    ok = ell * math.log1p(params.kappa) < np.log(opt_t + 2.0 / params.eps_it(ell, t) * math.log(1.0 / params.pbar))
    bad = np.flatnonzero(~ok)
    return int(ell[bad[0]] - 1) if bad.size else ell_cap
