"""Claims of fig_co_densest: the continual-observation claims of :mod:`privtest.checks._co` (ids ``co.*``) and the
erratum check of Algorithm 3's printed eps(i, t) against Corollary 35 (``co.cor35_erratum``)."""

from __future__ import annotations

import dataclasses
import math

import pandas as pd

from privtest.checks import _co
from privtest.claims import Claim, exact, fmt
from privtest.co.params import BatchToCOParams

#: ERRATA.md entry recording the inconsistency between Algorithm 3's eps(i, t) and Corollary 35.
ERRATUM_ALG3 = "Algorithm 3: eps(i, t) uses the global beta where Corollary 35 needs beta_i"


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """The continual-observation claims of :func:`privtest.checks._co.claims` (prefix ``co``, on the tables of
    :func:`privtest.analysis.fig_co_densest.analyse`; None computes the ones they read,
    :func:`privtest.analysis._co.tables`, from ``raw`` and ``cfg``) and, exactly, Algorithm 3's printed eps(i, t)
    against Corollary 35's hypothesis (``co.cor35_erratum``, ERRATUM when violated)."""
    printed = dataclasses.replace(BatchToCOParams.from_config(cfg, 1.0), log_beta="global")
    worst = max(
        (printed.calibration(i).step(t, printed.eps_it(i, t), printed.pstar).log_Lambda, i, t)
        for i in range(2, 12)
        for t in (2, 3, 5, 10, 30, 100)
        if t >= i  # GTM_i first runs at the step of checkpoint i >= i
    )
    erratum = exact(
        claim_id="co.cor35_erratum",
        source="Alg 3 vs Cor 35",
        statement="Algorithm 3's printed eps(i,t) = eps(i)/(C_1 ln(4/(omega_t beta))) meets Corollary 35's hypothesis "
        "for GTM_i (beta_GTM = beta_i): Lambda_t <= Lambda = e^{1/C_1+2/C_H} at every step",
        measured=f"max ln Lambda_t = {fmt(worst[0])} at i={worst[1]}, t={worst[2]}",
        bound=f"<= ln Lambda = {fmt(math.log(printed.Lambda))}",
        ok=worst[0] <= math.log(printed.Lambda),
        erratum=ERRATUM_ALG3,
        note="exact; the runs use ln(4/(omega_t beta_i)) (log_beta=instance), which satisfies Cor 35's hypothesis",
    )
    return [*_co.claims(raw, cfg, "co", analysis), erratum]
