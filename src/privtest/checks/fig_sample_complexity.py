"""Claims of fig_sample_complexity: the fraction of runs whose N_t ever exceeds the tester's per-step bound is within
the bound's failure budget (Lemma 22(1) for the GTM). Testers whose N_t is deterministic (Cohen et al., Liu-Talwar:
budget 0) meet their bound by construction; that identity is a unit test (tests/test_baselines.py), not a claim."""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.checks._common import rate_claim
from privtest.claims import Claim


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """Per tester and setting: fraction of runs whose N_t ever exceeds its bound <= the tester's budget."""
    out = []
    for (method, ratio, pstar), g in raw.groupby(["method", "eps_ratio", "pstar"], sort=False):
        last = g.iloc[-1]
        if np.isnan(last.bound) or np.isnan(last.budget):
            continue
        if last.budget == 0:  # a deterministic N_t (Cohen's Alg 4, Liu-Talwar's eq. 25) equals its bound by
            continue  # construction: a unit test (tests/test_baselines.py), not a claim that could fail
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
