"""fig_purification: (eps_1, delta_1)-DP inputs through the binary symmetric channel (Lemma 24, Corollary 25).

(a) Smoothed success probability p~ = p + phi (1 - 2p) vs p, measured from purified evaluations, for several
    delta_1, with |p~ - p| <= phi <= delta_1/eps_1.
(b) GTM halting probability at Corollary 25's shifted thresholds p* + phi (must halt) and pbar - phi (must continue),
    by Monte Carlo and exactly (:func:`privtest.exact.step_log_probs`: ``miss_good_exact`` = Pr[no halt | eta_1 <= mu1]
    at p* + phi, ``halt_continue_exact`` = Pr[halt] at pbar - phi).
(c) Lemma 24(3) checked exactly: for neighbouring (p, p') on the boundary of (eps_1, delta_1)-DP, the purified
    pair satisfies p~/p~' <= e^{eps_1} and (1-p~)/(1-p~') <= e^{eps_1}.
Claims: :mod:`privtest.checks.fig_purification`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest.exact import step_log_probs
from privtest.gtm import GlobalCalibration
from privtest.mechanisms import BernoulliMechanism, Purified, purification_phi
from privtest.runs import halting_counts


def worst_pure_ratio(eps1: float, delta1: float, grid: int = 2001) -> float:
    """Largest log-ratio of the purified output probabilities over neighbouring (p, p') of an (eps1, delta1)-DP
    {-1,+1} mechanism (exact, on a grid of p').

    For each p' the largest admissible p is min(1, e^eps1 p' + delta1, 1 - e^-eps1 (1 - p' - delta1)) (the +1 and -1
    constraints); both log(p~/p~') and log((1-p~')/(1-p~)) increase with p, so the boundary attains the maximum
    (the reverse ratios are covered by symmetry of the grid). Lemma 24(3) says the result is <= eps1.
    """
    phi = purification_phi(eps1, delta1)
    q = np.linspace(0.0, 1.0, grid)
    p = np.minimum.reduce([np.ones_like(q), math.exp(eps1) * q + delta1, 1 - math.exp(-eps1) * (1 - q - delta1)])
    a, b = p + phi * (1 - 2 * p), q + phi * (1 - 2 * q)
    with np.errstate(divide="ignore", invalid="ignore"):
        plus = np.where(b > 0, np.log(a / b), np.where(a > 0, np.inf, 0.0))
        minus = np.where(1 - a > 0, np.log((1 - b) / (1 - a)), np.where(1 - b > 0, np.inf, 0.0))
    return float(max(plus.max(), minus.max()))


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Rows "smoothing" (purified Bernoulli counts per (delta, p)) and "gtm" (halting counts at Corollary 25's shifted
    thresholds and the exact worst log-ratio of purified boundary pairs, per delta). No ``inputs``."""
    eps1 = cfg["eps_ratio"] * cfg["eps"]
    cal = GlobalCalibration(cfg["eps"], cfg["beta"], cfg["theta"], cfg["gamma"])
    st = cal.step(cfg["t"], eps1, cfg["pstar"])
    rows = []
    for delta in cfg["deltas"]:
        phi = purification_phi(eps1, delta)
        for p in np.linspace(0, 1, cfg["points"]):
            m = Purified(BernoulliMechanism(p, eps1, delta))
            k = int(m.count_plus(cfg["smoothing_samples"], rng))
            rows.append(
                dict(kind="smoothing", delta=delta, phi=phi, p=p, p_tilde=m.p, plus=k, n=cfg["smoothing_samples"])
            )
        p_hi, p_lo = st.pstar + phi, st.pbar - phi
        if p_lo <= 0 or p_hi >= 1:
            raise ValueError(
                f"deltas: delta={delta} gives phi={phi:.3g}, outside the range where both shifted "
                "thresholds are probabilities"
            )
        hc = halting_counts(st, [p_hi, p_lo], cfg["runs"], rng, delta=delta)
        miss_good = float(np.exp(step_log_probs(st, [p_hi], delta, eta1_max=st.mu1)[1][0]))
        halt_continue = float(np.exp(step_log_probs(st, [p_lo], delta)[0][0]))
        rows.append(
            dict(
                kind="gtm",
                delta=delta,
                phi=phi,
                t=cfg["t"],
                pstar=st.pstar,
                pbar=st.pbar,
                p_halt=p_hi,
                p_continue=p_lo,
                halts_at_halt=int(hc.halts[0]),
                good_runs_at_halt=int(hc.good_runs[0]),
                good_halts_at_halt=int(hc.good_halts[0]),
                halts_at_continue=int(hc.halts[1]),
                beta_II=st.beta_II,
                runs=cfg["runs"],
                worst_log_ratio=worst_pure_ratio(eps1, delta),
                eps1=eps1,
                miss_good_exact=miss_good,
                halt_continue_exact=halt_continue,
            )
        )
    return pd.DataFrame(rows)
