"""The BatchToCO engine's inner steps (``privtest.co.batch_to_co``): the halting decision drawn by Poisson splitting
(k_hi ~ Po(lambda u~) first, then the certain / open split) has Algorithm 1's joint law of (N_t, halt) and the right
law of the block's first halt, with A's score law known, unknown or known at some steps only, with and without
purification; grouped ThresholdSelect runs have Algorithm 2's law; the tabulated per-instance constants equal the
calibration's; the engine's records are consistent (calls, step counters, eps_t, the ex-post loss, E[N_t]); and the
argument checks' fast paths refuse exactly what the full checks refuse."""

import importlib
import math

import numpy as np
import pytest
from conftest import ALPHA, binom_interval, mean_interval
from scipy import integrate, stats

from privtest import _validate
from privtest.co.mechanisms import (
    COProblem,
    laplace_tail,
    threshold_select,
    threshold_select_rounds,
    threshold_select_runs,
)
from privtest.co.params import BatchToCOParams
from privtest.gtm import log4_over_beta_t
from privtest.mechanisms import purification_phi

engine = importlib.import_module("privtest.co.batch_to_co")  # the module (privtest.co re-exports the function)


def params(**kw):
    base = dict(eps=20.0, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0, C_1=2.0, C_H=2.0)
    base.update(kw)
    return BatchToCOParams(**base)


class Toy(COProblem):
    """f(X_t, A(X_t)) uniform on ``scale`` {0, ..., 4} (OPT = U_t = 4 scale), Y = the score; the score law is
    exposed at the steps where ``known(t)``."""

    name, opt_kind = "toy", "exact"

    def __init__(self, T, known=lambda t: True, scale=3.0):
        self.T, self.known, self.scale = T, known, float(scale)
        self.opt = np.full(T, 4.0 * self.scale)

    def value(self, t, Y):
        return np.asarray(Y, dtype=float).copy()

    def sample(self, t, eps, delta, size, rng):
        return self.scale * rng.integers(0, 5, size)

    def score_distribution(self, t, eps, delta):
        return (self.scale * np.arange(5.0), np.full(5, 0.2)) if self.known(t) else None


LAWS = {"known": lambda t: True, "unknown": lambda t: False, "even steps": lambda t: t % 2 == 0}


def plus_probability(prob, h, eps_t, phi=0.0):
    """Success probability of one (purified) evaluation of M_t^h on Toy: p + phi (1 - 2 p)."""
    p = float(np.mean(laplace_tail(h, prob.scale * np.arange(5.0), eps_t)))
    return p + phi * (1.0 - 2.0 * p)


def pooled_chisquare(obs, exp):
    """p-value of a chi-square goodness-of-fit test, categories with expected count < 5 pooled into one."""
    obs, exp = np.asarray(obs, dtype=float), np.asarray(exp, dtype=float)
    small = exp < 5
    o = np.append(obs[~small], obs[small].sum())
    e = np.append(exp[~small], exp[small].sum())
    keep = e > 0
    o, e = o[keep], e[keep]
    return stats.chisquare(o, e * o.sum() / e.sum()).pvalue


