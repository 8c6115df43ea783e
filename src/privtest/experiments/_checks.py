"""Claim builders shared by several experiments (single-step error checks, whole-run error checks)."""

from __future__ import annotations

from privtest.claims import Claim, clopper_pearson, fmt, verdict_at_least, verdict_at_most


def halt_claim(
    claim_id: str, source: str, experiment: str, halts: int, runs: int, bound: float, note: str = ""
) -> Claim:
    """'Pr[halt] >= bound' from ``halts`` out of ``runs`` (95% Clopper-Pearson)."""
    lo, hi = clopper_pearson(halts, runs)
    return Claim(
        claim_id,
        source,
        f"halts w.p. >= {fmt(bound)} when p_t >= p*_t",
        experiment,
        f"{fmt(halts / runs)} [{fmt(lo)}, {fmt(hi)}]",
        f">= {fmt(bound)}",
        verdict_at_least(lo, hi, bound),
        note,
    )


def continue_claim(
    claim_id: str, source: str, experiment: str, halts: int, runs: int, bound: float, fallback: float, note: str = ""
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
        claim_id,
        source,
        f"halts w.p. <= {fmt(bound)} when p_t <= pbar_t",
        experiment,
        f"{fmt(halts / runs)} [{fmt(lo)}, {fmt(hi)}]",
        f"<= {fmt(bound)}",
        verdict,
        note,
    )


def rate_claim(
    claim_id: str, source: str, statement: str, experiment: str, failures: int, runs: int, bound: float, note: str = ""
) -> Claim:
    """'failure probability <= bound' from ``failures``/``runs`` (95% Clopper-Pearson)."""
    lo, hi = clopper_pearson(failures, runs)
    return Claim(
        claim_id,
        source,
        statement,
        experiment,
        f"{fmt(failures / runs)} [{fmt(lo)}, {fmt(hi)}]",
        f"<= {fmt(bound)}",
        verdict_at_most(lo, hi, bound),
        note,
    )


def miss_claim(
    claim_id: str,
    source: str,
    experiment: str,
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
            claim_id,
            source,
            "Pr[miss | eta_1 <= mu1] <= beta_II when p_t = p*_t (Lemma 20)",
            experiment,
            f"{fmt(misses_good / good_runs)} [{fmt(lo)}, {fmt(hi)}] over {good_runs} runs",
            f"<= {fmt(beta_II)}",
            verdict,
            note,
        )
    bound = beta / 4 + beta_II
    lo, hi = clopper_pearson(runs - halts, runs)
    note = (
        f"beta_II = {fmt(beta_II)} is below Monte Carlo resolution; checked the unconditional bound "
        f"beta/4 + beta_II instead. {note}"
    ).strip()
    return Claim(
        claim_id,
        source,
        "Pr[miss] <= beta/4 + beta_II when p_t = p*_t (Lemma 19(3), Lemma 20)",
        experiment,
        f"{fmt((runs - halts) / runs)} [{fmt(lo)}, {fmt(hi)}]",
        f"<= {fmt(bound)}",
        verdict_at_most(lo, hi, bound),
        note,
    )
