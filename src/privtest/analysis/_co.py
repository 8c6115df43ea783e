"""Analysis shared by the continual-observation outputs (Sections 7-8): what their utility figures draw
(:func:`summarize`) and what their checks (:mod:`privtest.checks._co`) compare with the paper's bounds, computed once
from the raw rows (:mod:`privtest.experiments._co`):

- ``privacy`` (:func:`privacy`), per eps: Lemma 38's worst-case ledger of BatchToCO beside the realised ex-post loss
  of the runs;
- ``checkpoints`` (:func:`checkpoints`), per (stream, eps): Lemma 40 via Lemma 39(2), the runs whose checkpoints
  violate h_ell < OPT_t + (2/eps(ell,t)) ln(1/pbar);
- ``calls`` (:func:`calls`), per (stream, eps): the GTM calls of A per step against their exact expectation
  (Theorem 42(3), Corollary 35(3));
- ``utility`` (:func:`utility`), per (stream, eps): the runs below Theorem 42(2)'s explicit guarantee at the steps
  its proof covers (:func:`privtest.co.frames.covered`), with V_A bracketed.

:func:`tables` returns the four.
"""

from __future__ import annotations

import pandas as pd

from privtest.co.calls import calls_ratio
from privtest.co.frames import CHECKPOINT_RUNS, METHOD, covered, plotted
from privtest.co.params import BatchToCOParams

#: Columns of the table ``privacy``.
PRIVACY = ["eps", "delta", "eps_total", "delta_total", "eps_bound", "gtm_excess", "constants", "halt_loss_max", "runs"]
#: Columns of the table ``checkpoints``.
CHECKPOINTS = ["stream", "eps", "runs", "runs_violating", "ell_T_max", "l39_margin_max", "T", "checkpoint_only"]
#: Columns of the table ``calls``.
CALLS = ["stream", "eps", "runs", "calls_ratio_mean", "calls_ratio_se", "calls_mean", "expected_calls_max"]
#: Columns of the table ``utility``.
UTILITY = [
    "stream",
    "eps",
    "runs",
    "guarantee_positive",
    "guarantee_max",
    "guarantee_va_hi_max",
    "runs_violating_va_hi",
    "runs_violating_va_lo",
]


def summarize(raw: pd.DataFrame) -> pd.DataFrame:
    """Per (stream, eps, method, t) of the plotted methods (all but the checkpoint-only runs): mean, 10% and 90%
    quantiles of ``value`` over runs, and ``opt`` and ``opt_kind`` (the figure's data).

    Args:
        raw: CO raw rows (:mod:`privtest.experiments._co`: columns stream, eps, method, t, value, opt, opt_kind).
    """
    g = plotted(raw).groupby(["stream", "eps", "method", "t"], sort=True)
    out = g["value"].agg(mean="mean", q10=lambda x: x.quantile(0.1), q90=lambda x: x.quantile(0.9)).reset_index()
    out["opt"] = g["opt"].first().to_numpy()
    out["opt_kind"] = g["opt_kind"].first().to_numpy()
    return out


