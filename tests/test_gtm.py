"""Algorithm 1 and the calibrations of Theorems 21/23: hand-computed parameters, statistical behaviour, errors."""

import math

import numpy as np
import pytest
from conftest import binom_interval, mean_interval

import privtest as pt
from privtest.gtm import run_step
from privtest.runs import halting_probability, run_streams


def test_global_calibration_hand_values():
    # eps = 1, theta = 2, beta = 0.05, gamma = 1.5 (proof of Theorem 21):
    # 1/tau1 = theta eps/(theta+2) = 0.5 -> tau1 = 2; tau2 = (theta+2)/eps = 4;
    # mu1 = tau1 ln(4/beta) = 2 ln 80 = 8.764053
    cal = pt.GlobalCalibration(eps=1.0, beta=0.05, theta=2.0, gamma=1.5)
    assert (cal.tau1, cal.tau2) == (2.0, 4.0)
    assert cal.mu1 == pytest.approx(8.764053, abs=1e-6)
    st = cal.step(1, 0.1, 0.2)
    # beta_1 = 0.05 * omega(1) = 0.0305802; 4/beta_1 = 130.804; ln = 4.873695
    # ln Lambda_1 = 0.1 (8.764053 + 4 * 4.873695) = 0.1 * 28.258833 = 2.825883,
    # which is Thm 21's closed form 80^(0.1*2) * 130.804^(0.1*4) in logs
    assert st.log_Lambda == pytest.approx(2.825883, abs=1e-6)
    assert st.log_Lambda == pytest.approx(0.2 * math.log(80) + 0.4 * math.log(4 / pt.beta_t(1, 0.05)), rel=1e-12)
    # gamma Lambda (1 - p*) = 1.5 * 16.8778 * 0.8 > 0.2 -> direct; pbar = 0.2 / (1.5 * 16.8778) = 0.0079001
    assert st.s == 1
    assert st.pbar == pytest.approx(0.2 / (1.5 * math.exp(2.825883)), rel=1e-6)
    # budgets beta_1/4 = 0.00764506; A = B = ln(1/0.00764506) = 4.873695; r = 16.7727 -> c = ceil(281.32) = 282
    assert st.beta_I == st.beta_II == pytest.approx(0.0305802 / 4, rel=1e-5)
    assert st.c == 282
    # rho = lambda^l(282, beta_1/4) / p* = (286.873695 + sqrt(2*282*4.873695 + 4.873695^2)) / 0.2 = 1697.64
    assert st.rho == pytest.approx(1697.64, abs=0.01)
    assert st.halt_loss == pytest.approx(1.0) and st.continue_loss == pytest.approx(0.5)  # Lemma 17


def test_flipping_rule_and_flipped_parameters():
    cal = pt.GlobalCalibration(1.0, 0.05, 1.0, 1.5)
    st = cal.step(1, 0.05, 0.95)
    # gamma Lambda (1 - p*) = 1.5 * 4.008 * 0.05 = 0.30 <= 0.95 -> flipped (s = -1)
    assert st.s == -1
    assert st.rho == pytest.approx(pt.lambda_right(st.c, st.beta_II) / 0.05)
    assert st.pbar == pytest.approx(1 - 1.5 * st.Lambda * 0.05)
    # forcing the direct variant gives the other branch of the max
    direct = pt.GlobalCalibration(1.0, 0.05, 1.0, 1.5, "direct").step(1, 0.05, 0.95)
    assert direct.s == 1 and direct.pbar == pytest.approx(0.95 / (1.5 * st.Lambda)) and direct.pbar < st.pbar


def test_expost_calibration_hand_values():
    # eps_C = 1, C_H = 2, beta = 0.05, t = 1, eps_t = 0.1: tau2 = 2/(2 * 0.1 * 4.873695) = 2/0.974739 = 2.051831
    cal = pt.ExPostCalibration(eps_C=1.0, beta=0.05, C_H=2.0, gamma=1.5)
    st = cal.step(1, 0.1, 0.5)
    assert st.tau2 == pytest.approx(2.051831, abs=1e-6)
    # halting loss 1/tau1 + 2/tau2 = eps_C + C_H eps_t ln(4/beta_t) = 1 + 0.2 * 4.873695 = 1.974739
    assert st.halt_loss == pytest.approx(1.974739, abs=1e-6)
    # Lambda = 80^0.1 * e^(2/C_H) = e^(0.438203 + 1) (independent of t)
    assert st.log_Lambda == pytest.approx(1.438203, abs=1e-6)
    assert cal.step(10**6, 0.1, 0.5).log_Lambda == st.log_Lambda
    assert st.beta_I == pytest.approx(pt.beta_t(1, 0.05) / 6)


