"""Analysis of table2 (:mod:`privtest.experiments.table2`'s rows: one per (application, algorithm, stream, eps) of
Theorem 42 applied to batch DP submodular maximisation, Table 2 of the paper, with BatchToCO's measured utility,
Theorem 42's explicit guarantee and the run-level counts the claims judge).

``rows``: the numeric instantiation of Table 2 (``figures/table2.csv``): the raw rows followed by Table 2 row 2
(Rafiey and Yoshida 2020), evaluated, not run (:func:`rafiey_yoshida_rows`: columns application, algorithm,
stream, eps, delta, beta, kappa, table2_row = 2, ``eps_batch_max`` (the largest batch eps BatchToCO passes A),
``ry_error`` (their additive error there, in units of f), ``opt_T`` (the largest OPT_t of row 1's stream, an upper
bound) and C_beta). ``table2_row`` is 1-6 (empty: another CO application). The claims
(:mod:`privtest.checks.table2`) and the notebook read it.

The run-level counts of each raw row (``runs_violating``, ``runs_violating_va_lo``, and for rows 1, 3, 4 the
checkpoint and calls summaries) are computed by the simulation from the per-run tables it reads or draws
(:func:`privtest.experiments.table2.run_counts`, :func:`~privtest.experiments.table2.process_summary`): table2's raw
table holds one row per (stream, eps), not the runs.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.co.params import BatchToCOParams
from privtest.co.table2 import ROWS, rafiey_yoshida_error


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The table ``rows`` (module docstring); ``cfg``: the config section (``approx``, ``facility``)."""
    rows = pd.concat([raw, rafiey_yoshida_rows(cfg, raw)], ignore_index=True)
    if "table2_row" in rows:
        rows["table2_row"] = rows["table2_row"].astype("Int64")
    return {"rows": rows}


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
