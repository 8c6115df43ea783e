"""Analysis of fig_expost (:mod:`privtest.experiments.fig_expost`'s raw rows: ``curve`` rows of both calibrations'
thresholds and losses on a log grid of t, ``mc`` rows of halting counts and exact probabilities at the ``mc_t``
steps): the tables its check and figure read (Theorem 23).

* ``series``: the raw rows as drawn (``figures/data/fig_expost.csv``): pbar_expost, pbar_global (probabilities),
  halt_loss, continue_loss (privacy loss, nats) per (eps_ratio, t);
* ``steps``: one row per mc step (eps_ratio, t), in simulation order: the exact ``miss_good_exact`` (Pr[miss a
  halt at p* | eta_1 <= mu1]) with its bound ``beta_II`` (beta_t/6) and its Monte Carlo count ``misses_good`` of
  ``good_runs_pstar``; the exact ``halt_pbar_exact`` (Pr[halt at pbar_t]) with its bound ``continue_bound`` =
  beta_t/4 + beta_t/6 (:func:`privtest.gtm.continue_bound`) and its count ``halts_pbar`` of ``runs``;
* ``rates``: per mc step, in simulation order: pbar_expost, halt_loss and the Monte Carlo halting rates
  ``halt_at_pstar`` (at p*) and ``halt_at_pbar`` (at pbar_t), the figure's table.
"""

from __future__ import annotations

import pandas as pd

from privtest.gtm import continue_bound

#: Columns of the table ``steps``.
STEP_COLUMNS = ["eps_ratio", "t", "miss_good_exact", "beta_II", "misses_good", "good_runs_pstar", "halt_pbar_exact",
                "continue_bound", "halts_pbar", "runs"]  # fmt: skip
#: Columns of the table ``rates``.
RATE_COLUMNS = ["eps_ratio", "t", "pbar_expost", "halt_at_pstar", "halt_at_pbar", "halt_loss"]


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables of the module docstring; ``cfg`` needs ``beta`` (in (0, 1))."""
    return {"series": raw.copy(), "steps": steps(raw, cfg["beta"]), "rates": rates(raw)}


def steps(raw: pd.DataFrame, beta: float) -> pd.DataFrame:
    """The table ``steps`` (module docstring) of the raw ``mc`` rows; ValueError if ``beta`` is not in (0, 1)
    (:func:`privtest.gtm.continue_bound`)."""
    mc = raw[raw.kind == "mc"].copy()
    mc["t"] = mc["t"].astype(int)
    mc["continue_bound"] = continue_bound(mc["t"].to_numpy(), beta, theorem=23)
    mc["misses_good"] = (mc["good_runs_pstar"] - mc["good_halts_pstar"]).astype(int)
    return mc[STEP_COLUMNS].reset_index(drop=True)


def rates(raw: pd.DataFrame) -> pd.DataFrame:
    """The table ``rates`` (module docstring) of the raw ``mc`` rows."""
    mc = raw[raw.kind == "mc"].copy()
    mc["t"] = mc["t"].astype(int)
    mc["halt_at_pstar"] = mc["halts_pstar"] / mc["runs"]
    mc["halt_at_pbar"] = mc["halts_pbar"] / mc["runs"]
    return mc[RATE_COLUMNS].reset_index(drop=True)
