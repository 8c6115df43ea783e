"""fig_privacy_exact: exact worst-case privacy loss of GTM variants vs the claimed eps (Lemma 17, Theorem 23, Cor 25).

Simulation (:func:`simulate`, deterministic): for each case, :func:`privtest.privacy.search_worst_case` maximizes
ln(Pr[a | p] / Pr[a | p']) over transcripts a (every continuation prefix and every halt-at-t), neighbouring inputs
(p_t/p'_t and (1-p_t)/(1-p'_t) in [e^-eps_t, e^eps_t], or the (eps_t, delta_t) relation for purified inputs) and input
sequences (grid + Nelder-Mead), with probabilities from :mod:`privtest.exact` (quadrature, no sampling). The claimed
bound of a transcript is Lemma 17's (1/tau1 on continuation, 1/tau1 + 2/tau2 on halting, their sum = eps for Theorem 21)
or Theorem 23's ex-post loss (eps_C, eps_C + C_H eps_t ln(4/beta_t)). Two deliberately broken GTMs are negative
controls: eta_1 redrawn at every step, and tau1 halved (noise smaller than the calibration claims); the claims must flag
both. Raw rows: one per (case, eps_ratio, transcript kind), the worst transcript found, its loss, its claimed bound and
its inputs.

Analysis (:func:`analyse`):

* ``verdicts``: per GTM variant, calibration, eps_t/eps and transcript kind, the exact worst-case privacy loss found
  (Lemma 17, Theorem 23, Corollary 25), its excess over its claimed bound and whether the bound holds (raw columns plus
  ``excess``, ``within_bound``, ``flagged``, ``tight``).

The table holds what is a property of the case, not of the search's path: the maximising inputs, the number of
evaluations and the search stage that found them (raw columns ``worst_inputs``, ``evaluations``, ``method``) are left in
the raw table. Where a bound is attained the maximum is flat, and which maximiser Nelder-Mead reaches (and after how
many evaluations) depends on the last bits of numpy's exp/log, which differ between CPUs (SIMD code paths); the loss
differs only at quadrature error (~1e-13), so ``slack`` and ``excess`` are rounded to ``DIGITS`` decimals.

Judging keys of the config section (``x-stage: analysis``, never passed to the simulation): ``quadrature_tol`` (a
private case holds if its loss is at most the claim plus this; the quadrature is accurate to ~1e-12,
tests/test_exact.py) and ``detect_margin`` (a broken case is flagged if its loss exceeds the claim by more).

Claims (:func:`claims`, exact quadrature): the worst privacy loss of every private GTM case is within its claimed bound;
the two broken negative controls are flagged.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from privtest.exact import Stream
from privtest.gtm import ExPostCalibration, GlobalCalibration
from privtest.privacy import expost_claims, search_worst_case, transcript_loss_bounds
from privtest_artifact.claims import Claim, exact, fmt

#: (variant, calibration, expected): the cases of the figure, in plotting order.
CASES = [
    ("direct", "global", "private"),
    ("flipped", "global", "private"),
    ("mixed", "global", "private"),
    ("purified", "global", "private"),
    ("direct", "ex-post", "private"),
    ("flipped", "ex-post", "private"),
    ("eta1 redrawn", "global", "broken"),
    ("tau1 halved", "global", "broken"),
]


def case_stream(variant: str, calibration: str, cfg: dict, ratio: float):
    """The run's parameters for one case and its claimed per-transcript bounds.

    Returns:
        (stream, claims_continue, claims_halt, shared_eta1).
    """
    T = cfg["T"]
    eps_t = ratio * cfg["eps"]
    pstar = np.full(T, 0.2)
    if calibration == "ex-post":
        cal = ExPostCalibration(cfg["eps_C"], cfg["beta"], cfg["C_H"], cfg["gamma"], variant)
        eps_t = ratio * cfg["eps_C"]
        if variant == "flipped":
            pstar[:] = 0.9
        stream = Stream.from_calibration(cal, np.full(T, 0.5), eps_t, pstar)
        cc, ch = expost_claims(cal, T, eps_t)
        return stream, cc, ch, True
    gvariant = {"direct": "direct", "flipped": "flipped", "mixed": "auto"}.get(variant, "direct")
    cal = GlobalCalibration(cfg["eps"], cfg["beta"], cfg["theta"], cfg["gamma"], gvariant)
    if variant == "flipped":
        pstar[:] = 0.9
    if variant == "mixed":  # the flipping rule picks s = -1 at p* = 0.999 and s = +1 at p* = 0.2
        pstar[1::2] = 0.999
    delta = cfg["delta"] if variant == "purified" else 0.0
    stream = Stream.from_calibration(cal, np.full(T, 0.5), eps_t, pstar, delta)
    # Claims of the calibration as configured (Theorem 21: 1/tau1 = theta eps/(theta+2), 1/tau1 + 2/tau2 = eps).
    cc, ch = transcript_loss_bounds(stream)
    if variant == "tau1 halved":
        stream = Stream(
            cal.tau1 / 2, stream.mu1, stream.p, stream.eps, stream.tau2, stream.c, stream.rho, stream.s, stream.delta
        )
    return stream, cc, ch, variant != "eta1 redrawn"


def _fmt_seq(v) -> str:
    return json.dumps([float(f"{x:.6g}") for x in np.asarray(v)])


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """One row per (case, eps_ratio, transcript kind): the worst transcript found and its inputs. ``rng`` is unused
    (the computation is deterministic); no ``inputs``."""
    rows = []
    grid = np.concatenate([[0.0], 1.0 / (1.0 + np.exp(-np.linspace(-14, 14, cfg["grid"]))), [1.0]])
    for ratio in cfg["eps_ratio"]:
        for variant, calibration, expected in CASES:
            stream, cc, ch, shared = case_stream(variant, calibration, cfg, ratio)
            res = search_worst_case(
                stream,
                cc,
                ch,
                grid=grid,
                full_dim_T=cfg["full_dim_T"],
                nm_iters=cfg["nm_iters"],
                shared_eta1=shared,
            )
            for kind in ("continue", "halt"):
                wc = res[kind]
                transcript = f"C^{wc.t}" if kind == "continue" else f"C^{wc.t - 1} H"
                rows.append(
                    dict(
                        variant=variant,
                        calibration=calibration,
                        expected=expected,
                        eps_ratio=ratio,
                        kind=kind,
                        claimed_eps=wc.claimed,
                        max_loss=wc.loss,
                        slack=wc.claimed - wc.loss,
                        worst_t=wc.t,
                        worst_transcript=transcript,
                        worst_inputs=f"p={_fmt_seq(wc.p)}; p'={_fmt_seq(wc.p_prime)}",
                        s=_fmt_seq(stream.s[: wc.t]),
                        delta=float(stream.delta[0]),
                        method=wc.method,
                        evaluations=wc.evaluations,
                        T=stream.T,
                    )
                )
    return pd.DataFrame(rows)


#: Slack below which a private case's bound counts as attained (up to quadrature error), for the claims' notes.
TIGHT = 1e-6

#: Raw columns that describe the search's path, not the case (module docstring): not in ``verdicts``.
SEARCH_PATH = ("worst_inputs", "evaluations", "method")

#: Decimals kept of ``slack`` and ``excess`` (the quadrature is accurate to ~1e-12, tests/test_exact.py).
DIGITS = 9


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The table ``verdicts`` (module docstring).

    Args:
        raw: the raw rows (columns expected, claimed_eps, max_loss, slack, ...).
        cfg: the config section (``quadrature_tol`` >= 0, ``detect_margin`` > 0).

    Returns:
        ``{"verdicts": raw's columns but ``SEARCH_PATH``, plus excess = max_loss - claimed_eps, within_bound
        (max_loss <= claimed_eps + quadrature_tol), flagged (max_loss > claimed_eps + detect_margin) and tight
        (slack < TIGHT)}``; slack and excess rounded to ``DIGITS`` decimals (after the comparisons).

    Raises:
        ValueError: if ``quadrature_tol`` is negative or ``detect_margin`` is not positive.
    """
    tol, margin = float(cfg["quadrature_tol"]), float(cfg["detect_margin"])
    if not tol >= 0.0:
        raise ValueError(f"quadrature_tol must be >= 0, got {tol}.")
    if not margin > 0.0:
        raise ValueError(f"detect_margin must be > 0, got {margin}.")
    out = raw.drop(columns=[c for c in SEARCH_PATH if c in raw])
    out["excess"] = out.max_loss - out.claimed_eps
    out["within_bound"] = out.max_loss <= out.claimed_eps + tol
    out["flagged"] = out.max_loss > out.claimed_eps + margin
    out["tight"] = out.slack < TIGHT
    for col in ("slack", "excess"):
        out[col] = out[col].round(DIGITS) + 0.0  # + 0.0: -0.0 (a negative value below the last decimal) prints as 0
    return {"verdicts": out}


#: Where the maximising inputs are: the raw table (not in the committed results), for the claims' notes.
WITNESS = "; maximising inputs: results/raw/fig_privacy_exact.csv (worst_inputs)"


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """Private cases: worst loss <= claim + ``quadrature_tol`` (exact). Broken cases: the check flags them (loss >
    claim + ``detect_margin``). Reads the table ``verdicts`` of :func:`analyse`."""
    out = []
    for row in tables["verdicts"].itertuples():
        tag = f"{row.variant},{row.calibration},r={row.eps_ratio},{row.kind}"
        measured = f"{fmt(row.max_loss, 10)} at {row.worst_transcript}"
        if row.expected == "private":
            source = "Thm 23 (ex-post loss)" if row.calibration == "ex-post" else "Lemma 17, Thm 21"
            if row.variant == "purified":
                source = "Cor 25, Lemma 17"
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
