"""Every public callable of the library's mechanisms, Poisson thresholds, schedule, bounds, exact analysis, privacy
search, SVT variants, measurement, auditor, baselines and continual-observation code, and every numeric argument of
each, as one table (:data:`TABLE`): NaN, +-inf, a bool, 4.5 for an integer, an integer beyond the float range
(2**1100) and values out of the argument's range are each refused with a ValueError whose message names the
argument, before any work; for an array argument, one bad element among good ones is refused too.
:func:`test_the_table_lists_every_public_callable` keeps the table complete: a new public function or method with an
argument must get a row (or an entry of :data:`NO_NUMERIC` saying why it has none).
"""

from __future__ import annotations

import importlib
import inspect
import math
import re
from dataclasses import dataclass, field

import numpy as np
import pytest

from privtest import audit as A
from privtest import bounds as B
from privtest import exact as E
from privtest import measure as ME
from privtest import mechanisms as M
from privtest import poisson as P
from privtest import privacy as PR
from privtest import schedule as S
from privtest import svt_variants as SV
from privtest.baselines import above_threshold as AT
from privtest.baselines import cohen as CO
from privtest.baselines import ghazi as GH
from privtest.baselines import liu_talwar as LT
from privtest.co import composition as CC
from privtest.co import dks as DK
from privtest.co import graphs as G
from privtest.co import kcut as KC
from privtest.co import maxcut as MC
from privtest.co import mechanisms as CM
from privtest.co import params as CP
from privtest.co import submodular as SU
from privtest.co import trajectory as TR
from privtest.gtm import ExPostCalibration, GlobalCalibration
from privtest.testers import bernoulli_stream

BC = importlib.import_module("privtest.co.batch_to_co")

NAN, INF, HUGE = math.nan, math.inf, 2**1100
COMMON = [NAN, INF, -INF, True, HUGE]
#: Bad values by kind of argument (each kind's range in the comment).
KINDS = {
    "pos": [*COMMON, 0, -1.0],  # > 0, finite
    "nonneg": [*COMMON, -1.0],  # >= 0, finite
    "unit": [*COMMON, 0, 1, -0.5, 1.5],  # (0, 1)
    "closed": [*COMMON, -0.5, 1.5],  # [0, 1]
    "delta": [*COMMON, -0.1, 1],  # [0, 1)
    "gamma": [*COMMON, 1, 2.5],  # (1, 2]
    "int1": [*COMMON, 4.5, 0, -1],  # integer >= 1
    "int0": [*COMMON, 4.5, -1],  # integer >= 0
    "finite": COMMON,  # finite real
    "sign": [*COMMON, 0, 2, 0.5],  # -1 or +1
    "neg": [*COMMON, 0, 1.0],  # < 0, finite (log_floor)
    "bool": [0, 1, NAN, "yes", None],  # True or False
}


def _kind(base: str, *extra):
    return [*KINDS[base], *extra]


@dataclass
class Row:
    """One public callable: ``call(**kwargs)`` with valid ``defaults``; ``spec`` maps each checked argument to its
    kind (a key of KINDS) or to an explicit list of bad values; ``arrays`` are the arguments that take arrays (one bad
    element among good ones is tried too). ``names`` overrides the parameter name expected in the message."""

    id: str
    call: object
    defaults: dict
    spec: dict
    arrays: tuple = ()
    names: dict = field(default_factory=dict)


def R(id, call, defaults, spec, arrays=(), names=None):  # noqa: N802
    return Row(id, call, defaults, spec, tuple(arrays), names or {})


# ---------------------------------------------------------------------------------------------------------------------
# Valid objects the rows call methods on (built once; all cheap).
CAL = GlobalCalibration(1.0, 0.05, 1.0, 1.5)
POST = ExPostCalibration(2.0, 0.05, 2.0, 1.5)
ST = CAL.step(1, 0.1, 0.5)
STREAM = E.Stream.from_calibration(CAL, [0.3, 0.3], 0.1, 0.5)
BERN = M.BernoulliMechanism(0.3, 0.1)
PARAMS = CP.BatchToCOParams(eps=30.0, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0)
EDGES = np.array([[0, 1], [1, 2], [2, 3], [3, 0]])
MAXCUT = MC.MaxCut(4, EDGES)
KCUT = KC.CardinalityCut(5, np.array([[0, 1], [1, 2], [2, 3], [3, 4]]), k=2)
GS = G.edge_stream([0, 0, 1, 2], [1, 2, 2, 3], [0, 0, 1, 2], n=4, name="toy")
DS = G.DensestSubgraph(GS, *G.densest_subgraph_opt(GS))
DP = G.DensestPair(GS, np.full(GS.T, 10.0))
DKS = DK.DensestKSubgraph(GS, 3, *DK.dks_opt_bounds(GS, 3)[::2])
try:  # the library installs without pandas: the rows of the functions that read a DataFrame need it
    import pandas as pd
except ImportError:  # pragma: no cover - the core-only venv of tests/test_oldest_versions.py
    pd = None
if pd is not None:
    STOPS = pd.DataFrame(
        {
            "time": pd.date_range("2017-03-01", periods=40, freq="6h", tz="UTC"),
            "lat": 44.93 + 0.001 * np.arange(40),
            "long": -93.30 + 0.001 * np.arange(40),
        }
    )
    FL = SU.FacilityLocation(STOPS, k=2, grid=3, start="2017-03-01", end="2017-03-10")
PANDAS_PROBLEMS = () if pd is None else (FL,)
#: The callables that read a pandas DataFrame (left out of the table where pandas is not installed).
NEEDS_PANDAS = {
    "co.FacilityLocation",
    "co.FacilityLocation.value",
    "co.FacilityLocation.sample",
    "co.FacilityLocation.scores",
    "co.FacilityLocation.sample_scored",
    "co.collegemsg_stream",
    "co.collegemsg_messages_stream",
    "co.primary_school_stream",
    "co.primary_school_contacts_stream",
    "co.top_users_stream",
}
COHEN = CO.CohenTester(1.0, 0.1, 0.05, 0.5, 4)
GHAZI = GH.GhaziSelection(1.0, 0.1)
LIU = LT.LiuTalwarTester(12.0, 0.5, 0.5, 1e-6, 0.5, 0.5, 4)
ABOVE = AT.AboveThreshold(1.0, 0.05, 4)
SVT = SV.SVTVariant("alg1", 1.0)
CP_RESULT = ME.CriticalP(np.array([0.1, 0.5, INF]), np.ones(3))


class _User(M.Mechanism):
    """A user's subclass: its promises go through the Mechanism descriptors, its count_plus through the wrapper."""

    def __init__(self, eps=0.1, delta=0.0):
        self.eps, self.delta = eps, delta

    def count_plus(self, n, rng):
        return np.zeros(np.shape(n), dtype=np.int64)


class _Q:
    def draw(self, size, rng):
        v = rng.random(size)
        return v, v


def _row(id, fn, defaults, spec, arrays=(), names=None):
    return R(id, lambda **k: fn(**{**defaults, **k}), defaults, spec, arrays, names)


def _method(id, obj_factory, meth, defaults, spec, arrays=(), names=None):
    return R(id, lambda **k: getattr(obj_factory(), meth)(**{**defaults, **k}), defaults, spec, arrays, names)


