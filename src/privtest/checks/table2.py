"""Claims of table2: on every row, BatchToCO's measured utility is never below Theorem 42's explicit guarantee at the
steps its proof covers (INCONCLUSIVE where the guarantee is vacuous or some (run, t) falls below it)."""

from __future__ import annotations

import pandas as pd

from privtest.claims import Claim, fmt


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """Per row: BatchToCO's measured utility is never below Theorem 42's explicit guarantee (over all runs and steps).

    Violations are counted at the steps Theorem 42's proof covers (t > t(ell(t)),
    :func:`privtest.experiments._co.covered`) against the guarantee at V_hi, the upper confidence bound on V_A (see
    :func:`privtest.experiments._co.add_va_guarantees`). INCONCLUSIVE where the guarantee at V_hi is vacuous (never
    positive: the check cannot fail) or where some (run, t) falls below it (Theorem 42 allows failure with
    probability O(beta) per run; the run-level statistical check is in the source figure's claims). PASS only when
    the guarantee at V_hi is positive somewhere and no observation violates it.
    """
    out = []
    for r in raw.itertuples():
        tag = f"{r.application},{r.stream},eps={r.eps}"
        if not r.guarantee_va_hi_max > 0:  # NaN: not positive even at U_t
            verdict, note = (
                "INCONCLUSIVE",
                f"guarantee vacuous: max over (run, t) {fmt(r.guarantee_max)} at U_t, "
                f"{fmt(r.guarantee_va_hi_max)} at V_hi",
            )
        elif r.violations == 0:
            verdict, note = "PASS", f"guarantee at V_hi positive at some steps (max {fmt(r.guarantee_va_hi_max)})"
        else:
            verdict, note = (
                "INCONCLUSIVE",
                "some (run, t) below the guarantee; Theorem 42 allows O(beta) failure per run",
            )
        out.append(
            Claim(
                claim_id=f"co.table2.utility[{tag}]",
                source="Thm 42(2)",
                statement="f(X_t, Y_t) >= Theorem 42's explicit guarantee at every step of every run",
                measured=f"{int(r.violations)} violations among {int(r.runs)} runs x {int(r.T)} steps",
                bound="0 violations where the guarantee at V_hi is positive",
                verdict=verdict,
                note=f"{r.algorithm}; {note}",
            )
        )
    return out
