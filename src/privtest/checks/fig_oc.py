"""Claims of fig_oc: per-step error bounds of one GTM step read off the proof of Theorem 21, each on the exact
probability (:mod:`privtest.exact`) with the Monte Carlo estimate beside it: Type II at p* given eta_1 <= mu1 (at
beta_t/4) and unconditionally (at beta/4 + beta_t/4), Type I at pbar_t (at beta_t/2; VACUOUS where pbar_t <= 0)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.checks._common import exact_step_claim
from privtest.claims import Claim, fmt, vacuous
from privtest.schedule import beta_t


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """Per-step Type I / Type II checks at p = pbar_t and p = p* for every curve (see module docstring)."""
    out = []
    for (t, ratio, pstar, variant), g in raw.groupby(["t", "eps_ratio", "pstar", "variant"], sort=True):
        bt = float(beta_t(int(t), cfg["beta"]))
        tag = f"t={t},r={ratio},p*={pstar},{variant}"
        at_star = g[np.isclose(g["p"], pstar)].iloc[0]
        misses_good = int(at_star.good_runs - at_star.good_halts)
        out.append(
            exact_step_claim(
                f"oc.halt_at_pstar[{tag}]",
                "Thm 21 (proof: Lemma 19(3), Lemma 20)",
                "Pr[one step misses a halt | eta_1 <= mu1] <= beta_II = beta_t/4 when p_t = p* (Lemma 20)",
                float(at_star.miss_good_exact),
                float(at_star.beta_II),
                misses_good,
                int(at_star.good_runs),
                "the per-step budget holds given eta_1 <= mu1, an event shared by all steps",
            )
        )
        miss_exact = 1.0 - float(at_star.halt_prob_exact)
        out.append(
            exact_step_claim(
                f"oc.halt_at_pstar_exact[{tag}]",
                "Thm 21 (proof: Lemma 19(1),(3), Lemma 20)",
                "one step misses a halt w.p. <= beta/4 + beta_t/4 when p_t = p* (eta_1 unconditioned)",
                miss_exact,
                cfg["beta"] / 4 + bt / 4,
                int(at_star.runs - at_star.halts),
                int(at_star.runs),
            )
        )
        pbar = float(g["pbar"].iloc[0])
        text = dict(
            claim_id=f"oc.continue_at_pbar[{tag}]",
            source="Thm 21 (proof: Lemma 19(2), Lemma 20)",
            statement="one step halts w.p. <= beta_t/2 when p_t <= pbar_t",
        )
        if pbar > 0:
            at_bar = g[np.isclose(g["p"], pbar)].iloc[0]
            out.append(
                exact_step_claim(
                    text["claim_id"],
                    text["source"],
                    text["statement"],
                    float(at_bar.halt_prob_exact),
                    bt / 2,
                    int(at_bar.halts),
                    int(at_bar.runs),
                    "bound beta_t/2 = Pr[eta_2,t > tau2 ln(4/beta_t)] + beta_t/4",
                )
            )
        else:  # no p_t in [0, 1] lies below pbar_t: the theorem guarantees no continuation at this step
            out.append(
                vacuous(
                    **text,
                    measured="no p_t <= pbar_t in [0, 1]",
                    bound=f"pbar_t = {fmt(pbar)}",
                    value=pbar,
                    note="pbar_t = 1 - gamma Lambda_t (1 - p*) <= 0: Theorem 21 gives no rejection guarantee here "
                    "(fig_oc marks it)",
                )
            )
    return out
