"""fig_co_densest: BatchToCO (Algorithm 3) for densest subgraph on real edge streams vs baselines (Thm 42, Sec. 8.2).

Streams (``privtest.data``, neighbouring = differ in one inserted edge / contact): CollegeMsg (unweighted, each pair
at its first message, one step per day: a small optimum) and the SocioPatterns primary school (weighted multigraph,
one step per 10-minute window with contacts: a large optimum). Batch algorithm: the noisy-degree prefix algorithm
of :class:`privtest.co.graphs.DensestSubgraph` (pure eps-edge-DP, a stand-in for the algorithms Section 8.2 cites).
OPT_t is exact (Charikar's LP) every ``co_data.opt_stride`` steps, the next exact value (an upper bound) in between. For
each eps of the sweep: ``runs`` runs of BatchToCO with the corrected constants (ERRATA.md) and the baselines of
:func:`privtest.co.batch_to_co.baselines` on the same stream, plus ``checkpoint_runs`` runs without ThresholdSelect for
Lemma 40.

Raw rows: :mod:`privtest.experiments._co`. Claims (:mod:`privtest.checks.fig_co_densest`): those of every CO
experiment (checkpoints, calls per step, privacy ledger, Theorem 42's guarantee), plus the Algorithm 3 vs
Corollary 35 erratum check (``co.cor35_erratum``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.co.graphs import DensestSubgraph
from privtest.experiments import _co


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Raw rows of :func:`privtest.experiments._co.run_problem` per stream of ``cfg["streams"]``; ``inputs``:
    ``wheel_<stream>`` (data wheel) and ``opt_<stream>`` (exact OPT_t reference) for each stream."""
    frames = []
    for name in cfg["streams"]:
        stream, ref = _co.edge_stream_inputs(name, cfg, inputs)
        prob = DensestSubgraph(stream, ref["opt"].to_numpy(), ref["opt_kind"].to_numpy())
        frames.append(_co.run_problem(prob, name, cfg, rng))
    return pd.concat(frames, ignore_index=True)