@pytest.mark.parametrize("ratio", [0.05, 0.1, 0.2])
def test_expost_identities_over_t(ratio):
    """Identities of Theorem 23's calibration (formerly claims expost.halt_loss, expost.pbar_flat and
    noise_penalty.expost_flat): Lemma 17's halting loss 1/tau1 + 2/tau2_t equals eps_C + C_H eps_t ln(4/beta_t), and
    Lemma 19's Lambda_t = exp(eps_t (mu1 + tau2_t ln(4/beta_t))), hence pbar_t, does not depend on t."""
    eps_C, beta, C_H = 1.0, 0.05, 2.0
    cal = pt.ExPostCalibration(eps_C=eps_C, beta=beta, C_H=C_H, gamma=1.5)
    eps_t = ratio * eps_C
    ts = np.unique(np.logspace(0, 6, 25).astype(int))
    steps = [cal.step(int(t), eps_t, 0.3) for t in ts]
    ln4bt = np.array([math.log(4 / pt.beta_t(int(t), beta)) for t in ts])
    halt = np.array([st.halt_loss for st in steps])
    np.testing.assert_allclose(halt, eps_C + C_H * eps_t * ln4bt, rtol=1e-12)
    lam19 = np.array([eps_t * (st.mu1 + st.tau2 * lb) for st, lb in zip(steps, ln4bt, strict=True)])
    np.testing.assert_allclose(lam19, ratio * math.log(4 / beta) + 2 / C_H, rtol=1e-12)
    np.testing.assert_allclose([st.log_Lambda for st in steps], lam19, rtol=1e-12)
    assert np.ptp([st.pbar for st in steps]) <= 1e-12
    # a different C_H moves Lambda: the check can fail
    other = pt.ExPostCalibration(eps_C=eps_C, beta=beta, C_H=1.0, gamma=1.5).step(10, eps_t, 0.3)
    assert abs(other.log_Lambda - lam19[0]) > 0.5


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: pt.GlobalCalibration(0.0, 0.05, 1.0, 1.5), "eps"),
        (lambda: pt.GlobalCalibration(1.0, 1.5, 1.0, 1.5), "beta"),
        (lambda: pt.GlobalCalibration(1.0, 0.05, -1.0, 1.5), "theta"),
        (lambda: pt.GlobalCalibration(1.0, 0.05, 1.0, 1.0), "gamma"),
        (lambda: pt.GlobalCalibration(1.0, 0.05, 1.0, 1.5).step(0, 0.1, 0.5), "t"),
        (lambda: pt.GlobalCalibration(1.0, 0.05, 1.0, 1.5).step(1, 0.1, 1.0), "pstar"),
        (lambda: pt.GlobalCalibration(1.0, 0.05, 1.0, 1.5).step(1, -0.1, 0.5), "eps_t"),
        (lambda: pt.GlobalCalibration(1.0, 0.05, 1.0, 1.5, "sideways"), "variant"),
        (lambda: pt.ExPostCalibration(1.0, 0.05, 0.0, 1.5), "C_H"),
        (lambda: pt.ExPostCalibration(1.0, 0.05, 1.0, 1.5).step(1, 0.0, 0.5), "eps_t"),
        (lambda: pt.BernoulliMechanism(0.5, 0.1, delta=1.0), "delta"),
        (lambda: pt.BernoulliMechanism(1.5, 0.1), "p"),
        (lambda: pt.omega(True), "t"),
        (lambda: pt.GTM(tau1=1.0, mu1=0.0), "mu1"),
    ],
)
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        call()


