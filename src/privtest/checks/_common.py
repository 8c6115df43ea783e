"""Claim builders shared by several checks: single-step error checks (continuation at pbar_t, halting at p*_t) and
failure-rate checks, each from Monte Carlo counts with 95% Clopper-Pearson intervals."""

from __future__ import annotations

from privtest.claims import Claim, fmt, verdict_at_most
from privtest.stats import clopper_pearson


def continue_claim(
    claim_id: str, source: str, halts: int, runs: int, bound: float, fallback: float, note: str = ""
) -> Claim:
    """'Pr[halt] <= bound' from ``halts``/``runs``; if the interval cannot resolve ``bound``, check ``fallback``
    (a weaker bound the theorem also implies, e.g. the whole-run budget beta) and say so in the note."""
    lo, hi = clopper_pearson(halts, runs)
    verdict = verdict_at_most(lo, hi, bound)
    if verdict == "INCONCLUSIVE" and fallback > bound:
        note = (
            f"{fmt(bound)} is below Monte Carlo resolution ({runs} runs); checked against {fmt(fallback)} "
            "instead. " + note
        ).strip()
        bound, verdict = fallback, verdict_at_most(lo, hi, fallback)
    return Claim(
        claim_id=claim_id,
        source=source,
        statement=f"halts w.p. <= {fmt(bound)} when p_t <= pbar_t",
        measured=f"{fmt(halts / runs)} [{fmt(lo)}, {fmt(hi)}]",
        bound=f"<= {fmt(bound)}",
        verdict=verdict,
        note=note,
    )


def rate_claim(
    claim_id: str, source: str, statement: str, failures: int, runs: int, bound: float, note: str = ""
) -> Claim:
    """'failure probability <= bound' from ``failures``/``runs`` (95% Clopper-Pearson)."""
    lo, hi = clopper_pearson(failures, runs)
    return Claim(
        claim_id=claim_id,
        source=source,
        statement=statement,
        measured=f"{fmt(failures / runs)} [{fmt(lo)}, {fmt(hi)}]",
        bound=f"<= {fmt(bound)}",
        verdict=verdict_at_most(lo, hi, bound),
        note=note,
    )


def miss_claim(
    claim_id: str,
    source: str,
    good_halts: int,
    good_runs: int,
    beta_II: float,
    halts: int,
    runs: int,
    beta: float,
    note: str = "",
) -> Claim:
    """Type II check at p_t = p*_t. Primary: Lemma 20's halting guarantee given eta_1 <= mu1 (lambda_t on the right
    side of rho_t), Pr[miss | eta_1 <= mu1] <= beta_II. If the sample cannot resolve beta_II, fall back to the
    unconditional bound Pr[miss] <= beta/4 + beta_II (Lemma 19(3)) and say so."""
    misses_good = good_runs - good_halts
    lo, hi = clopper_pearson(misses_good, good_runs)
    verdict = verdict_at_most(lo, hi, beta_II)
    if verdict != "INCONCLUSIVE":
        return Claim(
            claim_id=claim_id,
            source=source,
            statement="Pr[miss | eta_1 <= mu1] <= beta_II when p_t = p*_t (Lemma 20)",
            measured=f"{fmt(misses_good / good_runs)} [{fmt(lo)}, {fmt(hi)}] over {good_runs} runs",
            bound=f"<= {fmt(beta_II)}",
            verdict=verdict,
            note=note,
        )
    bound = beta / 4 + beta_II
    lo, hi = clopper_pearson(runs - halts, runs)
    note = (
        f"beta_II = {fmt(beta_II)} is below Monte Carlo resolution; checked the unconditional bound "
        f"beta/4 + beta_II instead. {note}"
    ).strip()
    return Claim(
        claim_id=claim_id,
        source=source,
        statement="Pr[miss] <= beta/4 + beta_II when p_t = p*_t (Lemma 19(3), Lemma 20)",
        measured=f"{fmt((runs - halts) / runs)} [{fmt(lo)}, {fmt(hi)}]",
        bound=f"<= {fmt(bound)}",
        verdict=verdict_at_most(lo, hi, bound),
        note=note,
    )
