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
