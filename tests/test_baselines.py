"""Baselines of Section 9 and AboveThreshold: exact parameters, statistical behaviour (alpha = 1e-6 intervals), the
coupled simulation used for measured thresholds, and errors."""

import math

import numpy as np
import pytest
from conftest import binom_interval, mean_interval
from scipy import integrate

from privtest import bounds
from privtest.baselines import AboveThreshold, CohenTester, GhaziSelection, LiuTalwarTester
from privtest.baselines.cohen import first_success_position
from privtest.measure import CriticalP, logit_grid, measured_pbar
from privtest.mechanisms import BernoulliMechanism
from privtest.testers import bernoulli_stream
from privtest_artifact.registry import FACTORIES, make_tester

CFG = dict(eps=1.0, beta=0.05, theta=1.0, gamma=1.5)


def _within(k, n, p):
    lo, hi = binom_interval(k, n)
    return lo <= p <= hi


def test_registered_in_factories():
    assert {"Cohen", "LiuTalwar", "Ghazi"} <= set(FACTORIES)
    assert make_tester("Cohen", CFG, 0.5, 0.1, 10).name == "Cohen"
    assert make_tester("LiuTalwar", CFG, 0.5, 0.1, 10).name == "LiuTalwar"


def test_cohen_step_halting_probability_is_exact():
    # One step: Pr[halt] = 1 - E[(1 - p_dagger p)^N], p_dagger with density theta x^(theta-1) (quadrature).
    c = CohenTester(1.0, 0.1, 0.05, 0.3, 1)  # theta_C = 8, N = 20
    rng = np.random.default_rng(1)
    for p in (0.3, 0.01):
        exact = 1 - integrate.quad(lambda x, p=p: c.theta * x ** (c.theta - 1) * (1 - x * p) ** c.N, 0, 1)[0]
        halt, samples = c.run([BernoulliMechanism(p, 0.1)], 40000, rng)
        assert _within(int(np.count_nonzero(halt == 1)), 40000, exact)
        assert samples.max() <= c.N


@pytest.mark.slow  # seconds: run by make test, not test-fast
def test_cohen_halts_at_pstar_and_continues_at_pbar():
    T, runs = 200, 20000
    c = make_tester("Cohen", CFG, 0.5, 0.1, T)
    rng = np.random.default_rng(2)
    # Prop 48 (Type II part): at p_t >= p* the step halts w.p. >= 1 - beta (p_dagger tail beta/2 + beta/2).
    halt, _ = c.run([BernoulliMechanism(0.5, 0.1)], runs, rng)
    lo, hi = binom_interval(int(np.count_nonzero(halt == 1)), runs)
    assert hi >= 1 - CFG["beta"]
    assert lo > 0.95  # it does much better than the bound here
    # Type I part: p_t = pbar_T at every step -> Pr[halt within T] <= beta.
    halt, _ = c.run(bernoulli_stream(np.full(T, c.pbar(T)), 0.1), runs, rng)
    assert binom_interval(int(np.count_nonzero(halt)), runs)[0] <= CFG["beta"]


def test_cohen_requires_eps_above_two_eps1():
    with pytest.raises(ValueError, match="eps > 2 eps_1"):
        make_tester("Cohen", CFG, 0.5, 0.5, 10)


def test_first_success_position_distribution():
    # E = 10 evaluations with K = 3 successes: Pr[F = 1] = 3/10, E[F] = (E+1)/(K+1) = 11/4 = 2.75
    rng = np.random.default_rng(3)
    F = first_success_position(np.full(200000, 10), np.full(200000, 3), rng)
    assert F.min() >= 1 and F.max() <= 8
    assert _within(int(np.count_nonzero(F == 1)), F.size, 0.3)
    lo, hi = mean_interval(F.astype(float))
    assert lo <= 2.75 <= hi


def test_liu_talwar_N_equals_eq25():
    lt = LiuTalwarTester(eps=1.0, eps1=0.1, beta=0.05, delta=1e-6, eps0=0.1, pstar=0.5, T=100)
    # eq. 25 by hand: sigma = 2.4, C = 6.545348, Delta = 6060.46, N = e^0.1 Delta / 0.5 * (101/0.05)^2.4
    C = 2 * (math.exp(0.2) + 1 + math.exp(0.05))
    Delta = C * math.log(8 * 100 / 1e-6) / (0.1 * math.expm1(0.2))
    assert lt.sigma == pytest.approx(2.4) and lt.Delta == pytest.approx(Delta, rel=1e-12)
    assert Delta == pytest.approx(6060.46, rel=1e-5)
    assert lt.N == math.ceil(math.exp(0.1) * Delta / 0.5 * (101 / 0.05) ** 2.4)
    _, samples = lt.run([BernoulliMechanism(0.2, 0.1)] * 3, 10, np.random.default_rng(0))
    assert samples[:, 0].tolist() == [int(lt.N)] * 10  # every executed step evaluates N times