def test_gtm_protocol_and_errors():
    cal = pt.GlobalCalibration(1.0, 0.05, 1.0, 1.5)
    gtm = pt.GTM(cal, np.random.default_rng(1))
    assert gtm.eta1 >= 0
    while not gtm.step(pt.BernoulliMechanism(0.9, 0.1), 0.5):
        pass
    assert gtm.t == len(gtm.samples) == len(gtm.counts) and gtm.halted
    with pytest.raises(RuntimeError):
        gtm.step(pt.BernoulliMechanism(0.9, 0.1), 0.5)
    with pytest.raises(ValueError, match="explicitly"):
        pt.GTM(cal, 1).step(pt.BernoulliMechanism(0.5, 0.1), tau2=1.0)
    bad = pt.SampledMechanism(lambda n, rng: np.zeros(n), eps=0.1)
    with pytest.raises(ValueError, match=r"mechanism output must be in \{-1, \+1\}"):
        pt.GTM(tau1=1.0, mu1=1.0, rng=2).step(bad, tau2=1.0, c=0, rho=50.0, s=1)


def test_explicit_parameters_follow_algorithm_1():
    # rho tiny and s = +1: N_t ~ Po(rho e^{eps Z}) is almost always 0, so K = 0 <= c and the step continues.
    gtm = pt.GTM(tau1=1.0, mu1=0.5, rng=3)
    assert not gtm.step(pt.BernoulliMechanism(1.0, 0.0), tau2=1.0, c=0, rho=1e-12, s=1)
    # s = -1 evaluates -M: with p = 0 every evaluation of -M is +1, so K = N; huge rho makes N > c: continue.
    assert not gtm.step(pt.BernoulliMechanism(0.0, 0.0), tau2=1.0, c=3, rho=1e6, s=-1)
    # s = -1 with p = 1: -M never gives +1, K = 0 <= c: halt.
    assert gtm.step(pt.BernoulliMechanism(1.0, 0.0), tau2=1.0, c=3, rho=1e6, s=-1)


def test_step_poisson_mean_matches_algorithm_1():
    # E[N_t | eta] = rho exp(eps_t s (mu1 - eta1 + eta2)); averaging over eta2 ~ Exp(tau2) with eps_t tau2 < 1:
    # E[N] = rho e^{eps_t (mu1 - eta1)} / (1 - eps_t tau2)  (Pareto mean, Lemma 12(2)).
    rng = np.random.default_rng(4)
    rho, eps_t, tau2, mu1, eta1 = 100.0, 0.1, 3.0, 2.0, 1.0
    _, N, _ = run_step(np.full(200_000, eta1), mu1, eps_t, tau2, 10**9, rho, 1, pt.BernoulliMechanism(0.5, eps_t), rng)
    expected = rho * math.exp(eps_t * (mu1 - eta1)) / (1 - eps_t * tau2)
    lo, hi = mean_interval(N.astype(float))
    assert lo <= expected <= hi


def test_single_step_error_bounds_from_the_proof():
    # Unconditional per-step bounds from the proof of Theorem 21 (t = 1, beta = 0.05):
    # Pr[miss at p*] <= Pr[eta1 > mu1] + beta_1/4 = beta/4 + beta_1/4; Pr[halt at pbar] <= beta_1/4 + beta_1/4.
    cal = pt.GlobalCalibration(1.0, 0.05, 1.0, 1.5)
    st = cal.step(1, 0.1, 0.3)
    runs = 20_000
    halts, _ = halting_probability(st, [st.pstar, st.pbar], runs, np.random.default_rng(5))
    b1 = pt.beta_t(1, 0.05)
    lo_miss, _ = binom_interval(runs - halts[0], runs)
    assert lo_miss <= 0.05 / 4 + b1 / 4
    lo_false, _ = binom_interval(halts[1], runs)
    assert lo_false <= b1 / 2
    # and the test has power: far below pbar the step never halts, far above p* it always halts
    h, _ = halting_probability(st, [st.pbar / 100, min(1.0, 3 * st.pstar)], 2000, np.random.default_rng(6))
    assert h[0] == 0 and h[1] == 2000


def test_whole_run_error_at_most_beta():
    # Theorem 21 on an adversarial stream: p_t = pbar_t for t < T, p_T = p*. Any error is a failure.
    beta, T, runs = 0.2, 200, 3000
    cal = pt.GlobalCalibration(1.0, beta, 1.0, 1.5)
    p = [cal.step(t, 0.1, 0.5).pbar for t in range(1, T)] + [0.5]
    res = run_streams(cal, [pt.BernoulliMechanism(pi, 0.1) for pi in p], 0.5, T, runs, np.random.default_rng(7))
    failures = int(np.count_nonzero(res.halt_step != T))
    lo, _ = binom_interval(failures, runs)
    assert lo <= beta


