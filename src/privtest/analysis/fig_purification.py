"""Analysis of fig_purification (:mod:`privtest.experiments.fig_purification`'s raw rows: ``smoothing`` rows of
purified Bernoulli counts per (delta, p), ``gtm`` rows of halting counts at Corollary 25's shifted thresholds and the
exact worst log-ratio of purified boundary pairs, per delta): the tables its check and figure read (Lemma 24,
Corollary 25).

* ``series``: the raw rows as drawn (``figures/data/fig_purification.csv``);
* ``smoothing``: per (delta, p), in simulation order: phi, ``shift_exact`` = p_tilde - p (the purified success
  probability's shift) and ``shift_measured`` = plus/n - p (its Monte Carlo estimate);
* ``steps``: one row per delta, in simulation order: t, ``eps1`` = eps_ratio eps, ``worst_log_ratio`` (nats, Lemma
  24(2)-(3): at most eps1), at p_t = ``p_halt`` = p* + phi the exact ``miss_good_exact`` with its bound ``beta_II``
  and its count ``misses_good`` of ``good_runs_at_halt``, at p_t = ``p_continue`` = pbar - phi the exact
  ``halt_continue_exact`` with its bound ``continue_bound`` = beta_t/2 (:func:`privtest.gtm.continue_bound`) and
  its count ``halts_at_continue`` of ``runs``;
* ``rates``: the figure's bars, one row per delta: t, pstar, pbar, phi and the Monte Carlo halting rates
  ``halt_rate_at_halt`` (at p* + phi) and ``halt_rate_at_continue`` (at pbar - phi).
"""

from __future__ import annotations

import pandas as pd

from privtest.gtm import continue_bound

#: Columns of the table ``smoothing``.
SMOOTHING_COLUMNS = ["delta", "phi", "p", "shift_exact", "shift_measured"]
#: Columns of the table ``steps``.
STEP_COLUMNS = ["delta", "t", "eps1", "worst_log_ratio", "p_halt", "miss_good_exact", "beta_II", "misses_good",
                "good_runs_at_halt", "p_continue", "halt_continue_exact", "continue_bound", "halts_at_continue",
                "runs"]  # fmt: skip
#: Columns of the table ``rates``.
RATE_COLUMNS = ["delta", "t", "pstar", "pbar", "phi", "halt_rate_at_halt", "halt_rate_at_continue"]


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables of the module docstring; ``cfg`` needs eps, eps_ratio and beta (in (0, 1))."""
    return {"series": raw.copy(), "smoothing": smoothing(raw), "steps": steps(raw, cfg), "rates": rates(raw)}


def smoothing(raw: pd.DataFrame) -> pd.DataFrame:
    """The table ``smoothing`` (module docstring) of the raw ``smoothing`` rows."""
    sm = raw[raw.kind == "smoothing"].copy()
    sm["shift_exact"] = sm["p_tilde"] - sm["p"]
    sm["shift_measured"] = sm["plus"] / sm["n"] - sm["p"]
    return sm[SMOOTHING_COLUMNS].reset_index(drop=True)


def steps(raw: pd.DataFrame, cfg: dict) -> pd.DataFrame:
    """The table ``steps`` (module docstring) of the raw ``gtm`` rows at the config's eps, eps_ratio and beta;
    ValueError if beta is not in (0, 1) (:func:`privtest.gtm.continue_bound`)."""
    g = raw[raw.kind == "gtm"].copy()
    g["t"] = g["t"].astype(int)
    g["eps1"] = cfg["eps_ratio"] * cfg["eps"]
    g["continue_bound"] = continue_bound(g["t"].to_numpy(), cfg["beta"])
    g["misses_good"] = (g["good_runs_at_halt"] - g["good_halts_at_halt"]).astype(int)
    return g[STEP_COLUMNS].reset_index(drop=True)


def rates(raw: pd.DataFrame) -> pd.DataFrame:
    """The table ``rates`` (module docstring) of the raw ``gtm`` rows."""
    g = raw[raw.kind == "gtm"].copy()
    g["t"] = g["t"].astype(int)
    g["halt_rate_at_halt"] = g["halts_at_halt"] / g["runs"]
    g["halt_rate_at_continue"] = g["halts_at_continue"] / g["runs"]
    return g[RATE_COLUMNS].reset_index(drop=True)