def test_liu_talwar_halting_behaviour():
    lt = make_tester("LiuTalwar", {**CFG, "eps0": 0.05}, 0.5, 0.1, 100)
    rng = np.random.default_rng(4)
    runs = 20000
    # At p*: p_hat = p* up to ~1e-5, so the step halts iff xi >= nu (both symmetric Laplace): probability 1/2.
    halt, _ = lt.run([BernoulliMechanism(0.5, 0.1)], runs, rng)
    assert _within(int(np.count_nonzero(halt == 1)), runs, 0.5)
    # Theorem 46(4): where the Phi condition holds, halting w.p. >= 1 - beta - delta/(4T).
    hp = lt.halt_p(1)
    assert lt.halt_p(100) == hp  # Theorem 46(4)'s condition does not involve t
    assert 0.5 < hp < 1
    assert lt.log_phi(hp) == pytest.approx(lt.eps0 - lt.sigma * math.log(0.05) + lt.log_phi(0.5), abs=1e-9)
    halt, _ = lt.run([BernoulliMechanism(hp, 0.1)], runs, rng)
    assert binom_interval(int(np.count_nonzero(halt == 1)), runs)[1] >= 1 - 0.05 - 1e-6 / 400


def test_liu_talwar_infeasible_N_is_refused_by_run_but_simulated_by_critical_p():
    lt = make_tester("LiuTalwar", {**CFG, "eps0": 0.5}, 0.5, 0.3, 10**6)
    assert lt.N > 2**63
    with pytest.raises(ValueError, match="exceed int64"):
        lt.run([BernoulliMechanism(0.5, 0.3)], 2, np.random.default_rng(0))
    with pytest.raises(ValueError, match="pure"):
        make_tester("LiuTalwar", CFG, 0.5, 0.1, 10).run(
            [BernoulliMechanism(0.5, 0.1, 1e-3)], 2, np.random.default_rng(0)
        )
    cp = lt.critical_p(3, 1000, np.random.default_rng(0))
    assert np.all(np.isfinite(cp.p_crit[cp.p_crit < 1]))


@pytest.mark.parametrize("method", ["GTM", "Cohen", "LiuTalwar"])
def test_coupled_simulation_matches_run(method):
    # critical_p must give the same halting law at each p as run() on Bernoulli inputs (two-sample check).
    T, runs = 30, 20000
    t = make_tester(method, {**CFG, "eps0": 0.05}, 0.5, 0.1, T)
    rng = np.random.default_rng(5)
    cp = t.critical_p(T, runs, rng)
    for p in (t.pbar(T) * 30, 0.3 * 0.5):
        a = int(np.count_nonzero(cp.p_crit <= p))
        halt, samples = t.run(bernoulli_stream(np.full(T, p), 0.1), runs, rng)
        b = int(np.count_nonzero(halt))
        pa, pb = a / runs, b / runs
        se = math.sqrt(max(pa * (1 - pa) + pb * (1 - pb), 1e-12) / runs)
        assert abs(pa - pb) <= 5.3 * se + 1e-9  # two-sided alpha ~ 1e-7


def test_measured_pbar_on_synthetic_runs():
    # 100 runs with critical p = 0.01, 0.02, ..., 1.0: at p the halting count is floor(100 p).
    cp = CriticalP(np.arange(1, 101) / 100.0, np.ones(100))
    grid = np.array([0.005, 0.015, 0.025, 0.5])
    m = measured_pbar(cp, grid, 0.05)
    # counts 0, 1, 2, 50 -> 95% upper limits 0.036, 0.054, 0.070, ...: only p = 0.005 stays <= 0.05
    assert m.pbar == 0.005 and m.halts_at_pbar == 0
    assert m.pbar_upper == 0.5  # the first p whose lower limit exceeds 0.05
    g = logit_grid(0.5, 0.01, 0.5)
    assert g[-1] == pytest.approx(0.5) and g[0] <= 0.01 and np.all(np.diff(g) > 0)


