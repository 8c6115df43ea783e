"""fig_privacy_audit: black-box audited lower bounds on eps (:func:`privtest.audit.estimate_epsilon`) for the GTM
(global direct, global flipped, ex-post), Cohen et al., Liu-Talwar (approximate DP: eps is audited at its claimed
delta), the classic AboveThreshold, and the six SVT variants of Lyu, Su and Li (2017), four of which are not private.

Inputs. Generalized testers run on Bernoulli streams p and their neighbour p' = min(e^eps_1 p, 1 - e^-eps_1 (1 - p))
(the extreme pure-DP pair; Cohen and Liu-Talwar at p = sqrt(pbar p*), where their halting is uncertain). Each GTM
case uses a stream where the exact analysis (fig_privacy_exact) finds continuation losses at the bound, and the exact
worst loss of that very pair is reported next to the audit (``eps_exact``: no audit of the pair can exceed it).
SVT-type mechanisms run on three query pairs
(sensitivity 1): bottoms then a top, a top/bottom pattern that flips between the datasets, and bottoms then a top
whose released value is low (Alg. 3); each pair is audited at confidence 1 - alpha/3 (union bound) and the
largest bound is reported. A mechanism is flagged when its bound exceeds the claimed eps (claims:
:mod:`privtest.checks.fig_privacy_audit`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.audit import estimate_epsilon
from privtest.baselines.above_threshold import AboveThreshold
from privtest.exact import Stream, transcript_log_probs
from privtest.privacy import neighbour_interval
from privtest.registry import make_tester
from privtest.svt_variants import PRIVATE, SVTVariant, actual_epsilon, first_top, first_top_low_value, pattern_distance
from privtest.testers import GTMTester, bernoulli_stream


def query_pairs(m: int) -> dict:
    """The SVT query pairs (answers on D and D', integer coding of an output) used for every SVT-type mechanism."""
    k = m // 2
    return {
        "bottoms_then_top": (np.r_[np.zeros(m - 1), 1.0], np.r_[np.ones(m - 1), 0.0], lambda a, v: first_top(a)),
        "pattern": (
            np.r_[np.ones(k), np.zeros(m - k)],
            np.r_[np.zeros(k), np.ones(m - k)],
            lambda a, v: pattern_distance(a, k),
        ),
        "released_value": (np.zeros(m), np.r_[np.ones(m - 1), 0.0], lambda a, v: first_top_low_value(a, v, 0.0)),
    }


def _svt_rows(name, runner, claimed, expected, actual, cfg, rng):
    pairs = query_pairs(cfg["queries"])
    conf = 1.0 - (1.0 - cfg["confidence"]) / len(pairs)
    best = None
    for pair, (qa, qb, code) in pairs.items():
        res = estimate_epsilon(
            lambda n, r, qa=qa, code=code: code(*runner(qa, n, r)),
            lambda n, r, qb=qb, code=code: code(*runner(qb, n, r)),
            cfg["n"],
            rng,
            conf,
        )
        if best is None or res.eps_lower > best[1].eps_lower:
            best = (pair, res)
    pair, res = best
    return dict(
        mechanism=name,
        claimed_eps=claimed,
        delta=0.0,
        actual_eps=actual,
        expected=expected,
        eps_lower=res.eps_lower,
        eps_hat=res.eps_hat,
        n=res.n,
        flagged=bool(res.eps_lower > claimed),
        event=f"{res.event} ({res.direction})",
        inputs=pair,
        eps_exact=np.nan,
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
    """One row per mechanism: mechanism, claimed_eps, delta, actual_eps, expected, eps_lower, eps_hat, n, flagged,
    event, inputs, eps_exact. No ``inputs``."""
    rows = []
    n, T = cfg["n"], cfg["T"]
    eps1 = cfg["eps_ratio"] * cfg["eps"]
    for label in ("GTM", "GTM (flipped)", "GTM ex-post"):
        tester, p = _gtm_case(label, cfg)
        claimed = tester.privacy.eps  # Theorem 21: eps; Theorem 23: the halting loss at T
        _, hi, _, _ = neighbour_interval(p, eps1)
        res = estimate_epsilon(_runner(tester, p, eps1), _runner(tester, hi, eps1), n, rng, cfg["confidence"])
        rows.append(
            dict(
                mechanism=label,
                claimed_eps=claimed,
                delta=0.0,
                actual_eps=claimed,
                expected="private",
                eps_lower=res.eps_lower,
                eps_hat=res.eps_hat,
                n=n,
                flagged=bool(res.eps_lower > claimed),
                event=f"{res.event} ({res.direction})",
                inputs=f"p={p[0]:g}, p'={hi[0]:.6g} (x{T})",
                eps_exact=_exact_pair_loss(tester, p, hi),
            )
        )
    for method in ("Cohen", "LiuTalwar"):
        pstar = cfg["pstar_baselines"]
        tester = make_tester(method, cfg, pstar, cfg["eps_ratio"], T)
        p = np.full(T, np.sqrt(max(tester.pbar(1), 1e-6) * pstar))  # between pbar and p*: halting is uncertain
        _, hi, _, _ = neighbour_interval(p, eps1)
        delta = tester.privacy.delta  # Liu-Talwar's eps is audited at its claimed delta
        res = estimate_epsilon(
            _runner(tester, p, eps1), _runner(tester, hi, eps1), n, rng, cfg["confidence"], delta=delta
        )
        rows.append(
            dict(
                mechanism=method,
                claimed_eps=cfg["eps"],
                delta=delta,
                actual_eps=cfg["eps"],
                expected="private",
                eps_lower=res.eps_lower,
                eps_hat=res.eps_hat,
                n=n,
                flagged=bool(res.eps_lower > cfg["eps"]),
                event=f"{res.event} ({res.direction})",
                inputs=f"p={p[0]:.4g}, p'={hi[0]:.4g} (x{T})",
                eps_exact=np.nan,
            )
        )
    at = AboveThreshold(cfg["eps"], cfg["beta"], cfg["queries"])
    rows.append(
        _svt_rows(
            "AboveThreshold",
            lambda q, k, r: (_halt_to_answers(at.run(q, k, r)[0], len(q)), np.full((k, len(q)), np.nan)),
            cfg["eps"],
            "private",
            cfg["eps"],
            cfg,
            rng,
        )
    )
    for variant in sorted(PRIVATE):
        mech = SVTVariant(variant, cfg["eps"], c=cfg["cutoff"])
        rows.append(
            _svt_rows(
                f"SVT {variant}",
                mech.run,
                cfg["eps"],
                "private" if PRIVATE[variant] else "broken",
                actual_epsilon(variant, cfg["eps"], cfg["cutoff"]),
                cfg,
                rng,
            )
        )
    return pd.DataFrame(rows)


def _halt_to_answers(halt_step, m):
    """Top/bottom answers of a c = 1 threshold test from its halting step (aborted after the top)."""
    idx = np.arange(1, m + 1)[None, :]
    h = np.asarray(halt_step)[:, None]
    ans = np.where((h == 0) | (idx < h), 0, np.where(idx == h, 1, -1)).astype(np.int8)
    return ans
