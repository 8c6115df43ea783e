"""Claims of fig_noise_penalty (exact): every upper bound's noise penalty, measured from where the method guarantees
halting, is >= Corollary 30's Lambda_0, and the closed-form theta* minimises Lambda_t. (That the ex-post Lambda_t is
flat in t is an identity of the calibration: tests/test_gtm.py::test_expost_identities_over_t.)"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.optimize import minimize_scalar

from privtest import bounds
from privtest.claims import Claim, exact, fmt

LN10 = math.log(10.0)


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """Exact checks: every upper bound's gamma*Lambda_t is >= Cor 30's Lambda_0 (an achievable guarantee cannot beat
    the lower bound); the closed-form theta* minimises Lambda_t."""
    out = []
    eps, beta, r = cfg["eps"], cfg["beta"], cfg["eps_ratio"]
    # Curves Corollary 30 constrains (raw column cor30): fixed-(eps, delta)-DP testers measured from where they
    # guarantee halting; the bound at each tester's own delta (delta' = delta/(e^eps - 1)), from T = t = 2 on.
    for curve, g in raw[raw.cor30.astype(bool) & (raw.t >= 2)].groupby("curve", sort=False):
        lb = [
            bounds.lower_bound_log_noise_penalty(int(t), eps, r * eps, beta, d) / LN10
            for t, d in zip(g.t, g.delta, strict=True)
        ]
        margin = float((g["log10_gap"] - np.asarray(lb)).min())
        out.append(
            exact(
                claim_id=f"noise_penalty.above_lower_bound[{curve}]",
                source="Cor 30, Table 1",
                statement=f"{curve}: penalty >= Lambda_0(T = t)",
                measured=f"min log10 margin {fmt(margin)}",
                bound=">= 0",
                ok=margin >= 0,
                note="penalty measured from where the tester guarantees halting (GTM: p*/pbar_t = gamma Lambda_t; "
                "Liu-Talwar: odds(halt_p)/odds(pbar_t), Cor 30's odds form eq. (17)); Cor 30 at the tester's delta",
            )
        )
    worst = 0.0
    for t in (10, 1000, 100000):
        th = bounds.gtm_theta_opt(t, beta)
        res = minimize_scalar(
            lambda x, t=t: bounds.gtm_log_noise_penalty(t, eps, r * eps, beta, x),
            bounds=(1e-3, 50),
            method="bounded",
            options={"xatol": 1e-10},
        )
        worst = max(worst, abs(res.x - th) / th)
    out.append(
        exact(
            claim_id="noise_penalty.theta_opt",
            source="Thm 21 (Sec 1.2: theta trade-off)",
            statement="theta* = sqrt(2 ln(4/beta)/ln(4/beta_t)) minimises Lambda_t",
            measured=f"max relative gap to numerical argmin {fmt(worst)}",
            bound="<= 1e-5",
            ok=worst <= 1e-5,
            note="t in {10, 1e3, 1e5}",
        )
    )
    return out
