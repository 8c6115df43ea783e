"""fig_co_dks: BatchToCO (Algorithm 3) for densest-k-subgraph on real edge streams vs baselines (Thm 42, Sec. 8.3).

Same streams, constants, eps sweep and baselines as :mod:`privtest.experiments.fig_co_densest`. Objective
f(X_t, S) = w_t(E(S)) with |S| = k (sensitivity 1 under one inserted edge / contact, data-monotone). Batch
algorithm: noisy-degree top-k (:mod:`privtest.co.dks`, pure eps-edge-DP: Laplace(2/eps) on the degree vector, L1
sensitivity 2), a *stand-in* for the algorithm Section 8.3 cites. OPT_t: certified bounds
(:func:`privtest.co.dks.dks_opt_bounds`): ``opt`` is an upper bound U_t >= OPT_t, labelled ``exact`` where a
feasible k-set (top-k degrees or greedy peeling) attains it, else ``upper bound``; ``opt_lower`` is that feasible
value. Section 8.3 has no worst-case approximation ratio, so only Theorem 42's data-dependent V_A(X_t) applies, which
is how :mod:`privtest.checks._co` checks every application (guarantee at U_t and at confidence bounds on V_A).
Raw rows: those of :func:`privtest.experiments._co.run_problem` plus ``opt_lower`` and ``k``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.co.dks import DensestKSubgraph, dks_opt_bounds
from privtest.experiments import _co


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Raw rows per stream of ``cfg["streams"]``; ``inputs``: ``wheel_<stream>`` and ``opt_<stream>`` (the densest
    subgraph reference, whose density bounds max_S w(E(S))/|S|) for each stream."""
    frames = []
    for name in cfg["streams"]:
        stream, ref = _co.edge_stream_inputs(name, cfg, inputs)
        up, lo, kind = dks_opt_bounds(stream, cfg["k"], ref["opt"].to_numpy())
        prob = DensestKSubgraph(stream, cfg["k"], up, kind)
        part = _co.run_problem(prob, name, cfg, rng)
        part["opt_lower"] = lo[part.t.to_numpy() - 1]
        part["k"] = cfg["k"]
        frames.append(part)
    return pd.concat(frames, ignore_index=True)
