"""fig_noise_penalty: the noise penalty Lambda_t vs t (log-log, t up to ``t_max``) for every method and the lower
bound (Table 1, Theorem 4): GTM (Theorem 21) for several theta and for the theta that minimises Lambda_t
(:func:`privtest.bounds.gtm_theta_opt`), GTM ex-post (Theorem 23, flat in t), Liu-Talwar (Theorem 46(2)),
Cohen et al. (Proposition 48, proof) and Corollary 30's Lambda_0 with T = t. All values are exact evaluations of
:mod:`privtest.bounds` (no Monte Carlo); ``log10_Lambda`` is kept in log space. Claims:
:mod:`privtest.checks.fig_noise_penalty`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest import bounds
from privtest.gtm import ExPostCalibration

LN10 = math.log(10.0)


def t_grid(t_max: int, points: int) -> np.ndarray:
    """Log-spaced integer steps 1..t_max (unique)."""
    return np.unique(np.rint(np.geomspace(1, t_max, points)).astype(np.int64))


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Rows (curve, method, theta, t, log10_Lambda). ``rng`` is unused (deterministic); no ``inputs``."""
    eps, beta, r, pstar = cfg["eps"], cfg["beta"], cfg["eps_ratio"], cfg["pstar"]
    eps1 = r * eps
    rows = []

    def add(curve: str, method: str, theta: float, t: int, log10_Lambda: float) -> None:
        rows.append(dict(curve=curve, method=method, theta=theta, t=t, log10_Lambda=log10_Lambda))

    expost = ExPostCalibration(cfg["eps_C"], beta, cfg["C_H"], cfg["gamma"])
    for t in t_grid(cfg["t_max"], cfg["points"]):
        t = int(t)
        for th in cfg["thetas"]:
            add(f"GTM theta={th:g}", "GTM", th, t, bounds.gtm_log_noise_penalty(t, eps, eps1, beta, th) / LN10)
        th = bounds.gtm_theta_opt(t, beta)
        add("GTM optimal theta", "GTM", th, t, bounds.gtm_log_noise_penalty(t, eps, eps1, beta, th) / LN10)
        add("GTM ex-post (Thm 23)", "GTM ex-post", np.nan, t, expost.step(t, eps1, pstar).log_Lambda / LN10)
        lt = math.log10(bounds.liu_talwar_noise_penalty(t, eps, eps1, beta, cfg["eps0"]))
        add("Liu-Talwar", "LiuTalwar", np.nan, t, lt)
        add("Cohen et al.", "Cohen", np.nan, t, math.log10(bounds.cohen_noise_penalty(t, pstar, eps, eps1, beta)))
        if t >= 2:
            lb = bounds.lower_bound_log_noise_penalty(t, eps, eps1, beta) / LN10
            add("lower bound (Cor 30, T = t)", "LowerBound", np.nan, t, lb)
    return pd.DataFrame(rows)
