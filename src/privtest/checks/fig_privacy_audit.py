"""Claims of fig_privacy_audit: the auditor flags every SVT variant that is not private (or says how many runs it
would need: INCONCLUSIVE, never a FAIL about the paper), the audit finds no violation in the private mechanisms (a
mechanism it flags is FAIL only if its witnesses refute the claim at the output's family-wise level, else
INCONCLUSIVE), and the audit's witnesses do not refute the exact loss of the audited GTM input pair (FAIL only through
the same family-wise policy)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.analysis.fig_privacy_audit import analyse
from privtest.claims import CANNOT_FAIL, PASS_CONFIDENCE, Binomial, Claim, exact, fmt, inconclusive, statistical

#: Why ``audit.flags_broken`` claims are PASS or INCONCLUSIVE only (the policy's stated exception, docs/claims.md).
BROKEN_CANNOT_FAIL = (
    f"{CANNOT_FAIL} the variant is known not to be private (Lyu, Su, Li), so a missed flag says the auditor's power "
    "at this sample size is too low, not that the paper or the published analysis is wrong (INCONCLUSIVE with the "
    "runs that would flag it)"
)


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """Broken SVT variants are flagged at the claims policy's PASS level (else INCONCLUSIVE with the runs that would
    flag them); the private mechanisms' witnesses do not refute their claim, and the GTM cases' witnesses do not
    refute the exact loss of the audited pair (both decided with the other cells of this output). Reads the tables
    ``summary`` and ``cells`` of :func:`privtest.analysis.fig_privacy_audit.analyse` (None computes them)."""
    analysis = analysis if analysis is not None else analyse(raw, cfg)
    cells = analysis["cells"]

    def evidence(mechanism: str, against: str) -> list[Binomial]:
        rows = cells[(cells.mechanism == mechanism) & (cells.against == against)]
        return [
            Binomial(k=int(c.k), n=int(c.n), direction="at_most", bound=float(c.bound), cell=f"witness {c.cell}")
            for c in rows.itertuples()
        ]

    out = []
    conf = f"{100 * cfg['confidence']:g}"  # 95 at 0.95, 99.9 at 0.999
    pass_conf = f"{PASS_CONFIDENCE:.1%}"
    for row in analysis["summary"].itertuples():
        measured = (
            f"eps_lower {fmt(row.eps_lower)} (eps_hat {fmt(row.eps_hat)}, event {row.event}: {row.k_a}/{row.n_a} vs "
            f"{row.k_b}/{row.n_b})"
        )
        test = (
            f"{conf}% lower bound: conditional binomial test on Poisson(n = {row.n}) samples"
            if row.delta == 0
            else f"{conf}% lower bound: Clopper-Pearson limits on n = {row.n} samples per input"
        )
        witness = f"witness {row.inputs}"
        if row.expected == "broken":
            claim_id = f"audit.flags_broken[{row.mechanism}]"
            source = "Lyu, Su, Li (PVLDB 2017), Fig. 1"
            statement = (
                f"the auditor flags the non-private {row.mechanism}: actual eps {fmt(row.actual_eps)} on "
                f"{cfg['queries']} queries with cutoff {cfg['cutoff']} > claimed {fmt(row.claimed_eps)}"
            )
            lower, runs = row.eps_lower_pass, row.runs_to_flag_pass
            measured = f"eps_lower at {pass_conf} {fmt(lower)}; {measured}"
            note = (
                f"flagged when the lower bound at the claims policy's one-sided {pass_conf} (union bound over the "
                f"carried witnesses) exceeds the claimed eps; {test}, over {row.searched} witnesses searched on a "
                f"pilot; {witness}. {BROKEN_CANNOT_FAIL}"
            )
            if lower > row.claimed_eps:
                out.append(
                    exact(
                        claim_id=claim_id,
                        source=source,
                        statement=statement,
                        measured=measured,
                        bound=f"> {fmt(row.claimed_eps)}",
                        ok=True,
                        note=note,
                    )
                )
            else:  # the auditor's power, not the paper, is in question
                out.append(
                    inconclusive(
                        claim_id=claim_id,
                        source=source,
                        statement=statement,
                        measured=measured,
                        bound=f"> {fmt(row.claimed_eps)}",
                        runs=runs,
                        now=row.n,
                        note=f"not flagged: the audit's power is too low at this sample size. {note}",
                    )
                )
        else:
            claim_id = f"audit.not_flagged[{row.mechanism}]"
            source = "Lemma 17 / Thm 21" if row.mechanism.startswith("GTM") else "published privacy claim"
            statement = f"the audit finds no violation of the claimed eps ({fmt(row.claimed_eps)})" + (
                f" at delta = {row.delta:g}" if row.delta > 0 else ""
            )
            if not row.flagged:
                out.append(
                    exact(
                        claim_id=claim_id,
                        source=source,
                        statement=statement,
                        measured=measured,
                        bound=f"eps_lower <= {fmt(row.claimed_eps)}",
                        ok=True,
                        note=f"{test}; {witness}",
                    )
                )
            else:  # an accusation: decided with this output's other cells at its family-wise level (Holm)
                out.append(
                    statistical(
                        claim_id=claim_id,
                        source=source,
                        statement=statement + ": for every witness carried to the main test, Pr_a[E] <= e^eps "
                        "Pr_b[E]" + (" + delta" if row.delta > 0 else ""),
                        measured=measured,
                        bound=f"eps_lower <= {fmt(row.claimed_eps)}",
                        evidence=evidence(row.mechanism, "claimed"),
                        note=f"flagged at the audit's own {conf}% level; {test}; {witness}",
                    )
                )
        if np.isfinite(row.eps_exact):  # a statistical claim: FAIL only through Holm with this output's other cells
            out.append(
                statistical(
                    claim_id=f"audit.below_exact[{row.mechanism}]",
                    source="consistency of privtest.audit with privtest.exact",
                    statement="the audit's witnesses do not exceed the exact worst transcript loss eps_exact of the "
                    "audited input pair: for every witness carried to the main test, Pr_a[E] <= e^eps_exact Pr_b[E]",
                    measured=f"eps_lower {fmt(row.eps_lower)} (eps_hat {fmt(row.eps_hat)})",
                    bound=f"<= {fmt(row.eps_exact)}",
                    evidence=evidence(row.mechanism, "exact"),
                    note=f"the audit's binomial cells tested at eps_exact; {test}; {witness}",
                )
            )
    return out