TABLE: list[Row] = [
    # --- mechanisms -----------------------------------------------------------------------------------------------
    _row(
        "mechanisms.BernoulliMechanism",
        M.BernoulliMechanism,
        dict(p=0.3, eps=0.1, delta=0.0),
        dict(p="closed", eps="nonneg", delta="delta"),
    ),
    _method(
        "mechanisms.BernoulliMechanism.count_plus",
        lambda: BERN,
        "count_plus",
        dict(n=[3, 5], rng=0),
        dict(n="int0"),
        ["n"],
    ),
    _row(
        "mechanisms.LaplaceThresholdMechanism",
        M.LaplaceThresholdMechanism,
        dict(value=1.0, threshold=0.0, eps=0.1),
        dict(value="finite", threshold="finite", eps="pos"),
    ),
    _method(
        "mechanisms.LaplaceThresholdMechanism.count_plus",
        lambda: M.LaplaceThresholdMechanism(1.0, 0.0, 0.1),
        "count_plus",
        dict(n=[3, 5], rng=0),
        dict(n="int0"),
        ["n"],
    ),
    _row(
        "mechanisms.laplace_threshold_probability",
        M.laplace_threshold_probability,
        dict(value=[1.0, 0.0], threshold=[0.0, 0.5], eps=[0.5, 1.0]),
        dict(value="finite", threshold="finite", eps="pos"),
        ["value", "threshold", "eps"],
    ),
    _row(
        "mechanisms.SampledMechanism",
        M.SampledMechanism,
        dict(sample=lambda n, r: np.ones(n), eps=0.1, delta=0.0),
        dict(eps="nonneg", delta="delta", sample=[None, 3]),
    ),
    _method(
        "mechanisms.SampledMechanism.count_plus",
        lambda: M.SampledMechanism(lambda n, r: np.ones(n), 0.1),
        "count_plus",
        dict(n=[3, 5], rng=0),
        dict(n="int0"),
        ["n"],
    ),
    _row(
        "mechanisms.CountingMechanism",
        M.CountingMechanism,
        dict(count=lambda n, r: 0, eps=0.1, delta=0.0),
        dict(eps="nonneg", delta="delta", count=[None, 3]),
    ),
    _method(
        "mechanisms.CountingMechanism.count_plus",
        lambda: M.CountingMechanism(lambda n, r: 0, 0.1),
        "count_plus",
        dict(n=[3, 5], rng=0),
        dict(n="int0"),
        ["n"],
    ),
    _row("mechanisms.Negated", M.Negated, dict(base=BERN), dict(base=[None, 0.5])),
    _method(
        "mechanisms.Negated.count_plus",
        lambda: M.Negated(BERN),
        "count_plus",
        dict(n=[3, 5], rng=0),
        dict(n="int0"),
        ["n"],
    ),
    _row(
        "mechanisms.purification_phi", M.purification_phi, dict(eps=0.1, delta=0.01), dict(eps="nonneg", delta="delta")
    ),
    _row(
        "mechanisms.Purified",
        M.Purified,
        dict(base=M.BernoulliMechanism(0.3, 0.1, 0.01), phi=0.1),
        dict(phi=[*COMMON, -0.1, 0.6], base=[None, 1.0]),
    ),
    _method(
        "mechanisms.Purified.count_plus",
        lambda: M.Purified(M.BernoulliMechanism(0.3, 0.1, 0.01)),
        "count_plus",
        dict(n=[3, 5], rng=0),
        dict(n="int0"),
        ["n"],
    ),
    _row("mechanisms.purify", M.purify, dict(mechanism=BERN), dict(mechanism=[None, 0.5])),
    _row("mechanisms.Mechanism", _User, dict(eps=0.1, delta=0.0), dict(eps="nonneg", delta="delta")),
    _method(
        "mechanisms.Mechanism.count_plus", lambda: _User(), "count_plus", dict(n=[3, 5], rng=0), dict(n="int0"), ["n"]
    ),
    # --- poisson, schedule ----------------------------------------------------------------------------------------
    *[
        _row(
            f"poisson.{f.__name__}",
            f,
            dict(x=[1.0, 3.0], alpha=[0.05, 0.1]),
            dict(x="nonneg", alpha="unit"),
            ["x", "alpha"],
        )
        for f in (P.lambda_left, P.lambda_right)
    ],
    _row(
        "poisson.count_threshold",
        P.count_threshold,
        dict(alpha=0.05, beta=0.05, gamma=1.5),
        dict(alpha="unit", beta="unit", gamma="gamma"),
    ),
    *[
        _row(f"poisson.{f.__name__}", f, dict(c=[1, 3], mean=[2.0, 0.5]), dict(c="int0", mean="nonneg"), ["c", "mean"])
        for f in (P.cdf, P.sf, P.logcdf, P.logsf)
    ],
    _row("schedule.omega", S.omega, dict(t=[1, 3]), dict(t="int1"), ["t"]),
    _row("schedule.log_inv_omega", S.log_inv_omega, dict(t=[1, 3]), dict(t="int1"), ["t"]),
    _row("schedule.beta_t", S.beta_t, dict(t=[1, 3], beta=0.05), dict(t="int1", beta="unit"), ["t"]),
    # --- bounds ---------------------------------------------------------------------------------------------------
    _row("bounds.Privacy", B.Privacy, dict(eps=1.0, delta=0.0), dict(eps="nonneg", delta="delta")),
    _row("bounds.gtm_privacy", B.gtm_privacy, dict(eps=1.0), dict(eps="pos")),
    _row("bounds.cohen_privacy", B.cohen_privacy, dict(eps=1.0, eps1=0.1), dict(eps="pos", eps1="pos")),
    _row("bounds.liu_talwar_privacy", B.liu_talwar_privacy, dict(eps=1.0, delta=1e-6), dict(eps="pos", delta="unit")),
    _row("bounds.lower_bound_privacy", B.lower_bound_privacy, dict(eps=1.0, delta=0.0), dict(eps="pos", delta="delta")),
    _row("bounds.gtm_requirement", B.gtm_requirement, dict(eps=1.0, eps1=0.1), dict(eps="pos", eps1="nonneg")),
    _row("bounds.cohen_requirement", B.cohen_requirement, dict(eps=1.0, eps1=0.1), dict(eps="pos", eps1="pos")),
    _row(
        "bounds.liu_talwar_requirement",
        B.liu_talwar_requirement,
        dict(eps=1.0, T=10),
        dict(eps="pos", T=[NAN, -INF, True, HUGE, 4.5, 0, -1]),
    ),
    _row("bounds.delta_prime", B.delta_prime, dict(eps=1.0, delta=0.01), dict(eps="pos", delta="delta")),
    _row(
        "bounds.lower_bound_requirement",
        B.lower_bound_requirement,
        dict(eps=1.0, beta=0.05, delta=0.0),
        dict(eps="pos", beta="unit", delta="delta"),
    ),
    *[
        _row(
            f"bounds.{f.__name__}",
            f,
            dict(t=3, eps=1.0, eps1=0.1, beta=0.05, theta=1.0),
            dict(t="int1", eps="pos", eps1="pos", beta="unit", theta="pos"),
        )
        for f in (B.gtm_log_noise_penalty, B.gtm_noise_penalty, B.gtm_noise_penalty_table)
    ],
    _row("bounds.gtm_theta_opt", B.gtm_theta_opt, dict(t=3, beta=0.05), dict(t="int1", beta="unit")),
    *[
        _row(
            f"bounds.{f.__name__}",
            f,
            dict(t=3, pstar=0.5, eps=1.0, eps1=0.1, beta=0.05, theta=1.0, gamma=1.5),
            dict(t="int1", pstar="unit", eps="pos", eps1="pos", beta="unit", theta="pos", gamma="gamma"),
        )
        for f in (B.gtm_rejection_threshold, B.gtm_rejection_threshold_table, B.gtm_sample_complexity)
    ],
    _row(
        "bounds.gtm_rejection_threshold(variant)",
        B.gtm_rejection_threshold,
        dict(t=3, pstar=0.5, eps=1.0, eps1=0.1, beta=0.05, theta=1.0, gamma=1.5, variant="direct"),
        dict(variant=["up", None, 1]),
    ),
    _row("bounds.theta_C", B.theta_C, dict(eps=1.0, eps1=0.1), dict(eps="pos", eps1="pos")),
    _row(
        "bounds.cohen_calls_per_step",
        B.cohen_calls_per_step,
        dict(pstar=0.5, beta=0.05, theta=8.0),
        dict(pstar="unit", beta="unit", theta="pos"),
    ),
    _row(
        "bounds.cohen_sample_complexity",
        B.cohen_sample_complexity,
        dict(pstar=0.5, eps=1.0, eps1=0.1, beta=0.05),
        dict(pstar="unit", eps="pos", eps1="pos", beta="unit"),
    ),
    *[
        _row(
            f"bounds.{f.__name__}",
            f,
            dict(t=3, pstar=0.5, eps=1.0, eps1=0.1, beta=0.05),
            dict(t="int1", pstar="unit", eps="pos", eps1="pos", beta="unit"),
        )
        for f in (
            B.cohen_rejection_threshold,
            B.cohen_rejection_threshold_as_stated,
            B.cohen_noise_penalty,
            B.cohen_rejection_threshold_table,
        )
    ],
    _row(
        "bounds.cohen_noise_penalty_table",
        B.cohen_noise_penalty_table,
        dict(t=3, eps=1.0, eps1=0.1, beta=0.05),
        dict(t="int1", eps="pos", eps1="pos", beta="unit"),
    ),
    _row("bounds.sigma_LT", B.sigma_LT, dict(eps=1.0, eps1=0.1, eps0=0.5), dict(eps="pos", eps1="pos", eps0="unit")),
    _row("bounds.C_LT", B.C_LT, dict(eps1=0.1, eps0=0.5), dict(eps1="pos", eps0="unit")),
    _row(
        "bounds.Delta_LT",
        B.Delta_LT,
        dict(eps1=0.1, eps0=0.5, T=10, delta=1e-6),
        dict(eps1="pos", eps0="unit", T="int1", delta="unit"),
    ),
    *[
        _row(
            f"bounds.{f.__name__}",
            f,
            dict(pstar=0.5, eps=1.0, eps1=0.1, beta=0.05, delta=1e-6, eps0=0.5, T=10),
            dict(pstar="unit", eps="pos", eps1="pos", beta="unit", delta="unit", eps0="unit", T="int1"),
        )
        for f in (B.log_N_LT, B.liu_talwar_check_params, B.liu_talwar_sample_complexity)
    ],
    _row(
        "bounds.liu_talwar_noise_penalty",
        B.liu_talwar_noise_penalty,
        dict(t=3, eps=1.0, eps1=0.1, beta=0.05, eps0=0.5),
        dict(t="int1", eps="pos", eps1="pos", beta="unit", eps0="unit"),
    ),
    *[
        _row(
            f"bounds.{f.__name__}",
            f,
            dict(t=3, pstar=0.5, eps=1.0, eps1=0.1, beta=0.05, eps0=0.5),
            dict(t="int1", pstar="unit", eps="pos", eps1="pos", beta="unit", eps0="unit"),
        )
        for f in (B.liu_talwar_rejection_threshold, B.liu_talwar_rejection_threshold_table)
    ],
    _row(
        "bounds.liu_talwar_moreover_bound",
        B.liu_talwar_moreover_bound,
        dict(R=1, pstar=0.5, eps=12.0, eps1=0.5, beta=0.5, eps0=0.5),
        dict(R="int1", pstar="unit", eps="pos", eps1="pos", beta="unit", eps0="unit"),
    ),
    _row(
        "bounds.alpha_sum_lower_bound",
        B.alpha_sum_lower_bound,
        dict(T=100, eps=1.0, beta=0.05, delta=0.0),
        dict(T="int1", eps="pos", beta="unit", delta="delta"),
    ),
    *[
        _row(
            f"bounds.{f.__name__}",
            f,
            dict(T=100, eps=1.0, eps1=0.1, beta=0.05, delta=0.0),
            dict(T="int1", eps="pos", eps1="pos", beta=_kind("unit", 0.6), delta="delta"),
        )
        for f in (B.lower_bound_log_noise_penalty, B.lower_bound_noise_penalty)
    ],
    *[
        _row(f"bounds.{f.__name__}", f, dict(pstar=0.8, pbar=0.3), dict(pstar="unit", pbar="unit"))
        for f in (B.threshold_ratio_case, B.threshold_ratio, B.threshold_odds_ratio)
    ],
    _row(
        "bounds.lower_bound_rejection_threshold",
        B.lower_bound_rejection_threshold,
        dict(T=100, pstar=0.5, eps=1.0, eps1=0.1, beta=0.05, delta=0.0, form="cases"),
        dict(T="int1", pstar="unit", eps="pos", eps1="pos", beta="unit", delta="delta", form=["x", None]),
    ),
    _row(
        "bounds.lower_bound_sample_complexity",
        B.lower_bound_sample_complexity,
        dict(pstar=0.4, eps=1.0, eps1=0.1, beta_II=0.05, delta=0.0),
        dict(pstar=_kind("unit", 0.6), eps="pos", eps1="pos", beta_II="unit", delta="delta"),
    ),
    _row(
        "bounds.halt_probability_lower",
        B.halt_probability_lower,
        dict(M=100, q=0.01, q0=0.5),
        dict(M="pos", q="closed", q0="closed"),
    ),
    _row(
        "bounds.cohen_pbar_max",
        B.cohen_pbar_max,
        dict(beta=0.05, theta=8.0, total_calls=1200),
        dict(beta=_kind("unit", 0.3), theta="pos", total_calls="pos"),
    ),
    _row(
        "bounds.cohen_false_halt_lower",
        B.cohen_false_halt_lower,
        dict(pbar=1e-3, theta=8.0, total_calls=1200),
        dict(pbar="closed", theta="pos", total_calls="pos"),
    ),
    _row(
        "bounds.ghazi_pbar_max",
        B.ghazi_pbar_max,
        dict(beta=0.05, T=100, G=10, pstar=0.5, theta_G=0.8),
        dict(beta="unit", T=_kind("int1", 2), G=_kind("int0", 0, 99), pstar="unit", theta_G="pos"),
    ),
    _row(
        "bounds.ghazi_bad_selection_lower",
        B.ghazi_bad_selection_lower,
        dict(T=100, G=10, pstar=0.5, pbar=0.01, theta_G=0.8),
        dict(T="int1", G=_kind("int0", 100), pstar="closed", pbar="closed", theta_G="pos"),
    ),
    _row("bounds.table1_entry", B.table1_entry, dict(row="privacy", method="GTM"), dict(row=["x", None], method=["x"])),
    # --- exact ----------------------------------------------------------------------------------------------------
    *[
        _row(f"exact.{f.__name__}", f, dict(a=[2.0, 5.0], x=[1.0, 0.5]), dict(a="pos", x="nonneg"), ["a", "x"])
        for f in (E.log_gammainc, E.log_gammaincc)
    ],
    _row(
        "exact.log_upper_gamma",
        E.log_upper_gamma,
        dict(s=[-0.5, 2.0], x=[0.5, 1.0]),
        dict(s="finite", x="pos"),
        ["s", "x"],
    ),
    _row(
        "exact.counted_success",
        E.counted_success,
        dict(p=[0.2, 0.3], s=[1, -1], delta=[0.0, 0.01], eps=[0.1, 0.1], pc=[0.8, 0.7]),
        dict(p="closed", s="sign", delta="delta", eps="nonneg", pc="closed"),
        ["p", "s", "delta", "eps", "pc"],
    ),
    _row(
        "exact.log_step_factors",
        E.log_step_factors,
        dict(a=[0.0, 3.0], q=[0.3, 0.5], eps=0.3, tau2=3.0, c=6, rho=10.0, s=1),
        dict(a="finite", q="closed", eps="nonneg", tau2="pos", c="int0", rho="pos", s="sign"),
        ["a", "q"],
    ),
    _row(
        "exact.Stream",
        E.Stream,
        dict(
            tau1=3.0,
            mu1=10.0,
            p=[0.3, 0.3],
            eps=[0.1, 0.1],
            tau2=[3.0, 3.0],
            c=[5, 6],
            rho=[10.0, 11.0],
            s=[1, 1],
            delta=[0.0, 0.0],
            pc=[0.7, 0.7],
        ),
        dict(
            tau1="pos",
            mu1="nonneg",
            p="closed",
            eps="nonneg",
            tau2="pos",
            c="int0",
            rho="pos",
            s="sign",
            delta="delta",
            pc="closed",
        ),
        ["p", "eps", "tau2", "c", "rho", "s", "delta", "pc"],
    ),
    _row(
        "exact.Stream.from_calibration",
        E.Stream.from_calibration,
        dict(cal=CAL, p=[0.3, 0.3], eps_t=[0.1, 0.1], pstar=[0.5, 0.5], delta=[0.0, 0.0]),
        dict(p="closed", eps_t="pos", pstar="unit", delta="delta"),
        ["p", "eps_t", "pstar", "delta"],
    ),
    _row(
        "exact.Stream.from_params",
        E.Stream.from_params,
        dict(params=[ST, ST], p=[0.3, 0.3], delta=0.0, tau1=3.0, mu1=10.0),
        dict(p="closed", delta="delta", tau1="pos", mu1="nonneg", params=[[]]),
        ["p"],
    ),
    _method(
        "exact.Stream.with_p",
        lambda: STREAM,
        "with_p",
        dict(p=[0.2, 0.4], pc=[0.8, 0.6]),
        dict(p="closed", pc="closed"),
        ["p", "pc"],
    ),
    _method("exact.Stream.head", lambda: STREAM, "head", dict(T=1), dict(T=_kind("int1", 3))),
    _row(
        "exact.panel_width",
        E.panel_width,
        dict(tau1=3.0, tau2=[2.0, 4.0], eps=[0.1, 0.1], c=[30, 40]),
        dict(tau1="pos", tau2="pos", eps="nonneg", c="int0"),
        ["tau2", "eps", "c"],
    ),
    _row(
        "exact.x_nodes",
        E.x_nodes,
        dict(tau1=1.0, mu1=2.0, h=51.0, log_floor=-100.0),
        dict(tau1="pos", mu1="nonneg", h=_kind("pos", 1e-300), log_floor="neg"),
    ),
    _row(
        "exact.logsumexp",
        E.logsumexp,
        dict(v=[-1.0, -2.0], axis=-1),
        dict(v=[NAN, HUGE, True, "x"], axis=[True, 4.5, 5, NAN, HUGE]),
        ["v"],
    ),
    _row(
        "exact.transcript_log_probs",
        E.transcript_log_probs,
        dict(stream=STREAM, p_halt=[0.2, 0.2], pc_halt=[0.8, 0.8], log_floor=-100.0, refine=1.0, shared_eta1=True),
        dict(p_halt="closed", pc_halt="closed", log_floor="neg", refine="pos", shared_eta1="bool", stream=[None, 0.5]),
        ["p_halt", "pc_halt"],
    ),
    _row(
        "exact.step_log_halt",
        E.step_log_halt,
        dict(st=ST, p=[0.3, 0.5], delta=0.0, log_floor=-100.0, refine=1.0),
        dict(p="closed", delta="delta", log_floor="neg", refine="pos", st=[None]),
        ["p"],
    ),
    _row(
        "exact.step_log_probs",
        E.step_log_probs,
        dict(st=ST, p=[0.3, 0.5], delta=0.0, eta1_max=None, log_floor=-100.0, refine=1.0),
        dict(p="closed", delta="delta", eta1_max="pos", log_floor="neg", refine="pos", st=[None]),
        ["p"],
    ),
    # --- privacy --------------------------------------------------------------------------------------------------
    _row(
        "privacy.neighbour_interval",
        PR.neighbour_interval,
        dict(p=[0.3, 0.5], eps=[1.0, 1.0], delta=[0.0, 0.01], pc=[0.7, 0.5]),
        dict(p="closed", eps="nonneg", delta="delta", pc="closed"),
        ["p", "eps", "delta", "pc"],
    ),
    _row(
        "privacy.worst_neighbour_losses",
        PR.worst_neighbour_losses,
        dict(stream=STREAM, min_log_prob=None, log_floor=-100.0, shared_eta1=True),
        dict(min_log_prob="finite", log_floor="neg", shared_eta1="bool", stream=[None]),
    ),
    _row(
        "privacy.grid_losses",
        PR.grid_losses,
        dict(base=STREAM, grid=[0.1, 0.5], shared_eta1=True, log_floor=-100.0),
        dict(grid="closed", shared_eta1="bool", log_floor="neg", base=[None]),
        ["grid"],
    ),
    _row(
        "privacy.search_worst_case",
        PR.search_worst_case,
        dict(
            base=STREAM,
            claims_continue=[0.5, 0.5],
            claims_halt=[1.0, 1.0],
            grid=[0.0, 0.5, 1.0],
            full_dim_T=1,
            nm_iters=1,
            shared_eta1=True,
            log_floor=-100.0,
        ),
        dict(
            claims_continue="finite",
            claims_halt="finite",
            grid="closed",
            full_dim_T="int1",
            nm_iters="int1",
            shared_eta1="bool",
            log_floor="neg",
            base=[None],
        ),
        ["claims_continue", "claims_halt", "grid"],
    ),
    _row("privacy.transcript_loss_bounds", PR.transcript_loss_bounds, dict(stream=STREAM), dict(stream=[None, 1.0])),
    _row(
        "privacy.expost_claims",
        PR.expost_claims,
        dict(cal=POST, T=2, eps_t=[0.1, 0.1]),
        dict(T="int1", eps_t="nonneg", cal=[None]),
        ["eps_t"],
    ),
    # --- svt_variants, measure ------------------------------------------------------------------------------------
    _row(
        "svt_variants.actual_epsilon",
        SV.actual_epsilon,
        dict(variant="alg3", eps=1.0, c=1, m=10),
        dict(eps="pos", c="int1", m="int1", variant=["alg7", None]),
    ),
    _row(
        "svt_variants.SVTVariant",
        SV.SVTVariant,
        dict(variant="alg1", eps=1.0, threshold=0.0, c=1, sensitivity=1.0),
        dict(eps="pos", threshold="finite", c="int1", sensitivity="pos", variant=["alg7", None]),
    ),
    _method(
        "svt_variants.SVTVariant.run",
        lambda: SVT,
        "run",
        dict(queries=[0.0, 1.0], n=3, rng=0),
        dict(queries="finite", n="int0"),
        ["queries"],
    ),
    _row(
        "svt_variants.first_top",
        SV.first_top,
        dict(answers=[[0, 1], [1, -1]]),
        dict(answers=[[[0, 2]], [0, 1], NAN]),
        ["answers"],
    ),
    _row(
        "svt_variants.pattern_distance",
        SV.pattern_distance,
        dict(answers=[[0, 1], [1, -1]], k=1),
        dict(k=_kind("int0", 3), answers=[[[0, 2]]]),
    ),
    _row("svt_variants.witness_pairs", SV.witness_pairs, dict(m=4), dict(m=_kind("int1", 1))),
    _row(
        "measure.CriticalP",
        ME.CriticalP,
        dict(p_crit=[0.1, 0.5], samples=[1.0, 2.0]),
        dict(p_crit=[NAN, HUGE, True], samples=[NAN, -1.0, HUGE]),
        ["p_crit", "samples"],
    ),
    _method(
        "measure.CriticalP.halts", lambda: CP_RESULT, "halts", dict(p=[0.2, 0.6]), dict(p=[NAN, HUGE, True]), ["p"]
    ),
    _row("measure.blocks", ME.blocks, dict(T=5, runs=100, cells=200), dict(T="int1", runs="int1", cells="int1")),
    _row(
        "measure.logit_grid",
        ME.logit_grid,
        dict(pstar=0.5, p_min=0.3, step=0.5),
        dict(pstar="unit", p_min="unit", step=_kind("pos", 1e-300)),
    ),
    _row(
        "measure.measured_pbar",
        ME.measured_pbar,
        dict(cp=CP_RESULT, grid=[0.05, 0.2], beta=0.05, confidence=0.95),
        dict(beta="unit", confidence="unit", grid=[NAN, [0.2, 0.1]], cp=[None]),
        ["grid"],
    ),
    _row(
        "measure.clopper_pearson",
        ME.clopper_pearson,
        dict(k=[5, 6], n=[100, 100], confidence=0.95),
        dict(k=_kind("int0", 101), n="int0", confidence="unit"),
        ["k", "n"],
    ),
    # --- audit ----------------------------------------------------------------------------------------------------
    _row(
        "audit.bound",
        A.bound,
        dict(k_a=8, k_b=3, n=10, alpha=0.05, delta=0.0, n_b=10),
        dict(k_a=_kind("int0", 11), k_b=_kind("int0", 11), n="int0", alpha="unit", delta="delta", n_b="int0"),
    ),
    _row(
        "audit.runs_to_flag",
        A.runs_to_flag,
        dict(k_a=40, k_b=10, n=1000, claimed=1.0, alpha=0.025, delta=0.0),
        dict(k_a="int0", k_b="int0", n="int1", claimed="nonneg", alpha="unit", delta="delta"),
    ),
    _row(
        "audit.verdict",
        A.verdict,
        dict(cells=[dict(rank=0, k_a=3, k_b=1, n_a=10, n_b=10)], confidence=0.95, delta=0.0),
        dict(
            confidence="unit",
            delta="delta",
            cells=[[], [dict(rank=0, k_a=11, k_b=1, n_a=10, n_b=10)], [dict(rank=NAN, k_a=1, k_b=1, n_a=10, n_b=10)]],
        ),
    ),
    _row(
        "audit.audit",
        A.audit,
        dict(
            sample=lambda x, k, r: r.integers(0, 2, k),
            pairs={"p": (0, 1)},
            codings=[A.Coding("c", ("o",), lambda x: x)],
            n=50,
            rng=0,
            confidence=0.95,
            delta=0.0,
            pilot=20,
            candidates=2,
            claimed_eps=1.0,
        ),
        dict(
            n="int1",
            confidence="unit",
            delta="delta",
            pilot="int1",
            candidates="int1",
            claimed_eps="nonneg",
            rng=["seed", 1.5, True, -1],
            sample=[None],
            pairs=[{}, None],
            codings=[[], [None]],
        ),
    ),
    _row(
        "audit.estimate_epsilon",
        A.estimate_epsilon,
        dict(
            run_a=lambda n, r: r.integers(0, 2, n),
            run_b=lambda n, r: r.integers(0, 2, n),
            n=50,
            rng=0,
            confidence=0.95,
            delta=0.0,
            pilot=20,
            candidates=2,
            claimed_eps=1.0,
        ),
        dict(
            n="int1",
            confidence="unit",
            delta="delta",
            pilot="int1",
            candidates="int1",
            claimed_eps="nonneg",
            rng=["seed", 1.5, True, -1],
            run_a=[None],
        ),
    ),
    _row(
        "audit.Coding",
        A.Coding,
        dict(name="c", features=("o",), code=lambda x: x, ops=None),
        dict(name=[None, 1], features=[(), ("a", "b", "c"), "o"], code=[None], ops=[(("<",),), (("==",), ("==",))]),
    ),
    # --- baselines ------------------------------------------------------------------------------------------------
    _row(
        "baselines.AboveThreshold",
        AT.AboveThreshold,
        dict(eps=1.0, beta=0.05, T=4, tau=0.0),
        dict(eps="pos", beta="unit", T="int1", tau="finite"),
    ),
    _method(
        "baselines.AboveThreshold.run",
        lambda: ABOVE,
        "run",
        dict(mechanisms=[0.0, 1.0], runs=2, rng=0),
        dict(runs="int1", mechanisms=[[0.0, NAN], [0.0] * 5]),
        ["mechanisms"],
        names={"mechanisms": ("mechanisms", "T")},
    ),
    _method(
        "baselines.AboveThreshold.admit",
        lambda: ABOVE,
        "admit",
        dict(mechanisms=[0.0, 1.0]),
        dict(mechanisms=[[0.0, NAN], [[0.0]]]),
        ["mechanisms"],
    ),
    _method(
        "baselines.AboveThreshold.exact_error",
        lambda: ABOVE,
        "exact_error",
        dict(p=[0.0, 1.0], halt_at_T=True),
        dict(p="finite", halt_at_T="bool"),
        ["p"],
    ),
    _row(
        "baselines.CohenTester",
        CO.CohenTester,
        dict(eps=1.0, eps1=0.1, beta=0.05, pstar=0.5, T=4),
        dict(eps="pos", eps1="pos", beta="unit", pstar="unit", T="int1"),
    ),
    _method(
        "baselines.CohenTester.draw_pdagger",
        lambda: COHEN,
        "draw_pdagger",
        dict(runs=3, rng=0),
        dict(runs="int1", rng=["seed", 1.5, True]),
    ),
    _method(
        "baselines.CohenTester.run",
        lambda: COHEN,
        "run",
        dict(mechanisms=bernoulli_stream([0.3, 0.3], 0.1), runs=2, rng=0),
        dict(runs="int1"),
    ),
    _row(
        "baselines.first_success_position",
        CO.first_success_position,
        dict(E=[5, 9], K=[2, 1], rng=0),
        dict(E="int1", K=_kind("int1", 10)),
        ["E", "K"],
    ),
    _row(
        "baselines.cohen_tester",
        CO.cohen_tester,
        dict(cfg={"eps": 1.0, "beta": 0.05}, pstar=0.5, eps_ratio=0.1, T=4),
        dict(pstar="unit", eps_ratio="pos", T="int1", cfg=[{}, None, {"eps": NAN, "beta": 0.05}]),
        names={"cfg": ("cfg", "eps")},
    ),
    _row("baselines.GhaziSelection", GH.GhaziSelection, dict(eps=1.0, eps1=0.1), dict(eps="pos", eps1="pos")),
    _method("baselines.GhaziSelection.draw_k", lambda: GHAZI, "draw_k", dict(runs=3, rng=0), dict(runs="int1")),
    _method(
        "baselines.GhaziSelection.run",
        lambda: GHAZI,
        "run",
        dict(mechanisms=bernoulli_stream([0.3, 0.3], 0.1), runs=2, rng=0),
        dict(runs="int1"),
    ),
    _row(
        "baselines.ghazi_tester",
        GH.ghazi_tester,
        dict(cfg={"eps": 1.0}, pstar=0.5, eps_ratio=0.1, T=4),
        dict(pstar="unit", eps_ratio="pos", T="int1", cfg=[{}, None]),
    ),
    _row(
        "baselines.LiuTalwarTester",
        LT.LiuTalwarTester,
        dict(eps=12.0, eps1=0.5, beta=0.5, delta=1e-6, eps0=0.5, pstar=0.5, T=4),
        dict(eps="pos", eps1="pos", beta="unit", delta="unit", eps0="unit", pstar="unit", T="int1"),
    ),
    _method("baselines.LiuTalwarTester.log_phi", lambda: LIU, "log_phi", dict(x=[0.2, 0.5]), dict(x="closed"), ["x"]),
    _method(
        "baselines.LiuTalwarTester.run",
        lambda: LIU,
        "run",
        dict(mechanisms=bernoulli_stream([0.3, 0.3], 0.5), runs=2, rng=0),
        dict(runs="int1"),
    ),
    _row(
        "baselines.liu_talwar_tester",
        LT.liu_talwar_tester,
        dict(cfg={"eps": 12.0, "beta": 0.5, "eps0": 0.5}, pstar=0.5, eps_ratio=0.5 / 12, T=4),
        dict(pstar="unit", eps_ratio="pos", T="int1", cfg=[{}, None, {"eps": 12.0, "beta": 0.5, "eps0": "x"}]),
        names={"cfg": ("cfg", "eps0")},
    ),
    _row(
        "baselines.optimal_eps0",
        LT.optimal_eps0,
        dict(pstar=0.5, eps=1.0, eps1=0.1, beta=0.05, delta=1e-6, T=10),
        dict(pstar="unit", eps="pos", eps1="pos", beta="unit", delta="unit", T="int1"),
    ),
    *[
        _method(f"baselines.{type(obj).__name__}.{meth}", (lambda o: lambda: o)(obj), meth, {arg: 2}, {arg: "int1"})
        for obj in (COHEN, GHAZI, LIU, ABOVE)
        for meth, arg in (
            ("pbar", "t"),
            ("halt_p", "t"),
            ("sample_bound", "t"),
            ("expected_samples", "t"),
            ("amortized_sample_bound", "T"),
            ("sample_budget", "T"),
        )
    ],
    *[
        _method(
            f"baselines.{type(obj).__name__}.critical_p",
            (lambda o: lambda: o)(obj),
            "critical_p",
            dict(T=2, runs=3, rng=0),
            dict(T="int1", runs="int1"),
        )
        for obj in (COHEN, GHAZI, LIU, ABOVE)
    ],
    *[
        _method(
            f"baselines.{type(obj).__name__}.exact_error",
            (lambda o: lambda: o)(obj),
            "exact_error",
            dict(p=[0.2, 0.3], halt_at_T=False),
            dict(p="closed", halt_at_T="bool"),
            ["p"],
        )
        for obj in (COHEN, GHAZI, LIU)
    ],
    # --- co.params, composition, trajectory -----------------------------------------------------------------------
    _row(
        "co.BatchToCOParams",
        CP.BatchToCOParams,
        dict(
            eps=30.0,
            beta=0.05,
            pstar=0.45,
            kappa=0.5,
            gamma=2.0,
            C_1=2.0,
            C_H=2.0,
            C_beta=1 / 3,
            delta=0.0,
            C_eps=None,
            C_delta=None,
        ),
        dict(
            eps=_kind("pos", 1000.0),
            beta=_kind("unit", 0.5),
            pstar=_kind("unit", 0.6),
            kappa="pos",
            gamma="gamma",
            C_1="pos",
            C_H="pos",
            C_beta=_kind("unit", 0.5),
            delta="delta",
            C_eps=_kind("pos", 1.0),
            C_delta=[NAN, INF, True, HUGE, 1.0, -1.0],
        ),
    ),
    _row(
        "co.BatchToCOParams.from_config",
        CP.BatchToCOParams.from_config,
        dict(
            cfg=dict(
                eps=30.0,
                beta=0.05,
                pstar=0.45,
                kappa=0.5,
                gamma=2.0,
                C_1=2.0,
                C_H=2.0,
                C_beta=1 / 3,
                log_beta="instance",
            ),
            eps=None,
            kappa=None,
            delta=0.0,
        ),
        dict(eps="pos", kappa="pos", delta="delta", cfg=[{}, None]),
    ),
    *[
        _method(f"co.BatchToCOParams.{m}", lambda: PARAMS, m, dict(i=[2, 3]), dict(i="int1"), ["i"])
        for m in ("weight", "h", "eps_i", "beta_i", "xi", "delta_cap")
    ],
    *[
        _method(
            f"co.BatchToCOParams.{m}", lambda: PARAMS, m, dict(i=[2, 3], t=[4, 5]), dict(i="int1", t="int1"), ["i", "t"]
        )
        for m in ("log4_over", "eps_it", "delta_it", "phi_it", "purified_thresholds", "batch_eps")
    ],
    _method("co.BatchToCOParams.calibration", lambda: PARAMS, "calibration", dict(i=2), dict(i="int1")),
    _method(
        "co.BatchToCOParams.privacy_budget",
        lambda: PARAMS,
        "privacy_budget",
        dict(i_max=100),
        dict(i_max=_kind("int1", 1, 10**9)),
    ),
    _row(
        "co.purification_phi_array",
        CP.purification_phi_array,
        dict(eps_t=[1.0, 0.5], delta_t=[0.0, 0.01]),
        dict(eps_t="pos", delta_t="delta"),
        ["eps_t", "delta_t"],
    ),
    _row(
        "co.delta_ledger",
        CP.delta_ledger,
        dict(params=PARAMS, eps_t_at_checkpoints=[0.01, 0.02], ell_at_checkpoints=[2, 3]),
        dict(eps_t_at_checkpoints="pos", ell_at_checkpoints="int1", params=[None]),
        ["eps_t_at_checkpoints", "ell_at_checkpoints"],
    ),
    _row(
        "co.utility_guarantee",
        CP.utility_guarantee,
        dict(params=PARAMS, V=[1e4, 1e4], ell=[1, 3], t_ell=[1, 40], t=[50, 100]),
        dict(V="finite", ell="int1", t_ell="int1", t=_kind("int1", 1), params=[None]),
        ["V", "ell", "t_ell", "t"],
    ),
    _row(
        "co.calls_bound",
        CP.calls_bound,
        dict(params=PARAMS, ell=2, s=3, t=4),
        dict(ell="int1", s="int1", t="int1", params=[None]),
    ),
    _row(
        "co.checkpoint_margin",
        CP.checkpoint_margin,
        dict(params=PARAMS, ell=[2, 3], t=[10, 20], opt=[100.0, 200.0]),
        dict(ell="int1", t="int1", opt="nonneg", params=[None]),
        ["ell", "t", "opt"],
    ),
    _row(
        "co.max_checkpoints",
        CP.max_checkpoints,
        dict(params=PARAMS, opt_t=100.0, t=50, ell_cap=100),
        dict(opt_t="nonneg", t="int1", ell_cap=_kind("int1", 1, 10**9), params=[None]),
    ),
    _row(
        "co.advanced_composition_eps",
        CC.advanced_composition_eps,
        dict(eps=1.0, delta=1e-6, T=10),
        dict(eps="pos", delta="unit", T="int1"),
    ),
    _row(
        "co.per_round_eps", CC.per_round_eps, dict(eps=1.0, delta=1e-6, k=5), dict(eps="pos", delta="delta", k="int1")
    ),
    _row("co.trajectory_eps_batch", TR.trajectory_eps_batch, dict(params=PARAMS, t=100), dict(t="int1", params=[None])),
    # --- co.mechanisms, batch_to_co -------------------------------------------------------------------------------
    _row(
        "co.laplace_tail",
        CM.laplace_tail,
        dict(h=[2.0, 1.0], value=[2.0, 0.0], eps_t=[1.0, 0.5]),
        dict(h="finite", value="finite", eps_t="pos"),
        ["h", "value", "eps_t"],
    ),
    _row(
        "co.TestMechanism",
        CM.TestMechanism,
        dict(problem=MAXCUT, t=3, eps_t=1.0, delta_t=0.0, h=1.5, lazy=True),
        dict(t=_kind("int1", 5), eps_t="pos", delta_t="delta", h="finite", lazy="bool", problem=[None, 1.0]),
    ),
    _method(
        "co.TestMechanism.count_plus",
        lambda: CM.TestMechanism(MAXCUT, 3, 1.0, 0.0, 1.5),
        "count_plus",
        dict(n=[3, 4], rng=0),
        dict(n="int0"),
        ["n"],
    ),
    _row(
        "co.ScoredMechanism",
        CM.ScoredMechanism,
        dict(problem=MAXCUT, t=3, eps_t=1.0, delta_t=0.0),
        dict(t=_kind("int1", 5), eps_t="pos", delta_t="delta", problem=[None]),
    ),
    _method(
        "co.ScoredMechanism.draw",
        lambda: CM.ScoredMechanism(MAXCUT, 3, 1.0, 0.0),
        "draw",
        dict(size=3, rng=0),
        dict(size="int0"),
    ),
    _row(
        "co.threshold_select_rounds",
        CM.threshold_select_rounds,
        dict(xi=0.1, eps0=0.5),
        dict(xi=[*COMMON, 0, -0.5, 1.5], eps0=[*COMMON, 0, 1.5]),
    ),
    _row(
        "co.threshold_select",
        CM.threshold_select,
        dict(Q=_Q(), tau=0.9, xi=0.01, eps0=0.5, rng=0, batch=16),
        dict(tau="finite", xi=[*COMMON, 0, 1.5], eps0=[*COMMON, 0, 1.5], batch="int1", Q=[None]),
    ),
    *[
        _method(
            f"co.{type(p).__name__}.{m}",
            (lambda q: lambda: q)(p),
            m,
            dict(t=2, eps=1.0, delta=0.0, size=3, rng=0),
            dict(t=_kind("int1", p.T + 1), eps="pos", delta="delta", size="int0"),
        )
        for p in (MAXCUT, KCUT, DS, DP, DKS, *PANDAS_PROBLEMS)
        for m in ("sample", "scores", "sample_scored")
    ],
    *[
        _method(
            f"co.{type(p).__name__}.score_distribution",
            (lambda q: lambda: q)(p),
            "score_distribution",
            dict(t=2, eps=1.0, delta=0.0),
            dict(t=_kind("int1", p.T + 1), eps="pos", delta="delta"),
        )
        for p in (MAXCUT, DP, DS)
    ],
    *[
        _method(
            f"co.{type(p).__name__}.upper", (lambda q: lambda: q)(p), "upper", dict(t=2), dict(t=_kind("int1", p.T + 1))
        )
        for p in (MAXCUT, DS, DKS, *PANDAS_PROBLEMS)
    ],
    _method("co.MaxCut.value", lambda: MAXCUT, "value", dict(t=2, Y=[0, 3]), dict(t=_kind("int1", 5), Y="int0"), ["Y"]),
    _method(
        "co.CardinalityCut.value",
        lambda: KCUT,
        "value",
        dict(t=2, Y=[[0, 1]]),
        dict(t=_kind("int1", 5), Y=_kind("int0", 7)),
    ),
    _method(
        "co.CardinalityCut.members", lambda: KCUT, "members", dict(Y=[[0, 1], [2, 3]]), dict(Y=_kind("int0", 7)), ["Y"]
    ),
    _method(
        "co.CardinalityCut.greedy",
        lambda: KCUT,
        "greedy",
        dict(t=2, eps=1.0, delta=0.0, size=3, rng=0),
        dict(t=_kind("int1", 5), eps="pos", delta="delta", size="int0", rng=["seed", True]),
    ),
    _method(
        "co.CardinalityCut.round_eps",
        lambda: KCUT,
        "round_eps",
        dict(eps=1.0, delta=0.0),
        dict(eps="pos", delta="delta"),
    ),
    _method(
        "co.DensestSubgraph.value",
        lambda: DS,
        "value",
        dict(t=2, Y=[[True, True, False, False]]),
        dict(t=_kind("int1", 4), Y=[[[2, 0, 0, 0]], [[True, True]], NAN]),
    ),
    _method(
        "co.DensestKSubgraph.value",
        lambda: DKS,
        "value",
        dict(t=2, Y=[[0, 1, 2]]),
        dict(t=_kind("int1", 4), Y=_kind("int0", 4)),
    ),
    _row(
        "co.batch_to_co",
        BC.batch_to_co,
        dict(problem=MAXCUT, params=PARAMS, runs=2, rng=0, record=[1, 4], block=8, select=True),
        dict(
            runs="int1",
            record=_kind("int1", 5),
            block=_kind("int1", 7),
            select="bool",
            rng=["seed", True],
            problem=[None],
            params=[None, [], 1.0],
        ),
        ["record"],
    ),
    _row("co.geometric_steps", BC.geometric_steps, dict(kappa=1.0, T=20), dict(kappa="pos", T="int1")),
    _row(
        "co.baselines",
        BC.baselines,
        dict(problem=MAXCUT, eps=4.0, runs=2, rng=0, kappa=0.5, delta_adv=1e-6, record=[1, 4], delta=0.0),
        dict(
            eps="pos",
            runs="int1",
            kappa="pos",
            delta_adv="unit",
            record=_kind("int1", 5),
            delta="delta",
            rng=["seed", True],
            problem=[None],
        ),
        ["record"],
    ),
    # --- co.graphs, dks, kcut, maxcut, submodular -----------------------------------------------------------------
    _row(
        "co.EdgeStream",
        G.EdgeStream,
        dict(
            name="toy",
            n=3,
            pairs=np.array([[0, 1], [1, 2]]),
            step_ptr=np.array([0, 1, 3]),
            ins_pair=np.array([0, 1, 0]),
            ins_w=np.ones(3),
            labels=["a", "b"],
        ),
        dict(
            n="int1",
            pairs=[np.array([[1, 0], [1, 2]]), np.array([[0, 1], [1, 3]])],
            step_ptr=[np.array([0, 1, 4]), np.array([0, 1.5, 3])],
            ins_pair=[np.array([0, 2, 0])],
            ins_w=[np.array([1.0, NAN, 1.0]), np.array([1.0, 0.0, 1.0])],
            labels=[["a"]],
        ),
    ),
    _row(
        "co.EdgeStream.from_weights",
        G.EdgeStream.from_weights,
        dict(name="toy", n=3, pairs=np.array([[0, 1], [1, 2]]), W=[[0.0, 1.0], [2.0, 1.0]], labels=None),
        dict(n="int1", W="nonneg", pairs=[[[1, 0], [1, 2]]]),
        ["W"],
    ),
    _method("co.EdgeStream.active", lambda: GS, "active", dict(t=2), dict(t=_kind("int0", 4))),
    _method("co.EdgeStream.weights", lambda: GS, "weights", dict(t=2), dict(t=_kind("int0", 4))),
    _row(
        "co.edge_stream",
        G.edge_stream,
        dict(u=[0, 1, 2], v=[1, 2, 0], step=[0, 0, 1], n=3, name="toy", labels=None, multigraph=False),
        dict(u=_kind("int0", 3), v=_kind("int0", 3), step="int0", n="int1", multigraph="bool", labels=[["a"]]),
        ["u", "v", "step"],
    ),
    _row("co.StreamState", G.StreamState, dict(stream=GS), dict(stream=[None, 1.0])),
    _method("co.StreamState.at", lambda: G.StreamState(GS), "at", dict(t=2), dict(t=_kind("int0", 4))),
    _row(
        "co.burst_stream",
        G.burst_stream,
        dict(n=6, base_edges=5, T=10, t_burst=4, burst=12, clique=2, seed=0),
        dict(
            n=_kind("int1", 1),
            base_edges=_kind("int1", 16),
            T="int1",
            t_burst=_kind("int1", 11),
            burst="int0",
            clique=_kind("int1", 1, 7),
            seed=["seed", 1.5, True, -1],
        ),
    ),
    _row(
        "co.densest_subgraph_lp",
        G.densest_subgraph_lp,
        dict(n=3, pairs=np.array([[0, 1], [0, 2]]), w=[1.0, 2.0]),
        dict(n="int1", w="nonneg", pairs=[np.array([[0, 3], [0, 2]])]),
        ["w"],
    ),
    _row(
        "co.weighted_core",
        G.weighted_core,
        dict(n=3, pairs=np.array([[0, 1], [0, 2]]), w=[1.0, 2.0], level=1.0),
        dict(n="int1", w="nonneg", level="finite"),
        ["w"],
    ),
    _row(
        "co.densest_subgraph_exact",
        G.densest_subgraph_exact,
        dict(stream=GS, steps=[1, 3]),
        dict(steps=_kind("int1", 4), stream=[None]),
        ["steps"],
    ),
    _row(
        "co.upper_from_exact",
        G.upper_from_exact,
        dict(T=4, steps=[2, 4], exact=[1.0, 3.0]),
        dict(T="int1", steps=_kind("int1", 5), exact="finite"),
        ["steps", "exact"],
    ),
    _row(
        "co.densest_subgraph_opt", G.densest_subgraph_opt, dict(stream=GS, stride=2), dict(stride="int1", stream=[None])
    ),
    _row(
        "co.DensestSubgraph",
        G.DensestSubgraph,
        dict(stream=GS, opt=[1.0, 1.0, 1.0], opt_kind=None, chunk=256),
        dict(opt="nonneg", chunk="int1", opt_kind=[["exact"], ["x", "exact", "exact"]], stream=[None]),
        ["opt"],
    ),
    _row(
        "co.DensestPair",
        G.DensestPair,
        dict(stream=GS, opt=[1.0, 1.0, 1.0], opt_kind=None, chunk=256),
        dict(opt="nonneg", chunk="int1"),
        ["opt"],
    ),
    _row("co.truncate", G.truncate, dict(stream=GS, T_max=2), dict(T_max="int1", stream=[None])),
    _row(
        "co.dks_value",
        DK.dks_value,
        dict(n=4, pairs=np.array([[0, 1], [1, 2]]), w=[1.0, 1.0], S=[[0, 1, 2]]),
        dict(n="int1", w="nonneg", S=_kind("int0", 4)),
        ["w", "S"],
    ),
    _row(
        "co.noisy_degree_topk",
        DK.noisy_degree_topk,
        dict(deg=[5.0, 0.0, 9.0], k=2, eps=10.0, size=3, rng=0),
        dict(deg="finite", k=_kind("int1", 4), eps="pos", size="int0"),
        ["deg"],
    ),
    _row(
        "co.capped_degree_bound",
        DK.capped_degree_bound,
        dict(n=4, pairs=np.array([[0, 1], [1, 2]]), w=[1.0, 1.0], k=3),
        dict(n="int1", w="nonneg", k=_kind("int1", 5)),
        ["w"],
    ),
    _row(
        "co.greedy_peel",
        DK.greedy_peel,
        dict(n=4, pairs=np.array([[0, 1], [1, 2]]), w=[1.0, 1.0], k=2, candidates=200),
        dict(n="int1", w="nonneg", k=_kind("int1", 5), candidates="int1"),
        ["w"],
    ),
    _row(
        "co.dks_opt_bounds",
        DK.dks_opt_bounds,
        dict(stream=GS, k=3, density_opt=[1.0, 1.0, 1.0]),
        dict(k=_kind("int1", 5), density_opt="nonneg", stream=[None]),
        ["density_opt"],
    ),
    _row(
        "co.DensestKSubgraph",
        DK.DensestKSubgraph,
        dict(stream=GS, k=3, opt=[1.0, 2.0, 3.0], opt_kind=["exact"] * 3),
        dict(k=_kind("int1", 1, 5), opt="nonneg", opt_kind=[["x"] * 3], stream=[None]),
        ["opt"],
    ),
    _row(
        "co.CardinalityCut",
        KC.CardinalityCut,
        dict(n=5, edges=np.array([[0, 1], [1, 2]]), k=2, groups=2, cap=2),
        dict(n=_kind("int1", 1, 25), edges=_kind("int0", 5), k=_kind("int1", 6), groups=_kind("int1", 1), cap="int1"),
        ["edges"],
    ),
    _row(
        "co.MaxCut",
        MC.MaxCut,
        dict(n=4, edges=np.array([[0, 1], [1, 2]])),
        dict(n=_kind("int1", 1, 23), edges=_kind("int0", 4)),
        ["edges"],
    ),
    _row(
        "co.TableRow",
        importlib.import_module("privtest.co.tables").TableRow,
        dict(work="w", setting="s", batch="b", co="c"),
        dict(work=[None, 1.0], co=[None]),
    ),
]


