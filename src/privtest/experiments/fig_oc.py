"""fig_oc: operating characteristic of one GTM step (Theorem 21): halting probability vs p_t.

For each step index t, input-privacy ratio eps_t/eps and case (acceptance threshold p* and variant), the step's
parameters come from :class:`~privtest.GlobalCalibration` and its halting probability is estimated by Monte Carlo,
each replication drawing its own eta_1 (Algorithm 1's Init) and eta_2,t, and computed exactly (``halt_prob_exact``,
eta_1 and eta_2,t integrated out by :func:`privtest.exact.step_log_halt`; ``miss_good_exact``, the continuation
probability given eta_1 <= mu1, by :func:`privtest.exact.step_log_probs`).

Claims (:mod:`privtest.checks.fig_oc`; per-step error bounds read off the proof of Theorem 21, each checked on the
exact value with the Monte Carlo estimate beside it: Monte Carlo cannot resolve beta_t/4 ~ 1e-6 at t = 100):
  * Type II at p = p*: Pr[no halt | eta_1 <= mu1] <= beta_t/4 (Lemma 20 with lambda_t >= rho_t, resp. <= rho_t when
    flipped, Lemma 19(3)).
  * Type I at p = pbar_t: Pr[halt] <= Pr[eta_2,t > tau2 ln(4/beta_t)] + beta_t/4 = beta_t/2.
  * Type II at p = p*: Pr[no halt] <= beta/4 + beta_t/4 (unconditional).
The per-step budget beta_t of the theorem holds only conditioned on the good-noise event G (Lemma 19), whose
eta_1 part (probability beta/4) is shared by all steps; the measured miss rate at p* shows the difference.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.exact import step_log_halt, step_log_probs
from privtest.gtm import GlobalCalibration
from privtest.runs import halting_counts


def p_grid(pstar: float, pbar: float, s: int, points: int) -> np.ndarray:
    """Grid of p_t for one curve: log-spaced in p (direct) or in 1 - p (flipped), always containing p* and pbar."""
    if s == 1:
        lo = max(pbar, pstar * 1e-4) / 4
        grid = np.geomspace(lo, min(1.0, 4 * pstar), points)
    else:
        q_star = 1 - pstar
        q_hi = min(1.0, max(1 - pbar, 1.5 * q_star) * 2) if pbar > 0 else min(1.0, 8 * q_star)
        grid = 1 - np.geomspace(q_star / 8, q_hi, points)
    extra = [pstar] + ([pbar] if pbar > 0 else [])
    return np.unique(np.clip(np.concatenate([grid, extra]), 0.0, 1.0))


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Halting counts of one step on a grid of p_t for every (t, eps_ratio, case) of ``cfg`` (no ``inputs``).

    Returns:
        DataFrame with one row per grid point: t, eps_ratio, pstar, variant, s, c, rho, Lambda, p, halts, runs,
        samples_mean, pbar, beta_II, good_runs/good_halts (replications with eta_1 <= mu1 and their halts),
        halt_prob_exact and miss_good_exact (quadrature: Pr[halt]; Pr[no halt | eta_1 <= mu1]).
    """
    rows = []
    for case in cfg["cases"]:
        cal = GlobalCalibration(cfg["eps"], cfg["beta"], cfg["theta"], cfg["gamma"], case["variant"])
        for t in cfg["t"]:
            for ratio in cfg["eps_ratio"]:
                st = cal.step(t, ratio * cfg["eps"], case["pstar"])
                p = p_grid(st.pstar, st.pbar, st.s, cfg["points"])
                hc = halting_counts(st, p, cfg["runs"], rng)
                exact = np.exp(step_log_halt(st, p))
                miss_good = np.exp(step_log_probs(st, p, eta1_max=st.mu1)[1])
                for pi, h, n, gr, gh, ex, mg in zip(
                    p, hc.halts, hc.samples, hc.good_runs, hc.good_halts, exact, miss_good, strict=True
                ):
                    rows.append(
                        dict(
                            t=t,
                            eps_ratio=ratio,
                            pstar=st.pstar,
                            variant=case["variant"],
                            s=st.s,
                            c=st.c,
                            rho=st.rho,
                            Lambda=st.Lambda,
                            p=pi,
                            halts=h,
                            runs=cfg["runs"],
                            samples_mean=n / cfg["runs"],
                            pbar=st.pbar,
                            beta_II=st.beta_II,
                            good_runs=gr,
                            good_halts=gh,
                            halt_prob_exact=ex,
                            miss_good_exact=mg,
                        )
                    )
    return pd.DataFrame(rows)
