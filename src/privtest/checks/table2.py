"""Claims of table2: on every row, BatchToCO's measured utility falls below Theorem 42's explicit guarantee, at the
steps its proof covers, in at most the fraction (C_beta + 3) beta of the runs that Theorem 42(2) allows (decided
under the policy of :mod:`privtest.claims`: FAIL when the violating runs refute that rate; VACUOUS where the
guarantee is never positive)."""

from __future__ import annotations

import math

import pandas as pd

from privtest.claims import Binomial, Claim, fmt, statistical, vacuous


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """Per row: the fraction of runs with some covered step (t > t(ell(t)), :func:`privtest.co.frames.covered`) where
    f(X_t, Y_t) is below Theorem 42's explicit guarantee at V_A is <= (C_beta + 3) beta (Theorem 42(2)).

    V_A is bracketed (:func:`privtest.experiments._co.add_va_guarantees`): the violating runs counted at V_hi
    (column ``runs_violating``) are an upper end of the true count, at V_lo (``runs_violating_va_lo``) a lower end;
    PASS needs the upper end, FAIL the lower one (:class:`privtest.claims.Binomial` with ``k_low``), as for the source
    figure's ``utility`` claim. VACUOUS where the guarantee at V_hi is never positive (the note gives its largest
    value). ``raw``: the rows of :func:`privtest.experiments.table2.simulate` (columns application, algorithm,
    stream, eps, beta, C_beta, runs, T, violations, runs_violating, runs_violating_va_lo, guarantee_max,
    guarantee_va_hi_max). ``cfg`` is unused (the constants are in the rows)."""
    del cfg
    out = []
    for r in raw.itertuples():
        tag = f"{r.application},{r.stream},eps={r.eps}"
        rate = (float(r.C_beta) + 3.0) * float(r.beta)
        text = dict(
            claim_id=f"co.table2.utility[{tag}]",
            source="Thm 42(2)",
            statement="f(X_t, Y_t) >= Theorem 42's explicit guarantee at V_A(X_t) for all t, except w.p. "
            "(C_beta+3) beta per run",
            measured=f"runs violating at V_hi {int(r.runs_violating)}/{int(r.runs)}, at V_lo "
            f"{int(r.runs_violating_va_lo)}/{int(r.runs)} ({int(r.violations)} (run, t) below the guarantee at V_hi, "
            f"T = {int(r.T)})",
            bound=f"violation rate <= (C_beta+3) beta = {fmt(rate)}",
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
            continue
        out.append(
            statistical(
                **text,
                evidence=Binomial(
                    int(r.runs_violating), int(r.runs), "at_most", rate, k_low=int(r.runs_violating_va_lo)
                ),
                note=f"{r.algorithm}; guarantee at V_hi positive at some covered steps (max "
                f"{fmt(r.guarantee_va_hi_max)}); PASS needs the V_hi count, FAIL the V_lo one",
            )
        )
    return out
