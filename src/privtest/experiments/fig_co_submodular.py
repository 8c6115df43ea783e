"""fig_co_submodular: BatchToCO (Algorithm 3) for decomposable monotone submodular maximisation (Section 8.1, Table
2's k-Card. and k-Matroid rows) vs baselines: facility location on the 2017 Minneapolis police stops, one CO step
per ``step_days`` days. Batch algorithms: private greedy with the exponential mechanism (Gupta et al. 2010 /
Mitrovic et al. 2017, pure eps-DP) under a k-cardinality constraint, and its partition-matroid variant (each round
restricted to candidates whose strip is not full; greedy is a 1/2-approximation under a matroid). OPT_t is replaced
by a certified upper bound (greedy prefixes + top-k gains, also valid for the matroid, whose feasible sets are a
subset), labelled "upper bound", so measured ratios are lower bounds of the true ones. Raw rows:
:mod:`privtest.experiments._co`; claims: :mod:`privtest.checks.fig_co_submodular`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest import data
from privtest.co.submodular import FacilityLocation
from privtest.experiments import _co


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
