"""privtest.exact and privtest.privacy: quadrature against mpmath (50 digits) and Monte Carlo, and the exact privacy
check on correct and deliberately broken GTMs."""

import math

import mpmath as mp
import numpy as np
import pytest
from conftest import ALPHA
from scipy import integrate, stats

from privtest.exact import (
    Stream,
    log_gammainc,
    log_gammaincc,
    log_step_factors,
    log_upper_gamma,
    step_log_halt,
    step_log_probs,
    transcript_log_probs,
)
from privtest.gtm import ExPostCalibration, GlobalCalibration
from privtest.mechanisms import BernoulliMechanism
from privtest.privacy import neighbour_interval, search_worst_case, transcript_loss_bounds, worst_neighbour_losses
from privtest.runs import halting_counts, run_streams

mp.mp.dps = 50


def _mp_upper_gamma_unregularized(z, b):
    """Gamma(z, b) in mpmath. For 1 <= z, 0 < b <= z it is Gamma(z) - gamma(z, b), the form mpmath's gammainc falls back
    to there after trying a 2F0 series that cannot converge (most of its time at small b); Gamma(z, b) >= Gamma(z)/e
    there (Q(z, b) >= Q(z, z) >= Q(1, 1) = 1/e), so the difference loses under 2 bits of the working precision."""
    if 1 <= z and 0 < b <= z:
        return mp.gamma(z) - mp.gammainc(z, 0, b)
    return mp.gammainc(z, b, mp.inf)


def _gh_closed_mp(a, q, eps, tau2, c, rho, s):
    """The closed form of the eta_2 integral in mpmath (see privtest.exact's docstring)."""
    k, sig = mp.mpf(c + 1), 1 / (mp.mpf(eps) * tau2)
    b = mp.mpf(rho) * q * mp.exp(s * mp.mpf(eps) * a)
    if s == 1:
        par = b**sig * _mp_upper_gamma_unregularized(k - sig, b) / mp.gamma(k)
        return mp.gammainc(k, b, mp.inf, regularized=True) - par, mp.gammainc(k, 0, b, regularized=True) + par
    par = b ** (-sig) * mp.gamma(k + sig) / mp.gamma(k) * mp.gammainc(k + sig, 0, b, regularized=True)
    return mp.gammainc(k, 0, b, regularized=True) - par, mp.gammainc(k, b, mp.inf, regularized=True) + par


def _gh_definition(a, q, eps, tau2, c, rho, s):
    """E over eta_2 ~ Exp(tau2) of the Poisson continuation / halting probability (Lemma 15(1)), by adaptive
    quadrature of the definition in double precision (scipy.integrate.quad, relative tolerance 1e-12)."""

    def mean(y):  # rho q e^{s eps (a + y)}, y <= 80 tau2 (the Exp(tau2) mass beyond is e^-80)
        return rho * q * math.exp(s * eps * (a + y))

    w = lambda y: math.exp(-y / tau2) / tau2  # noqa: E731
    kw = dict(limit=500, epsabs=0.0, epsrel=1e-12)
    F = integrate.quad(lambda y: w(y) * stats.poisson.cdf(c, mean(y)), 0, 80 * tau2, **kw)[0]
    Fs = integrate.quad(lambda y: w(y) * stats.poisson.sf(c, mean(y)), 0, 80 * tau2, **kw)[0]
    return (F, Fs) if s == 1 else (Fs, F)


def _mp_log(v):
    return float(mp.log(v)) if v > 0 else -math.inf


@pytest.mark.parametrize(
    "a,q,eps,tau2,c,rho,s",
    [
        (0.0, 0.3, 0.3, 3.0, 6, 10.0, 1),
        (-5.0, 0.3, 0.3, 3.0, 6, 10.0, -1),
        (3.0, 0.9, 0.5, 2.0, 4, 8.0, 1),
    ],
)
def test_closed_form_matches_the_definition(a, q, eps, tau2, c, rho, s):
    """The Pareto / incomplete-gamma closed form of the eta_2 integral equals its definition."""
    G, H = _gh_definition(a, q, eps, tau2, c, rho, s)
    G2, H2 = _gh_closed_mp(a, q, eps, tau2, c, rho, s)
    assert G == pytest.approx(float(G2), rel=1e-8)
    assert H == pytest.approx(float(H2), rel=1e-8)


