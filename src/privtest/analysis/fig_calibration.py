"""Analysis of fig_calibration (:mod:`privtest.experiments.fig_calibration`'s exact rows, one per (calibration,
eps_ratio, pstar, t, error type)): Theorem 21's calibration against the exact-tail and certified ones (Lemma 20,
Theorem 21). Every value is exact (quadrature, :mod:`privtest.exact`); no interval.

Every table has the raw columns with ``budget`` after ``error_exact`` (:func:`with_budgets`): the bound the proof of
Theorem 21 gives the row's error, Type I at p_t = pbar_t <= beta_t/2, Type II at p_t = p* <= beta/4 + beta_t/4
(unconditional) and <= beta_t/4 given eta_1 <= mu1 (Lemma 20), the whole run <= beta.

* ``rows``: every raw row with its budget (the figure data).
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

from privtest.gtm import continue_bound, halt_miss_bound

#: Per-step error type -> its budget at (t, beta) (proof of Theorem 21: :func:`privtest.gtm.halt_miss_bound`,
#: :func:`privtest.gtm.continue_bound`).
BUDGETS = {
    "II at p*": lambda t, beta: halt_miss_bound(t, beta),
    "II at p* given eta_1 <= mu1": lambda t, beta: halt_miss_bound(t, beta, given_eta1=True),
    "I at pbar": lambda t, beta: continue_bound(t, beta),
}


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``rows``, ``per_step``, ``whole_run``, ``samples_ratio`` and ``error_max`` (module docstring);
    ``cfg``: the config section (``beta``)."""
    raw = with_budgets(raw, cfg["beta"])
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
        "rows": raw,
        "per_step": per_step,
        "whole_run": raw[whole].reset_index(drop=True),
        "samples_ratio": ratio,
        "error_max": error_max,
    }


def with_budgets(raw: pd.DataFrame, beta: float) -> pd.DataFrame:
    """``raw`` with the column ``budget`` after ``error_exact`` (module docstring; beta in (0, 1)).

    Raises:
        ValueError: if a row's ``error_type`` is none of :data:`BUDGETS` nor "whole run, ...".
    """
    budget = []
    for r in raw.itertuples():
        if r.error_type.startswith("whole"):
            budget.append(beta)
        elif r.error_type in BUDGETS:
            budget.append(float(BUDGETS[r.error_type](int(r.t), beta)))
        else:
            raise ValueError(f"raw: error_type {r.error_type!r} has no budget (known: {sorted(BUDGETS)}, whole run).")
    out = raw.copy()
    out.insert(out.columns.get_loc("error_exact") + 1, "budget", budget)
    return out
