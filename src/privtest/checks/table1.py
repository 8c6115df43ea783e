"""Claims of table1: per tester and T, continuation at its own pbar_T (Type I budget), halting at its own halting
threshold (Type II budget), mean evaluations >= Theorem 31, and no upper bound beating Corollary 30; Liu-Talwar's
missing guarantee at p* (Table 1's dagger) and the Theorem 46(3) erratum; GTM vs Cohen et al. rejection thresholds.

Each row's budgets come from its tester (:class:`privtest.testers.Tester`: recorded by the simulation, evaluated in
:mod:`privtest.analysis.table1`), so every tester is judged by its own theorem.
"""

from __future__ import annotations

import math

import pandas as pd

from privtest.analysis.table1 import analyse
from privtest.claims import CANNOT_FAIL, Binomial, Bracket, Claim, Normal, exact, fmt, statistical

#: ERRATA.md entry recording that Theorem 46(3)'s printed "moreover" bound cannot hold.
ERRATUM_LT_MOREOVER = "Theorem 46(3): the printed 'moreover' bound cannot hold"
#: Why the GTM-vs-Cohen ratio claims are PASS or INCONCLUSIVE only (docs/claims.md).
BRACKET_CANNOT_FAIL = (
    f"{CANNOT_FAIL} the ratio is only bracketed by two measured thresholds' 95% limits (privtest.claims.Bracket), "
    "whose fixed 5% level never reaches the family-wise FAIL level; a bracket below the bound stays INCONCLUSIVE"
)