@pytest.mark.parametrize("law", sorted(LAWS))
@pytest.mark.parametrize("delta", [0.0, 0.05])
@pytest.mark.parametrize("h, scale", [(4.0, 3.0), (0.6, 0.5)])  # a wide band [l, u], and a narrow one (u < 3/4)
def test_decision_and_calls_have_the_joint_law_of_algorithm_1(law, delta, h, scale):
    """One GTM step with Poisson mean lambda: (N_t, halt) from the engine's split (k_hi ~ Po(lambda u~), certain /
    open evaluations, then N_t = k_hi + Po(lambda (1 - u~))) has the joint law of N_t ~ Po(lambda) evaluations of the
    purified M_t^h: Pr[N = n, halt] = Po(n; lambda) Pr[Bin(n, p~) >= need] (chi-square, alpha 1e-6)."""
    prob = Toy(5, LAWS[law], scale=scale)
    R, t, e, lam, need = 40_000, 4, 0.8, 25.0, 14
    phi = purification_phi(e, delta) if delta > 0 else 0.0
    rng = np.random.default_rng(7)
    halted, k_hi, hip, drawn = engine._decide(
        prob,
        tt=np.array([t]),
        eps_t=np.full((R, 1), e),
        h=np.full(R, h),
        lam=np.full((R, 1), lam),
        need=np.full((R, 1), need),
        key=np.arange(R) % 3,  # three groups of runs sharing M_t^h: pooled draws of A
        upper=np.array([prob.upper(t)]),
        rng=rng,
        delta_t=np.full((R, 1), delta) if delta > 0 else None,
        phi=np.full((R, 1), phi) if delta > 0 else None,
    )
    assert (drawn == 0) == prob.known(t)
    N = k_hi[:, 0] + rng.poisson(lam * (1.0 - hip[:, 0]))
    p = plus_probability(prob, h, e, phi)
    n = np.arange(int(N.max()) + 1)
    pn = stats.poisson.pmf(n, lam)
    exp = R * np.concatenate([pn * stats.binom.sf(need - 1, n, p), pn * stats.binom.cdf(need - 1, n, p)])
    obs = np.concatenate(
        [np.bincount(N[halted[:, 0]], minlength=n.size), np.bincount(N[~halted[:, 0]], minlength=n.size)]
    )
    assert pooled_chisquare(obs, exp) > ALPHA
    assert 0.1 < halted.mean() < 0.9  # the test has power: halting is neither rare nor certain


@pytest.mark.parametrize("law", sorted(LAWS))
def test_first_halt_of_a_block(law):
    """A block of 6 steps and 5 runs (two pairs sharing a key): the first step at which some run halts and the
    number of runs halting there have their exact law (independent steps, each halting w.p. Pr[Po(lambda_b p) >=
    need]), with the steps after it left unresolved (chi-square, alpha 1e-6)."""
    prob = Toy(8, LAWS[law])
    R, e, h, need, reps = 5, 0.8, 6.0, 10, 6000
    tt = np.arange(2, 8)
    lam = np.array([8.0, 10.0, 12.0, 14.0, 16.0, 18.0])
    p = plus_probability(prob, h, e)
    pi = stats.poisson.sf(need - 1, lam * p)  # per run and step
    rng = np.random.default_rng(11)
    kw = dict(
        tt=tt,
        eps_t=np.full((R, tt.size), e),
        h=np.full(R, h),
        lam=np.broadcast_to(lam, (R, tt.size)),
        need=np.full((R, tt.size), need),
        key=np.array([0, 0, 1, 1, 2]),
        upper=np.full(tt.size, prob.upper(2)),
    )
    outcome = np.zeros((tt.size + 1, R + 1), dtype=np.int64)  # [first halting step (or none), runs halting there]
    for _ in range(reps):
        halted, _, _, _ = engine._decide(prob, rng=rng, **kw)
        hit = halted.any(axis=0)
        b = int(np.argmax(hit)) if hit.any() else tt.size
        outcome[b, int(halted[:, b].sum()) if b < tt.size else 0] += 1
    none_before = np.concatenate([[1.0], np.cumprod((1 - pi) ** R)])
    exp = np.zeros_like(outcome, dtype=float)
    for b in range(tt.size):
        j = np.arange(1, R + 1)
        exp[b, 1:] = none_before[b] * stats.binom.pmf(j, R, pi[b])
    exp[tt.size, 0] = none_before[-1]
    assert pooled_chisquare(outcome.ravel(), reps * exp.ravel()) > ALPHA
    assert outcome[: tt.size].sum(axis=1).min() > 50  # every step is sometimes the first halt


