"""The tester interface: every tester (each registered factory, every GTM calibration, Ghazi et al., AboveThreshold)
implements every member of privtest.testers.Tester, and the values are those of the formulas they cite (computed
here by hand from the paper's definitions where that is cheap). Statistical checks use alpha ~ 1e-6."""

import dataclasses
import functools
import importlib
import inspect
import math
import pkgutil

import numpy as np
import pytest
from conftest import binom_interval

import privtest
from privtest import bounds
from privtest.baselines import AboveThreshold
from privtest.bounds import Privacy
from privtest.calibration import ExactTailCalibration
from privtest.gtm import ExPostCalibration, GlobalCalibration
from privtest.measure import CriticalP
from privtest.schedule import beta_t
from privtest.testers import GTMTester, StationaryTester, Tester, bernoulli_stream
from privtest_artifact.registry import FACTORIES, make_tester

CFG = dict(eps=1.0, beta=0.05, theta=1.0, gamma=1.5, C_H=2.0, delta=1e-6, eps0="auto", certify_tol=0.2)
T, PSTAR, RATIO = 10, 0.5, 0.1
EPS1 = RATIO * CFG["eps"]

#: Every abstract member of the interface, by kind.
PROPERTIES = ("name", "source", "privacy", "parameters", "type1_bound", "type2_bound", "error_bound")
METHODS = (
    "pbar",
    "halt_p",
    "sample_bound",
    "sample_budget",
    "expected_samples",
    "amortized_sample_bound",
    "run",
    "critical_p",
    "halts_at_step",
    "exact_error",
)


def _tester_classes() -> list[type]:
    """Every class in the package that subclasses Tester."""
    for m in pkgutil.walk_packages(privtest.__path__, "privtest."):
        importlib.import_module(m.name)
    out, todo = [], [Tester]
    while todo:
        for sub in todo.pop().__subclasses__():
            out.append(sub)
            todo.append(sub)
    return out


#: Every tester's name: the registered factories and AboveThreshold (parametrizing by name builds nothing at
#: collection, where every pytest process, each xdist worker included, would pay for the certified calibration).
NAMES = (*FACTORIES, "AboveThreshold")


@functools.cache
def _built(name: str) -> Tester:
    """The tester ``name`` at the module's parameters, built once per process on first use."""
    if name == "AboveThreshold":
        return AboveThreshold(1.0, 0.05, T)
    return make_tester(name, CFG, PSTAR, RATIO, T)


def test_interface_is_exactly_the_documented_members():
    assert Tester.__abstractmethods__ == frozenset(PROPERTIES + METHODS)


def test_every_tester_class_is_complete():
    classes = _tester_classes()
    assert {c.__name__ for c in classes} >= {"GTMTester", "CohenTester", "LiuTalwarTester", "GhaziSelection"}
    assert "AboveThreshold" in {c.__name__ for c in classes}
    # StationaryTester is the one intermediate base: it provides halts_at_step, nothing else.
    assert StationaryTester.__abstractmethods__ == Tester.__abstractmethods__ - {"halts_at_step"}
    for cls in classes:
        if cls is not StationaryTester:
            assert not cls.__abstractmethods__, f"{cls.__name__} lacks {sorted(cls.__abstractmethods__)}"


def test_factories_are_callables_for_every_gtm_calibration():
    assert all(callable(f) for f in FACTORIES.values())
    cals = {type(t.cal) for t in map(_built, NAMES) if isinstance(t, GTMTester)}
    assert cals == {GlobalCalibration, ExPostCalibration, ExactTailCalibration}
    assert _built("GTM certified").cal.budget_scale > 1  # the certified calibration raises the budgets
    with pytest.raises(ValueError, match="method must be one of"):
        make_tester("nope", CFG, PSTAR, RATIO, T)


