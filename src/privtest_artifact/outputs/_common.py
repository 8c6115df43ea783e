"""Claim builders shared by several outputs' claims: failure-rate checks from Monte Carlo counts (verdicts by the policy
of :mod:`privtest_artifact.claims`) and single-step error checks on exact probabilities with the Monte Carlo estimate
beside them."""

from __future__ import annotations

from privtest_artifact.claims import Binomial, Claim, exact, fmt, statistical
from privtest_artifact.stats import clopper_pearson


def _measured(k: int, n: int) -> str:
    """'k/n [lo, hi]' with the 95% Clopper-Pearson interval, for a claim's measured column."""
    lo, hi = clopper_pearson(k, n)
    return f"{fmt(k / n)} [{fmt(lo)}, {fmt(hi)}]"


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


def exact_step_claim(
    claim_id: str,
    source: str,
    statement: str,
    value: float,
    bound: float,
    mc_k: int,
    mc_n: int,
    note: str = "",
) -> Claim:
    """A single-step error probability checked exactly at its own per-step bound ('value <= bound', ``value`` from
    :mod:`privtest.exact`), with the Monte Carlo estimate ``mc_k``/``mc_n`` of the same probability beside it as a
    cross-check (:func:`mc_cross_check`; Monte Carlo alone cannot resolve bounds like beta_t/4 ~ 1e-6)."""
    return exact(
        claim_id=claim_id,
        source=source,
        statement=statement,
        measured=fmt(value, 6),
        bound=f"<= {fmt(bound)}",
        ok=value <= bound,
        note=f"quadrature (privtest.exact); {mc_cross_check(mc_k, mc_n, value)}. {note}".strip(),
    )


def mc_cross_check(k: int, n: int, exact_value: float) -> str:
    """Monte Carlo cross-check of an exact probability, for a claim's note: k/n with its 95% Clopper-Pearson interval
    and the two-sided binomial test's p-value against the exact value (a small p-value would mean the simulation and
    the quadrature disagree: a bug of this code, not of the paper; tests/test_exact.py checks the agreement)."""
    from scipy import stats  # on use: scipy.stats is slow to import

    p = stats.binomtest(int(k), int(n), min(1.0, max(0.0, float(exact_value)))).pvalue
    return f"Monte Carlo {_measured(k, n)} over {n} runs, two-sided binomial p = {fmt(p, 2)} vs exact"
