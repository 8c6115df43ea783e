"""Analysis of fig_co_checkpoints (:mod:`privtest.experiments.fig_co_checkpoints`'s rows per (stream, eps, t): the
BatchToCO runs of fig_co_densest, fig_co_maxcut and fig_co_crossover summarised, with the bounds of Lemma 39(2) /
Lemma 40 and Theorem 42(3) / Corollary 35(3)).

``summary``: the raw rows (stream, eps, t, runs, ell_mean, ell_max, opt = OPT_t, calls_mean, calls_expected) with
the explicit bounds: ``ell_bound`` = max{ell: (1+kappa)^ell < OPT_t + (2/eps(ell, t)) ln(1/pbar)} (Lemma 39(2) with
OPT_t in place of Lemma 40's bound t, :func:`privtest.co.params.lemma40_max_checkpoints`) and ``calls_bound`` =
rho_s e^{1/C_1}/(1 - 2/(C_H ln(4/beta_s))) at the largest instance index max ell(t) + 1 and step index s = t - 1
(rho_s grows with both, so this bounds every run's step; NaN at t = 1; :func:`privtest.co.params.calls_bound`),
both with the section's BatchToCO constants (``cfg``). The figure draws it.

``calls``: one row per (stream, eps) with, over the steps t >= 2, ``steps`` (their number), ``max_calls_ratio`` =
max_t calls_mean / calls_bound (measured mean GTM calls of A per step over the explicit per-step bound) and
``max_expected_ratio`` = max_t calls_expected / calls_bound (the exact expectation E[N_t] over the bound; NaN if some
step has no exact expectation). Dimensionless. The claims (:mod:`privtest.checks.fig_co_checkpoints`) read it; the
figure draws the raw rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.co.params import BatchToCOParams, calls_bound, lemma40_max_checkpoints


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``summary`` and ``calls`` (module docstring); ``cfg``: the config section (the shared ``co``
    constants, :meth:`privtest.co.params.BatchToCOParams.from_config`)."""
    summary = with_bounds(raw, cfg)
    return {"summary": summary, "calls": calls(summary)}


def with_bounds(raw: pd.DataFrame, cfg: dict) -> pd.DataFrame:
    """The raw rows with ``ell_bound`` and ``calls_bound`` (module docstring), columns in the figure data's order."""
    ell_bound, c_bound = [], []
    for r in raw.itertuples():
        params = BatchToCOParams.from_config(cfg, float(r.eps))
        ell_bound.append(lemma40_max_checkpoints(params, float(r.opt), int(r.t)))
        c_bound.append(calls_bound(params, int(r.ell_max) + 1, int(r.t) - 1, int(r.t)) if r.t >= 2 else np.nan)
    out = raw.assign(ell_bound=ell_bound, calls_bound=c_bound)
    columns = ["stream", "eps", "t", "runs", "ell_mean", "ell_max", "ell_bound", "calls_mean", "calls_expected"]
    return out[[*columns, "calls_bound", "opt"]]


def calls(summary: pd.DataFrame) -> pd.DataFrame:
    """The table ``calls`` (module docstring) from the rows with their bounds."""
    rows = []
    for (stream, eps), g in summary.groupby(["stream", "eps"], sort=True):
        over = g[g.t >= 2]
        rows.append(
            dict(
                stream=stream,
                eps=eps,
                steps=len(over),
                max_calls_ratio=float((over.calls_mean / over.calls_bound).max()),
                max_expected_ratio=float((over.calls_expected / over.calls_bound).max(skipna=False)),
            )
        )
    columns = ["stream", "eps", "steps", "max_calls_ratio", "max_expected_ratio"]
    return pd.DataFrame(rows, columns=columns)