def _pandas_rows() -> list[Row]:
    """The rows of the functions that read a DataFrame."""
    return [
        _method(
            "co.FacilityLocation.value",
            lambda: FL,
            "value",
            dict(t=2, Y=[[0, 1]]),
            dict(t=_kind("int1", FL.T + 1), Y=_kind("int0", 9)),
        ),
        _row(
            "co.collegemsg_stream",
            G.collegemsg_stream,
            dict(
                df=pd.DataFrame({"src": [1, 2], "dst": [2, 3], "time": pd.to_datetime(["2004-04-15", "2004-04-17"])}),
                freq="1D",
            ),
            dict(df=[None, pd.DataFrame({"src": [1]})], freq=[None, 1]),
        ),
        _row(
            "co.collegemsg_messages_stream",
            G.collegemsg_messages_stream,
            dict(df=pd.DataFrame({"src": [1], "dst": [2]})),
            dict(df=[None, pd.DataFrame({"x": [1]}), pd.DataFrame({"src": [], "dst": []})]),
        ),
        _row(
            "co.primary_school_stream",
            G.primary_school_stream,
            dict(df=pd.DataFrame({"t": [0, 900], "i": [1, 2], "j": [2, 3]}), seconds=600),
            dict(seconds="int1", df=[None]),
        ),
        _row(
            "co.primary_school_contacts_stream",
            G.primary_school_contacts_stream,
            dict(df=pd.DataFrame({"i": [1], "j": [2]})),
            dict(df=[None, pd.DataFrame({"i": [1]})]),
        ),
        _row(
            "co.top_users_stream",
            MC.top_users_stream,
            dict(df=pd.DataFrame({"src": [1, 2, 3], "dst": [2, 3, 1]}), k=3),
            dict(k=_kind("int1", 1), df=[None, pd.DataFrame({"src": [1]})]),
        ),
        _row(
            "co.FacilityLocation",
            SU.FacilityLocation,
            dict(
                stops=STOPS,
                k=2,
                grid=3,
                radius_km=3.0,
                groups=None,
                cap=1,
                T_max=None,
                chunk=1024,
                step_days=1,
                start="2017-03-01",
                end="2017-03-10",
                composition="basic",
            ),
            dict(
                k=_kind("int1", 10),
                grid="int1",
                radius_km="pos",
                groups="int1",
                cap="int1",
                T_max="int1",
                chunk="int1",
                step_days="int1",
                stops=[None, pd.DataFrame({"lat": [1.0]})],
                composition=["x"],
            ),
        ),
    ]


