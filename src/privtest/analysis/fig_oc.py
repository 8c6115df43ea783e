"""Analysis of fig_oc (:mod:`privtest.experiments.fig_oc`'s raw counts, one row per (t, eps_t/eps, p*, variant, p)
of one GTM step): the tables its check and figure read.

* ``summary``: the raw columns plus the halting probability ``halt_prob`` = halts/runs and its 95% Clopper-Pearson
  interval (``ci_low``, ``ci_high``), next to the exact value and pbar_t (the figure data);
* ``curves``: one row per curve (t, eps_ratio, pstar, variant), sorted by them (:func:`curves`): the per-step error
  probabilities of the proof of Theorem 21 at p_t = p* and p_t = pbar_t, each exact (:mod:`privtest.exact`) with its
  bound (:func:`privtest.gtm.halt_miss_bound`, :func:`privtest.gtm.continue_bound`) and its Monte Carlo count, which
  the claims (:mod:`privtest.checks.fig_oc`) compare.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.gtm import continue_bound, halt_miss_bound
from privtest.stats import clopper_pearson

#: Two-sided level of the plotted intervals.
CONFIDENCE = 0.95
#: Columns of the table ``curves``.
CURVE_COLUMNS = ["t", "eps_ratio", "pstar", "variant", "pbar", "miss_good_exact", "beta_II", "misses_good",
                 "good_runs", "miss_exact", "miss_bound", "misses", "runs", "halt_pbar_exact", "continue_bound",
                 "halts_pbar", "runs_pbar"]  # fmt: skip


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``summary`` and ``curves`` (module docstring); ``cfg``: the config section (``beta``)."""
    return {"summary": summarize(raw), "curves": curves(raw, cfg["beta"])}


def summarize(raw: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """The raw counts (columns ``halts``, ``runs``, ...) with halt_prob = halts/runs and its Clopper-Pearson interval
    (ci_low, ci_high) at ``confidence`` in (0, 1) (ValueError otherwise, :func:`privtest.stats.clopper_pearson`)."""
    df = raw.copy()
    df["halt_prob"] = df["halts"] / df["runs"]
    df["ci_low"], df["ci_high"] = clopper_pearson(df["halts"].to_numpy(), df["runs"].to_numpy(), confidence)
    return df


def curves(raw: pd.DataFrame, beta: float) -> pd.DataFrame:
    """One row per curve (t, eps_ratio, pstar, variant) of ``raw``, sorted by them, with pbar (pbar_t) and:

    * at the grid point p = p*: ``miss_good_exact`` = Pr[no halt | eta_1 <= mu1] with its bound ``beta_II``
      (beta_t/4, from the simulation's calibration) and its count ``misses_good`` of ``good_runs``; ``miss_exact`` =
      1 - Pr[halt] with its bound ``miss_bound`` = beta/4 + beta_t/4 (:func:`privtest.gtm.halt_miss_bound`) and its
      count ``misses`` of ``runs``;
    * at the grid point p = pbar_t where pbar_t > 0 (NaN otherwise: no p_t in [0, 1] lies below pbar_t):
      ``halt_pbar_exact`` = Pr[halt] with its bound ``continue_bound`` = beta_t/2
      (:func:`privtest.gtm.continue_bound`) and its count ``halts_pbar`` of ``runs_pbar``.

    Raises:
        ValueError: if beta is not in (0, 1) (:func:`privtest.gtm.step_budget`).
    """
    rows = []
    for (t, ratio, pstar, variant), g in raw.groupby(["t", "eps_ratio", "pstar", "variant"], sort=True):
        at_star = g[np.isclose(g["p"], pstar)].iloc[0]
        pbar = float(g["pbar"].iloc[0])
        row = dict(
            t=t,
            eps_ratio=ratio,
            pstar=pstar,
            variant=variant,
            pbar=pbar,
            miss_good_exact=float(at_star.miss_good_exact),
            beta_II=float(at_star.beta_II),
            misses_good=int(at_star.good_runs - at_star.good_halts),
            good_runs=int(at_star.good_runs),
            miss_exact=1.0 - float(at_star.halt_prob_exact),
            miss_bound=float(halt_miss_bound(int(t), beta)),
            misses=int(at_star.runs - at_star.halts),
            runs=int(at_star.runs),
            halt_pbar_exact=np.nan,
            continue_bound=float(continue_bound(int(t), beta)),
            halts_pbar=np.nan,
            runs_pbar=np.nan,
        )
        if pbar > 0:
            at_bar = g[np.isclose(g["p"], pbar)].iloc[0]
            row.update(
                halt_pbar_exact=float(at_bar.halt_prob_exact), halts_pbar=int(at_bar.halts), runs_pbar=int(at_bar.runs)
            )
        rows.append(row)
    return pd.DataFrame(rows, columns=CURVE_COLUMNS)
