"""Claims of fig_amortized_samples: Lemma 22(2)'s explicit amortized bound 2M/T fails in at most a beta/2 fraction of
runs, at every setting where the lemma applies (the bound is NaN elsewhere, e.g. T < 2 ln(16/beta))."""

from __future__ import annotations

import pandas as pd

from privtest.analysis import fig_amortized_samples as analysis_module
from privtest.checks._common import rate_claim
from privtest.claims import Claim


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """Lemma 22(2) at every row of the table ``summary`` of :func:`privtest.analysis.fig_amortized_samples.analyse`
    (which the workflow passes; None computes it)."""
    summary = analysis_module.summarize(raw, cfg["beta"]) if analysis is None else analysis["summary"]
    out = []
    for r in summary.itertuples():
        out.append(
            rate_claim(
                f"amortized.GTM[r={r.eps_ratio},p*={r.pstar},T={r.T}]",
                "Lemma 22(2)",
                "Pr[N_<=T / T > 2M/T] < beta/2 (explicit constants of the proof)",
                int(r.above),
                int(r.runs),
                float(r.budget),
                f"mean N_<=T/T = {r.amortized_mean:.4g}; bound 2M/T = {r.bound:.4g} (leading term "
                f"{r.leading_term:.4g}); per-step bound at T {r.per_step_bound:.4g}",
            )
        )
    return out
