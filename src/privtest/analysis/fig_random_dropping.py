"""Analysis of fig_random_dropping (:mod:`privtest.experiments.fig_random_dropping`'s raw counts; Corollaries 51
and 53, Theorem 21): the measured error probability of each (method, T) with its 95% Clopper-Pearson interval.

``summary``: the raw columns (method, T, G, events, runs, bound, pbar_max, event, source, events_at_pbar_max) plus

* ``rate`` = events / runs (probability of a false halt, Cohen and GTM, or of a bad selection, Ghazi, at the fixed
  pbar of the config), ``ci_low``, ``ci_high`` its interval;
* ``rate_at_pbar_max``, ``ci_low_at_pbar_max``, ``ci_high_at_pbar_max`` (GTM rows only, NaN otherwise): the same
  for ``events_at_pbar_max``, the GTM's false halts at p_t = pbar_{T-G} (inside Theorem 21).

The claims (:mod:`privtest.checks.fig_random_dropping`) and the figure read it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.stats import clopper_pearson

#: Two-sided level of the intervals.
CONFIDENCE = 0.95


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The table ``summary`` (module docstring); ``cfg`` (the config section) is not needed."""
    return {"summary": summarize(raw)}


def summarize(raw: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """The raw counts (columns ``events``, ``runs``, ``events_at_pbar_max``, ...) with the rates and their
    Clopper-Pearson intervals at ``confidence`` in (0, 1) (ValueError otherwise,
    :func:`privtest.stats.clopper_pearson`); rows without ``events_at_pbar_max`` get NaN in its three columns."""
    df = raw.copy()
    runs = df["runs"].to_numpy()
    df["rate"] = df["events"] / df["runs"]
    df["ci_low"], df["ci_high"] = clopper_pearson(df["events"].to_numpy(), runs, confidence)
    k = df["events_at_pbar_max"].to_numpy(dtype=float)
    has = np.isfinite(k)
    lo, hi = (np.full(len(df), np.nan) for _ in range(2))
    if has.any():
        lo[has], hi[has] = clopper_pearson(k[has].astype(int), runs[has], confidence)
    df["rate_at_pbar_max"] = k / runs
    df["ci_low_at_pbar_max"], df["ci_high_at_pbar_max"] = lo, hi
    return df
