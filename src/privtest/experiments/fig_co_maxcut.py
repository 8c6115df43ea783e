"""fig_co_maxcut: BatchToCO (Algorithm 3) for Max-Cut (Section 8.4) vs baselines on the CollegeMsg subgraph of its
``k`` most active users, one CO step per inserted edge; batch algorithm: the exponential mechanism over all cuts
(:class:`privtest.co.maxcut.MaxCut`, pure eps-edge-DP, additive error O((n + ln(1/beta))/eps)); OPT_t exact by
enumeration. Raw rows and claims as in :mod:`privtest.experiments.fig_co_densest`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest import data
from privtest.claims import Claim
from privtest.co.maxcut import MaxCut, top_users_stream
from privtest.experiments import fig_co_densest
from privtest.experiments.fig_co_densest import summary  # noqa: F401  (the notebook plots it)


def simulate(cfg: dict, rng: np.random.Generator) -> pd.DataFrame:
    n, edges = top_users_stream(data.collegemsg(cfg["inputs"]["wheel_collegemsg"]), cfg["users"])
    prob = MaxCut(n, edges, f"CollegeMsg top {n}")
    return pd.concat(fig_co_densest.run_problem(prob, f"collegemsg_top{n}", cfg, rng), ignore_index=True)


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    return fig_co_densest.claims(raw, cfg, "fig_co_maxcut")