@pytest.mark.parametrize("direct, c", [(False, 15.0), (False, 24.0), (True, 15.0)])
def test_lazy_decisions_have_the_law_of_direct_draws(direct, c, monkeypatch):
    """The lazy decision (calls=False, module docstring) at a step with lambda_t u~ = c e^{w E}, E ~ Exp(1): the
    candidate event k_hi >= n and k_hi given it have the law of k_hi ~ Po(c e^{w E}), Pr[k_hi = j] = int_0^inf e^-E
    Po(j; c e^{w E}) dE (quadrature; chi-square, alpha 1e-6), drawn lazily (a uniform per step, a Gamma(n - 1/w) per
    proposal: qbar = 0.089 at c = 15, as the engine uses it; 0.58 at c = 24, allowed here, where the rejection of
    proposals matters) or directly (a recorded step, where k_hi is drawn at every value)."""
    prob = Toy(5, scale=0.5)
    R, t, e, h, n, w = 1_000_000, 4, 0.8, 1.2, 30, 0.25
    alpha = 1.0 / w
    u = float(laplace_tail(h, prob.upper(t), e))
    log_rho = math.log(c / u)
    lazy = alpha * log_rho + math.lgamma(n - alpha) - math.lgamma(n)
    assert alpha * math.log(u) + lazy < (math.log(engine._LAZY_QMAX) if c < 20 else math.log(0.6))
    monkeypatch.setattr(engine, "_LOG_LAZY_QMAX", math.log(0.95))
    spy = []
    orig = engine._lazy_candidates

    def counted(*args):
        spy.append(args[0].size)
        return orig(*args)

    monkeypatch.setattr(engine, "_lazy_candidates", counted)
    full = lambda x: np.full((R, 1), x)  # noqa: E731
    at = lambda r, b: (np.full(r.size, n), np.full(r.size, log_rho), np.full(r.size, w))  # noqa: E731
    halted, k_hi, hip, lam, _ = engine._decide_lazy(
        prob, np.array([t]), full(e), np.full(R, h), (full(alpha), full(lazy), np.zeros((R, 1)), at),
        np.array([direct]), np.arange(R) % 3, np.array([prob.upper(t)]), np.random.default_rng(5),
    )  # fmt: skip
    assert (sum(spy) == 0) == direct  # the lazy path was taken unless the step is recorded
    assert np.allclose(hip[k_hi[:, 0] >= n, 0], u)
    j = np.arange(n + 40)
    log_c = math.log(c)  # e^-E Po(j; c e^{w E}) in closed form (scipy's pmf per point was most of the test's time)

    def integrand(E, j):
        return math.exp(j * (log_c + w * E) - c * math.exp(w * E) - E - math.lgamma(j + 1))

    pmf = np.array([integrate.quad(integrand, 0, 60, args=(j,))[0] for j in j.tolist()])
    k = k_hi[:, 0]
    if direct:
        obs, exp = np.bincount(np.minimum(k, j[-1]), minlength=j.size), R * np.append(pmf[:-1], 1 - pmf[:-1].sum())
    else:  # lazily, only candidates get their k_hi (0 otherwise)
        assert np.all((k == 0) | (k >= n))
        obs = np.append((k < n).sum(), np.bincount(np.minimum(k[k >= n], j[-1]) - n, minlength=j.size - n))
        exp = R * np.concatenate([[pmf[:n].sum()], pmf[n:-1], [1 - pmf[:-1].sum()]])
    assert pooled_chisquare(obs, exp) > ALPHA
    lo, hi = binom_interval(int((k >= n).sum()), R)  # the candidate probability alone, a sharper test
    assert lo <= 1.0 - pmf[:n].sum() <= hi
    assert 0.02 < (k >= n).mean() < 0.8  # candidates are neither rare nor the rule: the test has power
    assert np.isnan(lam[k < n, 0]).all() != direct


