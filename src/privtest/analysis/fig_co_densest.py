"""Analysis of fig_co_densest (:mod:`privtest.experiments.fig_co_densest`'s raw rows): the table its figure draws,
mean and 10-90% band of f(X_t, Y_t) per (stream, eps, method, t) with OPT_t (``summary``,
:func:`privtest.analysis._co.summarize`), and the tables its claims compare with the paper's bounds
(:func:`privtest.analysis._co.tables`): ``privacy`` per eps, ``checkpoints``, ``calls`` and ``utility`` per (stream,
eps)."""

from __future__ import annotations

import pandas as pd

from privtest.analysis import _co


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``summary``, ``privacy``, ``checkpoints``, ``calls`` and ``utility`` (module docstring) of the raw
    rows; ``cfg``: the config section (BatchToCO's constants)."""
    return {"summary": _co.summarize(raw), **_co.tables(raw, cfg)}
