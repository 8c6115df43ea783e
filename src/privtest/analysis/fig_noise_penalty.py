"""Analysis of fig_noise_penalty (:mod:`privtest.experiments.fig_noise_penalty`'s raw rows: per curve and step t the
log10 noise penalty, log10_gap (where the method guarantees halting over its rejection threshold), its output delta
and ``cor30``, whether Corollary 30 constrains it): the tables its check and figure read (Table 1, Theorem 4,
Corollary 30).

* ``series``: the raw rows as drawn (``figures/data/fig_noise_penalty.csv``);
* ``curves``: the raw rows with ``Lambda`` = 10^min(log10_Lambda, 300) (the plotted noise penalty, capped at 1e300
  where it overflows a float);
* ``margins``: per curve Corollary 30 constrains (from T = t = 2 on), in simulation order: ``min_log10_margin``, the
  least log10_gap - log10 Lambda_0(T = t) over t, Lambda_0 of Corollary 30 at the tester's own delta (an achievable
  guarantee has margin >= 0).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest import bounds

LN10 = math.log(10.0)
#: Largest plotted log10 Lambda (10^300 is near a float's range).
LOG10_CAP = 300


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables of the module docstring; ``cfg`` needs eps, eps_ratio and beta."""
    return {
        "series": raw.copy(),
        "curves": raw.assign(Lambda=10.0 ** np.minimum(raw["log10_Lambda"], LOG10_CAP)),
        "margins": margins(raw, cfg),
    }


def margins(raw: pd.DataFrame, cfg: dict) -> pd.DataFrame:
    """The table ``margins`` (module docstring); ValueError from :func:`privtest.bounds.lower_bound_log_noise_penalty`
    for parameters outside Corollary 30's range."""
    eps, beta, r = cfg["eps"], cfg["beta"], cfg["eps_ratio"]
    rows = []
    # Curves Corollary 30 constrains (raw column cor30): fixed-(eps, delta)-DP testers measured from where they
    # guarantee halting; the bound at each tester's own delta (delta' = delta/(e^eps - 1)), from T = t = 2 on.
    for curve, g in raw[raw.cor30.astype(bool) & (raw.t >= 2)].groupby("curve", sort=False):
        lb = [
            bounds.lower_bound_log_noise_penalty(int(t), eps, r * eps, beta, d) / LN10
            for t, d in zip(g.t, g.delta, strict=True)
        ]
        rows.append(dict(curve=curve, min_log10_margin=float((g["log10_gap"] - np.asarray(lb)).min())))
    return pd.DataFrame(rows, columns=["curve", "min_log10_margin"])
