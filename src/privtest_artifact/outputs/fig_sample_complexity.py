"""fig_sample_complexity: evaluations per step N_t vs t, measured (mean and (1-beta)-quantile over runs) against each
tester's per-step bound (Table 1's sample complexity; GTM: Lemma 22(1) with the algorithm's explicit rho_t Lambda_t in
place of C_A).

Simulation (:func:`simulate`): the stream keeps every run going (p_t = the tester's pbar_t), so N_t is observed at every
t <= T. Raw rows per tester, eps_ratio, p* and recorded step t (``points`` log-spaced steps, always t = T): the mean,
(1-beta)-quantile and max of N_t over runs, the per-step bound and its failure budget, and ``exceed_runs``.

Analysis (:func:`analyse`):

* ``series``: the raw rows as drawn (``figures/data/fig_sample_complexity.csv``): t, samples_mean, samples_quantile,
  bound (evaluations per step) per (method, eps_ratio, pstar);
* ``summary``: one row per (method, eps_ratio, pstar), in simulation order: ``T`` (the last recorded step),
  ``exceed_runs`` (runs whose N_t exceeded the bound at some t <= T) of ``runs``, the failure ``budget``, the tester's
  ``source``, ``max_mean_to_bound`` (max over t of mean N_t / bound, NaN without a bound) and ``claimed``: whether
  Lemma 22(1)'s rate is a claim (finite bound and budget, budget > 0: a deterministic N_t, budget 0, meets its bound by
  construction, a unit test).

Claims (:func:`claims`): the fraction of runs whose N_t ever exceeds the tester's per-step bound is within the bound's
failure budget (Lemma 22(1) for the GTM). For the GTM: on the good-noise event lambda_t <= lambda_max_t for all t, and
Pr[N_t > e lambda_max_t] <= beta_t/4 (Lemma 22(1) tail, Lemma 55). Unconditionally, Pr[exists t <= T: N_t > e
max(lambda_max_t, ln(4/beta_t))] is at most the tester's ``sample_budget(T)``: beta_t/4 per direct step (eta_2,t tail;
eta_1 > mu1 only lowers lambda_t there), beta/4 once if some step is flipped (there lambda_t <= rho_t needs
eta_1 <= mu1), and beta_t/4 per step for the Poisson tail: beta/2, or 3 beta/4 when the stream uses the flipped variant.
Testers whose N_t is deterministic (Cohen et al., Liu-Talwar: budget 0) meet their bound by construction; that identity
is a unit test (tests/test_baselines.py), not a claim.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.testers import bernoulli_stream
from privtest_artifact.claims import Claim
from privtest_artifact.outputs._common import rate_claim
from privtest_artifact.registry import make_tester


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


#: Columns of the table ``summary``.
SUMMARY_COLUMNS = ["method", "eps_ratio", "pstar", "T", "exceed_runs", "runs", "budget", "source",
                   "max_mean_to_bound", "claimed"]  # fmt: skip


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables of the module docstring; ``cfg`` (the config section) is not needed."""
    return {"series": raw.copy(), "summary": summarize(raw)}


def summarize(raw: pd.DataFrame) -> pd.DataFrame:
    """The table ``summary`` (module docstring) of the raw rows (columns method, eps_ratio, pstar, t, samples_mean,
    bound, exceed_runs, runs, budget, source; the last row of a setting is its T)."""
    rows = []
    for (method, ratio, pstar), g in raw.groupby(["method", "eps_ratio", "pstar"], sort=False):
        last = g.iloc[-1]
        finite = not (np.isnan(last.bound) or np.isnan(last.budget))
        rows.append(
            dict(
                method=method,
                eps_ratio=ratio,
                pstar=pstar,
                T=int(last.t),
                exceed_runs=int(last.exceed_runs),
                runs=int(last.runs),
                budget=float(last.budget),
                source=last.source,
                max_mean_to_bound=float(g.samples_mean.div(g.bound).max()),
                claimed=bool(finite and last.budget != 0),
            )
        )
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """Per tester and setting: fraction of runs whose N_t ever exceeds its bound <= the tester's budget, from the table
    ``summary`` of :func:`analyse`."""
    summary = tables["summary"]
    out = []
    for r in summary[summary.claimed.astype(bool)].itertuples():
        out.append(
            rate_claim(
                f"sample_complexity.{r.method}[r={r.eps_ratio},p*={r.pstar},T={int(r.T)}]",
                f"{r.source}, Lemma 22(1)",
                f"{r.method}: Pr[N_t > per-step bound for some t <= T] <= failure budget of Lemma 22(1)'s proof",
                int(r.exceed_runs),
                int(r.runs),
                float(r.budget),
                f"max over t of mean N_t / bound = {r.max_mean_to_bound:.3g}; bound uses the explicit "
                "rho_t Lambda_t instead of the unspecified C_A",
            )
        )
    return out
