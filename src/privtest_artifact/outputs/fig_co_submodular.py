"""fig_co_submodular: BatchToCO (Algorithm 3) for decomposable monotone submodular maximisation (Section 8.1, Table
2's k-Card. and k-Matroid rows) vs baselines: facility location on the 2017 Minneapolis police stops, one CO step
per ``step_days`` days. Batch algorithms: private greedy with the exponential mechanism (Gupta et al. 2010 /
Mitrovic et al. 2017, pure eps-DP) under a k-cardinality constraint, and its partition-matroid variant (each round
restricted to candidates whose strip is not full; greedy is a 1/2-approximation under a matroid). OPT_t is replaced
by a certified upper bound (greedy prefixes + top-k gains, also valid for the matroid, whose feasible sets are a
subset), labelled "upper bound", so measured ratios are lower bounds of the true ones. Raw rows:
:mod:`privtest_artifact.outputs._co`; claims: :mod:`privtest_artifact.outputs.fig_co_submodular`.

Analysis (:func:`analyse`, of the raw rows): the table its
figure draws,
mean and 10-90% band of f(X_t, Y_t) per (stream, eps, method, t) with OPT_t (``summary``,
:func:`privtest_artifact.outputs._co.summarize`), and the tables its claims compare with the paper's bounds
(:func:`privtest_artifact.outputs._co.tables`): ``privacy`` per eps, ``checkpoints``, ``calls`` and ``utility`` per
(stream,
eps).

Claims (:func:`claims`): the continual-observation claims of :mod:`privtest_artifact.outputs._co` (ids
``co.submodular.*``), for the k-cardinality and the partition-matroid streams.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.co.submodular import FacilityLocation
from privtest_artifact import data
from privtest_artifact.claims import Claim
from privtest_artifact.outputs import _co


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Raw rows for the k-cardinality problem (stream ``mpls_stops``) and, if ``cfg["matroid"]`` is set, for the
    partition-matroid variant (``mpls_stops_matroid``: candidates in ``groups`` vertical strips, at most ``cap``
    chosen per strip); ``inputs``: ``wheel_mpls_stops`` (data wheel)."""
    stops = data.mpls_stops(inputs["wheel_mpls_stops"])
    variants = {"mpls_stops": {}}
    if cfg.get("matroid"):
        variants["mpls_stops_matroid"] = {"groups": cfg["matroid"]["groups"], "cap": cfg["matroid"]["cap"]}
    frames = []
    for name, constraint in variants.items():
        prob = FacilityLocation(
            stops,
            k=cfg["k"],
            grid=cfg["grid"],
            radius_km=cfg["radius_km"],
            T_max=cfg["T_max"].get("mpls_stops"),
            step_days=cfg["step_days"],
            **constraint,
        )
        frames.append(_co.run_problem(prob, name, cfg, rng))
    return pd.concat(frames, ignore_index=True)


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``summary``, ``privacy``, ``checkpoints``, ``calls`` and ``utility`` (module docstring) of the raw
    rows; ``cfg``: the config section (BatchToCO's constants)."""
    return {"summary": _co.summarize(raw), **_co.tables(raw, cfg)}


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """The continual-observation claims of :func:`privtest_artifact.outputs._co.claims` with prefix ``co.submodular``,
    on the
    tables of :func:`privtest_artifact.outputs.fig_co_submodular.analyse` (None computes the ones they read,
    :func:`privtest_artifact.outputs._co.tables`, from ``raw`` and ``cfg``)."""
    return _co.claims(tables, cfg, "co.submodular")
