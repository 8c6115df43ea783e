"""Analysis of fig_error_rates (:mod:`privtest.experiments.fig_error_rates`'s raw counts): each tester's whole-run
error rate per (method, beta, stream) with its 95% Clopper-Pearson interval, next to its budget and the exact rate
where known (``summary``: the raw columns plus ``rate``, ``ci_low``, ``ci_high``). The claims
(:mod:`privtest.checks.fig_error_rates`) are decided on the counts themselves."""

from __future__ import annotations

import pandas as pd

from privtest.stats import clopper_pearson


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The table ``summary`` (module docstring); ``cfg`` (the config section) is not needed."""
    return {"summary": summarize(raw)}


def summarize(raw: pd.DataFrame) -> pd.DataFrame:
    """The raw counts (columns ``failures``, ``runs``, ...) with rate = failures/runs and its 95% Clopper-Pearson
    interval (ci_low, ci_high)."""
    df = raw.copy()
    df["rate"] = df["failures"] / df["runs"]
    df["ci_low"], df["ci_high"] = clopper_pearson(df["failures"].to_numpy(), df["runs"].to_numpy())
    return df
