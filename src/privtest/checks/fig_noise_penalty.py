"""Claims of fig_noise_penalty (exact): every upper bound's noise penalty, measured from where the method guarantees
halting, is >= Corollary 30's Lambda_0. (Identities of our own formulas are unit tests, not claims: that the ex-post
Lambda_t is flat in t, tests/test_gtm.py::test_expost_identities_over_t; that the closed-form theta* of
:func:`privtest.bounds.gtm_theta_opt` minimises Theorem 21's Lambda_t,
tests/test_bounds.py::test_gtm_theta_opt_is_the_numerical_argmin_of_lambda_t.)"""

from __future__ import annotations

import pandas as pd

from privtest.analysis import fig_noise_penalty as analysis_module
from privtest.claims import Claim, exact, fmt


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """Exact checks on the table ``margins`` of :func:`privtest.analysis.fig_noise_penalty.analyse` (which the
    workflow passes; None computes it): every upper bound's gamma*Lambda_t is >= Cor 30's Lambda_0 (an achievable
    guarantee cannot beat the lower bound)."""
    if analysis is None:
        analysis = {"margins": analysis_module.margins(raw, cfg)}
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
    return out
