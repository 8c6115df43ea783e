"""Claims of fig_lower_bounds: upper bounds never beat Corollary 30's lower bound, measured
evaluations per step against Theorem 31, and AboveThreshold (where Theorem 29 starts) against Dwork-Roth and
Theorem 29."""

from __future__ import annotations

import math

import pandas as pd

from privtest.claims import Binomial, Claim, Normal, exact, fmt, statistical
from privtest.stats import clopper_pearson


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """(a) exact: every upper bound's ln(p*/pbar_T) >= ln Lambda_0 (its slope (eps_1/eps) in ln T is a unit test
    of privtest.bounds, not a claim: it is the code's own closed form).
    (b) measured mean evaluations per step >= Theorem 31's bound (normal approximation over runs)."""
    out = []
    a = raw[raw.panel == "a"]
    lb = a[a.method == "LowerBound"].set_index(["beta", "T"])["y"]
    for m, g in a[a.method != "LowerBound"].groupby("method", sort=False):
        margin = (g.set_index(["beta", "T"])["y"] - lb.loc[g.set_index(["beta", "T"]).index]).min()
        out.append(
            exact(
                claim_id=f"lower_bounds.above_lower_bound[{m}]",
                source="Cor 30",
                statement=f"{m}: ln(p*/pbar_T) >= ln Lambda_0 for every T and beta",
                measured=f"min margin {fmt(margin)}",
                bound=">= 0",
                ok=margin >= 0,
            )
        )
    b = raw[(raw.panel == "b") & (raw.kind == "measured")]
    for r in b.itertuples():
        # one run (std NaN) or identical counts: se = 0, the bounded-range test on evaluations per step >= 0
        se = r.samples_sd / math.sqrt(r.runs) if math.isfinite(r.samples_sd) else 0.0
        out.append(
            statistical(
                claim_id=f"lower_bounds.samples_vs_thm31[{r.method},beta={r.beta}]",
                source="Thm 31 (beta_II = beta, Remark 32)",
                statement=f"{r.method}: mean evaluations per step >= e^-eps1/(4 p* (2 beta)^(eps1/eps))",
                measured=f"{fmt(r.samples)} +- {fmt(1.96 * se)}",
                bound=f">= {fmt(r.lower_bound)}",
                evidence=Normal(
                    float(r.samples), float(se), int(r.runs), "at_least", float(r.lower_bound), span=(0.0, math.inf)
                ),
                note=f"p* = {cfg['pstar']}, T = {int(r.T)}, {int(r.runs)} runs",
            )
        )
    for r in raw[raw.panel == "c"].itertuples():
        lo, hi = clopper_pearson(r.errors, r.runs)
        out.append(
            statistical(
                claim_id=f"lower_bounds.above_threshold_accuracy[beta={r.beta}]",
                source="Dwork-Roth Thm 3.24",
                statement="AboveThreshold errs w.p. <= beta with alpha = 8 (ln T + ln(2/beta))/eps",
                measured=f"{fmt(r.errors / r.runs)} [{fmt(lo)}, {fmt(hi)}]",
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
                measured=fmt(2 * r.alpha),
                bound=f">= {fmt(r.alpha_sum_lower)}",
                ok=2 * r.alpha >= r.alpha_sum_lower,
                note=f"exact; ratio {fmt(2 * r.alpha / r.alpha_sum_lower)}",
            )
        )
    return out