def test_grouped_threshold_select_runs():
    """Runs of ThresholdSelect drawn together (:func:`threshold_select_runs`, any first batch) have Algorithm 2's
    law: per draw, success w.p. q, else stop w.p. xi, and at most T draws (chi-square on (draws, outcome),
    alpha 1e-6); one run reproduces :func:`threshold_select`'s draws exactly."""

    class Uniform:  # scores uniform on [0, 1]; the solution is the score
        def draw(self, size, rng):
            v = rng.random(size)
            return v.copy(), v

    tau, xi, eps0 = 0.8, 0.1, 1.0
    T = threshold_select_rounds(xi, eps0)
    for seed in range(5):
        for batch in (1, 3, 16):
            a = threshold_select(Uniform(), tau, xi, eps0, np.random.default_rng(seed), batch=batch)
            (Y,), v, d = threshold_select_runs(Uniform().draw, tau, xi, T, np.random.default_rng(seed), 1, batch)
            assert a == ((None, None, int(d[0])) if Y is None else (Y, float(v[0]), int(d[0])))
    n = 30_000
    Y, v, draws = threshold_select_runs(Uniform().draw, tau, xi, T, np.random.default_rng(3), n, 3)
    ok = np.array([y is not None for y in Y])
    assert (
        np.all(v[ok] >= tau) and np.all(np.isnan(v[~ok])) and np.all(np.array([y for y in Y if y is not None]) == v[ok])
    )
    q = 1.0 - tau
    cont = (1 - q) * (1 - xi)
    j = np.arange(1, T + 1)
    p_ok = cont ** (j - 1) * q
    p_fail = cont ** (j - 1) * (1 - q) * xi
    p_fail[-1] = cont ** (T - 1) * (1 - q)  # the last draw: a failure either way
    obs = np.concatenate([np.bincount(draws[ok], minlength=T + 1)[1:], np.bincount(draws[~ok], minlength=T + 1)[1:]])
    assert pooled_chisquare(obs, n * np.concatenate([p_ok, p_fail])) > ALPHA


def test_instance_tables_match_the_calibration():
    """The engine's per-instance constants and per-step tables equal BatchToCOParams' and ExPostCalibration.step's:
    c_s + 1, ln rho_s, w_s = eps_t tau_{2,s}; eps(i), xi_i, mu1 at eps = 1, and ln(4/(omega_t b_i)) = offset_i +
    ln(1/omega_t)."""
    for log_beta in ("instance", "global"):
        P = params(eps=3.0, log_beta=log_beta)
        base = engine._same_constants([P])
        inst = engine._Instances(base)
        ell = np.array([2, 5, 2, 17, 3])
        s = np.array([0, 4, 40, 0, 700])
        need, log_rho, w = inst.steps(ell, s, 9)
        for r in range(ell.size):
            i = int(ell[r])
            cal = P.calibration(i)
            assert inst.eps_i[i] == pytest.approx(base.eps_i(i), rel=1e-15)
            assert inst.xi[i] == pytest.approx(base.xi(i), rel=1e-15)
            assert inst.mu1[i] / P.eps == pytest.approx(cal.mu1, rel=1e-12)
            for b in range(9):
                step, t = int(s[r]) + b + 1, int(s[r]) + b + 30
                e_t = P.eps_it(i, t)
                st = cal.step(step, e_t, P.pstar)
                assert need[r, b] == st.c + 1
                assert math.exp(log_rho[r, b]) == pytest.approx(st.rho, rel=1e-12)
                assert w[r, b] / e_t == pytest.approx(st.tau2, rel=1e-12)
                assert inst.offset[i] + float(engine.log_inv_omega(t)) == pytest.approx(P.log4_over(i, t), rel=1e-14)
        # the lazy decisions' tables: alpha = 1/w_s and alpha ln rho_s + ln(Gamma(n - alpha)/Gamma(n)), n = c_s + 1
        alpha, lazy = inst.steps(ell, s, 9, lazy=True)
        assert np.allclose(alpha * w, 1.0, rtol=1e-14, atol=0)
        n = need.astype(float)
        assert np.all(n > alpha + 1)  # the lazy path is open at these steps
        ref = alpha * log_rho + np.array(
            [
                [math.lgamma(x - a) - math.lgamma(x) for x, a in zip(*row, strict=True)]
                for row in zip(n, alpha, strict=True)
            ]
        )
        assert np.allclose(lazy, ref, rtol=1e-12, atol=1e-9)
        r, b = np.array([0, 3, 4]), np.array([8, 0, 5])
        assert all(np.array_equal(x, y[r, b]) for x, y in zip(inst.at(ell, s, r, b), (need, log_rho, w), strict=True))


