"""fig_noise_penalty: the noise penalty Lambda_t vs t (log-log, t up to ``t_max``) for every method and the lower
bound (Table 1, Theorem 4): GTM (Theorem 21) for several theta and for the theta that minimises Lambda_t
(:func:`privtest.bounds.gtm_theta_opt`), GTM ex-post (Theorem 23, flat in t; ex-post privacy, a different notion),
Liu-Talwar, Cohen et al. (Proposition 48, proof) and Corollary 30's Lambda_0 with T = t. All values are exact
evaluations (no Monte Carlo); ``log10_Lambda`` is kept in log space.

Every penalty is measured from where the method guarantees halting, as the GTM's (its p* is where Theorem 21
guarantees halting). Liu-Talwar guarantees halting only where Theorem 46(4)'s Phi condition holds, at
``halt_p`` (about 0.987 for p* = 0.5 here), so its curve is odds(halt_p)/odds(pbar_t) with pbar_t of Theorem 46(2)
(:func:`liu_talwar_penalty_from_halting`): Table 1's odds form, whose (t/beta^2)^sigma_LT is (1/beta)^sigma_LT from
46(4) times ((t+1)/beta)^sigma_LT from 46(2) (ERRATA.md). Its penalty from the nominal p* (where halting is not
guaranteed), p*/pbar_t = 2 e^eps_0 ((t+1)/beta)^sigma_LT, is kept as the curve labelled "nominal". Claims:
:mod:`privtest.checks.fig_noise_penalty`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest import bounds
from privtest.baselines.liu_talwar import LiuTalwarTester
from privtest.gtm import ExPostCalibration

LN10 = math.log(10.0)


def t_grid(t_max: int, points: int) -> np.ndarray:
    """Log-spaced integer steps 1..t_max (unique)."""
    return np.unique(np.rint(np.geomspace(1, t_max, points)).astype(np.int64))


def liu_talwar_penalty_from_halting(t: int, cfg: dict) -> float:
    """log10 of Liu-Talwar's noise penalty measured from where it guarantees halting: odds(halt_p)/odds(pbar_t) for
    the tester with horizon T = t (eq. 25's N and Delta depend on T), halt_p the smallest p with Theorem 46(4)'s Phi
    condition and pbar_t = e^-eps_0/2 (beta/(t+1))^sigma_LT p* (Theorem 46(2)); inf if no p <= 1 guarantees halting.
    cfg keys: eps, eps_ratio, beta, delta, eps0, pstar."""
    lt = LiuTalwarTester(
        cfg["eps"], cfg["eps_ratio"] * cfg["eps"], cfg["beta"], cfg["delta"], cfg["eps0"], cfg["pstar"], int(t)
    )
    p_h, pbar = lt.halt_p(int(t)), lt.pbar(int(t))
    if not p_h < 1:
        return math.inf
    return (math.log(p_h) - math.log1p(-p_h) - math.log(pbar) + math.log1p(-pbar)) / LN10


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Rows (curve, method, theta, t, log10_Lambda, log10_gap, delta, cor30). ``log10_gap`` is log10 of the ratio
    between where the method guarantees halting and its rejection threshold (for the GTM gamma Lambda_t =
    p*/pbar_t; otherwise its Lambda_t); ``delta`` its output delta (NaN for the bounds); ``cor30`` whether Corollary 30
    constrains the curve (a fixed-(eps, delta)-DP tester measured from where it guarantees halting: not the ex-post GTM,
    whose loss grows with t, nor Liu-Talwar's nominal curve). ``rng`` is unused (deterministic); no ``inputs``."""
    eps, beta, r, pstar = cfg["eps"], cfg["beta"], cfg["eps_ratio"], cfg["pstar"]
    eps1 = r * eps
    log10_gamma = math.log10(cfg["gamma"])
    rows = []

    def add(curve, method, theta, t, log10_Lambda, *, privacy=None, gap_extra=0.0, cor30=False) -> None:
        rows.append(
            dict(
                curve=curve,
                method=method,
                theta=theta,
                t=t,
                log10_Lambda=log10_Lambda,
                log10_gap=log10_Lambda + gap_extra,
                delta=np.nan if privacy is None else privacy.delta,
                cor30=cor30,
            )
        )

    gtm = dict(privacy=bounds.gtm_privacy(eps), gap_extra=log10_gamma, cor30=True)  # pbar_t = p*/(gamma Lambda_t)
    lt_privacy = bounds.liu_talwar_privacy(eps, cfg["delta"])
    expost = ExPostCalibration(cfg["eps_C"], beta, cfg["C_H"], cfg["gamma"])
    for t in t_grid(cfg["t_max"], cfg["points"]):
        t = int(t)
        for th in cfg["thetas"]:
            add(f"GTM theta={th:g}", "GTM", th, t, bounds.gtm_log_noise_penalty(t, eps, eps1, beta, th) / LN10, **gtm)
        th = bounds.gtm_theta_opt(t, beta)
        add("GTM optimal theta", "GTM", th, t, bounds.gtm_log_noise_penalty(t, eps, eps1, beta, th) / LN10, **gtm)
        add("GTM ex-post (Thm 23)", "GTM ex-post", np.nan, t, expost.step(t, eps1, pstar).log_Lambda / LN10)
        lt = liu_talwar_penalty_from_halting(t, cfg)
        add("Liu-Talwar (from its halting threshold)", "LiuTalwar", np.nan, t, lt, privacy=lt_privacy, cor30=True)
        lt = math.log10(bounds.liu_talwar_noise_penalty(t, eps, eps1, beta, cfg["eps0"]))
        add("Liu-Talwar nominal (from p*, no halting guarantee there)", "LiuTalwar nominal", np.nan, t, lt)
        cohen = math.log10(bounds.cohen_noise_penalty(t, pstar, eps, eps1, beta))
        add("Cohen et al.", "Cohen", np.nan, t, cohen, privacy=bounds.cohen_privacy(eps, eps1), cor30=True)
        if t >= 2:
            lb = bounds.lower_bound_log_noise_penalty(t, eps, eps1, beta) / LN10
            add("lower bound (Cor 30, T = t)", "LowerBound", np.nan, t, lb)
            # Corollary 30 for an (eps, delta)-DP tester (Liu-Talwar's delta enters through delta')
            lb = bounds.lower_bound_log_noise_penalty(t, eps, eps1, beta, cfg["delta"]) / LN10
            add("lower bound (Cor 30, T = t, Liu-Talwar's delta)", "LowerBound delta", np.nan, t, lb)
    return pd.DataFrame(rows)
