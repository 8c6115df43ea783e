"""Claims of fig_privacy_exact (exact quadrature): the worst privacy loss of every private GTM case is within its
claimed bound; the two broken negative controls are flagged."""

from __future__ import annotations

import pandas as pd

from privtest.analysis import fig_privacy_exact as analysis_module
from privtest.claims import Claim, exact, fmt

#: Where the maximising inputs are (not in the committed results: :mod:`privtest.analysis.fig_privacy_exact`).
WITNESS = "; maximising inputs: results/raw/fig_privacy_exact.csv (worst_inputs)"


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """Private cases: worst loss <= claim + ``quadrature_tol`` (exact). Broken cases: the check flags them (loss >
    claim + ``detect_margin``). ``analysis``: the tables of :func:`privtest.analysis.fig_privacy_exact.analyse` (the
    workflow passes those of ``results/analysis/fig_privacy_exact/``); None computes them from ``raw``."""
    if analysis is None:
        analysis = analysis_module.analyse(raw, cfg)
    out = []
    for row in analysis["verdicts"].itertuples():
        tag = f"{row.variant},{row.calibration},r={row.eps_ratio},{row.kind}"
        measured = f"{fmt(row.max_loss, 10)} at {row.worst_transcript}"
        if row.expected == "private":
            source = "Thm 23 (ex-post loss)" if row.calibration == "ex-post" else "Lemma 17 / Thm 21"
            if row.variant == "purified":
                source = "Cor 25 + Lemma 17"
            out.append(
                exact(
                    claim_id=f"privacy_exact.{tag}",
                    source=source,
                    statement=f"worst-case privacy loss of a {row.kind} transcript <= its claimed bound (exact "
                    f"quadrature)",
                    measured=measured,
                    bound=f"<= {fmt(row.claimed_eps, 10)} (+{float(cfg['quadrature_tol']):g})",
                    ok=bool(row.within_bound),
                    note=("bound attained up to quadrature error" if row.tight else f"slack {fmt(row.slack)}")
                    + WITNESS,
                )
            )
        else:
            out.append(
                exact(
                    claim_id=f"privacy_exact.detects[{tag}]",
                    source="Lemma 17 (negative control)",
                    statement=f"the exact check flags the broken GTM ({row.variant}) on {row.kind} transcripts",
                    measured=measured,
                    bound=f"> {fmt(row.claimed_eps, 10)}",
                    ok=bool(row.flagged),
                    note=f"loss exceeds the claim by {fmt(row.excess)}" + WITNESS,
                )
            )
    return out
