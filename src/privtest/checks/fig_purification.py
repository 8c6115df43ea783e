"""Claims of fig_purification: Lemma 24 (pure DP of purified boundary pairs, exactly) and Corollary 25 (halting at
p* + phi, continuation at pbar - phi; exact per-step probabilities, Monte Carlo beside them). That the purified
mechanism's Pr[+1] is p + phi (1 - 2p) (Lemma 24(1)) is a property of our sampler, tested in tests/test_mechanisms.py;
the figure plots it."""

from __future__ import annotations

import pandas as pd

from privtest.analysis import fig_purification as analysis_module
from privtest.checks._common import exact_step_claim
from privtest.claims import Claim, exact, fmt


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """Per delta (the table ``steps`` of :func:`privtest.analysis.fig_purification.analyse`, which the workflow
    passes; None computes it): Lemma 24(2)-(3) exactly (worst log-ratio of purified boundary pairs <= eps_1), and
    Corollary 25's halting at p* + phi (given eta_1 <= mu1, at beta_II) and continuation at pbar - phi (at beta_t/2),
    exactly."""
    steps = analysis_module.steps(raw, cfg) if analysis is None else analysis["steps"]
    out = []
    for r in steps.itertuples():
        tag = f"delta={r.delta}"
        out.append(
            exact(
                claim_id=f"purification.pure[{tag}]",
                source="Lemma 24(2)-(3)",
                statement="purified boundary pairs satisfy pure eps_1-DP",
                measured=f"max log-ratio {r.worst_log_ratio:.6f}",
                bound=f"<= eps_1 = {fmt(r.eps1)}",
                ok=r.worst_log_ratio <= r.eps1 + 1e-12,
                note="exact over a grid of 2001 boundary pairs",
            )
        )
        out.append(
            exact_step_claim(
                f"purification.halt[{tag}]",
                "Cor 25(1), Lemma 20",
                "Pr[one step misses a halt | eta_1 <= mu1] <= beta_II when p_t = p* + phi (purified inputs)",
                float(r.miss_good_exact),
                float(r.beta_II),
                int(r.misses_good),
                int(r.good_runs_at_halt),
                f"p_t = p* + phi = {fmt(r.p_halt)}",
            )
        )
        out.append(
            exact_step_claim(
                f"purification.continue[{tag}]",
                "Cor 25(2)",
                "one step halts w.p. <= beta_t/2 when p_t = pbar - phi (purified inputs)",
                float(r.halt_continue_exact),
                float(r.continue_bound),
                int(r.halts_at_continue),
                int(r.runs),
                f"p_t = pbar - phi = {fmt(r.p_continue)}",
            )
        )
    return out
