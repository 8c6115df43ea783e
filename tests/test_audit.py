"""privtest.audit and privtest.svt_variants: the auditor's bound is valid on private mechanisms (false-alarm rate) and
detects every non-private SVT variant of Lyu, Su and Li (2017) at fixed seeds."""

import math

import numpy as np
import pytest
from conftest import ALPHA
from scipy import stats

from privtest.audit import estimate_epsilon
from privtest.experiments.fig_privacy_audit import query_pairs
from privtest.svt_variants import PRIVATE, SVTVariant, first_top, pattern_distance


def _rr(eps):
    """Randomized response with privacy exactly eps on inputs 1 (a) and 0 (b)."""
    keep = math.exp(eps) / (1 + math.exp(eps))
    return (lambda n, r: (r.random(n) < keep).astype(np.int64)), (lambda n, r: (r.random(n) >= keep).astype(np.int64))


def test_randomized_response_bound_is_tight_and_valid():
    ra, rb = _rr(1.0)
    res = estimate_epsilon(ra, rb, 200_000, np.random.default_rng(1))
    assert 0.9 < res.eps_lower <= 1.0
    assert res.eps_hat == pytest.approx(1.0, abs=0.05)
    assert res.event in ("== 1", ">= 1", "== 0", "<= 0")


def test_false_alarm_rate_on_private_mechanisms():
    """Randomized response at exactly its claimed eps: the 95% bound exceeds eps in at most 5% of audits; over 40
    seeded audits the count of false alarms stays below the binomial(40, 0.05) quantile at level 1 - ALPHA."""
    ra, rb = _rr(1.0)
    flags = sum(estimate_epsilon(ra, rb, 2000, np.random.default_rng(s)).eps_lower > 1.0 for s in range(40))
    assert flags <= stats.binom.isf(ALPHA, 40, 0.05)


@pytest.mark.parametrize("variant", sorted(PRIVATE))
def test_svt_variants_flagged_iff_not_private(variant):
    """Each broken variant is flagged on at least one query pair; alg1/alg2 on none (fixed seed, 1 - 0.05/3 each)."""
    mech = SVTVariant(variant, 1.0)
    rng = np.random.default_rng(7)
    bounds = []
    for qa, qb, code in query_pairs(10).values():
        res = estimate_epsilon(
            lambda n, r, qa=qa, code=code: code(*mech.run(qa, n, r)),
            lambda n, r, qb=qb, code=code: code(*mech.run(qb, n, r)),
            50_000,
            rng,
            1 - 0.05 / 3,
        )
        bounds.append(res.eps_lower)
    assert (max(bounds) > 1.0) == (not PRIVATE[variant]), bounds


def test_svt_answers_and_codes():
    mech = SVTVariant("alg5", 1.0, threshold=0.5)  # no query noise: top iff q >= 0.5 + rho
    ans, _ = mech.run(np.array([1.0, 0.0, 1.0]), 1000, np.random.default_rng(0))
    assert set(np.unique(ans)) <= {0, 1}  # no cutoff: never aborted
    assert np.all(ans[:, 0] == ans[:, 2])  # equal queries, same threshold noise
    one = SVTVariant("alg1", 1.0)
    ans, _ = one.run(np.full(5, 100.0), 100, np.random.default_rng(0))
    assert np.all(first_top(ans) == 1) and np.all(ans[:, 1:] == -1)  # aborts after c = 1 top
    assert np.all(pattern_distance(ans, 1) == 0)


def test_estimate_epsilon_validates_arguments():
    ra, rb = _rr(1.0)
    with pytest.raises(ValueError, match="confidence"):
        estimate_epsilon(ra, rb, 100, np.random.default_rng(0), confidence=1.5)
    with pytest.raises(ValueError, match="^n must be"):
        estimate_epsilon(ra, rb, 0, np.random.default_rng(0))


def _recount(x, event: str) -> int:
    """Count of ``event`` ("== v", "<= v" or ">= v", v written as in AuditResult.event) among the outputs x."""
    op, v = event.split()
    x = np.asarray(x)
    return int(np.count_nonzero({"==": x == float(v), "<=": x <= float(v), ">=": x >= float(v)}[op]))


def test_real_valued_outputs_are_refused():
    # issue 12 item 11: Laplace samples used to give an event "<= 0" whose counts could not be reproduced
    with pytest.raises(ValueError, match=r"^run_a must return integer-coded outputs"):
        estimate_epsilon(
            lambda n, r: r.laplace(0.0, 1.0, n), lambda n, r: r.laplace(1.0, 1.0, n), 2000, np.random.default_rng(0)
        )
    with pytest.raises(ValueError, match=r"^run_b must return integer-coded outputs"):
        estimate_epsilon(lambda n, r: r.integers(0, 3, n), lambda n, r: r.random(n), 2000, np.random.default_rng(0))


def test_the_reported_event_reproduces_the_counts():
    ra, rb = _rr(1.0)
    rng = np.random.default_rng(3)
    res = estimate_epsilon(ra, rb, 5000, rng)
    # replay the same draws: pilot a, pilot b, then the main samples
    replay = np.random.default_rng(3)
    ra(res.pilot, replay), rb(res.pilot, replay)
    xa, xb = ra(res.n, replay), rb(res.n, replay)
    if res.direction == "b/a":
        xa, xb = xb, xa
    assert (_recount(xa, res.event), _recount(xb, res.event)) == (res.k_a, res.k_b)
    # integral floats (e.g. halting steps stored as float) are integer-coded outputs too
    res = estimate_epsilon(
        lambda n, r: ra(n, r).astype(float), lambda n, r: rb(n, r).astype(float), 5000, np.random.default_rng(3)
    )
    assert res.event.split()[1] in ("0", "1")
