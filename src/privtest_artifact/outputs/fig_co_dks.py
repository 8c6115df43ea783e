"""fig_co_dks: BatchToCO (Algorithm 3) for densest-k-subgraph on real edge streams vs baselines (Thm 42, Sec. 8.3).

Same streams, constants, eps sweep and baselines as :mod:`privtest_artifact.outputs.fig_co_densest`. Objective
f(X_t, S) = w_t(E(S)) with |S| = k (sensitivity 1 under one inserted edge / contact, data-monotone). Batch algorithm:
noisy-degree top-k (:mod:`privtest.co.dks`, pure eps-edge-DP: Laplace(2/eps) on the degree vector, L1 sensitivity 2), a
*stand-in* for the algorithm Section 8.3 cites. OPT_t: certified bounds (:func:`privtest.co.dks.dks_opt_bounds`):
``opt`` is an upper bound U_t >= OPT_t, labelled ``exact`` where a feasible k-set (top-k degrees or greedy peeling)
attains it, else ``upper bound``; ``opt_lower`` is that feasible value. Section 8.3 has no worst-case approximation
ratio, so only Theorem 42's data-dependent V_A(X_t) applies, which is how :mod:`privtest_artifact.outputs._co` checks
every application (guarantee at U_t and at confidence bounds on V_A).

Simulation (:func:`simulate`): raw rows of :func:`privtest_artifact.outputs._co.run_problem` per stream, plus
``opt_lower`` and ``k``.

Analysis (:func:`analyse`):

* ``summary``: what the figure draws, mean and 10-90% band of the edges inside S per (stream, eps, method, t) with the
  upper bound U_t >= OPT_t (``opt``) and the value of a feasible k-set (``opt_lower``);
* ``privacy``: per eps, Lemma 38's worst-case ledger of BatchToCO beside the realised ex-post loss of the runs;
* ``checkpoints``: per (stream, eps), Lemma 40 via Lemma 39(2): the runs whose checkpoints violate
  h_ell < OPT_t + (2/eps(ell,t)) ln(1/pbar);
* ``calls``: per (stream, eps), the GTM calls of A per step against their exact expectation (Theorem 42(3));
* ``utility``: per (stream, eps), the runs below Theorem 42(2)'s explicit guarantee at the steps its proof covers, with
  V_A bracketed.

The last four are those every CO output's claims compare with the paper's bounds
(:func:`privtest_artifact.outputs._co.tables`).

Claims (:func:`claims`): the continual-observation claims of every CO output
(:func:`privtest_artifact.outputs._co.claims`, ids ``co.dks.*``; Lemma 40 with U_t >= OPT_t, a looser valid bound).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.co.dks import DensestKSubgraph, dks_opt_bounds
from privtest_artifact.claims import Claim
from privtest_artifact.outputs import _co
from privtest_artifact.outputs._co import plotted


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


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``summary``, ``privacy``, ``checkpoints``, ``calls`` and ``utility`` (module docstring) of the raw
    rows; ``cfg``: the config section (BatchToCO's constants)."""
    out = _co.summarize(raw)
    out["opt_lower"] = plotted(raw).groupby(["stream", "eps", "method", "t"], sort=True)["opt_lower"].first().to_numpy()
    return {"summary": out, **_co.tables(raw, cfg)}


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """The continual-observation claims of :func:`privtest_artifact.outputs._co.claims` with prefix ``co.dks``, on the
    tables of :func:`analyse`."""
    return _co.claims(tables, cfg, "co.dks")
