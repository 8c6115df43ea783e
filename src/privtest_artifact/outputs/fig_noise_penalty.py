"""fig_noise_penalty: the noise penalty Lambda_t vs t (log-log, t up to ``t_max``) for every method and the lower bound
(Table 1, Theorem 4): GTM (Theorem 21) for several theta and for the theta that minimises Lambda_t
(:func:`privtest.bounds.gtm_theta_opt`), GTM ex-post (Theorem 23, flat in t; ex-post privacy, a different notion),
Liu-Talwar, Cohen et al. (Proposition 48, proof) and Corollary 30's Lambda_0 with T = t. All values are exact
evaluations (no Monte Carlo); ``log10_Lambda`` is kept in log space.

Every penalty is measured from where the method guarantees halting, as the GTM's (its p* is where Theorem 21 guarantees
halting). Liu-Talwar guarantees halting only where Theorem 46(4)'s Phi condition holds, at ``halt_p`` (about 0.987 for
p* = 0.5 here), so its curve is odds(halt_p)/odds(pbar_t) with pbar_t of Theorem 46(2)
(:func:`liu_talwar_penalty_from_halting`): Table 1's odds form, whose (t/beta^2)^sigma_LT is (1/beta)^sigma_LT from
46(4) times ((t+1)/beta)^sigma_LT from 46(2) (ERRATA.md). Its penalty from the nominal p* (where halting is not
guaranteed), p*/pbar_t = 2 e^eps_0 ((t+1)/beta)^sigma_LT, is kept as the curve labelled "nominal".

Simulation (:func:`simulate`, deterministic): per curve and step t, the log10 noise penalty, ``log10_gap`` (where the
method guarantees halting over its rejection threshold), its output delta and ``cor30``, whether Corollary 30 constrains
it.

Analysis (:func:`analyse`):

* ``series``: the raw rows as drawn (``figures/data/fig_noise_penalty.csv``);
* ``curves``: the raw rows with ``Lambda`` = 10^min(log10_Lambda, 300) (the plotted noise penalty, capped at 1e300 where
  it overflows a float);
* ``margins``: per curve Corollary 30 constrains (from T = t = 2 on), in simulation order: ``min_log10_margin``, the
  least log10_gap - log10 Lambda_0(T = t) over t, Lambda_0 of Corollary 30 at the tester's own delta (an achievable
  guarantee has margin >= 0).

Claims (:func:`claims`, exact): every upper bound's noise penalty, measured from where the method guarantees halting,
is >= Corollary 30's Lambda_0. (Identities of our own formulas are unit tests, not claims: that the ex-post Lambda_t is
flat in t, tests/test_gtm.py::test_expost_identities_over_t; that the closed-form theta* of
:func:`privtest.bounds.gtm_theta_opt` minimises Theorem 21's Lambda_t,
tests/test_bounds.py::test_gtm_theta_opt_is_the_numerical_argmin_of_lambda_t.)
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest import bounds
from privtest.baselines.liu_talwar import LiuTalwarTester
from privtest.gtm import ExPostCalibration
from privtest_artifact.claims import Claim, exact, fmt

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


#: Largest plotted log10 Lambda (10^300 is near a float's range).
LOG10_CAP = 300


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables of the module docstring; ``cfg`` needs eps, eps_ratio and beta."""
    return {
        "series": raw.copy(),
        "curves": raw.assign(Lambda=10.0 ** np.minimum(raw["log10_Lambda"], LOG10_CAP)),
        "margins": margins(raw, cfg),
    }


def margins(raw: pd.DataFrame, cfg: dict) -> pd.DataFrame:
    """The table ``margins`` (module docstring); ValueError from :func:`privtest.bounds.lower_bound_log_noise_penalty`
    for parameters outside Corollary 30's range."""
    eps, beta, r = cfg["eps"], cfg["beta"], cfg["eps_ratio"]
    rows = []
    # Curves Corollary 30 constrains (raw column cor30): fixed-(eps, delta)-DP testers measured from where they
    # guarantee halting; the bound at each tester's own delta (delta' = delta/(e^eps - 1)), from T = t = 2 on.
    for curve, g in raw[raw.cor30.astype(bool) & (raw.t >= 2)].groupby("curve", sort=False):
        lb = [
            bounds.lower_bound_log_noise_penalty(int(t), eps, r * eps, beta, d) / LN10
            for t, d in zip(g.t, g.delta, strict=True)
        ]
        rows.append(dict(curve=curve, min_log10_margin=float((g["log10_gap"] - np.asarray(lb)).min())))
    return pd.DataFrame(rows, columns=["curve", "min_log10_margin"])


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """Exact checks on the table ``margins`` of :func:`analyse`: every upper bound's gamma*Lambda_t is >= Cor 30's
    Lambda_0 (an achievable guarantee cannot beat the lower bound)."""
    out = []
    for r in tables["margins"].itertuples():
        out.append(
            exact(
                claim_id=f"noise_penalty.above_lower_bound[{r.curve}]",
                source="Cor 30, Table 1",
                statement=f"{r.curve}: penalty >= Lambda_0(T = t)",
                measured=f"min log10 margin {fmt(r.min_log10_margin)}",
                bound=">= 0",
                ok=r.min_log10_margin >= 0,
                note="penalty measured from where the tester guarantees halting (GTM: p*/pbar_t = gamma Lambda_t; "
                "Liu-Talwar: odds(halt_p)/odds(pbar_t), Cor 30's odds form eq. (17)); Cor 30 at the tester's delta",
            )
        )
    return out
