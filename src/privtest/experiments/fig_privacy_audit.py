"""fig_privacy_audit: black-box audited lower bounds on eps (:mod:`privtest.audit`) for the GTM (global direct,
global flipped, ex-post), Cohen et al., Liu-Talwar (approximate DP: eps is audited at its claimed delta), the classic
AboveThreshold, and the six SVT variants of Lyu, Su and Li (2017), four of which are not private.

Inputs. Generalized testers run on Bernoulli streams p and their neighbour p' = min(e^eps_1 p, 1 - e^-eps_1 (1 - p))
(the extreme pure-DP pair; Cohen and Liu-Talwar at p = sqrt(pbar p*), where their halting is uncertain). Each GTM
case uses a stream where the exact analysis (fig_privacy_exact) finds continuation losses at the bound, and the exact
worst loss of that very pair is reported next to the audit (``eps_exact``: no audit of the pair can exceed it).

SVT-type mechanisms are audited the way published DP testers do it (:func:`privtest.audit.audit`): the witness
search tries StatDP's input patterns (:func:`privtest.svt_variants.witness_pairs`, ``queries`` answers of
sensitivity 1) under three codings of the output (first top and number of tops; bottoms and the smallest released
value; Hamming distance to half tops), picks the ``CANDIDATES`` most promising (pair, coding, event) on a pilot of
n/2 runs per input, and tests them on fresh samples of n runs per input (conditional binomial test, union bound over
the carried witnesses). A mechanism is flagged when its bound exceeds the claimed eps; for a broken variant that is
not flagged, ``runs_to_flag`` is the audit's power: the runs per input at which the best witness's observed rates
would flag it (both: :mod:`privtest.analysis.fig_privacy_audit`; claims: :mod:`privtest.checks.fig_privacy_audit`).

What is drawn does not depend on the confidence level (an analysis key): the pilot search, the carried witnesses
and their main-sample counts do not. So the simulation records every carried witness's counts (column ``carried``)
and :mod:`privtest.analysis.fig_privacy_audit` judges them at ``confidence`` (:func:`privtest.audit.verdict`: the
level alpha, eps_lower, eps_hat, the best witness); a changed confidence reruns the analysis, never this simulation.
The audits run at :data:`SIMULATION_CONFIDENCE`, whose verdict is not recorded.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from privtest.audit import AuditResult, audit, estimate_epsilon
from privtest.baselines.above_threshold import AboveThreshold
from privtest.exact import Stream, transcript_log_probs
from privtest.privacy import neighbour_interval
from privtest.registry import make_tester
from privtest.svt_variants import CODINGS, PRIVATE, SVTVariant, actual_epsilon, witness_pairs
from privtest.testers import GTMTester, bernoulli_stream

#: Witnesses carried from the pilot search to the main test of an SVT-type mechanism (union bound over them).
CANDIDATES = 4
#: The confidence :func:`privtest.audit.audit` is called with: it changes no sample and no recorded count (only the
#: verdict, which the analysis recomputes at the configured ``confidence``).
SIMULATION_CONFIDENCE = 0.95
#: The keys of each carried witness recorded in the raw column ``carried`` (JSON list, pilot order).
CARRIED_KEYS = ("witness", "coding", "event", "direction", "k_a", "k_b", "n_a", "n_b")


def _row(name, claimed, delta, actual, res: AuditResult, inputs: str = "", eps_exact=np.nan) -> dict:
    """The raw row of one audit (:func:`raw_row`), its carried witnesses ``res.cells`` put back in pilot order."""
    carried = sorted(res.cells, key=lambda c: c["rank"])
    return raw_row(name, claimed, delta, actual, carried, res.n, res.searched, inputs, eps_exact)


def raw_row(
    name: str,
    claimed: float,
    delta: float,
    actual: float,
    carried: list[dict],
    n: int,
    searched: int,
    inputs: str = "",
    eps_exact: float = np.nan,
) -> dict:
    """One raw row: what an audit drew, which does not depend on the confidence level.

    Args:
        name: the mechanism. claimed, actual: its claimed and actual eps (nats). delta: its claimed delta.
        carried: the carried witnesses in pilot order, dicts with at least the keys :data:`CARRIED_KEYS` (witness:
            the input pair's label, "" for a one-pair audit; k_a, k_b: event counts of n_a, n_b main-sample runs).
        n: the main sample size per input asked for. searched: the (pair, coding) combinations searched.
        inputs: the audited input pair of a one-pair audit ("" for a witness search). eps_exact: the exact worst
            loss of the pair (GTM cases; NaN otherwise).
    """
    return dict(
        mechanism=name,
        claimed_eps=claimed,
        delta=delta,
        actual_eps=actual,
        n=n,
        inputs=inputs,
        eps_exact=eps_exact,
        searched=searched,
        carried=json.dumps([{k: c[k] for k in CARRIED_KEYS} for c in carried]),
    )


def svt_audit(sample, cfg: dict, rng: np.random.Generator) -> AuditResult:
    """The witness search of an SVT-type mechanism: ``sample(queries, k, rng) -> (answers, values)``; ``cfg`` needs n
    and queries."""
    n = cfg["n"]
    return audit(
        sample,
        witness_pairs(cfg["queries"]),
        CODINGS,
        n,
        rng,
        SIMULATION_CONFIDENCE,
        pilot=max(100, n // 2),
        candidates=CANDIDATES,
    )


def _gtm_case(label: str, cfg: dict) -> tuple[GTMTester, np.ndarray]:
    """The tester of a GTM audit case and its input stream p (shape (T,)): continuation losses at 1/tau1 with
    probability >= 0.05."""
    T, ratio = cfg["T"], cfg["eps_ratio"]
    if label == "GTM ex-post":
        return make_tester("GTM ex-post", {**cfg, "variant": "direct"}, 0.2, ratio, T), np.full(T, 0.15)
    flipped = label == "GTM (flipped)"
    tester = make_tester(
        "GTM", {**cfg, "variant": "flipped" if flipped else "direct"}, 0.9 if flipped else 0.2, ratio, T
    )
    return tester, np.full(T, 0.6 if flipped else 0.15)


def _exact_pair_loss(tester: GTMTester, p, p_prime) -> float:
    """max over transcripts and both orders of |ln Pr[a | p] - ln Pr[a | p']| (exact)."""
    A = transcript_log_probs(Stream.from_calibration(tester.cal, p, tester.eps1, tester.pstar))
    B = transcript_log_probs(Stream.from_calibration(tester.cal, p_prime, tester.eps1, tester.pstar))
    d = np.abs(np.concatenate([A.log_continue - B.log_continue, A.log_halt - B.log_halt]))
    return float(np.nanmax(d))


def _runner(tester, p, eps1: float):
    """Sampler of halting steps of ``tester`` on the Bernoulli stream p: (n, rng) -> int64 (n,)."""
    return lambda k, r: tester.run(bernoulli_stream(p, eps1), k, r)[0]


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """One row per mechanism: mechanism, claimed_eps, delta, actual_eps, n, inputs (the audited input pair of a
    one-pair audit, :func:`privtest.audit.estimate_epsilon`; empty for the witness searches, whose inputs are the
    best witness's), eps_exact, searched (the number of (pair, coding) combinations searched) and carried (JSON: per
    carried witness in pilot order, its witness, coding, event, direction and counts k_a, k_b of n_a, n_b; the
    analysis judges them at ``confidence``). The confidence level is not read. No ``inputs`` (the argument)."""
    rows = []
    n, T = cfg["n"], cfg["T"]
    eps1 = cfg["eps_ratio"] * cfg["eps"]
    for label in ("GTM", "GTM (flipped)", "GTM ex-post"):
        tester, p = _gtm_case(label, cfg)
        claimed = tester.privacy.eps  # Theorem 21: eps; Theorem 23: the halting loss at T
        _, hi, _, _ = neighbour_interval(p, eps1)
        res = estimate_epsilon(_runner(tester, p, eps1), _runner(tester, hi, eps1), n, rng, SIMULATION_CONFIDENCE)
        inputs_text = f"p={p[0]:g}, p'={hi[0]:.6g} (x{T})"
        rows.append(_row(label, claimed, 0.0, claimed, res, inputs_text, _exact_pair_loss(tester, p, hi)))
    for method in ("Cohen", "LiuTalwar"):
        pstar = cfg["pstar_baselines"]
        tester = make_tester(method, cfg, pstar, cfg["eps_ratio"], T)
        p = np.full(T, np.sqrt(max(tester.pbar(1), 1e-6) * pstar))  # between pbar and p*: halting is uncertain
        _, hi, _, _ = neighbour_interval(p, eps1)
        delta = tester.privacy.delta  # Liu-Talwar's eps is audited at its claimed delta
        res = estimate_epsilon(
            _runner(tester, p, eps1), _runner(tester, hi, eps1), n, rng, SIMULATION_CONFIDENCE, delta=delta
        )
        rows.append(_row(method, cfg["eps"], delta, cfg["eps"], res, f"p={p[0]:.4g}, p'={hi[0]:.4g} (x{T})"))
    m, c = cfg["queries"], cfg["cutoff"]
    at = AboveThreshold(cfg["eps"], cfg["beta"], m)

    def above_threshold(q, k, r):
        return _halt_to_answers(at.run(q, k, r)[0], len(q)), np.full((k, len(q)), np.nan)

    res = svt_audit(above_threshold, cfg, rng)
    rows.append(_row("AboveThreshold", cfg["eps"], 0.0, cfg["eps"], res))
    for variant in sorted(PRIVATE):
        mech = SVTVariant(variant, cfg["eps"], c=c)
        res = svt_audit(mech.run, cfg, rng)
        actual = actual_epsilon(variant, cfg["eps"], c, m)
        rows.append(_row(f"SVT {variant}", cfg["eps"], 0.0, actual, res))
    return pd.DataFrame(rows)


def _halt_to_answers(halt_step, m):
    """Top/bottom answers of a c = 1 threshold test from its halting step (aborted after the top)."""
    idx = np.arange(1, m + 1)[None, :]
    h = np.asarray(halt_step)[:, None]
    ans = np.where((h == 0) | (idx < h), 0, np.where(idx == h, 1, -1)).astype(np.int8)
    return ans
