"""fig_co_checkpoints: checkpoints ell(t) of BatchToCO vs t against Lemma 40's explicit bound, and calls of A per step
against Theorem 42(3) / Corollary 35(3).

An output that draws nothing (no simulation): its analysis reads the raw tables of the BatchToCO runs of
``fig_co_densest`` (two streams, one step per day / per 10-minute window), ``fig_co_maxcut`` (one step per edge) and
``fig_co_crossover`` (one step per contact / message, up to t = 125,773, recorded at log-spaced steps)
(catalogue ``reads``), with this section's BatchToCO constants, which must equal those of the summarised outputs (all
three sections merge the shared ``co`` block of config/config.yaml; :func:`runs_summary` checks them against the raw
rows' ``eps_t``).

Analysis (:func:`analyse`):

* ``summary``: per (stream, eps, t) the number of runs, mean and max of ell(t) over runs, OPT_t (``opt``), mean GTM
  calls N_t (``calls_mean``) and their exact expectation (``calls_expected``), with the explicit bounds:
  ``ell_bound`` = max{ell: (1+kappa)^ell < OPT_t + (2/eps(ell, t)) ln(1/pbar)} (Lemma 39(2) with OPT_t in place of
  Lemma 40's bound t, :func:`privtest.co.params.max_checkpoints`) and ``calls_bound`` = rho_s
  e^{1/C_1}/(1 - 2/(C_H ln(4/beta_s))) at the largest instance index max ell(t) + 1 and step index s = t - 1 (rho_s
  grows with both, so this bounds every run's step; NaN at t = 1; :func:`privtest.co.params.calls_bound`). The figure
  draws it.
* ``calls``: one row per (stream, eps) with, over the steps t >= 2, ``steps`` (their number),
  ``max_calls_ratio`` = max_t calls_mean / calls_bound (measured mean GTM calls of A per step over the explicit per-step
  bound) and ``max_expected_ratio`` = max_t calls_expected / calls_bound (the exact expectation E[N_t] over the bound;
  NaN if some step has no exact expectation). Dimensionless. The claims read it.

Claims (:func:`claims`, exact): the exact expected GTM calls of A per step never exceed the explicit per-step bound of
Theorem 42(3) / Corollary 35(3) (the measured mean is shown beside them).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.co.params import calls_bound, max_checkpoints
from privtest_artifact.claims import Claim, exact, fmt
from privtest_artifact.outputs import _co
from privtest_artifact.outputs._co import METHOD


def runs_summary(raw: dict[str, pd.DataFrame], cfg: dict) -> pd.DataFrame:
    """Rows per (stream, eps, t) of the BatchToCO runs in the raw tables ``raw`` (output id -> its raw table;
    fig_co_crossover's model rows left out): stream, eps, t, runs, ell_mean, ell_max, opt, calls_mean,
    calls_expected.

    Raises:
        ValueError: if this section's BatchToCO constants do not reproduce the runs' eps_t.
    """
    raw = pd.concat([raw[name] for name in sorted(raw)])
    raw = raw[raw.method == METHOD]
    if "source" in raw:  # fig_co_crossover: its runs, not its model rows
        raw = raw[raw.source.isna() | (raw.source == "run")]
    rows = []
    for (stream, eps), g in raw.groupby(["stream", "eps"], sort=True):
        params = _co.co_params(cfg, float(eps))
        run = g[g.t >= 2]
        stepped = np.where(run.t == run.t_ell, run.ell, run.ell + 1)  # the instance that stepped at t
        if not np.allclose(run.eps_t, params.eps_it(stepped, run.t.to_numpy()), rtol=1e-9, atol=0):
            raise ValueError(f"fig_co_checkpoints: its BatchToCO constants differ from those of the {stream} runs.")
        by_t = g.groupby("t")
        ell_mean, ell_max = by_t["ell"].mean(), by_t["ell"].max()
        opt = by_t["opt"].first()
        calls = by_t["gtm_calls"].mean()
        expected = by_t["expected_calls"].mean()
        for t in ell_mean.index:
            rows.append(
                dict(
                    stream=stream,
                    eps=eps,
                    t=int(t),
                    runs=int(g.run.nunique()),
                    ell_mean=ell_mean[t],
                    ell_max=int(ell_max[t]),
                    opt=float(opt[t]),
                    calls_mean=calls[t],
                    calls_expected=expected[t],
                )
            )
    return pd.DataFrame(rows)


def analyse(raw: dict[str, pd.DataFrame], cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``summary`` and ``calls`` (module docstring).

    Args:
        raw: output id -> raw table of the outputs this one reads (catalogue ``reads``: fig_co_densest,
            fig_co_maxcut, fig_co_crossover).
        cfg: the config section (the shared ``co`` constants, :func:`privtest_artifact.outputs._co.co_params`).
    """
    summary = with_bounds(runs_summary(raw, cfg), cfg)
    return {"summary": summary, "calls": calls(summary)}


def with_bounds(rows: pd.DataFrame, cfg: dict) -> pd.DataFrame:
    """The rows of :func:`runs_summary` with ``ell_bound`` and ``calls_bound`` (module docstring), columns in the
    figure data's order."""
    ell_bound, c_bound = [], []
    for r in rows.itertuples():
        params = _co.co_params(cfg, float(r.eps))
        ell_bound.append(max_checkpoints(params, float(r.opt), int(r.t)))
        c_bound.append(calls_bound(params, int(r.ell_max) + 1, int(r.t) - 1, int(r.t)) if r.t >= 2 else np.nan)
    out = rows.assign(ell_bound=ell_bound, calls_bound=c_bound)
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


#: Relative slack of the exact comparison E[N_t] <= bound (floating point).
RTOL = 1e-9


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """Per (stream, eps): the exact E[N_t] of every step t >= 2 is <= Theorem 42(3)'s explicit per-step bound
    (exact; the measured mean is shown beside it). Reads the table ``calls`` of :func:`analyse`."""
    out = []
    for r in tables["calls"].itertuples():
        tag = f"{r.stream},eps={r.eps}"
        ratio = float(r.max_calls_ratio)
        out.append(
            exact(
                claim_id=f"co.calls_vs_bound[{tag}]",
                source="Thm 42(3), Cor 35(3)",
                statement="expected GTM calls of A per step E[N_t] <= rho_s e^{1/C_1}/(1 - 2/(C_H ln(4/beta_s))) "
                "= O(ln(t/beta)/(p*(gamma-1)^2))",
                measured=f"max_t E[N_t] / bound = {fmt(float(r.max_expected_ratio))} (measured mean: {fmt(ratio)})",
                bound="<= 1",
                ok=bool(r.max_expected_ratio <= 1 + RTOL),  # False if NaN
                note="verdict on the exact expectation E[N_t] (the measured mean is shown; Monte Carlo agreement is "
                "checked "
                "by co.calls_per_step)",
            )
        )
    return out
