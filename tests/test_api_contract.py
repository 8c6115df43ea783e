"""Issue 20, item 6: the argument contract (docs/library.md) over the public API, table-driven. Each row is a call
with valid arguments and the parameters to spoil; every bad value (0, negative, nan, inf, bool, float for int, wrong
length, None, a bad seed) must raise ValueError (or TypeError) whose message names the parameter, before any work.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import privtest
from privtest import (
    GTM,
    BernoulliMechanism,
    CountingMechanism,
    ExPostCalibration,
    GlobalCalibration,
    LaplaceThresholdMechanism,
    Purified,
    SampledMechanism,
)
from privtest import calibration as calib
from privtest.audit import estimate_epsilon
from privtest.baselines.above_threshold import AboveThreshold
from privtest.baselines.cohen import CohenTester
from privtest.baselines.ghazi import GhaziSelection
from privtest.baselines.liu_talwar import LiuTalwarTester
from privtest.co import advanced_composition_eps, threshold_select_rounds
from privtest.exact import Stream, step_log_halt, transcript_log_probs
from privtest.testers import GTMTester, bernoulli_stream

NAN, INF = math.nan, math.inf
#: Bad values by kind of parameter.
POSITIVE = [0, -1.0, NAN, INF, True, None, "1", [1.0, 2.0]]
NONNEG = [-1.0, NAN, INF, True, None]
UNIT = [0, 1, -0.5, NAN, INF, True, None, [0.5, 0.5]]
CLOSED_UNIT = [-0.5, 1.5, NAN, True, None]
GAMMA = [1, 2.5, NAN, True, None]
COUNT = [0, -1, 4.5, NAN, INF, True, None, "4", [1, 2]]
COUNT0 = [-1, 4.5, NAN, INF, True, None]
SEED = ["seed", 1.5, True, -1, object()]
DELTA = [-0.1, 1, NAN, True, None]

CAL = GlobalCalibration(1.0, 0.05, 1.0, 1.5)
POST = ExPostCalibration(2.0, 0.05, 2.0, 1.5)
GTM_T = GTMTester(CAL, 0.5, 0.1, 4)


def _stream(n=2, eps=0.1):
    return bernoulli_stream(np.full(n, 0.3), eps)


def _call(fn, defaults):
    return lambda **kw: fn(**{**defaults, **kw})


def _run(n, rng):
    return rng.integers(0, 3, n)


#: (row id, call(**overrides), {parameter: bad values}).
TABLE = [
    (
        "GlobalCalibration",
        _call(GlobalCalibration, dict(eps=1.0, beta=0.05, theta=1.0, gamma=1.5)),
        {"eps": POSITIVE, "beta": UNIT, "theta": POSITIVE, "gamma": GAMMA, "variant": ["up", None]},
    ),
    (
        "ExPostCalibration",
        _call(ExPostCalibration, dict(eps_C=2.0, beta=0.05, C_H=2.0, gamma=1.5)),
        {"eps_C": POSITIVE, "beta": UNIT, "C_H": POSITIVE, "gamma": GAMMA},
    ),
    (
        "ExactTailCalibration",
        _call(calib.ExactTailCalibration, dict(eps=1.0, beta=0.05, theta=1.0, gamma=1.5, budget_scale=1.0)),
        {"eps": POSITIVE, "beta": UNIT, "theta": POSITIVE, "gamma": GAMMA, "budget_scale": POSITIVE},
    ),
    (
        "GlobalCalibration.step",
        lambda **kw: CAL.step(**{"t": 3, "eps_t": 0.1, "pstar": 0.5, **kw}),
        {"t": COUNT, "eps_t": NONNEG, "pstar": UNIT},
    ),
    (
        "ExPostCalibration.step",
        lambda **kw: POST.step(**{"t": 3, "eps_t": 0.1, "pstar": 0.5, **kw}),
        {"t": COUNT, "eps_t": POSITIVE, "pstar": UNIT},
    ),
    (
        "ExPostCalibration.max_loss",
        lambda **kw: POST.max_loss(**{"T": 3, "eps_t": 0.1, **kw}),
        {"T": COUNT, "eps_t": POSITIVE},
    ),
    (
        "certified_calibration",
        _call(
            calib.certified_calibration,
            dict(eps=1.0, beta=0.05, theta=1.0, gamma=1.5, T=2, eps_t=0.1, pstar=0.5, tol=0.5),
        ),
        {"T": COUNT, "eps_t": NONNEG, "pstar": UNIT, "tol": POSITIVE, "beta": UNIT},
    ),
    ("lambda_left_exact", _call(calib.lambda_left_exact, dict(c=3, alpha=0.05)), {"c": COUNT0, "alpha": UNIT}),
    ("lambda_right_exact", _call(calib.lambda_right_exact, dict(c=3, alpha=0.05)), {"c": COUNT0, "alpha": UNIT}),
    (
        "count_threshold_exact",
        _call(calib.count_threshold_exact, dict(alpha=0.05, beta=0.05, gamma=1.5)),
        {"alpha": UNIT, "beta": UNIT, "gamma": GAMMA},
    ),
    (
        "count_threshold",
        _call(privtest.count_threshold, dict(alpha=0.05, beta=0.05, gamma=1.5)),
        {"alpha": UNIT, "beta": UNIT, "gamma": GAMMA},
    ),
    ("lambda_left", _call(privtest.lambda_left, dict(x=3, alpha=0.05)), {"alpha": UNIT[:-1]}),
    ("lambda_right", _call(privtest.lambda_right, dict(x=3, alpha=0.05)), {"alpha": UNIT[:-1]}),
    ("beta_t", _call(privtest.beta_t, dict(t=3, beta=0.05)), {"t": COUNT[:-1], "beta": UNIT}),
    ("omega", _call(privtest.omega, dict(t=3)), {"t": COUNT[:-1]}),
    (
        "rejection_threshold",
        _call(privtest.rejection_threshold, dict(pstar=0.5, log_gamma_Lambda=1.0)),
        {"pstar": UNIT[:-1], "log_gamma_Lambda": [None, "1"]},
    ),
    ("GTM", _call(GTM, dict(calibration=CAL, rng=0)), {"rng": SEED}),
    (
        "BernoulliMechanism",
        _call(BernoulliMechanism, dict(p=0.5, eps=0.1, delta=0.0)),
        {"p": CLOSED_UNIT, "eps": NONNEG, "delta": DELTA},
    ),
    (
        "LaplaceThresholdMechanism",
        _call(LaplaceThresholdMechanism, dict(value=1.0, threshold=0.0, eps=0.1)),
        {"value": [NAN, INF, None, True], "threshold": [NAN, INF, None], "eps": POSITIVE},
    ),
    (
        "CountingMechanism",
        _call(CountingMechanism, dict(count=lambda n, rng: 0, eps=0.1, delta=0.0)),
        {"eps": NONNEG, "delta": DELTA},
    ),
    (
        "SampledMechanism",
        _call(SampledMechanism, dict(sample=lambda n, rng: np.ones(n), eps=0.1, delta=0.0)),
        {"eps": NONNEG, "delta": DELTA},
    ),
    (
        "Purified",
        _call(Purified, dict(base=BernoulliMechanism(0.5, 0.1, 0.01), phi=0.1)),
        {"phi": [-0.1, 0.6, NAN, True]},
    ),
    (
        "purification_phi",
        _call(privtest.purification_phi, dict(eps=0.1, delta=0.01)),
        {"eps": NONNEG, "delta": DELTA},
    ),
    (
        "BernoulliMechanism.count_plus",
        lambda **kw: BernoulliMechanism(0.5, 0.1).count_plus(**{"n": 3, "rng": 0, **kw}),
        {"rng": SEED},
    ),
    (
        "GTMTester",
        _call(GTMTester, dict(cal=CAL, pstar=0.5, eps1=0.1, T=4)),
        {"T": COUNT, "eps1": POSITIVE, "pstar": [*UNIT[:-1], [0.5, 0.5]]},
    ),
    (
        "GTMTester.run",
        lambda **kw: GTM_T.run(**{"mechanisms": _stream(), "runs": 2, "rng": 0, **kw}),
        {"runs": COUNT, "rng": SEED, "mechanisms": [_stream(5), _stream(2, 1.0)]},
    ),
    (
        "GTMTester.critical_p",
        lambda **kw: GTM_T.critical_p(**{"T": 2, "runs": 2, "rng": 0, **kw}),
        {"T": COUNT, "runs": COUNT, "rng": SEED},
    ),
    (
        "GTMTester.halts_at_step",
        lambda **kw: GTM_T.halts_at_step(**{"t": 1, "p": np.array([0.5]), "runs": 2, "rng": 0, **kw}),
        {"t": COUNT, "p": [np.array([1.5]), np.array([NAN])], "runs": COUNT, "rng": SEED},
    ),
    *[
        (f"GTMTester.{m}", (lambda meth, a: lambda **kw: getattr(GTM_T, meth)(**{a: 2, **kw}))(m, arg), {arg: COUNT})
        for m, arg in [
            ("pbar", "t"),
            ("halt_p", "t"),
            ("sample_bound", "t"),
            ("sample_budget", "T"),
            ("expected_samples", "t"),
            ("amortized_sample_bound", "T"),
        ]
    ],
    (
        "CohenTester",
        _call(CohenTester, dict(eps=1.0, eps1=0.1, beta=0.05, pstar=0.5, T=4)),
        {"eps": POSITIVE, "eps1": POSITIVE, "beta": UNIT, "pstar": UNIT, "T": COUNT},
    ),
    (
        "CohenTester.run",
        lambda **kw: CohenTester(1.0, 0.1, 0.05, 0.5, 4).run(**{"mechanisms": _stream(), "runs": 2, "rng": 0, **kw}),
        {"runs": COUNT, "rng": SEED, "mechanisms": [_stream(5), _stream(2, 1.0)]},
    ),
    (
        "LiuTalwarTester",
        _call(LiuTalwarTester, dict(eps=1.0, eps1=0.1, beta=0.05, delta=1e-6, eps0=0.5, pstar=0.5, T=4)),
        {"eps": POSITIVE, "eps1": POSITIVE, "beta": UNIT, "delta": [NAN, True, None, 1], "pstar": UNIT, "T": COUNT},
    ),
    ("GhaziSelection", _call(GhaziSelection, dict(eps=1.0, eps1=0.1)), {"eps": POSITIVE, "eps1": POSITIVE}),
    (
        "GhaziSelection.run",
        lambda **kw: GhaziSelection(1.0, 0.1).run(**{"mechanisms": _stream(), "runs": 2, "rng": 0, **kw}),
        {"runs": COUNT, "rng": SEED, "mechanisms": [_stream(2, 1.0)]},
    ),
    (
        "AboveThreshold",
        _call(AboveThreshold, dict(eps=1.0, beta=0.05, T=4, tau=0.0)),
        {"eps": POSITIVE, "beta": UNIT, "T": COUNT, "tau": [NAN, INF, None]},
    ),
    (
        "AboveThreshold.run",
        lambda **kw: AboveThreshold(1.0, 0.05, 4).run(**{"mechanisms": np.zeros(3), "runs": 2, "rng": 0, **kw}),
        {"runs": COUNT, "rng": SEED, "mechanisms": [np.zeros(5), np.array([NAN]), None]},
    ),
    (
        "estimate_epsilon",
        _call(estimate_epsilon, dict(run_a=_run, run_b=_run, n=200, rng=0, confidence=0.95, candidates=2)),
        {"n": COUNT, "rng": SEED, "confidence": UNIT, "candidates": COUNT, "delta": DELTA},
    ),
    (
        "Stream.from_calibration",
        _call(Stream.from_calibration, dict(cal=CAL, p=np.full(3, 0.3), eps_t=0.1, pstar=0.5)),
        {"p": [np.array([1.5]), np.array([NAN])], "pstar": UNIT[:-1]},
    ),
    (
        "step_log_halt",
        _call(step_log_halt, dict(st=CAL.step(1, 0.1, 0.5), p=np.array([0.5]))),
        {"p": [np.array([1.5]), np.array([NAN])], "delta": DELTA},
    ),
    (
        "advanced_composition_eps",
        _call(advanced_composition_eps, dict(eps=1.0, delta=1e-6, T=10)),
        {"eps": POSITIVE, "T": COUNT},
    ),
    (
        "threshold_select_rounds",
        _call(threshold_select_rounds, dict(xi=0.1, eps0=0.5)),
        {"xi": [0, -0.5, 1.5, NAN, True, None], "eps0": [0, 1.5, NAN, None]},
    ),
]

CASES = [
    pytest.param(call, name, bad, id=f"{row}-{name}-{bad!r:.20}")
    for row, call, params in TABLE
    for name, values in params.items()
    for bad in values
]


def _named(message: str, name: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", message) is not None


@pytest.mark.parametrize(("call", "name", "bad"), CASES)
def test_bad_value_is_refused_naming_the_parameter(call, name, bad):
    with pytest.raises((ValueError, TypeError)) as info:
        call(**{name: bad})
    # a stream's faults are named by what the tester was built for: its T or the eps_t it was calibrated for
    names = ("T", "eps_t", "mechanisms") if name == "mechanisms" else (name,)
    assert any(_named(str(info.value), n) for n in names), f"{name}: {info.value}"


@pytest.mark.parametrize(("row", "call"), [(row, call) for row, call, _ in TABLE], ids=[row for row, _, _ in TABLE])
def test_the_valid_call_of_each_row_works(row, call):
    call()


def test_every_public_name_is_callable_or_a_type():
    for name in privtest.__all__:
        assert callable(getattr(privtest, name)), name


def test_transcript_log_probs_refuses_non_streams():
    with pytest.raises((ValueError, TypeError, AttributeError)):
        transcript_log_probs(None)
