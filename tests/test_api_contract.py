"""The argument contract (docs/library.md) over the public API, table-driven. Each row is a call
with valid arguments and the parameters to spoil; every bad value (0, negative, nan, inf, bool, float for int, wrong
length, None, a bad seed) must raise ValueError (or TypeError) whose message names the parameter, before any work.
"""

from __future__ import annotations

import functools
import math
import re

import numpy as np
import pandas as pd
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
from privtest.baselines.cohen import CohenTester, first_success_position
from privtest.baselines.ghazi import GhaziSelection
from privtest.baselines.liu_talwar import LiuTalwarTester
from privtest.co import (
    ScoredMechanism,
    TestMechanism,
    advanced_composition_eps,
    batch_to_co,
    threshold_select,
    threshold_select_rounds,
)
from privtest.co import baselines as co_baselines
from privtest.exact import Stream, step_log_halt, transcript_log_probs
from privtest.testers import GTMTester, bernoulli_stream
from privtest_artifact.hpo import private_selection

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
    # or a documented numeric constant (DEFAULT_THETA, DEFAULT_GAMMA)
    for name in privtest.__all__:
        obj = getattr(privtest, name)
        assert callable(obj) or (name.isupper() and isinstance(obj, float)), name


def test_transcript_log_probs_refuses_non_streams():
    with pytest.raises((ValueError, TypeError, AttributeError)):
        transcript_log_probs(None)


# --- rng: every function taking ``rng`` accepts what numpy.random.default_rng accepts (privtest.co, artifact hpo) ---
@functools.cache
def _co():
    """Tiny instances of every CO problem (built once, on first use)."""
    from privtest.co import graphs
    from privtest.co.dks import DensestKSubgraph, dks_opt_bounds
    from privtest.co.maxcut import MaxCut
    from privtest.co.submodular import FacilityLocation

    s = graphs.edge_stream([0, 0, 0, 1, 1, 2] * 2, [1, 2, 3, 2, 3, 3] * 2, np.repeat(np.arange(2), 6), 5, "t")
    pairs = graphs.edge_stream([0, 0, 1, 2, 2, 2], [1, 2, 2, 3, 3, 3], [0] * 3 + [1] * 3, 4, "p", multigraph=True)
    n = 60
    stops = pd.DataFrame(
        {
            "time": pd.date_range("2017-03-01", periods=n, freq="3h", tz="UTC"),
            "lat": 44.93 + 0.001 * np.arange(n),
            "long": -93.30 + 0.001 * np.arange(n),
        }
    )
    return {
        "MaxCut": MaxCut(5, np.array([[0, 1], [1, 2], [2, 3], [3, 0], [0, 2], [1, 4]])),
        "DensestSubgraph": graphs.DensestSubgraph(s, *graphs.densest_subgraph_opt(s)),
        "DensestPair": graphs.DensestPair(pairs, np.full(pairs.T, 10.0)),
        "DensestKSubgraph": DensestKSubgraph(s, 3, *dks_opt_bounds(s, 3)[::2]),
        "FacilityLocation": FacilityLocation(stops, k=2, grid=3, radius_km=3.0, start="2017-03-01", end="2017-03-08"),
    }


@functools.cache
def _hpo():
    from privtest_artifact import hpo

    split = hpo.load_split("breast_cancer", 0.4, 0)
    mech = hpo.DPNaiveBayesMechanism(split, hpo.Hyper(3, 0.1), eps_t=1.0, target=0.9)
    return split, mech, hpo.RandomSearchCandidate(split, [hpo.Hyper(3, 0.1), hpo.Hyper(5, 0.05)], 1.0, 0.9)


def _co_params():
    from privtest.co import BatchToCOParams

    return BatchToCOParams(eps=30.0, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0)


def _problem_call(name: str, meth: str):
    return lambda rng: getattr(_co()[name], meth)(1, 5.0, 0.0, 3, rng)


