"""fig_privacy_exact: exact worst-case privacy loss of GTM variants vs the claimed eps (Lemma 17, Theorem 23, Cor 25).

For each case, :func:`privtest.privacy.search_worst_case` maximizes ln(Pr[a | p] / Pr[a | p']) over transcripts a
(every continuation prefix and every halt-at-t), neighbouring inputs (p_t/p'_t and (1-p_t)/(1-p'_t) in
[e^-eps_t, e^eps_t], or the (eps_t, delta_t) relation for purified inputs) and input sequences (grid + Nelder-Mead),
with probabilities from :mod:`privtest.exact` (quadrature, no sampling). The claimed bound of a transcript is
Lemma 17's (1/tau1 on continuation, 1/tau1 + 2/tau2 on halting, their sum = eps for Theorem 21) or Theorem 23's
ex-post loss (eps_C, eps_C + C_H eps_t ln(4/beta_t)). Two deliberately broken GTMs are negative controls: eta_1
redrawn at every step, and tau1 halved (noise smaller than the calibration claims); the check
(:mod:`privtest.checks.fig_privacy_exact`) must flag both.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from privtest.exact import Stream
from privtest.gtm import ExPostCalibration, GlobalCalibration
from privtest.privacy import expost_claims, lemma17_claims, search_worst_case

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
    cc, ch = lemma17_claims(stream)
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
