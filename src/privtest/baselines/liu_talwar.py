"""Liu-Talwar ExtendedAboveThreshold exactly as restated in Section 9.2 (eq. 25, Theorem 46).

Init draws shared noise nu ~ Lap(4 (eps_1 + eps_0)/eps). Step t evaluates M_t N times, forms p_hat = K/N, draws
xi_t ~ Lap(8 (eps_1 + eps_0)/eps) and halts iff exp(xi_t) Phi_Delta(p_hat) >= exp(nu) Phi_Delta(p*), with
(eq. 25) sigma_LT = 12 (eps_1 + eps_0)/eps, C = 2 (e^(eps_0+eps_1) + 1 + e^(eps_0/2)),
Delta = C ln(8T/delta) / (eps_0 (e^(eps_0+eps_1) - 1)), N = e^eps_0 Delta / min(p*, 1-p*) ((T+1)/beta)^sigma_LT and
Phi_Delta(x) = (N x + Delta)/(N (1 - x) + Delta). The comparison is made in log space.

N is rounded up to an integer number of evaluations and Phi_Delta uses that integer. N can be astronomically large:
``run`` evaluates a mechanism N times with one ``count_plus`` call (a Bernoulli mechanism: one binomial draw) and
refuses N beyond int64 (the per-step sample counts would overflow); :meth:`LiuTalwarTester.critical_p` simulates
Bernoulli inputs for any N through order statistics (the count of +1 itself never has to be formed).
Inputs must be pure eps_1-DP (Theorem 46); the output is (eps, delta)-DP. sigma_LT, Delta and N are the formulas of
:mod:`privtest.bounds` (Table 1's Liu-Talwar column).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
from scipy.special import expit

from privtest import _validate
from privtest.bounds import (
    Delta_LT,
    Privacy,
    liu_talwar_check_params,
    liu_talwar_privacy,
    liu_talwar_rejection_threshold,
    liu_talwar_sample_complexity,
    log_N_LT,
    sigma_LT,
)
from privtest.measure import CriticalP, blocks
from privtest.testers import StationaryTester

__all__ = ["MAX_EVALUATIONS", "LiuTalwarTester", "liu_talwar_tester", "optimal_eps0"]

#: Largest evaluation count ``run`` accepts (int64 sample counts).
MAX_EVALUATIONS = 2**63 - 1


def optimal_eps0(pstar: float, eps: float, eps1: float, beta: float, delta: float, T: int) -> float:
    """The auxiliary eps_0 in (0, 1) that minimises N (Theorem 46(5)); bounded scalar minimisation of ln N.

    Args:
        pstar, beta, delta: in (0, 1). eps, eps1: > 0. T: stream length, an integer >= 1.

    Returns:
        float: eps_0 in (1e-6, 1 - 1e-6).

    Raises:
        ValueError: naming the parameter when one is out of Theorem 46's ranges.

    Example:
        >>> round(optimal_eps0(0.5, 1.0, 0.1, 0.05, 1e-6, 10), 4)
        0.0175
    """
    from scipy.optimize import minimize_scalar  # on use: scipy.optimize is slow to import

    liu_talwar_check_params(pstar, eps, eps1, beta, delta, 0.5, T)
    res = minimize_scalar(
        lambda e0: log_N_LT(pstar, eps, eps1, beta, delta, e0, T),
        bounds=(1e-6, 1 - 1e-6),
        method="bounded",
        options={"xatol": 1e-9},
    )
    return float(res.x)


@dataclass(frozen=True)
class LiuTalwarTester(StationaryTester):
    """ExtendedAboveThreshold (Section 9.2) for T eps_1-DP mechanisms.

    Args:
        eps: output privacy eps > 0 (eps_3 of Liu-Talwar).
        eps1: input privacy eps_1 > 0 (pure DP inputs).
        beta, delta, eps0: failure probability, output delta and auxiliary eps_0, each in (0, 1).
        pstar: acceptance threshold p* in (0, 1).
        T: stream length > 1 (finite; enters Delta and N).

    Attributes:
        sigma, Delta: sigma_LT and Delta of eq. 25.
        log_N: ln of eq. 25's N; ``N`` is ceil(N) as a float (exact whenever it is below 2^53).

    Raises:
        ValueError: on a parameter outside its range (naming it).

    Example:
        >>> lt = LiuTalwarTester(eps=12.0, eps1=0.5, beta=0.5, delta=1e-6, eps0=0.5, pstar=0.5, T=10)
        >>> lt.sigma, lt.N, str(lt.privacy)
        (1.0, 15373.0, '(12, 1e-06)-DP')
    """

    eps: float
    eps1: float
    beta: float
    delta: float
    eps0: float
    pstar: float
    T: int
    name: str = "LiuTalwar"
    source: str = "Thm 46"
    sigma: float = field(init=False)
    Delta: float = field(init=False)
    log_N: float = field(init=False)
    N: float = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "T", _validate.step_index(self.T, "T"))
        args = (self.pstar, self.eps, self.eps1, self.beta, self.delta, self.eps0, self.T)
        liu_talwar_check_params(*args)
        object.__setattr__(self, "sigma", sigma_LT(self.eps, self.eps1, self.eps0))
        object.__setattr__(self, "Delta", Delta_LT(self.eps1, self.eps0, self.T, self.delta))
        object.__setattr__(self, "log_N", log_N_LT(*args))
        object.__setattr__(self, "N", liu_talwar_sample_complexity(*args))

    @property
    def eps_t_limit(self) -> float:
        """eps_1, the input privacy the tester was built for (:meth:`privtest.testers.Tester.admit`)."""
        return self.eps1

    @property
    def privacy(self) -> Privacy:
        """Theorem 46(1): (eps, delta)-DP (:func:`privtest.bounds.liu_talwar_privacy`)."""
        return liu_talwar_privacy(self.eps, self.delta)

    @property
    def parameters(self) -> dict:
        """eps_0 (auxiliary) and delta (output delta)."""
        return {"eps0": self.eps0, "delta": self.delta}

    @property
    def b_nu(self) -> float:
        """Scale of the shared noise nu ~ Lap(4 (eps_1 + eps_0)/eps)."""
        return 4.0 * (self.eps1 + self.eps0) / self.eps

    @property
    def b_xi(self) -> float:
        """Scale of the per-step noise xi_t ~ Lap(8 (eps_1 + eps_0)/eps)."""
        return 8.0 * (self.eps1 + self.eps0) / self.eps

    def log_phi(self, x):
        """ln Phi_Delta(x) = ln(N x + Delta) - ln(N (1 - x) + Delta) for x in [0, 1] (array or float; eq. 25).

        Raises:
            ValueError: naming x when an element is outside [0, 1].
        """
        _validate.interval("x", x, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
        return self._log_phi(x)

    def _log_phi(self, x):
        x = np.asarray(x, dtype=float)
        return np.log(self.N * x + self.Delta) - np.log(self.N * (1.0 - x) + self.Delta)

    def pbar(self, t: int) -> float:
        """Theorem 46(2) (not stopping too early): halting at R implies p_R >= e^(-eps_0)/2 (beta/(R+1))^sigma p*
        with probability >= 1 - beta - delta/2; the tester's rejection threshold at step t
        (:func:`privtest.bounds.liu_talwar_rejection_threshold`)."""
        return liu_talwar_rejection_threshold(t, self.pstar, self.eps, self.eps1, self.beta, self.eps0)

    def halt_p(self, t: int) -> float:
        """Smallest p_t satisfying Theorem 46(4)'s condition Phi_Delta(p_t) >= e^eps_0 beta^(-sigma) Phi_Delta(p*)
        (halting w.p. >= 1 - beta - delta/(4T)); inf when no p in [0, 1] satisfies it. The condition does not involve
        t: the value is the same at every step (t is only validated).

        Solving (N p + Delta)/(N (1-p) + Delta) = R gives p = (R (N + Delta) - Delta)/(N (1 + R))."""
        t = _validate.step_index(t)
        log_R = self.eps0 - self.sigma * math.log(self.beta) + float(self._log_phi(self.pstar))
        x = float(expit(log_R))  # R/(1+R), stable for huge R
        p = (x * (self.N + self.Delta) - (1.0 - x) * self.Delta) / self.N
        return p if p <= 1.0 else math.inf

    @property
    def type1_bound(self) -> float:
        """Theorem 46(2): a halt at a step with p_t < pbar_t has probability <= beta + delta/2."""
        return self.beta + self.delta / 2.0

    @property
    def type2_bound(self) -> float:
        """Theorem 46(4): at a step satisfying the Phi condition (p_t >= halt_p) the tester fails to halt w.p.
        <= beta + delta/(4T)."""
        return self.beta + self.delta / (4.0 * self.T)

    @property
    def error_bound(self) -> float:
        """Type I plus Type II budget of Theorem 46 (2) and (4) (their conditional guarantees, union-bounded)."""
        return self.type1_bound + self.type2_bound

    def sample_bound(self, t: int) -> float:
        """Evaluations per step: exactly N (eq. 25, rounded up)."""
        t = _validate.step_index(t)
        return self.N

    def sample_budget(self, T: int) -> float:
        """Probability that N_t exceeds :meth:`sample_bound` at some step: 0 (exactly N evaluations per step)."""
        return 0.0

    def expected_samples(self, t: int) -> float:
        """N: every step evaluates M_t exactly N times."""
        t = _validate.step_index(t)
        return self.N

    def amortized_sample_bound(self, T: int) -> float:
        """N: the same deterministic count at every step."""
        T = _validate.step_index(T, "T")
        return self.N

    def _threshold_fraction(self, nu, xi):
        """kappa/N where the step halts iff K >= kappa: exp(xi) Phi(K/N) >= exp(nu) Phi(p*) <=> K >= kappa,
        kappa = (R (N + Delta) - Delta)/(1 + R) with ln R = nu - xi + ln Phi(p*)."""
        x = expit(nu - xi + float(self._log_phi(self.pstar)))
        return x * (1.0 + self.Delta / self.N) - (1.0 - x) * self.Delta / self.N

    def run(self, mechanisms, runs: int, rng: np.random.Generator):
        """Run ``runs`` independent copies on ``mechanisms``; each step is one ``count_plus(N)`` per run.

        Returns:
            (halt_step, samples): int64 (runs,) (0 = never halted) and int64 (runs, T') with N per executed step.

        Raises:
            ValueError: if N exceeds int64 (use :meth:`critical_p` for Bernoulli inputs), or an input has delta > 0.
        """
        runs = _validate.step_index(runs, "runs")
        if not self.N <= MAX_EVALUATIONS:
            raise ValueError(
                f"N = exp({self.log_N:.1f}) evaluations per step exceed int64; Liu-Talwar is infeasible here "
                "(critical_p simulates Bernoulli inputs without forming the count)."
            )
        n_eval = int(self.N)
        mechanisms = list(mechanisms)
        if any(m.delta > 0 for m in mechanisms):  # Theorem 46 needs pure eps_1-DP inputs (no purification here)
            raise ValueError("Liu-Talwar requires pure eps_1-DP input mechanisms (delta = 0).")
        nu = rng.laplace(0.0, self.b_nu, runs)
        log_phi_pstar = self._log_phi(self.pstar)  # the same at every step
        halt_step = np.zeros(runs, dtype=np.int64)
        samples = np.zeros((runs, len(mechanisms)), dtype=np.int64)
        for t, m in enumerate(mechanisms, start=1):
            active = np.flatnonzero(halt_step == 0)
            if active.size == 0:
                break
            n_t = np.full(active.size, n_eval, dtype=np.int64)
            K = _validate.counts(m.count_plus(n_t, rng), n_t, t)
            xi = rng.laplace(0.0, self.b_xi, active.size)
            halted = xi + self._log_phi(K / self.N) >= nu[active] + log_phi_pstar
            samples[active, t - 1] = n_eval
            halt_step[active[halted]] = t
        return halt_step, samples

    def critical_p(self, T: int, runs: int, rng: np.random.Generator) -> CriticalP:
        """Exact T-step simulation on Bernoulli(p) inputs with the same p at every step, for all p at once.

        Step t halts iff K_t >= k_t = ceil(kappa_t) (see ``_threshold_fraction``), i.e. iff the k_t-th smallest of N
        i.i.d. uniforms is <= p; that order statistic is Beta(k_t, N - k_t + 1) (0 when k_t <= 0, inf when
        k_t > N). The run's critical p is the minimum over t. Works for any N (float Beta parameters).

        Returns:
            :class:`privtest.measure.CriticalP` (evaluations per step = N).
        """
        T = _validate.step_index(T, "T")
        runs = _validate.step_index(runs, "runs")
        nu = rng.laplace(0.0, self.b_nu, runs)
        p_crit = np.full(runs, np.inf)
        for t0, t1 in blocks(T, runs):
            xi = rng.laplace(0.0, self.b_xi, (t1 - t0, runs))
            k = np.ceil(self._threshold_fraction(nu[None, :], xi) * self.N)
            inside = (k >= 1) & (k <= self.N)
            draw = rng.beta(np.where(inside, k, 1.0), np.where(inside, self.N - k + 1.0, 1.0))
            p_t = np.where(k < 1, 0.0, np.where(inside, draw, np.inf))
            np.minimum(p_crit, p_t.min(axis=0), out=p_crit)
        return CriticalP(p_crit, np.full(runs, self.N))

    def exact_error(self, p, halt_at_T: bool) -> float:
        """NaN: no exact analysis of ExtendedAboveThreshold is implemented (``p`` in [0, 1] and ``halt_at_T``, a
        bool, are checked)."""
        _validate.interval("p", p, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
        _validate.boolean("halt_at_T", halt_at_T)
        return math.nan


def liu_talwar_tester(cfg: dict, pstar: float, eps_ratio: float, T: int) -> LiuTalwarTester:
    """Factory for :data:`privtest_artifact.registry.FACTORIES` (Theorem 46's tester).

    Args:
        cfg: mapping with keys ``eps`` (> 0), ``beta`` (in (0, 1)), and optionally ``delta`` (output delta in (0, 1),
            default 1e-6) and ``eps0`` (auxiliary eps_0 in (0, 1), or "auto" (default): the value minimising N,
            :func:`optimal_eps0`). theta and gamma are ignored.
        pstar: p* in (0, 1). eps_ratio: eps_1/eps, > 0. T: stream length, an integer >= 1.

    Returns:
        :class:`LiuTalwarTester` with eps_1 = eps_ratio * eps.

    Raises:
        ValueError: naming the parameter (or the missing cfg key) when one is out of range.

    Example:
        >>> liu_talwar_tester({"eps": 12.0, "beta": 0.5, "eps0": 0.5}, 0.5, 0.5 / 12, 10).N
        15373.0
    """
    if not isinstance(cfg, Mapping) or "eps" not in cfg or "beta" not in cfg:
        raise ValueError(f"cfg must be a mapping with the keys 'eps' and 'beta'. Found {cfg!r}.")
    eps, beta = cfg["eps"], cfg["beta"]
    _validate.positive("eps_ratio", eps_ratio)
    _validate.positive("eps", eps)
    delta = cfg.get("delta", 1e-6)
    eps0 = cfg.get("eps0", "auto")
    if isinstance(eps0, str) and eps0 != "auto":
        raise ValueError(f"eps0 must be a number in (0, 1) or 'auto'. Found {eps0!r}.")
    if eps0 == "auto":
        eps0 = optimal_eps0(pstar, eps, eps_ratio * eps, beta, delta, T)
    return LiuTalwarTester(eps, eps_ratio * eps, beta, delta, float(eps0), pstar, T)