def tables(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``privacy``, ``checkpoints``, ``calls`` and ``utility`` (module docstring) of CO raw rows, each
    sorted by its keys.

    Args:
        raw: CO raw rows (:mod:`privtest.experiments._co`), BatchToCO's with columns ell, t_ell, gtm_calls,
            expected_calls, guarantee, guarantee_va_lo, guarantee_va_hi, halt_loss, l39_margin.
        cfg: the output's config section (BatchToCO's constants, :meth:`BatchToCOParams.from_config`).
    """
    return {
        "privacy": privacy(raw, cfg),
        "checkpoints": checkpoints(raw),
        "calls": calls(raw),
        "utility": utility(raw),
    }


def privacy(raw: pd.DataFrame, cfg: dict) -> pd.DataFrame:
    """Per eps of the BatchToCO rows of ``raw`` (sorted): Lemma 38's worst-case ledger
    (:meth:`BatchToCOParams.privacy_budget`: ``eps_total``, ``delta_total``, the closed form ``eps_bound`` and
    ``gtm_excess`` = max GTM_i cost / ((1 + C_H/C_1) eps(i))), the global ``delta`` and the constants' label
    (``constants``), and the realised ex-post loss (Theorem 23) of the runs, which cannot exceed the ledger:
    ``halt_loss_max``, its largest value over the (stream, run) of that eps, and ``runs``, their number.

    Returns:
        DataFrame with the columns :data:`PRIVACY`, one row per eps.
    """
    bco = raw[raw.method == METHOD]
    rows = []
    for eps in sorted(bco.eps.unique()):
        params = BatchToCOParams.from_config(cfg, float(eps))
        led = params.privacy_budget()
        realised = bco[bco.eps == eps].groupby(["stream", "run"])["halt_loss"].first()
        rows.append(
            dict(
                eps=eps,
                delta=float(params.delta),
                eps_total=float(led["eps_total"]),
                delta_total=float(led["delta_total"]),
                eps_bound=float(led["eps_bound"]),
                gtm_excess=float(led["gtm_excess"]),
                constants=params.constants_label,
                halt_loss_max=float(realised.max()),
                runs=int(len(realised)),
            )
        )
    return pd.DataFrame(rows, columns=PRIVACY)


def checkpoint_row(rows: pd.DataFrame) -> dict:
    """Lemma 40 via Lemma 39(2) on the runs of one (stream, eps) in ``rows`` (the checkpoint-only runs, one row per
    run at t = T, or BatchToCO's rows): at their last step T, ``runs`` R, ``runs_violating`` (runs whose largest
    Lemma 39(2) margin over their checkpoints, column ``l39_margin``, is > 0), ``ell_T_max`` (the largest ell(T)),
    ``l39_margin_max`` (the largest margin; -inf if no run declared a checkpoint), ``T`` and ``checkpoint_only``
    (whether ``rows`` are the checkpoint-only runs)."""
    last = rows[rows.t == rows.t.max()]
    return dict(
        runs=int(last.run.nunique()),
        runs_violating=int((last.groupby("run")["l39_margin"].max() > 0).sum()),
        ell_T_max=int(last.ell.max()),
        l39_margin_max=float(last.l39_margin.max()),
        T=int(last.t.max()),
        checkpoint_only=bool((rows.method == CHECKPOINT_RUNS).any()),
    )


def checkpoints(raw: pd.DataFrame, sort: bool = True) -> pd.DataFrame:
    """Per (stream, eps) of the BatchToCO rows of ``raw``: :func:`checkpoint_row` on that (stream, eps)'s
    checkpoint-only runs (:data:`CHECKPOINT_RUNS`) if it has any, else on its BatchToCO runs.

    Args:
        raw: CO raw rows. sort: order the rows by (stream, eps) (else by first appearance).

    Returns:
        DataFrame with the columns :data:`CHECKPOINTS`.
    """
    out = []
    cps = raw[raw.method == CHECKPOINT_RUNS]
    for (stream, eps), g in raw[raw.method == METHOD].groupby(["stream", "eps"], sort=sort):
        cp = cps[(cps.stream == stream) & (cps.eps == eps)]
        out.append(dict(stream=stream, eps=eps, **checkpoint_row(cp if len(cp) else g)))
    return pd.DataFrame(out, columns=CHECKPOINTS)


def calls(raw: pd.DataFrame) -> pd.DataFrame:
    """Per (stream, eps) of the BatchToCO rows of ``raw`` (sorted), over the GTM steps t >= 2: per run sum N_t /
    sum E[N_t] (:func:`privtest.co.calls.calls_ratio`: its mean ``calls_ratio_mean``, standard error
    ``calls_ratio_se`` and ``runs``), the mean N_t over (run, t) (``calls_mean``) and the largest exact expectation
    E[N_t] (``expected_calls_max``).

    Returns:
        DataFrame with the columns :data:`CALLS`.
    """
    out = []
    for (stream, eps), g in raw[raw.method == METHOD].groupby(["stream", "eps"], sort=True):
        steps = g[g.t >= 2]
        r = calls_ratio(steps)
        out.append(
            dict(
                stream=stream,
                eps=eps,
                runs=r.runs,
                calls_ratio_mean=r.mean,
                calls_ratio_se=r.se,
                calls_mean=float(steps.gtm_calls.mean()),
                expected_calls_max=float(steps.expected_calls.max()),
            )
        )
    return pd.DataFrame(out, columns=CALLS)


def utility_row(g: pd.DataFrame) -> dict:
    """Theorem 42(2) on the BatchToCO rows ``g`` of one (stream, eps): ``runs`` R (all its runs); over the
    :func:`covered` steps the share of (run, t) with a positive guarantee at U_t >= V_A (``guarantee_positive``, NaN
    without covered steps), the largest guarantee at U_t (``guarantee_max``) and at V_hi (``guarantee_va_hi_max``,
    NaN where the guarantee at U_t is never positive), and the runs with some covered step where f(X_t, Y_t) is below
    the guarantee at V_hi (``runs_violating_va_hi``: an upper end of the true count w.p. >= 1 - va_alpha) and at V_lo
    (``runs_violating_va_lo``: a lower end)."""
    R = int(g.run.nunique())
    g = covered(g)
    hi_max = float(g.guarantee_va_hi.max()) if g.guarantee_va_hi.notna().any() else float("nan")
    return dict(
        runs=R,
        guarantee_positive=float((g.guarantee > 0).mean()),
        guarantee_max=float(g.guarantee.max()),
        guarantee_va_hi_max=hi_max,
        runs_violating_va_hi=int(g.assign(b=g.value < g.guarantee_va_hi).groupby("run")["b"].any().sum()),
        runs_violating_va_lo=int(g.assign(b=g.value < g.guarantee_va_lo).groupby("run")["b"].any().sum()),
    )


def utility(raw: pd.DataFrame, sort: bool = True) -> pd.DataFrame:
    """Per (stream, eps) of the BatchToCO rows of ``raw``: :func:`utility_row`.

    Args:
        raw: CO raw rows. sort: order the rows by (stream, eps) (else by first appearance).

    Returns:
        DataFrame with the columns :data:`UTILITY`.
    """
    out = [
        dict(stream=stream, eps=eps, **utility_row(g))
        for (stream, eps), g in raw[raw.method == METHOD].groupby(["stream", "eps"], sort=sort)
    ]
    return pd.DataFrame(out, columns=UTILITY)