CASES = [
    (q, eps, tau2, c, rho, s)
    for (q, eps, tau2, c, rho, s) in [
        (0.3, 0.05, 3.0, 40, 200.0, 1),
        (0.3, 0.05, 3.0, 40, 200.0, -1),
        (0.9, 1.0, 3.0, 60, 80.0, 1),
        (0.02, 1.0, 3.0, 60, 80.0, -1),
        (1e-6, 0.2, 3.0, 20, 50.0, 1),
        (0.5, 0.01, 3.0, 3, 5.0, 1),  # c + 1 < sigma = 33: Gamma(k - sigma, b) with negative first argument
        (0.5, 0.01, 3.0, 3, 5.0, -1),
    ]
]


@pytest.mark.parametrize("q,eps,tau2,c,rho,s", CASES)
def test_step_factors_match_mpmath_in_log_space(q, eps, tau2, c, rho, s):
    """log G and log H within 1e-9 of 50-digit values, down to probabilities far below 1e-30 (and below 1e-300)."""
    a = np.array([-300.0, -40.0, 0.0, 13.0])
    lG, lH = log_step_factors(a, q, eps, tau2, c, rho, s)
    for i, ai in enumerate(a):
        G, H = _gh_closed_mp(ai, q, eps, tau2, c, rho, s)
        for got, ref in ((lG[i], _mp_log(G)), (lH[i], _mp_log(H))):
            assert abs(got - ref) <= 1e-9 * max(1.0, abs(ref)), (ai, got, ref)


def test_log_incomplete_gamma_far_tails():
    """Below scipy's underflow the log-space fall-backs still agree with mpmath."""
    for k, x in [(700.0, 50.0), (21.0, 2000.0), (5.5, 1e-3)]:
        assert log_gammainc(k, x) == pytest.approx(float(mp.log(mp.gammainc(k, 0, x, regularized=True))), rel=1e-12)
        assert log_gammaincc(k, x) == pytest.approx(
            float(mp.log(mp.gammainc(k, x, mp.inf, regularized=True))), rel=1e-12
        )


#: (s, x) for log Gamma(s, x) with s <= 0: the downward recurrence (x <= 1) at fractional, integer and near-integer
#: shapes (both sides of -1 and -3, the first step's worst cases), x down to 1e-300 (x^s e^-x overflows there: the
#: recurrence is scaled), s down to -60 (many steps); the continued fraction (x > 1); and the mpmath fall-back (s
#: within 1e-3 below an integer).
UPPER_GAMMA_GRID = [
    (s, x)
    for s in (-1e-300, -0.33, -0.5, -0.999, -1.0, -1.0005, -1.002, -2.3333333333333335, -3.0 + 1e-9, -3.0, -7.5, -59.9)
    for x in (1e-300, 1e-30, 1e-8, 0.01, 0.3, 0.999, 1.0, 1.5, 40.0)
]


def _mp_upper_gamma(s, x):
    """Gamma(s, x) at mpmath's working precision: mpmath's gammainc, except at s = -1e-300 for x > 1, where the integral
    of the definition, int_x^inf t^(s-1) e^-t dt (mp.quad; smooth there), gives the same digits: there gammainc's 2F0
    series does not converge and it takes Gamma(s) - gamma(s, x), two numbers near -1e300, at some 1100 digits (2 s
    at x = 40, building its gamma function's Taylor coefficients at that precision; the two agree to 27 digits)."""
    s, x = mp.mpf(s), mp.mpf(x)
    if abs(s) < 1e-100 and x > 1:
        return mp.quad(lambda t: t ** (s - 1) * mp.exp(-t), [x, mp.inf])
    return mp.gammainc(s, x)


