"""Claims of fig_co_densest: the continual-observation claims of :mod:`privtest.checks._co` (ids ``co.*``) and the
erratum check of Algorithm 3's printed eps(i, t) against Corollary 35 (``co.cor35_erratum``)."""

from __future__ import annotations

import pandas as pd

from privtest.analysis import fig_co_densest
from privtest.checks import _co
from privtest.claims import Claim, exact, fmt

#: ERRATA.md entry recording the inconsistency between Algorithm 3's eps(i, t) and Corollary 35.
ERRATUM_ALG3 = "Algorithm 3: eps(i, t) uses the global beta where Corollary 35 needs beta_i"


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """The continual-observation claims of :func:`privtest.checks._co.claims` (prefix ``co``) and, exactly, Algorithm
    3's printed eps(i, t) against Corollary 35's hypothesis (``co.cor35_erratum``, ERRATUM when violated at some
    tried (i, t)), on the tables of :func:`privtest.analysis.fig_co_densest.analyse` (the workflow passes those of
    ``results/analysis/fig_co_densest/``; None computes them from ``raw`` and ``cfg``)."""
    if analysis is None:
        analysis = fig_co_densest.analyse(raw, cfg)
    cor35 = analysis["cor35"]
    worst = cor35.loc[cor35.log_Lambda_t.idxmax()]  # the first (i, t) of the table's order if several tie
    erratum = exact(
        claim_id="co.cor35_erratum",
        source="Alg 3 vs Cor 35",
        statement="Algorithm 3's printed eps(i,t) = eps(i)/(C_1 ln(4/(omega_t beta))) meets Corollary 35's hypothesis "
        "for GTM_i (beta_GTM = beta_i): Lambda_t <= Lambda = e^{1/C_1+2/C_H} at every step",
        measured=f"max ln Lambda_t = {fmt(worst.log_Lambda_t)} at i={int(worst.i)}, t={int(worst.t)}",
        bound=f"<= ln Lambda = {fmt(worst.log_Lambda)}",
        ok=bool((cor35.log_Lambda_t <= cor35.log_Lambda).all()),
        erratum=ERRATUM_ALG3,
        note="exact; the runs use ln(4/(omega_t beta_i)) (log_beta=instance), which satisfies Cor 35's hypothesis",
    )
    return [*_co.claims(raw, cfg, "co", analysis), erratum]