@pytest.mark.parametrize("name", sorted(NAMES))
def test_every_member_answers_with_its_documented_type(name):
    t = _built(name)
    rng = np.random.default_rng(0)
    assert isinstance(t.name, str) and isinstance(t.source, str) and t.source
    assert isinstance(t.privacy, Privacy) and t.privacy.eps > 0
    assert isinstance(t.parameters, dict)
    for b in (t.type1_bound, t.type2_bound, t.error_bound):
        assert isinstance(b, float) and (math.isnan(b) or 0 < b < 1)
    for f in (t.pbar, t.halt_p, t.sample_bound, t.expected_samples):
        assert isinstance(f(3), float)
    assert t.sample_budget(T) >= 0 and isinstance(t.amortized_sample_bound(T), float)
    p = np.full(T, 0.3) if name != "AboveThreshold" else np.zeros(T)
    stream = bernoulli_stream(p, EPS1) if name != "AboveThreshold" else p
    halt, samples = t.run(stream, 50, rng)
    assert halt.shape == (50,) and samples.shape == (50, T) and halt.dtype == np.int64
    cp = t.critical_p(T, 50, rng)
    assert isinstance(cp, CriticalP) and cp.runs == 50
    h = t.halts_at_step(T, [0.3, 0.9], 50, rng)
    assert h.shape == (2,) and np.all((h >= 0) & (h <= 50))
    e = t.exact_error(p, halt_at_T=True)
    assert isinstance(e, float)
    with pytest.raises(ValueError):
        t.pbar(0)  # step indices start at 1, for every tester


def test_gtm_theorem21_values_by_hand():
    t = _built("GTM")
    # tau1 = (theta+2)/(theta eps) = 3, tau2 = (theta+2)/eps = 3, mu1 = tau1 ln(4/beta) = 3 ln 80.
    for s in (1, 7):
        log_lam = EPS1 * (3 * math.log(80) + 3 * math.log(4 / beta_t(s, 0.05)))
        gl = 1.5 * math.exp(log_lam)
        assert t.pbar(s) == pytest.approx(max(PSTAR / gl, 1 - gl * (1 - PSTAR)), rel=1e-12)
        st = t.step(s)
        assert st.s == 1  # gamma Lambda (1 - p*) > p* at p* = 1/2
        assert t.sample_bound(s) == pytest.approx(
            math.e * max(st.rho * math.exp(log_lam), math.log(4 / beta_t(s, 0.05)))
        )
        # E[N_t] = rho e^{eps1 mu1} / ((1 + 0.3)(1 - 0.3)).
        assert t.expected_samples(s) == pytest.approx(st.rho * 80**0.3 / (1.3 * 0.7), rel=1e-12)
    assert (t.privacy, t.halt_p(4)) == (Privacy(1.0, 0.0), PSTAR)
    assert t.type1_bound == t.type2_bound == t.error_bound == 0.05  # global accuracy beta, both types together
    assert t.sample_budget(T) == 0.025  # beta/2: no flipped step
    assert make_tester("GTM", CFG, 0.999, RATIO, T).sample_budget(T) == pytest.approx(0.0375)  # + beta/4 (flipped)
    assert t.parameters == dict(theta=1.0, gamma=1.5, variant="auto")
    lead, bound = t.cal.amortized_bound(12, EPS1, PSTAR)
    assert t.amortized_sample_bound(12) == bound > lead > 0
    # Lemma 22(2) assumes T >= 2 ln(16/beta) = 11.53 and beta <= 1/e: no bound is claimed outside
    assert math.isnan(t.amortized_sample_bound(11))
    wide = make_tester("GTM", {**CFG, "beta": 0.5}, PSTAR, RATIO, 100)
    assert math.isnan(wide.amortized_sample_bound(100))


def test_gtm_expost_values_by_hand():
    t = _built("GTM ex-post")
    # Theorem 23 with eps_C = 1, C_H = 2: Lambda_t = (4/beta)^{eps_t/eps_C} e^{2/C_H}, flat in t; the worst loss of a
    # T-step run is the halting loss at T, eps_C + C_H eps_t ln(4/beta_T).
    gl = 1.5 * 80**EPS1 * math.e
    assert t.pbar(1) == pytest.approx(max(PSTAR / gl, 1 - gl * (1 - PSTAR)), rel=1e-12) == pytest.approx(t.pbar(9))
    assert t.privacy.eps == pytest.approx(1 + 2 * EPS1 * math.log(4 / beta_t(T, 0.05)), rel=1e-12)
    assert math.isnan(t.amortized_sample_bound(T))  # Lemma 22(2) is not proved for Theorem 23
    schedule = make_tester("GTM", CFG, np.linspace(0.9, 0.4, T), RATIO, T)
    assert schedule.halt_p(T) == 0.4 and math.isnan(schedule.amortized_sample_bound(T))
    with pytest.raises(ValueError, match="schedule"):
        schedule.pbar(T + 1)