def test_purified_step_and_streams_are_reproducible():
    cal = pt.GlobalCalibration(1.0, 0.05, 1.0, 1.5)
    ms = [pt.BernoulliMechanism(0.01, 0.1, delta=1e-3)] * 5 + [pt.BernoulliMechanism(0.9, 0.1, delta=1e-3)]
    a = run_streams(cal, ms, 0.5, 6, 500, np.random.default_rng(8))
    b = run_streams(cal, ms, 0.5, 6, 500, np.random.default_rng(8))
    assert np.array_equal(a.halt_step, b.halt_step) and np.array_equal(a.samples, b.samples)
    assert np.all(a.samples[a.halt_step == 0] >= 0)


def test_lambda_overflow_is_refused_with_a_clear_error():
    # E[N_t] = inf here (eps_t tau2 = 1): refused before any draw unless the caller opts in; then checked_exp refuses
    # the Poisson mean e^{eps_t (mu1 - eta1 + eta2)} ~ e^1000 itself.
    with pytest.raises(ValueError, match=r"^eps_t = 1.0: step t = 1 .* is vacuous: E\[N_t\] = inf"):
        pt.GTM(tau1=1.0, mu1=1000.0, rng=9).step(pt.BernoulliMechanism(0.5, 1.0), tau2=1.0, c=0, rho=1.0, s=1)
    gtm = pt.GTM(tau1=1.0, mu1=1000.0, rng=9, allow_vacuous=True)
    with pytest.raises(ValueError, match="lambda_t"):
        gtm.step(pt.BernoulliMechanism(0.5, 1.0), tau2=1.0, c=0, rho=1.0, s=1)


def test_single_instance_matches_vectorized_streams():
    # The per-instance GTM and the vectorized run_streams implement the same Algorithm 1: compare the halting-step
    # distributions of 3000 independent runs each (two-sample chi-square, alpha = 1e-6).
    from scipy import stats

    cal = pt.GlobalCalibration(1.0, 0.2, 1.0, 1.5)
    p = [0.02, 0.05, 0.1, 0.2, 0.3, 0.6]
    ms = [pt.BernoulliMechanism(pi, 0.1, delta=1e-3) for pi in p]
    rng = np.random.default_rng(10)
    single = []
    for _ in range(3000):
        g = pt.GTM(cal, rng)
        t = 0
        for m in ms:
            t += 1
            if g.step(m, 0.3):
                break
        else:
            t = 0
        single.append(t)
    vec = run_streams(cal, ms, 0.3, len(ms), 3000, np.random.default_rng(11)).halt_step
    table = np.array([np.bincount(single, minlength=7), np.bincount(vec, minlength=7)])
    table = table[:, table.sum(axis=0) > 0]
    assert stats.chi2_contingency(table).pvalue > 1e-6