def test_log_upper_gamma_matches_mpmath_for_nonpositive_shapes():
    """log Gamma(s, x) (unregularized) for s <= 0 within 1e-12 of 30-digit mpmath, relative to max(1, |log|): the
    recurrence's error is a few ulp amplified by at most 1/(1 - a0) <= 1e3 (privtest._numerics.NEAR_INTEGER), so 1e-12
    holds with margin over double precision (ulp 2.2e-16) and fails for any wrong branch or a lost digit."""
    s, x = np.array(UPPER_GAMMA_GRID).T
    got = log_upper_gamma(s, x)
    with mp.workdps(30):
        ref = np.array([float(mp.log(_mp_upper_gamma(si, xi))) for si, xi in UPPER_GAMMA_GRID])
    err = np.abs(got - ref) / np.maximum(1.0, np.abs(ref))
    assert np.all(err <= 1e-12), [(UPPER_GAMMA_GRID[i], got[i], ref[i]) for i in np.flatnonzero(~(err <= 1e-12))]


def test_log_upper_gamma_keeps_the_shape_of_its_arguments():
    got = log_upper_gamma(np.full((2, 3), -0.5), np.array([0.1, 0.5, 2.0]))
    assert got.shape == (2, 3)
    assert float(log_upper_gamma(-0.5, 0.5)) == pytest.approx(float(mp.log(mp.gammainc(-0.5, 0.5))), rel=1e-13)


def _transcripts_mp(tau1, mu1, steps, n=40):
    """50-digit reference for every transcript: composite Gauss-Legendre (n nodes per interval) in mpmath."""
    tau1, mu1 = mp.mpf(tau1), mp.mpf(mu1)
    edges = [0, mu1 / 2, mu1] + [mu1 + k * tau1 for k in (2, 5, 10, 20, 40, 70, 120)]
    gx, gw = np.polynomial.legendre.leggauss(n)
    xs, ws = [], []
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        for u, w in zip(gx, gw, strict=True):
            xs.append((lo + hi) / 2 + (hi - lo) / 2 * mp.mpf(u))
            ws.append((hi - lo) / 2 * mp.mpf(w))
    cum = [w * mp.exp(-x / tau1) / tau1 for x, w in zip(xs, ws, strict=True)]
    cont, halt = [], []
    for st in steps:
        GH = [_gh_closed_mp(mu1 - x, *st) for x in xs]
        halt.append(_mp_log(mp.fsum(cc * h for cc, (g, h) in zip(cum, GH, strict=True))))
        cum = [cc * g for cc, (g, h) in zip(cum, GH, strict=True)]
        cont.append(_mp_log(mp.fsum(cum)))
    return np.array(cont), np.array(halt)


@pytest.mark.slow
def test_transcripts_match_mpmath_including_tiny_probabilities():
    """Every transcript of a mixed-direction 4-step run, probabilities from 0.9 down to ~1e-30, within 1e-6 in log."""
    steps = [
        (0.05, 0.3, 3.0, 20, 30.0, 1),
        (1e-4, 0.3, 2.0, 15, 40.0, -1),  # flipped step: q = 1 - p
        (1e-9, 0.3, 3.0, 20, 30.0, 1),
        (1e-9, 0.1, 3.0, 20, 30.0, 1),
    ]
    p = [0.05, 1 - 1e-4, 1e-9, 1e-9]
    stream = Stream(
        3.0,
        13.0,
        p,
        [st[1] for st in steps],
        [st[2] for st in steps],
        [st[3] for st in steps],
        [st[4] for st in steps],
        [st[5] for st in steps],
        pc=[0.95, 1e-4, 1 - 1e-9, 1 - 1e-9],
    )
    R = transcript_log_probs(stream)
    cont, halt = _transcripts_mp(3.0, 13.0, steps)
    assert np.min(halt) < math.log(1e-30)  # the check reaches the tiny probabilities privacy ratios live at
    np.testing.assert_allclose(R.log_continue, cont, atol=1e-6, rtol=0)
    np.testing.assert_allclose(R.log_halt, halt, atol=1e-6, rtol=0)
    np.testing.assert_allclose(R.log_halt_within, np.logaddexp.accumulate(halt), atol=1e-6, rtol=0)


