"""Common interface of generalized private testers for the comparison experiments (fig_error_rates,
fig_sample_complexity, table1, ...): build one with :func:`make_tester` and run many independent copies at once.

A tester is configured for a fixed stream length T, acceptance threshold p* and input privacy eps_1 = eps_ratio*eps.
It exposes its rejection threshold pbar(t) (the guarantee it claims, with the theorem it comes from) and a
vectorized ``run``. New testers register a factory in :data:`FACTORIES` ("module:function").
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from privtest.gtm import GlobalCalibration
from privtest.mechanisms import BernoulliMechanism, Mechanism
from privtest.schedule import beta_t
from privtest.simulate import run_streams


class Tester(Protocol):
    """What the comparison experiments need from a tester."""

    name: str
    source: str  # theorem/proposition its guarantee comes from

    def pbar(self, t: int) -> float:
        """Rejection threshold at step t (continue w.h.p. when p_t <= pbar(t))."""

    def run(self, mechanisms: list[Mechanism], runs: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Run ``runs`` independent copies on the stream of T mechanisms (each with ``eps`` = eps_1).

        Returns:
            (halt_step, samples): int64 arrays (runs,) (0 = never halted) and (runs, T) evaluations per step.
        """


@dataclass(frozen=True)
class GTMTester:
    """The GTM with Theorem 21's calibration on Bernoulli inputs of privacy eps_1."""

    cal: GlobalCalibration
    pstar: float
    eps1: float
    name: str = "GTM"
    source: str = "Thm 21"

    def pbar(self, t: int) -> float:
        return self.cal.step(t, self.eps1, self.pstar).pbar

    def sample_bound(self, t: int) -> float:
        """Lemma 22(1) with the algorithm's explicit quantities: e * max(lambda_max_t, ln(4/beta_t)), where
        lambda_max_t = rho_t Lambda_t (direct) or rho_t (flipped) bounds lambda_t on the good-noise event.
        This replaces the unspecified constant C_A by the exact calibration (C_A ln(t/beta) max(...)/(gamma-1)^2
        is an upper bound of lambda_max_t)."""
        st = self.cal.step(t, self.eps1, self.pstar)
        lam_max = st.rho * (st.Lambda if st.s == 1 else 1.0)
        return math.e * max(lam_max, math.log(4.0 / beta_t(t, self.cal.beta)))

    def sample_budget(self, T: int) -> float:
        """Probability that N_t exceeds :meth:`sample_bound` at some t <= T, from the proof of Lemma 22(1).

        Direct steps need eta_2,t <= tau2 ln(4/beta_t) (probability beta_t/4 each; eta_1 >= 0 only lowers lambda_t),
        flipped steps need eta_1 <= mu1 (probability beta/4, once), and the Poisson tail costs beta_t/4 per step:
        at most beta/2, plus beta/4 if the flipping rule selects s_t = -1 at some t <= T.
        """
        flipped = any(self.cal.step(t, self.eps1, self.pstar).s == -1 for t in range(1, T + 1))
        return self.cal.beta / 2 + (self.cal.beta / 4 if flipped else 0.0)

    def run(self, mechanisms, runs, rng):
        res = run_streams(self.cal, list(mechanisms), self.pstar, len(mechanisms), runs, rng)
        return res.halt_step, res.samples


def gtm_tester(cfg: dict, pstar: float, eps_ratio: float, T: int) -> GTMTester:
    """GTM tester from a config section with eps, beta, theta, gamma (optional variant)."""
    cal = GlobalCalibration(cfg["eps"], cfg["beta"], cfg["theta"], cfg["gamma"], cfg.get("variant", "auto"))
    return GTMTester(cal, pstar, eps_ratio * cfg["eps"])


#: method name -> "module:factory"; factory(cfg, pstar, eps_ratio, T) -> Tester.
FACTORIES: dict[str, str] = {
    "GTM": "privtest.testers:gtm_tester",
    # Baselines (Section 9): cfg keys eps, beta; LiuTalwar also delta (default 1e-6) and eps0 (default "auto").
    "Cohen": "privtest.baselines.cohen:cohen_tester",
    "LiuTalwar": "privtest.baselines.liu_talwar:liu_talwar_tester",
}


def bernoulli_stream(p, eps1: float) -> list[Mechanism]:
    """Bernoulli input mechanisms with success probabilities ``p`` (shape (T,)) and privacy eps_1."""
    return [BernoulliMechanism(float(pi), eps1) for pi in np.asarray(p, dtype=float)]


def make_tester(method: str, cfg: dict, pstar: float, eps_ratio: float, T: int) -> Tester:
    """Build tester ``method`` (a key of :data:`FACTORIES`) for stream length T, threshold p*, eps_1 = ratio*eps.

    Raises:
        ValueError: for an unknown method.
    """
    if method not in FACTORIES:
        raise ValueError(f"method must be one of {sorted(FACTORIES)}. Found {method!r}.")
    module, func = FACTORIES[method].split(":")
    return getattr(importlib.import_module(module), func)(cfg, pstar, eps_ratio, T)
