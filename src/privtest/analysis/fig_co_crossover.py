"""Analysis of fig_co_crossover (:mod:`privtest.experiments.fig_co_crossover`'s raw rows): BatchToCO's lead over
each baseline per recorded step, measured from the runs and predicted from the model rows (``differences``), the
predicted and measured crossover per (stream, eps, baseline) with the measured trend at T (``crossovers``), and
what the figure draws: mean and 10-90% band of f/OPT_t per (stream, eps, method, t) (``summary``).

What the long-run claims compare with the paper's bounds, from the BatchToCO runs (``source = "run"``;
:mod:`privtest.analysis._co`): ``privacy`` per eps (Lemma 38's ledger, the realised ex-post loss), and per (stream,
eps) in the order of the raw rows ``checkpoints`` (Lemma 40, with Lemma 40's explicit bound at T, ``ell_bound_T``),
``calls`` (Theorem 42(3) up to t = T, :func:`long_run_calls`) and ``utility`` (Theorem 42(2)).

Analysis keys of the config section (``x-stage: analysis``, never passed to the simulation): ``crossover_alpha``
(two-sided level of ahead/behind, Bonferroni over the recorded steps) and ``tie_tolerance`` (a lead below it is a
tie); the check also reads ``equivalence_margin``.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from privtest.analysis import _co
from privtest.co.batch_to_co import BASELINES
from privtest.co.calls import calls_ratio
from privtest.co.frames import METHOD, METHOD_L40, plotted

#: Methods drawn in the figure, in legend order.
PLOTTED = [METHOD, *BASELINES]
#: Relative slack of the exact comparison E[N_t] <= Theorem 42(3)'s explicit bound (floating point).
RTOL = 1e-9
#: Columns of the table ``calls``.
CALLS = [
    "stream",
    "eps",
    "runs",
    "steps",
    "steps_per_run",
    "max_expected_ratio",
    "steps_over_bound",
    "expected_calls_T",
    "calls_ratio_mean",
    "calls_ratio_se",
    "calls_ratio_runs",
    "calls_mean_T",
]


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``differences``, ``crossovers``, ``summary``, ``privacy``, ``checkpoints``, ``calls`` and
    ``utility`` (module docstring) of one build's raw rows.

    Args:
        raw: the rows of :func:`privtest.experiments.fig_co_crossover.simulate` (``source`` "run" and "model").
        cfg: the output's config section (keys ``crossover_alpha`` in (0, 1), ``tie_tolerance`` >= 0; BatchToCO's
            constants for ``privacy``).

    Raises:
        ValueError: if ``crossover_alpha`` is not in (0, 1) or ``tie_tolerance`` is negative.
    """
    diffs = differences(raw, cfg)
    runs = raw[raw.source == "run"]
    return {
        "differences": diffs,
        "crossovers": crossovers(diffs, cfg),
        "summary": summarize(raw),
        "privacy": _co.privacy(runs, cfg),
        "checkpoints": long_run_checkpoints(runs),
        "calls": long_run_calls(runs),
        "utility": _co.utility(runs, sort=False),
    }


def _analysis_keys(cfg: dict) -> tuple[float, float]:
    """``crossover_alpha`` and ``tie_tolerance`` of the config section, validated (ValueError naming the key)."""
    alpha, tol = float(cfg["crossover_alpha"]), float(cfg["tie_tolerance"])
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"crossover_alpha must be in (0, 1), got {alpha}.")
    if not tol >= 0.0:
        raise ValueError(f"tie_tolerance must be >= 0, got {tol}.")
    return alpha, tol


