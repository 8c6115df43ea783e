"""Analysis of fig_rejection_threshold (:mod:`privtest.experiments.fig_rejection_threshold`'s raw rows: ``theory``
rows of every rejection-threshold curve on a logit grid of p*, ``measured`` rows per tester and measured p*): the
tables its check and figure read (Table 1, Corollary 30).

* ``series``: the raw rows as drawn (``figures/data/fig_rejection_threshold.csv``);
* ``theory``: the theory rows (curve, method, pstar, pbar; pbar NaN where a branch is <= 0), in simulation order;
* ``measured``: per tester and measured p*, in simulation order: pbar (its measured rejection threshold, the largest
  p with Pr[halt within T] <= beta at 95% confidence), pbar_theory (its theoretical pbar_T), ``halts_at_theory`` of
  ``runs`` at p_t = pbar_theory with ``rate`` = halts/runs and its 95% Clopper-Pearson interval (``ci_low``,
  ``ci_high``), and the tester's Type I ``budget``;
* ``points``: the plotted measured points, per tester and measured p*: pbar and ``pbar_err`` = max(pbar_upper - pbar,
  0) (0 where undefined), the one-sided error bar up to the threshold's upper confidence limit pbar_upper.
"""

from __future__ import annotations

import pandas as pd

from privtest.stats import clopper_pearson

#: Two-sided level of the interval of the halting rate at pbar_T.
CONFIDENCE = 0.95
#: Columns of the table ``theory``.
THEORY_COLUMNS = ["curve", "method", "pstar", "pbar"]
#: Columns of the table ``measured``.
MEASURED_COLUMNS = ["method", "pstar", "pbar", "pbar_theory", "halts_at_theory", "runs", "rate", "ci_low", "ci_high",
                    "budget"]  # fmt: skip
#: Columns of the table ``points``.
POINT_COLUMNS = ["method", "pstar", "pbar", "pbar_err"]


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables of the module docstring; ``cfg`` (the config section) is not needed."""
    theory = raw[raw.kind == "theory"][THEORY_COLUMNS].reset_index(drop=True)
    return {"series": raw.copy(), "theory": theory, "measured": measured(raw), "points": points(raw)}


def measured(raw: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """The table ``measured`` (module docstring) of the raw ``measured`` rows; ValueError if ``confidence`` is not in
    (0, 1) (:func:`privtest.stats.clopper_pearson`)."""
    me = raw[raw.kind == "measured"].copy()
    me["halts_at_theory"] = me["halts_at_theory"].astype(int)
    me["runs"] = me["runs"].astype(int)
    me["rate"] = me["halts_at_theory"] / me["runs"]
    me["ci_low"], me["ci_high"] = clopper_pearson(me["halts_at_theory"].to_numpy(), me["runs"].to_numpy(), confidence)
    return me[MEASURED_COLUMNS].reset_index(drop=True)


def points(raw: pd.DataFrame) -> pd.DataFrame:
    """The table ``points`` (module docstring) of the raw ``measured`` rows."""
    me = raw[raw.kind == "measured"].copy()
    me["pbar_err"] = (me["pbar_upper"] - me["pbar"]).clip(lower=0).fillna(0)
    return me[POINT_COLUMNS].reset_index(drop=True)