def test_refinement_changes_nothing():
    cal = GlobalCalibration(1.0, 0.05, 1.0, 1.5)
    st = cal.step(1, 0.1, 0.2)
    stream = Stream.from_calibration(cal, np.linspace(0.3 * st.pbar, 0.3, 40), 0.1, 0.2)
    A, B = transcript_log_probs(stream), transcript_log_probs(stream, refine=3)
    np.testing.assert_allclose(A.log_continue, B.log_continue, atol=1e-10, rtol=0)
    np.testing.assert_allclose(A.log_halt, B.log_halt, atol=1e-10, rtol=0)


@pytest.mark.parametrize(
    "cal,pstar,ratio",
    [
        (GlobalCalibration(1.0, 0.05, 1.0, 1.5), 0.2, 0.1),
        (GlobalCalibration(1.0, 0.05, 1.0, 1.5, "flipped"), 0.9, 0.1),
        (ExPostCalibration(1.0, 0.05, 1.0, 1.5), 0.5, 0.3),
    ],
)
def test_transcripts_match_monte_carlo(cal, pstar, ratio):
    """Halting-step distribution of 100000 runs of Algorithm 1 (simulate.run_streams) vs the exact probabilities:
    each cell's count lies in its exact two-sided binomial interval at level 1 - ALPHA."""
    st = cal.step(1, ratio, pstar)
    p = np.array([max(st.pbar, 0.5 * pstar) * 1.5, 0.8 * pstar, 0.9 * pstar, pstar, 0.99 * pstar, 1.0]).clip(0, 1)
    R = transcript_log_probs(Stream.from_calibration(cal, p, ratio, pstar))
    runs = 100_000
    res = run_streams(
        cal, [BernoulliMechanism(pi, ratio) for pi in p], pstar, len(p), runs, np.random.default_rng(20261130)
    )
    counts = np.bincount(res.halt_step, minlength=len(p) + 1)
    probs = np.r_[np.exp(R.log_continue[-1]), np.exp(R.log_halt)]
    for k, pr in zip(counts, probs, strict=True):
        lo, hi = stats.binom.ppf(ALPHA / 2, runs, pr), stats.binom.isf(ALPHA / 2, runs, pr)
        assert lo <= k <= hi, (k, pr * runs)


def test_single_step_halting_matches_the_stream_computation():
    cal = GlobalCalibration(1.0, 0.05, 1.0, 1.5)
    st = cal.step(1, 0.05, 0.2)
    p = np.array([0.01, 0.05, 0.2])
    single = step_log_halt(st, p)
    for pi, v in zip(p, single, strict=True):
        assert v == pytest.approx(transcript_log_probs(Stream.from_params([st], [pi])).log_halt[0], abs=1e-12)


