"""Claims of fig_privacy_audit: private mechanisms are not flagged by the black-box audit, the broken SVT variants
are, and the audited GTM bounds never exceed the exact loss of the audited input pair."""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.claims import Claim, exact, fmt


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """Private mechanisms are not flagged; broken SVT variants are; GTM bounds never exceed the exact loss."""
    out = []
    for row in raw.itertuples():
        measured = f"eps_lower {fmt(row.eps_lower)} (eps_hat {fmt(row.eps_hat)}, n={row.n}, event {row.event})"
        if row.expected == "private":
            out.append(
                exact(
                    claim_id=f"audit.not_flagged[{row.mechanism}]",
                    source="Lemma 17 / Thm 21" if row.mechanism.startswith("GTM") else "published privacy claim",
                    statement=f"the audited lower bound on eps does not exceed the claimed eps ({fmt(row.claimed_eps)})"
                    + (f" at delta = {row.delta:g}" if row.delta > 0 else ""),
                    measured=measured,
                    bound=f"<= {fmt(row.claimed_eps)}",
                    ok=not row.flagged,
                    note=f"{int(cfg['confidence'] * 100)}% lower bound (Clopper-Pearson, union bound over events); "
                    f"inputs {row.inputs}",
                )
            )
        else:
            out.append(
                exact(
                    claim_id=f"audit.flags_broken[{row.mechanism}]",
                    source="Lyu, Su, Li (PVLDB 2017), Fig. 1",
                    statement=f"the auditor flags the non-private {row.mechanism} (actual eps {fmt(row.actual_eps)} > "
                    f"claimed "
                    f"{fmt(row.claimed_eps)})",
                    measured=measured,
                    bound=f"> {fmt(row.claimed_eps)}",
                    ok=bool(row.flagged),
                    note=f"inputs {row.inputs}",
                )
            )
        if np.isfinite(row.eps_exact):
            out.append(
                exact(
                    claim_id=f"audit.below_exact[{row.mechanism}]",
                    source="consistency of privtest.audit with privtest.exact",
                    statement="the audited lower bound is at most the exact worst transcript loss of the audited "
                    "input pair",
                    measured=fmt(row.eps_lower),
                    bound=f"<= {fmt(row.eps_exact)}",
                    ok=row.eps_lower <= row.eps_exact,
                    note="statistical: holds with probability >= the audit's confidence",
                )
            )
    return out
