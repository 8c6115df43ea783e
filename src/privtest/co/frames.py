"""Conventions of the continual-observation raw tables, shared by the experiments that write them and the checks
that read them: the method name of BatchToCO's rows and the steps at which Theorem 42's proof applies."""

from __future__ import annotations

import pandas as pd

#: Method name of BatchToCO's rows (column ``method``).
METHOD = "BatchToCO"
#: Method name of the extra BatchToCO runs made only for Lemma 40's checkpoint count (no ThresholdSelect, one row per
#: run at t = T with the final ell and the largest Lemma 39(2) margin over its checkpoints; never plotted).
CHECKPOINT_RUNS = "BatchToCO [checkpoints only]"
#: Method name of fig_co_crossover's model rows for BatchToCO with Lemma 40's explicit checkpoint bound in place of
#: the measured ell(t).
METHOD_L40 = "BatchToCO [Lemma 40 ell]"


def covered(rows: pd.DataFrame) -> pd.DataFrame:
    """The BatchToCO rows at which Theorem 42's proof applies: t >= 2 and t > t(ell(t)) (not a checkpoint step; the
    proof's Step 1 needs instance ell(t)+1 to have run at t, ERRATA.md)."""
    return rows[(rows.method == METHOD) & (rows.t >= 2) & (rows.t > rows.t_ell)]


def plotted(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows of the methods a figure or table compares (all but :data:`CHECKPOINT_RUNS`)."""
    return rows[rows.method != CHECKPOINT_RUNS]