if pd is not None:
    TABLE += _pandas_rows()

#: Public callables whose arguments are not numbers (or that have none), with what is checked instead.
NO_NUMERIC = {
    "bounds.Entry": "a record of Table 1 (strings and the function); built by the module",
    "bounds.Entry.evaluate": "passes the values it is given to the entry's function, which checks them",
    "bounds.RequirementError": "an exception type",
    "exact.TranscriptLogProbs": "a result record (outputs, not arguments)",
    "privacy.Losses": "a result record",
    "privacy.WorstCase": "a result record",
    "measure.MeasuredPbar": "a result record",
    "audit.AuditResult": "a result record",
    "audit.Verdict": "a result record",
    "co.CORun": "a result record",
    "co.COProblem": "an abstract base class (its interface methods are checked for every subclass: rows co.*.sample)",
    **{
        f"co.COProblem.{m}": "checked through every problem's rows (co.MaxCut.sample, co.DensestSubgraph.upper, ...)"
        for m in ("value", "sample", "scores", "sample_scored", "upper", "score_distribution")
    },
    "schedule.zeta": "no argument",
    "co.weight_sum_bound": "no argument",
    "co.c_omega": "no argument",
    "audit.Coding.allowed": "no argument",
}


def _id_of(module: str, qualname: str) -> str:
    short = module.removeprefix("privtest.")
    if short.startswith("co."):
        return f"co.{qualname}"
    if short.startswith("baselines."):
        return f"baselines.{qualname}"
    return f"{short}.{qualname}"