def test_engine_records_are_consistent():
    """Every step recorded: calls_total is the sum of the recorded N_t; the active instance is ell(t-1) + 1 and its
    step counter restarts at 1 after each checkpoint; eps_t = eps(i, t); the checkpoints match ell and t_ell; and
    the ex-post loss recomputed from the records (Theorem 23's eps(i) + C_H eps_t ln(4/beta_s) at each halt,
    ThresholdSelect's 2 eps_t + eps_0, eps(ell) for the instance still open) equals halt_loss."""
    T = 60
    prob = Toy(T, LAWS["even steps"], scale=40.0)
    Ps = [params(eps=20.0), params(eps=45.0)]
    R = 12
    res = engine.batch_to_co(prob, Ps, R, np.random.default_rng(4))
    assert np.array_equal(res.calls_total, res.gtm_calls.sum(axis=1))
    assert np.all(res.value <= prob.opt[None, :])
    t = np.arange(2, T + 1)
    assert np.array_equal(res.gtm_ell[:, 1:], res.ell[:, :-1] + 1)
    restart = res.gtm_ell[:, 1:] != np.concatenate([np.full((2 * R, 1), 2), res.gtm_ell[:, 1:-1]], axis=1)
    s_prev = np.concatenate([np.zeros((2 * R, 1), dtype=np.int64), res.gtm_s[:, 1:-1]], axis=1)
    assert np.array_equal(res.gtm_s[:, 1:], np.where(restart, 1, s_prev + 1))
    assert (res.checkpoints > 0).sum() > 2 * R  # several checkpoints per run: the records are exercised
    for r in range(2 * R):
        P = Ps[r // R]
        assert np.allclose(res.eps_t[r, 1:], P.eps_it(res.gtm_ell[r, 1:], t), rtol=1e-12)
        cps = res.checkpoints[r][res.checkpoints[r] > 0]
        assert cps.size == res.ell[r, -1] - 1
        assert np.array_equal(res.t_ell[r, cps - 1], cps)
        loss = P.eps_it(1, 1)
        for c in cps:
            i, s_, e_t = int(res.gtm_ell[r, c - 1]), int(res.gtm_s[r, c - 1]), float(res.eps_t[r, c - 1])
            loss += P.eps_i(i) + P.C_H * e_t * float(log4_over_beta_t(s_, P.beta_i(i))) + 2 * e_t + min(e_t, 1.0)
        loss += P.eps_i(int(res.ell[r, -1]) + 1)
        assert res.halt_loss[r] == pytest.approx(loss, rel=1e-10)


def test_calls_at_a_step_and_summed_have_the_expected_mean():
    """E[N_2] of GTM_2's first step (every run makes it) is StepParams.expected_samples, both recorded (N_2 at
    t = 2) and summed into calls_total without being recorded (calls_total - N_3 with only t = 3 recorded)."""
    P = params(eps=20.0)
    expected = P.calibration(2).step(1, P.eps_it(2, 2), P.pstar).expected_samples
    R = 20_000
    rec = engine.batch_to_co(Toy(2), P, R, np.random.default_rng(8), record=[2], select=False)
    lo, hi = mean_interval(rec.gtm_calls[:, 0].astype(float))
    assert lo <= expected <= hi
    summed = engine.batch_to_co(Toy(3), P, R, np.random.default_rng(9), record=[3], select=False)
    lo, hi = mean_interval((summed.calls_total - summed.gtm_calls[:, 0]).astype(float))
    assert lo <= expected <= hi
    # calls=False: the recorded steps still draw their N_t (the others decide lazily); calls_total is not counted
    lazy = engine.batch_to_co(Toy(3), P, R, np.random.default_rng(10), record=[2], select=False, calls=False)
    lo, hi = mean_interval(lazy.gtm_calls[:, 0].astype(float))
    assert lo <= expected <= hi and np.all(lazy.calls_total == -1)


def test_upper_bounds_and_checkpoint_table():
    """U_t read off opt for COProblem's default upper, from the problem's own upper otherwise; the checkpoint
    table from checkpoint events."""

    class Shifted(Toy):
        def upper(self, t):
            return 100.0 + t

    assert np.array_equal(engine._upper_bounds(Toy(4), 4), np.full(4, 12.0))
    assert np.array_equal(engine._upper_bounds(Shifted(4), 4), 100.0 + np.arange(1, 5))
    events = [(np.array([0, 2]), 3), (np.array([2]), 5), (np.array([1, 2]), 9)]
    assert engine._checkpoint_table(events, 4).tolist() == [[3, 0, 0], [9, 0, 0], [3, 5, 9], [0, 0, 0]]
    assert engine._checkpoint_table([], 2).shape == (2, 0)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda p: p.sample(0, 1.0, 0.0, 2, 0), "t"),
        (lambda p: p.sample(6, 1.0, 0.0, 2, 0), "t"),
        (lambda p: p.sample(True, 1.0, 0.0, 2, 0), "t"),
        (lambda p: p.sample(2.5, 1.0, 0.0, 2, 0), "t"),
        (lambda p: p.sample(2, float("nan"), 0.0, 2, 0), "eps"),
        (lambda p: p.sample(2, math.inf, 0.0, 2, 0), "eps"),
        (lambda p: p.sample(2, 0.0, 0.0, 2, 0), "eps"),
        (lambda p: p.sample(2, 1.0, 1.0, 2, 0), "delta"),
        (lambda p: p.sample(2, 1.0, -0.0001, 2, 0), "delta"),
        (lambda p: p.sample(2, 1.0, 0.0, -1, 0), "size"),
        (lambda p: p.sample(2, 1.0, 0.0, 2**63, 0), "size"),
        (lambda p: p.sample(2, 1.0, 0.0, 2, "seed"), "rng"),
        (lambda p: p.score_distribution(t=9, eps=1.0, delta=0.0), "t"),
    ],
)
def test_problem_checks_refuse_as_before(call, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        call(Toy(5))


def test_problem_checks_accept_numpy_numbers():
    prob = Toy(5)
    out = prob.sample(np.int64(2), np.float32(1.0), np.float64(0.0), np.int32(3), 0)
    assert out.shape == (3,)
    rng = np.random.default_rng(0)
    assert prob.scores(5, 2.0, 0.0, 4, rng=rng).shape == (4,)


def test_validate_fast_paths_agree_with_the_full_checks():
    assert _validate.integer("n", np.int64(5)) == 5 and type(_validate.integer("n", np.int64(5))) is int
    assert _validate.integer("n", 7, 1, maximum=7) == 7
    for bad, kw in ((True, {}), (0, {}), (8, {"maximum": 7}), (2**1100, {}), (np.int64(-3), {}), (2.5, {})):
        with pytest.raises(ValueError, match="^n "):
            _validate.integer("n", bad, **kw)
    assert _validate.integer("n", 4.0) == 4
    _validate.positive("x", np.float32(0.5))
    _validate.nonnegative("x", 0.0)
    _validate.finite("x", -1e300)
    _validate.interval("x", 1.0, 0.0, 1.0, lo_open=True, hi_open=False)
    for check, value in (
        (_validate.positive, 0.0),
        (_validate.positive, math.inf),
        (_validate.nonnegative, -0.0001),
        (_validate.finite, math.nan),
        (_validate.finite, -math.inf),
        (lambda n, v: _validate.interval(n, v, 0.0, 1.0, lo_open=True, hi_open=True), 1.0),
        (lambda n, v: _validate.interval(n, v, 0.0, 1.0, lo_open=True, hi_open=True), math.nan),
    ):
        with pytest.raises(ValueError, match="^x "):
            check("x", value)
    with pytest.raises(ValueError, match="^x "):
        _validate.positive("x", True)
