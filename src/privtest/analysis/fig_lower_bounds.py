"""Analysis of fig_lower_bounds (:mod:`privtest.experiments.fig_lower_bounds`'s raw rows: panel "a", ln(p*/pbar_T)
of every upper bound and ln Lambda_0 per (beta, T); panel "b", evaluations per step per beta, theory and measured;
panel "c", classic AboveThreshold's errors): the tables its check and figure read (Table 1, Corollary 30, Theorems 29
and 31).

* ``series``: the raw rows as drawn (``figures/data/fig_lower_bounds.csv``);
* ``margins``: per upper-bound method of panel (a), in simulation order: ``min_margin``, the least ln(p*/pbar_T) -
  ln Lambda_0 over T and beta (Corollary 30: >= 0);
* ``samples``: panel (b)'s rows (kind theory/measured, method, beta, T, samples: mean evaluations per step), with for
  the measured rows ``se`` = samples_sd/sqrt(runs) (0 for one run or identical counts), ``ci_half`` = 1.96 se (the
  plotted 95% half-width, normal approximation) and Theorem 31's ``lower_bound``;
* ``above_threshold``: panel (c), per beta: alpha, ``errors`` of ``runs`` with ``rate`` = errors/runs and its 95%
  Clopper-Pearson interval (``ci_low``, ``ci_high``), ``alpha_sum`` = alpha_+ + alpha_- = 2 alpha, Theorem 29's
  ``alpha_sum_lower`` and their ratio ``alpha_sum_ratio``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.stats import clopper_pearson

#: Two-sided level of the intervals (normal approximation in panel b, Clopper-Pearson in panel c).
CONFIDENCE = 0.95
#: The normal quantile of :data:`CONFIDENCE`, as the claims and the figure quote it.
Z = 1.96
#: Columns of the table ``samples``.
SAMPLE_COLUMNS = ["kind", "method", "beta", "T", "samples", "samples_sd", "runs", "se", "ci_half", "lower_bound"]
#: Columns of the table ``above_threshold``.
AT_COLUMNS = ["beta", "T", "alpha", "errors", "runs", "rate", "ci_low", "ci_high", "alpha_sum", "alpha_sum_lower",
              "alpha_sum_ratio"]  # fmt: skip


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables of the module docstring; ``cfg`` (the config section) is not needed."""
    return {
        "series": raw.copy(),
        "margins": margins(raw),
        "samples": samples(raw),
        "above_threshold": above_threshold(raw),
    }


def margins(raw: pd.DataFrame) -> pd.DataFrame:
    """The table ``margins`` (module docstring) of the raw panel-"a" rows (method, beta, T, y)."""
    a = raw[raw.panel == "a"]
    lb = a[a.method == "LowerBound"].set_index(["beta", "T"])["y"]
    rows = []
    for m, g in a[a.method != "LowerBound"].groupby("method", sort=False):
        y = g.set_index(["beta", "T"])["y"]
        rows.append(dict(method=m, min_margin=float((y - lb.loc[y.index]).min())))
    return pd.DataFrame(rows, columns=["method", "min_margin"])


def samples(raw: pd.DataFrame) -> pd.DataFrame:
    """The table ``samples`` (module docstring) of the raw panel-"b" rows."""
    b = raw[raw.panel == "b"].copy()
    sd = b["samples_sd"].astype(float)
    se = sd / np.sqrt(b["runs"].astype(float))
    # one run (std NaN) or identical counts: se = 0, the bounded-range test on evaluations per step >= 0
    b["se"] = np.where(b["kind"] == "measured", np.where(np.isfinite(sd), se, 0.0), np.nan)
    b["ci_half"] = Z * b["se"]
    return b[SAMPLE_COLUMNS].reset_index(drop=True)


def above_threshold(raw: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """The table ``above_threshold`` (module docstring) of the raw panel-"c" rows; ValueError if ``confidence`` is
    not in (0, 1) (:func:`privtest.stats.clopper_pearson`)."""
    c = raw[raw.panel == "c"].copy()
    c["errors"] = c["errors"].astype(int)
    c["runs"] = c["runs"].astype(int)
    c["rate"] = c["errors"] / c["runs"]
    c["ci_low"], c["ci_high"] = clopper_pearson(c["errors"].to_numpy(), c["runs"].to_numpy(), confidence)
    c["alpha_sum"] = 2 * c["alpha"]
    c["alpha_sum_ratio"] = c["alpha_sum"] / c["alpha_sum_lower"]
    return c[AT_COLUMNS].reset_index(drop=True)
