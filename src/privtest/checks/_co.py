"""Claim builders shared by the continual-observation checks (Sections 7-8): per eps the privacy ledger (Lemma 38,
the realised ex-post loss beside it); per (stream, eps) Lemma 40's checkpoint bound, the GTM calls per step against
their exact expectation (Theorem 42(3)) and the utility guarantee of Theorem 42(2) at V_A (:func:`utility_claim`).

Each builder compares one row of the analysis tables ``privacy``, ``checkpoints``, ``calls`` and ``utility``
(:mod:`privtest.analysis._co`) with the paper's bound; the counts over runs, ratios and standard errors are the
analysis'. Theorem 42 is checked only at the steps its proof covers (:func:`privtest.co.frames.covered`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest.analysis import _co as analysis_co
from privtest.claims import Binomial, Claim, Normal, exact, fmt, statistical, vacuous
from privtest.co.params import BatchToCOParams

#: A-priori range of one run's sum N / sum E[N] (calls of A over their exact expectation): nonnegative, unbounded
#: above. With a zero standard error (one run, or identical ratios) the bounded-range test of
#: :class:`privtest.claims.Normal` can then never establish "<= 1.1": such a cell stays INCONCLUSIVE.
CALLS_RATIO_SPAN = (0.0, math.inf)


def claims(raw: pd.DataFrame, cfg: dict, prefix: str, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """The claims every CO experiment checks: per eps the privacy ledger (Lemma 38, exact; the realised ex-post loss
    of the runs, which cannot exceed it, is in its note); per (stream, eps) Lemma 40's checkpoint bound, the GTM
    calls per step against their exact expectation (Thm 42(3)) and the utility guarantee of Theorem 42(2) at V_A
    (:func:`utility_claim`).

    Args:
        raw: the output's CO raw rows (:mod:`privtest.experiments._co`); read only when ``analysis`` is None.
        cfg: the output's config section (BatchToCO's constants; ``va_draws``, ``va_alpha`` for the notes).
        prefix: the start of the claim ids (``co`` for fig_co_densest, ``co.<application>`` for the others).
        analysis: the tables ``privacy``, ``checkpoints``, ``calls``, ``utility`` of
            :func:`privtest.analysis._co.tables` (the workflow passes those of ``results/analysis/<id>/``); None
            computes them from ``raw`` and ``cfg``.
    """
    if analysis is None:
        analysis = analysis_co.tables(raw, cfg)
    out = [privacy_claim(r, f"{prefix}.privacy_budget[eps={r.eps}]") for r in analysis["privacy"].itertuples()]
    calls = analysis["calls"].set_index(["stream", "eps"])
    utility = analysis["utility"].set_index(["stream", "eps"])
    for r in analysis["checkpoints"].itertuples():
        params = BatchToCOParams.from_config(cfg, float(r.eps))
        tag = f"{r.stream},eps={r.eps}"
        out.append(checkpoint_claim(r, params, f"{prefix}.checkpoints[{tag}]"))
        out.append(calls_claim(calls.loc[(r.stream, r.eps)], f"{prefix}.calls_per_step[{tag}]"))
        out.append(utility_claim(utility.loc[(r.stream, r.eps)], params, cfg, f"{prefix}.utility[{tag}]"))
    return out


def privacy_claim(r, claim_id: str) -> Claim:
    """Lemma 38, exact: BatchToCO's worst-case privacy ledger sums to <= eps (and delta). ``r``: a row of the table
    ``privacy`` (:func:`privtest.analysis._co.privacy`); the realised ex-post loss of its runs, which cannot exceed
    the ledger, is shown in the note."""
    return exact(
        claim_id=claim_id,
        source="Lemma 38",
        statement="worst-case privacy of BatchToCO sums to <= eps (and delta)",
        measured=f"eps {fmt(float(r.eps_total), 6)}, delta {fmt(float(r.delta_total))}",
        bound=f"eps {float(r.eps):g}, delta {float(r.delta)}",
        ok=r.eps_total <= r.eps and r.delta_total <= r.delta,
        note=f"exact sum over checkpoints 2..1e6 plus tail bound; Lemma 38's closed form {fmt(float(r.eps_bound))}; "
        f"max GTM_i cost / (1 + C_H/C_1) eps(i) = {fmt(float(r.gtm_excess))} ({r.constants}); "
        f"realised ex-post loss (Thm 23) max {fmt(float(r.halt_loss_max))} over {int(r.runs)} runs",
    )


def checkpoint_claim(r, params: BatchToCOParams, claim_id: str) -> Claim:
    """Lemma 40 (via Lemma 39(2)) on one (stream, eps): the fraction of runs in which some checkpoint violates
    h_ell < OPT_t + (2/eps(ell,t)) ln(1/pbar) (a Lemma 39(2) margin > 0, with U_t >= OPT_t) is <= C_beta beta.
    ``r``: a row of the table ``checkpoints`` (:func:`privtest.analysis._co.checkpoints`: the checkpoint-only runs if
    any, else the BatchToCO runs)."""
    R, bad = int(r.runs), int(r.runs_violating)
    rate = params.C_beta * params.beta
    which = (
        "without ThresholdSelect: the checkpoint process has the same law" if r.checkpoint_only else "the utility runs"
    )
    return statistical(
        claim_id=claim_id,
        source="Lemma 40 (via Lemma 39(2))",
        statement="at every checkpoint, h_ell < OPT_t + (2/eps(ell,t)) ln(1/pbar), hence ell(t) <= "
        "max{ell: (1+kappa)^ell < OPT_t + (2/eps(ell,t)) ln(1/pbar)} (logarithmic in t), except w.p. C_beta beta",
        measured=f"ell(T) max {int(r.ell_T_max)}; largest Lemma 39(2) margin {fmt(float(r.l39_margin_max))}; "
        f"runs violating {bad}/{R} up to T = {int(r.T)}",
        bound=f"violation rate <= C_beta beta = {fmt(rate)}",
        evidence=Binomial(bad, R, "at_most", rate),
        note=f"{R} runs ({which}); every checkpoint checked with U_t >= OPT_t (the next exact value), a weaker valid "
        "form; the event fails w.p. <= sum_i beta_i <= C_beta beta per run",
    )


def calls_claim(r, claim_id: str) -> Claim:
    """Theorem 42(3) on one (stream, eps): per run sum N / sum E[N] lies in [0.9, 1.1] (Normal evidence of its mean
    over runs). ``r``: a row of the table ``calls`` (:func:`privtest.analysis._co.calls`)."""
    m, se = float(r.calls_ratio_mean), float(r.calls_ratio_se)
    return statistical(
        claim_id=claim_id,
        source="Thm 42(3), Cor 35(3)",
        statement="GTM calls of A per step match their exact expectation "
        "rho_s e^{eps_t mu1}/((1+eps_t tau1)(1-eps_t tau2)) = O(ln(t/beta)/(p*(gamma-1)^2))",
        measured=f"sum N / sum E[N] = {fmt(m)} +- {fmt(1.96 * se)}; mean N_t = {fmt(float(r.calls_mean))}",
        bound="in [0.9, 1.1]",
        evidence=Normal(m, se, int(r.runs), "within", (0.9, 1.1), span=CALLS_RATIO_SPAN),
        note=f"E[N_t] <= rho_s e^(1/C_1)/(1 - 2/(C_H ln(4/beta_s))), rho_s = lambda^l(c_s, beta_s/6)/p*; "
        f"max E[N_t] here {fmt(float(r.expected_calls_max))}",
    )


def utility_claim(r, params: BatchToCOParams, cfg: dict, claim_id: str) -> Claim:
    """Theorem 42(2) on one (stream, eps): the fraction of runs with some t >= 2 where f(X_t, Y_t) < the explicit
    guarantee at V_A(X_t) is <= (C_beta + 3) beta. ``r``: a row of the table ``utility``
    (:func:`privtest.analysis._co.utility`).

    Checked at the :func:`privtest.co.frames.covered` steps. V_A is unknown; the guarantee increases with it. The
    count of violating runs is bracketed: counted at V_hi (V_A <= V_hi w.p. >= 1 - va_alpha) it is an upper end, at
    V_lo a lower end; PASS is established with the upper end and FAIL refuted with the lower one
    (:class:`privtest.claims.Binomial`, ``k_low``). VACUOUS when the guarantee at V_hi is never positive (then the
    check cannot fail)."""
    R = int(r.runs)
    bound = (params.C_beta + 3.0) * params.beta
    positive, hi_max = float(r.guarantee_positive), float(r.guarantee_va_hi_max)
    k_hi, k_lo = int(r.runs_violating_va_hi), int(r.runs_violating_va_lo)
    text = dict(
        claim_id=claim_id,
        source="Thm 42(2)",
        statement="f(X_t, Y_t) >= Theorem 42's explicit guarantee at V_A(X_t) for all t, except w.p. (C_beta+3) beta "
        "per run",
        measured=f"max guarantee at U_t >= V_A: {fmt(float(r.guarantee_max))} (> 0 at {fmt(100 * positive)}% of "
        "(run, t)); "
        + (
            f"max guarantee at V_hi {fmt(hi_max)}; runs violating at V_hi {k_hi}/{R}, at V_lo {k_lo}/{R}"
            if positive
            else "V_A not needed"
        ),
        bound=f"violation rate <= (C_beta+3) beta = {fmt(bound)}",
    )
    note = (
        "steps t > t(ell(t)) (the proof's Step 1 does not cover checkpoint steps, ERRATA.md); V_A is bracketed from "
        f"{cfg['va_draws']} draws of A(X_t, eps_t/2) per (ell, t) where the guarantee at U_t >= V_A is positive, at "
        f"total confidence 1 - {cfg['va_alpha']} (PASS needs the V_hi count, FAIL the V_lo one)"
    )
    if not hi_max > 0:
        value = hi_max if np.isfinite(hi_max) else float(r.guarantee_max)
        return vacuous(
            **text,
            value=value,
            note="the guarantee (at V_hi, or at U_t >= V_A where V_hi is not needed) is never "
            "positive at the covered steps, so f >= guarantee holds trivially; " + note,
        )
    return statistical(**text, evidence=Binomial(k_hi, R, "at_most", bound, k_low=k_lo), note=note)
