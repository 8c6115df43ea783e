"""fig_error_rates: probability that a whole T-step run makes any Type I or Type II error (Definition 13),
on adversarial streams, for each tester and beta (Theorem 21 for the GTM: must be <= beta).

Streams (each tester on its own thresholds):
  * ``pbar_then_pstar``: p_t = pbar_t for t < T, then p_T = p*: an error is halting before T (Type I) or not
    halting at T (Type II).
  * ``never_pstar``: p_t = pbar_t for all t <= T: an error is any halt (Type I).

For the GTM the same probabilities are also computed exactly (``rate_exact``: ``Tester.exact_error``, NaN for
testers without an exact analysis): the Monte Carlo rate must agree with it, and the exact value is checked against
beta even where the sample cannot resolve it (:mod:`privtest.checks.fig_error_rates`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.registry import make_tester
from privtest.testers import Tester, bernoulli_stream

STREAMS = ("pbar_then_pstar", "never_pstar")


def stream_p(tester: Tester, T: int, stream: str) -> np.ndarray:
    """Success probabilities p_t (shape (T,)) of an adversarial stream for ``tester``: its pbar_t (clipped at 0), and
    on ``pbar_then_pstar`` p_T = its own halting threshold ``halt_p(T)`` (p* for GTM and Cohen, Theorem 46(4)'s Phi
    condition for Liu-Talwar, which does not guarantee halting at p*: Table 1, dagger)."""
    p = np.array([max(tester.pbar(t), 0.0) for t in range(1, T + 1)])
    if stream == "pbar_then_pstar":
        p[-1] = tester.halt_p(T)
    return p


def error_budget(tester: Tester, stream: str) -> float:
    """Whole-run error probability the tester's own theorem allows on ``stream``: ``error_bound`` on
    ``pbar_then_pstar`` (both error types can occur: beta for the GTM, 2 beta for Cohen et al., Theorem 46(2)+(4)
    for Liu-Talwar), ``type1_bound`` on ``never_pstar`` (only Type I errors)."""
    return tester.error_bound if stream == "pbar_then_pstar" else tester.type1_bound


def failures(halt_step: np.ndarray, T: int, stream: str) -> int:
    """Runs with any Type I/II error: early halt (both streams) or missed halt at T (``pbar_then_pstar``)."""
    if stream == "pbar_then_pstar":
        return int(np.count_nonzero(halt_step != T))
    return int(np.count_nonzero(halt_step != 0))


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """One row per (method, beta, stream): failures among ``runs`` independent runs of length T (no ``inputs``)."""
    rows = []
    T, runs, eps1 = cfg["T"], cfg["runs"], cfg["eps_ratio"] * cfg["eps"]
    for method in cfg["methods"]:
        for beta in cfg["betas"]:
            tester = make_tester(method, {**cfg, "beta": beta}, cfg["pstar"], cfg["eps_ratio"], T)
            for stream in STREAMS:
                p = stream_p(tester, T, stream)
                halt_step, samples = tester.run(bernoulli_stream(p, eps1), runs, rng)
                rows.append(
                    dict(
                        method=method,
                        beta=beta,
                        T=T,
                        stream=stream,
                        pstar=cfg["pstar"],
                        eps_ratio=cfg["eps_ratio"],
                        failures=failures(halt_step, T, stream),
                        runs=runs,
                        samples_mean=float(samples.sum(axis=1).mean() / T),
                        source=tester.source,
                        budget=error_budget(tester, stream),
                        p_last=float(p[-1]),
                        rate_exact=tester.exact_error(p, halt_at_T=stream == "pbar_then_pstar"),
                    )
                )
    return pd.DataFrame(rows)