@pytest.mark.parametrize(
    "cal, pstar, t, factor",
    [
        (GlobalCalibration(1.0, 0.05, 1.0, 1.5), 0.2, 3, 0.7),
        (GlobalCalibration(1.0, 0.05, 1.0, 1.5, "flipped"), 0.9, 3, 0.6),
        (ExPostCalibration(1.0, 0.05, 2.0, 1.5), 0.5, 5, 0.7),
    ],
)
def test_step_probabilities_given_eta1_below_mu1(cal, pstar, t, factor):
    """step_log_probs conditioned on eta_1 <= mu1 (Lemma 20's halting event, used by the per-step Type II claims)
    matches Monte Carlo among the replications with eta_1 <= mu1 (Clopper-Pearson at ALPHA, fixed seed), halt and
    continue add up to 1, and the unconditional probabilities are the mixture over eta_1 <= mu1 (w.p. 1 - beta/4)
    and eta_1 > mu1."""
    st = cal.step(t, 0.1, pstar)
    p = st.pstar * factor if st.s == 1 else 1 - (1 - st.pstar) / factor  # below p*: misses are frequent
    lh, lc = step_log_probs(st, [p], eta1_max=st.mu1)
    assert np.exp(lh[0]) + np.exp(lc[0]) == pytest.approx(1.0, abs=1e-10)
    hc = halting_counts(st, [p], 200_000, np.random.default_rng(5))
    k, n = int(hc.good_runs[0] - hc.good_halts[0]), int(hc.good_runs[0])
    lo, hi = stats.beta.ppf(ALPHA / 2, k, n - k + 1), stats.beta.ppf(1 - ALPHA / 2, k + 1, n - k)
    assert lo <= np.exp(lc[0]) <= hi, (k, n, np.exp(lc[0]))
    # mixture: unconditional continue = (1 - beta/4) * given-good + Pr[eta_1 > mu1] * given-bad
    ul, uc = step_log_probs(st, [p])
    assert ul[0] == step_log_halt(st, [p])[0]
    assert np.exp(uc[0]) >= (1 - cal.beta / 4) * np.exp(lc[0]) - 1e-12
    assert np.exp(uc[0]) <= (1 - cal.beta / 4) * np.exp(lc[0]) + cal.beta / 4 + 1e-12
    with pytest.raises(ValueError, match="eta1_max"):
        step_log_probs(st, [p], eta1_max=0.0)


def test_neighbour_interval_extremes():
    lo, hi, lo_c, hi_c = neighbour_interval(np.array([0.1, 0.9]), 0.5)
    np.testing.assert_allclose(hi, [min(0.1 * math.e**0.5, 1 - 0.9 / math.e**0.5), 1 - 0.1 / math.e**0.5])
    np.testing.assert_allclose(lo, [0.1 / math.e**0.5, max(0.9 / math.e**0.5, 1 - 0.1 * math.e**0.5)])
    np.testing.assert_allclose(1 - hi, hi_c)
    np.testing.assert_allclose(1 - lo, lo_c)


def _global_stream(T, variant="direct", pstar=0.2):
    cal = GlobalCalibration(1.0, 0.05, 1.0, 1.5, variant)
    return Stream.from_calibration(cal, np.full(T, 0.5), 0.1, pstar)


def test_privacy_check_passes_the_gtm_and_its_bound_is_attained():
    """Lemma 17 on the exact loss: <= 1/tau1 on continuation, <= eps on halting, and both are attained (to 1e-6)."""
    base = _global_stream(5)
    cc, ch = transcript_loss_bounds(base)
    best_c, best_h = -np.inf, -np.inf
    for v in (0.01, 0.05, 0.12, 0.3, 0.7, 0.99):
        L = worst_neighbour_losses(base.with_p(np.full(5, v)))
        assert np.nanmax(L.loss_continue - cc) <= 1e-9
        assert np.nanmax(L.loss_halt - ch) <= 1e-9
        best_c, best_h = max(best_c, np.nanmax(L.loss_continue)), max(best_h, np.nanmax(L.loss_halt))
    p = np.full(5, 0.12)
    p[-1] = 1e-4
    best_h = max(best_h, np.nanmax(worst_neighbour_losses(base.with_p(p)).loss_halt))
    assert best_c == pytest.approx(1 / 3, abs=1e-6)
    assert best_h == pytest.approx(1.0, abs=1e-4)


