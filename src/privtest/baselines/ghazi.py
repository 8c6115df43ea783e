"""Ghazi et al.'s maximum selection with random dropping (Algorithm 5, Theorem 52), used for testing as in
Corollary 53.

Init draws k ~ Geo(e^(-theta_G)) on {0, 1, ...} (Pr[k >= j] = e^(-theta_G j)), theta_G = eps - 2 eps_1 > 0. Each
mechanism M_t is evaluated once with probability e^(-eps_1 k) (otherwise dropped); every +1 output joins S with its
index, and one element of S is returned by a data-independent rule (here: uniformly at random among the +1 outputs,
as in Corollary 53). The output is ex-post (2 eps_1 + theta_G) = eps-DP (Theorem 52(1)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from privtest import _validate


@dataclass(frozen=True)
class GhaziSelection:
    """Algorithm 5 with input privacy eps_1 and output privacy eps > 2 eps_1 (theta_G = eps - 2 eps_1).

    Raises:
        ValueError: if eps <= 2 eps_1 or either is not > 0.
    """

    eps: float
    eps1: float
    name: str = "Ghazi"
    source: str = "Thm 52, Cor 53"

    def __post_init__(self):
        _validate.positive("eps", self.eps)
        _validate.positive("eps1", self.eps1)
        if not self.eps > 2.0 * self.eps1:
            raise ValueError(f"Ghazi et al. require eps > 2 eps_1. Found eps={self.eps!r}, eps_1={self.eps1!r}.")

    @property
    def theta_G(self) -> float:
        """theta_G = eps - 2 eps_1 (eps' of Ghazi et al.)."""
        return self.eps - 2.0 * self.eps1

    def draw_k(self, runs: int, rng: np.random.Generator) -> np.ndarray:
        """k ~ Geo(e^(-theta_G)) on {0, 1, ...}: floor(E/theta_G) for E ~ Exp(1) has Pr[k >= j] = e^(-theta_G j)."""
        return np.floor(rng.exponential(1.0, runs) / self.theta_G)

    def run(self, mechanisms, runs: int, rng: np.random.Generator):
        """Run ``runs`` independent copies on the T mechanisms and select uniformly among the +1 outputs.

        The uniform choice is made online (reservoir sampling: the j-th +1 replaces the selection w.p. 1/j), which
        is the same distribution as a uniform draw from S at the end.

        Returns:
            (selected, samples): int64 (runs,) with the selected index t in 1..T (0 = no +1 output, i.e. ⊥) and
            int64 (runs, T) with the evaluations of M_t (0 or 1).
        """
        _validate.step_index(runs)
        mechanisms = list(mechanisms)
        keep = np.exp(-self.eps1 * self.draw_k(runs, rng))
        selected = np.zeros(runs, dtype=np.int64)
        positives = np.zeros(runs, dtype=np.int64)
        samples = np.zeros((runs, len(mechanisms)), dtype=np.int64)
        for t, m in enumerate(mechanisms, start=1):
            y = (rng.random(runs) < keep).astype(np.int64)  # random drop
            o = np.asarray(m.count_plus(y, rng), dtype=np.int64)  # 1 iff evaluated and +1
            samples[:, t - 1] = y
            positives += o
            replace = (o == 1) & (rng.random(runs) * np.maximum(positives, 1) < 1.0)
            selected[replace] = t
        return selected, samples

    def sample_bound(self, alpha: float, beta: float) -> int:
        """T_i = ceil((1/alpha) (2/beta)^(eps_1/eps') ln(2/beta)) of Theorem 52 (repetitions of a mechanism with
        success probability alpha for selection with failure probability beta)."""
        _validate.open_unit("alpha", alpha)
        _validate.open_unit("beta", beta)
        return int(math.ceil((2.0 / beta) ** (self.eps1 / self.theta_G) * math.log(2.0 / beta) / alpha))
