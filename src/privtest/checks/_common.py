"""Claim builders shared by several checks: single-step error checks (continuation at pbar_t, halting at p*_t) and
failure-rate checks, each from Monte Carlo counts (verdicts by the policy of :mod:`privtest.claims`)."""

from __future__ import annotations

from scipy import stats

from privtest.claims import Binomial, Claim, fmt, statistical
from privtest.stats import clopper_pearson


def _measured(k: int, n: int) -> str:
    lo, hi = clopper_pearson(k, n)
    return f"{fmt(k / n)} [{fmt(lo)}, {fmt(hi)}]"


def continue_claim(
    claim_id: str, source: str, halts: int, runs: int, bound: float, fallback: float, note: str = ""
) -> Claim:
    """'Pr[halt] <= bound' from ``halts``/``runs``; if the sample cannot establish ``bound`` although the estimate
    satisfies it, check ``fallback`` (a weaker bound the theorem also implies, e.g. the whole-run budget beta) and say
    so in the note."""
    ev = Binomial(halts, runs, "at_most", bound)
    if not ev.established() and halts / runs <= bound and fallback > bound:
        note = (
            f"{fmt(bound)} is below Monte Carlo resolution ({runs} runs); checked against {fmt(fallback)} "
            "instead. " + note
        ).strip()
        bound, ev = fallback, Binomial(halts, runs, "at_most", fallback)
    return statistical(
        claim_id=claim_id,
        source=source,
        statement=f"halts w.p. <= {fmt(bound)} when p_t <= pbar_t",
        measured=_measured(halts, runs),
        bound=f"<= {fmt(bound)}",
        evidence=ev,
        note=note,
    )


def rate_claim(
    claim_id: str, source: str, statement: str, failures: int, runs: int, bound: float, note: str = ""
) -> Claim:
    """'failure probability <= bound' from ``failures``/``runs``."""
    return statistical(
        claim_id=claim_id,
        source=source,
        statement=statement,
        measured=_measured(failures, runs),
        bound=f"<= {fmt(bound)}",
        evidence=Binomial(failures, runs, "at_most", bound),
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
    side of rho_t), Pr[miss | eta_1 <= mu1] <= beta_II. If the sample cannot establish beta_II although the estimate
    satisfies it, fall back to the unconditional bound Pr[miss] <= beta/4 + beta_II (Lemma 19(3)) and say so."""
    misses_good = good_runs - good_halts
    ev = Binomial(misses_good, good_runs, "at_most", beta_II)
    if ev.established() or misses_good / good_runs > beta_II:
        lo, hi = clopper_pearson(misses_good, good_runs)
        return statistical(
            claim_id=claim_id,
            source=source,
            statement="Pr[miss | eta_1 <= mu1] <= beta_II when p_t = p*_t (Lemma 20)",
            measured=f"{fmt(misses_good / good_runs)} [{fmt(lo)}, {fmt(hi)}] over {good_runs} runs",
            bound=f"<= {fmt(beta_II)}",
            evidence=ev,
            note=note,
        )
    bound = beta / 4 + beta_II
    note = (
        f"beta_II = {fmt(beta_II)} is below Monte Carlo resolution; checked the unconditional bound "
        f"beta/4 + beta_II instead. {note}"
    ).strip()
    return statistical(
        claim_id=claim_id,
        source=source,
        statement="Pr[miss] <= beta/4 + beta_II when p_t = p*_t (Lemma 19(3), Lemma 20)",
        measured=_measured(runs - halts, runs),
        bound=f"<= {fmt(bound)}",
        evidence=Binomial(runs - halts, runs, "at_most", bound),
        note=note,
    )


def mc_cross_check(k: int, n: int, exact_value: float) -> str:
    """Monte Carlo cross-check of an exact probability, for a claim's note: k/n with its 95% Clopper-Pearson interval
    and the two-sided binomial test's p-value against the exact value (a small p-value would mean the simulation and
    the quadrature disagree: a bug of this code, not of the paper; tests/test_exact.py checks the agreement)."""
    p = stats.binomtest(int(k), int(n), min(1.0, max(0.0, float(exact_value)))).pvalue
    return f"Monte Carlo {_measured(k, n)} over {n} runs, two-sided binomial p = {fmt(p, 2)} vs exact"
