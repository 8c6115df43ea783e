"""Common interface of generalized private testers for the comparison experiments (fig_error_rates,
fig_sample_complexity, table1, ...): build one with :func:`make_tester` and run many independent copies at once.

A tester is configured for a fixed stream length T, acceptance threshold p* and input privacy eps_1 = eps_ratio*eps.
It exposes its rejection threshold pbar(t) (the guarantee it claims, with the theorem it comes from) and a
vectorized ``run``. New testers register a factory in :data:`FACTORIES` ("module:function").
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from privtest.gtm import GlobalCalibration
from privtest.mechanisms import BernoulliMechanism
from privtest.simulate import run_streams


class Tester(Protocol):
    """What the comparison experiments need from a tester."""

    name: str
    source: str  # theorem/proposition its guarantee comes from

    def pbar(self, t: int) -> float:
        """Rejection threshold at step t (continue w.h.p. when p_t <= pbar(t))."""

    def run(self, p: np.ndarray, runs: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Run ``runs`` independent copies on Bernoulli inputs with success probabilities ``p`` (shape (T,)).

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

    def run(self, p, runs, rng):
        p = np.asarray(p, dtype=float)
        res = run_streams(self.cal, [BernoulliMechanism(pi, self.eps1) for pi in p], self.pstar, len(p), runs, rng)
        return res.halt_step, res.samples


def gtm_tester(cfg: dict, pstar: float, eps_ratio: float, T: int) -> GTMTester:
    """GTM tester from a config section with eps, beta, theta, gamma (optional variant)."""
    cal = GlobalCalibration(cfg["eps"], cfg["beta"], cfg["theta"], cfg["gamma"], cfg.get("variant", "auto"))
    return GTMTester(cal, pstar, eps_ratio * cfg["eps"])


#: method name -> "module:factory"; factory(cfg, pstar, eps_ratio, T) -> Tester.
FACTORIES: dict[str, str] = {
    "GTM": "privtest.testers:gtm_tester",
}


def make_tester(method: str, cfg: dict, pstar: float, eps_ratio: float, T: int) -> Tester:
    """Build tester ``method`` (a key of :data:`FACTORIES`) for stream length T, threshold p*, eps_1 = ratio*eps.

    Raises:
        ValueError: for an unknown method.
    """
    if method not in FACTORIES:
        raise ValueError(f"method must be one of {sorted(FACTORIES)}. Found {method!r}.")
    module, func = FACTORIES[method].split(":")
    return getattr(importlib.import_module(module), func)(cfg, pstar, eps_ratio, T)
