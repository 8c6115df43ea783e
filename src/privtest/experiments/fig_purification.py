"""fig_purification: (eps_1, delta_1)-DP inputs through the binary symmetric channel (Lemma 24, Corollary 25).

(a) Smoothed success probability p~ = p + phi (1 - 2p) vs p, measured from purified evaluations, for several
    delta_1, with |p~ - p| <= phi <= delta_1/eps_1.
(b) GTM halting probability at Corollary 25's shifted thresholds p* + phi (must halt) and pbar - phi (must continue).
(c) Lemma 24(3) checked exactly: for neighbouring (p, p') on the boundary of (eps_1, delta_1)-DP, the purified
    pair satisfies p~/p~' <= e^{eps_1} and (1-p~)/(1-p~') <= e^{eps_1}.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from privtest.claims import Claim, clopper_pearson, fmt, verdict_exact
from privtest.experiments._checks import continue_claim, miss_claim
from privtest.gtm import GlobalCalibration
from privtest.mechanisms import BernoulliMechanism, Purified, purification_phi
from privtest.schedule import beta_t
from privtest.simulate import halting_counts


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


def simulate(cfg: dict, rng: np.random.Generator) -> pd.DataFrame:
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
            )
        )
    return pd.DataFrame(rows)


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    out = []
    eps1 = cfg["eps_ratio"] * cfg["eps"]
    sm, gtm = raw[raw.kind == "smoothing"], raw[raw.kind == "gtm"]
    for delta, g in sm.groupby("delta"):
        phi = float(g.phi.iloc[0])
        lo, hi = clopper_pearson(g.plus.to_numpy(), g.n.to_numpy())
        misses = int(np.count_nonzero((g.p_tilde < lo) | (g.p_tilde > hi)))
        allowed = int(stats.binom.ppf(1 - 1e-3, len(g), 0.05))  # 95% intervals: misses ~ Bin(points, 0.05)
        out.append(
            Claim(
                f"purification.smoothing[delta={delta}]",
                "Lemma 24(1)",
                "measured Pr[+1] of the purified mechanism equals p + phi (1 - 2p)",
                "fig_purification",
                f"{misses} of {len(g)} 95% intervals miss the formula",
                f"<= {allowed} misses (alpha = 1e-3)",
                verdict_exact(misses <= allowed),
                f"phi = {fmt(phi)}",
            )
        )
    for r in gtm.itertuples():
        bt = float(beta_t(int(r.t), cfg["beta"]))
        tag = f"delta={r.delta}"
        out.append(
            Claim(
                f"purification.pure[{tag}]",
                "Lemma 24(2)-(3)",
                "purified boundary pairs satisfy pure eps_1-DP",
                "fig_purification",
                f"max log-ratio {r.worst_log_ratio:.6f}",
                f"<= eps_1 = {fmt(eps1)}",
                verdict_exact(r.worst_log_ratio <= eps1 + 1e-12),
                "exact over a grid of 2001 boundary pairs",
            )
        )
        out.append(
            miss_claim(
                f"purification.halt[{tag}]",
                "Cor 25(1), Lemma 20",
                "fig_purification",
                int(r.good_halts_at_halt),
                int(r.good_runs_at_halt),
                float(r.beta_II),
                int(r.halts_at_halt),
                int(r.runs),
                cfg["beta"],
                f"p_t = p* + phi = {fmt(r.p_halt)}",
            )
        )
        out.append(
            continue_claim(
                f"purification.continue[{tag}]",
                "Cor 25(2)",
                "fig_purification",
                int(r.halts_at_continue),
                int(r.runs),
                bt / 2,
                cfg["beta"],
                f"p_t = pbar - phi = {fmt(r.p_continue)}",
            )
        )
    return out
