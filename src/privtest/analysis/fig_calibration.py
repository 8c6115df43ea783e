"""Analysis of fig_calibration (:mod:`privtest.experiments.fig_calibration`'s exact rows, one per (calibration,
eps_ratio, pstar, t, error type)): Theorem 21's calibration against the exact-tail and certified ones (Lemma 20,
Theorem 21). Every value is exact (quadrature, :mod:`privtest.exact`); no interval.

* ``per_step``: the raw rows of the per-step calibrations ("paper", "exact tails"; the certified one and the
  whole-run rows left out) with their columns (calibration, t, eps_ratio, pstar, s, c, rho, samples_mean = E[N_t],
  pbar, error_type, error_exact, budget, budget_scale): the single-step errors the claims hold to their budgets.
* ``whole_run``: the raw whole-run rows (error_type "whole run, T=..."): each calibration's exact worst-case
  probability of any error within T steps, its budget beta, its budget scale and samples_mean = mean E[N_t] over
  t <= T.
* ``samples_ratio``: per (eps_ratio, pstar, t), E[N_t] of the paper's calibration (``paper``), of the exact-tail
  one (``exact_tails``) and ``ratio`` = exact_tails / paper.
* ``error_max``: per (calibration, error_type, t) of the per-step calibrations, the largest ``error_exact`` over
  the configured pstar and eps_ratio and the step's ``budget`` (the same for all of them): panel (b) of the figure.
"""

from __future__ import annotations

import pandas as pd


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``per_step``, ``whole_run``, ``samples_ratio`` and ``error_max`` (module docstring); ``cfg`` (the
    config section) is not needed."""
    whole = raw.error_type.str.startswith("whole")
    per_step = raw[~whole & ~raw.calibration.str.startswith("certified")].reset_index(drop=True)
    both = per_step[per_step.error_type == "II at p*"].pivot_table(
        index=["eps_ratio", "pstar", "t"], columns="calibration", values="samples_mean"
    )
    ratio = pd.DataFrame({"paper": both["paper"], "exact_tails": both["exact tails"]}).reset_index()
    ratio["ratio"] = ratio["exact_tails"] / ratio["paper"]
    error_max = per_step.groupby(["calibration", "error_type", "t"], as_index=False).agg(
        error_exact=("error_exact", "max"), budget=("budget", "first")
    )
    return {
        "per_step": per_step,
        "whole_run": raw[whole].reset_index(drop=True),
        "samples_ratio": ratio,
        "error_max": error_max,
    }
