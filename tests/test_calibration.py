"""privtest.calibration: exact Poisson quantiles, the exact-tail calibration's guarantees (Lemma 20 with exact tails),
and the whole-run error certificate (worst-stream reduction checked against other streams)."""

import numpy as np
import pytest
from scipy import special

from privtest.calibration import (
    ExactTailCalibration,
    certified_calibration,
    count_threshold_exact,
    lambda_left_exact,
    lambda_right_exact,
    whole_run_error,
)
from privtest.exact import Stream, step_log_halt, transcript_log_probs
from privtest.gtm import GlobalCalibration
from privtest.poisson import count_threshold, lambda_left, lambda_right
from privtest.schedule import beta_t


@pytest.mark.parametrize("c,alpha", [(0, 0.1), (5, 1e-3), (143, 1e-5), (900, 1e-9)])
def test_exact_quantiles_are_tight_and_safe(c, alpha):
    L, R = lambda_left_exact(c, alpha), lambda_right_exact(c, alpha)
    assert special.pdtr(c, L) <= alpha < special.pdtr(c, L * (1 - 1e-9))
    assert special.pdtrc(c, R) <= alpha < special.pdtrc(c, R * (1 + 1e-9))
    # Chernoff thresholds (eq. 3-4) are sufficient conditions, so never tighter than the exact quantiles.
    assert lambda_left(c, alpha) >= L
    if c + 1 >= 2 * np.log(1 / alpha):
        assert lambda_right(c, alpha) <= R


@pytest.mark.parametrize("err", [1e-2, 1e-4, 1e-7])
def test_exact_count_threshold_is_minimal_and_below_lemma_11(err):
    c = count_threshold_exact(err, err, 1.5)
    assert lambda_left_exact(c, err) <= 1.5 * lambda_right_exact(c, err)
    if c > 0:
        assert lambda_left_exact(c - 1, err) > 1.5 * lambda_right_exact(c - 1, err)
    assert c <= count_threshold(err, err, 1.5)


@pytest.mark.parametrize("pstar,variant", [(0.2, "auto"), (0.99, "auto"), (0.9, "flipped")])
def test_exact_tail_calibration_keeps_lemma_20(pstar, variant):
    """Same noise, direction and pbar as Theorem 21; at the extreme lambda of the good event, the exact error at
    p* and at pbar is within beta_t/4; and the unconditional single-step errors stay within the proof's budgets."""
    paper = GlobalCalibration(1.0, 0.05, 1.0, 1.5, variant)
    exact = ExactTailCalibration(1.0, 0.05, 1.0, 1.5, variant)
    for t in (1, 100, 10000):
        a, b = paper.step(t, 0.1, pstar), exact.step(t, 0.1, pstar)
        assert (a.s, a.pbar, a.tau2, a.log_Lambda) == (b.s, b.pbar, b.tau2, b.log_Lambda)
        assert b.c <= a.c and b.expected_samples < a.expected_samples
        err = b.beta_I
        Lam = np.exp(b.log_Lambda)
        if b.s == 1:  # lambda in [rho, rho Lambda] on the good event
            assert special.pdtr(b.c, b.rho * pstar) <= err
            assert special.pdtrc(b.c, b.rho * Lam * b.pbar) <= err * (1 + 1e-9)
        else:  # counts of -M: lambda in [rho / Lambda, rho]
            assert special.pdtrc(b.c, b.rho * (1 - pstar)) <= err
            if b.pbar > 0:
                assert special.pdtr(b.c, b.rho / Lam * (1 - b.pbar)) <= err * (1 + 1e-9)
        bt = float(beta_t(t, 0.05))
        miss = -np.expm1(step_log_halt(b, [pstar])[0])
        assert miss <= 0.05 / 4 + bt / 4
        if b.pbar > 0:
            assert np.exp(step_log_halt(b, [b.pbar])[0]) <= bt / 2


def test_expected_samples_closed_form():
    st = GlobalCalibration(1.0, 0.05, 1.0, 1.5).step(3, 0.1, 0.2)
    rng = np.random.default_rng(5)
    eta1, eta2 = rng.exponential(st.tau1, 2_000_000), rng.exponential(st.tau2, 2_000_000)
    lam = st.rho * np.exp(st.eps_t * (st.mu1 - eta1 + eta2))
    assert lam.mean() == pytest.approx(st.expected_samples, rel=0.01)


