"""fig_rejection_threshold: rejection threshold pbar vs p* in (0, 1) at fixed T, beta, eps_1/eps (Table 1, Cor 30):
GTM's two branches (direct p*/(gamma Lambda_T), flipped 1 - gamma Lambda_T (1-p*)) and their max (Theorem 21),
Cohen et al. (Proposition 48, proof), Liu-Talwar (Theorem 46(2)), and the largest pbar the lower bound allows
(Corollary 30, three cases; and the weaker odds form eq. 17). Measured points: each tester's pbar_measured at a few
p* (largest p with Pr[halt within T] <= beta at 95% confidence, :mod:`privtest.measure`). Claims:
:mod:`privtest.checks.fig_rejection_threshold`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import expit

from privtest import bounds
from privtest.measure import logit_grid, measured_pbar
from privtest.registry import make_tester


def theory(cfg: dict) -> pd.DataFrame:
    """Theory curves on a logit-spaced p* grid: columns curve, method, pstar, pbar (nan where a branch is <= 0)."""
    eps, beta, r, T, th, ga = cfg["eps"], cfg["beta"], cfg["eps_ratio"], cfg["T"], cfg["theta"], cfg["gamma"]
    eps1 = r * eps
    rows = []
    for ps in expit(np.linspace(-7, 7, cfg["points"])):
        ps = float(ps)
        vals = {
            ("GTM direct", "GTM"): bounds.gtm_rejection_threshold(T, ps, eps, eps1, beta, th, ga, "direct"),
            ("GTM flipped", "GTM"): bounds.gtm_rejection_threshold(T, ps, eps, eps1, beta, th, ga, "flipped"),
            ("GTM (max)", "GTM"): bounds.gtm_rejection_threshold(T, ps, eps, eps1, beta, th, ga),
            ("Cohen et al.", "Cohen"): bounds.cohen_rejection_threshold(T, ps, eps, eps1, beta),
            ("Liu-Talwar", "LiuTalwar"): bounds.liu_talwar_rejection_threshold(T, ps, eps, eps1, beta, cfg["eps0"]),
            ("lower bound (Cor 30)", "LowerBound"): bounds.lower_bound_rejection_threshold(T, ps, eps, eps1, beta),
            ("lower bound (odds, eq. 17)", "LowerBound"): bounds.lower_bound_rejection_threshold(
                T, ps, eps, eps1, beta, form="odds"
            ),
        }
        for (curve, method), v in vals.items():
            rows.append(dict(kind="theory", curve=curve, method=method, pstar=ps, pbar=v if v > 0 else np.nan))
    return pd.DataFrame(rows)


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Theory curves plus measured rows (kind="measured": pbar, pbar_upper, halts at the theory pbar, runs, and the
    tester's Type I budget ``type1_bound``: beta, plus delta/2 for Liu-Talwar; Cohen's Type I part of Proposition 48
    is also beta). No ``inputs``."""
    rows = []
    T = cfg["T"]
    for ps in cfg["measured_pstar"]:
        for method in cfg["methods"]:
            tester = make_tester(method, cfg, ps, cfg["eps_ratio"], T)
            cp = tester.critical_p(T, cfg["runs"], rng)
            pth = tester.pbar(T)
            finite = cp.p_crit[np.isfinite(cp.p_crit) & (cp.p_crit > 0)]
            low = min(pth, float(np.quantile(finite, 0.001)) if finite.size else pth)
            m = measured_pbar(cp, logit_grid(ps, min(max(low / 2, 1e-300), ps / 2), cfg["grid_step"]), cfg["beta"])
            rows.append(
                dict(
                    kind="measured",
                    curve=method,
                    method=method,
                    pstar=ps,
                    pbar=m.pbar,
                    pbar_upper=m.pbar_upper,
                    pbar_theory=pth,
                    halts_at_theory=int(cp.halts(pth)),
                    runs=cp.runs,
                    budget=tester.type1_bound,
                )
            )
    return pd.concat([theory(cfg), pd.DataFrame(rows)], ignore_index=True)