def test_step_budgets_of_theorems_21_and_23_by_hand():
    from privtest import gtm

    # beta = 0.05, t = 1: beta_1 = 0.05 * omega(1) = 0.05 * 0.611605 = 0.0305802
    b1 = 0.05 * 0.611605
    assert gtm.step_budget(1, 0.05) == pytest.approx(b1 / 4, rel=1e-6)  # Theorem 21: beta_t/4 = 0.00764506
    assert gtm.step_budget(1, 0.05, theorem=23) == pytest.approx(b1 / 6, rel=1e-6)  # Theorem 23: 0.00509670
    # Type II at p*: given eta_1 <= mu1 the step budget; unconditionally + Pr[eta_1 > mu1] = beta/4 = 0.0125
    assert gtm.halt_miss_bound(1, 0.05, given_eta1=True) == pytest.approx(0.00764506, rel=1e-6)
    assert gtm.halt_miss_bound(1, 0.05) == pytest.approx(0.0125 + 0.00764506, rel=1e-6)
    assert gtm.halt_miss_bound(1, 0.05, theorem=23) == pytest.approx(0.0125 + 0.00509670, rel=1e-6)
    # Type I at pbar_t: Pr[eta_2,t > tau2 ln(4/beta_t)] = beta_t/4 plus the step budget
    assert gtm.continue_bound(1, 0.05) == pytest.approx(b1 / 2, rel=1e-6)  # 0.0152901
    assert gtm.continue_bound(1, 0.05, theorem=23) == pytest.approx(b1 / 4 + b1 / 6, rel=1e-6)  # 0.0127418
    # arrays of t broadcast; the calibrations use the same budgets
    t = np.array([1, 10, 1000])
    np.testing.assert_allclose(gtm.continue_bound(t, 0.05), pt.beta_t(t, 0.05) / 2, rtol=1e-15)
    assert pt.GlobalCalibration(1.0, 0.05, 1.0, 1.5).step(10, 0.1, 0.5).beta_II == gtm.step_budget(10, 0.05)
    assert pt.ExPostCalibration(1.0, 0.05, 2.0, 1.5).step(10, 0.1, 0.5).beta_II == gtm.step_budget(10, 0.05, 23)
    with pytest.raises(ValueError, match="theorem"):
        gtm.step_budget(1, 0.05, theorem=22)
    with pytest.raises(ValueError, match="beta"):
        gtm.continue_bound(1, 1.5)


@pytest.mark.parametrize("module", ["privtest.gtm", "privtest.calibration", "privtest.testers", "privtest.runs"])
def test_every_public_callable_has_an_explicit_all_and_a_google_docstring_with_an_example(module):
    # Issue 31: Args / Returns / Raises where they apply and an ``Example:`` doctest (run by --doctest-modules).
    import importlib
    import inspect

    mod = importlib.import_module(module)
    assert mod.__all__ and set(mod.__all__) <= set(vars(mod)) and len(set(mod.__all__)) == len(mod.__all__)
    for name in mod.__all__:
        obj = getattr(mod, name)
        if not callable(obj):
            continue  # constants: documented by their #: comments
        doc = inspect.getdoc(obj) or ""
        assert "Example:" in doc and ">>>" in doc, f"{module}.{name} has no Example"
        if inspect.isfunction(obj) and list(inspect.signature(obj).parameters):
            assert "Args:" in doc, f"{module}.{name} documents no Args"


# --- run_step(counts=False): the halting decision and N_t without K_t (issue: the engine at numpy speed) ---


@pytest.mark.parametrize(
    "c,q,ns",
    [
        (20, 0.3, [0, 5, 20, 21, 40, 66, 70, 90, 110, 150, 400]),  # N <= c, near (binomial draw), far (Bernstein)
        (0, 0.01, [0, 1, 3, 50, 300, 1000]),  # c = 0: the rare side is K >= 1 below N q = 1/2, K = 0 above
        (282, 0.2, [300, 1200, 1411, 1500, 2000, 3000]),
        # N >= 2^31, where scipy's bdtr/bdtrc return NaN (a 32-bit n): the rare side must still occur (review finding)
        (1_499_915_103, 0.5, [3_000_000_000]),  # 3.1 sd below the mean: Pr = 1e-3, 40 of 40,000 expected
        (1_500_084_897, 0.5, [3_000_000_000]),
    ],
)
def test_count_at_most_has_the_exact_binomial_law(c, q, ns):
    # Pr[K <= c | N] for K ~ Bin(N, q), checked per N against scipy.stats.binom.cdf (valid at every N; two-sided
    # binomial test at 1e-6, and exactly 0 or 1 where the event is sure or impossible).
    from scipy import stats

    from privtest.gtm import _count_at_most

    reps = 40_000
    N = np.repeat(np.asarray(ns, dtype=np.int64), reps)
    low = _count_at_most(N, q, c, np.random.default_rng(12)).reshape(len(ns), reps)
    for n, row in zip(ns, low, strict=True):
        exact = 1.0 if n <= c else float(stats.binom.cdf(c, n, q))
        k = int(row.sum())
        if exact in (0.0, 1.0):
            assert k == round(exact * reps), (n, k, exact)
        else:
            assert stats.binomtest(k, reps, exact).pvalue > 1e-6, (n, k / reps, exact)


