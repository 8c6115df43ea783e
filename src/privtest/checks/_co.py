"""Claim builders shared by the continual-observation checks (Sections 7-8): per eps the privacy ledger (Lemma 38,
the realised ex-post loss beside it); per (stream, eps) Lemma 40's checkpoint bound, the GTM calls per step against
their exact expectation (Theorem 42(3)) and the utility guarantee of Theorem 42(2) at V_A (:func:`utility_claim`).

Theorem 42 is checked only at the steps its proof covers (:func:`privtest.co.frames.covered`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest.claims import Binomial, Claim, Normal, exact, fmt, statistical, vacuous
from privtest.co.frames import CHECKPOINT_RUNS, METHOD, covered
from privtest.co.params import BatchToCOParams

#: A-priori range of one run's sum N / sum E[N] (calls of A over their exact expectation): nonnegative, unbounded
#: above. With a zero standard error (one run, or identical ratios) the bounded-range test of
#: :class:`privtest.claims.Normal` can then never establish "<= 1.1": such a cell stays INCONCLUSIVE.
CALLS_RATIO_SPAN = (0.0, math.inf)


def claims(raw: pd.DataFrame, cfg: dict, prefix: str) -> list[Claim]:
    """The claims every CO experiment checks on its raw rows: per eps the privacy ledger (Lemma 38, exact; the
    realised ex-post loss of the runs, which cannot exceed it, is in its note); per (stream, eps) Lemma 40's
    checkpoint bound, the GTM calls per step against their exact expectation (Thm 42(3)) and the utility guarantee
    of Theorem 42(2) at V_A (:func:`utility_claim`).
    Claim ids start with ``prefix`` (``co`` for fig_co_densest, ``co.<application>`` for the others)."""
    out = []
    pre = prefix
    bco = raw[raw.method == METHOD]
    for eps in sorted(bco.eps.unique()):
        params = BatchToCOParams.from_config(cfg, float(eps))
        out.append(privacy_claim(bco[bco.eps == eps], params, f"{pre}.privacy_budget[eps={eps}]"))
    return out + _stream_claims(raw, cfg, pre)


def privacy_claim(rows: pd.DataFrame, params: BatchToCOParams, claim_id: str) -> Claim:
    """Lemma 38, exact: BatchToCO's worst-case privacy ledger sums to <= eps (and delta). The realised ex-post loss
    of the runs in ``rows`` (column ``halt_loss``, one value per (stream, run)), which cannot exceed the ledger, is
    shown in the note."""
    eps = params.eps
    led = params.privacy_budget()
    realised = rows.groupby(["stream", "run"])["halt_loss"].first()
    return exact(
        claim_id=claim_id,
        source="Lemma 38",
        statement="worst-case privacy of BatchToCO sums to <= eps (and delta)",
        measured=f"eps {fmt(led['eps_total'], 6)}, delta {fmt(led['delta_total'])}",
        bound=f"eps {eps:g}, delta {params.delta}",
        ok=led["eps_total"] <= eps and led["delta_total"] <= params.delta,
        note=f"exact sum over checkpoints 2..1e6 plus tail bound; Lemma 38's closed form {fmt(led['eps_bound'])}; "
        f"max GTM_i cost / (1 + C_H/C_1) eps(i) = {fmt(led['gtm_excess'])} ({params.constants_label}); "
        f"realised ex-post loss (Thm 23) max {fmt(realised.max())} over {len(realised)} runs",
    )


def checkpoint_claim(rows: pd.DataFrame, params: BatchToCOParams, claim_id: str) -> Claim:
    """Lemma 40 (via Lemma 39(2)) on one (stream, eps): the fraction of runs in which some checkpoint violates
    h_ell < OPT_t + (2/eps(ell,t)) ln(1/pbar) (column ``l39_margin`` > 0, the largest margin over the run's
    checkpoints, with U_t >= OPT_t) is <= C_beta beta. ``rows``: the checkpoint-only runs
    (:data:`privtest.co.frames.CHECKPOINT_RUNS`, one row per run) if any, else the BatchToCO runs' last rows."""
    last = rows[rows.t == rows.t.max()]
    R, T = int(last.run.nunique()), int(last.t.max())
    bad = int((last.groupby("run")["l39_margin"].max() > 0).sum())
    rate = params.C_beta * params.beta
    which = (
        "without ThresholdSelect: the checkpoint process has the same law"
        if (rows.method == CHECKPOINT_RUNS).any()
        else "the utility runs"
    )
    return statistical(
        claim_id=claim_id,
        source="Lemma 40 (via Lemma 39(2))",
        statement="at every checkpoint, h_ell < OPT_t + (2/eps(ell,t)) ln(1/pbar), hence ell(t) <= "
        "max{ell: (1+kappa)^ell < OPT_t + (2/eps(ell,t)) ln(1/pbar)} (logarithmic in t), except w.p. C_beta beta",
        measured=f"ell(T) max {int(last.ell.max())}; largest Lemma 39(2) margin {fmt(float(last.l39_margin.max()))}; "
        f"runs violating {bad}/{R} up to T = {T}",
        bound=f"violation rate <= C_beta beta = {fmt(rate)}",
        evidence=Binomial(bad, R, "at_most", rate),
        note=f"{R} runs ({which}); every checkpoint checked with U_t >= OPT_t (the next exact value), a weaker valid "
        "form; the event fails w.p. <= sum_i beta_i <= C_beta beta per run",
    )