def test_whole_run_worst_stream_dominates_other_streams():
    """The certificate's reduction: no other stream (random p in [0, 1], any position of the first p >= p* step)
    has a larger exact error probability than the worst streams it evaluates."""
    cal = ExactTailCalibration(1.0, 0.05, 1.0, 1.5, budget_scale=20.0)
    T, eps_t, pstar = 8, 0.1, 0.5
    worst, per_th = whole_run_error(cal, T, eps_t, pstar)
    assert worst == pytest.approx(per_th.max())
    params = [cal.step(t, eps_t, pstar) for t in range(1, T + 1)]
    pbar = np.array([st.pbar for st in params])
    rng = np.random.default_rng(11)
    for _ in range(30):
        p = rng.uniform(0, 1, T) ** 3
        R = transcript_log_probs(Stream.from_params(params, p, tau1=cal.tau1, mu1=cal.mu1))
        halt, cont = np.exp(R.log_halt), np.exp(R.log_continue)
        high = np.flatnonzero(p >= pstar)
        th = high[0] if len(high) else T
        err = np.sum(halt[:th][p[:th] <= pbar[:th]])  # Type I before the first p >= p* step
        if th < T:
            err += cont[th]  # Type II at it (errors after it are impossible: the run halted or already erred)
        assert err <= worst + 1e-12


@pytest.mark.slow
def test_certified_calibration_meets_beta_with_fewer_samples():
    cal, err = certified_calibration(1.0, 0.05, 1.0, 1.5, 20, 0.1, 0.5, tol=0.2)
    assert err <= 0.05
    assert cal.budget_scale > 1.0
    paper = GlobalCalibration(1.0, 0.05, 1.0, 1.5)
    assert whole_run_error(paper, 20, 0.1, 0.5)[0] <= 0.05
    mean = lambda c: np.mean([c.step(t, 0.1, 0.5).expected_samples for t in range(1, 21)])  # noqa: E731
    assert mean(cal) < mean(paper)


def _doubling_reference(eps, beta, T, eps_t, pstar, tol):
    """The reference bracket search: doubling 2, 4, 8, ... to the first failure (or 4/beta), then
    bisection on ln kappa."""
    import math

    def err(kappa):
        return whole_run_error(ExactTailCalibration(eps, beta, 1.0, 1.5, "auto", kappa), T, eps_t, pstar)[0]

    lo, hi = 1.0, 2.0
    while err(hi) <= beta and hi < 4.0 / beta:
        lo, hi = hi, hi * 2.0
    while hi / lo > 1.0 + tol:
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if err(mid) <= beta else (lo, mid)
    return lo, err(lo)


@pytest.mark.parametrize(
    "eps,beta,T,eps_t,pstar,tol",
    [(1.0, 0.05, 3, 0.1, 0.5, 0.1), (10.0, 1e-6, 2, 1.0, 0.1, 0.1), (0.1, 0.3, 1, 0.001, 0.9, 0.02)],
)
def test_certified_calibration_brackets_like_the_doubling_search(eps, beta, T, eps_t, pstar, tol):
    """The galloping bracket search (few exact evaluations) returns exactly the budget scale and error of
    the doubling search it replaced."""
    cal, err = certified_calibration(eps, beta, 1.0, 1.5, T, eps_t, pstar, tol=tol)
    assert (cal.budget_scale, err) == _doubling_reference(eps, beta, T, eps_t, pstar, tol)


@pytest.mark.slow  # seconds: run by make test, not test-fast
def test_fig_calibration_checks_lemma_20_conditional_type_ii_for_both_calibrations():
    # Besides the unconditional Type II at beta/4 + beta_t/4, each step's
    # Pr[no halt at p* | eta_1 <= mu1] (exact, privtest.exact.step_log_probs) is claimed at Lemma 20's beta_t/4.
    import math

    from privtest.exact import step_log_probs
    from privtest_artifact.outputs.fig_calibration import analyse, claims, simulate

    cfg = dict(eps=1.0, beta=0.05, theta=1.0, gamma=1.5, eps_ratio=[0.1], pstar=[0.2], t=[1, 100])
    cfg.update(certify_T=3, certify_eps_ratio=0.1, certify_pstar=0.5, certify_tol=0.5)

    raw = simulate(cfg, None, {})
    tables = analyse(raw, cfg)
    rows = tables["rows"]  # with the proof's budgets
    cond = rows[(rows.error_type == "II at p* given eta_1 <= mu1") & ~raw.calibration.str.startswith("certified")]
    assert sorted(set(cond.calibration)) == ["exact tails", "paper"] and len(cond) == 4
    st = GlobalCalibration(1.0, 0.05, 1.0, 1.5).step(100, 0.1, 0.2)
    row = cond[(cond.calibration == "paper") & (cond.t == 100)].iloc[0]
    assert row.error_exact == math.exp(step_log_probs(st, [0.2], eta1_max=st.mu1)[1][0])
    assert row.budget == pytest.approx(float(beta_t(100, 0.05)) / 4)
    ids = {c.claim_id: c.verdict for c in claims(tables, cfg)}
    assert ids["calibration.error[exact tails,r=0.1,p*=0.2,t=100,II at p* given eta_1 <= mu1]"] == "PASS"
    assert "calibration.error[paper,r=0.1,p*=0.2,t=1,II at p*]" in ids  # the unconditional claim is kept
