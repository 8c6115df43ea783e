"""Cohen et al.'s Test procedure used as a generalized private tester: Algorithm 4 and Proposition 48 (Section 9.3).

Init draws a shared pass probability p_dagger with CDF Pr[p_dagger <= x] = x^theta_C, theta_C = eps/eps_1 - 2.
Step t makes up to N_t = ceil(ln(2/beta) / ((beta/2)^(1/theta_C) p*)) calls to Test(M_t); each call passes with
probability p_dagger (then M_t is evaluated once and its output returned) or returns -1 without evaluating M_t.
The tester halts at the first +1.

Guarantees (Proposition 48): eps-DP (Theorem 47 with c = 1); with probability >= 1 - 2 beta, halting at every p_t >= p*
and continuation at every p_t <= pbar_t. ``pbar_t`` follows the proof, beta_t / (2 N_t (1 - beta/2)^(1/theta_C)),
not the statement (whose factor (beta/2 - beta)^(1/theta_C) has a negative base; see ERRATA.md). Split by error
type: Pr[any Type I error] <= Pr[p_dagger > (1-beta/2)^(1/theta_C)] + beta/2 = beta, and likewise for Type II.
theta_C, N_t and pbar_t are the formulas of :mod:`privtest.bounds` (Table 1's Cohen et al. column).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
from scipy.special import gammaln

from privtest import _validate
from privtest.bounds import (
    Privacy,
    cohen_calls_per_step,
    cohen_privacy,
    cohen_rejection_threshold,
    theta_C,
)
from privtest.measure import CriticalP
from privtest.testers import StationaryTester

__all__ = ["MAX_CALLS", "CohenTester", "cohen_tester", "first_success_position"]

#: The largest number of calls the simulation can count (int64).
MAX_CALLS = 2**63 - 1


def first_success_position(E, K, rng: np.random.Generator) -> np.ndarray:
    """Index (1-based) of the first +1 among E i.i.d. evaluations known to contain K >= 1 successes.

    By exchangeability the +1 positions are a uniform K-subset of {1..E}, whatever the success probability, so the
    first one has Pr[F > j] = C(E-j, K) / C(E, K); F is drawn by inverting this survival function (bisection in
    log space). Used to count the evaluations Algorithm 4 actually makes at its halting step.

    Args:
        E, K: integer arrays of one shape with 1 <= K <= E (E fitting int64).
        rng: anything :func:`numpy.random.default_rng` accepts.

    Returns:
        int64 array of that shape with 1 <= F <= E - K + 1.

    Raises:
        ValueError: naming E, K or rng when out of range (shapes differing, K > E included).

    Example:
        >>> first_success_position([5, 9], [5, 1], rng=0).tolist()
        [1, 7]
    """
    rng = _validate.generator(rng)
    _validate.integer("E", E, 1, scalar=False, maximum=_validate.INT64_MAX)
    _validate.integer("K", K, 1, scalar=False, maximum=_validate.INT64_MAX)
    if np.shape(E) != np.shape(K) or np.any(np.asarray(K) > np.asarray(E)):
        raise ValueError(f"K must have the shape of E and 1 <= K <= E. Found E = {E!r}, K = {K!r}.")
    E = np.asarray(E, dtype=np.int64)
    K = np.asarray(K, dtype=np.int64)
    log_u = np.log(rng.random(E.shape))
    Ef, Kf = E.astype(float), K.astype(float)
    base = gammaln(Ef - Kf + 1) - gammaln(Ef + 1)

    def log_sf(j):
        return gammaln(Ef - j + 1) - gammaln(Ef - j - Kf + 1) + base

    lo = np.zeros(E.shape)  # S(lo) = 1 > u
    hi = Ef - Kf + 1  # S(hi) = 0 <= u
    while np.any(hi - lo > 1):
        mid = np.floor((lo + hi) / 2)
        ok = log_sf(mid) <= log_u
        hi = np.where(ok, mid, hi)
        lo = np.where(ok, lo, mid)
    return hi.astype(np.int64)


@dataclass(frozen=True)
class CohenTester(StationaryTester):
    """Algorithm 4 for a stream of T eps_1-DP mechanisms (Proposition 48).

    Args:
        eps: output privacy eps > 2 eps_1.
        eps1: input privacy eps_1 > 0 of every M_t.
        beta: failure probability in (0, 1) (the guarantee holds with probability 1 - 2 beta).
        pstar: acceptance threshold p* in (0, 1).
        T: stream length >= 1: the guarantees are stated for T steps and ``run`` refuses a longer stream.

    Attributes:
        theta: theta_C = eps/eps_1 - 2.
        N: Test calls per step, N_t (an upper bound on the evaluations of M_t per step).

    Raises:
        RequirementError: if eps <= 2 eps_1 (:class:`privtest.bounds.RequirementError`, a ValueError).
        ValueError: if another parameter is out of range (naming it).

    Example:
        >>> from privtest.testers import bernoulli_stream
        >>> tester = CohenTester(eps=1.0, eps1=0.1, beta=0.05, pstar=0.5, T=3)
        >>> tester.theta, tester.N, str(tester.privacy)
        (8.0, 12, 'pure 1-DP')
        >>> halt_step, samples = tester.run(bernoulli_stream([0.0, 0.0, 0.9], 0.1), runs=4, rng=0)
        >>> halt_step.tolist()
        [3, 3, 3, 3]
    """

    eps: float
    eps1: float
    beta: float
    pstar: float
    T: int
    name: str = "Cohen"
    source: str = "Prop 48"
    theta: float = field(init=False)
    N: int = field(init=False)

    def __post_init__(self):
        _validate.positive("eps", self.eps)
        _validate.positive("eps1", self.eps1)
        _validate.open_unit("beta", self.beta)
        _validate.open_unit("pstar", self.pstar)
        theta = theta_C(self.eps, self.eps1)
        object.__setattr__(self, "T", _validate.step_index(self.T, "T"))
        object.__setattr__(self, "theta", theta)
        object.__setattr__(self, "N", cohen_calls_per_step(self.pstar, self.beta, theta))

    @property
    def eps_t_limit(self) -> float:
        """eps_1, the input privacy the tester was built for (:meth:`privtest.testers.Tester.admit`)."""
        return self.eps1

    @property
    def privacy(self) -> Privacy:
        """Proposition 48(1): pure (2 + theta_C) eps_1 = eps (:func:`privtest.bounds.cohen_privacy`)."""
        return cohen_privacy(self.eps, self.eps1)

    @property
    def parameters(self) -> dict:
        """theta = theta_C = eps/eps_1 - 2 (implied by eps and eps_1, reported for Table 1)."""
        return {"theta": self.theta}

    def pbar(self, t: int) -> float:
        """Rejection threshold of the proof of Proposition 48: beta_t / (2 N_t (1 - beta/2)^(1/theta_C))
        (:func:`privtest.bounds.cohen_rejection_threshold`)."""
        return cohen_rejection_threshold(t, self.pstar, self.eps, self.eps1, self.beta)

    def halt_p(self, t: int) -> float:
        """Smallest p_t at which Proposition 48 guarantees halting: p* (every t)."""
        t = _validate.step_index(t)
        return self.pstar

    @property
    def type1_bound(self) -> float:
        """Pr[any false halt (p_t <= pbar_t)] over the whole run: Pr[p_dagger > (1-beta/2)^(1/theta_C)] + beta/2 = beta
        (proof of Proposition 48)."""
        return self.beta

    @property
    def type2_bound(self) -> float:
        """Pr[a missed halt (p_t >= p*)]: Pr[p_dagger < (beta/2)^(1/theta_C)] + beta/2 = beta (Proposition 48 proves
        1 - 2 beta for both together)."""
        return self.beta

    @property
    def error_bound(self) -> float:
        """Whole-run probability of any Type I or II error guaranteed by Proposition 48: 2 beta."""
        return self.type1_bound + self.type2_bound

    def sample_bound(self, t: int) -> float:
        """Evaluations of M_t at any step are at most N_t (Algorithm 4; deterministic)."""
        t = _validate.step_index(t)
        return float(self.N)

    def sample_budget(self, T: int) -> float:
        """Probability that N_t exceeds :meth:`sample_bound` at some step: 0 (at most N_t evaluations, Alg 4)."""
        return 0.0

    def expected_samples(self, t: int) -> float:
        """Upper bound N_t E[p_dagger] = N_t theta_C/(theta_C + 1): each of the N_t calls passes the gate w.p.
        p_dagger; a step that halts stops at its first +1 and evaluates fewer (exact when no evaluation is +1)."""
        t = _validate.step_index(t)
        return self.N * self.theta / (self.theta + 1.0)

    def amortized_sample_bound(self, T: int) -> float:
        """N_t: the per-step bound is deterministic and the same at every step."""
        T = _validate.step_index(T, "T")
        return float(self.N)

    def _check_simulable(self, steps: int) -> None:
        """ValueError if the calls of ``steps`` steps (steps x N_t) do not fit the int64 counts of the simulation."""
        if steps * self.N > MAX_CALLS:
            raise ValueError(
                f"N_t = {float(self.N):.3g} calls per step (x {steps} steps) exceed int64: Cohen et al.'s tester "
                f"cannot be simulated at eps_1/eps = {self.eps1 / self.eps:g} (theta_C = {self.theta:.3g} near 0)."
            )

    def draw_pdagger(self, runs: int, rng: np.random.Generator) -> np.ndarray:
        """p_dagger = U^(1/theta_C) for U uniform on [0, 1): Pr[p_dagger <= x] = x^theta_C (Init of Algorithm 4).

        Args:
            runs: an integer >= 1. rng: anything :func:`numpy.random.default_rng` accepts.

        Returns:
            float array (runs,) in [0, 1).

        Raises:
            ValueError: naming runs or rng when invalid.
        """
        runs = _validate.step_index(runs, "runs")
        rng = _validate.generator(rng)
        return rng.random(runs) ** (1.0 / self.theta)

    def run(self, mechanisms, runs: int, rng: np.random.Generator):
        """Run ``runs`` independent copies of Algorithm 4 on the stream ``mechanisms`` (length T').

        The calls of step t that pass the Bernoulli(p_dagger) gate, E ~ Bin(N_t, p_dagger), are evaluated with one
        ``count_plus(E)``; the step halts iff some evaluation is +1, and then only the evaluations up to the first
        +1 are counted (:func:`first_success_position`), exactly as the sequential algorithm would make them.

        Returns:
            (halt_step, samples): int64 (runs,) (0 = never halted) and int64 (runs, T') evaluations of M_t.
        """
        runs = _validate.step_index(runs, "runs")
        self._check_simulable(1)
        mechanisms = list(mechanisms)
        pdag = self.draw_pdagger(runs, rng)
        halt_step = np.zeros(runs, dtype=np.int64)
        samples = np.zeros((runs, len(mechanisms)), dtype=np.int64)
        for t, m in enumerate(mechanisms, start=1):
            active = np.flatnonzero(halt_step == 0)
            if active.size == 0:
                break
            E = rng.binomial(self.N, pdag[active])
            K = _validate.counts(m.count_plus(E, rng), E, t)
            halted = K > 0
            used = E.copy()
            if np.any(halted):
                used[halted] = first_success_position(E[halted], K[halted], rng)
            samples[active, t - 1] = used
            halt_step[active[halted]] = t
        return halt_step, samples

    def critical_p(self, T: int, runs: int, rng: np.random.Generator) -> CriticalP:
        """Exact T-step simulation on Bernoulli(p) inputs with the same p at every step, for all p at once.

        Given p_dagger, the passing calls of all T steps number S ~ Bin(T N_t, p_dagger); the run halts within T
        iff the smallest of S i.i.d. uniforms is <= p, and that minimum is Beta(1, S) (infinite when S = 0).

        Returns:
            :class:`privtest.measure.CriticalP` with p_crit (runs,) and the evaluations per step while continuing.
        """
        T = _validate.step_index(T, "T")
        runs = _validate.step_index(runs, "runs")
        self._check_simulable(T)
        pdag = self.draw_pdagger(runs, rng)
        S = rng.binomial(np.int64(T) * self.N, pdag)
        p_crit = np.where(S > 0, rng.beta(1.0, np.maximum(S, 1)), np.inf)
        return CriticalP(p_crit, S / T)

    def exact_error(self, p, halt_at_T: bool) -> float:
        """NaN: no exact analysis of Algorithm 4 is implemented (its Monte Carlo is exact in law, :meth:`run`).
        ``p`` (probabilities in [0, 1]) and ``halt_at_T`` (a bool) are checked."""
        _validate.interval("p", p, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
        _validate.boolean("halt_at_T", halt_at_T)
        return math.nan


def _cfg(cfg, *keys):
    """The values of ``keys`` in the config mapping ``cfg`` (ValueError naming a missing key)."""
    if not isinstance(cfg, Mapping):
        raise ValueError(f"cfg must be a mapping (a config section). Found {type(cfg).__name__}.")
    missing = [k for k in keys if k not in cfg]
    if missing:
        raise ValueError(f"cfg must have the keys {list(keys)}. Missing {missing}.")
    return [cfg[k] for k in keys]


def cohen_tester(cfg: dict, pstar: float, eps_ratio: float, T: int) -> CohenTester:
    """Factory for :data:`privtest_artifact.registry.FACTORIES` (Proposition 48's tester).

    Args:
        cfg: mapping with keys ``eps`` (> 0) and ``beta`` (in (0, 1)); theta and gamma are ignored (theta_C =
            1/eps_ratio - 2 is implied).
        pstar: p* in (0, 1). eps_ratio: eps_1/eps, > 0. T: stream length, an integer >= 1.

    Returns:
        :class:`CohenTester` with eps_1 = eps_ratio * eps.

    Raises:
        ValueError: naming the parameter when one is out of range; RequirementError (a ValueError) when
            eps_ratio >= 1/2 (eps <= 2 eps_1).

    Example:
        >>> cohen_tester({"eps": 1.0, "beta": 0.05}, 0.5, 0.1, 10).N
        12
    """
    eps, beta = _cfg(cfg, "eps", "beta")
    _validate.positive("eps_ratio", eps_ratio)
    _validate.positive("eps", eps)
    return CohenTester(eps, eps_ratio * eps, beta, pstar, T)