def differences(raw: pd.DataFrame, cfg: dict) -> pd.DataFrame:
    """Per (stream, eps, baseline, recorded t): the lead d = mean f/OPT_t of BatchToCO minus that of the baseline,
    measured from the runs (``d_meas``, standard error ``se_meas`` from the spreads of both methods' independent runs)
    and predicted from the model rows (``d_pred``, ``se_pred``; ``d_pred_l40`` with Lemma 40's ell), BatchToCO's
    and the baseline's per-call eps (``eps_bco``, ``eps_base``), ``runs``, and the state of each (+1 ahead, -1 behind,
    0 tie: |d| must exceed max(z se, ``cfg["tie_tolerance"]``), z the two-sided normal quantile at
    ``cfg["crossover_alpha"]`` Bonferroni-corrected over the stream's recorded steps): ``state_meas``,
    ``state_pred``, ``state_pred_l40``."""
    alpha, tol = _analysis_keys(cfg)
    runs = plotted(raw[raw.source == "run"]).assign(ratio=lambda d: d.value / d.opt)
    model = raw[raw.source == "model"].assign(ratio=lambda d: d.value / d.opt, ratio_se=lambda d: d.value_se / d.opt)
    meas = runs.groupby(["stream", "eps", "method", "t"])["ratio"].agg(["mean", "std", "count"])
    meas["se"] = meas["std"].fillna(0.0) / np.sqrt(meas["count"])
    pred = model.set_index(["stream", "eps", "method", "t"])[["ratio", "ratio_se", "eps_call"]].sort_index()
    out = []
    for (stream, eps), g in runs.groupby(["stream", "eps"], sort=False):
        ts = np.sort(g.t.unique())
        z = float(stats.norm.ppf(1.0 - alpha / (2.0 * ts.size)))
        a = meas.loc[(stream, eps, METHOD)].reindex(ts)
        pa, pl = pred.loc[(stream, eps, METHOD)].reindex(ts), pred.loc[(stream, eps, METHOD_L40)].reindex(ts)
        for baseline in BASELINES:
            b = meas.loc[(stream, eps, baseline)].reindex(ts)
            pb = pred.loc[(stream, eps, baseline)].reindex(ts)
            f = pd.DataFrame(
                dict(
                    stream=stream,
                    eps=eps,
                    baseline=baseline,
                    t=ts,
                    runs=int(g.run.nunique()),
                    d_meas=(a["mean"] - b["mean"]).to_numpy(),
                    se_meas=np.hypot(a.se, b.se).to_numpy(),
                    d_pred=(pa.ratio - pb.ratio).to_numpy(),
                    se_pred=np.hypot(pa.ratio_se, pb.ratio_se).to_numpy(),
                    d_pred_l40=(pl.ratio - pb.ratio).to_numpy(),
                    se_pred_l40=np.hypot(pl.ratio_se, pb.ratio_se).to_numpy(),
                    eps_bco=pa.eps_call.to_numpy(),
                    eps_base=pb.eps_call.to_numpy(),
                )
            )
            for suffix in ("meas", "pred", "pred_l40"):
                f[f"state_{suffix}"] = _state(f[f"d_{suffix}"].to_numpy(), f[f"se_{suffix}"].to_numpy(), z, tol)
            out.append(f)
    return pd.concat(out, ignore_index=True)


def crossovers(diffs: pd.DataFrame, cfg: dict) -> pd.DataFrame:
    """Predicted and measured crossover of BatchToCO over each baseline, per (stream, eps, baseline).

    From the table of :func:`differences` (``diffs``): the crossover is the first recorded t >= 2 at which BatchToCO
    is ahead and after which it is never behind (inf if none), measured (``t_meas``) and predicted (``t_pred``;
    ``t_pred_lemma40`` with Lemma 40's explicit ell). ``t_eps`` is the first t after which BatchToCO's per-call eps
    (at the median ell(t)) is never below the baseline's: the crossover of the constants alone.

    Returns:
        DataFrame with stream, eps, baseline, model ("CO" or "oracle horizon"), t_pred, t_pred_lemma40, t_meas,
        t_eps (float, inf if not reached), steps_pred_ahead, steps_pred_behind (recorded steps t >= 2 where
        BatchToCO is predicted ahead, resp. behind: the steps the lead claim decides on), first_ahead, last_ahead
        (recorded steps where BatchToCO is measured ahead; NaN if never), first_behind, last_behind (likewise
        behind), T, runs, and the measured trend at the end:
        state_last ("ahead", "behind", "tie"), diff_last, se_last (f/OPT_t units), slope_last_decade (change of the
        lead per decade of t over the last decade of recorded steps), runs_to_resolve (runs per method that would
        resolve a tie at the last step if the observed lead held; NaN unless tied with |lead| above the tolerance).
    """
    alpha, tol = _analysis_keys(cfg)
    out = []
    for (stream, eps, baseline), f in diffs.groupby(["stream", "eps", "baseline"], sort=False):
        ts, d, se = f.t.to_numpy(), f.d_meas.to_numpy(), f.se_meas.to_numpy()
        state = f.state_meas.to_numpy()
        T, n = int(ts[-1]), int(f.runs.iloc[0])
        z = float(stats.norm.ppf(1.0 - alpha / (2.0 * ts.size)))
        row = dict(stream=stream, eps=eps, baseline=baseline, model=BASELINES[baseline][0], T=T, runs=n)
        row["t_meas"] = _first_lead(ts, state)
        row["t_pred"] = _first_lead(ts, f.state_pred.to_numpy())
        row["t_pred_lemma40"] = _first_lead(ts, f.state_pred_l40.to_numpy())
        de = (f.eps_bco - f.eps_base).to_numpy()
        row["t_eps"] = _first_lead(ts, np.sign(de) + (de == 0))
        pred = f.state_pred.to_numpy()[ts >= 2]
        row["steps_pred_ahead"], row["steps_pred_behind"] = int((pred > 0).sum()), int((pred < 0).sum())
        for word, v in (("ahead", 1), ("behind", -1)):
            hit = ts[state == v]
            row[f"first_{word}"] = float(hit[0]) if hit.size else float("nan")
            row[f"last_{word}"] = float(hit[-1]) if hit.size else float("nan")
        row["state_last"] = {1: "ahead", -1: "behind", 0: "tie"}[int(state[-1])]
        row["diff_last"], row["se_last"] = float(d[-1]), float(se[-1])
        last = ts >= T / 10.0
        row["slope_last_decade"] = (
            float(np.polyfit(np.log10(ts[last]), d[last], 1)[0]) if last.sum() >= 3 else float("nan")
        )
        row["runs_to_resolve"] = (
            float(math.ceil(n * (z * se[-1] / abs(d[-1])) ** 2))
            if state[-1] == 0 and abs(d[-1]) > tol and se[-1] > 0
            else float("nan")
        )
        out.append(row)
    return pd.DataFrame(out)