def _stream_claims(raw, cfg, pre) -> list[Claim]:
    """Per (stream, eps) of the BatchToCO rows of ``raw``: Lemma 40's checkpoint rate (:func:`checkpoint_claim`, on
    the checkpoint-only runs if any), the GTM calls per step against their exact expectation (Theorem 42(3)) and
    Theorem 42(2)'s utility guarantee (:func:`utility_claim`)."""
    out = []
    bco = raw[raw.method == METHOD]
    for (stream, eps), g in bco.groupby(["stream", "eps"], sort=True):
        params = BatchToCOParams.from_config(cfg, float(eps))
        tag = f"{stream},eps={eps}"
        cp = raw[(raw.method == CHECKPOINT_RUNS) & (raw.stream == stream) & (raw.eps == eps)]
        out.append(checkpoint_claim(cp if len(cp) else g, params, f"{pre}.checkpoints[{tag}]"))
        steps = g[g.t >= 2]
        ratio = steps.groupby("run").apply(lambda d: d.gtm_calls.sum() / d.expected_calls.sum(), include_groups=False)
        m, se = float(ratio.mean()), float(ratio.std(ddof=1) / math.sqrt(len(ratio))) if len(ratio) > 1 else 0.0
        out.append(
            statistical(
                claim_id=f"{pre}.calls_per_step[{tag}]",
                source="Thm 42(3), Cor 35(3)",
                statement="GTM calls of A per step match their exact expectation "
                "rho_s e^{eps_t mu1}/((1+eps_t tau1)(1-eps_t tau2)) = O(ln(t/beta)/(p*(gamma-1)^2))",
                measured=f"sum N / sum E[N] = {fmt(m)} +- {fmt(1.96 * se)}; mean N_t = {fmt(steps.gtm_calls.mean())}",
                bound="in [0.9, 1.1]",
                evidence=Normal(m, se, len(ratio), "within", (0.9, 1.1), span=CALLS_RATIO_SPAN),
                note=f"E[N_t] <= rho_s e^(1/C_1)/(1 - 2/(C_H ln(4/beta_s))), rho_s = lambda^l(c_s, beta_s/6)/p*; "
                f"max E[N_t] here {fmt(steps.expected_calls.max())}",
            )
        )
        out.append(utility_claim(g, params, cfg, f"{pre}.utility[{tag}]"))
    return out


def utility_claim(g: pd.DataFrame, params: BatchToCOParams, cfg: dict, claim_id: str) -> Claim:
    """Theorem 42(2) on the BatchToCO rows ``g`` of one (stream, eps): the fraction of runs with some t >= 2 where
    f(X_t, Y_t) < the explicit guarantee at V_A(X_t) is <= (C_beta + 3) beta.

    Checked at the :func:`covered` steps. V_A is unknown; the guarantee increases with it. The count of violating
    runs is bracketed: counted at V_hi (V_A <= V_hi w.p. >= 1 - va_alpha) it is an upper end, at V_lo a lower end;
    PASS is established with the upper end and FAIL refuted with the lower one (:class:`privtest.claims.Binomial`,
    ``k_low``). VACUOUS when the guarantee at V_hi is never positive (then the check cannot fail)."""
    R = int(g.run.nunique())
    g = covered(g)
    bound = (params.C_beta + 3.0) * params.beta
    positive = float((g.guarantee > 0).mean())
    hi_max = float(g.guarantee_va_hi.max()) if g.guarantee_va_hi.notna().any() else float("nan")
    k_hi = int(g.assign(b=g.value < g.guarantee_va_hi).groupby("run")["b"].any().sum())
    k_lo = int(g.assign(b=g.value < g.guarantee_va_lo).groupby("run")["b"].any().sum())
    text = dict(
        claim_id=claim_id,
        source="Thm 42(2)",
        statement="f(X_t, Y_t) >= Theorem 42's explicit guarantee at V_A(X_t) for all t, except w.p. (C_beta+3) beta "
        "per run",
        measured=f"max guarantee at U_t >= V_A: {fmt(g.guarantee.max())} (> 0 at {fmt(100 * positive)}% of (run, t)); "
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
        value = hi_max if np.isfinite(hi_max) else float(g.guarantee.max())
        return vacuous(
            **text,
            value=value,
            note="the guarantee (at V_hi, or at U_t >= V_A where V_hi is not needed) is never "
            "positive at the covered steps, so f >= guarantee holds trivially; " + note,
        )
    return statistical(**text, evidence=Binomial(k_hi, R, "at_most", bound, k_low=k_lo), note=note)
