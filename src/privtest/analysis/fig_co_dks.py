"""Analysis of fig_co_dks (:mod:`privtest.experiments.fig_co_dks`'s raw rows): the table its figure draws, mean and
10-90% band of the edges inside S per (stream, eps, method, t) with the upper bound U_t >= OPT_t (``opt``) and the
value of a feasible k-set (``opt_lower``) (``summary``), and the tables its claims compare with the paper's bounds
(:func:`privtest.analysis._co.tables`): ``privacy`` per eps, ``checkpoints``, ``calls`` and ``utility`` per (stream,
eps)."""

from __future__ import annotations

import pandas as pd

from privtest.analysis import _co
from privtest.co.frames import plotted


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``summary``, ``privacy``, ``checkpoints``, ``calls`` and ``utility`` (module docstring) of the raw
    rows; ``cfg``: the config section (BatchToCO's constants)."""
    out = _co.summarize(raw)
    out["opt_lower"] = plotted(raw).groupby(["stream", "eps", "method", "t"], sort=True)["opt_lower"].first().to_numpy()
    return {"summary": out, **_co.tables(raw, cfg)}
