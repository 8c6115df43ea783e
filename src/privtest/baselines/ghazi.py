"""Ghazi et al.'s maximum selection with random dropping (Algorithm 5, Theorem 52), used for testing as in
Corollary 53.

Init draws k ~ Geo(e^(-theta_G)) on {0, 1, ...} (Pr[k >= j] = e^(-theta_G j)), theta_G = eps - 2 eps_1 > 0. Each
mechanism M_t is evaluated once with probability e^(-eps_1 k) (otherwise dropped); every +1 output joins S with its
index, and one element of S is returned by a data-independent rule (here: uniformly at random among the +1 outputs,
as in Corollary 53). The output is ex-post (2 eps_1 + theta_G) = eps-DP (Theorem 52(1)).

As a tester (:class:`privtest.testers.Tester`) the selected index plays the role of the halting step. The paper
proves no testing guarantee for Algorithm 5: Corollary 53 only bounds what any rejection threshold could be
(:func:`privtest.bounds.ghazi_pbar_max`), so its thresholds and error bounds are NaN/inf, documented below.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from privtest import _validate
from privtest.bounds import Privacy, RequirementError
from privtest.measure import CriticalP
from privtest.testers import StationaryTester

__all__ = ["GhaziSelection", "ghazi_tester"]


@dataclass(frozen=True)
class GhaziSelection(StationaryTester):
    """Algorithm 5 with input privacy eps_1 and output privacy eps > 2 eps_1 (theta_G = eps - 2 eps_1).

    Args:
        eps: output privacy > 2 eps1. eps1: input privacy > 0.

    Raises:
        RequirementError: if eps <= 2 eps_1 (:class:`privtest.bounds.RequirementError`, a ValueError).
        ValueError: if eps or eps1 is not > 0 and finite (naming it).

    Example:
        >>> from privtest.testers import bernoulli_stream
        >>> g = GhaziSelection(eps=1.0, eps1=0.1)
        >>> round(g.theta_G, 12), round(g.keep_probability(), 4)
        (0.8, 0.9279)
        >>> selected, samples = g.run(bernoulli_stream([0.0, 1.0, 0.0], 0.1), runs=6, rng=0)
        >>> selected.tolist()
        [2, 2, 2, 2, 2, 2]
    """

    eps: float
    eps1: float
    name: str = "Ghazi"
    source: str = "Thm 52, Cor 53"

    def __post_init__(self):
        _validate.positive("eps", self.eps)
        _validate.positive("eps1", self.eps1)
        if not self.eps > 2.0 * self.eps1:
            raise RequirementError(f"Ghazi et al. require eps > 2 eps_1. Found eps={self.eps!r}, eps_1={self.eps1!r}.")

    @property
    def theta_G(self) -> float:
        """theta_G = eps - 2 eps_1 (eps' of Ghazi et al.)."""
        return self.eps - 2.0 * self.eps1

    def draw_k(self, runs: int, rng: np.random.Generator) -> np.ndarray:
        """k ~ Geo(e^(-theta_G)) on {0, 1, ...}: floor(E/theta_G) for E ~ Exp(1) has Pr[k >= j] = e^(-theta_G j).

        Args:
            runs: an integer >= 1. rng: anything :func:`numpy.random.default_rng` accepts.

        Returns:
            float array (runs,) of non-negative integers.

        Raises:
            ValueError: naming runs or rng when invalid.
        """
        runs = _validate.step_index(runs, "runs")
        rng = _validate.generator(rng)
        return np.floor(rng.exponential(1.0, runs) / self.theta_G)

    def run(self, mechanisms, runs: int, rng: np.random.Generator):
        """Run ``runs`` independent copies on the T mechanisms and select uniformly among the +1 outputs.

        The uniform choice is made online (reservoir sampling: the j-th +1 replaces the selection w.p. 1/j), which
        is the same distribution as a uniform draw from S at the end.

        Returns:
            (selected, samples): int64 (runs,) with the selected index t in 1..T (0 = no +1 output, i.e. ⊥) and
            int64 (runs, T) with the evaluations of M_t (0 or 1).
        """
        runs = _validate.step_index(runs, "runs")
        mechanisms = list(mechanisms)
        keep = np.exp(-self.eps1 * self.draw_k(runs, rng))
        selected = np.zeros(runs, dtype=np.int64)
        positives = np.zeros(runs, dtype=np.int64)
        samples = np.zeros((runs, len(mechanisms)), dtype=np.int64)
        for t, m in enumerate(mechanisms, start=1):
            y = (rng.random(runs) < keep).astype(np.int64)  # random drop
            o = _validate.counts(m.count_plus(y, rng), y, t)  # 1 iff evaluated and +1
            samples[:, t - 1] = y
            positives += o
            replace = (o == 1) & (rng.random(runs) * np.maximum(positives, 1) < 1.0)
            selected[replace] = t
        return selected, samples

    def keep_probability(self) -> float:
        """E[e^(-eps_1 k)] = (1 - q)/(1 - q e^(-eps_1)), q = e^(-theta_G): the probability that a step is evaluated."""
        q = math.exp(-self.theta_G)
        return (1.0 - q) / (1.0 - q * math.exp(-self.eps1))

    @property
    def eps_t_limit(self) -> float:
        """eps_1, the input privacy the tester was built for (:meth:`privtest.testers.Tester.admit`)."""
        return self.eps1

    @property
    def privacy(self) -> Privacy:
        """Theorem 52(1): ex-post 2 eps_1 + theta_G = eps on a selected output (0 on ⊥): pure eps-DP, worst case."""
        return Privacy(float(self.eps), 0.0)

    @property
    def parameters(self) -> dict:
        """theta_G = eps - 2 eps_1."""
        return {"theta_G": self.theta_G}

    @property
    def type1_bound(self) -> float:
        """NaN: no continuation guarantee (Corollary 53 shows any pbar must be O(beta/T))."""
        return math.nan

    @property
    def type2_bound(self) -> float:
        """NaN: no per-step halting guarantee (Theorem 52(2) needs T_i repetitions of a good mechanism)."""
        return math.nan

    @property
    def error_bound(self) -> float:
        """NaN: the paper states no testing guarantee for Algorithm 5."""
        return math.nan

    def pbar(self, t: int) -> float:
        """NaN: Algorithm 5 has no rejection threshold; Corollary 53 bounds any from above
        (:func:`privtest.bounds.ghazi_pbar_max`)."""
        t = _validate.step_index(t)
        return math.nan

    def halt_p(self, t: int) -> float:
        """inf: no p_t guarantees selecting step t (the step is dropped w.p. 1 - e^(-eps_1 k), whatever p_t)."""
        t = _validate.step_index(t)
        return math.inf

    def sample_bound(self, t: int) -> float:
        """At most one evaluation of M_t per step (deterministic)."""
        t = _validate.step_index(t)
        return 1.0

    def sample_budget(self, T: int) -> float:
        """0: :meth:`sample_bound` always holds."""
        return 0.0

    def expected_samples(self, t: int) -> float:
        """The probability that step t is evaluated, :meth:`keep_probability`."""
        t = _validate.step_index(t)
        return self.keep_probability()

    def amortized_sample_bound(self, T: int) -> float:
        """1: at most one evaluation per step."""
        T = _validate.step_index(T, "T")
        return 1.0

    def critical_p(self, T: int, runs: int, rng: np.random.Generator) -> CriticalP:
        """Exact T-step simulation on Bernoulli(p) inputs, coupled across p: given k, E ~ Bin(T, e^(-eps_1 k)) steps are
        evaluated and some (+1, t) is selected iff the smallest of E uniforms is <= p: Beta(1, E) (inf if E = 0)."""
        T = _validate.step_index(T, "T")
        runs = _validate.step_index(runs, "runs")
        E = rng.binomial(T, np.exp(-self.eps1 * self.draw_k(runs, rng)))
        p_crit = np.where(E > 0, rng.beta(1.0, np.maximum(E, 1)), np.inf)
        return CriticalP(p_crit, E / T)

    def exact_error(self, p, halt_at_T: bool) -> float:
        """NaN: no exact analysis of Algorithm 5 is implemented (``p`` in [0, 1] and ``halt_at_T``, a bool, are
        checked)."""
        _validate.interval("p", p, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
        _validate.boolean("halt_at_T", halt_at_T)
        return math.nan


def ghazi_tester(cfg: dict, pstar: float, eps_ratio: float, T: int) -> GhaziSelection:
    """Factory for :data:`privtest_artifact.registry.FACTORIES` (Algorithm 5, Theorem 52).

    Args:
        cfg: mapping with key ``eps`` (> 0). pstar: p* in (0, 1) or a schedule of them, and T: an integer >= 1,
            both checked and otherwise ignored (Algorithm 5 has no p*, beta or T). eps_ratio: eps_1/eps, > 0.

    Returns:
        :class:`GhaziSelection` with eps_1 = eps_ratio * eps.

    Raises:
        ValueError: naming the parameter when one is out of range; RequirementError (a ValueError) when
            eps_ratio >= 1/2 (eps <= 2 eps_1).

    Example:
        >>> ghazi_tester({"eps": 1.0}, 0.5, 0.1, 10).eps1
        0.1
    """
    if not isinstance(cfg, Mapping) or "eps" not in cfg:
        raise ValueError(f"cfg must be a mapping with the key 'eps'. Found {cfg!r}.")
    _validate.open_unit("pstar", pstar, scalar=False)
    _validate.positive("eps_ratio", eps_ratio)
    _validate.step_index(T, "T")
    _validate.positive("eps", cfg["eps"])
    return GhaziSelection(cfg["eps"], eps_ratio * cfg["eps"])
