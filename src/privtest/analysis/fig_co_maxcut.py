"""Analysis of fig_co_maxcut (:mod:`privtest.experiments.fig_co_maxcut`'s raw rows): the table its figure draws,
mean and 10-90% band of f(X_t, Y_t) per (stream, eps, method, t) with OPT_t (``summary``,
:func:`privtest.analysis._co.summarize`). Its claims (:mod:`privtest.checks.fig_co_maxcut`) are judged on the runs
themselves (counts over runs)."""

from __future__ import annotations

import pandas as pd

from privtest.analysis import _co


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The table ``summary`` (module docstring) of the raw rows; ``cfg`` (the config section) is not needed."""
    return {"summary": _co.summarize(raw)}