@pytest.mark.parametrize("broken", ["eta1 redrawn", "tau1 halved"])
def test_privacy_check_fails_on_a_broken_gtm(broken):
    base = _global_stream(4)
    cc, ch = transcript_loss_bounds(base)
    shared = broken != "eta1 redrawn"
    if broken == "tau1 halved":
        base = Stream(base.tau1 / 2, base.mu1, base.p, base.eps, base.tau2, base.c, base.rho, base.s)
    grid = np.r_[0.0, 1e-4, 1e-3, 0.01, 0.05, 0.12, 0.3, 0.6, 0.9, 1.0]
    res = search_worst_case(base, cc, ch, grid=grid, full_dim_T=1, nm_iters=2, shared_eta1=shared)
    assert res["continue"].loss > res["continue"].claimed + 0.1
    assert res["halt"].loss > res["halt"].claimed + 0.1


def test_search_keeps_the_flipped_and_purified_gtm_within_its_claim():
    grid = np.r_[0.0, 1e-6, 1e-3, 0.05, 0.5, 0.9, 0.999, 1 - 1e-6, 1.0]
    for base in (
        _global_stream(3, "flipped", 0.9),
        Stream.from_calibration(GlobalCalibration(1.0, 0.05, 1.0, 1.5), np.full(3, 0.5), 0.1, 0.2, 1e-3),
    ):
        cc, ch = transcript_loss_bounds(base)
        res = search_worst_case(base, cc, ch, grid=grid, full_dim_T=2, nm_iters=3)
        for wc in res.values():
            assert wc.loss <= wc.claimed + 1e-9


def _step_factors_reference(a, q, eps, tau2, c, rho, s):
    """The step factors as privtest.exact computes them without its shortcuts: every term through the kernels of
    privtest._numerics on the whole array (the arithmetic of the module docstring, operation for operation)."""
    from scipy import special

    from privtest import _numerics as N

    q = np.full(a.shape, q)
    k, sigma = c + 1.0, 1.0 / (eps * tau2)
    log_b = math.log(rho) + np.log(q) + s * eps * a
    b = np.exp(log_b)
    if s == 1:
        log_main = N.log_gammainc_unchecked(k, b)
        log_pareto = sigma * log_b + N.log_upper_gamma_unchecked(k - sigma, b) - special.gammaln(k)
    else:
        log_main = N.log_gammaincc_unchecked(k, b)
        log_pareto = (
            -sigma * log_b + special.gammaln(k + sigma) - special.gammaln(k) + N.log_gammainc_unchecked(k + sigma, b)
        )
    log_H = np.minimum(np.logaddexp(log_main, log_pareto), 0.0)
    log_G = N.log1mexp(log_H)
    big = log_H > math.log(0.5)
    if np.any(big):
        bb, lp = b[big], log_pareto[big]
        if s == 1:
            lq = N.log_gammaincc_unchecked(k, bb)
            vals = lq + N.log1mexp(np.minimum(lp - lq, 0.0))
            deep = bb > 20.0 * (k + sigma)
            if np.any(deep):
                bd = bb[deep][:, None]
                lag_x, lag_w = N.laguerre_rule()
                log1p_r = np.log1p(lag_x[None, :] / bd)
                integrand = -np.expm1(-sigma * log1p_r) * np.exp((k - 1.0) * log1p_r)
                vals[deep] = -bd[:, 0] + (k - 1.0) * np.log(bd[:, 0]) - special.gammaln(k) + np.log(integrand @ lag_w)
        else:
            lpk = N.log_gammainc_unchecked(k, bb)
            vals = lpk + N.log1mexp(np.minimum(lp - lpk, 0.0))
        log_G[big] = vals
    return log_G, log_H


