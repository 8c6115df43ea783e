"""Claims of fig_amortized_samples: Lemma 22(2)'s explicit amortized bound 2M/T fails in at most a beta/2 fraction of
runs, at every setting where the lemma applies (the bound is NaN elsewhere, e.g. T < 2 ln(16/beta))."""

from __future__ import annotations

import math

import pandas as pd

from privtest.checks._common import rate_claim
from privtest.claims import Claim


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """Lemma 22(2) at every (eps_ratio, pstar, T) where its hypotheses hold (finite bound)."""
    out = []
    for r in raw.itertuples():
        if not math.isfinite(r.bound):
            continue
        out.append(
            rate_claim(
                f"amortized.GTM[r={r.eps_ratio},p*={r.pstar},T={r.T}]",
                "Lemma 22(2)",
                "Pr[N_<=T / T > 2M/T] < beta/2 (explicit constants of the proof)",
                int(r.above),
                int(r.runs),
                cfg["beta"] / 2,
                f"mean N_<=T/T = {r.amortized_mean:.4g}; bound 2M/T = {r.bound:.4g} (leading term "
                f"{r.leading_term:.4g}); per-step bound at T {r.per_step_bound:.4g}",
            )
        )
    return out
