"""fig_sample_complexity: evaluations per step N_t vs t, measured (mean and (1-beta)-quantile over runs) against
each tester's per-step bound (GTM: Lemma 22(1) with the algorithm's explicit rho_t Lambda_t in place of C_A).

The stream keeps every run going (p_t = the tester's pbar_t), so N_t is observed at every t <= T.
Claim (GTM): on the good-noise event lambda_t <= lambda_max_t for all t, and Pr[N_t > e lambda_max_t] <= beta_t/4
(Lemma 22(1) tail, Lemma 55); unconditionally Pr[exists t: N_t > e max(lambda_max_t, ln(4/beta_t))] <= beta/2
(eta_2,t tails beta_t/4 plus Poisson tails beta_t/4, summed over t; eta_1 > mu1 only lowers lambda_t on the direct
path and does not enter the flipped one).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.claims import Claim
from privtest.experiments._checks import rate_claim
from privtest.testers import bernoulli_stream, make_tester


def simulate(cfg: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Per (method, eps_ratio, pstar) and log-spaced t (``points`` of them, always t = T): mean,
    (1-beta)-quantile and max of N_t over runs, the bound, and ``exceed_runs``, the number of runs whose N
    exceeded the bound at some step <= t."""
    rows = []
    T, runs = cfg["T"], cfg["runs"]
    for method in cfg["methods"]:
        for ratio in cfg["eps_ratio"]:
            for pstar in cfg["pstar"]:
                tester = make_tester(method, cfg, pstar, ratio, T)
                p = np.array([max(tester.pbar(t), 0.0) for t in range(1, T + 1)])
                _, samples = tester.run(bernoulli_stream(p, ratio * cfg["eps"]), runs, rng)
                has_bound = hasattr(tester, "sample_bound")
                bound = np.array([tester.sample_bound(t) if has_bound else np.nan for t in range(1, T + 1)])
                exceed = np.cumsum(samples > bound[None, :], axis=1) > 0  # run exceeded at some step <= t
                q = np.quantile(samples, 1 - cfg["beta"], axis=0, method="higher")
                for t in np.unique(np.rint(np.geomspace(1, T, cfg["points"])).astype(int)):
                    rows.append(
                        dict(
                            method=method,
                            eps_ratio=ratio,
                            pstar=pstar,
                            t=t,
                            samples_mean=float(samples[:, t - 1].mean()),
                            samples_quantile=int(q[t - 1]),
                            samples_max=int(samples[:, t - 1].max()),
                            bound=float(bound[t - 1]),
                            exceed_runs=int(exceed[:, t - 1].sum()),
                            runs=runs,
                            source=tester.source,
                        )
                    )
    return pd.DataFrame(rows)


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """Per tester and setting: fraction of runs whose N_t ever exceeds its bound <= beta/2 (GTM, Lemma 22(1))."""
    out = []
    for (method, ratio, pstar), g in raw.groupby(["method", "eps_ratio", "pstar"], sort=False):
        last = g.iloc[-1]
        if np.isnan(last.bound):
            continue
        out.append(
            rate_claim(
                f"sample_complexity.{method}[r={ratio},p*={pstar},T={int(last.t)}]",
                f"{last.source}; Lemma 22(1)",
                f"{method}: Pr[N_t > per-step bound for some t <= T] <= beta/2",
                "fig_sample_complexity",
                int(last.exceed_runs),
                int(last.runs),
                cfg["beta"] / 2,
                f"max over t of mean N_t / bound = {g.samples_mean.div(g.bound).max():.3g}; bound uses the explicit "
                "rho_t Lambda_t instead of the unspecified C_A",
            )
        )
    return out