def _problem_rows():
    names = ("MaxCut", "DensestSubgraph", "DensestPair", "DensestKSubgraph", "FacilityLocation")
    return [(f"co.{n}.{m}", _problem_call(n, m)) for n in names for m in ("sample", "scores", "sample_scored")]


#: (row id, call(rng)): every public function or method of privtest.co and privtest_artifact.hpo that takes ``rng``,
#: and the baselines' public draws (the testers' run / critical_p / halts_at_step are rows of TABLE).
RNG_ROWS = [
    *_problem_rows(),
    ("co.TestMechanism.count_plus", lambda rng: TestMechanism(_co()["MaxCut"], 2, 1.0, 0.0, 1.0).count_plus(4, rng)),
    ("co.ScoredMechanism.draw", lambda rng: ScoredMechanism(_co()["MaxCut"], 2, 1.0, 0.0).draw(3, rng)),
    (
        "co.threshold_select",
        lambda rng: threshold_select(ScoredMechanism(_co()["MaxCut"], 2, 1.0, 0.0), 2.0, 0.1, 0.5, rng),
    ),
    ("co.batch_to_co", lambda rng: batch_to_co(_co()["DensestPair"], _co_params(), 3, rng).value),
    ("co.baselines", lambda rng: co_baselines(_co()["DensestPair"], 4.0, 3, rng, kappa=0.5)),
    ("hpo.VectorizedDPGaussianNB.sample_params", lambda rng: _hpo()[1].model.sample_params(2, rng)),
    (
        "hpo.VectorizedDPGaussianNB.accuracies",
        lambda rng: _hpo()[1].model.accuracies(2, _hpo()[1].X_val, _hpo()[0].y_val, rng),
    ),
    ("hpo.DPNaiveBayesMechanism.sample", lambda rng: _hpo()[1].sample(3, rng)),
    ("hpo.DPNaiveBayesMechanism.count_plus", lambda rng: _hpo()[1].count_plus(3, rng)),
    ("hpo.RandomSearchCandidate.draw", lambda rng: _hpo()[2].draw(3, rng)),
    ("hpo.private_selection", lambda rng: private_selection(_hpo()[2], 0.9, 0.2, 0.5, 2, rng)),
    (
        "baselines.cohen.first_success_position",
        lambda rng: first_success_position(np.array([5, 9]), np.array([2, 1]), rng),
    ),
    ("CohenTester.draw_pdagger", lambda rng: CohenTester(1.0, 0.1, 0.05, 0.5, 4).draw_pdagger(3, rng)),
    ("GhaziSelection.draw_k", lambda rng: GhaziSelection(1.0, 0.1).draw_k(3, rng)),
]


def _flat(out) -> list:
    """The numbers of a call's output (arrays, tuples, dicts), for comparing two calls."""
    if isinstance(out, dict):
        return [v for key in sorted(out) for v in _flat(out[key])]
    if isinstance(out, (tuple, list)):
        return [v for o in out for v in _flat(o)]
    return [np.asarray(out)]


@pytest.mark.parametrize("row", [r for _, r in RNG_ROWS], ids=[name for name, _ in RNG_ROWS])
def test_rng_takes_what_default_rng_takes_with_the_same_numbers(row):
    """None, an int, a SeedSequence and a Generator are accepted; an int seed (and its SeedSequence) draws exactly
    the numbers of ``default_rng(seed)`` (the conversion is default_rng's, a Generator passes through)."""
    row(None)
    ref = _flat(row(np.random.default_rng(7)))
    for seed in (7, np.random.SeedSequence(7)):
        got = _flat(row(seed))
        assert len(got) == len(ref) and all(np.array_equal(a, b, equal_nan=True) for a, b in zip(got, ref, strict=True))


@pytest.mark.parametrize("row", [r for _, r in RNG_ROWS], ids=[name for name, _ in RNG_ROWS])
@pytest.mark.parametrize("bad", SEED, ids=lambda bad: f"{bad!r:.20}")
def test_rng_refuses_what_default_rng_refuses_naming_rng(row, bad):
    with pytest.raises(ValueError) as info:
        row(bad)
    assert _named(str(info.value), "rng"), info.value
