"""Claims of fig_expost: Theorem 23's ex-post calibration keeps the per-step Type II (at p*) and Type I (at pbar_t)
budgets, checked on the exact probabilities with the Monte Carlo estimates beside them. The calibration's identities
(Lemma 17's halting loss equals the theorem's loss function, pbar_t is flat in t) cannot fail and are unit tests
(tests/test_gtm.py::test_expost_identities_over_t)."""

from __future__ import annotations

import pandas as pd

from privtest.analysis import fig_expost as analysis_module
from privtest.checks._common import exact_step_claim
from privtest.claims import Claim


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """Per mc step t and ratio (the table ``steps`` of :func:`privtest.analysis.fig_expost.analyse`, which the
    workflow passes; None computes it): the exact miss probability at p* given eta_1 <= mu1 (<= beta_II = beta_t/6)
    and the exact halting probability at pbar_t (<= beta_t/4 + beta_t/6), Monte Carlo beside each."""
    steps = analysis_module.steps(raw, cfg["beta"]) if analysis is None else analysis["steps"]
    out = []
    for r in steps.itertuples():
        tag = f"t={r.t},r={r.eps_ratio}"
        out.append(
            exact_step_claim(
                f"expost.halt_at_pstar[{tag}]",
                "Thm 23 (proof: Lemma 19(3), Lemma 20)",
                "Pr[one step misses a halt | eta_1 <= mu1] <= beta_II = beta_t/6 when p_t = p* (Lemma 20)",
                float(r.miss_good_exact),
                float(r.beta_II),
                int(r.misses_good),
                int(r.good_runs_pstar),
            )
        )
        out.append(
            exact_step_claim(
                f"expost.continue_at_pbar[{tag}]",
                "Thm 23 (proof: Lemma 19(2), Lemma 20)",
                "one step halts w.p. <= beta_t/4 + beta_t/6 when p_t = pbar_t",
                float(r.halt_pbar_exact),
                float(r.continue_bound),
                int(r.halts_pbar),
                int(r.runs),
                "bound = Pr[eta_2,t > tau2,t ln(4/beta_t)] (beta_t/4, Lemma 19 with c_G = 1/4) + the Poisson tail "
                "beta_t/6 (Lemma 20)",
            )
        )
    return out
