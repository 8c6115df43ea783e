"""Claims of fig_rejection_threshold: each tester, fed p_t = its own pbar_T at every step, halts within T with
probability within its Type I budget."""

from __future__ import annotations

import pandas as pd

from privtest.analysis import fig_rejection_threshold as analysis_module
from privtest.claims import Binomial, Claim, fmt, statistical


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """Per tester and measured p*: Pr[halt within T] at its own theoretical pbar_T is within its Type I budget (the
    table ``measured`` of :func:`privtest.analysis.fig_rejection_threshold.analyse`, which the workflow passes; None
    computes it)."""
    measured = analysis_module.measured(raw) if analysis is None else analysis["measured"]
    out = []
    for r in measured.itertuples():
        out.append(
            statistical(
                claim_id=f"rejection_threshold.continue_at_pbar[{r.method},p*={r.pstar:g}]",
                source=f"Table 1 ({r.method})",
                statement=f"{r.method}: Pr[halt within T={cfg['T']}] <= its budget at p_t = its pbar_T",
                measured=f"{fmt(r.rate)} [{fmt(r.ci_low)}, {fmt(r.ci_high)}]",
                bound=f"<= {fmt(r.budget)}",
                evidence=Binomial(int(r.halts_at_theory), int(r.runs), "at_most", float(r.budget)),
                note=f"pbar_T = {fmt(r.pbar_theory)}; measured pbar = {fmt(r.pbar)}",
            )
        )
    return out
