"""Claims of fig_oc: per-step error bounds of one GTM step read off the proof of Theorem 21, each on the exact
probability (:mod:`privtest.exact`) with the Monte Carlo estimate beside it: Type II at p* given eta_1 <= mu1 (at
beta_t/4) and unconditionally (at beta/4 + beta_t/4), Type I at pbar_t (at beta_t/2; VACUOUS where pbar_t <= 0).
The probabilities, bounds and counts are the table ``curves`` of :mod:`privtest.analysis.fig_oc`."""

from __future__ import annotations

import pandas as pd

from privtest.analysis import fig_oc as analysis_module
from privtest.checks._common import exact_step_claim
from privtest.claims import Claim, fmt, vacuous


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """Per-step Type I / Type II checks at p = pbar_t and p = p* for every curve (see module docstring): one row of
    the table ``curves`` of :func:`privtest.analysis.fig_oc.analyse` per curve (the workflow passes it; None
    computes it from ``raw`` and ``cfg["beta"]``)."""
    curves = analysis_module.curves(raw, cfg["beta"]) if analysis is None else analysis["curves"]
    out = []
    for r in curves.itertuples():
        tag = f"t={r.t},r={r.eps_ratio},p*={r.pstar},{r.variant}"
        out.append(
            exact_step_claim(
                f"oc.halt_at_pstar[{tag}]",
                "Thm 21 (proof: Lemma 19(3), Lemma 20)",
                "Pr[one step misses a halt | eta_1 <= mu1] <= beta_II = beta_t/4 when p_t = p* (Lemma 20)",
                float(r.miss_good_exact),
                float(r.beta_II),
                int(r.misses_good),
                int(r.good_runs),
                "the per-step budget holds given eta_1 <= mu1, an event shared by all steps",
            )
        )
        out.append(
            exact_step_claim(
                f"oc.halt_at_pstar_exact[{tag}]",
                "Thm 21 (proof: Lemma 19(1),(3), Lemma 20)",
                "one step misses a halt w.p. <= beta/4 + beta_t/4 when p_t = p* (eta_1 unconditioned)",
                float(r.miss_exact),
                float(r.miss_bound),
                int(r.misses),
                int(r.runs),
            )
        )
        text = dict(
            claim_id=f"oc.continue_at_pbar[{tag}]",
            source="Thm 21 (proof: Lemma 19(2), Lemma 20)",
            statement="one step halts w.p. <= beta_t/2 when p_t <= pbar_t",
        )
        if r.pbar > 0:
            out.append(
                exact_step_claim(
                    text["claim_id"],
                    text["source"],
                    text["statement"],
                    float(r.halt_pbar_exact),
                    float(r.continue_bound),
                    int(r.halts_pbar),
                    int(r.runs_pbar),
                    "bound beta_t/2 = Pr[eta_2,t > tau2 ln(4/beta_t)] + beta_t/4",
                )
            )
        else:  # no p_t in [0, 1] lies below pbar_t: the theorem guarantees no continuation at this step
            out.append(
                vacuous(
                    **text,
                    measured="no p_t <= pbar_t in [0, 1]",
                    bound=f"pbar_t = {fmt(float(r.pbar))}",
                    value=float(r.pbar),
                    note="pbar_t = 1 - gamma Lambda_t (1 - p*) <= 0: Theorem 21 gives no rejection guarantee here "
                    "(fig_oc marks it)",
                )
            )
    return out