def test_exact_tail_calibrations_keep_pbar_with_fewer_samples():
    g, x, c = _built("GTM"), _built("GTM exact tails"), _built("GTM certified")
    for s in (1, T):
        assert g.pbar(s) == x.pbar(s) == c.pbar(s)
        assert c.expected_samples(s) <= x.expected_samples(s) <= g.expected_samples(s)
    assert x.privacy == c.privacy == g.privacy  # the same noise: Lemma 17 does not see c_t, rho_t


def test_cohen_values_by_hand():
    t = _built("Cohen")
    # theta_C = 1/0.1 - 2 = 8; N = ceil(ln 40 / (0.025^(1/8) 0.5)) = ceil(3.688879 / (0.630957 * 0.5)) = 12.
    assert t.parameters == {"theta": 8.0} and t.sample_bound(5) == 12.0 == t.amortized_sample_bound(T)
    assert t.pbar(3) == pytest.approx(beta_t(3, 0.05) / (2 * 12 * 0.975 ** (1 / 8)), rel=1e-12)
    assert t.expected_samples(3) == pytest.approx(12 * 8 / 9)
    assert (t.type1_bound, t.type2_bound, t.error_bound, t.sample_budget(T)) == (0.05, 0.05, 0.1, 0.0)
    assert t.halt_p(7) == PSTAR and math.isnan(t.exact_error(np.full(T, 0.1), True))
    assert t.privacy == bounds.cohen_privacy(1.0, 0.1)


def test_liu_talwar_values():
    t = _built("LiuTalwar")
    assert t.privacy == Privacy(1.0, 1e-6)
    assert t.type1_bound == 0.05 + 0.5e-6 and t.type2_bound == 0.05 + 1e-6 / (4 * T)
    assert t.halt_p(1) == t.halt_p(T) > PSTAR  # Theorem 46(4) needs the Phi condition, the same at every t
    assert t.sample_bound(3) == t.expected_samples(3) == t.amortized_sample_bound(T) == t.N
    # Theorem 46(2)'s pbar and Table 1's p*/Lambda_t form are the same value (to rounding).
    assert t.pbar(4) == pytest.approx(
        bounds.liu_talwar_rejection_threshold(4, PSTAR, 1.0, 0.1, 0.05, t.eps0), rel=1e-12
    )
    with pytest.raises(ValueError):
        t.halt_p(0)


def test_ghazi_values_by_hand():
    t = _built("Ghazi")
    q = math.exp(-0.8)  # theta_G = 1 - 2 * 0.1
    assert t.expected_samples(1) == pytest.approx((1 - q) / (1 - q * math.exp(-0.1)), rel=1e-12)
    assert math.isnan(t.pbar(1)) and math.isnan(t.error_bound) and t.halt_p(1) == math.inf
    assert (t.sample_bound(1), t.sample_budget(T), t.privacy) == (1.0, 0.0, Privacy(1.0, 0.0))
    # Monte Carlo: each step is evaluated w.p. E[e^{-eps_1 k}].
    _, samples = t.run(bernoulli_stream(np.zeros(T), 0.1), 40000, np.random.default_rng(3))
    lo, hi = binom_interval(int(samples[:, 0].sum()), 40000)
    assert lo <= t.expected_samples(1) <= hi


def test_above_threshold_values_by_hand():
    t = _built("AboveThreshold")
    alpha = 8 * (math.log(T) + math.log(40))  # eps = 1, beta = 0.05
    assert (t.pbar(1), t.halt_p(1)) == pytest.approx((-alpha, alpha))
    assert t.error_bound == 0.05 and t.privacy == Privacy(1.0, 0.0) and t.sample_bound(1) == 1.0


