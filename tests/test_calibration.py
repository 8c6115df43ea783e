"""privtest.calibration: exact Poisson quantiles, the exact-tail calibration's guarantees (Lemma 20 with exact tails),
and the whole-run error certificate (worst-stream reduction checked against other streams)."""

import functools

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
from privtest.gtm import ExPostCalibration, GlobalCalibration
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


# --- whole_run_error / certified_calibration on arrays (issue: the continual-observation engine at numpy speed) ---


def _reference_whole_run_error(cal, T, eps_t, pstar):
    """The straightforward form the array pass replaced: every step by cal.step, then privtest.exact's transcript
    probabilities of the worst streams, step by step."""
    params = [cal.step(t, eps_t, pstar) for t in range(1, T + 1)]
    pbar = np.array([st.pbar for st in params])
    low = pbar > 0
    stream = Stream.from_params(params, np.maximum(pbar, 0.0), tau1=cal.tau1, mu1=cal.mu1)
    R = transcript_log_probs(stream, p_halt=np.full(T, pstar))
    log_typeI = np.where(low, R.log_halt_p, -np.inf)
    typeI_before = np.r_[-np.inf, np.logaddexp.accumulate(log_typeI)[:-1]]
    per_th = np.exp(np.logaddexp(typeI_before, R.log_continue_alt))
    per_th = np.r_[per_th, np.exp(np.logaddexp.accumulate(log_typeI)[-1])]
    return float(per_th.max()), per_th


def _reference_certified(eps, beta, theta, gamma, T, eps_t, pstar, variant="auto", tol=0.02):
    """certified_calibration's search (gallop, bisection on j, bisection on ln kappa) on the reference error."""
    import math

    errors = {}

    def err(kappa):
        if kappa not in errors:
            cal = ExactTailCalibration(eps, beta, theta, gamma, variant, kappa)
            errors[kappa] = _reference_whole_run_error(cal, T, eps_t, pstar)[0]
        return errors[kappa]

    assert err(1.0) <= beta
    j_max, cap = 1, 2.0
    while cap < 4.0 / beta:
        j_max, cap = j_max + 1, cap * 2.0

    def fails(j):
        return j >= j_max or err(2.0**j) > beta

    j_lo, j_hi, step = j_max - 1, j_max, 1
    while j_lo > 0 and fails(j_lo):
        j_hi, j_lo, step = j_lo, max(j_lo - 2 * step, 0), 2 * step
    while j_hi - j_lo > 1:
        j = (j_lo + j_hi) // 2
        j_lo, j_hi = (j, j_hi) if not fails(j) else (j_lo, j)
    lo, hi = 2.0 ** (j_hi - 1), 2.0**j_hi
    while hi / lo > 1.0 + tol:
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if err(mid) <= beta else (lo, mid)
    return lo, err(lo)


WHOLE_RUN_CASES = [
    (ExactTailCalibration(1.0, 0.05, 1.0, 1.5), 0.1, 0.5),
    (ExactTailCalibration(1.0, 0.05, 1.0, 1.5, budget_scale=45.0), 0.1, 0.5),
    (ExactTailCalibration(1.0, 0.05, 1.0, 1.5, budget_scale=4.0), 0.1, 0.97),  # flipped steps (flipping rule)
    (ExactTailCalibration(1.0, 0.05, 1.0, 1.5, "flipped", 2.0), 0.1, 0.9),
    (ExactTailCalibration(10.0, 1e-6, 1.0, 1.5, budget_scale=3.0), 1.0, 0.1),
    (ExactTailCalibration(0.1, 0.3, 1.0, 1.5, "direct"), 0.001, 0.9),
    (ExactTailCalibration(1.0, 0.05, 0.5, 1.25, budget_scale=7.0), 0.0, 0.5),  # eps_t = 0: no perturbation
    (GlobalCalibration(1.0, 0.05, 1.0, 1.5), 0.1, 0.5),
    (ExPostCalibration(1.0, 0.05, 2.0, 1.5), 0.1, 0.5),
]


