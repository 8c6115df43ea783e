"""Claims of fig_error_rates: each tester's whole-run error probability on adversarial streams is within its own
budget (Theorem 21 for the GTM: beta); for the GTM also on the exact value (the Monte Carlo rate beside it as a
cross-check)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.checks._common import mc_cross_check, rate_claim
from privtest.claims import Claim, exact, fmt


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """Each tester's whole-run error probability <= its own budget on each adversarial stream (column ``budget``, from
    :func:`privtest.experiments.fig_error_rates.error_budget`); where the exact value is known (the GTM) also the exact
    value, with the Monte Carlo rate beside it as a cross-check (:func:`privtest.checks._common.mc_cross_check`)."""
    return _exact_claims(raw) + [
        rate_claim(
            f"error_rates.{r.method}[beta={r.beta},{r.stream},T={r.T}]",
            r.source,
            f"{r.method}: Pr[any Type I/II error in a {r.T}-step run] <= its budget",
            int(r.failures),
            int(r.runs),
            float(r.budget),
            f"p_T = {r.p_last:.4g} (its halting threshold)" if r.stream == "pbar_then_pstar" else "",
        )
        for r in raw.itertuples()
    ]


def _exact_claims(raw: pd.DataFrame) -> list[Claim]:
    """The exact whole-run error of every row with an exact value (``rate_exact`` finite) <= its budget, the Monte
    Carlo rate beside it as a cross-check."""
    out = []
    for r in raw.itertuples():
        if not np.isfinite(r.rate_exact):  # NaN: no exact analysis for this tester
            continue
        tag = f"{r.method}[beta={r.beta},{r.stream},T={r.T}]"
        out.append(
            exact(
                claim_id=f"error_rates.exact.{tag}",
                source=r.source,
                statement=f"{r.method}: exact Pr[any Type I/II error in a {r.T}-step run] <= its budget",
                measured=fmt(r.rate_exact, 6),
                bound=f"<= {fmt(r.budget)}",
                ok=r.rate_exact <= r.budget,
                note=f"quadrature (privtest.exact); {mc_cross_check(int(r.failures), int(r.runs), r.rate_exact)}",
            )
        )
    return out
