"""Claims of fig_oc: per-step error bounds of one GTM step read off the proof of Theorem 21 (Type II at p* given
eta_1 <= mu1 and unconditionally, exactly; Type I at pbar_t, exactly)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.checks._common import mc_cross_check, miss_claim
from privtest.claims import Claim, exact, fmt
from privtest.schedule import beta_t


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """Per-step Type I / Type II checks at p = pbar_t and p = p* for every curve (see module docstring)."""
    out = []
    for (t, ratio, pstar, variant), g in raw.groupby(["t", "eps_ratio", "pstar", "variant"], sort=True):
        bt = float(beta_t(int(t), cfg["beta"]))
        tag = f"t={t},r={ratio},p*={pstar},{variant}"
        at_star = g[np.isclose(g["p"], pstar)].iloc[0]
        out.append(
            miss_claim(
                f"oc.halt_at_pstar[{tag}]",
                "Thm 21 (proof: Lemma 19(3), Lemma 20)",
                int(at_star.good_halts),
                int(at_star.good_runs),
                float(at_star.beta_II),
                int(at_star.halts),
                int(at_star.runs),
                cfg["beta"],
                f"unconditional miss rate {fmt(1 - at_star.halts / at_star.runs)} vs beta_t = {fmt(bt)}: the per-step "
                "budget holds given eta_1 <= mu1, an event shared by all steps",
            )
        )
        miss_exact = 1.0 - float(at_star.halt_prob_exact)
        bound_II = cfg["beta"] / 4 + bt / 4
        out.append(
            exact(
                claim_id=f"oc.halt_at_pstar_exact[{tag}]",
                source="Thm 21 (proof: Lemma 19(1),(3), Lemma 20)",
                statement="one step misses a halt w.p. <= beta/4 + beta_t/4 when p_t = p* (exact, eta_1 unconditioned)",
                measured=fmt(miss_exact, 6),
                bound=f"<= {fmt(bound_II)}",
                ok=miss_exact <= bound_II,
                note="quadrature (privtest.exact)",
            )
        )
        pbar = float(g["pbar"].iloc[0])
        if pbar > 0:
            at_bar = g[np.isclose(g["p"], pbar)].iloc[0]
            halt_exact = float(at_bar.halt_prob_exact)
            out.append(
                exact(
                    claim_id=f"oc.continue_at_pbar[{tag}]",
                    source="Thm 21 (proof: Lemma 19(2), Lemma 20)",
                    statement="one step halts w.p. <= beta_t/2 when p_t = pbar_t (exact quadrature)",
                    measured=fmt(halt_exact, 6),
                    bound=f"<= {fmt(bt / 2)}",
                    ok=halt_exact <= bt / 2,
                    note="bound beta_t/2 = Pr[eta_2,t > tau2 ln(4/beta_t)] + beta_t/4; "
                    + mc_cross_check(int(at_bar.halts), int(at_bar.runs), halt_exact),
                )
            )
    return out
