"""fig_co_maxcut: BatchToCO (Algorithm 3) for Max-Cut (Section 8.4) vs baselines on the CollegeMsg subgraph of its
``k`` most active users, one CO step per inserted edge; batch algorithm: the exponential mechanism over all cuts
(:class:`privtest.co.maxcut.MaxCut`, pure eps-edge-DP, additive error O((n + ln(1/beta))/eps)); OPT_t exact by
enumeration. Raw rows: :mod:`privtest.experiments._co`; claims: :mod:`privtest.checks.fig_co_maxcut`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest import data
from privtest.co.maxcut import MaxCut, top_users_stream
from privtest.experiments import _co


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Raw rows on the top-``users`` CollegeMsg stream; ``inputs``: ``wheel_collegemsg`` (data wheel)."""
    n, edges = top_users_stream(data.collegemsg(inputs["wheel_collegemsg"]), cfg["users"])
    prob = MaxCut(n, edges, f"CollegeMsg top {n}")
    return _co.run_problem(prob, f"collegemsg_top{n}", cfg, rng)
