"""Classic AboveThreshold / sparse vector (Dwork and Roth 2014, Algorithm 1 of Chapter 3) for real-valued
sensitivity-1 queries: the standard threshold test that Section 6's lower bounds (Theorem 29) start from.

Init draws rho ~ Lap(2/eps); query t draws nu_t ~ Lap(4/eps) and halts (a_t = +1) iff f_t(X) + nu_t >= tau + rho.
The mechanism is eps-DP; with probability >= 1 - beta it has global accuracy (alpha, alpha, beta) over T queries with
alpha = 8 (ln T + ln(2/beta))/eps (Dwork-Roth Theorem 3.24), so alpha_+ + alpha_- = 2 alpha, to be compared with
Theorem 29's lower bound (:func:`privtest.bounds.thm29_alpha_sum`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from privtest import _validate


@dataclass(frozen=True)
class AboveThreshold:
    """AboveThreshold with privacy ``eps`` > 0 and public threshold ``tau`` (real).

    Raises:
        ValueError: if eps <= 0 or tau is not finite.
    """

    eps: float
    tau: float = 0.0
    name: str = "AboveThreshold"
    source: str = "Dwork-Roth Thm 3.24"

    def __post_init__(self):
        _validate.positive("eps", self.eps)
        if not _validate.is_finite_real(self.tau):
            raise ValueError(f"tau must be a finite real. Found {self.tau!r}.")

    def alpha(self, T: int, beta: float) -> float:
        """Accuracy alpha = 8 (ln T + ln(2/beta))/eps of Dwork-Roth Theorem 3.24 (T >= 1, beta in (0, 1))."""
        _validate.step_index(T)
        _validate.open_unit("beta", beta)
        return 8.0 * (math.log(T) + math.log(2.0 / beta)) / self.eps

    def run(self, values, runs: int, rng: np.random.Generator) -> np.ndarray:
        """Run ``runs`` independent copies on the query answers ``values`` = (f_1(X), ..., f_T(X)).

        Args:
            values: real array of shape (T,).
            runs: number of independent runs >= 1.
            rng: numpy Generator.

        Returns:
            int64 array (runs,): the halting step (1-based), 0 if no query was above the noisy threshold.
        """
        _validate.step_index(runs)
        values = np.asarray(values, dtype=float)
        rho = rng.laplace(0.0, 2.0 / self.eps, runs)
        halt_step = np.zeros(runs, dtype=np.int64)
        for t, f in enumerate(values, start=1):
            active = np.flatnonzero(halt_step == 0)
            if active.size == 0:
                break
            nu = rng.laplace(0.0, 4.0 / self.eps, active.size)
            halt_step[active[f + nu >= self.tau + rho[active]]] = t
        return halt_step
