"""Claims of fig_random_dropping: Cohen et al.'s false halts and Ghazi et al.'s bad selections at a fixed pbar are at
least their lower bounds (Corollaries 51 and 53) and exceed beta at the largest T, while the GTM stays below beta at
its own pbar_T (inside Theorem 21; the figure's fixed pbar may exceed pbar_T, and the GTM's rate there is reported as
an observation beyond the theorem)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.analysis.fig_random_dropping import analyse
from privtest.claims import Binomial, Claim, fmt, statistical


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """Cohen's false-halt and Ghazi's bad-selection probabilities are >= their lower bounds (Cor 51, Cor 53) at
    every T; at the largest T they exceed beta while the GTM stays <= beta at p_t = pbar_T (Theorem 21). Reads the
    table ``summary`` of :func:`privtest.analysis.fig_random_dropping.analyse` (None computes it)."""
    summary = (analysis if analysis is not None else analyse(raw, cfg))["summary"]
    out = []
    lower = summary[np.isfinite(summary.bound)]  # random dropping: a lower bound on the error (Cor 51, Cor 53)
    for r in lower.itertuples():
        out.append(
            statistical(
                claim_id=f"random_dropping.{r.method}_lower[T={r.T}]",
                source=r.source,
                statement=f"{r.method}: {r.event} probability at pbar = {cfg['pbar']} >= its lower bound",
                measured=f"{fmt(r.rate)} [{fmt(r.ci_low)}, {fmt(r.ci_high)}]",
                bound=f">= {fmt(r.bound)}",
                evidence=Binomial(int(r.events), int(r.runs), "at_least", float(r.bound)),
                note=f"{r.runs} runs",
            )
        )
    Tmax = summary["T"].max()
    for r in summary[summary["T"] == Tmax].itertuples():
        if np.isfinite(r.bound):
            out.append(
                statistical(
                    claim_id=f"random_dropping.{r.method}_exceeds_beta[T={r.T}]",
                    source=r.source,
                    statement=f"{r.method}: at fixed pbar the error probability exceeds beta once T is large",
                    measured=f"{fmt(r.rate)} [{fmt(r.ci_low)}, {fmt(r.ci_high)}]",
                    bound=f"> {cfg['beta']}",
                    evidence=Binomial(int(r.events), int(r.runs), "at_least", float(cfg["beta"])),
                    note=f"largest pbar its corollary allows at this T: {fmt(r.pbar_max)}",
                )
            )
        else:  # Theorem 21 covers p_t <= pbar_t: the claim is evaluated at p_t = pbar_{T-G} (the same coupled runs)
            k = int(r.events_at_pbar_max)
            beyond = (
                f"the figure's fixed pbar = {cfg['pbar']} is > pbar_T, beyond Theorem 21: there the rate is an "
                f"observation, not a claim of the paper ({fmt(r.rate)} [{fmt(r.ci_low)}, {fmt(r.ci_high)}])"
                if cfg["pbar"] > r.pbar_max
                else f"at the figure's fixed pbar = {cfg['pbar']} (<= pbar_T) the rate is {fmt(r.rate)}"
            )
            out.append(
                statistical(
                    claim_id=f"random_dropping.{r.method}_below_beta[T={r.T}]",
                    source=r.source,
                    statement=f"{r.method}: {r.event} probability within T - G steps at p_t = pbar_T = "
                    f"{fmt(r.pbar_max)} (inside Theorem 21) stays <= beta",
                    measured=f"{fmt(r.rate_at_pbar_max)} [{fmt(r.ci_low_at_pbar_max)}, {fmt(r.ci_high_at_pbar_max)}]",
                    bound=f"<= {cfg['beta']}",
                    evidence=Binomial(k, int(r.runs), "at_most", float(cfg["beta"])),
                    note=f"{int(r.runs)} runs; {beyond}",
                )
            )
    return out
