"""Analysis of table2 (:mod:`privtest.experiments.table2`'s raw rows: one per line, i.e. per (application, algorithm,
stream, eps) of Theorem 42 applied to batch DP submodular maximisation, Table 2 of the paper, with BatchToCO's
measured utility and Theorem 42's explicit guarantee (``level = "line"``), and one per BatchToCO run of each line
(``level = "run"``)).

``rows``: the numeric instantiation of Table 2 (``figures/table2.csv``): the lines with the run-level counts of
:func:`run_counts` at their place among the columns, followed by Table 2 row 2 (Rafiey and Yoshida 2020), evaluated,
not run (:func:`rafiey_yoshida_rows`: columns application, algorithm, stream, eps, delta, beta, kappa, table2_row =
2, ``eps_batch_max`` (the largest batch eps BatchToCO passes A), ``ry_error`` (their additive error there, in units
of f), ``opt_T`` (the largest OPT_t of row 1's stream, an upper bound) and C_beta). ``table2_row`` is 1-6 (empty:
another CO application). The claims (:mod:`privtest.checks.table2`) and the notebook read it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.co import calls
from privtest.co.params import BatchToCOParams
from privtest.co.table2 import ROWS, rafiey_yoshida_error

#: Values of the raw column ``level`` (:mod:`privtest.experiments.table2`): a line of figures/table2.csv, or a run.
LINE, RUN = "line", "run"
#: What names a line (and the run rows of a line).
KEYS = ["application", "stream", "eps"]
#: Raw columns of the run rows only (:func:`privtest.experiments.table2.run_rows`).
RUN_COLUMNS = ["run", "utility_margin_va_hi", "utility_margin_va_lo", "l39_margin", "ell", "delta_loss", "calls_ratio"]
#: Counts of every line (Theorem 42(2)) and, for the lines simulated by table2 (rows 1, 3, 4), the largest realised
#: delta ledger (Lemma 38): placed before ``delta_budget``.
UTILITY_COUNTS = ["runs_violating", "runs_violating_va_lo", "delta_ledger_max"]
#: Lemma 40's counts and Theorem 42(3)'s calls against their expectation (:class:`privtest.co.calls.CallsRatio` of
#: the runs' ``calls_ratio``) of the lines simulated by table2: placed before ``table2_row``.
CHECKPOINT_COUNTS = [
    *("checkpoint_runs", "checkpoint_runs_violating", "ell_T_max", "l39_margin_max"),
    *("calls_ratio_mean", "calls_ratio_se", "calls_runs"),
]


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The table ``rows`` (module docstring); ``cfg``: the config section (``approx``, ``facility``).

    Raises:
        ValueError: if two lines share an (application, stream, eps) (their run rows could not be told apart).
    """
    lines = raw[raw.level == LINE].drop(columns=["level", *(c for c in RUN_COLUMNS if c in raw)])
    if lines.duplicated(KEYS).any():
        dup = lines.loc[lines.duplicated(KEYS), KEYS].to_numpy().tolist()
        raise ValueError(f"table2: lines share an (application, stream, eps): {dup}.")
    counts = run_counts(raw[raw.level == RUN])
    merged = lines.merge(counts, on=KEYS, how="left", validate="one_to_one")
    merged["runs_violating"] = merged["runs_violating"].fillna(0).astype(int)
    merged["runs_violating_va_lo"] = merged["runs_violating_va_lo"].fillna(0).astype(int)
    columns = list(lines.columns)
    for new, before in ((UTILITY_COUNTS, "delta_budget"), (CHECKPOINT_COUNTS, "table2_row")):
        new = [c for c in new if c in merged]
        i = columns.index(before) if before in columns else len(columns)
        columns = columns[:i] + new + columns[i:]
    merged = merged[columns]
    rows = pd.concat([merged, rafiey_yoshida_rows(cfg, merged)], ignore_index=True)
    if "table2_row" in rows:
        rows["table2_row"] = rows["table2_row"].astype("Int64")
    return {"rows": rows}