@pytest.mark.parametrize("T", [1, 5, 50])
@pytest.mark.parametrize("cal,eps_t,pstar", WHOLE_RUN_CASES)
def test_whole_run_error_equals_the_step_by_step_reference(cal, eps_t, pstar, T):
    err, per_th = whole_run_error(cal, T, eps_t, pstar)
    ref_err, ref_per_th = _reference_whole_run_error(cal, T, eps_t, pstar)
    np.testing.assert_allclose(per_th, ref_per_th, rtol=1e-12, atol=0)
    assert err == pytest.approx(ref_err, rel=1e-12)


@pytest.mark.parametrize(
    "eps,beta,T,eps_t,pstar,variant,tol",
    [
        (1.0, 0.05, 1, 0.1, 0.5, "auto", 0.02),
        (1.0, 0.05, 5, 0.1, 0.5, "auto", 0.02),
        (1.0, 0.05, 50, 0.1, 0.5, "auto", 0.02),  # the documented example's setting (docs/library.md)
        (1.0, 0.05, 5, 0.05, 0.95, "auto", 0.1),
        (10.0, 1e-6, 5, 1.0, 0.1, "direct", 0.1),
    ],
)
def test_certified_calibration_equals_the_reference_search(eps, beta, T, eps_t, pstar, variant, tol):
    cal, err = certified_calibration(eps, beta, 1.0, 1.5, T, eps_t, pstar, variant, tol)
    kappa, ref_err = _reference_certified(eps, beta, 1.0, 1.5, T, eps_t, pstar, variant, tol)
    assert cal.budget_scale == pytest.approx(kappa, rel=1e-12) and err == pytest.approx(ref_err, rel=1e-12)


@pytest.mark.parametrize(
    "args,eps_t,pstar",
    [
        ((1.0, 0.05, 1.0, 1.5, "auto", 1.0), 0.1, 0.5),
        ((1.0, 0.05, 1.0, 1.5, "auto", 51.5), 0.05, 0.99),
        ((1.0, 1e-6, 0.5, 1.25, "auto", 7.0), 0.2, 0.01),
        ((1.0, 0.05, 1.0, 1.5, "flipped", 3.0), 0.1, 0.5),
        ((10.0, 1e-12, 2.0, 2.0, "direct", 1e6), 0.1, 0.5),
    ],
)
def test_exact_tail_steps_on_arrays_equal_the_scalar_steps(args, eps_t, pstar):
    # The certified calibration's steps 1..T at once: the same c_t, rho_t, s_t, pbar_t, bit for bit, as step(t).
    from privtest.calibration import _exact_tail_steps

    cal, T = ExactTailCalibration(*args), 3000
    steps = _exact_tail_steps(cal, T, eps_t, pstar)
    for t in [*range(1, T + 1, 37), T]:
        st = cal.step(t, eps_t, pstar)
        got = (steps.c[t - 1], steps.rho[t - 1], steps.s[t - 1], steps.pbar[t - 1], steps.tau2[t - 1])
        assert got == (st.c, st.rho, st.s, st.pbar, st.tau2), t


def test_the_early_stop_only_decides_the_comparison_with_beta():
    from privtest.calibration import _steps, _whole_run

    cal = ExactTailCalibration(1.0, 0.05, 1.0, 1.5, budget_scale=51.5)
    steps = _steps(cal, 40, 0.1, 0.5)
    err, per_th = _whole_run(steps, 0.5)
    assert _whole_run(steps, 0.5, stop_above=err) == (err, pytest.approx(per_th))  # not above: the full pass
    partial, none = _whole_run(steps, 0.5, stop_above=err / 2)
    assert none is None and err / 2 < partial <= err