def _state(d, se, z: float, tol: float) -> np.ndarray:
    """+1 (BatchToCO ahead), -1 (behind), 0 (tie) per recorded step: |d| must exceed both z se and tol."""
    margin = np.maximum(z * np.nan_to_num(se), tol)
    return np.where(d > margin, 1, np.where(d < -margin, -1, 0))


def _first_lead(ts, state) -> float:
    """First t >= 2 with state +1 and no state -1 at any later step; inf if none."""
    behind_later = np.flip(np.cumsum(np.flip(state < 0))) > 0
    cand = np.flatnonzero((state > 0) & ~behind_later & (ts >= 2))
    return float(ts[cand[0]]) if cand.size else math.inf


def summarize(raw: pd.DataFrame) -> pd.DataFrame:
    """Per (stream, eps, method, t) of the runs: mean, 10% and 90% quantiles of f/OPT_t, and OPT_t."""
    r = raw[(raw.source == "run") & raw.method.isin(PLOTTED)].assign(ratio=lambda d: d.value / d.opt)
    g = r.groupby(["stream", "eps", "method", "t"], sort=True)
    out = g["ratio"].agg(mean="mean", q10=lambda x: x.quantile(0.1), q90=lambda x: x.quantile(0.9)).reset_index()
    out["opt"] = g["opt"].first().to_numpy()
    return out


def long_run_checkpoints(runs: pd.DataFrame) -> pd.DataFrame:
    """The table ``checkpoints`` of :func:`privtest.analysis._co.checkpoints` on the run rows ``runs`` (``source =
    "run"``), in the order of the raw rows, with ``ell_bound_T``: Lemma 40's explicit bound on ell(T) at the BatchToCO
    runs' last recorded step T (column ``ell_bound`` of the raw rows)."""
    out = _co.checkpoints(runs, sort=False)
    bco = runs[runs.method == METHOD]
    bound = {key: int(g[g.t == g.t.max()].ell_bound.iloc[0]) for key, g in bco.groupby(["stream", "eps"], sort=False)}
    out["ell_bound_T"] = [bound[(s, e)] for s, e in zip(out.stream, out.eps, strict=True)]
    return out


def long_run_calls(runs: pd.DataFrame) -> pd.DataFrame:
    """Per (stream, eps) of the BatchToCO run rows (in their order), over the recorded GTM steps t >= 2 with an exact
    expectation E[N_t]: ``runs`` (all runs), ``steps`` (the (run, t) compared), ``steps_per_run`` (steps // runs),
    ``max_expected_ratio`` = max E[N_t] / Theorem 42(3)'s explicit bound (column ``calls_bound``),
    ``steps_over_bound`` (the (run, t) with E[N_t] > bound (1 + :data:`RTOL`)), ``expected_calls_T`` (mean E[N_T]
    over runs at the last step T), per run sum N_t / sum E[N_t] over the recorded steps
    (:func:`privtest.co.calls.calls_ratio`: ``calls_ratio_mean``, ``calls_ratio_se``, ``calls_ratio_runs``) and the
    mean N_T (``calls_mean_T``).

    Returns:
        DataFrame with the columns :data:`CALLS`.
    """
    out = []
    for (stream, eps), g in runs[runs.method == METHOD].groupby(["stream", "eps"], sort=False):
        R, T = int(g.run.nunique()), int(g.t.max())
        steps = g[(g.t >= 2) & g.expected_calls.notna()]
        at_T = steps[steps.t == T]
        r = calls_ratio(steps)
        out.append(
            dict(
                stream=stream,
                eps=eps,
                runs=R,
                steps=len(steps),
                steps_per_run=len(steps) // max(R, 1),
                max_expected_ratio=float((steps.expected_calls / steps.calls_bound).max()),
                steps_over_bound=int((steps.expected_calls > steps.calls_bound * (1 + RTOL)).sum()),
                expected_calls_T=float(at_T.expected_calls.mean()),
                calls_ratio_mean=r.mean,
                calls_ratio_se=r.se,
                calls_ratio_runs=r.runs,
                calls_mean_T=float(at_T.gtm_calls.mean()),
            )
        )
    return pd.DataFrame(out, columns=CALLS)
