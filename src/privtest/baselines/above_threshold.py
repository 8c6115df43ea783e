"""Classic AboveThreshold / sparse vector (Dwork and Roth 2014, Algorithm 1 of Chapter 3) for real-valued
sensitivity-1 queries: the standard threshold test that Section 6's lower bounds (Theorem 29) start from.

Init draws rho ~ Lap(2/eps); query t draws nu_t ~ Lap(4/eps) and halts (a_t = +1) iff f_t(X) + nu_t >= tau + rho.
The mechanism is eps-DP; with probability >= 1 - beta it has global accuracy (alpha, alpha, beta) over T queries with
alpha = 8 (ln T + ln(2/beta))/eps (Dwork-Roth Theorem 3.24), so ``alpha_+ + alpha_- = 2 alpha``, to be compared with
Theorem 29's lower bound (:func:`privtest.bounds.alpha_sum_lower_bound`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from privtest import _validate
from privtest.bounds import Privacy
from privtest.measure import CriticalP
from privtest.testers import StationaryTester

__all__ = ["AboveThreshold"]


@dataclass(frozen=True)
class AboveThreshold(StationaryTester):
    """AboveThreshold with privacy ``eps`` > 0 and public threshold ``tau`` (real), for T queries with failure
    probability beta.

    As a :class:`privtest.testers.Tester` its inputs are the query answers f_t(X) (sensitivity 1), not +-1 mechanisms:
    its thresholds are values of the queries (tau -+ alpha), and "p" in :meth:`critical_p` and :meth:`halts_at_step`
    is the constant query value f of every step.

    Args:
        eps: privacy eps > 0.
        beta: failure probability in (0, 1) of Dwork-Roth's accuracy guarantee.
        T: number of queries >= 1.
        tau: the public threshold (a finite real).

    Raises:
        ValueError: if eps <= 0, beta is outside (0, 1), T < 1 or tau is not finite (naming it).

    Example:
        >>> at = AboveThreshold(eps=1.0, beta=0.05, T=10, tau=0.0)
        >>> round(at.alpha, 4), str(at.privacy)
        (47.9317, 'pure 1-DP')
        >>> halt_step, samples = at.run([-100.0, 0.0, 100.0], runs=5, rng=0)
        >>> halt_step.tolist()
        [2, 3, 2, 3, 2]
    """

    eps: float
    beta: float
    T: int
    tau: float = 0.0
    name: str = "AboveThreshold"
    source: str = "Dwork-Roth Thm 3.24"

    def __post_init__(self):
        _validate.positive("eps", self.eps)
        _validate.open_unit("beta", self.beta)
        object.__setattr__(self, "T", _validate.step_index(self.T, "T"))
        _validate.finite("tau", self.tau)

    def admit(self, mechanisms) -> np.ndarray:
        """The query answers as a float array (T',) if T' <= T (Dwork-Roth's guarantee covers T queries).

        Raises:
            ValueError: naming ``mechanisms`` (not a 1-d array of finite reals) or T (more than T answers).
        """
        _validate.finite("mechanisms", mechanisms, scalar=False)
        values = np.asarray(mechanisms, dtype=float)
        if values.ndim != 1:
            raise ValueError(f"mechanisms must be a 1-d array of query answers. Found shape {values.shape}.")
        _validate.admit_stream(values, self.T, None, what="AboveThreshold tester")
        return values

    @property
    def alpha(self) -> float:
        """Accuracy alpha = 8 (ln T + ln(2/beta))/eps of Dwork-Roth Theorem 3.24."""
        return 8.0 * (math.log(self.T) + math.log(2.0 / self.beta)) / self.eps

    @property
    def privacy(self) -> Privacy:
        """Pure eps-DP (Dwork-Roth Theorem 3.23)."""
        return Privacy(float(self.eps), 0.0)

    @property
    def parameters(self) -> dict:
        """The public threshold tau."""
        return {"tau": self.tau}

    @property
    def type1_bound(self) -> float:
        """beta: with probability >= 1 - beta the run is (alpha, alpha)-accurate (both error types together)."""
        return self.beta

    @property
    def type2_bound(self) -> float:
        """beta (see :attr:`type1_bound`)."""
        return self.beta

    @property
    def error_bound(self) -> float:
        """beta: Dwork-Roth Theorem 3.24 bounds both error types together."""
        return self.beta

    def pbar(self, t: int) -> float:
        """tau - alpha, a query value (not a probability): the run continues at every query with f_t(X) <= tau - alpha,
        except with probability beta."""
        t = _validate.step_index(t)
        return self.tau - self.alpha

    def halt_p(self, t: int) -> float:
        """tau + alpha, a query value: the run halts at a query with f_t(X) >= tau + alpha, except w.p. beta."""
        t = _validate.step_index(t)
        return self.tau + self.alpha

    def sample_bound(self, t: int) -> float:
        """One evaluation of the query per step (deterministic)."""
        t = _validate.step_index(t)
        return 1.0

    def sample_budget(self, T: int) -> float:
        """0: :meth:`sample_bound` always holds."""
        return 0.0

    def expected_samples(self, t: int) -> float:
        """1: every step answers its query once."""
        t = _validate.step_index(t)
        return 1.0

    def amortized_sample_bound(self, T: int) -> float:
        """1: one evaluation per step."""
        T = _validate.step_index(T, "T")
        return 1.0

    def run(self, mechanisms, runs: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Run ``runs`` independent copies on the query answers ``mechanisms`` = (f_1(X), ..., f_T(X)).

        Args:
            mechanisms: real array of shape (T,): the answers of the T sensitivity-1 queries.
            runs: number of independent runs >= 1.
            rng: numpy Generator.

        Returns:
            (halt_step, samples): int64 (runs,), the halting step (1-based, 0 if no query was above the noisy
            threshold), and int64 (runs, T), 1 at every step a run answered (up to and including its halt).
        """
        runs = _validate.step_index(runs, "runs")
        values = np.asarray(mechanisms, dtype=float)
        rho = rng.laplace(0.0, 2.0 / self.eps, runs)
        halt_step = np.zeros(runs, dtype=np.int64)
        for t, f in enumerate(values, start=1):
            active = np.flatnonzero(halt_step == 0)
            if active.size == 0:
                break
            nu = rng.laplace(0.0, 4.0 / self.eps, active.size)
            halt_step[active[f + nu >= self.tau + rho[active]]] = t
        steps = np.arange(1, values.size + 1)[None, :]
        samples = ((halt_step[:, None] == 0) | (steps <= halt_step[:, None])).astype(np.int64)
        return halt_step, samples

    def critical_p(self, T: int, runs: int, rng: np.random.Generator) -> CriticalP:
        """Exact T-step simulation with the same query value f at every step, coupled across f: a run halts within T
        iff f >= tau + rho - max_{t<=T} nu_t, its critical value (in query units, not a probability)."""
        T = _validate.step_index(T, "T")
        runs = _validate.step_index(runs, "runs")
        rho = rng.laplace(0.0, 2.0 / self.eps, runs)
        nu = rng.laplace(0.0, 4.0 / self.eps, (T, runs))
        return CriticalP(self.tau + rho - nu.max(axis=0), np.ones(runs))

    def exact_error(self, p, halt_at_T: bool) -> float:
        """NaN: no exact analysis of AboveThreshold is implemented (``p``: the T query values, finite reals;
        ``halt_at_T``: a bool; both checked)."""
        _validate.finite("p", p, scalar=False)
        _validate.boolean("halt_at_T", halt_at_T)
        return math.nan