def test_horizons_beyond_reach_are_refused_naming_t_and_the_largest_t_within_reach():
    # The external case f_certified_calibration_large_T.sh: T = 10^5 answered within seconds (here at once).
    import re
    import time

    from privtest.calibration import MAX_CERTIFY_WORK, _certify_evaluations, _check_reach

    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"^T must be in \[1, \d+\] for certified_calibration") as info:
        certified_calibration(1.0, 0.05, 1.0, 1.5, 100_000, 0.1, 0.5)
    with pytest.raises(ValueError, match=r"^T must be in \[1, \d+\] for whole_run_error"):
        whole_run_error(ExactTailCalibration(1.0, 0.05, 1.0, 1.5), 10**6, 0.1, 0.5)
    with pytest.raises(ValueError, match=r"^T must be in \[1, \d+\]"):
        certified_calibration(1.0, 0.05, 1.0, 1.5, 10**18, 0.1, 0.5)
    assert time.perf_counter() - start < 2.0
    assert "MAX_CERTIFY_WORK" in str(info.value) and "raise tol" in str(info.value)
    reach = int(re.search(r"\[1, (\d+)\]", str(info.value)).group(1))
    assert 10_000 <= reach < 100_000  # T = 10^4 (about 3 s) stays within reach at these parameters, 10^5 not
    cal, n = ExactTailCalibration(1.0, 0.05, 1.0, 1.5), _certify_evaluations(0.05, 0.02)
    _check_reach(cal, reach, 0.1, 0.5, n, "certified_calibration")  # the largest T within reach is admitted
    with pytest.raises(ValueError, match=rf"^T must be in \[1, {reach}\]"):
        _check_reach(cal, reach + 1, 0.1, 0.5, n, "certified_calibration")
    assert MAX_CERTIFY_WORK == 10**9
    # a finer tol means more evaluations of kappa, hence a shorter reach
    with pytest.raises(ValueError, match=r"^T must be in \[1, (\d+)\]") as fine:
        certified_calibration(1.0, 0.05, 1.0, 1.5, 100_000, 0.1, 0.5, tol=1e-6)
    assert int(re.search(r"\[1, (\d+)\]", str(fine.value)).group(1)) < reach


# --- the windows of the exact pass: special functions only where they can change a bit (the same numbers) ---

WINDOW_CASES = [
    *WHOLE_RUN_CASES,
    (ExactTailCalibration(1.0, 0.05, 1.0, 1.5, budget_scale=51.5), 0.1, 0.5),  # c_1 = 2: k - sigma < 0 at t = 1
    (ExactTailCalibration(1.0, 1e-9, 2.0, 1.25, budget_scale=1e3), 0.5, 0.3),  # steep steps (large eps_t)
    (ExactTailCalibration(5.0, 0.2, 0.5, 2.0, budget_scale=10.0), 0.01, 0.05),
]


@pytest.mark.parametrize("T", [1, 40])
@pytest.mark.parametrize("cal,eps_t,pstar", WINDOW_CASES)
def test_windowed_pass_equals_the_plain_pass_bit_for_bit(cal, eps_t, pstar, T):
    from privtest.calibration import _steps, _whole_run

    steps = _steps(cal, T, eps_t, pstar)
    err, per_th = _whole_run(steps, pstar)
    plain_err, plain = _whole_run(steps, pstar, windowed=False)  # every special function at every node
    assert err == plain_err and np.array_equal(per_th, plain)


def test_the_windows_bounds_hold_for_scipy():
    """The two facts about scipy the windows use: Q(s, x) is exactly 1.0 below the first window's threshold
    (P(s, x) < e^-70 there), and P(k, b) > 1/2 for b >= k e^0.01 (the median of Gamma(k) is below k)."""
    s = np.concatenate([np.linspace(1e-3, 3, 200), np.linspace(3, 60, 200), np.geomspace(60, 1e6, 300)])
    thr = np.minimum(np.log((s + 1) / 2), (special.gammaln(s + 1) - np.log(2) - 70) / s)
    x = np.exp(thr[:, None] - np.concatenate([np.linspace(0, 5, 100), np.geomspace(5, 800, 50)])[None, :])
    assert np.all(special.gammaincc(np.broadcast_to(s[:, None], x.shape), x) == 1.0)
    k = np.concatenate([np.arange(1.0, 200.0), np.geomspace(200, 1e7, 300)])
    assert np.all(special.gammainc(k, k * np.exp(0.01)) > 0.5)


# --- certified_calibration searches kappa on the first PREFIX_T steps, then evaluates all T steps once ---


def _prefix_case(eps_t: float) -> tuple:
    """The arguments of certified_calibration in the prefix tests (T = 130)."""
    return (1.0, 0.05, 1.0, 1.5, 130, eps_t, 0.5)