def _public_callables():
    """Every public function, class and method (with an argument) of the modules this table covers."""
    mods = [
        "privtest.mechanisms", "privtest.poisson", "privtest.schedule", "privtest.bounds", "privtest.exact",
        "privtest.privacy", "privtest.svt_variants", "privtest.measure", "privtest.audit",
        "privtest.baselines.above_threshold", "privtest.baselines.cohen", "privtest.baselines.ghazi",
        "privtest.baselines.liu_talwar", "privtest.co.params", "privtest.co.composition", "privtest.co.trajectory",
        "privtest.co.tables", "privtest.co.mechanisms", "privtest.co.batch_to_co", "privtest.co.graphs",
        "privtest.co.dks", "privtest.co.kcut", "privtest.co.maxcut", "privtest.co.submodular",
    ]  # fmt: skip
    out = set()
    for name in mods:
        mod = importlib.import_module(name)
        for public in mod.__all__:
            obj = getattr(mod, public)
            if inspect.isfunction(obj) and obj.__module__ == name:
                out.add(_id_of(name, public))
            elif inspect.isclass(obj) and obj.__module__ == name:
                out.add(_id_of(name, public))
                for key, value in obj.__dict__.items():
                    f = value.__func__ if isinstance(value, (classmethod, staticmethod)) else value
                    if key.startswith("_") or not inspect.isfunction(f):
                        continue
                    if [p for p in inspect.signature(f).parameters if p not in ("self", "cls")]:
                        out.add(_id_of(name, f"{public}.{key}"))
    return out