def run_counts(runs: pd.DataFrame) -> pd.DataFrame:
    """Per line (application, stream, eps) of the run rows ``runs`` (:func:`privtest.experiments.table2.run_rows`),
    sorted: the runs with some covered step below Theorem 42's guarantee at V_hi (``runs_violating``: an upper end of
    the true count w.p. >= 1 - va_alpha) and at V_lo (``runs_violating_va_lo``: a lower end), the counts
    :mod:`privtest.checks.table2` judges against Theorem 42(2)'s failure probability (C_beta + 3) beta per run; for
    the lines simulated by table2 (rows 1, 3, 4: their runs carry ``ell``), also ``checkpoint_runs`` (their number),
    ``checkpoint_runs_violating`` (runs with a Lemma 39(2) margin > 0), ``ell_T_max`` (the largest ell(T)),
    ``l39_margin_max`` (the largest margin), ``delta_ledger_max`` (the largest realised delta ledger) and the mean,
    standard error and number of the runs' ``calls_ratio`` (``calls_ratio_mean``, ``calls_ratio_se``, ``calls_runs``,
    :func:`privtest.co.calls.summarise`); NaN for the other lines.

    Returns:
        DataFrame with columns application, stream, eps, runs_violating, runs_violating_va_lo (ints) and, if
        ``runs`` has the column ``l39_margin``, checkpoint_runs, checkpoint_runs_violating, ell_T_max,
        l39_margin_max, delta_ledger_max, calls_ratio_mean, calls_ratio_se, calls_runs.
    """
    g = runs.assign(hi=runs.utility_margin_va_hi > 0, lo=runs.utility_margin_va_lo > 0).groupby(KEYS, sort=True)
    out = pd.DataFrame({"runs_violating": g["hi"].sum(), "runs_violating_va_lo": g["lo"].sum()}).astype(int)
    if "l39_margin" in runs:
        simulated = runs[runs.ell.notna()]  # the runs of the lines simulated by table2 (rows 1, 3, 4)
        p = simulated.assign(bad=simulated.l39_margin > 0).groupby(KEYS, sort=True)
        out["checkpoint_runs"] = p["run"].nunique()
        out["checkpoint_runs_violating"] = p["bad"].sum()
        out["ell_T_max"] = p["ell"].max()
        out["l39_margin_max"] = p["l39_margin"].max()
        out["delta_ledger_max"] = p["delta_loss"].max()
        ratio = {key: calls.summarise(g.calls_ratio) for key, g in p}
        at = pd.MultiIndex.from_tuples(list(ratio), names=KEYS)
        out["calls_ratio_mean"] = pd.Series([r.mean for r in ratio.values()], at, dtype=float)
        out["calls_ratio_se"] = pd.Series([r.se for r in ratio.values()], at, dtype=float)
        out["calls_runs"] = pd.Series([r.runs for r in ratio.values()], at, dtype=float)  # NaN: not simulated here
    return out.reset_index()


def rafiey_yoshida_rows(cfg: dict, rows: pd.DataFrame) -> pd.DataFrame:
    """Table 2 row 2 (Rafiey and Yoshida 2020), evaluated, not run: per eps of ``approx``, their additive error
    k^7 m ln m / eps^3 (:func:`privtest.co.table2.rafiey_yoshida_error`) at the largest batch eps BatchToCO ever
    passes A, eps_batch(2, 2) (eps_batch(i, t) decreases in i and t), on row 1's stream (k, m = grid^2), against
    the largest OPT_t (upper bound) of that stream (``opt_T``). ``ry_error > opt_T`` means the batch guarantee
    (1 - 1/e) OPT_t - E_A, hence Theorem 42's, is negative at every t: VACUOUS. Empty when ``rows`` has no row 1."""
    ap, fac = cfg["approx"], cfg["facility"]
    k, m = int(fac["k"]), int(fac["grid"]) ** 2
    r1 = rows[rows.table2_row == 1] if "table2_row" in rows else rows.iloc[:0]
    if r1.empty:  # row 1 not run (no facility-location line to take OPT_T from): nothing to evaluate against
        return pd.DataFrame()
    out = []
    for eps in ap["eps"]:
        P = BatchToCOParams.from_config(ap, float(eps), delta=float(ap.get("delta", 0.0)))  # as the runs
        e_b = float(P.batch_eps(2, 2))
        sel = r1[r1.eps == eps]
        out.append(
            dict(
                application="Table 2 row 2",
                algorithm=ROWS[2].algorithm,
                stream="mpls_stops (evaluated)",
                eps=float(eps),
                delta=float(ap["delta"]),
                beta=float(ap["beta"]),
                kappa=float(ap["kappa"]),
                table2_row=2,
                eps_batch_max=e_b,
                ry_error=rafiey_yoshida_error(k, m, e_b),
                opt_T=float(sel.opt_T.iloc[0]) if len(sel) else np.nan,
                C_beta=float(ap["C_beta"]),
            )
        )
    out = pd.DataFrame(out)
    out["table2_row"] = out["table2_row"].astype("Int64")
    return out
