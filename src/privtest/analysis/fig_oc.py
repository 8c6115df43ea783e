"""Analysis of fig_oc (:mod:`privtest.experiments.fig_oc`'s raw counts): the halting probability of one GTM step
per (t, eps_t/eps, p*, variant, p) with its 95% Clopper-Pearson interval, next to the exact value and pbar_t
(``summary``: the raw columns plus ``halt_prob``, ``ci_low``, ``ci_high``). The claims
(:mod:`privtest.checks.fig_oc`) are decided on the counts themselves."""

from __future__ import annotations

import pandas as pd

from privtest.stats import clopper_pearson

#: Two-sided level of the plotted intervals.
CONFIDENCE = 0.95


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The table ``summary`` (module docstring); ``cfg`` (the config section) is not needed."""
    return {"summary": summarize(raw)}


def summarize(raw: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """The raw counts (columns ``halts``, ``runs``, ...) with halt_prob = halts/runs and its Clopper-Pearson interval
    (ci_low, ci_high) at ``confidence`` in (0, 1) (ValueError otherwise, :func:`privtest.stats.clopper_pearson`)."""
    df = raw.copy()
    df["halt_prob"] = df["halts"] / df["runs"]
    df["ci_low"], df["ci_high"] = clopper_pearson(df["halts"].to_numpy(), df["runs"].to_numpy(), confidence)
    return df
