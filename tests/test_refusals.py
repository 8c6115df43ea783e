"""The library refuses what it cannot guarantee: one test per minimal input that would otherwise give a wrong answer
(or hang). The table over the whole public API is ``tests/test_api_contract.py``."""

from __future__ import annotations

import contextlib
import math
import signal
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import special

from privtest import BernoulliMechanism, CountingMechanism, ExPostCalibration, GlobalCalibration, Mechanism
from privtest.audit import estimate_epsilon
from privtest.baselines.above_threshold import AboveThreshold
from privtest.baselines.cohen import CohenTester
from privtest.baselines.ghazi import GhaziSelection
from privtest.baselines.liu_talwar import LiuTalwarTester
from privtest.calibration import ExactTailCalibration, count_threshold_exact, lambda_left_exact, lambda_right_exact
from privtest.testers import GTMTester, bernoulli_stream

ROOT = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def within(seconds: float):
    """Fail (instead of hanging) if the block runs longer than ``seconds`` (SIGALRM; xdist workers run tests in
    their main thread)."""

    def expire(signum, frame):
        raise TimeoutError(f"call did not return within {seconds} s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# 1. A call that never returns ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("beta", "t"), [(0.05, 10**12), (1e-9, 10**6)])
def test_exact_tail_step_returns_at_tiny_budgets(beta, t):
    with within(10):
        st = ExactTailCalibration(10, beta, 1, 1.5).step(t, 0.5, 0.5)
    assert st.c >= 0 and math.isfinite(st.rho) and st.rho > 0


@pytest.mark.parametrize("alpha", [1e-17, 1e-30, 1e-300])
def test_right_tail_quantile_has_no_cancellation(alpha):
    with within(5):
        for c in (0, 3, 40):
            lam = lambda_right_exact(c, alpha)
            assert lam > 0 and special.pdtrc(c, lam) <= alpha
            assert special.pdtrc(c, lam * (1 + 1e-9)) > alpha * (1 - 1e-6)  # the largest such mean, to rounding
            lam_l = lambda_left_exact(c, alpha)
            assert special.pdtr(c, lam_l) <= alpha


def test_out_of_numerical_reach_names_the_parameter():
    with within(10), pytest.raises(ValueError, match="alpha"):
        count_threshold_exact(1e-320, 1e-320, 1.0 + 1e-12)


def test_workflow_config_with_exact_tails_at_tiny_beta_loads():
    sys.path.insert(0, str(ROOT / "workflow" / "lib"))
    import yaml
    from privtest_workflow import catalogue, configuration

    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    config["fig_sample_complexity"].update({"methods": ["GTM exact tails"], "beta": 1.0e-12})
    with within(60):
        _, fault = configuration.load_or_fault(config, catalogue.load(ROOT), ROOT)
    assert fault is None, fault


# 2. A privacy statement that does not cover what was run -------------------------------------------------------------


def _gtm():
    return GTMTester(ExPostCalibration(2, 0.05, 2, 1.5), 0.5, 0.5, 4)


def _testers():
    return [
        _gtm(),
        GTMTester(GlobalCalibration(1.0, 0.05, 1.0, 1.5), 0.5, 0.1, 4),
        CohenTester(1.0, 0.1, 0.05, 0.5, 4),
        LiuTalwarTester(1.0, 0.1, 0.05, 1e-6, 0.5, 0.5, 4),
    ]


@pytest.mark.parametrize("tester", _testers(), ids=lambda t: t.name)
def test_tester_refuses_a_stream_longer_than_T(tester):
    with pytest.raises(ValueError, match=r"\bT\b"):
        tester.run(bernoulli_stream(np.full(tester.T + 1, 0.01), tester.eps1), 2, np.random.default_rng(0))


@pytest.mark.parametrize("tester", [*_testers(), GhaziSelection(1.0, 0.1)], ids=lambda t: t.name)
def test_tester_refuses_a_mechanism_above_its_eps_t(tester):
    stream = bernoulli_stream(np.full(2, 0.01), tester.eps1)
    stream[1] = BernoulliMechanism(0.01, 10 * tester.eps1)
    with pytest.raises(ValueError, match="eps_t"):
        tester.run(stream, 2, np.random.default_rng(0))


def test_gtm_refuses_a_stream_longer_than_t_and_a_mechanism_above_its_eps1():
    tester = _gtm()
    assert str(tester.privacy).startswith("pure")
    with pytest.raises(ValueError, match=r"\bT\b"):
        tester.run(bernoulli_stream(np.full(1001, 0.01), 0.5), 1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="eps_t"):
        tester.run([BernoulliMechanism(0.01, 5.0)], 1, np.random.default_rng(0))


def test_tester_runs_streams_within_its_statement():
    tester = _gtm()
    halt, samples = tester.run(bernoulli_stream(np.full(3, 0.01), 0.25), 5, np.random.default_rng(0))
    assert halt.shape == (5,) and samples.shape == (5, 3)


def test_above_threshold_refuses_more_queries_than_T():
    at = AboveThreshold(1.0, 0.05, 3)
    with pytest.raises(ValueError, match=r"\bT\b"):
        at.run(np.zeros(4), 2, np.random.default_rng(0))


def test_opendp_refuses_a_schedule_longer_than_its_stream():
    dp = pytest.importorskip("opendp.prelude")
    from privtest import opendp as pod

    dp.enable_features("contrib", "honest-but-curious")
    space = dp.atom_domain(T=float), dp.absolute_distance(T=float)
    meas = [
        dp.m.make_user_measurement(*space, dp.max_divergence(), lambda x: True, lambda d: 0.5 * d, TO=bool)
        for _ in range(3)
    ]
    cal = GlobalCalibration(2.0, 0.05, 1.0, 1.5)
    with pytest.raises(ValueError, match=r"\bT\b"):
        pod.make_gtm(meas, cal, [0.5] * 4)


# 3. Integral floats --------------------------------------------------------------------------------------------------


def test_integral_floats_are_converted_once():
    cal = ExPostCalibration(2, 0.05, 2, 1.5)
    tester = GTMTester(cal, 0.5, 0.5, 4.0)
    assert type(tester.T) is int and tester.T == 4
    rng = np.random.default_rng(0)
    assert tester.sample_budget(4.0) == tester.sample_budget(4)
    assert tester.critical_p(4.0, 10.0, rng).p_crit.shape == (10,)
    halt, _ = tester.run(bernoulli_stream(np.full(2, 0.5), 0.5), 10.0, rng)
    assert halt.shape == (10,)
    assert tester.halts_at_step(1.0, np.array([0.5]), 10.0, rng).shape == (1,)


@pytest.mark.parametrize(("value", "name"), [(4.5, "T"), (True, "T"), (np.float64(np.nan), "T")])
def test_non_integers_are_refused_naming_the_parameter(value, name):
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        GTMTester(ExPostCalibration(2, 0.05, 2, 1.5), 0.5, 0.5, value)


def test_non_integral_runs_refused():
    with pytest.raises(ValueError, match="runs"):
        _gtm().critical_p(4, 10.5, np.random.default_rng(0))


# 4. Seeds ------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [7, np.random.SeedSequence(7)])
def test_every_rng_takes_what_default_rng_takes(seed):
    tester = _gtm()
    stream = bernoulli_stream(np.full(2, 0.5), 0.5)
    a = tester.run(stream, 2, seed)[0]
    b = tester.run(stream, 2, np.random.default_rng(np.random.SeedSequence(7)))[0]
    np.testing.assert_array_equal(a, b)
    assert tester.critical_p(2, 3, seed).p_crit.shape == (3,)
    assert tester.halts_at_step(1, np.array([0.5]), 3, seed).shape == (1,)
    for other in _testers()[2:]:
        other.run(bernoulli_stream(np.full(2, 0.5), other.eps1), 2, seed)
        other.critical_p(2, 2, seed)

    def run(n, r):
        return r.integers(0, 3, n)

    assert estimate_epsilon(run, run, 200, seed).eps_lower >= 0 or True  # ran at all (the value is the audit's)


def test_bad_rng_is_refused_naming_rng():
    with pytest.raises((ValueError, TypeError), match="rng"):
        _gtm().run(bernoulli_stream(np.full(2, 0.5), 0.5), 2, "seed")


# 5. The mechanism contract -------------------------------------------------------------------------------------------


class _Fixed(Mechanism):
    def __init__(self, fn, eps=0.5):
        self.fn, self.eps, self.delta = fn, eps, 0.0

    def count_plus(self, n, rng):
        return self.fn(np.asarray(n, dtype=np.int64))


@pytest.mark.parametrize(
    "fn",
    [lambda n: n + 5, lambda n: n * 0 - 1, lambda n: np.full(n.shape, np.nan), lambda n: None, lambda n: n[:1]],
    ids=["K>n", "K<0", "nan", "None", "wrong-shape"],
)
def test_bad_counts_are_refused_naming_the_step(fn):
    tester = GTMTester(GlobalCalibration(1.0, 0.05, 1.0, 1.5), 0.5, 0.25, 4)  # eps1 < eps/(theta + 2): not vacuous
    with pytest.raises(ValueError, match="step 1"):
        tester.run([_Fixed(fn, 0.25)], 3, np.random.default_rng(0))


@pytest.mark.parametrize("value", [True, None, np.array([1]), math.nan, -1, 2.5])
def test_counting_mechanism_refuses_non_counts(value):
    m = CountingMechanism(lambda n, rng: value, 0.5)
    with pytest.raises(ValueError, match="count"):
        m.count_plus(1, np.random.default_rng(0))


@pytest.mark.parametrize("tester", _testers()[2:] + [GhaziSelection(1.0, 0.1)], ids=lambda t: t.name)
def test_baselines_check_counts_too(tester):
    with pytest.raises(ValueError, match="step 1"):
        tester.run([_Fixed(lambda n: n + 5, tester.eps1)], 3, np.random.default_rng(0))


# 7. Workflow messages ------------------------------------------------------------------------------------------------


def _workflow():
    sys.path.insert(0, str(ROOT / "workflow" / "lib"))
    from privtest_workflow import catalogue, configuration

    return catalogue, configuration


def test_nested_config_strings_explain_configfile():
    catalogue, configuration = _workflow()
    import yaml

    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    config["fig_oc"] = {**config["fig_oc"], "runs": "2000"}
    _, fault = configuration.load_or_fault(config, catalogue.load(ROOT), ROOT)
    assert fault is not None and "--configfile" in fault and "string" in fault


@pytest.mark.parametrize("target", ["figures/fig_nonexistent.pdf", "fig_oc"])
def test_unknown_target_lists_valid_ones(target):
    catalogue, configuration = _workflow()
    message = configuration.unknown_targets([target], catalogue.load(ROOT), ROOT)
    assert message and "figures/fig_oc.pdf" in message and target in message


def test_known_targets_pass():
    catalogue, configuration = _workflow()
    assert configuration.unknown_targets(["figures/fig_oc.pdf", "all"], catalogue.load(ROOT), ROOT, rules=["all"]) == ""
    # an output id is a target: the Snakefile defines a rule per output
    assert configuration.unknown_targets(["fig_oc"], catalogue.load(ROOT), ROOT, rules=["all", "fig_oc"]) == ""


def test_a_file_rebuilt_alone_says_its_claims_are_not():
    catalogue, configuration = _workflow()
    cat = catalogue.load(ROOT)
    (line,) = configuration.partial_rebuilds(["figures/fig_oc.pdf"], cat, ROOT)
    assert "results/claims/fig_oc.csv" in line and "docs/results/fig_oc.md" in line and "`snakemake fig_oc`" in line
    assert configuration.partial_rebuilds([str(ROOT / "figures/table1.tex")], cat, ROOT)  # absolute paths too
    assert configuration.partial_rebuilds(["figures/fig_oc.pdf", "fig_oc"], cat, ROOT) == []
    assert configuration.partial_rebuilds(["figures/fig_oc.pdf", "all"], cat, ROOT) == []
    assert configuration.partial_rebuilds(["fig_oc", "figures/claims.csv"], cat, ROOT) == []


def test_targets_are_read_from_the_snakemake_command_line():
    _, configuration = _workflow()
    argv = ["/x/.venv/bin/snakemake", "-n", "fig_oc", "--cores", "1", "--configfile", "config/quick.yaml"]
    assert configuration.requested_targets(argv) == ["fig_oc"]
    assert configuration.requested_targets(["python", "-m", "pytest", "fig_oc"]) == []
    module = ["/x/.venv/lib/python3.11/site-packages/snakemake/__main__.py", "fig_oc", "--cores", "1"]  # python -m
    assert configuration.requested_targets(module) == ["fig_oc"]
    assert configuration.requested_targets(["/x/pytest/__main__.py", "fig_oc"]) == []


def test_slurm_doc_says_default_resources_replace_the_profile_list():
    text = " ".join((ROOT / "docs/slurm.md").read_text().split())
    assert "--default-resources" in text and "whole" in text.split("--default-resources", 1)[1][:300]


@pytest.mark.parametrize("cal", [GlobalCalibration, ExactTailCalibration])
def test_underflowing_budget_names_beta_and_t(cal):
    with within(10), pytest.raises(ValueError, match=r"beta = 1e-300 at t = 10+"):
        cal(0.01, 1e-300, 1.0, 1.5).step(10**18, 0.01, 0.5)