@pytest.mark.parametrize("name", ["Ghazi", "AboveThreshold", "GTM ex-post"])
def test_coupled_simulation_matches_run_for_the_other_testers(name):
    # critical_p gives the same halting law at each p as run() on constant inputs (two-sample check, alpha ~ 1e-7);
    # for AboveThreshold "p" is the query value.
    t, runs, rng = _built(name), 20000, np.random.default_rng(8)
    cp = t.critical_p(T, runs, rng)
    for p in {"Ghazi": (0.01, 0.05), "AboveThreshold": (-30.0, 10.0), "GTM ex-post": (0.05, 0.2)}[name]:
        stream = np.full(T, p) if name == "AboveThreshold" else bernoulli_stream(np.full(T, p), EPS1)
        a = int(np.count_nonzero(cp.p_crit <= p))
        b = int(np.count_nonzero(t.run(stream, runs, rng)[0]))
        pa, pb = a / runs, b / runs
        se = math.sqrt(max(pa * (1 - pa) + pb * (1 - pb), 1e-12) / runs)
        assert abs(pa - pb) <= 5.3 * se + 1e-9


def test_gtm_exact_error_matches_monte_carlo():
    t = _built("GTM")
    p = np.r_[np.full(T - 1, max(t.pbar(T), 0.0)), PSTAR]
    for halt_at_T in (True, False):
        exact = t.exact_error(p, halt_at_T)
        halt, _ = t.run(bernoulli_stream(p, EPS1), 40000, np.random.default_rng(9))
        wrong = np.count_nonzero(halt != T) if halt_at_T else np.count_nonzero(halt != 0)
        lo, hi = binom_interval(int(wrong), 40000)
        assert lo <= exact <= hi


def test_halts_at_step_agrees_with_a_one_step_run():
    # Step T in isolation: for the baselines a fresh one-step run (their steps do not depend on t).
    rng = np.random.default_rng(11)
    for name in ("Cohen", "LiuTalwar"):
        t = _built(name)
        a = int(t.halts_at_step(T, [0.3], 20000, rng)[0])
        b = int(np.count_nonzero(t.run(bernoulli_stream([0.3], EPS1), 20000, rng)[0]))
        se = math.sqrt(max(a * (20000 - a) + b * (20000 - b), 1) / 20000**3)
        assert abs(a - b) / 20000 <= 5.3 * se + 1e-9


def test_testers_are_frozen_values():
    for t in map(_built, NAMES):
        assert dataclasses.is_dataclass(t)
        with pytest.raises(dataclasses.FrozenInstanceError):
            t.name = "x"  # type: ignore[misc]


def test_run_signature_is_the_interface():
    for t in map(_built, NAMES):
        assert list(inspect.signature(t.run).parameters) == ["mechanisms", "runs", "rng"]
        assert list(inspect.signature(t.critical_p).parameters) == ["T", "runs", "rng"]


@pytest.mark.parametrize("name", ["GTM", "GTM exact tails"])
def test_gtm_run_records_the_expected_evaluations_and_the_exact_halting_law(name):
    # GTMTester.run draws the halting decision given N_t without K_t (run_step(counts=False)): the evaluations it
    # records at step 1 (every run is active there) have the exact mean E[N_1] of the calibration, and the halting
    # frequency at step 1 the exact one-step probability (privtest.exact), on inputs below pbar_1, at p* and between.
    from conftest import mean_interval

    from privtest.exact import step_log_halt

    t = _built(name)
    runs = 40000
    for p in (0.0, max(t.pbar(1), 0.0), 0.5 * (t.pbar(1) + PSTAR), PSTAR):
        halt, samples = t.run(bernoulli_stream([p], EPS1), runs, np.random.default_rng(21))
        lo, hi = mean_interval(samples[:, 0].astype(float))
        assert lo <= t.expected_samples(1) <= hi, p
        exact = float(np.exp(step_log_halt(t.step(1), [p])[0]))
        lo, hi = binom_interval(int(np.count_nonzero(halt == 1)), runs)
        assert lo <= exact <= hi, p
