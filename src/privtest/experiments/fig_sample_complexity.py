"""fig_sample_complexity: evaluations per step N_t vs t, measured (mean and (1-beta)-quantile over runs) against
each tester's per-step bound (GTM: Lemma 22(1) with the algorithm's explicit rho_t Lambda_t in place of C_A).

The stream keeps every run going (p_t = the tester's pbar_t), so N_t is observed at every t <= T.
Claim (GTM): on the good-noise event lambda_t <= lambda_max_t for all t, and Pr[N_t > e lambda_max_t] <= beta_t/4
(Lemma 22(1) tail, Lemma 55). Unconditionally, Pr[exists t <= T: N_t > e max(lambda_max_t, ln(4/beta_t))] is at most
the tester's ``sample_budget(T)``: beta_t/4 per direct step (eta_2,t tail; eta_1 > mu1 only lowers lambda_t there),
beta/4 once if some step is flipped (there lambda_t <= rho_t needs eta_1 <= mu1), and beta_t/4 per step for the
Poisson tail: beta/2, or 3 beta/4 when the stream uses the flipped variant.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.registry import make_tester
from privtest.testers import bernoulli_stream


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Per (method, eps_ratio, pstar) and log-spaced t (``points`` of them, always t = T): mean,
    (1-beta)-quantile and max of N_t over runs, the tester's per-step bound and its failure budget, and
    ``exceed_runs``, the number of runs whose N exceeded the bound at some step <= t (no ``inputs``)."""
    rows = []
    T, runs = cfg["T"], cfg["runs"]
    for method in cfg["methods"]:
        for ratio in cfg["eps_ratio"]:
            for pstar in cfg["pstar"]:
                tester = make_tester(method, cfg, pstar, ratio, T)
                p = np.array([max(tester.pbar(t), 0.0) for t in range(1, T + 1)])
                _, samples = tester.run(bernoulli_stream(p, ratio * cfg["eps"]), runs, rng)
                budget = tester.sample_budget(T)
                bound = np.array([tester.sample_bound(t) for t in range(1, T + 1)])
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
                            budget=budget,
                            runs=runs,
                            source=tester.source,
                        )
                    )
    return pd.DataFrame(rows)