def test_ghazi_uniform_selection_and_cor53():
    rng = np.random.default_rng(6)
    # eps = 60: theta_G ~ 59.8, so k = 0 and every mechanism is evaluated; with p = 1 every output is +1 and the
    # selection is uniform over 1..5.
    g = GhaziSelection(60.0, 0.1)
    sel, samples = g.run(bernoulli_stream(np.ones(5), 0.1), 50000, rng)
    assert samples.sum() == 5 * 50000
    for t in range(1, 6):
        assert _within(int(np.count_nonzero(sel == t)), 50000, 0.2)
    # Cor 53's proof: Pr[bad selected] >= its lower bound (T = 50, G = 1 good at p* = 0.5, pbar = 0.01).
    g = GhaziSelection(1.0, 0.1)
    p = np.r_[np.full(49, 0.01), 0.5]
    sel, _ = g.run(bernoulli_stream(p, 0.1), 40000, rng)
    bad = int(np.count_nonzero((sel >= 1) & (sel <= 49)))
    assert binom_interval(bad, 40000)[1] >= bounds.ghazi_bad_selection_lower(50, 1, 0.5, 0.01, g.theta_G)
    with pytest.raises(ValueError, match="eps > 2 eps_1"):
        GhaziSelection(1.0, 0.5)


def test_above_threshold_accuracy_and_thm29():
    T, beta = 50, 0.1
    at = AboveThreshold(eps=1.0, beta=beta, T=T)
    alpha = at.alpha
    # alpha = 8 (ln 50 + ln 20)/1 = 8 (3.912023 + 2.995732) = 55.26204
    assert alpha == pytest.approx(55.26204, rel=1e-6)
    assert (at.pbar(T), at.halt_p(T)) == (-alpha, alpha)  # tau -+ alpha with tau = 0
    f = np.r_[np.full(T - 1, -alpha), alpha]
    halt, samples = at.run(f, 20000, np.random.default_rng(7))
    assert np.array_equal(samples.sum(axis=1), np.where(halt == 0, T, halt))  # one answer per step until the halt
    errors = int(np.count_nonzero(halt != T))
    assert binom_interval(errors, 20000)[0] <= beta
    assert 2 * alpha >= bounds.alpha_sum_lower_bound(T, 1.0, beta)
    with pytest.raises(ValueError, match="eps"):
        AboveThreshold(eps=0.0, beta=beta, T=T)


@pytest.mark.parametrize("method", ["Cohen", "LiuTalwar"])
def test_deterministic_N_never_exceeds_its_sample_bound(method):
    # Was the claim sample_complexity.{Cohen,LiuTalwar}: N_t is deterministic, so it equals its per-step bound by
    # construction (failure budget 0) -- a unit test, not a claim. p between pbar_1 and p* (halting uncertain).
    T, pstar = 20, 0.5
    t = make_tester(method, CFG, pstar, 0.1, T)
    assert t.sample_budget(T) == 0.0
    bound = np.array([t.sample_bound(s) for s in range(1, T + 1)])
    _, samples = t.run(bernoulli_stream(np.full(T, math.sqrt(t.pbar(1) * pstar)), 0.1), 2000, np.random.default_rng(5))
    assert (samples <= bound[None, :]).all() and samples.max() == bound.max() == t.N


def test_random_dropping_gtm_claim_stays_inside_theorem_21():
    # At the default T = 10000 the figure's fixed pbar = 0.0002 exceeds the GTM's
    # pbar_T = 0.0001931, outside Theorem 21. The claim is evaluated at p_t = pbar_T (the same coupled runs) and the
    # rate at pbar is only reported, as an observation beyond the theorem.
    import pandas as pd

    from privtest_artifact.outputs.fig_random_dropping import analyse, claims

    row = dict(method="GTM", T=10000, G=1, events=60, runs=1000, bound=np.nan, pbar_max=0.0001931)
    row.update(events_at_pbar_max=3, event="false-halt", source="Thm 21", rate=0.06, ci_low=0.046, ci_high=0.077)
    cfg = dict(pbar=0.0002, beta=0.05)
    (c,) = claims(analyse(pd.DataFrame([row]), cfg), cfg)
    assert c.claim_id == "random_dropping.GTM_below_beta[T=10000]" and "pbar_T = 0.0001931" in c.statement
    assert c.evidence[0].k == 3 and "beyond Theorem 21" in c.note and "observation" in c.note
