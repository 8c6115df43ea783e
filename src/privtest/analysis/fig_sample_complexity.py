"""Analysis of fig_sample_complexity (:mod:`privtest.experiments.fig_sample_complexity`'s raw rows: per tester,
eps_ratio, p* and recorded step t the mean, (1-beta)-quantile and max of N_t over runs, the per-step bound and its
failure budget, and ``exceed_runs``): the tables its check and figure read (Lemma 22(1), Table 1).

* ``series``: the raw rows as drawn (``figures/data/fig_sample_complexity.csv``): t, samples_mean,
  samples_quantile, bound (evaluations per step) per (method, eps_ratio, pstar);
* ``summary``: one row per (method, eps_ratio, pstar), in simulation order: ``T`` (the last recorded step),
  ``exceed_runs`` (runs whose N_t exceeded the bound at some t <= T) of ``runs``, the failure ``budget``, the
  tester's ``source``, ``max_mean_to_bound`` (max over t of mean N_t / bound, NaN without a bound) and ``claimed``:
  whether Lemma 22(1)'s rate is a claim (finite bound and budget, budget > 0: a deterministic N_t, budget 0, meets
  its bound by construction, a unit test).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

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
