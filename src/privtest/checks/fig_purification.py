"""Claims of fig_purification: Lemma 24 (pure DP of purified boundary pairs, exactly) and Corollary 25 (halting at
p* + phi, continuation at pbar - phi). That the purified mechanism's Pr[+1] is p + phi (1 - 2p) (Lemma 24(1)) is a
property of our sampler, tested in tests/test_mechanisms.py; the figure plots it."""

from __future__ import annotations

import pandas as pd

from privtest.checks._common import continue_claim, miss_claim
from privtest.claims import Claim, exact, fmt
from privtest.schedule import beta_t


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    out = []
    eps1 = cfg["eps_ratio"] * cfg["eps"]
    gtm = raw[raw.kind == "gtm"]
    for r in gtm.itertuples():
        bt = float(beta_t(int(r.t), cfg["beta"]))
        tag = f"delta={r.delta}"
        out.append(
            exact(
                claim_id=f"purification.pure[{tag}]",
                source="Lemma 24(2)-(3)",
                statement="purified boundary pairs satisfy pure eps_1-DP",
                measured=f"max log-ratio {r.worst_log_ratio:.6f}",
                bound=f"<= eps_1 = {fmt(eps1)}",
                ok=r.worst_log_ratio <= eps1 + 1e-12,
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
