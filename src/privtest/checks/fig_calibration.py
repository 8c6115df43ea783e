"""Claims of fig_calibration (exact): the paper's and the exact-tail calibrations keep every single-step error within
the proof's budgets (Type II at p* both unconditionally, at beta/4 + beta_t/4, and given eta_1 <= mu1, at Lemma 20's
beta_t/4), every calibration's whole-run error is <= beta, and exact tails never need more evaluations."""

from __future__ import annotations

import pandas as pd

from privtest.analysis.fig_calibration import analyse
from privtest.claims import Claim, exact, fmt


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """Exact errors within budget for paper and exact-tail calibrations at every t; whole-run errors <= beta;
    the exact-tail calibration never needs more evaluations than the paper's. Reads the tables ``per_step``,
    ``whole_run`` and ``samples_ratio`` of :func:`privtest.analysis.fig_calibration.analyse` (None computes them)."""
    analysis = analysis if analysis is not None else analyse(raw, cfg)
    out = []
    for row in analysis["per_step"].itertuples():
        tag = f"{row.calibration},r={row.eps_ratio},p*={row.pstar},t={row.t},{row.error_type}"
        conditional = "given" in row.error_type
        out.append(
            exact(
                claim_id=f"calibration.error[{tag}]",
                source=("Lemma 20 (conditional per-step Type II)" if conditional else "Thm 21 (proof), Lemma 20")
                + (" with exact tails" if row.calibration == "exact tails" else ""),
                statement=f"exact single-step error ({row.error_type}) within the proof's budget"
                + (" beta_t/4" if conditional else ""),
                measured=fmt(row.error_exact, 6),
                bound=f"<= {fmt(row.budget)}",
                ok=row.error_exact <= row.budget,
                note="quadrature (privtest.exact)",
            )
        )
    for row in analysis["whole_run"].itertuples():
        out.append(
            exact(
                claim_id=f"calibration.whole_run[{row.calibration}]",
                source="Thm 21 (global accuracy, worst stream over T steps)",
                statement=f"exact worst-case probability of any Type I/II error within {row.t} steps <= beta",
                measured=fmt(row.error_exact, 6),
                bound=f"<= {fmt(row.budget)}",
                ok=row.error_exact <= row.budget,
                note=f"budget scale {fmt(row.budget_scale)}; mean E[N_t] over t <= T: {fmt(row.samples_mean)}",
            )
        )
    ratio = analysis["samples_ratio"]["ratio"]
    out.append(
        exact(
            claim_id="calibration.exact_tails_fewer_samples",
            source="Lemma 20 with exact Poisson quantiles",
            statement="the exact-tail calibration needs no more evaluations per step than the paper's, at the same "
            "pbar_t",
            measured=f"E[N_t] ratio {fmt(ratio.min())} .. {fmt(ratio.max())}",
            bound="<= 1",
            ok=bool((ratio <= 1).all()),
        )
    )
    return out