@pytest.mark.parametrize("seed", range(4))
def test_step_factor_shortcuts_change_no_bit(seed):
    """The terms privtest.exact leaves out (a log-sum's term far below the other, Q(s, b) = 1 exactly) and its scalar
    fast paths give the reference's floats exactly, in both directions, on GTM-like and random parameters. (Where
    b = rho q e^{s eps a} is not a normal float, privtest.exact works from log b instead, and the reference loses
    bits: those entries are checked against mpmath by test_step_factors_where_b_leaves_the_float_range.)"""
    rng = np.random.default_rng(seed)
    for _ in range(12):
        mu1, tau1 = rng.uniform(1, 30), rng.uniform(0.5, 10)
        a = mu1 - np.sort(rng.uniform(0, mu1 + 100 * tau1, int(rng.integers(50, 3000))))
        eps, tau2 = float(rng.uniform(0.01, 1.0)), float(rng.uniform(0.5, 20))
        c, rho, q = int(rng.integers(0, 2000)), float(np.exp(rng.uniform(-2, 9))), float(rng.uniform(1e-6, 1))
        for s in (1, -1):
            with np.errstate(all="ignore"):
                got = log_step_factors(a, q, eps, tau2, c, rho, s)
                want = _step_factors_reference(a, q, eps, tau2, c, rho, s)
                b = np.exp(math.log(rho) + np.log(q) + s * eps * a)
            normal = (b >= np.finfo(float).tiny) & ((b < np.inf) | (s == -1))
            for g, w in zip(got, want, strict=True):
                assert g[normal].tobytes() == w[normal].tobytes(), (eps, tau2, c, rho, q, s)


def test_upper_gamma_shortcut_premise_scipy_q_is_exactly_one():
    """privtest.exact._log_upper_gamma's premise: where s >= 2, b <= (s + 1)/2 and 2 b^s e^-b / Gamma(s + 1) < 1e-17,
    scipy's regularized Q(s, b) is exactly 1.0."""
    from scipy import special

    rng = np.random.default_rng(3)
    for _ in range(200):
        s = float(np.exp(rng.uniform(math.log(2.0), math.log(20000.0))))
        log_b = rng.uniform(-800, math.log(s), 5000)
        b = np.exp(log_b)
        with np.errstate(divide="ignore"):
            one = (b <= (s + 1) / 2) & (s * log_b - b - special.gammaln(s + 1) + math.log(2) < math.log(1e-17))
        assert np.all(special.gammaincc(s, b[one]) == 1.0), s


def test_continued_fraction_and_series_meet_non_finite_arguments_with_their_limits():
    """The internal kernels of log Gamma(s, x) and log P(a, x) (privtest._numerics) meet an argument that overflowed
    upstream (x = inf: Gamma(s, inf) = 0) or a NaN elementwise: the limit or NaN there, and for the other elements
    the bits they have alone. (The continued fraction gave NaN for Gamma(s, inf), after 100,000 passes: such an
    element never met its stopping rule; the series' stopping rule now skips a NaN sum likewise, which its callers
    never pass it, so only its values are checked here.)"""
    from privtest._numerics import log_p_series, log_upper_cf

    s = np.array([2.0, -0.5, 2.0, np.nan, 2.0, np.inf])
    x = np.array([np.inf, np.inf, 30.0, 3.0, np.nan, 5.0])
    out = log_upper_cf(s, x)
    assert out[:2].tolist() == [-np.inf, -np.inf] and np.isnan(out[3:]).all()
    assert out[2] == log_upper_cf(2.0, 30.0) == pytest.approx(float(mp.log(mp.gammainc(2, 30))), rel=1e-14)
    assert log_upper_cf(-0.5, np.inf) == -np.inf
    a, y = np.array([3.0, np.nan, 3.0]), np.array([0.5, 0.5, np.nan])
    out = log_p_series(a, y)
    assert np.isnan(out[1:]).all()
    assert out[0] == log_p_series(3.0, 0.5) == pytest.approx(float(mp.log(mp.gammainc(3, 0, 0.5, regularized=True))))


