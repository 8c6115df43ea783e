"""fig_co_dks: BatchToCO (Algorithm 3) for densest-k-subgraph on real edge streams vs baselines (Thm 42, Sec. 8.3).

Same streams, constants, eps sweep and baselines as :mod:`privtest.experiments.fig_co_densest`. Objective
f(X_t, S) = w_t(E(S)) with |S| = k (sensitivity 1 under one inserted edge / contact, data-monotone). Batch
algorithm: noisy-degree top-k (:mod:`privtest.co.dks`, pure eps-edge-DP: Laplace(2/eps) on the degree vector, L1
sensitivity 2), a *stand-in* for the algorithm Section 8.3 cites. OPT_t: certified bounds
(:func:`privtest.co.dks.dks_opt_bounds`): ``opt`` is an upper bound U_t >= OPT_t, labelled ``exact`` where a
feasible k-set (top-k degrees or greedy peeling) attains it, else ``upper bound``; ``opt_lower`` is that feasible
value. Section 8.3 has no worst-case approximation ratio, so only Theorem 42's data-dependent V_A(X_t) applies, which
is how :mod:`privtest.experiments._co` checks every application (guarantee at U_t and at confidence bounds on V_A).
Raw rows: those of :func:`privtest.experiments._co.run_problem` plus ``opt_lower`` and ``k``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.claims import Claim
from privtest.co.dks import DensestKSubgraph, dks_opt_bounds
from privtest.co.graphs import load_stream
from privtest.experiments import _co

EXPERIMENT = "fig_co_dks"


def simulate(cfg: dict, rng: np.random.Generator) -> pd.DataFrame:
    frames = []
    for name in cfg["streams"]:
        inputs = cfg["inputs"]
        stream = load_stream(name, inputs[f"wheel_{name}"], cfg["T_max"].get(name))
        density = pd.read_csv(inputs[f"opt_{name}"])["opt"].to_numpy()[: stream.T]  # >= max_S w(E(S))/|S|
        up, lo, kind = dks_opt_bounds(stream, cfg["k"], density)
        prob = DensestKSubgraph(stream, cfg["k"], up, kind)
        part = _co.run_problem(prob, name, cfg, rng)
        part["opt_lower"] = np.tile(lo, len(part) // stream.T)
        part["k"] = cfg["k"]
        frames.append(part)
    return pd.concat(frames, ignore_index=True)


def summary(raw: pd.DataFrame) -> pd.DataFrame:
    """Per (stream, eps, method, t): mean, 10% and 90% quantiles of value, opt (U_t), opt_lower and opt_kind."""
    out = _co.summary(raw)
    lo = raw.groupby(["stream", "eps", "method", "t"], sort=True)["opt_lower"].first().to_numpy()
    out["opt_lower"] = lo
    return out


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """The CO claims of :func:`privtest.experiments._co.claims` (Lemma 40 with U_t >= OPT_t, a looser valid bound)."""
    return _co.claims(raw, cfg, EXPERIMENT)
