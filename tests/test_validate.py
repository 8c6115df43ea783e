"""Library arguments: numbers of any numeric type are accepted; anything else (strings, even
'1', None, bools, complex numbers, arrays where a number is required) is refused with a ValueError naming the
parameter, by every public constructor and function, not only the one in the issue."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from privtest import (
    GTM,
    BernoulliMechanism,
    CountingMechanism,
    ExPostCalibration,
    GlobalCalibration,
    LaplaceThresholdMechanism,
    Purified,
    SampledMechanism,
    beta_t,
    count_threshold,
    lambda_left,
    lambda_right,
    omega,
    purification_phi,
    rejection_threshold,
)
from privtest.audit import estimate_epsilon
from privtest.baselines.above_threshold import AboveThreshold
from privtest.baselines.cohen import CohenTester
from privtest.baselines.ghazi import GhaziSelection
from privtest.baselines.liu_talwar import LiuTalwarTester
from privtest.calibration import ExactTailCalibration
from privtest.co.params import BatchToCOParams
from privtest.svt_variants import SVTVariant
from privtest.testers import GTMTester
from privtest_artifact.registry import FACTORIES


def test_calibration_refuses_strings_and_arrays_and_takes_numpy_numbers():
    with pytest.raises(ValueError, match=r"^eps must be a real number"):
        GlobalCalibration(eps="1", beta=0.05, theta=1.0, gamma=1.5)
    with pytest.raises(ValueError, match=r"^eps must be a real number"):
        GlobalCalibration(eps="abc", beta=0.05, theta=1.0, gamma=1.5)
    with pytest.raises(ValueError, match=r"^eps must be a number, not an array"):
        GlobalCalibration(eps=np.array([1.0, 2.0]), beta=0.05, theta=1.0, gamma=1.5)
    cal = GlobalCalibration(eps=1.0, beta=0.05, theta=1.0, gamma=np.int64(2))
    assert cal.step(1, 0.1, 0.5).c >= 0


def _run(n, rng):
    return rng.integers(0, 3, n)


def _cal():
    return GlobalCalibration(1.0, 0.05, 1.0, 1.5)


#: (callable, valid keyword arguments, the scalar numeric parameters to try bad values on).
CASES = [
    (GlobalCalibration, dict(eps=1.0, beta=0.05, theta=1.0, gamma=1.5), ["eps", "beta", "theta", "gamma"]),
    (ExPostCalibration, dict(eps_C=1.0, beta=0.05, C_H=2.0, gamma=1.5), ["eps_C", "beta", "C_H", "gamma"]),
    (ExactTailCalibration, dict(eps=1.0, beta=0.05, theta=1.0, gamma=1.5, budget_scale=1.0), ["budget_scale"]),
    (lambda **k: _cal().step(**k), dict(t=3, eps_t=0.1, pstar=0.5), ["t", "eps_t", "pstar"]),
    (lambda **k: GTM(**k), dict(tau1=3.0, mu1=10.0), ["tau1", "mu1"]),
    (BernoulliMechanism, dict(p=0.5, eps=0.1, delta=0.0), ["p", "eps", "delta"]),
    (lambda **k: CountingMechanism(lambda n, r: 0, **k), dict(eps=0.1, delta=0.0), ["eps", "delta"]),
    (LaplaceThresholdMechanism, dict(value=1.0, threshold=0.5, eps=0.1), ["value", "threshold", "eps"]),
    (
        lambda **k: SampledMechanism(lambda n, r: r.integers(0, 2, n) * 2 - 1, **k),
        dict(eps=0.1, delta=0.0),
        ["eps", "delta"],
    ),
    (purification_phi, dict(eps=0.1, delta=0.01), ["eps", "delta"]),
    (count_threshold, dict(alpha=0.05, beta=0.05, gamma=1.5), ["alpha", "beta", "gamma"]),
    (lambda_left, dict(x=3, alpha=0.05), ["x", "alpha"]),
    (lambda_right, dict(x=3, alpha=0.05), ["x", "alpha"]),
    (beta_t, dict(t=3, beta=0.05), ["beta"]),
    (GTMTester, dict(cal=_cal(), pstar=0.5, eps1=0.1, T=10), ["pstar", "eps1", "T"]),  # pstar: also a schedule
    (CohenTester, dict(eps=1.0, eps1=0.1, beta=0.05, pstar=0.5, T=10), ["eps", "eps1", "beta", "pstar", "T"]),
    (
        LiuTalwarTester,
        dict(eps=1.0, eps1=0.1, beta=0.05, delta=1e-6, eps0=0.5, pstar=0.5, T=10),
        ["eps", "eps1", "beta", "delta", "eps0", "pstar", "T"],
    ),
    (GhaziSelection, dict(eps=1.0, eps1=0.1), ["eps", "eps1"]),
    (AboveThreshold, dict(eps=1.0, beta=0.05, T=10, tau=0.0), ["eps", "beta", "T", "tau"]),
    (
        SVTVariant,
        dict(variant="alg1", eps=1.0, threshold=0.0, c=2, sensitivity=1.0),
        ["eps", "threshold", "c", "sensitivity"],
    ),
    (
        lambda **k: estimate_epsilon(_run, _run, rng=np.random.default_rng(0), **k),
        dict(n=200, confidence=0.9, delta=0.0, pilot=100, candidates=2),
        ["n", "confidence", "delta", "pilot", "candidates"],
    ),
    (
        BatchToCOParams,
        dict(eps=0.5, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0, C_1=2.0, C_H=2.0, C_beta=1 / 3, delta=0.0),
        ["eps", "beta", "pstar", "kappa", "gamma", "C_1", "C_H", "C_beta", "delta"],
    ),
]
#: Parameters that also take arrays (vectorized functions; GTMTester's pstar schedule of length T).
ARRAYS = {lambda_left: {"x", "alpha"}, lambda_right: {"x", "alpha"}, GTMTester: {"pstar"}}
#: Parameters for which None means "not given" (a default applies).
OPTIONAL = {"pilot"}
IDS = [getattr(f, "__name__", "lambda") + ":" + ",".join(p) for f, _, p in CASES]
BAD = {"str number": "1", "str": "abc", "None": None, "bool": True, "complex": 1 + 0j, "list": [0.5, 0.5]}


@pytest.mark.parametrize("call, kwargs, params", CASES, ids=IDS)
def test_valid_arguments_of_any_numeric_type_are_accepted(call, kwargs, params):
    call(**kwargs)
    for p in params:
        v = kwargs[p]
        for typed in (np.float64(v), np.float32(v) if float(np.float32(v)) == v else np.float64(v), np.array(v)):
            call(**{**kwargs, p: typed})
        if float(v).is_integer():
            call(**{**kwargs, p: np.int64(v)})
            call(**{**kwargs, p: np.int32(v)})


@pytest.mark.parametrize("bad", list(BAD), ids=list(BAD))
@pytest.mark.parametrize("call, kwargs, params", CASES, ids=IDS)
def test_anything_else_is_refused_naming_the_parameter(call, kwargs, params, bad):
    for p in params:
        if (bad == "None" and p in OPTIONAL) or (bad == "list" and p in ARRAYS.get(call, ())):
            continue  # valid there
        with pytest.raises(ValueError, match=rf"^{p}\b"):
            call(**{**kwargs, p: BAD[bad]})
        if p in ARRAYS.get(call, ()):
            with pytest.raises(ValueError, match=rf"^{p} must"):
                call(**{**kwargs, p: np.array([BAD[bad]] * 10)})  # an array of them
            continue
        arr = np.array([kwargs[p], kwargs[p]])  # an array where a number is required
        with pytest.raises(ValueError, match=rf"^{p} must be a number, not an array"):
            call(**{**kwargs, p: arr})


def test_vectorized_functions_still_take_arrays():
    assert beta_t(np.array([1, 2, 3]), 0.05).shape == (3,)
    assert omega(np.array([1, 2])).shape == (2,)
    assert np.shape(lambda_left(np.array([1.0, 2.0]), 0.05)) == (2,)
    with pytest.raises(ValueError, match=r"^t must"):
        beta_t(np.array(["1", "2"]), 0.05)


@functools.cache
def _testers():
    from privtest_artifact.registry import make_tester

    cfg = {"eps": 1.0, "beta": 0.05, "theta": 1.0, "gamma": 1.5, "C_H": 2.0}
    out = {name: make_tester(name, cfg, 0.5, 0.1, 5) for name in FACTORIES}
    return out | {"AboveThreshold": AboveThreshold(1.0, 0.05, 5)}


#: Every tester interface method with valid arguments, and (argument index, name) of its validated arguments.
INTERFACE = {
    "pbar": ((2,), [(0, "t")]),
    "halt_p": ((2,), [(0, "t")]),
    "sample_bound": ((2,), [(0, "t")]),
    "expected_samples": ((2,), [(0, "t")]),
    "sample_budget": ((3,), [(0, "T")]),
    "amortized_sample_bound": ((3,), [(0, "T")]),
    "critical_p": ((3, 20, np.random.default_rng(0)), [(0, "T"), (1, "runs")]),
    "halts_at_step": ((1, np.array([0.1, 0.5]), 20, np.random.default_rng(0)), [(0, "t"), (1, "p"), (2, "runs")]),
}


@pytest.mark.parametrize("tester", [*FACTORIES, "AboveThreshold"])  # by name: nothing built at collection
def test_every_tester_method_validates_its_arguments(tester):
    # e.g. GTMTester.halts_at_step(1, [.1], 0, rng), sample_budget(0), amortized_sample_bound(0)
    t = _testers()[tester]
    for method, (args, checked) in INTERFACE.items():
        getattr(t, method)(*args)
        for i, name in checked:
            bad = [0, "1", None] if name != "p" else [np.array([1.5]), "abc", np.array([np.nan])]
            for value in bad:
                with pytest.raises(ValueError, match=rf"^{name} must"):
                    getattr(t, method)(*args[:i], value, *args[i + 1 :])


@pytest.mark.parametrize("eps1", [0.499, 0.4999])
def test_cohen_calls_per_step_too_large_for_a_float_is_a_named_value_error(eps1):
    from privtest.baselines.cohen import CohenTester

    with pytest.raises(ValueError, match="theta must be large enough"):
        CohenTester(1.0, eps1, 0.05, 0.5, 10)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: rejection_threshold("0.5", 1.0), "pstar"),
        (lambda: rejection_threshold(0.5, "x"), "log_gamma_Lambda"),
        (lambda: Purified(BernoulliMechanism(0.3, 0.5, 1e-3), "0.1"), "phi"),
        (lambda: Purified(BernoulliMechanism(0.3, 0.5, 1e-3), np.array([0.1, 0.2])), "phi"),
    ],
)
def test_public_functions_name_a_non_numeric_argument(call, name):
    # these two public functions name the argument even though they convert with float()/np.asarray
    with pytest.raises(ValueError, match=rf"^{name} must be"):
        call()
