"""Claims of fig_co_checkpoints: the exact expected GTM calls of A per step never exceed the explicit per-step bound
of Theorem 42(3) / Corollary 35(3)."""

from __future__ import annotations

import pandas as pd

from privtest.analysis.fig_co_checkpoints import analyse
from privtest.claims import Claim, exact, fmt

#: Relative slack of the exact comparison E[N_t] <= bound (floating point).
RTOL = 1e-9


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """Per (stream, eps): the exact E[N_t] of every step t >= 2 is <= Theorem 42(3)'s explicit per-step bound
    (exact; the measured mean is shown beside it). Reads the table ``calls`` of
    :func:`privtest.analysis.fig_co_checkpoints.analyse` (None computes it)."""
    out = []
    for r in (analysis if analysis is not None else analyse(raw, cfg))["calls"].itertuples():
        tag = f"{r.stream},eps={r.eps}"
        ratio = float(r.max_calls_ratio)
        out.append(
            exact(
                claim_id=f"co.calls_vs_bound[{tag}]",
                source="Thm 42(3), Cor 35(3)",
                statement="expected GTM calls of A per step E[N_t] <= rho_s e^{1/C_1}/(1 - 2/(C_H ln(4/beta_s))) "
                "= O(ln(t/beta)/(p*(gamma-1)^2))",
                measured=f"max_t E[N_t] / bound = {fmt(float(r.max_expected_ratio))} (measured mean: {fmt(ratio)})",
                bound="<= 1",
                ok=bool(r.max_expected_ratio <= 1 + RTOL),  # False if NaN
                note="verdict on the exact expectation E[N_t] (the measured mean is shown; Monte Carlo agreement is "
                "checked "
                "by co.calls_per_step)",
            )
        )
    return out
