"""Claims of fig_sample_complexity: the fraction of runs whose N_t ever exceeds the tester's per-step bound is within
the bound's failure budget (Lemma 22(1) for the GTM; an exact check where the bound is deterministic, budget 0)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.checks._common import rate_claim
from privtest.claims import Claim, exact


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """Per tester and setting: fraction of runs whose N_t ever exceeds its bound <= the tester's budget."""
    out = []
    for (method, ratio, pstar), g in raw.groupby(["method", "eps_ratio", "pstar"], sort=False):
        last = g.iloc[-1]
        if np.isnan(last.bound) or np.isnan(last.budget):
            continue
        if last.budget == 0:  # a deterministic bound (Cohen's Alg 4, Liu-Talwar's eq. 25): the check is exact
            out.append(
                exact(
                    claim_id=f"sample_complexity.{method}[r={ratio},p*={pstar},T={int(last.t)}]",
                    source=f"{last.source} (deterministic N_t)",
                    statement=f"{method}: N_t <= its per-step bound at every step of every run",
                    measured=f"{int(last.exceed_runs)} runs exceed",
                    bound="= 0",
                    ok=int(last.exceed_runs) == 0,
                    note=f"max over t of mean N_t / bound = {g.samples_mean.div(g.bound).max():.3g}",
                )
            )
            continue
        out.append(
            rate_claim(
                f"sample_complexity.{method}[r={ratio},p*={pstar},T={int(last.t)}]",
                f"{last.source}; Lemma 22(1)",
                f"{method}: Pr[N_t > per-step bound for some t <= T] <= failure budget of Lemma 22(1)'s proof",
                int(last.exceed_runs),
                int(last.runs),
                float(last.budget),
                f"max over t of mean N_t / bound = {g.samples_mean.div(g.bound).max():.3g}; bound uses the explicit "
                "rho_t Lambda_t instead of the unspecified C_A",
            )
        )
    return out
