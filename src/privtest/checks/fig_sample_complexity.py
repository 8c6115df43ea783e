"""Claims of fig_sample_complexity: the fraction of runs whose N_t ever exceeds the tester's per-step bound is within
the bound's failure budget (Lemma 22(1) for the GTM). Testers whose N_t is deterministic (Cohen et al., Liu-Talwar:
budget 0) meet their bound by construction; that identity is a unit test (tests/test_baselines.py), not a claim."""

from __future__ import annotations

import pandas as pd

from privtest.analysis import fig_sample_complexity as analysis_module
from privtest.checks._common import rate_claim
from privtest.claims import Claim


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """Per tester and setting: fraction of runs whose N_t ever exceeds its bound <= the tester's budget, from the table
    ``summary`` of :func:`privtest.analysis.fig_sample_complexity.analyse` (which the workflow passes; None computes
    it)."""
    summary = analysis_module.summarize(raw) if analysis is None else analysis["summary"]
    out = []
    for r in summary[summary.claimed.astype(bool)].itertuples():
        out.append(
            rate_claim(
                f"sample_complexity.{r.method}[r={r.eps_ratio},p*={r.pstar},T={int(r.T)}]",
                f"{r.source}; Lemma 22(1)",
                f"{r.method}: Pr[N_t > per-step bound for some t <= T] <= failure budget of Lemma 22(1)'s proof",
                int(r.exceed_runs),
                int(r.runs),
                float(r.budget),
                f"max over t of mean N_t / bound = {r.max_mean_to_bound:.3g}; bound uses the explicit "
                "rho_t Lambda_t instead of the unspecified C_A",
            )
        )
    return out
