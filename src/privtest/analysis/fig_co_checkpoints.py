"""Analysis of fig_co_checkpoints (:mod:`privtest.experiments.fig_co_checkpoints`'s rows per (stream, eps, t): the
BatchToCO runs of fig_co_densest, fig_co_maxcut and fig_co_crossover summarised, with the bounds of Lemma 39(2) /
Lemma 40 and Theorem 42(3) / Corollary 35(3)).

``calls``: one row per (stream, eps) with, over the steps t >= 2, ``steps`` (their number), ``max_calls_ratio`` =
max_t calls_mean / calls_bound (measured mean GTM calls of A per step over the explicit per-step bound) and
``max_expected_ratio`` = max_t calls_expected / calls_bound (the exact expectation E[N_t] over the bound; NaN if some
step has no exact expectation). Dimensionless. The claims (:mod:`privtest.checks.fig_co_checkpoints`) read it; the
figure draws the raw rows.
"""

from __future__ import annotations

import pandas as pd


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The table ``calls`` (module docstring); ``cfg`` (the config section) is not needed."""
    rows = []
    for (stream, eps), g in raw.groupby(["stream", "eps"], sort=True):
        over = g[g.t >= 2]
        rows.append(
            dict(
                stream=stream,
                eps=eps,
                steps=len(over),
                max_calls_ratio=float((over.calls_mean / over.calls_bound).max()),
                max_expected_ratio=float((over.calls_expected / over.calls_bound).max(skipna=False)),
            )
        )
    columns = ["stream", "eps", "steps", "max_calls_ratio", "max_expected_ratio"]
    return {"calls": pd.DataFrame(rows, columns=columns)}
