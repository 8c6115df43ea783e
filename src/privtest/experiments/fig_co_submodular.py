"""fig_co_submodular: BatchToCO (Algorithm 3) for decomposable monotone submodular maximisation (Section 8.1, Table
2's first and fifth rows) vs baselines: facility location on the 2017 Minneapolis police stops, one CO step per
``step_days`` days,
k-cardinality constraint, private greedy with the exponential mechanism (Gupta et al. 2010 / Mitrovic et al. 2017,
pure eps-DP). OPT_t is replaced by a certified upper bound (greedy prefixes + top-k gains), labelled "upper bound",
so measured ratios are lower bounds of the true ones. Raw rows and claims: :mod:`privtest.experiments._co`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest import data
from privtest.claims import Claim
from privtest.co.submodular import FacilityLocation
from privtest.experiments import _co
from privtest.experiments._co import summary  # noqa: F401  (the notebook plots it)


def simulate(cfg: dict, rng: np.random.Generator) -> pd.DataFrame:
    stops = data.mpls_stops(cfg["inputs"]["wheel_mpls_stops"])
    prob = FacilityLocation(
        stops,
        k=cfg["k"],
        grid=cfg["grid"],
        radius_km=cfg["radius_km"],
        T_max=cfg["T_max"].get("mpls_stops"),
        step_days=cfg["step_days"],
    )
    return _co.run_problem(prob, "mpls_stops", cfg, rng)


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    return _co.claims(raw, cfg, "fig_co_submodular")