def _joint_table(halted, N, edges):
    """Counts of (halted, N binned by ``edges``), shape (2, len(edges) + 1)."""
    bins = np.searchsorted(edges, N, side="right")
    return np.array([np.bincount(bins[halted == h], minlength=len(edges) + 1) for h in (False, True)])


@pytest.mark.parametrize(
    "mechanism,s,c,rho",
    [
        (pt.BernoulliMechanism(0.2, 0.05), 1, 282, 1697.6),  # bench_gtm's step t = 1: halting almost surely
        (pt.BernoulliMechanism(0.086, 0.05), 1, 282, 1697.6),  # lambda_t q around c: near the threshold
        (pt.BernoulliMechanism(0.02, 0.05), 1, 30, 600.0),
        (pt.BernoulliMechanism(0.9, 0.05), -1, 40, 60.0),  # flipped: counts the +1s of -M, halts iff K <= c
        (pt.BernoulliMechanism(0.3, 0.05, delta=0.05), 1, 25, 90.0),  # purified (Corollary 25)
        (pt.LaplaceThresholdMechanism(0.5, 0.0, 0.05), 1, 200, 300.0),
        (pt.Negated(pt.BernoulliMechanism(0.4, 0.05)), 1, 60, 120.0),
        (pt.BernoulliMechanism(0.0, 0.05), 1, 2, 5.0),
        (pt.BernoulliMechanism(1.0, 0.05), -1, 2, 5.0),
    ],
)
def test_run_step_without_counts_has_the_law_of_algorithm_1(mechanism, s, c, rho):
    # The joint law of (halt, N_t) of counts=False (N_t ~ Po, then the decision given N_t) against Algorithm 1 as
    # written (counts=True: N_t ~ Po, K_t = count_plus(N_t)): two-sample chi-square over (halt, N_t binned), each
    # with its own eta_1 ~ Exp(3) so lambda_t spreads over the Pareto and exponential factors of Theorem 21.
    from scipy import stats

    R = 60_000
    eta1 = np.random.default_rng(13).exponential(3.0, R)
    args = (eta1, 13.146, 0.05, 3.0, c, rho, s, mechanism)
    h1, N1, K1 = run_step(*args, np.random.default_rng(14))
    h2, N2, K2 = run_step(*args, np.random.default_rng(15), counts=False)
    assert K2 is None and K1 is not None and N2.dtype == np.int64 and h2.dtype == bool
    edges = np.unique(np.quantile(np.r_[N1, N2], np.linspace(0.05, 0.95, 19)))
    table = np.vstack([_joint_table(h1, N1, edges).ravel(), _joint_table(h2, N2, edges).ravel()])
    table = table[:, table.sum(axis=0) > 0]
    if table.shape[1] > 1:
        assert stats.chi2_contingency(table).pvalue > 1e-6
    assert abs(h1.mean() - h2.mean()) < 6 * math.sqrt(max(h1.mean() * (1 - h1.mean()), 1 / R) * 2 / R)


def test_run_step_without_counts_keeps_the_stream_of_a_black_box_mechanism():
    # A user's count_plus (no known success probability) is evaluated as before: same draws, same halting and N_t.
    m = pt.CountingMechanism(lambda n, rng: rng.binomial(n, 0.4), eps=0.05)
    eta1 = np.random.default_rng(16).exponential(3.0, 50)
    a = run_step(eta1, 13.146, 0.05, 3.0, 20, 60.0, 1, m, np.random.default_rng(17))
    b = run_step(eta1, 13.146, 0.05, 3.0, 20, 60.0, 1, m, np.random.default_rng(17), counts=False)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) and b[2] is None
    with pytest.raises(ValueError, match="^counts must be True or False"):
        run_step(eta1, 13.146, 0.05, 3.0, 20, 60.0, 1, m, 0, counts=1)


def test_run_step_without_counts_takes_scalars_and_refuses_huge_means():
    halted, N, K = run_step(0.5, 1.0, 0.1, 3.0, 5, 40.0, 1, pt.BernoulliMechanism(0.9, 0.1), 0, counts=False)
    assert halted.shape == N.shape == () and K is None
    with pytest.raises(ValueError, match="lambda_t"):
        run_step([0.0], 1000.0, 1.0, 1.0, 0, 1.0, 1, pt.BernoulliMechanism(0.5, 1.0), 9, counts=False)