@functools.cache
def _search_on_all_steps(eps_t: float):
    """certified_calibration on :func:`_prefix_case` with PREFIX_T = 1000 >= T (every kappa over all T steps): the
    same numbers for every prefix_t, so computed once per eps_t and process (most of the prefix tests' time)."""
    import privtest.calibration as calibration

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(calibration, "PREFIX_T", 1000)
        return certified_calibration(*_prefix_case(eps_t))


@pytest.mark.parametrize("prefix_t", [1, 3, 100])
@pytest.mark.parametrize("eps_t", [0.1, 0.2])
def test_the_search_on_a_prefix_equals_the_search_on_all_steps(monkeypatch, prefix_t, eps_t):
    """The kappa and error of the search on all T steps, whether the prefix's verdict holds over all T steps (one
    search) or not (PREFIX_T = 1 at eps_t = 0.1: the search runs again over all T steps)."""
    import privtest.calibration as calibration

    args = _prefix_case(eps_t)
    cal, err = _search_on_all_steps(eps_t)
    searches, search = [], calibration._kappa_search
    monkeypatch.setattr(calibration, "_kappa_search", lambda *a: searches.append(a) or search(*a))
    monkeypatch.setattr(calibration, "PREFIX_T", prefix_t)
    fast, fast_err = certified_calibration(*args)
    assert (fast.budget_scale, fast_err) == (cal.budget_scale, err)
    assert len(searches) == (2 if (prefix_t, eps_t) == (1, 0.1) else 1)


def test_the_prefix_quadrature_agrees_with_that_of_all_steps_far_within_the_margin():
    # A prefix error above beta (1 + 1e-9) is one of all T steps above beta: the first steps' errors on their own
    # quadrature nodes (fewer: J grows with c_t) agree with those on the nodes of all T steps to ~1e-13.
    from privtest.calibration import _PREFIX_MARGIN, _steps, _whole_run

    for cal, eps_t, pstar in WINDOW_CASES[:6]:
        full = _whole_run(_steps(cal, 600, eps_t, pstar), pstar)[1][:100]
        prefix = _whole_run(_steps(cal, 100, eps_t, pstar), pstar)[1][:100]
        np.testing.assert_allclose(prefix, full, rtol=_PREFIX_MARGIN / 100, atol=0)


# --- the external case f_certified_calibration_large_T.sh (certified_calibration(1, 0.05, 1, 1.5, T, 0.1, 0.5) under
# `timeout 20`: a result or a ValueError naming T within seconds), and the issue's horizons ---


def _cpu(call):
    import time

    start = time.process_time()
    value = call()
    return value, time.process_time() - start


def test_the_speed_case_answers_within_seconds():
    (cal, err), seconds = _cpu(lambda: certified_calibration(1.0, 0.05, 1.0, 1.5, 100, 0.1, 0.5))
    assert (round(cal.budget_scale, 3), round(err, 5)) == (51.536, 0.02818) and seconds < 5.0  # about 0.3 s
    with pytest.raises(ValueError, match=r"^T must be in \[1, \d+\] for certified_calibration.*Found 100000\."):
        _cpu(lambda: certified_calibration(1.0, 0.05, 1.0, 1.5, 100_000, 0.1, 0.5))


@pytest.mark.slow  # about 3 s of CPU each (7 s of wall time on a loaded machine)
@pytest.mark.parametrize("which", ["certified_calibration", "whole_run_error"])
def test_the_issue_horizon_t_10_4_within_10_cpu_seconds(which):
    if which == "certified_calibration":
        (cal, err), seconds = _cpu(lambda: certified_calibration(1.0, 0.05, 1.0, 1.5, 10_000, 0.1, 0.5))
        assert cal.budget_scale == certified_calibration(1.0, 0.05, 1.0, 1.5, 100, 0.1, 0.5)[0].budget_scale
        assert 0.0282 < err <= 0.05  # its own whole-run error over all 10^4 steps (above the first 100 steps')
    else:
        (err, per_th), seconds = _cpu(
            lambda: whole_run_error(ExactTailCalibration(1.0, 0.05, 1.0, 1.5), 10_000, 0.1, 0.5)
        )
        assert per_th.shape == (10_001,) and err == pytest.approx(0.0064725, rel=1e-4)
    assert seconds < 10.0
