"""Claims of fig_lower_bounds: upper bounds never beat Corollary 30's lower bound, measured
evaluations per step against Theorem 31, and AboveThreshold (where Theorem 29 starts) against Dwork-Roth and
Theorem 29."""

from __future__ import annotations

import math

import pandas as pd

from privtest.analysis import fig_lower_bounds as analysis_module
from privtest.claims import Binomial, Claim, Normal, exact, fmt, statistical


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """On the tables of :func:`privtest.analysis.fig_lower_bounds.analyse` (which the workflow passes; None computes
    them): (a) exact: every upper bound's ln(p*/pbar_T) >= ln Lambda_0 (its slope (eps_1/eps) in ln T is a unit test
    of privtest.bounds, not a claim: it is the code's own closed form).
    (b) measured mean evaluations per step >= Theorem 31's bound (normal approximation over runs).
    (c) AboveThreshold's error rate <= beta and its alpha_+ + alpha_- >= Theorem 29's lower bound."""
    if analysis is None:
        analysis = analysis_module.analyse(raw, cfg)
    out = []
    for r in analysis["margins"].itertuples():
        out.append(
            exact(
                claim_id=f"lower_bounds.above_lower_bound[{r.method}]",
                source="Cor 30",
                statement=f"{r.method}: ln(p*/pbar_T) >= ln Lambda_0 for every T and beta",
                measured=f"min margin {fmt(r.min_margin)}",
                bound=">= 0",
                ok=r.min_margin >= 0,
            )
        )
    b = analysis["samples"]
    for r in b[b.kind == "measured"].itertuples():
        out.append(
            statistical(
                claim_id=f"lower_bounds.samples_vs_thm31[{r.method},beta={r.beta}]",
                source="Thm 31 (beta_II = beta, Remark 32)",
                statement=f"{r.method}: mean evaluations per step >= e^-eps1/(4 p* (2 beta)^(eps1/eps))",
                measured=f"{fmt(r.samples)} +- {fmt(r.ci_half)}",
                bound=f">= {fmt(r.lower_bound)}",
                evidence=Normal(
                    float(r.samples), float(r.se), int(r.runs), "at_least", float(r.lower_bound), span=(0.0, math.inf)
                ),
                note=f"p* = {cfg['pstar']}, T = {int(r.T)}, {int(r.runs)} runs",
            )
        )
    for r in analysis["above_threshold"].itertuples():
        out.append(
            statistical(
                claim_id=f"lower_bounds.above_threshold_accuracy[beta={r.beta}]",
                source="Dwork-Roth Thm 3.24",
                statement="AboveThreshold errs w.p. <= beta with alpha = 8 (ln T + ln(2/beta))/eps",
                measured=f"{fmt(r.rate)} [{fmt(r.ci_low)}, {fmt(r.ci_high)}]",
                bound=f"<= {r.beta}",
                evidence=Binomial(int(r.errors), int(r.runs), "at_most", float(r.beta)),
                note=f"T = {int(r.T)}, {int(r.runs)} runs",
            )
        )
        out.append(
            exact(
                claim_id=f"lower_bounds.above_threshold_vs_thm29[beta={r.beta}]",
                source="Thm 29",
                statement="AboveThreshold's alpha_+ + alpha_- = 2 alpha is >= Theorem 29's lower bound",
                measured=fmt(r.alpha_sum),
                bound=f">= {fmt(r.alpha_sum_lower)}",
                ok=r.alpha_sum >= r.alpha_sum_lower,
                note=f"exact; ratio {fmt(r.alpha_sum_ratio)}",
            )
        )
    return out
