"""Claims of fig_purification: Lemma 24 (smoothing formula, pure DP of purified boundary pairs) and Corollary 25
(halting at p* + phi, continuation at pbar - phi)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from privtest.checks._common import continue_claim, miss_claim
from privtest.claims import Claim, fmt, verdict_exact
from privtest.schedule import beta_t
from privtest.stats import clopper_pearson


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
                claim_id=f"purification.smoothing[delta={delta}]",
                source="Lemma 24(1)",
                statement="measured Pr[+1] of the purified mechanism equals p + phi (1 - 2p)",
                measured=f"{misses} of {len(g)} 95% intervals miss the formula",
                bound=f"<= {allowed} misses (alpha = 1e-3)",
                verdict=verdict_exact(misses <= allowed),
                note=f"phi = {fmt(phi)}",
            )
        )
    for r in gtm.itertuples():
        bt = float(beta_t(int(r.t), cfg["beta"]))
        tag = f"delta={r.delta}"
        out.append(
            Claim(
                claim_id=f"purification.pure[{tag}]",
                source="Lemma 24(2)-(3)",
                statement="purified boundary pairs satisfy pure eps_1-DP",
                measured=f"max log-ratio {r.worst_log_ratio:.6f}",
                bound=f"<= eps_1 = {fmt(eps1)}",
                verdict=verdict_exact(r.worst_log_ratio <= eps1 + 1e-12),
                note="exact over a grid of 2001 boundary pairs",
            )
        )
        out.append(
            miss_claim(
                f"purification.halt[{tag}]",
                "Cor 25(1), Lemma 20",
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
                int(r.halts_at_continue),
                int(r.runs),
                bt / 2,
                cfg["beta"],
                f"p_t = pbar - phi = {fmt(r.p_continue)}",
            )
        )
    return out
