"""Claims of fig_noise_penalty (exact): every upper bound's noise penalty, measured from where the method guarantees
halting, is >= Corollary 30's Lambda_0, and the closed-form theta* minimises Lambda_t. (That the ex-post Lambda_t is
flat in t is an identity of the calibration: tests/test_gtm.py::test_expost_identities_over_t.)"""

from __future__ import annotations

import pandas as pd

from privtest.analysis import fig_noise_penalty as analysis_module
from privtest.claims import Claim, exact, fmt


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """Exact checks on the tables ``margins`` and ``theta_opt`` of :func:`privtest.analysis.fig_noise_penalty.analyse`
    (which the workflow passes; None computes them): every upper bound's gamma*Lambda_t is >= Cor 30's Lambda_0 (an
    achievable guarantee cannot beat the lower bound); the closed-form theta* minimises Lambda_t."""
    if analysis is None:
        analysis = {"margins": analysis_module.margins(raw, cfg), "theta_opt": analysis_module.theta_opt(cfg)}
    out = []
    for r in analysis["margins"].itertuples():
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
    worst = float(analysis["theta_opt"]["rel_gap"].max())
    out.append(
        exact(
            claim_id="noise_penalty.theta_opt",
            source="Thm 21 (Sec 1.2: theta trade-off)",
            statement="theta* = sqrt(2 ln(4/beta)/ln(4/beta_t)) minimises Lambda_t",
            measured=f"max relative gap to numerical argmin {fmt(worst)}",
            bound="<= 1e-5",
            ok=worst <= 1e-5,
            note="t in {10, 1e3, 1e5}",
        )
    )
    return out