def test_the_table_lists_every_public_callable():
    covered = {row.id.split("(")[0] for row in TABLE} | set(NO_NUMERIC) | (NEEDS_PANDAS if pd is None else set())
    # a subclass's interface method is covered by the rows of its instances (co.<Problem>.sample, baselines' methods)
    missing = sorted(c for c in _public_callables() if c not in covered)
    assert not missing, f"public callables without a row in TABLE (or an entry of NO_NUMERIC): {missing}"


def _named(message: str, name: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", message) is not None


def _with_bad_element(good, bad):
    """``good`` (an array-like) with its last element replaced by ``bad``."""
    arr = np.array(good, dtype=object)
    arr.flat[-1] = bad
    return np.array(arr.tolist())  # numpy's own dtype: float with NaN, int -> float with 4.5, object with 2**1100


def _cases():
    for row in TABLE:
        for name, kind in row.spec.items():
            values = KINDS[kind] if isinstance(kind, str) else kind
            for bad in values:
                yield pytest.param(row, name, bad, False, id=f"{row.id}-{name}={bad!r:.16}")
            if name in row.arrays:
                for bad in values:
                    if isinstance(bad, (bool, str, list, np.ndarray, dict)) or bad is None or not np.isscalar(bad):
                        continue  # numpy turns [0.5, True] into [0.5, 1.0]: a bool element cannot be seen
                    yield pytest.param(row, name, bad, True, id=f"{row.id}-{name}[-1]={bad!r:.16}")


CASES = list(_cases())


@pytest.mark.parametrize(("row", "name", "bad", "element"), CASES)
def test_a_bad_argument_is_refused_naming_it(row, name, bad, element):
    value = _with_bad_element(row.defaults[name], bad) if element else bad
    with np.errstate(all="ignore"), pytest.raises((ValueError, TypeError)) as info:
        row.call(**{name: value})
    names = row.names.get(name, (name,))
    assert any(_named(str(info.value), n) for n in names), f"{row.id}({name}={value!r}): {info.value}"


@pytest.mark.parametrize("row", TABLE, ids=[row.id for row in TABLE])
def test_the_valid_call_of_each_row_works(row):
    row.call()


def test_the_table_is_large_enough_to_mean_it():
    assert len(TABLE) >= 200 and len(CASES) >= 3000
