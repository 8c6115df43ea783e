"""Analysis shared by the continual-observation outputs (Sections 7-8): what their utility figures draw."""

from __future__ import annotations

import pandas as pd

from privtest.co.frames import plotted


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