@pytest.mark.parametrize("s", [1, -1])
@pytest.mark.parametrize(
    "tau2, c",
    [(0.3, 1), (0.1, 5), (2.0, 0), (0.05, 2), (1 / 3, 2), (1 / (3 + 1e-9), 2), (1 / (3 - 1e-9), 2), (0.25, 1)],
)  # k - sigma: 1 - 1/0.3, -4, 0.5, -18, 0, -1e-9, 1e-9, -2 (a negative integer)
def test_step_factors_where_b_leaves_the_float_range(s, tau2, c):
    """log_step_factors where b = rho q e^{s eps a} underflows (subnormal or 0) or overflows (up to inf): the closed
    form's values in mpmath (50 digits), to 1e-12 in the log (before: NaN, an mpmath pole error, or a value off by up
    to 1000 nats); at b = inf in the direct variant halting is sure: log_G = -inf, log_H = 0."""
    tiny = np.array([-700.0, -708.0, -744.0, -745.0, -750.0, -1000.0])  # s eps a: b from 1e-304 to 0
    a = np.concatenate([tiny, -tiny]) * s  # and b from 1e304 to inf
    lG, lH = log_step_factors(a, 0.5, 1.0, tau2, c, 2.0, s)
    log_b = math.log(2.0 * 0.5) + s * a
    for i, ai in enumerate(a):
        if s == 1 and log_b[i] > 0:  # log G = -b + O(log b): beyond what the closed form keeps at 50 digits
            with np.errstate(over="ignore"):  # b = inf: log G = -inf
                assert lH[i] == 0.0 and lG[i] == pytest.approx(-np.exp(log_b[i]), rel=1e-12)
            continue
        with mp.workdps(50):
            G, H = _gh_closed_mp(float(ai), 0.5, 1.0, tau2, c, 2.0, s)
            want = (_mp_log(G), _mp_log(H))
        assert (lG[i], lH[i]) == pytest.approx(want, rel=1e-12, abs=1e-12), (ai, (lG[i], lH[i]), want)


def test_step_factors_where_eps_tau2_underflows_are_those_without_perturbation():
    """1/(eps tau2) beyond the float range: eta_2's factor e^{eps eta_2} is 1 to float precision, so the step factors
    are those of eps = 0 at the same b (before: an mpmath error for s = 1, NaN for s = -1)."""
    a = np.array([-5.0, 0.0, 5.0])
    for s in (1, -1):
        got = log_step_factors(a, 0.5, 1e-310, 1.0, 3, 1.0, s)
        want = log_step_factors(a, 0.5, 0.0, 1.0, 3, 1.0, s)
        assert np.array_equal(got, want)


@pytest.mark.parametrize("s", [1, -1])
def test_step_factors_at_the_ends_of_log_b(s):
    """b = e^log_b with log_b of order -1e10 or -1e300 (k - sigma >= 2: the Pareto term's Gamma(k - sigma, b) is
    Gamma(k - sigma)), and log_b = +-inf (eps a beyond the float range): the powers of b and the sure outcomes,
    without mpmath (which needs memory growing with |log_b| there)."""
    log_b = np.array([-1e10, -1e300])
    a = s * log_b  # rho q = 1, eps = 1
    lG, lH = log_step_factors(a, 0.5, 1.0, 1.0, 5, 2.0, s)
    k, sigma = 6.0, 1.0
    log_p = k * log_b - math.lgamma(k + 1.0)
    if s == 1:  # halting: P(k, b) + b^sigma Gamma(k - sigma) / Gamma(k), the second far larger
        assert lH == pytest.approx(sigma * log_b + math.lgamma(k - sigma) - math.lgamma(k), rel=1e-15)
        assert (lG == 0.0).all()
    else:
        assert lG == pytest.approx(log_p - math.log1p(k / sigma), rel=1e-15) and (lH == 0.0).all()
    with np.errstate(over="ignore"):
        lG, lH = log_step_factors(np.array([-1.7e308, 1.7e308]), 0.5, 5.0, 1.0, 5, 2.0, s)
    # s = 1: b = 0 then inf, continuing then halting surely; s = -1: b = inf then 0, and the flipped variant halts
    # where K < k: continuing then halting surely again
    assert np.stack([lG, lH], axis=1).tolist() == [[0.0, -np.inf], [-np.inf, 0.0]]
