"""GTM calls of the batch algorithm A per step against their exact expectation (Theorem 42(3), Corollary 35(3)):
per run, sum_t N_t / sum_t E[N_t], and its mean and standard error over runs, as the analysis of every
continual-observation output (and Table 2's simulated rows) reports them."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from privtest.stats import standard_error


@dataclass(frozen=True)
class CallsRatio:
    """Mean over runs of sum_t N_t / sum_t E[N_t] (dimensionless; 1 when the calls match their expectation).

    Attributes:
        mean: the mean over runs. se: its standard error (sample standard deviation / sqrt(runs); 0 for one run).
        runs: the number of runs.
    """

    mean: float
    se: float
    runs: int


def run_ratios(steps: pd.DataFrame) -> pd.Series:
    """Per run, sum_t N_t / sum_t E[N_t] over the GTM steps in ``steps``.

    Args:
        steps: BatchToCO rows of one (stream, eps), one per (run, t) with columns ``run``, ``gtm_calls`` (N_t) and
            ``expected_calls`` (E[N_t]); the caller selects the steps (t >= 2, where a GTM step runs).

    Returns:
        float Series indexed by run (sorted).
    """
    by_run = steps.groupby("run")
    return by_run["gtm_calls"].sum() / by_run["expected_calls"].sum()


def calls_ratio(steps: pd.DataFrame) -> CallsRatio:
    """:class:`CallsRatio` of the per-run ratios of :func:`run_ratios` (``steps``: as there)."""
    return summarise(run_ratios(steps))


def summarise(ratios: pd.Series) -> CallsRatio:
    """:class:`CallsRatio` of per-run ratios sum_t N_t / sum_t E[N_t] (float Series, one value per run; e.g. the run
    rows of table2, :func:`privtest.experiments.table2.run_rows`). A NaN (a run with no GTM step, 0 / 0) is no run:
    mean, standard error and ``runs`` are over the others (NaN mean and se, 0 runs, if there are none)."""
    ratios = ratios.dropna()
    if ratios.empty:
        return CallsRatio(float("nan"), float("nan"), 0)
    return CallsRatio(float(ratios.mean()), standard_error(ratios), int(ratios.size))
