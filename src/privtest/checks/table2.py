"""Claims of table2: on every row, BatchToCO's measured utility is never below Theorem 42's explicit guarantee at the
steps its proof covers (VACUOUS where the guarantee is never positive, INCONCLUSIVE where some (run, t) falls below
it)."""

from __future__ import annotations

import math

import pandas as pd

from privtest.claims import Claim, exact, fmt, inconclusive, vacuous


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """Per row: BatchToCO's measured utility is never below Theorem 42's explicit guarantee (over all runs and steps).

    Violations are counted at the steps Theorem 42's proof covers (t > t(ell(t)),
    :func:`privtest.co.frames.covered`) against the guarantee at V_hi, the upper confidence bound on V_A (see
    :func:`privtest.experiments._co.add_va_guarantees`). VACUOUS where the guarantee at V_hi is never positive (the
    check cannot fail; the note gives its largest value); PASS where it is positive somewhere and no observation
    violates it; INCONCLUSIVE where some (run, t) falls below it (Theorem 42 allows failure with probability O(beta)
    per run: the run-level rate is judged by the source figure's ``utility`` claim).
    """
    out = []
    for r in raw.itertuples():
        tag = f"{r.application},{r.stream},eps={r.eps}"
        text = dict(
            claim_id=f"co.table2.utility[{tag}]",
            source="Thm 42(2)",
            statement="f(X_t, Y_t) >= Theorem 42's explicit guarantee at every step of every run",
            measured=f"{int(r.violations)} violations among {int(r.runs)} runs x {int(r.T)} steps",
            bound="0 violations where the guarantee at V_hi is positive",
        )
        if not r.guarantee_va_hi_max > 0:  # NaN: not positive even at U_t
            value = r.guarantee_va_hi_max if math.isfinite(r.guarantee_va_hi_max) else r.guarantee_max
            out.append(
                vacuous(
                    **text,
                    value=value,
                    note=f"{r.algorithm}; max guarantee over (run, t) {fmt(r.guarantee_max)} at U_t, "
                    f"{fmt(r.guarantee_va_hi_max)} at V_hi",
                )
            )
        elif r.violations == 0:
            out.append(
                exact(
                    **text,
                    ok=True,
                    note=f"{r.algorithm}; guarantee at V_hi positive at some steps (max {fmt(r.guarantee_va_hi_max)})",
                )
            )
        else:
            out.append(
                inconclusive(
                    **text,
                    runs=math.inf,
                    now=int(r.runs),
                    reason="Theorem 42 allows a (run, t) below the guarantee with probability O(beta) per run, so no "
                    "count of violations decides this row; the run-level rate is decided by the source figure's "
                    "utility claim",
                    note=r.algorithm,
                )
            )
    return out
