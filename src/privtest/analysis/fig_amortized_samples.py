"""Analysis of fig_amortized_samples (:mod:`privtest.experiments.fig_amortized_samples`'s raw rows: per eps_ratio,
p* and horizon T the mean and (1-beta/2)-quantile of N_{<=T}/T over runs, ``above`` (runs above the explicit bound
2M/T), the bound, its leading term and the per-step bound at T): the tables its check and figure read (Lemma 22(2)).

* ``series``: the raw rows as drawn (``figures/data/fig_amortized_samples.csv``; evaluations per step);
* ``summary``: the rows where Lemma 22(2)'s hypotheses hold (finite ``bound``), in simulation order: eps_ratio,
  pstar, T, ``above`` of ``runs``, the allowed rate ``budget`` = beta/2, amortized_mean, bound, leading_term and
  per_step_bound.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: Columns of the table ``summary``.
SUMMARY_COLUMNS = ["eps_ratio", "pstar", "T", "above", "runs", "budget", "amortized_mean", "bound", "leading_term",
                   "per_step_bound"]  # fmt: skip


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables of the module docstring; ``cfg`` needs ``beta`` (in (0, 1))."""
    return {"series": raw.copy(), "summary": summarize(raw, cfg["beta"])}


def summarize(raw: pd.DataFrame, beta: float) -> pd.DataFrame:
    """The table ``summary`` (module docstring); ValueError if ``beta`` is not in (0, 1)."""
    if not 0 < beta < 1:
        raise ValueError(f"beta must be in (0, 1). Found {beta!r}.")
    rows = raw[np.isfinite(raw["bound"].astype(float))].assign(budget=beta / 2)
    return rows[SUMMARY_COLUMNS].reset_index(drop=True)