def _aggregate(claim_id, source, statement, cells, bound_text, note="", erratum="") -> Claim:
    """One claim over several cells, measured shows the worst cell. ``cells``: list of (check, measured_text, score,
    cell) with larger score = worse (the first of equal ones; minus the analysis' rank where it ranks the cells),
    where check is an evidence cell (:class:`privtest.claims.Binomial`, :class:`~privtest.claims.Normal`,
    :class:`~privtest.claims.Bracket`; the claim is decided by the policy: FAIL if any cell is refuted, PASS if every
    cell is established) or a bool (exact cell: a False one makes the claim an exact FAIL, True ones leave it to the
    evidence cells)."""
    worst = max(cells, key=lambda c: c[2])
    text = dict(
        claim_id=claim_id,
        source=source,
        statement=statement,
        measured=f"{worst[1]} (worst: {worst[3]})",
        bound=bound_text,
        note=f"{len(cells)} cells. {note}".strip(),
        erratum=erratum,
    )
    exact_cells = [c for c in cells if isinstance(c[0], bool)]
    if len(exact_cells) == len(cells) or not all(c[0] for c in exact_cells):
        # all cells exact, or an exact cell refutes the statement (no sampling error: FAIL whatever the others say)
        return exact(**text, ok=all(c[0] for c in exact_cells))
    if exact_cells:
        text["note"] += f" {len(exact_cells)} exact cells hold; the others are decided from the data."
    return statistical(**text, evidence=[c[0] for c in cells if not isinstance(c[0], bool)])


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """Per tester and T: continuation at its own pbar_T, halting at its own halting threshold, samples >= Thm 31;
    LT's missing guarantee at p*; GTM vs Cohen rejection thresholds; upper bounds never beat the lower bound. Reads
    the tables ``testers`` and ``ratios`` of :func:`privtest.analysis.table1.analyse` (None computes them)."""
    analysis = analysis if analysis is not None else analyse(raw, cfg)
    out = []
    beta = cfg["beta"]
    for (method, T), g in analysis["testers"].groupby(["method", "T"], sort=False):
        cont, halt, halt_star, samp, lbc, moreover = [], [], [], [], [], []
        for r in g.itertuples():
            cell = r.cell
            txt = f"{fmt(r.cont_rate)} [{fmt(r.cont_low)}, {fmt(r.cont_high)}]"
            ev = Binomial(int(r.cont_k), int(r.runs), "at_most", float(r.cont_bound), cell)
            cont.append((ev, txt, r.cont_high, cell))
            if math.isfinite(r.halt_k):
                txt = f"{fmt(r.halt_rate)} [{fmt(r.halt_low)}, {fmt(r.halt_high)}]"
                ev = Binomial(int(r.halt_k), int(r.type2_runs), "at_least", float(r.halt_need), cell)
                halt.append((ev, txt, -r.halt_low, cell + f",p={fmt(r.halt_p)}"))
            at_pstar = f"{fmt(r.pstar_rate)} [{fmt(r.pstar_low)}, {fmt(r.pstar_high)}]"
            if r.no_guarantee_at_pstar:  # no halting guarantee at p* (Table 1's dagger)
                ev = Binomial(int(r.pstar_k), int(r.type2_runs), "at_most", 1 - beta, cell)
                halt_star.append((ev, at_pstar, r.pstar_low, cell))
            if math.isfinite(r.moreover_bound):
                # Thm 46(3) "moreover" as printed (R = 1): every halt at step 1 with p_1 = p* below it violates it.
                moreover.append(
                    (
                        Binomial(int(r.pstar_k), int(r.type2_runs), "at_most", float(r.moreover_level), cell),
                        at_pstar + f" with p* < bound {fmt(r.moreover_bound)}",
                        -r.pstar_low,
                        cell,
                    )
                )
            if math.isfinite(r.samples_lb):
                lb = r.samples_lb
                if r.samples_exact:
                    # a deterministic count (Liu-Talwar: exactly N of eq. 25 per step): exact, no sampling error
                    check = bool(r.samples_measured >= lb)
                else:
                    # one run (std NaN) or identical counts: se = 0, the bounded-range test on evaluations >= 0
                    check = Normal(
                        float(r.samples_measured),
                        float(r.samples_se),
                        int(r.runs),
                        "at_least",
                        lb,
                        cell,
                        span=(0.0, math.inf),
                    )
                samp.append(
                    (
                        check,
                        f"{fmt(r.samples_measured)} (lb {fmt(lb)})",
                        -r.samples_rank,
                        cell,
                    )
                )
            # An upper bound must not beat the lower bound (Cor 30 for its own accuracy and delta), applied at the
            # threshold where the tester guarantees halting (its halt_p: p* for GTM and Cohen, Thm 46(4)'s threshold
            # for Liu-Talwar, not its nominal p*).
            if math.isfinite(r.cor30_pbar):
                lbc.append(
                    (
                        bool(r.pbar_theory <= r.cor30_pbar),
                        f"{fmt(r.pbar_theory)} <= {fmt(r.cor30_pbar)} (halting guaranteed at {fmt(r.halt_p)})",
                        -r.cor30_rank,
                        cell,
                    )
                )
        with_delta = bool(g.with_delta.iloc[-1])
        src = g.source.iloc[0]
        out.append(
            _aggregate(
                f"table1.continue_at_pbar[{method},T={T}]",
                src,
                f"{method}: Pr[halt within T] <= its budget when p_t = its pbar_T at every step",
                cont,
                f"<= {fmt(beta)}" + (" + delta/2" if with_delta else ""),
                "pbar_T from the tester's own theorem (explicit constants)",
            )
        )
        if halt:
            out.append(
                _aggregate(
                    f"table1.halt_at_guarantee[{method},T={T}]",
                    src,
                    f"{method}: halts at the first step with p_t >= its guaranteed halting threshold (step T)",
                    halt,
                    f">= {fmt(1 - beta)}" + (" - delta/(4T)" if with_delta else ""),
                    "GTM and Cohen: threshold p*; Liu-Talwar: the smallest p with Thm 46(4)'s Phi condition",
                )
            )
        if halt_star:
            out.append(
                _aggregate(
                    f"table1.no_guarantee_at_pstar[{method},T={T}]",
                    "Table 1 (dagger), Thm 46(4)",
                    "Table 1's dagger: Liu-Talwar does not guarantee halting at p_t = p* (only at its Thm 46(4) "
                    "threshold); measured: fed p_t = p*, it halts w.p. < 1-beta",
                    halt_star,
                    f"< {fmt(1 - beta)}",
                    "the paper's own caveat, confirmed",
                )
            )
        if moreover:
            out.append(
                _aggregate(
                    f"table1.lt_moreover[T={T}]",
                    "Thm 46(3) 'moreover'",
                    "Thm 46(3) as printed: halting at R implies p_R >= 1-(1+e^eps0/(2(1-p*)) ((R+1)/beta)^sigma)^-1 "
                    "w.p. >= 1-beta-delta/2; so Pr[halt at step 1 with p_1 = p* < that bound] <= beta + delta/2",
                    moreover,
                    "<= beta + delta/2",
                    "the printed bound exceeds p*, yet Liu-Talwar fed p_t = p* halts w.p. ~1/2",
                    erratum=ERRATUM_LT_MOREOVER,
                )
            )
        if samp:
            out.append(
                _aggregate(
                    f"table1.samples_vs_thm31[{method},T={T}]",
                    "Thm 31 (beta_II = beta, Remark 32)",
                    f"{method}: mean evaluations per step >= Theorem 31's lower bound (p* <= 1/2)",
                    samp,
                    ">= e^-eps1/(4 p* (2 beta)^(eps1/eps))",
                    "normal approximation over runs",
                )
            )
        if lbc:
            out.append(
                _aggregate(
                    f"table1.upper_vs_lower[{method},T={T}]",
                    f"{src}; Cor 30",
                    f"{method}'s guaranteed pbar_T does not exceed the largest pbar Corollary 30 allows for a tester "
                    "that guarantees halting where it does",
                    lbc,
                    "<= Cor 30 sup",
                    "exact; Cohen's accuracy is 2 beta, Liu-Talwar's delta enters delta'; Liu-Talwar measured from its "
                    "Thm 46(4) halting threshold (like-for-like with the GTM's p*)",
                )
            )
    # GTM vs Cohen: measured thresholds, conservative ratio (GTM lower / Cohen upper) vs Table 1's factor.
    for T, g in analysis["ratios"].groupby("T", sort=False):
        rows_ge1, rows_fac = [], []
        for c in g.itertuples():
            cons, opt, fac, cell = c.ratio_low, c.ratio_high, c.factor, c.cell
            # each end of [cons, opt] holds with >= 95% (two one-sided 97.5% limits of the measured thresholds)
            rows_ge1.append(
                (
                    Bracket(cons, opt, 0.95, int(c.runs), "at_least", 1.0, cell),
                    f"ratio in [{fmt(cons)}, {fmt(opt)}]",
                    -c.ge1_rank,
                    cell,
                )
            )
            rows_fac.append(
                (
                    Bracket(cons, opt, 0.95, int(c.runs), "at_least", fac, cell),
                    f"ratio in [{fmt(cons)}, {fmt(opt)}] vs factor {fmt(fac)}",
                    -c.factor_rank,
                    cell,
                )
            )
        if rows_ge1:
            out.append(
                _aggregate(
                    f"table1.gtm_above_cohen[T={T}]",
                    "Table 1, Thm 21, Prop 48",
                    "GTM's measured rejection threshold exceeds Cohen et al.'s",
                    rows_ge1,
                    ">= 1",
                    "ratio interval = [GTM pbar_measured / Cohen pbar_upper, GTM pbar_upper / Cohen pbar_measured], "
                    f"each end at >= 95% confidence. {BRACKET_CANNOT_FAIL}",
                )
            )
            out.append(
                _aggregate(
                    f"table1.gtm_over_cohen_factor[T={T}]",
                    "Table 1",
                    "GTM's measured pbar exceeds Cohen's by at least the factor Table 1 predicts",
                    rows_fac,
                    ">= Table 1 factor",
                    "factor = GTM's over Cohen's pbar with Table 1's printed noise penalties "
                    f"(lower-order terms dropped). {BRACKET_CANNOT_FAIL}",
                )
            )
    return out
