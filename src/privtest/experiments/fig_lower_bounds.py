"""fig_lower_bounds: upper vs lower bounds (Table 1, Corollary 30, Theorem 31).

(a) log(p*/pbar_T) vs log(T/beta) for T on a log grid (at each beta of ``betas``): GTM (Theorem 21, its guaranteed
pbar_T), Liu-Talwar (Theorem 46(2)), Cohen et al. (Proposition 48, proof) and the lower bound log Lambda_0
(Corollary 30, case 1, p* <= 1/2). Exact evaluations.
(b) Evaluations per step vs beta at p* <= 1/2 and T = ``T_samples``: GTM measured (mean N_t over ``runs`` runs of T
steps while continuing, :mod:`privtest.measure`), Cohen's N_t and its measured mean, Liu-Talwar's N (eq. 25), and
Theorem 31's lower bound with beta_t^II = beta (Remark 32).
(c) claims only: classic AboveThreshold (Dwork-Roth), the standard test Theorem 29 starts from: its measured error
rate at accuracy alpha, and alpha_+ + alpha_- = 2 alpha against Theorem 29's bound.
Claims: :mod:`privtest.checks.fig_lower_bounds`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest import bounds
from privtest.baselines.above_threshold import AboveThreshold
from privtest.registry import make_tester


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Rows with panel "a" (method, beta, T, x = ln(T/beta), y = ln(p*/pbar_T)), panel "b" (method, beta,
    samples, samples_sd, runs; kind = theory/measured) and panel "c" (AboveThreshold). No ``inputs``."""
    eps, r, ps = cfg["eps"], cfg["eps_ratio"], cfg["pstar"]
    eps1 = r * eps
    rows = []
    for beta in cfg["betas_a"]:
        for T in np.unique(np.rint(np.geomspace(cfg["T_min"], cfg["T_max"], cfg["points"])).astype(np.int64)):
            T = int(T)
            x = math.log(T / beta)
            vals = {
                "GTM": bounds.gtm_rejection_threshold(T, ps, eps, eps1, beta, cfg["theta"], cfg["gamma"]),
                "LiuTalwar": bounds.liu_talwar_rejection_threshold(T, ps, eps, eps1, beta, cfg["eps0"]),
                "Cohen": bounds.cohen_rejection_threshold(T, ps, eps, eps1, beta),
            }
            for m, v in vals.items():
                rows.append(dict(panel="a", kind="theory", method=m, beta=beta, T=T, x=x, y=math.log(ps / v)))
            rows.append(
                dict(
                    panel="a",
                    kind="theory",
                    method="LowerBound",
                    beta=beta,
                    T=T,
                    x=x,
                    y=bounds.lower_bound_log_noise_penalty(T, eps, eps1, beta),
                )
            )
    T = cfg["T_samples"]
    for beta in cfg["betas_b"]:
        bcfg = {**cfg, "beta": beta}
        lb = bounds.lower_bound_sample_complexity(ps, eps, eps1, beta)
        rows.append(dict(panel="b", kind="theory", method="LowerBound", beta=beta, T=T, samples=lb))
        for method in ("Cohen", "LiuTalwar"):  # deterministic evaluations per step (Algorithm 4, eq. 25)
            bound = make_tester(method, bcfg, ps, r, T).sample_bound(T)
            rows.append(dict(panel="b", kind="theory", method=method, beta=beta, T=T, samples=bound))
        for method in ("GTM", "Cohen"):
            cp = make_tester(method, bcfg, ps, r, T).critical_p(T, cfg["runs"], rng)
            rows.append(
                dict(
                    panel="b",
                    kind="measured",
                    method=method,
                    beta=beta,
                    T=T,
                    samples=float(cp.samples.mean()),
                    samples_sd=float(cp.samples.std(ddof=1)),
                    runs=cp.runs,
                    lower_bound=lb,
                )
            )
    # Panel c (claims only): classic AboveThreshold, where Theorem 29 starts. Stream f_t = tau - alpha (t < T),
    # f_T = tau + alpha with Dwork-Roth's alpha; an error is halting before T or not at T.
    for beta in cfg["betas_a"]:
        at = AboveThreshold(eps, beta, T)
        alpha = at.alpha
        f = np.r_[np.full(T - 1, at.pbar(T)), at.halt_p(T)]  # tau -+ alpha with tau = 0
        halt, _ = at.run(f, cfg["runs"], rng)
        rows.append(
            dict(
                panel="c",
                kind="measured",
                method="AboveThreshold",
                beta=beta,
                T=T,
                alpha=alpha,
                errors=int(np.count_nonzero(halt != T)),
                runs=cfg["runs"],
                alpha_sum_lower=bounds.thm29_alpha_sum(T, eps, beta),
            )
        )
    return pd.DataFrame(rows)
